"""The "When it pays off" tab, driven without a browser.

Build the model and views, set widget values from Python (a slider is
"released" the way a browser does it), read what the page would show.
Expected numbers come from ``core`` itself.
"""

import re
from fractions import Fraction as F

import panel as pn
import param
import pytest
from bokeh.document import Document

import core
import toy_tables
from core import display, passes, payoff
from core.variants import VARIANTS

from app.step.model import StepModel as Model
from app.payoff import PayoffTab
from app.payoff.model import PayoffModel, fraction
from app.payoff import words
from app.payoff.views import COMPUTING, Curves


def text(html):
    plain = re.sub(r"<[^>]+>", " ", html)
    for entity, char in (("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&#x27;", "'"), ("&amp;", "&")):
        plain = plain.replace(entity, char)
    return re.sub(r"\s+", " ", plain).strip()


def release(slider, value):
    """What a browser does when a slider is let go at ``value``."""
    with param.edit_constant(slider):
        slider.param.update(value=value, value_throttled=value)


def shown(**params):
    tab = PayoffTab(**params)
    tab.activate()
    return tab


def active(**params):
    m = PayoffModel(**params)
    m.activate()
    return m


# ---- nothing before the tab is shown ----------------------------------------------------------

def test_building_the_tab_computes_no_table():
    main = Model()
    tab = PayoffTab(session_model=main)
    main.draft = "biased"
    main.act("run_to_end")
    m = tab.model
    assert (m.active, m.table, m.lookahead_table) == (False, None, None)
    assert m.draft == "biased" and tab.body is None  # it follows the first tab's draft, cheaply
    tab.activate()
    assert m.table == payoff.payoff_table("biased", F(1, 10))


def test_a_dynamic_tab_is_computed_when_first_opened_and_only_then():
    tab = PayoffTab(session_model=Model())
    tabs = pn.Tabs(("first", pn.pane.HTML("first tab")), ("payoff", tab), dynamic=True)
    tabs.get_root(Document())
    assert tab.model.table is None and tab.body is None
    tabs.active = 1
    assert tab.model.table is not None and tab.curves.speed.sources["exact"].data["x"] == list(range(1, 9))


def test_the_reading_says_computing_until_the_tables_are_in():
    m = PayoffModel()
    assert m.table is None
    assert Curves(model=m).reading.object == COMPUTING
    m.activate()
    assert "is best" in text(Curves(model=m).reading.object)


# ---- the curves ---------------------------------------------------------------------------------

def test_the_slider_value_is_read_as_the_exact_number_it_shows():
    assert fraction(0.07) == F(7, 100)
    assert fraction(0.1 + 0.2) == F(3, 10)
    m = active(cost=0.07)
    assert m.table.rows[0].cost == F(7, 100)


def test_moving_c_moves_the_marked_best_width():
    tab = shown()
    tab.controls.draft.value = "biased"
    marks = {}
    for cost in (0.0, 0.05, 0.2, 0.5):
        release(tab.controls.cost, cost)
        best = payoff.payoff_table("biased", fraction(cost)).best_width
        assert tab.curves.speed.best.data["x"] == [best]
        assert f"width {best} is best" in text(tab.curves.reading.object)
        marks[cost] = best
    assert len(set(marks.values())) > 1


def test_dragging_the_slider_changes_nothing_until_it_is_released():
    tab = shown()
    tab.controls.cost.value = 0.5
    assert tab.model.cost == 0.1
    release(tab.controls.cost, 0.5)
    assert tab.model.cost == 0.5


def test_curves_are_core_numbers_exact_and_closed_form():
    tab = shown(model=PayoffModel(draft="biased", cost=0.2))
    rows = payoff.payoff_table("biased", F(1, 5)).rows
    speed, per_pass = tab.curves.speed, tab.curves.passes
    assert speed.sources["exact"].data["y"] == [float(r.speedup) for r in rows]
    assert speed.sources["closed"].data["y"] == [float(r.closed_speedup) for r in rows]
    assert per_pass.sources["exact"].data["y"] == [float(r.tokens_per_pass) for r in rows]
    assert speed.sources["lookahead"].data["y"] == []


