"""The "Why it is exact" and "When it pays off" tabs, driven without a browser.

As in Panel's "test a todo app" tutorial: build the models and views, set
widget values from Python, read what the page would show. Expected numbers
come from ``core`` itself (the tabs must show core's numbers, not their own)
or are written out from the seed text: ``001_*.txt`` prints, for
p = [0.6, 0.3, 0.1] and q = [0.2, 0.5, 0.3],

    accepted mass: [0.2, 0.3, 0.1]
    rejection probability: 0.4
    final distribution: [0.6, 0.3, 0.1]
"""

import asyncio
import re
from collections import Counter
from fractions import Fraction as F

import param
import pytest

import core
import toy_tables
from core import display, exact, payoff, prng, sampler
from core.variants import VARIANTS

from app.calculator import PRESETS, Calculator, CalculatorModel
from app.exact_tab import CHUNK, LEVEL, ExactModel, ExactTab, draw_uses
from app.model import Model
from app.payoff_tab import PayoffModel, PayoffTab, fraction


def text(html):
    """Visible text of an HTML fragment (tags dropped, entities decoded)."""
    plain = re.sub(r"<[^>]+>", " ", html)
    for entity, char in (("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&#x27;", "'"), ("&amp;", "&")):
        plain = plain.replace(entity, char)
    return re.sub(r"\s+", " ", plain).strip()


def release(slider, value):
    """What a browser does when a slider is let go at ``value``."""
    with param.edit_constant(slider):
        slider.param.update(value=value, value_throttled=value)


# ---- the one-position calculator (seed 001) ------------------------------------------------

def test_calculator_prints_the_three_lines_of_seed_001():
    m = CalculatorModel()
    assert (m.p_text, m.q_text) == ("0.6, 0.3, 0.1", "0.2, 0.5, 0.3")
    assert m.seed_lines() == [
        "accepted mass: [0.2, 0.3, 0.1]",
        "rejection probability: 0.4",
        "final distribution: [0.6, 0.3, 0.1]",
    ]
    view = Calculator(model=m)
    assert "rejection probability: 0.4" in text(view.lines.object)


def test_calculator_shows_every_part_of_the_decomposition_exactly():
    view = Calculator()
    view.p_input.value = "1/2, 3/10, 1/5"
    view.q_input.value = "4/5, 3/20, 1/20"
    d = view.model.decomposition
    assert d.residual == (0, F(1, 2), F(1, 2))  # the seed's residual [0, 0.50, 0.50]
    assert d.final == d.p
    shown = text(view.table.object)
    for row in ("kept: min(p, q)", "residual", "corrections", "final"):
        assert row in shown
    assert "final = p, exactly" in text(view.summary.object)
    assert "it can never be A" in text(view.summary.object)


@pytest.mark.parametrize("label, p, q, what", PRESETS)
def test_every_preset_gives_back_p(label, p, q, what):
    m = CalculatorModel()
    m.load(PRESETS.index((label, p, q, what)))
    assert m.decomposition is not None and m.decomposition.final == m.decomposition.p


def test_equal_p_and_q_reject_nothing_and_need_no_residual():
    view = Calculator()
    view.q_input.value = view.p_input.value = "0.5, 0.3, 0.2"
    assert view.model.decomposition.rejection == 0
    assert "Nothing is ever rejected" in text(view.summary.object)


@pytest.mark.parametrize("bad, says", [
    ("0.5, 0.6, abc", "is not a number"),
    ("0.5, 0.5", "give 3 numbers"),
    ("-0.1, 0.6, 0.5", "negative"),
    ("0.5, 0.3, 0.1", "not exactly 1"),
    ("", "give 3 numbers"),
    ("1e999999999, 0, 0", "uses an exponent"),  # would otherwise freeze the page building a huge number
    ("0." + "1" * 200, "too long"),
])
def test_bad_input_gets_a_message_beside_its_field_never_an_exception(bad, says):
    view = Calculator()
    view.p_input.value = bad
    assert says in view.model.p_error.lower()
    assert view.model.decomposition is None
    assert says in text(view.p_message.object).lower()
    assert view.q_message.object.count("✓") == 1  # the other field is still fine
    assert "Fix the field" in text(view.summary.object)
    view.p_input.value = "0.6, 0.3, 0.1"
    assert view.model.p_error == "" and view.model.decomposition is not None


