"""When speculation pays off: tokens per target pass and time per token.

Two answers side by side:

* **exact**, from the toy tables: the long-run average over many blocks,
  by renewal reward. A block starts after a token s in {A, B, C}; which
  token ends it is a Markov chain; its stationary distribution weights each
  start's exact expected tokens and draft steps (``exact.block_outcomes``).
* **closed form**, from the paper (Leviathan et al. 2023, Eq. 1 and
  Theorem 3.8): ``E = (1 - a**(g+1)) / (1 - a)`` tokens per target pass and
  ``(g*c + 1) * (1 - a) / (1 - a**(g+1))`` time per token relative to
  ordinary decoding, with ``a`` the average acceptance rate
  ``sum(min(p, q))`` over the positions the target visits, and ``c`` the
  cost of one draft step relative to one target pass.

The closed form assumes every position accepts with the same chance ``a``,
independently. Here the chance depends on the previous token, and a
block's later positions follow tokens the draft favours, so the two differ.
Both are algorithmic expectations: no batching, memory or concurrency.
"""

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Optional

import toy_tables
from toy_tables import TOKENS

from .config import MAX_TOKENS, MAX_WIDTH, Config
from .exact import block_outcomes
from .numbers import parse_fraction
from .variants import VARIANTS


def stationary(chain):
    """Stationary distribution of ``chain[s][t]`` over TOKENS, exactly (Gaussian elimination)."""
    n = len(TOKENS)
    # pi (P - I) = 0 with sum(pi) = 1: transpose, replace the last equation by the sum.
    rows = [[chain[TOKENS[j]][TOKENS[i]] - (1 if i == j else 0) for j in range(n)] + [Fraction(0)]
            for i in range(n - 1)]
    rows.append([Fraction(1)] * n + [Fraction(1)])
    for col in range(n):
        pivot = next(r for r in range(col, n) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [v / lead for v in rows[col]]
        for r in range(n):
            if r != col and rows[r][col]:
                f = rows[r][col]
                rows[r] = [a - f * b for a, b in zip(rows[r], rows[col])]
    return {TOKENS[i]: rows[i][n] for i in range(n)}


@lru_cache(maxsize=None)
def alpha(draft):
    """Average acceptance rate: sum(min(p, q)) weighted by how often the target visits each state."""
    target = toy_tables.target.rows
    visits = stationary({s: dict(zip(TOKENS, target[s])) for s in TOKENS})
    q = toy_tables.drafts[draft].rows
    return sum(visits[s] * sum(min(a, b) for a, b in zip(target[s], q[s])) for s in TOKENS)


def _drafted(draft, variant, width, last, lookahead):
    """Expected proposals in one block: ``width``, or fewer when lookahead stops early."""
    if lookahead is None:
        return Fraction(width)
    q_rows = toy_tables.drafts[draft].rows
    propose = VARIANTS[variant].propose_dist

    def walk(i, cur):
        total = Fraction(1)
        if i + 1 < width:
            for x, qx in enumerate(propose(q_rows[cur])):
                if qx and not q_rows[cur][x] < lookahead:
                    total += qx * walk(i + 1, TOKENS[x])
        return total

    return walk(0, last)


@dataclass(frozen=True)
class Payoff:
    """Long-run figures for one draft, width and draft cost ``c``."""

    draft: str
    width: int
    cost: Fraction
    lookahead: Optional[Fraction]
    alpha: Fraction
    tokens_per_pass: Fraction
    draft_steps_per_pass: Fraction
    time_per_token: Fraction
    closed_tokens_per_pass: Optional[Fraction]
    closed_time_per_token: Optional[Fraction]

    @property
    def speedup(self):
        """Ordinary decoding's time per token over speculation's (above 1 pays off)."""
        return 1 / self.time_per_token

    @property
    def closed_speedup(self):
        return None if self.closed_time_per_token is None else 1 / self.closed_time_per_token


def closed_tokens_per_pass(a, width):
    """The paper's Eq. 1: ``(1 - a**(width+1)) / (1 - a)``, and ``width + 1`` when a = 1."""
    a = Fraction(a)
    return Fraction(width + 1) if a == 1 else (1 - a ** (width + 1)) / (1 - a)


def closed_time_per_token(a, width, cost):
    """Theorem 3.8 inverted: ``(width*c + 1) / E`` relative to ordinary decoding."""
    return (width * Fraction(cost) + 1) / closed_tokens_per_pass(a, width)


@lru_cache(maxsize=None)
def long_run(draft, width, lookahead=None, variant="exact"):
    """``(tokens_per_pass, draft_steps_per_pass)`` in the long run: the part of
    ``payoff`` that does not depend on the draft cost, computed once."""
    chain, tokens, steps = {}, {}, {}
    for s in TOKENS:
        outcomes = block_outcomes(variant, draft, width, s, width + 1, lookahead)
        tokens[s] = sum(prob * len(seq) for seq, prob in outcomes)
        chain[s] = {t: sum(prob for seq, prob in outcomes if seq[-1] == t) for t in TOKENS}
        steps[s] = _drafted(draft, variant, width, s, lookahead)
    weights = stationary(chain)
    return sum(weights[s] * tokens[s] for s in TOKENS), sum(weights[s] * steps[s] for s in TOKENS)


# c is one draft step's cost in target passes: 0 is a free draft, 1 a draft as
# slow as the target. Past 1 every width only loses more; 10 leaves room to show
# that, and keeps every figure a finite float for display.
MAX_COST = 10


def check_cost(cost):
    """``cost`` as a Fraction from 0 to ``MAX_COST``, else a ValueError that says so.

    Text is read by ``core.numbers`` (``Fraction("1e999999999")`` would never return).
    """
    if isinstance(cost, str):
        return parse_fraction(cost, name="the draft cost c", low=0, high=MAX_COST)
    if isinstance(cost, float) and not math.isfinite(cost):
        raise ValueError(f"the draft cost c must be from 0 to {MAX_COST}, got {cost}")
    cost = Fraction(cost)
    if not 0 <= cost <= MAX_COST:
        small = abs(cost.numerator) < 10**12 and cost.denominator < 10**12  # never print a 4,000-digit number
        got = cost if small else ("a negative number" if cost < 0 else f"more than {MAX_COST}")
        raise ValueError(f"the draft cost c must be from 0 to {MAX_COST}, got {got}")
    return cost


def payoff(draft, width, cost, lookahead=None, variant="exact"):
    """Exact long-run tokens per pass and time per token, beside the closed form."""
    Config(draft, width, 0, MAX_TOKENS, variant, lookahead)
    cost = check_cost(cost)
    lookahead = None if lookahead is None else Fraction(lookahead)
    per_pass, draft_steps = long_run(draft, width, lookahead, variant)
    a = alpha(draft)
    closed = closed_tokens_per_pass(a, width) if lookahead is None else None
    closed_time = closed_time_per_token(a, width, cost) if lookahead is None else None
    return Payoff(draft, width, cost, lookahead, a, per_pass, draft_steps, (cost * draft_steps + 1) / per_pass,
                  closed, closed_time)


@dataclass(frozen=True)
class PayoffTable:
    rows: tuple
    best_width: int
    closed_best_width: Optional[int]


def payoff_table(draft, cost, lookahead=None, widths=range(1, MAX_WIDTH + 1)):
    """``payoff`` for every width, and the width with the least time per token (ties: the shorter)."""
    rows = tuple(payoff(draft, w, cost, lookahead) for w in widths)
    best = min(rows, key=lambda r: (r.time_per_token, r.width)).width
    closed_best = None
    if lookahead is None:
        closed_best = min(rows, key=lambda r: (r.closed_time_per_token, r.width)).width
    return PayoffTable(rows, best, closed_best)


def trace_time_per_token(counters, cost):
    """What a finished trace's counters say: ``(c * draft steps + passes) / committed``."""
    if not counters.committed:
        return None
    return (Fraction(cost) * counters.draft_steps + counters.target_passes) / counters.committed


def trace_speedup(counters, cost):
    """The same trace as a speedup over ordinary decoding (above 1 pays off)."""
    time = trace_time_per_token(counters, cost)
    return None if time is None else 1 / time


@dataclass(frozen=True)
class TraceExpectation:
    """Exact expectations for one whole trace to ``max_tokens`` (what the counters show)."""

    target_passes: Fraction
    draft_steps: Fraction
    tokens_per_pass: Fraction


def trace_expectation(draft, width, max_tokens=MAX_TOKENS, lookahead=None, variant="exact"):
    """Expected target passes and draft steps of a full trace, by enumeration.

    ``tokens_per_pass`` is ``max_tokens / E[passes]``: the pooled ratio that
    the counters of many traces converge to.
    """
    Config(draft, width, 0, max_tokens, variant, lookahead)
    lookahead = None if lookahead is None else Fraction(lookahead)

    @lru_cache(maxsize=None)
    def expect(last, length):
        if length >= max_tokens:
            return Fraction(0), Fraction(0)
        room = max_tokens - length
        n = min(width, room)
        passes, steps = Fraction(1), _drafted(draft, variant, n, last, lookahead)
        for seq, prob in block_outcomes(variant, draft, n, last, room, lookahead):
            more_passes, more_steps = expect(seq[-1], length + len(seq))
            passes += prob * more_passes
            steps += prob * more_steps
        return passes, steps

    passes, steps = expect("", 0)
    return TraceExpectation(passes, steps, max_tokens / passes)
