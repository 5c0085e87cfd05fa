"""Exact output distributions, by enumerating the rule's branches.

No PRNG here: every branch of a block (which token the draft proposes,
accept or reject, which replacement or bonus) is followed with its exact
probability from the variant's ``*_dist`` functions. The result is the
distribution of the first ``k`` output tokens as Fractions, which for the
exact rule equals the target's own autoregressive distribution, token for
token (Leviathan et al. 2023, Theorem 3.5 / Appendix A.1).
"""

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Optional

from toy_tables import TOKENS

from . import drafts, schedule
from .config import MAX_TOKENS, Config
from .rule import argmax
from .schedule import next_width
from .tables import AUTHORED
from .transform import NONE, Transform
from .variants import ALL_VARIANTS


@lru_cache(maxsize=None)
def block_branches(variant, draft, width, state, room, lookahead=None, transform=NONE, tables=AUTHORED):
    """Every way one block can end, from the draft's ``state`` with ``room`` tokens left.

    Returns a tuple of ``(committed, verdict, probability)`` with
    ``committed`` a tuple of tokens and ``verdict`` what the width schedule
    reads (``core.schedule.verdict``). Proposals after a rejection are
    discarded whatever they are, so they are summed out rather than enumerated.
    """
    v = ALL_VARIANTS[variant]
    setup = drafts.setup(draft, transform, tables)
    drafter, target = setup.drafter, setup.target
    n = min(width, room)
    out = {}

    def add(seq, verdict, prob):
        out[seq, verdict] = out.get((seq, verdict), 0) + prob

    def finish(i, cur, seq, prob):
        """All ``i`` drafted proposals accepted: a bonus (or the ordinary step) when there is room."""
        outcome = schedule.verdict(i, i)
        if len(seq) < room:
            for b, pb in zip(TOKENS, v.bonus_dist(target[cur].fracs)):
                if pb:
                    add(seq + (b,), outcome, prob * pb)
        else:
            add(seq, outcome, prob)

    def walk(i, cur, seq, prob):
        q = drafter.row_at(state, i, cur) if i < n else None
        if q is None:
            finish(i, cur, seq, prob)
            return
        for token, accept_mass, rejections, q_x in _branches(variant, target[cur], q):
            for c, mass in rejections:
                add(seq + (c,), schedule.REJECTED, prob * mass)
            if accept_mass:
                reach = prob * accept_mass
                if lookahead is not None and i + 1 < n and q_x < lookahead:
                    finish(i + 1, token, seq + (token,), reach)
                else:
                    walk(i + 1, token, seq + (token,), reach)

    walk(0, drafter.last(state), (), Fraction(1))
    return tuple((seq, verdict, prob) for (seq, verdict), prob in out.items())


@lru_cache(maxsize=None)
def _branches(variant, p, q):
    """For each token x the draft may propose from row ``q`` (a ``core.drafts.Row``) against
    the target's row ``p``: the mass that proposes and accepts it, the mass that proposes it
    and ends in each replacement, and q(x) (what dynamic lookahead compares). Rows are fixed
    objects, so this is computed once per pair."""
    v = ALL_VARIANTS[variant]
    pf, qf = p.fracs, q.fracs
    out = []
    for x, qx in enumerate(v.propose_dist(qf)):
        if not qx:
            continue
        a = v.accept_probability(pf, qf, x)
        rejections = tuple((TOKENS[c], qx * (1 - a) * r) for c, r in enumerate(v.replace_dist(pf, qf, x))
                           if r and a != 1)
        out.append((TOKENS[x], qx * a, rejections, qf[x]))
    return tuple(out)


@lru_cache(maxsize=None)
def block_outcomes(variant, draft, width, last, room, lookahead=None, transform=NONE, tables=AUTHORED):
    """``block_branches`` summed over the verdicts: ``(committed, probability)`` pairs."""
    out = {}
    for seq, _, prob in block_branches(variant, draft, width, last, room, lookahead, transform, tables):
        out[seq] = out.get(seq, 0) + prob
    return tuple(out.items())


