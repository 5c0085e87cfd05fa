"""Where proposals come from: the registry of drafts, and the rows they propose from.

Five drafts, all verified by the same rule (``core.block``):

* ``aligned``, ``biased`` and ``custom``: a small model's table, looked up by
  the last token of the text so far (earlier proposals of the block
  included). ``aligned`` is the scenario's target and ``custom`` the
  scenario's ``q`` (``core.tables``); ``biased`` is authored.
* ``heads`` (Medusa-style heads, seed 003): proposal ``i`` (from 1) is drawn
  from the target's own ``i``-step-ahead distribution given the committed
  text, without seeing the block's earlier proposals: the committed row times
  the target matrix to the power ``i - 1``. Head 1 is the target's own next
  row, so it is always accepted (without a transformation); later heads
  drift toward the target's long-run mix and are rejected more often.
* ``lookup`` (prompt lookup / n-gram copying, seeds 002 and 003): the draft
  copies the token that followed the most recent earlier occurrence of the
  last token. Each later proposal of a block repeats the lookup on the text
  with the earlier proposals appended, as if they were committed, so a block
  copies along the matched occurrence and re-anchors whenever a more recent
  match exists. The draft's whole state is then the last token and, for each
  token, what followed its most recent occurrence: finite, which makes the
  long-run payoff an exact Markov chain. With no earlier occurrence the draft
  proposes nothing and the block is an ordinary target step. ``q`` is one-hot
  on the copied token, so it is accepted with probability exactly ``p(x)``
  and the residual is ``p`` with ``x`` removed, renormalised. A copy uses no
  draw (see ``core.block``).

A draft's *state* is what it looks at when a block starts: the last
committed token for the tables and the heads, ``(last, successors)`` for
lookup.

Each kind of draft is one entry of ``KINDS`` (a ``DraftKind``), as each rule
is one entry of ``core.variants.VARIANTS``: its name (in the CLI, the URL and
the JSON), its label, whether it has a table, its drafter and its state. What
differs between kinds is a method of the drafter, never a test of its name.
``ALL_DRAFTS`` (every draft the engine runs) and ``TABLE_DRAFTS`` (those with a
table) are read from ``KINDS``, so a kind registered later is in both.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import lcm
from typing import Optional

from dataclasses import replace

import toy_tables
from toy_tables import TOKENS

from .tables import AUTHORED
from .transform import NONE

INDEX = {t: i for i, t in enumerate(TOKENS)}
KEYS = ("",) + TOKENS
MAX_HEADS = 8  # one head per proposal of the widest block (core.config.MAX_WIDTH)


class Row:
    """One next-token row in both exact forms: Fractions ``fracs`` for records and
    integers ``weights`` over ``den`` for sampling. Rows are built once and
    compared by identity, so caches keyed by rows are cheap."""

    __slots__ = ("fracs", "weights", "den", "hot")

    def __init__(self, fracs):
        self.fracs = tuple(Fraction(x) for x in fracs)
        self.den = lcm(*(x.denominator for x in self.fracs))
        self.weights = tuple(int(x * self.den) for x in self.fracs)
        ones = [i for i, x in enumerate(self.fracs) if x == 1]
        self.hot = ones[0] if ones else None  # the token of a one-hot row

    def __repr__(self):
        return f"Row({', '.join(map(str, self.fracs))})"


def rows_of(fraction_rows, transform=NONE):
    """``{key: Row}`` for a table's rows, transformed when ``transform`` says so."""
    return {key: Row(transform.row(fraction_rows[key])) for key in KEYS}


ONE_HOT = tuple(Row(tuple(int(i == x) for i in range(len(TOKENS)))) for x in range(len(TOKENS)))


class LastToken:
    """A drafter whose state is the last committed token ("" before any): the tables' and the heads'."""

    copies = False
    start = ""

    @staticmethod
    def last(state):
        return state

    @staticmethod
    def advance(state, tokens):
        return TOKENS[tokens[-1]] if tokens else state

    @staticmethod
    def state_of(output):
        """The state after the committed ``output`` (token strings)."""
        return output[-1] if output else ""

    @staticmethod
    def recurrent_start():
        """A state inside the long run's one closed class of states (``core.payoff``)."""
        return "A"


