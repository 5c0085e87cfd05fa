"""The "Why it is exact" tab, driven without a browser.

As in Panel's "test a todo app" tutorial: build the models and views, set
widget values from Python, read what the page would show. Expected numbers
come from ``core`` itself (the tab must show core's numbers, not its own)
or are written out from the seed text: ``001_*.txt`` prints, for
p = [0.6, 0.3, 0.1] and q = [0.2, 0.5, 0.3],

    accepted mass: [0.2, 0.3, 0.1]
    rejection probability: 0.4
    final distribution: [0.6, 0.3, 0.1]
"""

import asyncio
import re
import subprocess
import sys
from collections import Counter
from fractions import Fraction as F

import panel as pn
import pytest
from bokeh.document import Document

import core
from core import display, exact, prng, sampler
from core.variants import VARIANTS

from app.exact import ExactTab
from app.exact.model import CHUNK, CalculatorModel, ExactModel
from app.exact.views import PRESETS, Calculator
from app.exact.words import LEVEL, draw_uses
from app.step.model import StepModel as Model


def text(html):
    """Visible text of an HTML fragment (tags dropped, entities decoded)."""
    plain = re.sub(r"<[^>]+>", " ", html)
    for entity, char in (("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&#x27;", "'"), ("&amp;", "&")):
        plain = plain.replace(entity, char)
    return re.sub(r"\s+", " ", plain).strip()


def active(**params):
    model = ExactModel(**params)
    model.activate()
    return model


def shown(**params):
    tab = ExactTab(**params)
    tab.activate()
    return tab


# ---- nothing before the tab is shown ----------------------------------------------------------

def test_building_the_tab_computes_nothing_and_follows_no_trace():
    main = Model()
    tab = ExactTab(session_model=main)
    m = tab.model
    main.param.update(draft="biased", seed=4)
    main.act("run_to_end")
    assert (m.active, m.comparison, m.trace, m.done, m.sampling) == (False, None, None, 0, False)
    assert tab.body is None
    tab.activate()
    assert m.comparison == exact.compare("biased", 3, 2, "exact")
    assert m.trace.config == main.session.config and m.done == m.runs


def test_a_dynamic_tab_is_computed_when_first_opened_and_only_then():
    main = Model()
    exact_tab = ExactTab(session_model=main)
    tabs = pn.Tabs(("first", pn.pane.HTML("first tab")), ("exact", exact_tab), dynamic=True)
    tabs.get_root(Document())
    assert not exact_tab.model.active and exact_tab.body is None
    tabs.active = 1
    assert exact_tab.model.active and exact_tab.body is not None
    assert exact_tab.model.done == exact_tab.model.runs