def test_the_charts_are_refilled_never_rebuilt():
    tab = shown()
    fig, source = tab.curves.speed.fig, tab.curves.speed.sources["exact"]
    release(tab.controls.cost, 0.3)
    tab.controls.lookahead.value = True
    assert tab.curves.speed.fig is fig and tab.curves.speed.sources["exact"] is source
    assert source.data["y"] == [float(r.speedup) for r in payoff.payoff_table("biased", F(3, 10)).rows]


def test_no_width_pays_off_when_drafting_is_as_slow_as_the_target():
    tab = shown(model=PayoffModel(draft="biased", cost=1.0))
    assert all(r.speedup < 1 for r in tab.model.table.rows)
    assert "no width pays off" in text(tab.curves.reading.object)


def test_the_alpha_tile_says_what_alpha_is_and_the_kept_share_is_shown_beside_it():
    """Issue 11: α = 17/30 is not the chance a proposal is kept (0.5775 at width 1 for the biased draft)."""
    tab = shown(model=PayoffModel(draft="biased", cost=0.5))
    tiles = text(tab.curves.tiles.object)
    assert "17/30 ≈ 0.567 α of the closed form" in tiles
    assert "average chance a proposal is accepted" not in tiles
    best = tab.model.table.best_width
    assert best == 1 and "0.5775 share of proposals kept in the long run at width 1" in tiles


def test_the_gap_note_uses_width_1_where_only_block_starts_differ():
    tab = shown(model=PayoffModel(draft="biased"))
    note = text(tab.notes.gap_text.object)
    assert "later positions follow tokens the draft favours" not in note
    assert "At width 1 the gap comes only from where blocks start" in note
    assert "1.577 tokens per pass exact, 1.567 by the closed form" in note


def test_the_trace_on_the_first_tab_is_a_point_from_its_counters():
    main = Model()
    tab = PayoffTab(session_model=main)
    tab.activate()
    curves = tab.curves
    assert curves.speed.trace.data["x"] == [] and "Run at least one block" in text(curves.trace_text.object)
    main.draft = "biased"
    assert tab.model.draft == "biased"  # the tab follows the first tab's draft
    main.act("run_to_end")
    counters = main.session.counters
    assert curves.passes.trace.data == {"x": [main.width], "y": [float(counters.tokens_per_pass)],
                                        "text": [f"your trace: {display.dec(counters.tokens_per_pass)} tokens per pass"]}
    assert curves.speed.trace.data["y"] == [float(payoff.trace_speedup(counters, tab.model.c))]
    assert f"{counters.target_passes} target passes" in text(curves.trace_text.object)


def test_the_trace_sentence_quotes_what_the_counter_averages_not_the_pooled_ratio():
    """Issue 11: biased width 3 traces average 2.09 tokens per pass on the counter; 1.93 is the pooled ratio."""
    main = Model()
    tab = PayoffTab(session_model=main)
    tab.activate()
    main.draft = "biased"
    main.act("run_to_end")
    expect = passes.passes("biased", 3)
    words = text(tab.curves.trace_text.object)
    assert f"the tokens-per-pass counter averages {display.dec(expect.mean_tokens_per_pass)}" in words
    assert display.dec(expect.mean_tokens_per_pass) == "2.09" != display.dec(expect.pooled_tokens_per_pass)


def test_aligned_width_3_fills_8_tokens_with_whole_blocks_so_no_block_is_said_cut():
    main = Model()
    tab = PayoffTab(session_model=main)
    tab.activate()
    main.param.update(draft="aligned", width=3)
    main.act("run_to_end")
    assert [len(b.committed) for b in main.session.blocks] == [4, 4]
    assert "cut its last block short" not in text(tab.curves.trace_text.object)


