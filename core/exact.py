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

import toy_tables
from toy_tables import TOKENS

from .config import MAX_TOKENS, Config
from .rule import argmax
from .variants import VARIANTS


@lru_cache(maxsize=None)
def block_outcomes(variant, draft, width, last, room, lookahead=None):
    """Every way one block can end, from state ``last`` with ``room`` tokens left.

    Returns a tuple of ``(committed, probability)`` with ``committed`` a tuple
    of tokens. Proposals after a rejection are discarded whatever they are,
    so they are summed out rather than enumerated.
    """
    v = VARIANTS[variant]
    p_rows = toy_tables.target.rows
    n = min(width, room)
    out = {}

    def add(seq, prob):
        out[seq] = out.get(seq, 0) + prob

    def walk(i, cur, accepted, prob):
        for token, accept_mass, rejections, stop in _branches(variant, draft, cur):
            for c, mass in rejections:
                add(accepted + (c,), prob * mass)
            if not accept_mass:
                continue
            seq, reach = accepted + (token,), prob * accept_mass
            if i + 1 < n and not (lookahead is not None and stop < lookahead):
                walk(i + 1, token, seq, reach)
            elif len(seq) < room:
                for b, pb in zip(TOKENS, v.bonus_dist(p_rows[token])):
                    if pb:
                        add(seq + (b,), reach * pb)
            else:
                add(seq, reach)

    walk(0, last, (), Fraction(1))
    return tuple(out.items())


@lru_cache(maxsize=None)
def _branches(variant, draft, cur):
    """For each token x the draft may propose after ``cur``: the mass that
    proposes and accepts it, the mass that proposes it and ends in each
    replacement, and q(x) (what dynamic lookahead compares)."""
    v = VARIANTS[variant]
    p, q = toy_tables.target.rows[cur], toy_tables.drafts[draft].rows[cur]
    out = []
    for x, qx in enumerate(v.propose_dist(q)):
        if not qx:
            continue
        a = v.accept_probability(p, q, x)
        rejections = tuple((TOKENS[c], qx * (1 - a) * r) for c, r in enumerate(v.replace_dist(p, q, x)) if r and a != 1)
        out.append((TOKENS[x], qx * a, rejections, q[x]))
    return tuple(out)


def output_distribution(draft, width, k, variant="exact", max_tokens=MAX_TOKENS, lookahead=None):
    """Exact distribution of the first ``k`` output tokens: ``{tokens: probability}``."""
    Config(draft, width, 0, max_tokens, variant, lookahead)
    if not 1 <= k <= max_tokens:
        raise ValueError(f"k must be from 1 to max_tokens ({max_tokens}), got {k}")
    lookahead = None if lookahead is None else Fraction(lookahead)

    @lru_cache(maxsize=None)
    def rest(last, length):
        dist = {}
        for seq, prob in block_outcomes(variant, draft, width, last, max_tokens - length, lookahead):
            if length + len(seq) >= k:
                key = seq[: k - length]
                dist[key] = dist.get(key, 0) + prob
            else:
                for tail, q in rest(seq[-1], length + len(seq)).items():
                    key = seq + tail
                    dist[key] = dist.get(key, 0) + prob * q
        return dist

    return rest("", 0)


def target_distribution(k):
    """The target's own autoregressive distribution of ``k`` tokens."""
    dist = {(): Fraction(1)}
    for _ in range(k):
        nxt = {}
        for seq, prob in dist.items():
            row = toy_tables.target.rows[seq[-1] if seq else ""]
            for t, p in zip(TOKENS, row):
                if p:
                    nxt[seq + (t,)] = prob * p
        dist = nxt
    return dist


def greedy_target(k):
    """Ordinary greedy decoding of the target: the most likely token each time."""
    seq = ()
    for _ in range(k):
        seq += (TOKENS[argmax(toy_tables.target.rows[seq[-1] if seq else ""])],)
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


def compare(draft, width, k, variant="exact", max_tokens=MAX_TOKENS, lookahead=None):
    result = output_distribution(draft, width, k, variant, max_tokens, lookahead)
    target = target_distribution(k)
    distance = total_variation(result, target)
    first = None
    if distance:
        first = next(j for j in range(1, k + 1) if total_variation(marginal(result, j), marginal(target, j)))
    greedy_equal = result == {greedy_target(k): Fraction(1)}
    return Comparison(variant, draft, width, k, target, result, distance, first, greedy_equal,
                      None if lookahead is None else Fraction(lookahead))
