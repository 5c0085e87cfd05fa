"""Exact output distributions of tree verification, by enumerating its branches.

No PRNG: at a node the ``k`` candidates are independent draws from ``q``,
so the verifier's state after j rejections is just the residual ``r`` (what
the rejected candidates were does not matter). Each stage splits into
"candidate x drawn and accepted" (mass ``q(x) * min(1, r(x)/q(x))``, the walk
moves down) and "rejected" (mass ``1 - sum(min(r, q))``, ``r`` moves on);
after ``k`` rejections the correction follows the last ``r``. The tree is
never built, so width 8 with 3 candidates costs no more than a chain.

For the exact rule the result equals the target's autoregressive
distribution; for ``against-p`` (every candidate tested against ``p``) it
does not, and ``compare`` gives the exact total-variation distance.
"""

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Optional

from toy_tables import TOKENS

from . import drafts
from .config import MAX_TOKENS
from .exact import marginal, target_distribution, total_variation
from .rule import residual
from .tables import AUTHORED
from .tree import check

ONE = Fraction(1)


def _rows(draft, last, tables):
    return tables.target[last], drafts.KINDS[draft].table_in(tables)[last]


@lru_cache(maxsize=None)
def position(rule, draft, candidates, last, tables=AUTHORED):
    """One node's verification, summed over its candidates: ``(accepted, corrected)``
    with ``accepted[x]`` the chance the walk moves down to a candidate ``x`` and
    ``corrected[x]`` the chance every candidate is rejected and the correction is ``x``."""
    p, q = (tuple(Fraction(x) for x in row) for row in _rows(draft, last, tables))
    r, reach = p, ONE
    accepted = [Fraction(0)] * len(p)
    for _ in range(candidates):
        for x, qx in enumerate(q):
            if qx:
                accepted[x] += reach * qx * min(ONE, r[x] / qx)
        reach *= 1 - sum(min(a, b) for a, b in zip(r, q))
        if not reach:
            break
        r = residual(r, q) if rule == "exact" else p
    final = r if rule == "exact" else residual(p, q)
    return tuple(accepted), tuple(reach * x for x in final)


@lru_cache(maxsize=None)
def block_outcomes(rule, draft, candidates, width, last, room, tables=AUTHORED):
    """Every way one tree block can end after ``last`` with ``room`` tokens left:
    ``(committed, probability)`` pairs."""
    out = {}
    depth = min(width, room)

    def add(seq, prob):
        out[seq] = out.get(seq, 0) + prob

    def walk(d, cur, seq, prob):
        if d == depth:  # a leaf was accepted: the bonus from p when there is room
            if len(seq) < room:
                for b, pb in zip(TOKENS, tables.target[cur]):
                    if pb:
                        add(seq + (b,), prob * pb)
            else:
                add(seq, prob)
            return
        accepted, corrected = position(rule, draft, candidates, cur, tables)
        for t, a, c in zip(TOKENS, accepted, corrected):
            if c:
                add(seq + (t,), prob * c)
            if a:
                walk(d + 1, t, seq + (t,), prob * a)

    walk(0, last, (), ONE)
    return tuple(out.items())


def output_distribution(draft, width, k, candidates=2, rule="exact", max_tokens=MAX_TOKENS, tables=AUTHORED):
    """Exact distribution of the first ``k`` output tokens under tree verification."""
    check(draft, candidates, width, rule)
    if not 1 <= k <= max_tokens:
        raise ValueError(f"k must be from 1 to max_tokens ({max_tokens}), got {k}")

    @lru_cache(maxsize=None)
    def rest(last, length):
        dist = {}
        for seq, prob in block_outcomes(rule, draft, candidates, width, last, max_tokens - length, tables):
            if length + len(seq) >= k:
                key = seq[: k - length]
                dist[key] = dist.get(key, 0) + prob
            else:
                for tail, pt in rest(seq[-1], length + len(seq)).items():
                    dist[seq + tail] = dist.get(seq + tail, 0) + prob * pt
        return dist

    return rest("", 0)


@dataclass(frozen=True)
class TreeComparison:
    """A tree rule's exact ``k``-token distribution against the target's."""

    rule: str
    draft: str
    candidates: int
    width: int
    k: int
    target: dict
    result: dict
    distance: Fraction
    first_departure: Optional[int]

    @property
    def keeps_target(self):
        return self.distance == 0


def compare(draft, width, k, candidates=2, rule="exact", max_tokens=MAX_TOKENS, tables=AUTHORED):
    result = output_distribution(draft, width, k, candidates, rule, max_tokens, tables)
    target = target_distribution(k, tables=tables)
    distance = total_variation(result, target)
    first = None
    if distance:
        first = next(j for j in range(1, k + 1) if total_variation(marginal(result, j), marginal(target, j)))
    return TreeComparison(rule, draft, candidates, width, k, target, result, distance, first)
