"""Every sentence of the "When it pays off" tab, as a pure function of ``core`` values.

Plain text only (the views escape and wrap it), no Panel. A sentence says a
thing only when the numbers it is given make it true ("backfires" only when
lookahead's best is slower, "for the last block" only when the limit cut
it); ``tests/test_tab_words.py`` checks each claim against the engine over
many scenarios. The words are in the catalogues (``app/i18n``, keys
``payoff.*``): one whole template per situation, in the page's language.
"""

import core
from core import display, payoff

from ..i18n import has, t
from ..parts import draft_name

TOKENS = ("A", "B", "C")


def times(x):
    return "—" if x is None else f"{display.dec(x, 2)}×"


def join(items, word="and"):
    """``["2", "3", "5"] -> "2, 3 and 5"`` (``word``: "and" or "or"), in the page's language."""
    items = list(items)
    if len(items) == 1:
        return items[0]
    return t(f"payoff.join.{word}", rest=t("payoff.join.sep").join(items[:-1]), last=items[-1])


def reading(table, draft, cost):
    """The result in two or three sentences: the best width (the argmax), the closed form's pick."""
    rows = table.rows
    best = rows[table.best_width - 1]
    closed = rows[table.closed_best_width - 1]
    fields = dict(draft=draft_name(draft), c=display.dec(cost), width=best.width, speedup=times(best.speedup))
    text = t("payoff.reading.none" if best.speedup <= 1 else "payoff.reading.best", **fields)
    if closed.closed_speedup is None:
        text += t("payoff.reading.no_closed_form." + draft) if has("payoff.reading.no_closed_form." + draft) else ""
    elif closed.width == best.width:
        text += t("payoff.reading.closed_agrees", speedup=times(closed.closed_speedup), width=best.width)
    else:
        text += t("payoff.reading.closed_picks", width=closed.width, speedup=times(closed.closed_speedup))
    slower = [r.width for r in rows if r.speedup < 1]
    last = rows[-1].width
    if slower and best.speedup > 1:
        if slower == list(range(slower[0], last + 1)):
            text += t("payoff.reading.slower_from", width=slower[0])
        else:
            text += t("payoff.reading.slower", widths=join(map(str, slower)))
    elif best.width == last and best.speedup > 1:
        text += t("payoff.reading.widest")
    return text


def heuristic_tile(h):
    """The heuristic schedule's figure for a tile: its speedup and the average width it settles at."""
    return times(h.speedup), t("payoff.tile.heuristic", width=display.dec(h.mean_width))


def heuristic(h, fixed, dynamic=None):
    """The heuristic schedule (``core.payoff.heuristic_payoff``) beside the best fixed width and, when the
    lookahead curves are on, the best width with lookahead (``Payoff`` rows)."""
    text = t("payoff.heuristic", width=display.dec(h.mean_width), speedup=times(h.speedup),
             per_pass=display.dec(h.tokens_per_pass))
    fixed_fields = dict(width=fixed.width, speedup=times(fixed.speedup))
    if h.time_per_token > fixed.time_per_token:
        text += t("payoff.heuristic.fixed_faster", **fixed_fields)
    elif h.time_per_token == fixed.time_per_token:
        text += t("payoff.heuristic.fixed_equal", **fixed_fields)
    else:
        text += t("payoff.heuristic.fixed_slower", **fixed_fields)
    if dynamic is not None:
        key = "payoff.heuristic.lookahead_faster" if h.time_per_token > dynamic.time_per_token else \
            "payoff.heuristic.lookahead_slower"
        text += t(key, width=dynamic.width, speedup=times(dynamic.speedup))
    return text


def heuristic_computing():
    return t("payoff.heuristic.computing")


def alpha_tile(alpha):
    """What the α tile holds: the paper's α, named for what it is."""
    return display.exact_or_dec(alpha, 3), t("payoff.tile.alpha")


def kept_tile(share, width):
    """The share of proposals kept at one width (``core.rates.kept_share``), which is not α."""
    return display.dec(share, 4), t("payoff.tile.kept", width=width)


def shares(weights):
    return join(t("payoff.share", token=token, percent=display.percent(weights[token], 0)) for token in TOKENS)


