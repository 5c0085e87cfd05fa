"""Ordinary decoding beside the speculative trace: two lanes on one clock.

Ordinary decoding makes one target pass per token and draws that token from
``p``. It is what the speculative trace is measured against (``Counters``'
``ordinary_passes``; ``core.sampler.ordinary_prefix`` draws the same tokens
for the many-run histograms). Its order of draws, from the scenario's seed:

1. one draw per token, left to right, picking the token from the target's row
   ``p`` after the text so far by inverse CDF (``core.rule.pick``).

That is all: no draft, no test. So its tokens are a *different sample of the
same distribution* as the speculative output (for an exact rule and a
transformation the target sees), not the same trace: the two use the same
seed but spend its draws differently. Its rows are those of the target the
user asked for (``Setup.reference``: transformed when the scenario has a
temperature or top-k), like ``core.sampler.sample_target``.

``lanes`` puts both on the axis of target passes: tokens committed after each
pass and, with the draft-step cost ``c`` of ``core.payoff``, the time spent
(a speculative block costs ``draft steps * c + 1``, an ordinary token ``1``),
all exact.
"""

from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

from toy_tables import TOKENS

from . import prng
from .config import Config
from .records import _u
from .rule import pick


@dataclass(frozen=True)
class OrdinaryStep:
    """One ordinary token: target pass ``index + 1``, its row ``p`` after ``prefix``, its draw ``k``."""

    index: int
    prefix: tuple
    p: tuple
    k: int
    token: str

    @property
    def u(self):
        return _u(self.k)

    def to_dict(self):
        return {"prefix": list(self.prefix), "p": [str(x) for x in self.p], "u": str(self.u), "token": self.token}


@dataclass(frozen=True)
class OrdinaryTrace:
    """Ordinary decoding of ``config``'s target with ``config``'s seed, to its output limit."""

    config: Config
    steps: tuple

    @classmethod
    def of(cls, config):
        rows = config.setup.reference
        rng, prefix, steps = prng.seed(config.seed), (), []
        for i in range(config.max_tokens):
            rng, k = prng.step(rng)
            row = rows[prefix[-1] if prefix else ""]
            token = TOKENS[pick(row.weights, row.den, k)]
            steps.append(OrdinaryStep(i, prefix, row.fracs, k, token))
            prefix += (token,)
        return cls(config, tuple(steps))

    @property
    def output(self):
        return tuple(s.token for s in self.steps)

    @property
    def target_passes(self):
        return len(self.steps)

    def to_dict(self):
        return {"seed": self.config.seed, "output": list(self.output), "steps": [s.to_dict() for s in self.steps],
                "target_passes": self.target_passes}


@dataclass(frozen=True)
class Point:
    """A lane after ``passes`` target passes: ``tokens`` committed, ``time`` spent (None without a cost).

    ``moment`` is, on the speculative lane, the timeline moment whose Verify
    made this pass (0 for the start); on the ordinary lane, None."""

    passes: int
    tokens: int
    time: Optional[Fraction]
    moment: Optional[int]


@dataclass(frozen=True)
class Lanes:
    """The speculative and the ordinary lane on one axis of target passes.

    Both end at the output limit; ``speculative[-1].passes`` is the trace's
    ``Counters.target_passes`` and ``ordinary[-1].passes`` its
    ``ordinary_passes``. ``cost`` is the draft-step cost c (None: no time axis).
    """

    cost: Optional[Fraction]
    speculative: tuple
    ordinary: tuple
    ordinary_trace: OrdinaryTrace

    @property
    def passes_saved(self):
        """Target passes the speculative lane did not need: never negative, as every pass commits a token."""
        return self.ordinary[-1].passes - self.speculative[-1].passes

    def tokens_after(self, lane, passes):
        """Tokens a lane ("speculative" or "ordinary") has committed after ``passes`` target passes."""
        points = getattr(self, lane)
        return max((x.tokens for x in points if x.passes <= passes), default=0)


    def to_text(self):
        """Tokens (and time) after each target pass, both lanes: the CLI's ``trace --timeline`` ends with it."""
        lines = [f"ordinary decoding, same seed: {' '.join(self.ordinary_trace.output)} "
                 "(a different sample of the same distribution, not the same trace)"]
        for n in range(self.ordinary[-1].passes + 1):
            spec = next((x for x in self.speculative if x.passes == n), None)
            plain = self.ordinary[n]
            s = "" if spec is None else f"speculative {spec.tokens} tokens" + (
                "" if spec.time is None else f" at time {spec.time}")
            o = f"ordinary {plain.tokens} tokens" + ("" if plain.time is None else f" at time {plain.time}")
            lines.append(f"after pass {n}:  {s:<36}{o}".rstrip())
        return "\n".join(lines)


def lanes(timeline, cost=None):
    """Both lanes of ``timeline``'s trace (a ``core.timeline.Timeline``), with time when ``cost`` is given."""
    from .payoff import check_cost  # here: the page's first import of core need not load the long run

    c = None if cost is None else check_cost(cost)
    end = timeline.sessions[-1]
    spec, time = [Point(0, 0, None if c is None else Fraction(0), 0)], Fraction(0)
    tokens = 0
    for b in end.blocks:
        tokens += len(b.committed)
        time += (c or 0) * len(b.proposals) + 1
        spec.append(Point(b.index + 1, tokens, None if c is None else time, 3 * b.index + 2))
    ordinary = OrdinaryTrace.of(end.config)
    plain = tuple(Point(n, n, None if c is None else Fraction(n), None) for n in range(ordinary.target_passes + 1))
    return Lanes(c, tuple(spec), plain, ordinary)
