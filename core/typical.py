"""Typical acceptance (Medusa, Cai et al. 2024, section 2.3.1), decided exactly.

A proposal ``x`` is kept when the target's own probability of it is high
enough, whatever the draft thought of it:

    p(x) > min(epsilon, delta * exp(-H(p)))

with ``H(p) = -sum(p * log p)`` the entropy of the target's row (natural
log). The rule needs no draw: it is a deterministic cut on ``p``. It keeps
plausible tokens that the exact rule would sometimes reject, so it accepts
more, but the output no longer follows the target: lossy by design.

Parameters: vLLM's ``TypicalAcceptanceSampler`` (vllm-project/vllm#5131)
takes ``posterior_threshold`` epsilon, "Default is 0.09", and
``posterior_alpha`` delta, "Typically defaults to sqrt of
posterior_threshold and is set to 0.3" (Medusa's own code uses the same
pair). ``PAPER`` holds them as exact fractions.

No float decides anything. ``exp(-H(p))`` is irrational in general, but for
a row of integers ``a_i`` over their sum ``d`` (so ``p_i = a_i / d``)

    exp(-H(p)) = prod(p_i ** p_i) = prod(a_i ** a_i) ** (1/d) / d

(with ``0 ** 0 = 1``), so ``a_x / d > delta * exp(-H(p))`` is, after raising
both positive sides to the power ``d``,

    (a_x / delta) ** d > prod(a_i ** a_i)

a comparison of rationals, exact whatever the rounding. The toy rows have
``d`` at most 16,018 even transformed (temperature 1/4, after B), so these
integers have at most a few hundred thousand bits; they are computed only
when ``p(x) <= epsilon`` has not already decided, and each row's verdicts
are cached (all transformed rows together take milliseconds).

On three tokens ``exp(-H(p)) >= 1/3`` always (the entropy is at most
log 3), so with delta = 0.3 the entropy term is at least 0.1 and never
undercuts epsilon = 0.09: with the paper's parameters the rule on these
tables is exactly "keep x when p(x) > 0.09". Every toy target row gives each
token at least 0.15, so it keeps every proposal. That is a fact about a
three-token vocabulary, where 0.09 is a low bar; ``accepts`` still computes
the whole criterion, and other parameters reach the entropy term.

After a rejection the replacement is the target's own sampled token at that
position (vLLM after vllm-project/vllm#8562: "we will always select 1 token
from the target model"), so a fresh draw from ``p``; after a full acceptance
the bonus is a draw from ``p``, as in Algorithm 1.
"""

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import lcm, prod

# A row's common denominator past which the powers would be too large to compare
# quickly; the toy tables stay far below it.
MAX_DENOMINATOR = 100_000


@dataclass(frozen=True)
class Parameters:
    """``epsilon``: the hard threshold; ``delta``: the entropy-dependent threshold's scale."""

    epsilon: Fraction
    delta: Fraction

    def __post_init__(self):
        for name in ("epsilon", "delta"):
            value = getattr(self, name)
            if isinstance(value, (bool, float)) or not isinstance(value, (int, Fraction)):
                raise ValueError(f"{name} must be an exact fraction, got {value!r}")
            if not 0 < value <= 1:
                raise ValueError(f"{name} must be above 0 and at most 1, got {value}")
            object.__setattr__(self, name, Fraction(value))


PAPER = Parameters(Fraction(9, 100), Fraction(3, 10))


def integer_row(p):
    """``p`` as integers over their sum: ``(a, d)`` with ``p_i = a_i / d``."""
    p = tuple(Fraction(x) for x in p)
    d = lcm(*(x.denominator for x in p))
    return tuple(int(x * d) for x in p), d


def above_entropy_term(weights, x, delta):
    """``p(x) > delta * exp(-H(p))`` for ``p = weights / sum(weights)``, exactly (module docstring)."""
    d = sum(weights)
    if d > MAX_DENOMINATOR:
        raise ValueError(f"typical acceptance compares exactly only rows over at most {MAX_DENOMINATOR}, got {d}")
    if not weights[x]:
        return False
    # (a_x / delta) ** d > prod(a ** a)  <=>  (a_x * delta.den) ** d > delta.num ** d * prod(a ** a)
    left = (weights[x] * delta.denominator) ** d
    right = delta.numerator ** d * prod(a ** a for a in weights if a)
    return left > right


@lru_cache(maxsize=1024)
def accepts_weights(weights, x, params=PAPER):
    """``typical acceptance`` on an integer row (any common denominator: the test is scale-free)."""
    d = sum(weights)
    if weights[x] * params.epsilon.denominator > params.epsilon.numerator * d:
        return True  # p(x) > epsilon, so p(x) > min(epsilon, anything)
    return above_entropy_term(weights, x, params.delta)


def accepts(p, x, params=PAPER):
    """Does typical acceptance keep token ``x`` against the target row ``p`` (Fractions)?"""
    weights, _ = integer_row(p)
    return accepts_weights(weights, x, params)


def threshold_holds_at(p, params=PAPER):
    """Which threshold binds for row ``p``: "epsilon" when epsilon <= delta * exp(-H(p)), else "entropy".

    Decided exactly like ``accepts``: epsilon <= delta * exp(-H) is
    ``(epsilon / delta) ** d <= prod(p_i ** (d p_i))`` over a common denominator.
    """
    weights, d = integer_row(p)
    ratio = params.epsilon / params.delta
    # (epsilon/delta) ** d <= prod(a_i ** a_i) / d ** d
    left = (ratio.numerator * d) ** d
    right = ratio.denominator ** d * prod(a ** a for a in weights if a)
    return "epsilon" if left <= right else "entropy"


def entropy_float(p):
    """``H(p)`` in nats, for display only: no decision reads it."""
    return -sum(float(x) * math.log(float(x)) for x in p if x)