def gap(row_1, rates_1, row_w, rates_w, kept_after):
    """Why the exact and closed-form curves part, with core's numbers (width 1 and one more width).

    ``row_*``: ``core.payoff.Payoff`` rows; ``rates_*``: ``core.rates.Rates``
    at the same widths; ``kept_after``: ``core.rates.kept_after(draft)``.
    """
    a = rates_1.alpha
    if a == 1:
        return [t("payoff.gap.alpha_one", draft=draft_name(rates_1.draft))]
    same = kept_after["A"] == kept_after["B"] == kept_after["C"]  # a link's tables can make it so
    out = [
        t("payoff.gap.alpha.same" if same else "payoff.gap.alpha", alpha=display.exact_or_dec(a, 3), shares=shares(rates_1.visits),
          after_a=display.dec(kept_after["A"]), after_b=display.dec(kept_after["B"]),
          after_c=display.dec(kept_after["C"])),
        t("payoff.gap.width_1", shares=shares(rates_1.block_starts), kept=display.dec(rates_1.kept_share, 4),
          alpha=display.dec(a, 4), exact=display.dec(row_1.tokens_per_pass, 3),
          closed=display.dec(row_1.closed_tokens_per_pass, 3)),
    ]
    if rates_w.width > 1:
        chances = [rates_w.kept_given_reached(i) for i in range(rates_w.width)]
        out.append(t("payoff.gap.width_w", width=rates_w.width,
                     chances=join(display.dec(x, 3) for x in chances if x is not None), alpha=display.dec(a, 3),
                     exact=display.dec(row_w.tokens_per_pass, 3), closed=display.dec(row_w.closed_tokens_per_pass, 3)))
    return out


def lookahead(draft, threshold, fixed, dynamic, chances):
    """The lesson of dynamic lookahead at one threshold, said only as far as the numbers go.

    ``fixed``/``dynamic``: best rows of the fixed-width and lookahead tables;
    ``chances``: ``core.rates.keep_chances(draft)``.
    """
    th = display.dec(threshold)
    after = [c for c in chances if c.last in TOKENS]
    stops = [c for c in after if c.q < threshold]
    text = t("payoff.lookahead.best", threshold=th, width=dynamic.width, speedup=times(dynamic.speedup),
             fixed_speedup=times(fixed.speedup), fixed_width=fixed.width)
    if not stops:
        return text + t("payoff.lookahead.never", draft=draft_name(draft), threshold=th)
    if dynamic.speedup < fixed.speedup:
        text += t("payoff.lookahead.backfires")
    elif dynamic.speedup == fixed.speedup:
        text += t("payoff.lookahead.same")
    else:
        text += t("payoff.lookahead.helps")

    def after_words(cs):
        return join(sorted({t("payoff.after", token=c.token, last=c.last) for c in cs}))

    if all(c.accept == 1 for c in after):
        text += t("payoff.lookahead.never_rejected", draft=draft_name(draft), unsure=after_words(stops))
    elif all(c.accept == 1 for c in stops):
        text += t("payoff.lookahead.stops_where_kept", unsure=after_words(stops),
                  rejected=after_words(c for c in after if c.accept < 1), threshold=th)
    return text + t("payoff.lookahead.calibrated")


def lookahead_plain(draft, threshold, table, lookahead_table):
    """Dynamic lookahead beside the fixed widths for a draft without per-position chances in ``core.rates``
    (lookup, heads): the comparison, and why nothing changes when nothing does."""
    th = display.dec(threshold)
    fixed = table.rows[table.best_width - 1]
    dynamic = lookahead_table.rows[lookahead_table.best_width - 1]
    text = t("payoff.lookahead.best", threshold=th, width=dynamic.width, speedup=times(dynamic.speedup),
             fixed_speedup=times(fixed.speedup), fixed_width=fixed.width)
    same = all(a.time_per_token == b.time_per_token for a, b in zip(table.rows, lookahead_table.rows))
    if same and core.DRAFT_KINDS[draft].drafter.copies:  # a copy's q(x) is 1: never below the threshold
        return text + t("payoff.lookahead.lookup_never")
    if same:
        return text + t("payoff.lookahead.never_stops", draft=draft_name(draft))
    if dynamic.time_per_token > fixed.time_per_token:
        return text + t("payoff.lookahead.backfires")
    if dynamic.time_per_token == fixed.time_per_token:
        return text + t("payoff.lookahead.same")
    return text + t("payoff.lookahead.helps")


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
    scenario = t("payoff.trace.scenario.heuristic" if cfg.schedule == "heuristic" else "payoff.trace.scenario",
                 draft=draft_name(cfg.draft), width=cfg.width, seed=cfg.seed)
    if cfg.lookahead is not None:
        scenario += t("exact.trace.lookahead", threshold=display.dec(cfg.lookahead))
    form = "one" if counters.target_passes == 1 else "other"
    text = t(f"payoff.trace.{form}", scenario=scenario, tokens=counters.committed, passes=counters.target_passes,
             steps=counters.draft_steps, per_pass=display.dec(per_pass), c=display.dec(cost),
             time=display.dec(time_per_token), speedup=times(payoff.trace_speedup(counters, cost)))
    if counters.committed == cfg.max_tokens and passes is not None:
        text += t("payoff.trace.noisy", mean=display.dec(passes.mean_tokens_per_pass))
    if last_block_cut(session):
        text += t("payoff.trace.cut", max=cfg.max_tokens)
    if cfg.draft != chart_draft:
        text += t("payoff.trace.other_draft", chart=draft_name(chart_draft), draft=draft_name(cfg.draft))
    if cfg.lookahead is not None and chart_lookahead != cfg.lookahead:
        text += t("payoff.trace.add_lookahead", threshold=display.dec(cfg.lookahead))
    return text