def test_lookahead_adds_its_curve_and_its_lesson():
    tab = shown()
    tab.controls.draft.value = "biased"
    assert "Switch on dynamic lookahead" in text(tab.notes.lookahead_text.object)
    tab.controls.lookahead.value = True
    rows = payoff.payoff_table("biased", fraction(tab.model.cost), fraction(tab.model.threshold)).rows
    assert tab.curves.speed.sources["lookahead"].data["y"] == [float(r.speedup) for r in rows]
    words = text(tab.notes.lookahead_text.object)
    assert "backfires" in words and "keeps going exactly where it may be corrected" in words


def test_the_biased_draft_is_least_sure_exactly_where_the_target_always_accepts():
    """The claim in the lookahead note, checked on the tables at the default threshold."""
    threshold = fraction(PayoffModel.param.threshold.default)
    rule = VARIANTS["exact"]
    for last, q in toy_tables.drafts["biased"].rows.items():
        p = toy_tables.target.rows[last]
        for x, token in enumerate(core.TOKENS):
            accept = rule.accept_probability(p, q, x)
            if q[x] < threshold:
                assert accept == 1, (last, token)
            else:
                assert token == "A" and accept < 1, (last, token)


def test_with_the_aligned_draft_an_early_stop_never_helps():
    m = active(draft="aligned", cost=0.1, lookahead=True)
    for fixed, dynamic in zip(m.table.rows, m.lookahead_table.rows):
        assert dynamic.speedup <= fixed.speedup


@pytest.mark.parametrize("threshold, cost", [(0.05, 0.1), (0.3, 0.5)])
def test_where_lookahead_changes_nothing_the_note_does_not_say_it_backfires(threshold, cost):
    """Issue 11: at threshold 0.05, or at c = 0.5, the figures with and without lookahead are the same."""
    tab = shown(model=PayoffModel(draft="biased", cost=cost))
    tab.controls.lookahead.value = True
    release(tab.controls.threshold, threshold)
    m = tab.model
    assert m.best("lookahead").speedup == m.best("exact").speedup
    words = text(tab.notes.lookahead_text.object)
    assert "backfires" not in words
    assert "never stops early" in words or "makes no difference" in words


def test_a_trace_with_dynamic_lookahead_is_compared_with_its_own_expectation():
    main = Model()
    tab = PayoffTab(session_model=main)
    tab.activate()
    threshold = main.param.lookahead.objects[-1]
    main.param.update(draft="biased", lookahead=threshold)
    main.act("run_to_end")
    cfg = main.session.config
    assert cfg.lookahead is not None
    expect = passes.passes(cfg.draft, cfg.width, cfg.max_tokens, cfg.lookahead)
    words = text(tab.curves.trace_text.object)
    assert f"counter averages {display.dec(expect.mean_tokens_per_pass)}" in words
    assert "Your trace used dynamic lookahead" in words
    tab.controls.lookahead.value = True
    release(tab.controls.threshold, float(cfg.lookahead))
    assert "Your trace used dynamic lookahead" not in text(tab.curves.trace_text.object)


def test_moving_the_threshold_switches_the_lookahead_curves_on():
    tab = shown()
    assert not tab.model.lookahead
    release(tab.controls.threshold, 0.5)
    assert tab.model.lookahead and tab.model.t == F(1, 2)
    assert tab.controls.lookahead.value
    assert "With threshold 0.50" in text(tab.notes.lookahead_text.object)


def test_moving_c_resends_the_curves_but_not_the_notes_whose_text_stays():
    tab = PayoffTab()
    doc = Document()
    doc.add_root(pn.panel(tab).get_root(doc))
    best = tab.model.table.best_width
    assert payoff.payoff_table("biased", F(11, 100)).best_width == best  # the notes' numbers stay
    changed = []
    doc.on_change(lambda event: changed.append(id(getattr(event, "model", None))))
    release(tab.controls.cost, 0.11)
    for pane in (tab.notes.gap_text, tab.notes.lookahead_text):
        assert not any(id(model) in changed for model, _ in pane._models.values())
    assert id(tab.curves.speed.sources["exact"]) in changed
    assert id(tab.curves.passes.sources["exact"]) not in changed  # tokens per pass do not depend on c


