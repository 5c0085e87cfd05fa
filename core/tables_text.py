"""Reading a table a teacher types: ``.5,.3,.2;.2,.6,.2;.55,.15,.3;.25,.25,.5``.

The same short text after ``--target`` / ``--q`` on the command line, in a
file given there (one row a line), and in a link's ``target=`` / ``q=``:

* four rows, in this order: the empty prefix, after A, after B, after C;
  rows are separated by ``;`` (or a line break), entries by ``,``;
* each entry a decimal (``.5``, ``0.25``) or a fraction (``1/3``), read by
  ``core.numbers`` (bounded: at most ``MAX_ENTRY`` characters, so a
  thousand-digit number is refused at once, never computed);
* an omitted row keeps the authored one: an empty row (nothing between two
  ``;``) or rows left off the end. ``;;.5,.3,.2`` changes only the row after
  B; ``.6,.3,.1`` only the empty prefix's. The authored rows are the
  target's for ``target`` and the biased draft's for ``q``.

A row must sum to exactly 1 (the message says by how much it misses, as a
fraction), have no negative entry and, for the target, not be all zeros.
A refusal is a ``TableTextError`` (a ``ConfigError``: the CLI exits 2) that
names the table, the row and the entry. A draft ``q`` that gives 0 to a token
the target can produce is allowed: ``notes`` says that token is then only
reachable through corrections.
"""

from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

from toy_tables import TOKENS

from .config import ConfigError
from .numbers import InputError, parse_fraction
from .tables import AUTHORED, KEYS, Tables

MAX_ENTRY = 12  # characters per entry: "0.1234567890" or "1234/56789"
MAX_TEXT = 400  # the whole text: twelve entries, their separators and some spaces
WHICH = ("target", "q")


class TableTextError(ConfigError):
    """A table text that cannot be used: ``which`` table, the ``row`` key (None: the whole text),
    the 1-based ``entry`` (or None) and the ``problem``, with one readable sentence as the message.

    ``code`` and ``values`` name the problem for a page that says it in another language
    (``app/embed/tables_words.py``): "number" (text), "digits" (length, most), "negative" (text),
    "count" (n), "zeros", "short" / "over" (total, miss), or "text" for a whole-text problem."""

    def __init__(self, which, row, entry, problem, code="text", **values):
        if row is None:
            text = f"the {which} table {problem}"
        else:
            where = f"the {which} table's " + ("first row (the empty prefix)" if row == "" else f"row after {row}")
            if entry is not None:
                where += f", entry {entry} ({TOKENS[entry - 1]})"
            text = f"{where}: {problem}"
        super().__init__(text)
        self.which, self.row, self.entry, self.problem = which, row, entry, problem
        self.code, self.values = code, values


@dataclass(frozen=True)
class Note:
    """Something allowed but worth saying: after ``row``, the draft never proposes ``token``,
    which the target can produce, so it appears only as a correction."""

    row: str
    token: str

    @property
    def message(self):
        where = "first row (the empty prefix)" if self.row == "" else f"row after {self.row}"
        return (f"the q table's {where}: q({self.token}) = 0 where the target gives it a positive "
                f"chance, so {self.token} is only reachable there through corrections")


def _entry(which, key, i, text):
    try:
        value = parse_fraction(text, name="it", max_chars=MAX_ENTRY)
    except InputError as e:
        if len(text.strip()) > MAX_ENTRY:
            problem = f"too many digits ({len(text.strip())} characters, at most {MAX_ENTRY}): " \
                      "type a short decimal such as 0.25 or a fraction such as 1/3"
            raise TableTextError(which, key, i + 1, problem, "digits", length=len(text.strip()),
                                 most=MAX_ENTRY) from None
        raise TableTextError(which, key, i + 1, str(e), "number", text=text.strip()) from None
    if value < 0:
        raise TableTextError(which, key, i + 1, f"{text.strip()} is negative: a probability is from 0 to 1",
                             "negative", text=text.strip())
    return value


def _entries(which, key, entries):
    """The entries of one row, each read and checked (none negative, not all 0)."""
    if len(entries) != len(TOKENS):
        n = len(entries)
        raise TableTextError(which, key, None, f"it has {n} entr{'y' if n == 1 else 'ies'}, "
                                               f"a row needs {len(TOKENS)} (for A, B, C) separated by commas",
                             "count", n=n)
    row = tuple(_entry(which, key, i, part) for i, part in enumerate(entries))
    if not any(row):
        raise TableTextError(which, key, None, "every entry is 0, but the row must give some token a positive chance",
                             "zeros")
    return row