def test_importing_and_building_both_tabs_loads_no_bokeh_plotting():
    """The first tab does not pay for bokeh.plotting at start-up; the charts import it when shown."""
    probe = ("import sys; from app.exact import ExactTab; from app.payoff import PayoffTab; "
             "from app.step.model import StepModel as Model; m = Model(); ExactTab(session_model=m); PayoffTab(session_model=m); "
             "print('bokeh.plotting' in sys.modules); ExactTab().activate(); print('bokeh.plotting' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]


# ---- the one-position calculator (seed 001) ------------------------------------------------

def test_calculator_prints_the_three_lines_of_seed_001():
    m = CalculatorModel()
    assert (m.p_text, m.q_text) == ("0.6, 0.3, 0.1", "0.2, 0.5, 0.3")
    assert display.seed_lines(m.decomposition) == [
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
    table = text(view.table.object)
    for row in ("kept: min(p, q)", "residual", "corrections", "final"):
        assert row in table
    assert "final = p, exactly" in text(view.summary.object)
    assert "it can never be A" in text(view.summary.object)


@pytest.mark.parametrize("label, p, q, what", PRESETS)
def test_every_preset_gives_back_p(label, p, q, what):
    view = Calculator()
    view.presets[PRESETS.index((label, p, q, what))].clicks += 1
    d = view.model.decomposition
    assert (view.p_input.value, view.q_input.value) == (p, q)
    assert d is not None and d.final == d.p


def test_equal_p_and_q_reject_nothing_and_need_no_residual():
    view = Calculator()
    view.q_input.value = view.p_input.value = "0.5, 0.3, 0.2"
    assert view.model.decomposition.rejection == 0
    assert "Nothing is ever rejected" in text(view.summary.object)


def core_error(text):
    """What core says about text that is not a distribution (the tab shows core's message)."""
    with pytest.raises(ValueError) as error:
        core.parse_distribution(text)
    return str(error.value)


@pytest.mark.parametrize("bad", [
    "0.5, 0.6, abc", "0.5, 0.5", "-0.1, 0.6, 0.5", "0.5, 0.3, 0.1", "",
    "1e999999999, 0, 0",  # would freeze the page if parsed into a huge number
    "0." + "1" * 200,
])
def test_bad_input_gets_cores_message_beside_its_field_never_an_exception(bad):
    view = Calculator()
    view.p_input.value = bad
    message = core_error(bad)
    assert view.model.p_error == message
    assert view.model.decomposition is None
    assert text(view.p_message.object).lower().startswith("⚠ " + message[:40].lower())
    assert view.q_message.object.count("✓") == 1  # the other field is still fine
    assert "Fix the field" in text(view.summary.object)
    view.p_input.value = "0.6, 0.3, 0.1"
    assert view.model.p_error == "" and view.model.decomposition is not None


# ---- exactness: the model -------------------------------------------------------------------

def test_the_sample_is_the_chunks_merged_and_equals_one_sampler_call():
    m = active(runs=5_000, k=3)
    assert CHUNK < 5_000  # more than one chunk was merged
    assert not m.sampling and m.done == 5_000
    assert m.counts == sampler.sample_prefixes("biased", 3, 3, 5_000, base_seed=0, variant="exact")


def test_exact_rule_keeps_the_target_and_its_sample_passes_chi_square():
    tab = shown()
    m = tab.model
    c = exact.compare("biased", 3, 2, "exact")
    assert m.comparison.distance == c.distance == 0
    assert all(target == rule for _, target, rule, _, _ in m.rows())
    assert m.chi_target.p_value >= LEVEL
    reading = text(tab.result.reading.object)
    assert "keeps the target's distribution" in reading and "agree with the target" in reading


def test_naive_resample_with_the_biased_draft_is_caught_exactly_and_by_the_sample():
    tab = shown(model=ExactModel(variant="naive-resample", draft="biased", width=3, k=1, runs=20_000))
    m = tab.model
    c = exact.compare("biased", 3, 1, "naive-resample")
    assert m.comparison.distance == c.distance > 0
    words = text(tab.result.reading.object)
    # A is over-produced: the sentence names A and both of core's numbers for it.
    assert "starts the text with A with probability " + display.dec(c.result[("A",)]) in words
    assert "the target does so with probability " + display.dec(c.target[("A",)]) in words
    assert "too often" in words
    assert display.exact_or_dec(c.distance, 4) in words
    assert m.chi_target.p_value < LEVEL
    assert m.chi_rule.p_value >= LEVEL  # the runs follow the rule's own exact distribution
    assert "clearly differ from the target" in words


def test_naive_resample_looks_right_with_the_aligned_draft_and_the_text_says_why():
    tab = shown(model=ExactModel(variant="naive-resample", draft="aligned", runs=1_000))
    assert tab.model.comparison.distance == 0
    assert "Switch to the biased draft" in text(tab.result.reading.object)


def test_greedy_promises_equality_with_greedy_target_decoding_not_the_distribution():
    tab = shown(model=ExactModel(variant="greedy", k=3, runs=1_000))
    words = text(tab.result.reading.object)
    assert " ".join(exact.greedy_target(3)) in words
    assert "it holds" in words
    assert tab.model.counts == Counter({exact.greedy_target(3): 1_000})


def test_changing_a_setting_starts_a_fresh_sample_for_the_new_settings():
    m = active(runs=1_000, k=2)
    m.k = 3
    assert m.done == 1_000 and all(len(s) == 3 for s in m.counts)
    m.variant = "match-fresh"
    assert m.counts == sampler.sample_prefixes("biased", 3, 3, 1_000, variant="match-fresh")


def test_a_new_sample_uses_the_next_seeds():
    tab = shown(model=ExactModel(runs=1_000))
    first = tab.model.counts
    tab.result.again.clicks += 1
    assert tab.model.base_seed == 1_000
    assert "seeds 1,000 to 1,999" in text(tab.result.tiles.object)
    assert tab.model.counts == sampler.sample_prefixes("biased", 3, 2, 1_000, base_seed=1_000)
    assert tab.model.counts != first


def test_sampling_yields_to_the_event_loop_between_chunks_and_a_change_abandons_it():
    async def scenario():
        m = ExactModel(runs=20_000, k=2)
        m.activate()  # under a running loop: scheduled, not run
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
    tab = shown()
    tab.controls.runs.value = 1_000
    assert text(tab.result.tiles.object).startswith("0 ")
    tab.controls.variant.value = "naive-resample"
    distance = exact.compare("biased", 3, 2, "naive-resample").distance
    assert display.exact_or_dec(distance, 4) in text(tab.result.tiles.object)
    assert "naive-resample" in text(tab.result.reading.object)
    assert VARIANTS["naive-resample"].summary in text(tab.controls.rule_text.object)


def test_widgets_are_the_models_parameters_both_ways():
    tab = shown(model=ExactModel(runs=1_000))
    c, m = tab.controls, tab.model
    c.width.value = 5
    c.draft.value = "aligned"
    assert (m.width, m.draft) == (5, "aligned")
    m.param.update(k=1, runs=5_000)
    assert (c.k.value, c.runs.value) == (1, 5_000)
    assert c.draft.labels == ["Aligned", "Biased", "Lookup", "Heads", "Custom"] and c.runs.labels[0] == "1,000"


def test_chart_rows_are_core_numbers_and_long_lists_are_cut_until_asked():
    tab = shown()
    tab.controls.runs.value = 1_000
    tab.controls.k.value = 4
    chart = tab.result.chart
    data = chart.source.data
    assert tab.result.show_all_toggle.visible and len(data["y"]) == 12
    c = tab.model.comparison
    for y, target, rule in zip(data["y"], data["target"], data["result"]):
        prefix = tuple(y.split())
        assert (target, rule) == (float(c.target[prefix]), float(c.result.get(prefix, 0)))
    tab.result.show_all_toggle.value = True
    assert len(chart.source.data["y"]) == 81
    assert list(reversed(chart.fig.y_range.factors)) == chart.source.data["y"]


def test_the_chart_is_refilled_never_rebuilt():
    tab = shown(model=ExactModel(runs=1_000))
    fig, source = tab.result.chart.fig, tab.result.chart.source
    tab.controls.variant.value = "naive-resample"
    tab.controls.k.value = 3
    assert tab.result.chart.fig is fig and tab.result.chart.source is source
    assert len(source.data["y"]) == 12


def test_progress_reports_the_finished_sample():
    tab = shown()
    assert tab.result.progress.value == tab.result.progress.max == 100  # percent
    assert "Sampled 20,000 runs" in text(tab.result.status.object)


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
    m.activate()
    assert m.trace.output[:3] == m.ordinary()[:3]


def test_the_trace_follows_the_main_view_and_is_shown_beside_ordinary_decoding():
    main = Model()
    tab = ExactTab(session_model=main)
    tab.model.runs = 1_000
    tab.activate()
    main.param.update(draft="biased", seed=1)
    assert tab.model.trace.config.seed == 1 and tab.model.trace.config.draft == "biased"
    shown_text = text(tab.trace.html.object)
    assert "seed 1, biased draft" in shown_text
    assert " ".join(sampler.ordinary_output(1)) in shown_text
    assert " ".join(core.simulate("biased", main.width, 1).output) in shown_text
    assert not tab.trace.seed.visible  # the seed is set on the first tab


def test_biased_width_3_seed_2_agrees_again_so_the_outputs_do_not_part_for_good():
    """Issue 11: the outputs differ at token 2 but agree again at positions 4 and 5."""
    main = Model()
    tab = ExactTab(session_model=main)
    tab.model.runs = 1_000
    tab.activate()
    main.param.update(draft="biased", width=3, seed=2)
    words = text(tab.trace.html.object)
    assert "for good" not in words
    assert "positions 4–5 match again" in words


def test_a_new_sample_changes_only_what_depends_on_the_sample():
    """A pane whose text did not change is not sent again: a new sample touches no rule or trace text."""
    main = Model()
    tab = ExactTab(session_model=main)
    tab.model.runs = 1_000
    doc = Document()
    doc.add_root(pn.panel(tab).get_root(doc))
    changed = []
    doc.on_change(lambda event: changed.append(getattr(event, "model", None)))
    tab.result.again.clicks += 1
    models = {id(m) for m in changed}
    untouched = (tab.controls.rule_text, tab.trace.html, tab.calculator.table, tab.calculator.summary)
    for pane in untouched:
        assert not any(id(model) in models for model, _ in pane._models.values())
    touched = {id(model) for model, _ in tab.result.tiles._models.values()}
    assert touched & models  # the tiles did change: the seeds and the counts are new
    assert id(tab.result.chart.source) in models


# ---- temperature and top-k, and where they are applied (issue 12) ---------------------------------------

from core.transform import Transform  # noqa: E402
from app.exact import words as exact_words  # noqa: E402


def test_the_transform_controls_are_the_models_parameters_and_reach_core():
    tab = shown()
    c, m = tab.controls, tab.model
    assert list(c.temperature.options.values()) == ["1", "1/2", "1/3", "1/4"]
    assert list(c.top_k.options.values()) == ["off", "1", "2", "3"]
    assert list(c.transform_at.options.values()) == list(core.TRANSFORM_AT)
    m.runs = 1_000
    c.temperature.value = "1/3"
    c.top_k.value = "2"
    c.transform_at.value = "target"
    tr = Transform(F(1, 3), 2, "target")
    assert m.transform == tr
    assert m.comparison == exact.compare(m.draft, m.width, m.k, m.variant, transform=tr)
    assert m.comparison.distance == 0
    expected = sampler.sample_prefixes(m.draft, m.width, m.k, 1_000, temperature=F(1, 3), top_k=2,
                                       transform_at="target")
    assert m.counts == expected, "the sampled histogram is core's sampler with the same transformation"


@pytest.mark.parametrize("draft", core.ALL_DRAFTS)
def test_draft_only_gives_the_exact_distance_to_the_transformed_target_and_says_what_went_wrong(draft):
    tab = shown(model=ExactModel(draft=draft, width=1, k=1, runs=1_000))
    m = tab.model
    m.param.update(temperature="1/2", transform_at="draft")
    tr = Transform(F(1, 2), None, "draft")
    c = m.comparison
    assert c.distance == exact.total_variation(c.result, exact.target_distribution(1, tr)) > 0
    assert m.raw_distance == 0, "the output follows the untransformed target"
    said = text(tab.result.reading.object)
    sentence = exact_words.transform_reading(c, m.raw_distance, True)
    assert sentence.startswith("What went wrong: temperature 1/2 was applied to the draft only")
    assert "the output follows the untransformed target exactly" in sentence
    assert f"distance {display.exact_or_dec(c.distance, 4)}" in sentence
    assert sentence in said
    assert "target with temperature 1/2" in text(tab.result.keys.object)


def test_the_issues_number_biased_width_1_one_token_t_half_draft_only_is_3_19():
    m = active(draft="biased", width=1, k=1, runs=1_000, temperature="1/2", transform_at="draft")
    assert m.comparison.distance == F(3, 19)


@pytest.mark.parametrize("at", ["both", "target"])
def test_applied_where_verification_sees_it_the_distance_is_0_and_no_sentence_says_wrong(at):
    for draft in core.ALL_DRAFTS:
        m = active(draft=draft, width=2, k=2, runs=1_000, temperature="1/4", top_k="2", transform_at=at)
        assert m.comparison.distance == 0
        sentence = exact_words.transform_reading(m.comparison, m.raw_distance, True)
        assert "went wrong" not in sentence and "distance 0" in sentence
        assert ("only the speed changes" in sentence) == (at == "target")


def test_without_a_transformation_nothing_is_said_about_one():
    m = active(runs=1_000)
    assert m.raw_distance is None
    assert exact_words.transform_reading(m.comparison, m.raw_distance, True) == ""


def test_every_transformation_and_place_the_sentence_claims_only_what_core_says():
    for t in ("1", "1/2", "1/3", "1/4"):
        for k in (None, 1, 2, 3):
            tr = Transform(F(t), k, "draft")
            if tr.identity:
                continue
            c = exact.compare("biased", 2, 2, transform=tr)
            raw = exact.total_variation(c.result, exact.target_distribution(2))
            sentence = exact_words.transform_reading(c, raw, True)
            assert sentence.startswith("What went wrong") == (c.distance > 0)
            assert ("follows the untransformed target exactly" in sentence) == (c.distance > 0 and raw == 0)


def test_a_lookup_trace_with_ordinary_steps_is_compared_with_ordinary_decoding():
    main = Model()
    tab = ExactTab(session_model=main)
    tab.activate()
    main.param.update(draft="lookup", seed=1, schedule="heuristic")
    m = tab.model
    assert m.trace.config == main.session.config
    uses = draw_uses(m.trace)
    assert len(uses) == len(m.trace.trace().draws())
    ordinary = [what for _, what, _ in uses if what.startswith("ordinary step from p")]
    assert len(ordinary) == m.trace.counters.ordinary_steps > 0
    assert "ordinary step from p (nothing to copy)" in text(tab.trace.html.object)
