"""The tables a scenario runs on: the target and the custom draft ``q``.

Every number the engine computes reads its rows from one ``Tables`` record
carried by the scenario (``core.config.Config.tables``), never from the
authored module data, so a teacher's own example runs through the same code.
``AUTHORED`` holds the authored target and, for ``q``, the authored biased
draft (what ``draft=custom`` proposes from until a ``q`` is given).

Rows are tuples of Fractions in the order of ``KEYS`` (empty prefix, after A,
after B, after C); ``target`` and ``q`` are read-only mappings keyed like the
authored tables. A record is hashable and compared by value, so caches keyed
by it are shared by equal tables.
"""

from dataclasses import dataclass
from types import MappingProxyType

import toy_tables
from toy_tables import TOKENS

KEYS = ("",) + TOKENS


def _rows(table):
    return tuple(tuple(table.rows[k]) for k in KEYS)


@dataclass(frozen=True)
class Tables:
    """``target_rows`` and ``q_rows``: four rows of three exact probabilities each (see the module)."""

    target_rows: tuple
    q_rows: tuple

    def __post_init__(self):
        # Checked again here (toy_tables.load_table) so no record holds a row that is not a distribution.
        target = toy_tables.load_table("target", dict(zip(KEYS, self.target_rows)))
        q = toy_tables.load_table("q", dict(zip(KEYS, self.q_rows)))
        object.__setattr__(self, "target_rows", _rows(target))
        object.__setattr__(self, "q_rows", _rows(q))
        object.__setattr__(self, "target", target.rows)
        object.__setattr__(self, "q", q.rows)
        object.__setattr__(self, "_hash", hash((self.target_rows, self.q_rows)))

    def __hash__(self):
        return self._hash  # computed once: every cached engine function hashes its tables

    @property
    def authored(self):
        return self == AUTHORED

    def unreachable(self):
        """``(a, b)`` when the target's text, once after token ``a``, can never reach token ``b``; else None.
        The long run (``core.payoff``, ``core.rates``) needs every token to reach every other."""
        for a in TOKENS:
            seen, todo = {a}, [a]
            while todo:
                s = todo.pop()
                for t, p in zip(TOKENS, self.target[s]):
                    if p and t not in seen:
                        seen.add(t)
                        todo.append(t)
            missing = [b for b in TOKENS if b not in seen]
            if missing:
                return a, missing[0]
        return None

    def check_long_run(self):
        """Raise a ValueError that says why when the long run has no single answer for this target."""
        pair = self.unreachable()
        if pair is not None:
            a, b = pair
            raise ValueError(f"the long run needs a target in which every token can follow every other in time, "
                             f"but after {a} the target's text never reaches {b}: give that path a positive chance")

    def replace(self, target=None, q=None):
        """A copy with ``target`` or ``q`` (rows in ``KEYS`` order) swapped in."""
        return Tables(self.target_rows if target is None else tuple(target), self.q_rows if q is None else tuple(q))


AUTHORED = Tables(_rows(toy_tables.target), _rows(toy_tables.drafts["biased"]))