# ---- exactness: the model -------------------------------------------------------------------

def test_the_sample_is_the_chunks_merged_and_equals_one_sampler_call():
    m = ExactModel(runs=5_000, k=3)
    assert CHUNK < 5_000  # more than one chunk was merged
    assert not m.sampling and m.done == 5_000
    assert m.counts == sampler.sample_prefixes("biased", 3, 3, 5_000, base_seed=0, variant="exact")


def test_exact_rule_keeps_the_target_and_its_sample_passes_chi_square():
    m = ExactModel(variant="exact", draft="biased", width=3, k=2, runs=20_000)
    c = exact.compare("biased", 3, 2, "exact")
    assert m.comparison.distance == c.distance == 0
    assert all(target == rule for _, target, rule, _, _ in m.rows())
    assert m.chi_target.p_value >= LEVEL
    assert "keeps the target's distribution" in " ".join(m.reading())
    assert "agree with the target" in m.sample_reading()


def test_naive_resample_with_the_biased_draft_is_caught_exactly_and_by_the_sample():
    m = ExactModel(variant="naive-resample", draft="biased", width=3, k=1, runs=20_000)
    c = exact.compare("biased", 3, 1, "naive-resample")
    assert m.comparison.distance == c.distance > 0
    words = " ".join(m.reading())
    # A is over-produced: the sentence names A and both of core's numbers for it.
    assert "starts the text with A with probability " + display.dec(c.result[("A",)]) in words
    assert "the target does so with probability " + display.dec(c.target[("A",)]) in words
    assert "too often" in words
    assert display.exact_or_dec(c.distance, 4) in words
    assert m.chi_target.p_value < LEVEL
    assert m.chi_rule.p_value >= LEVEL  # the runs follow the rule's own exact distribution
    assert "clearly differ from the target" in m.sample_reading()


def test_naive_resample_looks_right_with_the_aligned_draft_and_the_text_says_why():
    m = ExactModel(variant="naive-resample", draft="aligned", runs=1_000)
    assert m.comparison.distance == 0
    assert "Switch to the biased draft" in " ".join(m.reading())


def test_greedy_promises_equality_with_greedy_target_decoding_not_the_distribution():
    m = ExactModel(variant="greedy", k=3, runs=1_000)
    words = " ".join(m.reading())
    assert " ".join(exact.greedy_target(3)) in words
    assert "it holds" in words
    assert m.counts == Counter({exact.greedy_target(3): 1_000})


def test_changing_a_setting_starts_a_fresh_sample_for_the_new_settings():
    m = ExactModel(runs=1_000, k=2)
    m.k = 3
    assert m.done == 1_000 and all(len(s) == 3 for s in m.counts)
    m.variant = "match-fresh"
    assert m.counts == sampler.sample_prefixes("biased", 3, 3, 1_000, variant="match-fresh")


def test_a_new_sample_uses_the_next_seeds():
    m = ExactModel(runs=1_000)
    first = m.counts
    m.new_sample()
    assert m.base_seed == 1_000 and m.seeds_text() == "seeds 1,000 to 1,999"
    assert m.counts == sampler.sample_prefixes("biased", 3, 2, 1_000, base_seed=1_000)
    assert m.counts != first


def test_sampling_yields_to_the_event_loop_between_chunks_and_a_change_abandons_it():
    async def scenario():
        m = ExactModel(runs=20_000, k=2)  # built (and sampled) before the loop drives it
        m.start_sampling()  # now under a running loop: scheduled, not run
        await asyncio.sleep(0)
        seen = []
        while m.sampling:
            seen.append(m.done)
            await asyncio.sleep(0.001)
        assert seen[0] < 20_000 and len(set(seen)) > 1  # progress was visible in between
        m.start_sampling()
        await asyncio.sleep(0.001)
        m.k = 1  # mid-sample change: the old coroutine must stop, the new one finish
        while m.sampling:
            await asyncio.sleep(0.001)
        return m

    m = asyncio.run(scenario())
    assert m.done == 20_000
    assert m.counts == sampler.sample_prefixes("biased", 3, 1, 20_000)


# ---- exactness: the view --------------------------------------------------------------------