# ---- speculation in a batch (core.batch) -------------------------------------------------------

def batch_reading(bt, draft, cost, one=None):
    """The batch model's result: the best width per request, and where the pass stops costing one.

    ``bt``: ``core.batch.BatchTable``; ``one``: the fixed-width ``PayoffTable`` of the curves above,
    to say "the same as above" only when every row's speedup is equal.
    """
    best, rows = bt.best, bt.rows
    fields = dict(draft=draft_name(draft), c=display.dec(cost), b=best.batch, s=best.saturation, width=best.width,
                  speedup=times(best.speedup))
    text = t("payoff.batch.best" if bt.pays_off else "payoff.batch.none", **fields)
    slow = [r for r in rows if not r.memory_bound]
    if not slow:
        same = one is not None and all(r.speedup == o.speedup for r, o in zip(rows, one.rows))
        text += t("payoff.batch.all_fit.same" if same else "payoff.batch.all_fit", widest=rows[-1].width)
    elif len(slow) == len(rows):
        text += t("payoff.batch.none_fit", width=rows[0].width, time=display.dec(rows[0].target_pass_time))
    else:
        first = slow[0]
        text += t("payoff.batch.some_fit", width=first.width, time=display.dec(first.target_pass_time),
                  widest=rows[-1].width, widest_time=display.dec(rows[-1].target_pass_time))
    return text


def batch_throughput(bt):
    """What the whole batch serves at the best width, and the ceiling no batch size lifts."""
    best = bt.best
    text = t("payoff.batch.throughput", width=best.width, throughput=display.dec(best.throughput),
             ordinary=display.dec(best.ordinary_throughput))
    fields = dict(width=best.width, capacity=display.dec(best.capacity), ordinary=display.dec(best.ordinary_capacity))
    if best.capacity < best.ordinary_capacity:
        text += t("payoff.batch.ceiling.fewer", **fields)
        if best.speedup > 1:
            text += t("payoff.batch.ceiling.faster_but_fewer")
    else:
        text += t("payoff.batch.ceiling.same", **fields)
    return text


def batch_tiles(bt):
    """``(figure, what)`` for the batch model's tiles, at the best width."""
    best = bt.best
    return ((f"{best.width}", t("payoff.batch.tile.best")),
            (times(best.speedup), t("payoff.batch.tile.speedup")),
            (display.dec(best.throughput), t("payoff.batch.tile.throughput", ordinary=display.dec(best.ordinary_throughput))),
            (display.dec(best.capacity), t("payoff.batch.tile.capacity", ordinary=display.dec(best.ordinary_capacity))))


_CONSTANTS = {
    "HEURISTIC_COMPUTING": heuristic_computing,
    # The closed forms need a table (core.payoff.alpha): every other kind says why it has none.
    "NO_CLOSED_FORM": lambda: {k.name: t(f"payoff.reading.no_closed_form.{k.name}").strip()
                               for k in core.DRAFT_KINDS.values() if not k.has_table},
}


def __getattr__(name):
    """The module's word constants, in the page's language."""
    if name in _CONSTANTS:
        return _CONSTANTS[name]()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
