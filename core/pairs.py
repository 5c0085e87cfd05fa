"""The exact numbers of (target row, draft row) pairs, computed once per rule and setup.

A session's records carry, for every proposal, p, q, q(x), p(x), p(x)/q(x),
the acceptance probability and (after a rejection) the replacement row and
the position's rejection chance: Fraction arithmetic that would dominate a
trace if redone each time. Rows (``core.drafts.Row``) are built once and
compared by identity, so these caches are keyed by the row objects
themselves; ``Config`` looks them up once per scenario (``Config.numbers``).
"""

from toy_tables import TOKENS


def numbers_for(variant, target):
    """The caches of exact numbers one rule needs with one setup's ``target`` rows:
    ``({q: {last token: entries}}, {last token: bonus row})``; the first fills as
    draft rows are met (``numbers_of``), the second is complete. Rows are fixed
    objects compared by identity, so each is computed once (``Config.numbers``)."""
    return {}, {last: variant.bonus_dist(p.fracs) for last, p in target.items()}


def numbers_of(variant, cache, target, q):
    """The exact numbers of draft row ``q`` against every target row: ``{last: entries}``
    with one entry per token x (None where q(x) = 0): ``(p, q, q(x), p(x), p(x)/q(x),
    acceptance probability, replacement row, rejection chance 1 - sum(min(p, q)))``."""
    qf = q.fracs
    by_last = {}
    for last, p in target.items():
        pf = p.fracs
        rejection = 1 - sum(min(a, b) for a, b in zip(pf, qf))
        by_last[last] = tuple((pf, qf, qf[x], pf[x], pf[x] / qf[x], variant.accept_probability(pf, qf, x),
                               variant.replace_dist(pf, qf, x), rejection) if qf[x] else None
                              for x in range(len(TOKENS)))
    cache[q] = by_last
    return by_last
