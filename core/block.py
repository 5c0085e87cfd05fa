"""The one block machinery: draft, then verify, on integer rows.

Sessions (which build records for the inspector) and the many-run sampler
(which only needs output tokens) call these same two functions, so every
view of the algorithm runs one implementation.

Order of draws in one block (fixed; a reader can redo a trace by hand):

1. Draft: one draw per proposal, left to right, each picking a token from
   the draft row ``q`` by inverse CDF (greedy drafting uses no draw). The
   lookup draft copies its proposals and uses no draw: its ``q`` is one-hot,
   and a draw could only ever pick the copied token. The heads draw like a
   table draft, one draw per proposal, each from its own head's row.
2. Verify: one draw per judged proposal, left to right, stopping at the first
   rejection; proposals after it are discarded and consume no draw.
3. Then one draw for the replacement after a rejection, or one for the bonus
   token after a full acceptance when the output limit leaves room. A block
   with no proposal (lookup found nothing to copy) is an ordinary target
   step: its one draw picks the next token from ``p``, in the bonus's place.

Target rows are keyed by the last token of the text (``""`` for the empty
prefix); draft rows come from the draft (``core.drafts``). Rows are
``core.drafts.Row`` objects; tokens inside this module are indices into
``TOKENS``.
"""

from toy_tables import TOKENS


def draft_block(variant, drafter, state, n, threshold, rng):
    """Propose up to ``n`` tokens from the draft's ``state``.

    With a lookahead ``threshold`` (a Fraction), drafting stops after a
    proposal whose own draft probability ``q(x)`` is below it: the draft is
    unsure, so more guesses would likely be wasted. The stop depends only on
    the draft's own proposals, which is why the output stays exact.

    Returns ``(rng, proposals, stopped_early, qs)`` with proposals (a list) as
    ``(token_index, k)`` pairs, ``k`` the draw (None when no draw was used),
    and ``qs`` the draft row each proposal came from.
    """
    proposals, qs = [], []
    propose, table = variant.propose, drafter.table
    if table is not None:  # a draft table: the row after the last token so far (the common, fast case)
        q = table[state]
        if threshold is None:
            for _ in range(n):
                rng, x, k = propose(q.weights, q.den, rng)
                proposals.append((x, k))
                qs.append(q)
                q = table[TOKENS[x]]
            return rng, proposals, False, qs
        for i in range(n):
            rng, x, k = propose(q.weights, q.den, rng)
            proposals.append((x, k))
            qs.append(q)
            if i < n - 1 and q.weights[x] * threshold.denominator < threshold.numerator * q.den:
                return rng, proposals, True, qs
            q = table[TOKENS[x]]
        return rng, proposals, False, qs
    last, row_at, copies = drafter.last(state), drafter.row_at, drafter.copies
    for i in range(n):
        q = row_at(state, i, last)
        if q is None:
            break
        if copies:
            x, k = q.hot, None
        else:
            rng, x, k = propose(q.weights, q.den, rng)
        proposals.append((x, k))
        qs.append(q)
        last = TOKENS[x]
        if threshold is not None and i < n - 1 and q.weights[x] * threshold.denominator < threshold.numerator * q.den:
            return rng, proposals, True, qs
    return rng, proposals, False, qs


def verify_block(variant, target, last, proposals, qs, room, rng):
    """Judge ``proposals`` (drafted from rows ``qs``) left to right in one target pass.

    ``target`` maps a last token to the target's Row; ``room`` is how many
    tokens the output may still take. Returns ``(rng, judged, outcome)``:
    ``judged`` holds ``(accepted, k, y)`` for each judged proposal;
    ``outcome`` is ``("correction", last, token, k)``, ``("bonus", last,
    token, k)`` or None (all accepted, no room for a bonus).
    """
    judged = []
    judge = variant.judge
    for (x, _), q in zip(proposals, qs):
        p = target[last]
        rng, accepted, k, y = judge(p.weights, p.den, q.weights, q.den, x, rng)
        judged.append((accepted, k, y))
        if not accepted:
            rng, token, k = variant.replace(p.weights, p.den, q.weights, q.den, x, y, rng)
            return rng, tuple(judged), ("correction", last, token, k)
        last = TOKENS[x]
    if len(proposals) < room:
        p = target[last]
        rng, token, k = variant.bonus(p.weights, p.den, rng)
        return rng, tuple(judged), ("bonus", last, token, k)
    return rng, tuple(judged), None


def committed(raw, judged, outcome):
    """Token indices a verified block appends: the accepted prefix, then the
    correction or bonus."""
    n = len(judged) if not judged or judged[-1][0] else len(judged) - 1  # accepted proposals are a prefix
    out = tuple([x for x, _ in raw[:n]])
    return out if outcome is None else out + (outcome[2],)