def test_switching_the_rule_in_the_view_changes_the_distance_shown():
    tab = ExactTab()
    tab.runs.value = 1_000
    assert text(tab.tiles.object).startswith("0 ")
    tab.variant.value = "naive-resample"
    distance = exact.compare("biased", 3, 2, "naive-resample").distance
    assert display.exact_or_dec(distance, 4) in text(tab.tiles.object)
    assert "naive-resample" in text(tab.reading.object)
    assert VARIANTS["naive-resample"].summary in text(tab.rule_text.object)


def test_chart_rows_are_core_numbers_and_long_lists_are_cut_until_asked():
    tab = ExactTab()
    tab.runs.value = 1_000
    tab.k.value = 4
    data = tab.chart.source.data
    assert tab.show_all.visible and len(data["y"]) == 12
    c = tab.model.comparison
    for y, target, rule in zip(data["y"], data["target"], data["result"]):
        prefix = tuple(y.split())
        assert (target, rule) == (float(c.target[prefix]), float(c.result.get(prefix, 0)))
    tab.show_all.value = True
    assert len(tab.chart.source.data["y"]) == 81
    assert list(reversed(tab.chart.fig.y_range.factors)) == tab.chart.source.data["y"]


def test_progress_reports_the_finished_sample():
    tab = ExactTab()
    assert tab.progress.value == tab.progress.max == 20_000
    assert "Sampled 20,000 runs" in text(tab.status.object)


# ---- same distribution, different trace ----------------------------------------------------

@pytest.mark.parametrize("draft, width, seed", [("biased", 3, 0), ("biased", 2, 5), ("aligned", 4, 7)])
def test_draw_uses_list_the_prng_stream_in_the_engine_order(draft, width, seed):
    session = core.Session.start(core.Config(draft, width, seed)).run_to_end()
    uses = draw_uses(session)
    rng = prng.seed(seed)
    for u, _, _ in uses:
        rng, k = prng.step(rng)
        assert u == prng.as_u(k)
    c = session.counters
    assert len(uses) == c.proposed + c.accepted + c.rejected + c.corrections + c.bonus


@pytest.mark.parametrize("seed", range(12))
def test_with_the_aligned_draft_the_first_block_copies_ordinary_decoding(seed):
    """The aligned draft draws its proposals from p with the same first draws as ordinary decoding."""
    m = ExactModel(draft="aligned", width=3, seed=seed, runs=1_000)
    assert m.shared_start() >= 3
    assert m.trace.output[:3] == m.ordinary()[:3]


def test_the_trace_follows_the_main_view_and_is_shown_beside_ordinary_decoding():
    main = Model()
    tab = ExactTab(session_model=main)
    tab.model.runs = 1_000
    main.param.update(draft="biased", seed=1)
    assert tab.model.trace.config.seed == 1 and tab.model.trace.config.draft == "biased"
    shown = text(tab.trace_html.object)
    assert "seed 1, biased draft" in shown
    assert " ".join(sampler.ordinary_output(1)) in shown
    assert " ".join(core.simulate("biased", main.width, 1).output) in shown
    assert not tab.seed.visible  # the seed is set on the first tab


# ---- when it pays off -----------------------------------------------------------------------

def test_the_slider_value_is_read_as_the_exact_number_it_shows():
    assert fraction(0.07) == F(7, 100)
    assert fraction(0.1 + 0.2) == F(3, 10)
    m = PayoffModel(cost=0.07)
    assert m.table.rows[0].cost == F(7, 100)


def test_moving_c_moves_the_marked_best_width():
    tab = PayoffTab()
    tab.draft.value = "biased"
    marks = {}
    for cost in (0.0, 0.05, 0.2, 0.5):
        release(tab.cost, cost)
        best = payoff.payoff_table("biased", fraction(cost)).best_width
        assert tab.speed.best.data["x"] == [best]
        assert f"width {best} is best" in text(tab.reading.object)
        marks[cost] = best
    assert len(set(marks.values())) > 1


