"""The one block machinery: draft, then verify, on integer rows.

Sessions (which build records for the inspector) and the many-run sampler
(which only needs output tokens) call these same two functions, so every
view of the algorithm runs one implementation.

Order of draws in one block (fixed; a reader can redo a trace by hand):

1. Draft: one draw per proposal, left to right, each picking a token from
   the draft row ``q`` by inverse CDF (greedy drafting uses no draw).
2. Verify: one draw per judged proposal, left to right, stopping at the first
   rejection; proposals after it are discarded and consume no draw.
3. Then one draw for the replacement after a rejection, or one for the bonus
   token after a full acceptance when the output limit leaves room.

Rows are keyed by the last committed token (``""`` for the empty prefix);
tokens inside this module are indices into ``TOKENS``.
"""

from toy_tables import TOKENS


def draft_block(variant, draft, last, n, threshold, rng):
    """Propose up to ``n`` tokens after ``last``.

    With a lookahead ``threshold`` (a Fraction), drafting stops after a
    proposal whose own draft probability ``q(x)`` is below it: the draft is
    unsure, so more guesses would likely be wasted. The stop depends only on
    the draft's own proposals, which is why the output stays exact.

    Returns ``(rng, proposals, stopped_early)`` with proposals as
    ``(token_index, k)`` pairs, ``k`` the draw (None when no draw was used).
    """
    weights, den = draft.weights, draft.denominator
    proposals = []
    for i in range(n):
        row = weights[last]
        rng, x, k = variant.propose(row, den, rng)
        proposals.append((x, k))
        last = TOKENS[x]
        if threshold is not None and i < n - 1 and row[x] * threshold.denominator < threshold.numerator * den:
            return rng, tuple(proposals), True
    return rng, tuple(proposals), False


def verify_block(variant, target, draft, last, proposals, room, rng):
    """Judge ``proposals`` left to right in one target pass.

    ``room`` is how many tokens the output may still take. Returns
    ``(rng, judged, outcome)``: ``judged`` holds ``(accepted, k, y)`` for each
    judged proposal; ``outcome`` is ``("correction", last, token, k)``,
    ``("bonus", last, token, k)`` or None (all accepted, no room for a bonus).
    """
    p_all, p_den = target.weights, target.denominator
    q_all, q_den = draft.weights, draft.denominator
    judged = []
    for x, _ in proposals:
        p_row, q_row = p_all[last], q_all[last]
        rng, accepted, k, y = variant.judge(p_row, p_den, q_row, q_den, x, rng)
        judged.append((accepted, k, y))
        if not accepted:
            rng, token, k = variant.replace(p_row, p_den, q_row, q_den, x, y, rng)
            return rng, tuple(judged), ("correction", last, token, k)
        last = TOKENS[x]
    if len(proposals) < room:
        rng, token, k = variant.bonus(p_all[last], p_den, rng)
        return rng, tuple(judged), ("bonus", last, token, k)
    return rng, tuple(judged), None


def committed(raw, judged, outcome):
    """Token indices a verified block appends: the accepted prefix, then the
    correction or bonus."""
    n = len(judged) if not judged or judged[-1][0] else len(judged) - 1  # accepted proposals are a prefix
    out = tuple([x for x, _ in raw[:n]])
    return out if outcome is None else out + (outcome[2],)