class TableDraft(LastToken):
    """A small model's table: the row after the last token of the text so far."""

    def __init__(self, name, rows):
        self.name, self.rows = name, rows
        self.table = rows  # rows keyed by the last token: block.draft_block reads them directly

    @classmethod
    def build(cls, kind, raw, target, transform, draft_transform):
        """The drafter of table kind ``kind`` (see ``setup``)."""
        if kind.table == raw and draft_transform == transform and transform.on_target:
            return cls(kind.name, target)  # the very rows the target verifies with
        return cls(kind.name, rows_of(kind.table, draft_transform))

    def row_at(self, state, i, cur):
        return self.rows[cur]


class HeadsDraft(LastToken):
    """Head ``i`` (from 0 here) proposes from row ``state`` of the target matrix to the power ``i + 1``."""

    table = None
    name = "heads"

    @classmethod
    def build(cls, kind, raw, target, transform, draft_transform):
        return cls({k: draft_transform.row(raw[k]) for k in KEYS})

    def __init__(self, matrix_rows):
        heads, current = [], {k: matrix_rows[k] for k in KEYS}
        for _ in range(MAX_HEADS):
            heads.append({k: Row(current[k]) for k in KEYS})
            current = {k: tuple(sum(current[k][j] * matrix_rows[TOKENS[j]][t] for j in range(len(TOKENS)))
                                for t in range(len(TOKENS))) for k in KEYS}
        self.heads = tuple(heads)

    def row_at(self, state, i, cur):
        return self.heads[i][state]


class LookupDraft:
    """Copies from the text; the state is ``(last, successors)`` with
    ``successors[t]`` the token index that followed token ``t``'s most recent
    occurrence before the last position (None when there is none)."""

    copies = True
    table = None
    name = "lookup"
    start = ("", (None,) * len(TOKENS))

    @classmethod
    def build(cls, kind, raw, target, transform, draft_transform):
        return cls()

    @staticmethod
    def last(state):
        return state[0]

    @staticmethod
    def advance(state, tokens):
        last, successors = state
        successors = list(successors)
        for y in tokens:
            if last:
                successors[INDEX[last]] = y
            last = TOKENS[y]
        return last, tuple(successors)

    @staticmethod
    @lru_cache(maxsize=None)
    def chain(state):
        """The tokens a block copies from ``state``, as one-hot rows (at most ``MAX_HEADS``)."""
        last, successors = state
        successors = list(successors)
        out = []
        while len(out) < MAX_HEADS and last:
            x = successors[INDEX[last]]
            if x is None:
                break
            out.append(ONE_HOT[x])
            successors[INDEX[last]] = x
            last = TOKENS[x]
        return tuple(out)

    def row_at(self, state, i, cur):
        rows = self.chain(state)
        return rows[i] if i < len(rows) else None

    def state_of(self, output):
        """The state after the committed ``output`` (token strings)."""
        return self.advance(self.start, tuple(INDEX[t] for t in output)) if output else self.start

    def recurrent_start(self):
        """A state inside the long run's one closed class of states: every token seen once (``core.payoff``)."""
        return self.advance(self.start, tuple(INDEX[t] for t in "ABCA"))


@dataclass(frozen=True)
class DraftKind:
    """One kind of draft, everything about it in one entry of ``KINDS``.

    ``name`` is what the CLI, the URL and the JSON say; ``label`` its English
    name on the page (the page's words are ``app/i18n``'s ``label_key``);
    ``state`` says what the draft looks at when a block starts. ``drafter`` is
    the class that proposes (its ``build`` makes one for a transformation).
    ``table`` is a table kind's rows (Fractions keyed by the last token), None
    for the others: the tree and the closed forms (``core.payoff.alpha``,
    ``core.rates``, ``core.passes``) need one. ``source`` names the scenario's
    table (``core.tables.Tables``) the kind proposes from instead: ``"target"``
    (the aligned draft is the scenario's target) or ``"q"`` (the custom draft);
    None keeps ``table`` whatever the scenario.
    """

    name: str
    label: str
    summary: str
    state: str
    drafter: type
    table: Optional[dict] = None
    source: Optional[str] = None

    def table_in(self, tables=AUTHORED):
        """The rows this kind proposes from in a scenario with ``tables`` (None without a table)."""
        if self.source is None or self.table is None:
            return self.table
        return getattr(tables, self.source)

    @property
    def has_table(self):
        return self.table is not None

    @property
    def label_key(self):
        return f"draft.{self.name}"


KINDS = {}


def register(kind):
    """Add a kind of draft to every list of drafts, the CLI's choices included; returns it."""
    KINDS[kind.name] = kind
    return kind


