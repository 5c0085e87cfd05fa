"""Temperature and top-k: reshaping a next-token row, and where it is applied.

Seed 002: "Each transformation must be represented consistently in
verification. Otherwise the implementation may be fast while quietly
changing behavior." So a transformation says *where* it applies:

* ``both``: the draft proposes from the transformed draft and the target
  verifies with the transformed target. The output follows the transformed
  target exactly.
* ``target``: only the target is transformed; the draft proposes from its
  raw rows. Still exact for the transformed target: the rule corrects any
  draft, so only the speed changes.
* ``draft``: only the draft is transformed and verification uses the raw
  target, so the output quietly follows the *untransformed* target: not
  what the user asked for (``core.exact`` measures by how much).

Temperature ``T = 1/n`` (n = 1..4) raises a row to the power ``1/T = n``
and renormalises: exact integer powers of exact fractions, so the row stays
rational. Top-k keeps the ``k`` largest entries (ties go to the earlier
token, A before B before C) and renormalises. Temperature is applied
first; the order does not matter, since a power keeps the ranking and ties.
"""

from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

from .numbers import InputError, parse_fraction, parse_int

TEMPERATURES = (Fraction(1), Fraction(1, 2), Fraction(1, 3), Fraction(1, 4))
MAX_TOP_K = 3
TRANSFORM_AT = ("both", "target", "draft")


def power(row, n):
    """``row ** n`` normalised: temperature ``1/n``."""
    if n == 1:
        return tuple(row)
    raised = tuple(x ** n for x in row)
    total = sum(raised)
    return tuple(x / total for x in raised)


def top_k(row, k):
    """The ``k`` largest entries kept and renormalised; ties go to the earlier token (A < B < C)."""
    if k is None or k >= len(row):
        return tuple(row)
    keep = sorted(range(len(row)), key=lambda i: (-row[i], i))[:k]
    total = sum(row[i] for i in keep)
    return tuple(row[i] / total if i in keep else Fraction(0) for i in range(len(row)))


def check_temperature(value):
    if isinstance(value, (bool, float)) or not isinstance(value, (int, Fraction)) or Fraction(value) not in TEMPERATURES:
        raise ValueError(f"temperature must be 1, 1/2, 1/3 or 1/4, got {value!r}")
    return Fraction(value)


@dataclass(frozen=True)
class Transform:
    """A temperature ``1/n``, an optional top-k, and where they apply."""

    temperature: Fraction = Fraction(1)
    top_k: Optional[int] = None
    at: str = "both"

    def __post_init__(self):
        check_temperature(self.temperature)
        object.__setattr__(self, "temperature", Fraction(self.temperature))
        if self.top_k is not None:
            if isinstance(self.top_k, bool) or not isinstance(self.top_k, int) or not 1 <= self.top_k <= MAX_TOP_K:
                raise ValueError(f"top-k must be a whole number from 1 to {MAX_TOP_K}, got {self.top_k!r}")
        if self.at not in TRANSFORM_AT:
            raise ValueError(f"transform-at must be one of: {', '.join(TRANSFORM_AT)}; got {self.at!r}")

    @property
    def identity(self):
        """True when no row changes (temperature 1, no top-k, or top-3 of three tokens)."""
        return self.temperature == 1 and (self.top_k is None or self.top_k >= MAX_TOP_K)

    @property
    def on_target(self):
        """Whether verification uses the transformed target."""
        return self.at in ("both", "target")

    @property
    def on_draft(self):
        """Whether the draft proposes from transformed rows."""
        return self.at in ("both", "draft")

    def row(self, row):
        """The transformed row, as exact Fractions."""
        return top_k(power(tuple(Fraction(x) for x in row), self.temperature.denominator), self.top_k)


NONE = Transform()


def parse_temperature(text, name="--temperature"):
    """``"1/2"`` or ``"0.5"`` → ``Fraction(1, 2)``; only 1, 1/2, 1/3 and 1/4 keep rows rational."""
    value = parse_fraction(text, name=name, low=0, high=1)
    if value not in TEMPERATURES:
        raise InputError(f"{name} must be 1, 1/2, 1/3 or 1/4 (T = 1/n keeps every probability an exact "
                         f"fraction), got {text.strip()!r}")
    return value


def parse_top_k(text, name="--top-k"):
    return parse_int(text, name=name, low=1, high=MAX_TOP_K)
