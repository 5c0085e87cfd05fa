"""A next-token table as an exact, validated record.

Loading is where bad data is caught: a table that is missing a row, has a
negative entry or a row that does not sum to exactly 1 would otherwise give a
silently wrong trace. Every error names the table, the row and the problem.
"""

from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from types import MappingProxyType

from .data import TOKENS


class TableError(ValueError):
    """A table that cannot be used, with a message a person can act on."""


def row_label(key):
    return "empty prefix" if key == "" else f"after {key}"


@dataclass(frozen=True)
class Table:
    """Next-token distributions keyed by the last token ("" = empty prefix).

    ``rows`` holds exact Fractions for display and exact maths; ``weights``
    holds the same rows as integers over one common ``denominator`` so the
    engine can sample with integer comparisons only.
    """

    name: str
    rows: dict
    weights: dict
    denominator: int

    def row(self, last):
        return self.rows[last]


def _parse_entry(name, key, index, value):
    where = f"table {name!r}, row {row_label(key)}, entry {index + 1}"
    if isinstance(value, bool) or isinstance(value, float):
        raise TableError(f"{where}: {value!r} must be an exact decimal string or fraction, not a float")
    try:
        entry = Fraction(value)
    except (TypeError, ValueError, ZeroDivisionError):
        raise TableError(f"{where}: {value!r} is not a number") from None
    if entry < 0:
        raise TableError(f"{where}: {value} is negative")
    return entry


def load_table(name, raw):
    """Validate ``raw`` (key -> three exact numbers) and return a ``Table``."""
    if not isinstance(raw, dict):
        raise TableError(f"table {name!r}: expected a mapping from prefix to row, got {type(raw).__name__}")
    expected = ("",) + TOKENS
    missing = [row_label(k) for k in expected if k not in raw]
    if missing:
        raise TableError(f"table {name!r}: missing row {', '.join(missing)}")
    extra = [repr(k) for k in raw if k not in expected]
    if extra:
        raise TableError(f"table {name!r}: unknown row {', '.join(extra)} (rows are '', 'A', 'B', 'C')")
    rows = {}
    for key in expected:
        values = raw[key]
        if not isinstance(values, (tuple, list)) or len(values) != len(TOKENS):
            raise TableError(f"table {name!r}, row {row_label(key)}: expected {len(TOKENS)} entries for A, B, C")
        row = tuple(_parse_entry(name, key, i, v) for i, v in enumerate(values))
        total = sum(row)
        if total != 1:
            raise TableError(f"table {name!r}, row {row_label(key)}: entries sum to {total}, not exactly 1")
        rows[key] = row
    denominator = lcm(*(x.denominator for row in rows.values() for x in row))
    weights = {k: tuple(int(x * denominator) for x in row) for k, row in rows.items()}
    # Read-only views: a table is shared by every session and must not change under them.
    return Table(name, MappingProxyType(rows), MappingProxyType(weights), denominator)
