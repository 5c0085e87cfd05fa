"""When several candidates per position pay off: tokens per target pass and speedup, exactly.

A tree block of ``k`` candidates and width ``w`` drafts every node of the
tree, ``k + k**2 + ... + k**w`` draft tokens (``tree.tree_size``), each
costing ``c`` target passes, and one target pass scores them all (tree
attention). Its committed tokens are its accepted branch plus the
correction or the bonus. As in ``core.payoff``, the long run is a Markov
chain over the token a block starts after, solved exactly
(``payoff.stationary``): expected tokens per pass ``E``, time per token
``(1 + c * nodes) / E`` relative to ordinary decoding (one pass per token),
speedup its inverse. Algorithmic expectations: no batching, memory traffic
or concurrency. With ``k = 1`` the figures are ``core.payoff``'s.

More candidates raise ``E`` (a second guess gets a second chance at the
missing mass) but multiply the draft tokens; the best ``(k, width)`` says
which wins for a draft and a cost.
"""

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from toy_tables import TOKENS

from .config import MAX_WIDTH
from .payoff import check_cost, stationary
from .tables import AUTHORED
from .tree import MAX_CANDIDATES, RULES, check, tree_size
from .tree_exact import position

CANDIDATES = tuple(range(1, MAX_CANDIDATES + 1))
WIDTHS = tuple(range(1, MAX_WIDTH + 1))


@lru_cache(maxsize=None)
def _ends(rule, draft, candidates, depth, last, tables=AUTHORED):
    """``{(tokens, end token): probability}`` for a block of ``depth`` levels left after ``last``
    (unbounded room: a leaf always earns its bonus)."""
    if depth == 0:
        return {(1, t): pb for t, pb in zip(TOKENS, tables.target[last]) if pb}
    out = {}
    accepted, corrected = position(rule, draft, candidates, last, tables)
    for t, a, c in zip(TOKENS, accepted, corrected):
        if c:
            out[1, t] = out.get((1, t), 0) + c
        if a:
            for (n, end), pe in _ends(rule, draft, candidates, depth - 1, t, tables).items():
                out[n + 1, end] = out.get((n + 1, end), 0) + a * pe
    return out


@lru_cache(maxsize=None)
def tokens_per_pass(draft, candidates, width, rule="exact", tables=AUTHORED):
    """Long-run expected committed tokens per target pass, exactly."""
    check(draft, candidates, 1, rule)  # the economics need no drawn tree: every width up to MAX_WIDTH
    if isinstance(width, bool) or not isinstance(width, int) or not 1 <= width <= MAX_WIDTH:
        raise ValueError(f"width must be a whole number from 1 to {MAX_WIDTH}, got {width!r}")
    tables.check_long_run()
    moves, tokens = {}, {}
    for s in TOKENS:
        ends = _ends(rule, draft, candidates, width, s, tables)
        move = {}
        for (n, end), pe in ends.items():
            move[end] = move.get(end, 0) + pe
        moves[s] = move
        tokens[s] = sum(n * pe for (n, _), pe in ends.items())
    weights = stationary(moves)
    return sum(weights[s] * tokens[s] for s in TOKENS)


@dataclass(frozen=True)
class TreePayoff:
    """Long-run figures for one draft, ``k``, width and draft-token cost ``c``."""

    draft: str
    candidates: int
    width: int
    cost: Fraction
    tokens_per_pass: Fraction
    draft_tokens: int
    time_per_token: Fraction

    @property
    def speedup(self):
        """Ordinary decoding's time per token over the tree's (above 1 pays off)."""
        return 1 / self.time_per_token


def tree_payoff(draft, candidates, width, cost, rule="exact", tables=AUTHORED):
    cost = check_cost(cost)
    e = tokens_per_pass(draft, candidates, width, rule, tables)
    nodes = tree_size(candidates, width)
    return TreePayoff(draft, candidates, width, cost, e, nodes, (1 + cost * nodes) / e)


@dataclass(frozen=True)
class TreePayoffTable:
    """Every ``k`` in ``CANDIDATES`` against every width, and the best pair (least time per token;
    ties go to fewer candidates, then the smaller width)."""

    draft: str
    cost: Fraction
    rows: tuple

    @property
    def best(self):
        return min(self.rows, key=lambda r: (r.time_per_token, r.candidates, r.width))

    def best_width(self, candidates):
        return min((r for r in self.rows if r.candidates == candidates),
                   key=lambda r: (r.time_per_token, r.width))

    def of(self, candidates):
        return tuple(r for r in self.rows if r.candidates == candidates)


def tree_payoff_table(draft, cost, candidates=CANDIDATES, widths=WIDTHS, tables=AUTHORED):
    cost = check_cost(cost)
    return TreePayoffTable(draft, cost, tuple(tree_payoff(draft, k, w, cost, tables=tables)
                                              for k in candidates for w in widths))


__all__ = ["CANDIDATES", "RULES", "WIDTHS", "TreePayoff", "TreePayoffTable", "tokens_per_pass", "tree_payoff",
           "tree_payoff_table"]
