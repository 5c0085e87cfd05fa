"""Every sentence of the "When it pays off" tab, as a pure function of ``core`` values.

Plain text only (the views escape and wrap it), no Panel. A sentence says a
thing only when the numbers it is given make it true ("backfires" only when
lookahead's best is slower, "for the last block" only when the limit cut
it); ``tests/test_tab_words.py`` checks each claim against the engine over
many scenarios.
"""

from core import display, payoff

TOKENS = ("A", "B", "C")


def times(x):
    return "—" if x is None else f"{display.dec(x, 2)}×"


def join(items, word="and"):
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {word} " + items[-1]


def reading(table, draft, cost):
    """The result in two or three sentences: the best width (the argmax), the closed form's pick."""
    rows = table.rows
    best = rows[table.best_width - 1]
    closed = rows[table.closed_best_width - 1]
    c = display.dec(cost)
    if best.speedup <= 1:
        text = (f"With the {draft} draft and c = {c}, no width pays off: even the best, width "
                f"{best.width}, reaches only {times(best.speedup)} of ordinary decoding's speed.")
    else:
        text = (f"With the {draft} draft and c = {c}, width {best.width} is best: expected speedup "
                f"{times(best.speedup)} over ordinary decoding.")
    if closed.closed_speedup is None:
        text += " " + NO_CLOSED_FORM.get(draft, "")
    elif closed.width == best.width:
        text += f" The paper's closed form agrees ({times(closed.closed_speedup)} at width {best.width})."
    else:
        text += f" The paper's closed form picks width {closed.width} ({times(closed.closed_speedup)})."
    slower = [r.width for r in rows if r.speedup < 1]
    last = rows[-1].width
    if slower and best.speedup > 1:
        text += (f" From width {slower[0]} on, speculation is slower than ordinary decoding: the wasted draft "
                 f"work outweighs the extra tokens." if slower == list(range(slower[0], last + 1))
                 else f" Widths {join(map(str, slower))} are slower than ordinary decoding.")
    elif best.width == last and best.speedup > 1:
        text += " Every width up to the widest pays, and the widest block wins."
    return text


NO_CLOSED_FORM = {
    "lookup": ("The paper's closed form assumes one acceptance rate α for every proposal; a lookup copy is kept "
               "with chance p(x), which depends on what was copied, so only the exact curve is drawn."),
    "heads": ("The paper's closed form assumes one acceptance rate α for every proposal; head i is kept less "
              "often the further ahead it guesses, so only the exact curve is drawn."),
}


def heuristic_tile(h):
    """The heuristic schedule's figure for a tile: its speedup and the average width it settles at."""
    return (times(h.speedup), f"heuristic schedule's speedup (average width {display.dec(h.mean_width)})")


def heuristic(h, fixed, dynamic=None):
    """The heuristic schedule (``core.payoff.heuristic_payoff``) beside the best fixed width and, when the
    lookahead curves are on, the best width with lookahead (``Payoff`` rows)."""
    text = (f"The heuristic schedule (Hugging Face's assisted generation: +2 after a block whose every guess was "
            f"accepted, otherwise −1, from 1 to 8) settles at an average width of {display.dec(h.mean_width)} "
            f"and reaches {times(h.speedup)}, {display.dec(h.tokens_per_pass)} tokens per pass.")
    if h.time_per_token > fixed.time_per_token:
        text += (f" The best fixed width, {fixed.width}, is faster ({times(fixed.speedup)}): the rule reacts only "
                 f"to the last block, so it keeps overshooting and undershooting; its merit is needing no tuning.")
    elif h.time_per_token == fixed.time_per_token:
        text += f" That equals the best fixed width, {fixed.width} ({times(fixed.speedup)}), without tuning it."
    else:
        text += (f" That beats the best fixed width, {fixed.width} ({times(fixed.speedup)}): adapting to the last "
                 f"block pays here.")
    if dynamic is not None:
        if h.time_per_token > dynamic.time_per_token:
            text += f" Dynamic lookahead at its best width, {dynamic.width}, is faster too ({times(dynamic.speedup)})."
        else:
            text += (f" It is at least as fast as dynamic lookahead at its best width, {dynamic.width} "
                     f"({times(dynamic.speedup)}).")
    return text


HEURISTIC_COMPUTING = "Computing the heuristic schedule's long run exactly…"


