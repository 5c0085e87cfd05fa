"""How many target passes a full trace takes, and what its counter averages.

A trace's tokens-per-pass counter is ``committed / target_passes``. Over
many seeds it averages ``E[max_tokens / passes]``. That is not the pooled
ratio ``max_tokens / E[passes]`` of ``payoff.trace_expectation`` (the
counters of many traces added up first): by Jensen's inequality the average
of the counter is at least the pooled ratio, equal only when every trace
takes the same number of passes. The page quotes the one the counter shows.
"""

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Optional

from .config import MAX_TOKENS, Config
from .exact import block_outcomes
from .tables import AUTHORED


@dataclass(frozen=True)
class Passes:
    """The exact distribution of a full trace's target passes, ``{passes: probability}``."""

    draft: str
    width: int
    max_tokens: int
    lookahead: Optional[Fraction]
    distribution: dict

    @property
    def mean_passes(self):
        return sum(n * prob for n, prob in self.distribution.items())

    @property
    def mean_tokens_per_pass(self):
        """What the tokens-per-pass counter of a finished trace averages over many seeds."""
        return sum(Fraction(self.max_tokens, n) * prob for n, prob in self.distribution.items())

    @property
    def pooled_tokens_per_pass(self):
        """All traces' tokens over all their passes: ``max_tokens / E[passes]``."""
        return self.max_tokens / self.mean_passes


@lru_cache(maxsize=None)
def passes(draft, width, max_tokens=MAX_TOKENS, lookahead=None, variant="exact", tables=AUTHORED):
    """Every number of target passes a full trace can take, with its exact probability."""
    Config(draft, width, 0, max_tokens, variant, lookahead, tables=tables)
    lookahead = None if lookahead is None else Fraction(lookahead)

    @lru_cache(maxsize=None)
    def rest(last, length):
        if length >= max_tokens:
            return {0: Fraction(1)}
        room = max_tokens - length
        out = {}
        for seq, prob in block_outcomes(variant, draft, min(width, room), last, room, lookahead, tables=tables):
            for n, q in rest(seq[-1], length + len(seq)).items():
                out[n + 1] = out.get(n + 1, Fraction(0)) + prob * q
        return out

    return Passes(draft, width, max_tokens, lookahead, dict(sorted(rest("", 0).items())))