# ---- the heuristic schedule and the drafts without a closed form (issue 12) ----------------------------

@pytest.mark.parametrize("draft", core.ALL_DRAFTS)
def test_the_heuristic_schedule_is_a_point_at_its_average_width_from_core(draft):
    tab = shown()
    m = tab.model
    m.draft = draft
    h = payoff.heuristic_payoff(draft, m.c)
    assert m.heuristic == h
    for chart, value in ((tab.curves.speed, h.speedup), (tab.curves.passes, h.tokens_per_pass)):
        assert dict(chart.heuristic.data)["x"] == [float(h.mean_width)]
        assert dict(chart.heuristic.data)["y"] == [float(value)]
    said = text(tab.curves.schedule_text.object)
    assert said == words.heuristic(h, m.best("exact"))
    assert f"average width of {display.dec(h.mean_width)}" in said


def test_the_heuristic_is_said_slower_only_when_the_best_fixed_width_is_faster():
    for draft in ("aligned", "biased", "heads"):
        for cost in (F(0), F(1, 10), F(1, 2)):
            h = payoff.heuristic_payoff(draft, cost)
            fixed = payoff.payoff_table(draft, cost)
            best = fixed.rows[fixed.best_width - 1]
            said = words.heuristic(h, best)
            assert ("is faster" in said) == (h.time_per_token > best.time_per_token)
            assert ("beats the best fixed width" in said) == (h.time_per_token < best.time_per_token)


@pytest.mark.parametrize("draft", ["lookup", "heads"])
def test_drafts_without_alpha_draw_only_the_exact_curve_and_say_why(draft):
    tab = shown()
    m = tab.model
    m.draft = draft
    assert m.table.rows[0].closed_speedup is None
    assert dict(tab.curves.speed.sources["closed"].data)["x"] == []
    assert len(dict(tab.curves.speed.sources["exact"].data)["x"]) == core.MAX_WIDTH
    assert "α of the closed form" not in text(tab.curves.tiles.object)
    assert words.NO_CLOSED_FORM[draft] in text(tab.curves.reading.object)
    assert words.NO_CLOSED_FORM[draft] in text(tab.notes.gap_text.object)
    assert "closed form (paper)" not in text(tab.curves.keys.object)


def test_with_lookup_the_lookahead_curves_are_the_fixed_ones_and_the_note_says_why():
    tab = shown()
    m = tab.model
    m.draft = "lookup"
    m.lookahead = True
    assert [r.time_per_token for r in m.lookahead_table.rows] == [r.time_per_token for r in m.table.rows]
    assert "A lookup copy has q(x) = 1, never below the threshold" in text(tab.notes.lookahead_text.object)


@pytest.mark.parametrize("draft", ["lookup", "heads"])
def test_the_tab_follows_the_first_tab_to_lookup_and_heads_and_plots_its_trace(draft):
    main = Model()
    tab = PayoffTab(session_model=main)
    tab.activate()
    main.param.update(draft=draft, schedule="heuristic")
    main.act("run_to_end")
    m = tab.model
    assert m.draft == draft and m.table.rows[0].draft == draft
    blocks = main.session.blocks
    width, tokens, _ = m.trace_point()
    assert width == F(sum(b.width for b in blocks), len(blocks)), "a heuristic trace sits at its average width"
    assert tokens == main.session.counters.tokens_per_pass
    said = text(tab.curves.trace_text.object)
    assert f"{draft} draft, heuristic schedule from width 3" in said
    assert "averages" not in said, "core.passes has no figure for this scenario, so none is quoted"