def alpha_tile(alpha):
    """What the α tile holds: the paper's α, named for what it is."""
    return (display.exact_or_dec(alpha, 3),
            "α of the closed form: Σ min(p, q) averaged over how often the target's own text follows A, B, C")


def kept_tile(share, width):
    """The share of proposals kept at one width (``core.rates.kept_share``), which is not α."""
    return (display.dec(share, 4),
            f"share of proposals kept in the long run at width {width} (discarded ones count as not kept)")


def shares(weights):
    return join(f"{t} {display.percent(weights[t], 0)}" for t in TOKENS)


def gap(row_1, rates_1, row_w, rates_w, kept_after):
    """Why the exact and closed-form curves part, with core's numbers (width 1 and one more width).

    ``row_*``: ``core.payoff.Payoff`` rows; ``rates_*``: ``core.rates.Rates``
    at the same widths; ``kept_after``: ``core.rates.kept_after(draft)``.
    """
    a = rates_1.alpha
    if a == 1:
        return [f"The paper's closed form gives every proposal the same chance α of being kept. With the "
                f"{rates_1.draft} draft every proposal is kept (α = 1), so the two curves coincide: "
                f"width w gives w + 1 tokens per pass."]
    alpha = display.exact_or_dec(a, 3)
    out = [
        f"The paper's closed form gives every proposal of a block the same chance α = {alpha} of being kept, "
        f"independently of the others: Σ min(p, q) averaged over how often the target's own text follows each "
        f"token ({shares(rates_1.visits)}). In these tables the chance depends on the token before the "
        f"proposal: after A {display.dec(kept_after['A'])}, after B {display.dec(kept_after['B'])}, after C "
        f"{display.dec(kept_after['C'])}.",
        f"At width 1 the gap comes only from where blocks start: a block starts after the token that ended the "
        f"previous one, and that is {shares(rates_1.block_starts)} of blocks, so a proposal is kept with chance "
        f"{display.dec(rates_1.kept_share, 4)} rather than α ≈ {display.dec(a, 4)}: "
        f"{display.dec(row_1.tokens_per_pass, 3)} tokens per pass exact, "
        f"{display.dec(row_1.closed_tokens_per_pass, 3)} by the closed form.",
    ]
    if rates_w.width > 1:
        chances = [rates_w.kept_given_reached(i) for i in range(rates_w.width)]
        out.append(
            f"At width {rates_w.width} the chance that proposal 1, 2, … of a block is kept once it is judged is "
            f"{join(display.dec(x, 3) for x in chances if x is not None)}, where the closed form takes "
            f"α ≈ {display.dec(a, 3)} each time: {display.dec(row_w.tokens_per_pass, 3)} tokens per pass exact, "
            f"{display.dec(row_w.closed_tokens_per_pass, 3)} by the closed form.")
    return out


def lookahead(draft, threshold, fixed, dynamic, chances):
    """The lesson of dynamic lookahead at one threshold, said only as far as the numbers go.

    ``fixed``/``dynamic``: best rows of the fixed-width and lookahead tables;
    ``chances``: ``core.rates.keep_chances(draft)``.
    """
    t = display.dec(threshold)
    after = [c for c in chances if c.last in TOKENS]
    stops = [c for c in after if c.q < threshold]
    text = (f"With threshold {t}, the best is width {dynamic.width} at {times(dynamic.speedup)}, against "
            f"{times(fixed.speedup)} at width {fixed.width} without lookahead.")
    if not stops:
        return text + (f" No proposal of the {draft} draft has q(x) below {t}, so the draft never stops early "
                       f"and the lookahead curves are the fixed-width ones.")
    if dynamic.speedup < fixed.speedup:
        text += " Here stopping on low confidence backfires."
    elif dynamic.speedup == fixed.speedup:
        text += " Here it makes no difference to the best speedup."
    else:
        text += " Here stopping on low confidence helps."
    unsure = sorted({f"{c.token} after {c.last}" for c in stops})
    if all(c.accept == 1 for c in after):
        text += (f" The {draft} draft is never rejected, so every early stop (after {join(unsure)}) only gives up "
                 f"tokens the target would have kept.")
    elif all(c.accept == 1 for c in stops):
        rejected = sorted({f"{c.token} after {c.last}" for c in after if c.accept < 1})
        text += (f" The draft stops after the proposals it is unsure of ({join(unsure)}), and the target keeps "
                 f"every one of those; the ones it may reject ({join(rejected)}) have q(x) of at least {t}, so "
                 f"the draft keeps going exactly where it may be corrected.")
    return text + (" Draft confidence is a useful stopping signal only when the draft is calibrated: when its low "
                   "probabilities mark the places it is likely to be wrong.")