def output_distribution(draft, width, k, variant="exact", max_tokens=MAX_TOKENS, lookahead=None, schedule="fixed",
                        transform=NONE, tables=AUTHORED):
    """Exact distribution of the first ``k`` output tokens: ``{tokens: probability}``.

    With the heuristic schedule the state of the walk is the draft's state
    and the width the next block will use.
    """
    Config(draft, width, 0, max_tokens, variant, lookahead, schedule, transform.temperature, transform.top_k,
           transform.at, tables)
    if not 1 <= k <= max_tokens:
        raise ValueError(f"k must be from 1 to max_tokens ({max_tokens}), got {k}")
    lookahead = None if lookahead is None else Fraction(lookahead)
    plan = schedule
    drafter = drafts.setup(draft, transform, tables).drafter

    def branches(w, state, room):
        if plan == "fixed":  # the verdict changes nothing: one entry per committed sequence
            return [(seq, None, prob) for seq, prob in block_outcomes(variant, draft, w, state, room, lookahead,
                                                                      transform, tables)]
        return block_branches(variant, draft, w, state, room, lookahead, transform, tables)

    @lru_cache(maxsize=None)
    def rest(state, w, length):
        dist = {}
        for seq, verdict, prob in branches(w, state, max_tokens - length):
            if length + len(seq) >= k:
                key = seq[: k - length]
                dist[key] = dist.get(key, 0) + prob
            else:
                after = drafts.after(drafter, state, seq)
                for tail, q in rest(after, next_width(plan, w, verdict), length + len(seq)).items():
                    key = seq + tail
                    dist[key] = dist.get(key, 0) + prob * q
        return dist

    return rest(drafter.start, width, 0)


def target_distribution(k, transform=NONE, tables=AUTHORED):
    """The target's own autoregressive distribution of ``k`` tokens (of the
    transformed target, when a transformation is given: the one the user asked for)."""
    rows = drafts.setup("aligned", transform, tables).reference
    dist = {(): Fraction(1)}
    for _ in range(k):
        nxt = {}
        for seq, prob in dist.items():
            row = rows[seq[-1] if seq else ""].fracs
            for t, p in zip(TOKENS, row):
                if p:
                    nxt[seq + (t,)] = prob * p
        dist = nxt
    return dist


def greedy_target(k, transform=NONE, tables=AUTHORED):
    """Ordinary greedy decoding of the target: the most likely token each time."""
    rows = drafts.setup("aligned", transform, tables).reference
    seq = ()
    for _ in range(k):
        seq += (TOKENS[argmax(rows[seq[-1] if seq else ""].fracs)],)
    return seq


def marginal(dist, k):
    """The distribution of the first ``k`` tokens of a longer one."""
    out = {}
    for seq, prob in dist.items():
        out[seq[:k]] = out.get(seq[:k], 0) + prob
    return out


def total_variation(a, b):
    """Total-variation distance, ``1/2 * sum |a - b|``, exactly."""
    return sum((abs(a.get(s, 0) - b.get(s, 0)) for s in set(a) | set(b)), Fraction(0)) / 2


@dataclass(frozen=True)
class Comparison:
    """A variant's exact output distribution against the target's.

    ``target`` is the distribution the user asked for: the target's own,
    transformed when ``transform`` reshapes it (whatever ``transform.at``
    says), so ``transform_at="draft"`` shows a positive distance.
    ``first_departure`` is the smallest prefix length at which the two
    differ, or None. ``greedy_equal`` says whether the output always equals
    greedy decoding of the target (the promise of the greedy variant).
    """

    variant: str
    draft: str
    width: int
    k: int
    target: dict
    result: dict
    distance: Fraction
    first_departure: Optional[int]
    greedy_equal: bool
    lookahead: Optional[Fraction] = None
    schedule: str = "fixed"
    transform: Transform = NONE
    tables: object = AUTHORED

    @property
    def keeps_target(self):
        return self.distance == 0

    def gap(self, prefix):
        """How much more (positive) or less this rule puts on ``prefix`` than the target."""
        return self.result.get(prefix, 0) - self.target.get(prefix, 0)

    def largest_gap(self):
        """The prefix where the rule and the target differ most, and by how much (signed)."""
        prefix = max(sorted(set(self.result) | set(self.target)), key=lambda s: abs(self.gap(s)))
        return prefix, self.gap(prefix)


def compare(draft, width, k, variant="exact", max_tokens=MAX_TOKENS, lookahead=None, schedule="fixed",
            transform=NONE, tables=AUTHORED):
    result = output_distribution(draft, width, k, variant, max_tokens, lookahead, schedule, transform, tables)
    target = target_distribution(k, transform, tables)
    distance = total_variation(result, target)
    first = None
    if distance:
        first = next(j for j in range(1, k + 1) if total_variation(marginal(result, j), marginal(target, j)))
    greedy_equal = result == {greedy_target(k, transform, tables): Fraction(1)}
    return Comparison(variant, draft, width, k, target, result, distance, first, greedy_equal,
                      None if lookahead is None else Fraction(lookahead), schedule, transform, tables)