def test_curves_are_core_numbers_exact_and_closed_form():
    m = PayoffModel(draft="biased", cost=0.2)
    tab = PayoffTab(model=m)
    rows = payoff.payoff_table("biased", F(1, 5)).rows
    assert tab.speed.sources["exact"].data["y"] == [float(r.speedup) for r in rows]
    assert tab.speed.sources["closed"].data["y"] == [float(r.closed_speedup) for r in rows]
    assert tab.passes.sources["exact"].data["y"] == [float(r.tokens_per_pass) for r in rows]
    assert tab.speed.sources["lookahead"].data["y"] == []


def test_no_width_pays_off_when_drafting_is_as_slow_as_the_target():
    m = PayoffModel(draft="biased", cost=1.0)
    assert all(r.speedup < 1 for r in m.table.rows)
    assert "no width pays off" in m.reading()


def test_the_trace_on_the_first_tab_is_a_point_from_its_counters():
    main = Model()
    tab = PayoffTab(session_model=main)
    assert tab.speed.trace.data["x"] == [] and "Run at least one block" in text(tab.trace_text.object)
    main.draft = "biased"
    assert tab.model.draft == "biased"  # the tab follows the first tab's draft
    main.act("run_to_end")
    counters = main.session.counters
    assert tab.passes.trace.data == {"x": [main.width], "y": [float(counters.tokens_per_pass)],
                                     "text": [f"your trace: {display.dec(counters.tokens_per_pass)} tokens per pass"]}
    assert tab.speed.trace.data["y"] == [float(payoff.trace_speedup(counters, tab.model.c))]
    assert f"{counters.target_passes} target passes" in text(tab.trace_text.object)


def test_lookahead_adds_its_curve_and_its_lesson():
    tab = PayoffTab()
    tab.draft.value = "biased"
    assert tab.model.lookahead_words() == ""
    tab.lookahead.value = True
    rows = payoff.payoff_table("biased", fraction(tab.model.cost), fraction(tab.model.threshold)).rows
    assert tab.speed.sources["lookahead"].data["y"] == [float(r.speedup) for r in rows]
    assert "stops exactly where the target agrees" in text(tab.lookahead_text.object)


def test_the_biased_draft_is_least_sure_exactly_where_the_target_always_accepts():
    """The claim in the lookahead note, checked on the tables: every proposal the draft is unsure of
    (q(x) below the default threshold) is accepted with probability 1, and its most confident
    proposal, A, is the only one ever rejected."""
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
    m = PayoffModel(draft="aligned", cost=0.1, lookahead=True)
    for fixed, dynamic in zip(m.table.rows, m.lookahead_table.rows):
        assert dynamic.speedup <= fixed.speedup
    assert "never rejected" in m.lookahead_words()


@pytest.mark.parametrize("cost", [0.05, 0.2, 0.5])
def test_with_the_biased_draft_lookahead_never_beats_the_best_fixed_width(cost):
    """What the note says ("stopping on low confidence backfires"), for every threshold on the slider."""
    m = PayoffModel(draft="biased", cost=cost)
    best_fixed = m.best("exact").speedup
    for step in range(1, 20):
        m.param.update(lookahead=True, threshold=step / 20)
        assert m.best("lookahead").speedup <= best_fixed, m.threshold


def test_a_trace_with_dynamic_lookahead_is_compared_with_its_own_expectation():
    main = Model()
    tab = PayoffTab(session_model=main)
    threshold = main.param.lookahead.objects[-1]
    main.param.update(draft="biased", lookahead=threshold)
    main.act("run_to_end")
    cfg = main.session.config
    assert cfg.lookahead is not None
    expect = payoff.trace_expectation(cfg.draft, cfg.width, cfg.max_tokens, cfg.lookahead)
    shown = text(tab.trace_text.object)
    assert f"expect {display.dec(expect.tokens_per_pass)} tokens per pass" in shown
    assert "Your trace used dynamic lookahead" in shown
    tab.lookahead.value = True
    release(tab.threshold, float(cfg.lookahead))
    assert "Your trace used dynamic lookahead" not in text(tab.trace_text.object)


def test_moving_the_threshold_switches_the_lookahead_curves_on():
    tab = PayoffTab()
    assert not tab.model.lookahead
    release(tab.threshold, 0.5)
    assert tab.model.lookahead and tab.model.t == F(1, 2)
    assert tab.lookahead.value
    assert "With threshold 0.50" in text(tab.lookahead_text.object)