def lookahead_plain(draft, threshold, table, lookahead_table):
    """Dynamic lookahead beside the fixed widths for a draft without per-position chances in ``core.rates``
    (lookup, heads): the comparison, and why nothing changes when nothing does."""
    t = display.dec(threshold)
    fixed = table.rows[table.best_width - 1]
    dynamic = lookahead_table.rows[lookahead_table.best_width - 1]
    text = (f"With threshold {t}, the best is width {dynamic.width} at {times(dynamic.speedup)}, against "
            f"{times(fixed.speedup)} at width {fixed.width} without lookahead.")
    same = all(a.time_per_token == b.time_per_token for a, b in zip(table.rows, lookahead_table.rows))
    if same and draft == "lookup":
        return text + (" A lookup copy has q(x) = 1, never below the threshold, so the draft never stops early "
                       "and the lookahead curves are the fixed-width ones.")
    if same:
        return text + f" With this threshold the {draft} draft never stops early: the curves are the same."
    if dynamic.time_per_token > fixed.time_per_token:
        return text + " Here stopping on low confidence backfires."
    if dynamic.time_per_token == fixed.time_per_token:
        return text + " Here it makes no difference to the best speedup."
    return text + " Here stopping on low confidence helps."


def last_block_cut(session):
    """Whether the output limit shortened the trace's last block.

    It did when the block had no room for its bonus, or drafted fewer than
    ``width`` proposals for lack of room (not because dynamic lookahead
    stopped it, and not after a proposal where lookahead would have stopped
    anyway): without the limit that block would have gone differently.
    """
    if not session.blocks:
        return False
    b, cfg = session.blocks[-1], session.config
    if b.correction is None and b.bonus is None:
        return True
    last = b.proposals[-1] if b.proposals else None
    would_stop = cfg.lookahead is not None and last is not None and last.q_x < cfg.lookahead
    width = cfg.width if b.width is None else b.width  # the schedule's width for this block
    room = cfg.max_tokens - len(b.prefix)
    # Fewer proposals than the width because the limit left no more room (lookup may also run out of text).
    return len(b.proposals) < width and len(b.proposals) == room and not b.stopped_early and not would_stop


def trace(session, cost, passes, chart_draft, chart_lookahead):
    """What the trace of the first tab says beside the curves (``passes``: ``core.passes.passes`` for it,
    or None where core.passes does not enumerate the scenario)."""
    cfg, counters = session.config, session.counters
    per_pass = counters.tokens_per_pass
    time_per_token = payoff.trace_time_per_token(counters, cost)
    text = (f"Your trace on the first tab ({cfg.draft} draft, "
            + (f"heuristic schedule from width {cfg.width}" if cfg.schedule == "heuristic" else f"width {cfg.width}")
            + f", seed {cfg.seed}"
            + (f", lookahead threshold {display.dec(cfg.lookahead)}" if cfg.lookahead is not None else "")
            + f"): {counters.committed} tokens from {counters.target_passes} target "
              f"pass{'es' if counters.target_passes != 1 else ''} and {counters.draft_steps} draft steps, "
              f"{display.dec(per_pass)} tokens per pass. At c = {display.dec(cost)} its time per token is "
              f"{display.dec(time_per_token)} of ordinary decoding's (a speedup of {times(payoff.trace_speedup(counters, cost))}).")
    if counters.committed == cfg.max_tokens and passes is not None:
        text += (f" One trace is noisy: over many full traces of this scenario, the tokens-per-pass counter "
                 f"averages {display.dec(passes.mean_tokens_per_pass)}.")
    if last_block_cut(session):
        text += f" The {cfg.max_tokens}-token limit cut its last block short."
    if cfg.draft != chart_draft:
        text += f" (The charts show the {chart_draft} draft; your trace used the {cfg.draft} draft.)"
    if cfg.lookahead is not None and chart_lookahead != cfg.lookahead:
        text += (f" Your trace used dynamic lookahead: add the lookahead curves with threshold "
                 f"{display.dec(cfg.lookahead)} to compare like with like.")
    return text