class Names(Sequence):
    """The names of the kinds in ``KINDS`` that ``keep`` keeps, in order: a live view,
    so a kind registered later is in every list read from it."""

    def __init__(self, keep):
        self.keep = keep

    def _names(self):
        return tuple(name for name, kind in KINDS.items() if self.keep(kind))

    def __getitem__(self, i):
        return self._names()[i]

    def __len__(self):
        return len(self._names())

    def __iter__(self):
        return iter(self._names())

    def __contains__(self, name):
        try:
            kind = KINDS.get(name)
        except TypeError:  # not a name at all (a list, a dict)
            return False
        return kind is not None and self.keep(kind)

    def __eq__(self, other):
        return self._names() == tuple(other) if isinstance(other, (tuple, list, Names)) else NotImplemented

    __hash__ = None

    def __repr__(self):
        return repr(self._names())


ALL_DRAFTS = Names(lambda kind: True)
TABLE_DRAFTS = Names(lambda kind: kind.has_table)  # the one definition of "the table drafts"

_LAST = "the last committed token"
register(DraftKind("aligned", "Aligned", "a small model that equals the target: every proposal is accepted",
                   _LAST, TableDraft, toy_tables.drafts["aligned"].rows, source="target"))
register(DraftKind("biased", "Biased", "a small model that over-proposes A, so the verifier corrects it",
                   _LAST, TableDraft, toy_tables.drafts["biased"].rows))
register(DraftKind("lookup", "Lookup",
                   "copies what followed the last token's most recent earlier occurrence (q is one-hot)",
                   "the last committed token and, for each token, what followed its most recent occurrence",
                   LookupDraft))
register(DraftKind("heads", "Heads",
                   "Medusa-style heads: proposal i from the target's own i-step-ahead distribution",
                   _LAST, HeadsDraft))
register(DraftKind("custom", "Custom", "your own small model: the draft table q you give (--q, the link's q=)",
                   _LAST, TableDraft, AUTHORED.q, source="q"))


def state_of(drafter, output):
    """The draft's state after the committed ``output`` (token strings)."""
    return drafter.state_of(output)


def next_q(draft, committed, proposals=(), transform=NONE, tables=AUTHORED):
    """The draft row ``q`` (Fractions) the next proposal comes from, after the
    ``committed`` text and the block's earlier ``proposals`` (token strings), or
    None when the draft has nothing to propose (lookup with nothing to copy, or
    past its last copy). What an inspector shows before a draw."""
    drafter = setup(draft, transform, tables).drafter
    state = state_of(drafter, tuple(committed))
    text = tuple(committed) + tuple(proposals)
    row = drafter.row_at(state, len(proposals), text[-1] if text else "")
    return None if row is None else row.fracs


def after(drafter, state, seq):
    """The draft's state after committing ``seq`` (token strings) from ``state``."""
    if drafter.copies:
        return drafter.advance(state, tuple(INDEX[t] for t in seq))
    return seq[-1] if seq else state


def lookup_match(text):
    """Where the lookup draft copies from: the index of the most recent earlier
    occurrence of ``text``'s last token, or None. It copies ``text[match + 1]``."""
    text = tuple(text)
    if not text:
        return None
    return next((j for j in range(len(text) - 2, -1, -1) if text[j] == text[-1]), None)


@dataclass(frozen=True, eq=False)
class Setup:
    """Everything the block machinery needs for one draft and transformation.

    ``target`` holds the rows verification uses (transformed when the
    transformation applies to the target); ``reference`` the rows of the
    target the user asked for (always transformed): the one ``exact``
    compares the output with. ``tables`` are the scenario's (``core.tables``).
    Setups are built once (``setup`` is cached) and compared by identity, so
    caches may be keyed by them.
    """

    draft: str
    transform: object
    target: dict
    reference: dict
    drafter: object
    tables: object = AUTHORED
    cache: dict = field(default_factory=dict)  # per rule: exact numbers of row pairs (core.session._numbers)


@lru_cache(maxsize=None)
def setup(draft, transform=NONE, tables=AUTHORED):
    kind = KINDS.get(draft)
    if kind is None:
        raise ValueError(f"unknown draft {draft!r}; choose one of: {', '.join(ALL_DRAFTS)}")
    raw = tables.target
    reference = rows_of(raw, transform)
    target = reference if transform.on_target else rows_of(raw)
    draft_transform = transform if transform.on_draft else NONE
    if kind.source is not None:  # the drafter sees the scenario's table as its kind's
        kind = replace(kind, table=kind.table_in(tables))
    drafter = kind.drafter.build(kind, raw, target, transform, draft_transform)
    return Setup(draft, transform, target, reference, drafter, tables)
