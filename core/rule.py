"""The acceptance rule and the residual (Leviathan et al. 2023, Algorithm 1).

At one position the target gives ``p`` and the draft ``q``. A token ``x``
drawn from ``q`` is accepted when ``u < p(x) / q(x)`` for a uniform draw
``u`` in [0, 1): strict ``<``, so with ``u`` uniform on [0, 1) the chance is
exactly ``min(1, p(x)/q(x))``, and a ratio of 1 or more always accepts. The
paper writes the same test as ``r > p/q`` rejecting; the boundary has
probability zero for a continuous ``u`` and is fixed here so that a
discrete ``u = k / 2**32`` can never flip a decision by rounding.

On rejection the replacement is drawn from the residual
``norm(max(p - q, 0))``. Accepted mass ``min(p, q)`` plus rejection mass
times residual gives back ``p`` exactly (``decompose``).

Two layers: Fraction functions that records and the inspector show, and
integer primitives that the engine samples with. Both are exact.
"""

from dataclasses import dataclass
from functools import lru_cache
from fractions import Fraction

from . import display
from .numbers import InputError, parse_fraction
from .prng import U_BITS

ZERO = Fraction(0)
ONE = Fraction(1)


# ---- exact distributions, as Fractions -------------------------------------

def accept_probability(p_x, q_x):
    """``min(1, p(x)/q(x))``; ``q(x) > 0`` since ``x`` was drawn from ``q``."""
    return min(ONE, Fraction(p_x) / q_x)


def positive_part(p, q):
    """``max(p - q, 0)`` token by token: the mass ``q`` under-supplies."""
    return tuple(max(a - b, ZERO) for a, b in zip(p, q))


def residual(p, q):
    """``norm(max(p - q, 0))``; all zeros when ``q`` never under-supplies ``p``.

    With ``p == q`` there is nothing to renormalise and nothing is ever
    rejected, so the zero row is returned instead of dividing by zero.
    """
    part = positive_part(p, q)
    mass = sum(part)
    if mass == 0:
        return tuple(ZERO for _ in part)
    return tuple(x / mass for x in part)


@dataclass(frozen=True)
class Decomposition:
    """One position split into accepted mass and corrected mass (seed 001).

    ``accepted[x] = q(x) * min(1, p(x)/q(x)) = min(p(x), q(x))``;
    ``rejection = 1 - sum(accepted) = sum(max(p - q, 0))``;
    ``final = accepted + rejection * residual``, which equals ``p``.
    """

    p: tuple
    q: tuple
    accepted: tuple
    rejection: Fraction
    positive_part: tuple
    residual: tuple
    corrected: tuple
    final: tuple


def decompose(p, q):
    """Decompose one position; ``final == p`` holds exactly, always."""
    p = tuple(Fraction(x) for x in p)
    q = tuple(Fraction(x) for x in q)
    accepted = tuple(min(a, b) for a, b in zip(p, q))
    rejection = ONE - sum(accepted)
    part = positive_part(p, q)
    norm = residual(p, q)
    corrected = tuple(rejection * r for r in norm)
    final = tuple(a + c for a, c in zip(accepted, corrected))
    return Decomposition(p, q, accepted, rejection, part, norm, corrected, final)


# Three short numbers and their separators; each number is read by core.numbers.
MAX_INPUT = 120


def parse_distribution(text, size=3):
    """Parse ``"0.6,0.3,0.1"`` (or fractions like ``"1/3"``) into exact Fractions.

    Raises ``InputError`` (a ``ValueError``) with a sentence a student can act on.
    """
    text = text if isinstance(text, str) else str(text)
    if len(text) > MAX_INPUT:
        raise InputError(f"that is too long: give {size} short numbers such as 0.6, 0.3, 0.1")
    parts = text.replace(";", ",").split(",")
    if len(parts) != size:
        raise InputError(f"give {size} numbers separated by commas, one for each of A, B, C")
    row = []
    for name, part in zip("ABC", parts):
        value = parse_fraction(part, name=f"the value for {name}")
        if value < 0:
            raise InputError(f"the value for {name} is negative; probabilities are at least 0")
        row.append(value)
    total = sum(row)
    if total != 1:
        gap = abs(total - 1)
        raise InputError(f"the numbers sum to {display.exactly(total)}, not exactly 1: "
                         f"{display.exactly(gap)} {'short of' if total < 1 else 'over'} 1")
    return tuple(row)


# ---- integer primitives the engine samples with ----------------------------
# A row is a tuple of non-negative integers with a known positive total; a
# draw is a 32-bit integer k standing for u = k / 2**32.

def pick(weights, total, k):
    """Inverse-CDF sampling: the first index i with ``u < cum[i] / total``."""
    scaled = k * total
    cum = 0
    for i, w in enumerate(weights):
        cum += w
        if scaled < cum << U_BITS:
            return i
    raise ValueError("row has no mass")


def accepts(p_w, p_den, q_w, q_den, k):
    """``u < (p_w/p_den) / (q_w/q_den)``, by cross-multiplication."""
    return k * q_w * p_den < (p_w * q_den) << U_BITS


@lru_cache(maxsize=256)
def residual_weights(p_row, p_den, q_row, q_den):
    """Integer ``max(p - q, 0)`` over the common denominator ``p_den * q_den``
    (cached: a table has only a few rows)."""
    return tuple(max(a * q_den - b * p_den, 0) for a, b in zip(p_row, q_row))


def argmax(weights):
    """Index of the largest entry; ties go to the earliest token (A, then B, then C)."""
    best = 0
    for i, w in enumerate(weights):
        if w > weights[best]:
            best = i
    return best