def parse_row(which, key, entries):
    """One row typed entry by entry (an editor's three boxes, ``key`` one of ``KEYS``): its exact
    probabilities, with the same checks and messages as a row of a text. Raises ``TableTextError``."""
    row = _entries(which, key, tuple(entries))
    total = sum(row)
    if total != 1:
        miss = 1 - total if total < 1 else total - 1
        raise TableTextError(which, key, None, f"the entries sum to {total}, not exactly 1 "
                                               f"({miss} {'short' if total < 1 else 'too much'})",
                             "short" if total < 1 else "over", total=total, miss=miss)
    return row


def normalise_row(which, key, entries):
    """The entries of one row divided by their sum: the exact distribution in the same proportions
    (``1, 1, 2`` gives ``1/4, 1/4, 1/2``). Raises ``TableTextError`` for an entry that is not a
    probability's (negative, not a number) or a row of zeros, which no division can fix."""
    row = _entries(which, key, tuple(entries))
    total = sum(row)
    return tuple(x / total for x in row)


def _row(which, key, text):
    return parse_row(which, key, text.split(","))


def parse_rows(text, which="target", base=None):
    """The four rows written in ``text`` (see the module), omitted ones from ``base``
    (default: the authored rows of ``which``). Raises ``TableTextError``."""
    if which not in WHICH:
        raise ValueError(f"which must be one of {WHICH}, got {which!r}")
    if base is None:
        base = AUTHORED.target_rows if which == "target" else AUTHORED.q_rows
    if not isinstance(text, str):
        raise TableTextError(which, None, None, f"must be given as text, not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise TableTextError(which, None, None, f"is too long ({len(text):,} characters, at most {MAX_TEXT}): "
                                                "four rows of three short numbers")
    lines = text.strip().replace("\r\n", "\n").replace("\n", ";").split(";")
    if not text.strip():
        raise TableTextError(which, None, None, "is empty: write rows such as .5,.3,.2;.2,.6,.2 (omitted rows keep "
                                                "the authored ones)")
    if len(lines) > len(KEYS):
        raise TableTextError(which, None, None, f"has {len(lines)} rows, at most {len(KEYS)} (the empty prefix, "
                                                "after A, after B, after C) separated by ;")
    rows = list(base)
    for i, line in enumerate(lines):
        if line.strip():
            rows[i] = _row(which, KEYS[i], line)
    return tuple(rows)


def parse_tables(target=None, q=None, base=AUTHORED):
    """``base`` with the ``target`` and ``q`` texts (either may be None) read in: a ``Tables``."""
    return base.replace(None if target is None else parse_rows(target, "target", base.target_rows),
                        None if q is None else parse_rows(q, "q", base.q_rows))


def notes(tables, draft_rows=None):
    """``Note``s for every row where the draft (``draft_rows``, default ``tables.q``)
    gives 0 to a token the target can produce."""
    rows = tables.q if draft_rows is None else draft_rows
    return tuple(Note(key, t) for key in KEYS for t, p, q in zip(TOKENS, tables.target[key], rows[key])
                 if p > 0 and q == 0)


def entry_text(x):
    """``x`` as short as it can be typed back: ``0.5``, ``1``, ``0``, ``1/3``."""
    x = Fraction(x)
    d = x.denominator
    twos = fives = 0
    while d % 2 == 0:
        d //= 2
        twos += 1
    while d % 5 == 0:
        d //= 5
        fives += 1
    places = max(twos, fives)
    if d != 1 or places > 8:
        return f"{x.numerator}/{x.denominator}"
    if places == 0:
        return str(x.numerator)
    whole = str(x.numerator * 10**places // x.denominator).rjust(places + 1, "0")
    return f"{whole[:-places]}.{whole[-places:]}"


def table_text(rows):
    """Four rows (``KEYS`` order) written back in the text form ``parse_rows`` reads."""
    return ";".join(",".join(entry_text(x) for x in row) for row in rows)


def compact_text(rows, which="target"):
    """Like ``table_text`` but only the rows that differ from the authored ones of ``which``
    (an omitted row keeps the authored one): ``;;.55,.15,.3`` when only the row after B moved;
    "" when none did. ``parse_rows`` reads it back to the same four rows."""
    authored = AUTHORED.target_rows if which == "target" else AUTHORED.q_rows
    parts = ["" if row == mine else ",".join(entry_text(x) for x in row) for row, mine in zip(rows, authored)]
    while parts and not parts[-1]:
        parts.pop()
    return ";".join(parts)


def describe(tables: Tables) -> Optional[str]:
    """The tables' text for a link or a trace, ``target=...&q=...``, or None for the authored ones."""
    parts = []
    if tables.target_rows != AUTHORED.target_rows:
        parts.append(f"target={table_text(tables.target_rows)}")
    if tables.q_rows != AUTHORED.q_rows:
        parts.append(f"q={table_text(tables.q_rows)}")
    return "&".join(parts) or None
