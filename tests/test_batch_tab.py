"""Where the speedup disappears (issue 28, item 4): the batch part of "When it pays off", without a browser.

b requests verified together, the target compute-bound past s positions per pass, a pass over
w + 1 positions each costing max(1, b·(w + 1)/s) (``core.batch``). Sliders are "released" the
way a browser does it; every number on screen is checked against core's, and each sentence's
claim against core's rows over a sweep of b, s and c.
"""

import re
from fractions import Fraction as F

import pytest
import param

import core
from core import batch, display, payoff

from app import i18n
from app.payoff import PayoffTab, words
from app.payoff.model import MAX_BATCH, MAX_SATURATION, PayoffModel, fraction


def text(html):
    plain = re.sub(r"<[^>]+>", " ", html)
    for entity, char in (("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&#x27;", "'"), ("&amp;", "&")):
        plain = plain.replace(entity, char)
    return re.sub(r"\s+", " ", plain).strip()


def release(slider, value):
    with param.edit_constant(slider):
        slider.param.update(value=value, value_throttled=value)


def shown(**params):
    tab = PayoffTab(**params)
    tab.activate()
    return tab


def test_nothing_is_computed_before_the_tab_is_shown():
    tab = PayoffTab()
    assert tab.model.batch_table is None
    tab.activate()
    assert tab.model.batch_table == batch.batch_table("biased", F(1, 10), 1, 16)


@pytest.mark.parametrize("draft", ["aligned", "biased", "heads"])
@pytest.mark.parametrize("s", [9, 16, MAX_SATURATION])
def test_by_default_one_request_reproduces_todays_curve_exactly(draft, s):
    tab = shown(model=PayoffModel(draft=draft, saturation=s))
    assert tab.model.batch == 1
    one = payoff.payoff_table(draft, F(1, 10)).rows
    assert [r.speedup for r in tab.model.batch_table.rows] == [r.speedup for r in one]
    chart = tab.batch.chart.sources
    assert chart["exact"].data["y"] == chart["closed"].data["y"] == tab.curves.speed.sources["exact"].data["y"]
    assert "so the curve is the one above, exactly" in text(tab.batch.reading.object)


def test_moving_b_moves_the_curve_and_the_best_width_to_cores():
    tab = shown()
    seen = set()
    for b in (1, 4, 8, 16):
        release(tab.batch.batch, b)
        t = batch.batch_table("biased", F(1, 10), b, 16)
        assert tab.model.batch_table == t
        assert tab.batch.chart.sources["exact"].data["y"] == [float(r.speedup) for r in t.rows]
        assert tab.batch.chart.best.data["x"] == [t.best_width]
        shown_text = text(tab.batch.reading.object)
        assert f"width {t.best_width} is best" in shown_text or f"even the best, width {t.best_width}" in shown_text
        assert words.times(t.best.speedup) in shown_text
        seen.add(t.best_width)
    assert seen == {3, 1}  # core: the best width shrinks from 3 to 1 as the batch fills


def test_moving_s_and_c_recomputes_the_batch_with_cores_numbers():
    tab = shown()
    release(tab.batch.batch, 8)
    release(tab.batch.saturation, 64)
    release(tab.controls.cost, 0.2)
    t = batch.batch_table("biased", fraction(0.2), 8, 64)
    assert tab.model.batch_table == t
    tiles = text(tab.batch.tiles.object)
    assert display.dec(t.best.throughput) in tiles and display.dec(t.best.capacity) in tiles
    numbers = text(tab.batch.numbers.object)
    for r in t.rows:
        assert f"{r.width} {display.dec(r.target_pass_time)} {words.times(r.speedup)} {display.dec(r.throughput)}" \
               f" {display.dec(r.capacity)}" in numbers


def test_dragging_b_changes_nothing_until_it_is_released():
    tab = shown()
    tab.batch.batch.value = 8
    assert tab.model.batch == 1
    release(tab.batch.batch, 8)
    assert tab.model.batch == 8


def test_a_request_gets_faster_while_a_loaded_machine_serves_fewer():
    tab = shown(model=PayoffModel(draft="biased", batch=4, saturation=16))
    best = tab.model.batch_table.best
    assert best.memory_bound and best.speedup > 1 and best.capacity < best.ordinary_capacity
    said = text(tab.batch.reading.object)
    assert "each request gets faster, while a fully loaded machine would serve fewer tokens" in said
    assert f"at most {display.dec(best.capacity)} tokens per pass's time, ordinary decoding 16.00" in said


def test_in_a_compute_bound_batch_no_width_pays():
    tab = shown(model=PayoffModel(draft="biased", batch=16, saturation=16))
    said = text(tab.batch.reading.object)
    assert not tab.model.batch_table.pays_off
    assert "no width pays off" in said and "gets faster" not in said
    assert "Even width 1 checks more than s positions" in said


def test_the_lookup_draft_is_refused_in_one_sentence():
    tab = shown(model=PayoffModel(draft="lookup"))
    assert "lookup" not in batch.BATCH_DRAFTS
    assert tab.model.batch_table is None and not tab.batch.chart_box.visible
    said = text(tab.batch.reading.object)
    assert said.count(".") == 2 and "left out" in said  # the refusal and what to do instead
    tab.controls.draft.value = "biased"
    assert tab.model.batch_table is not None and tab.batch.chart_box.visible


def test_the_model_is_labelled_as_a_toy_and_says_real_systems_differ():
    tab = shown()
    assert "A toy cost model, not a measurement" in text(tab.batch.lead.object)
    assert "max(1, b·(w + 1)/s)" in text(tab.batch.lead.object)
    assert "Real kernels, caches and schedulers differ" in text(tab.batch._layout.objects[-1].object)


def test_the_sliders_stay_inside_what_core_accepts():
    assert MAX_BATCH <= batch.MAX_BATCH and MAX_SATURATION <= batch.MAX_SATURATION


@pytest.mark.parametrize("draft", ["aligned", "biased", "heads"])
@pytest.mark.parametrize("cost", [F(0), F(1, 10), F(1, 2)])
def test_each_sentence_is_true_of_cores_rows(draft, cost):
    one = payoff.payoff_table(draft, cost)
    for b in (1, 2, 3, 4, 8, 16, 32, 64):
        for s in (1, 4, 9, 16, 64, 128):
            t = batch.batch_table(draft, cost, b, s)
            reading, served = words.batch_reading(t, draft, cost, one), words.batch_throughput(t)
            bound = [r for r in t.rows if r.memory_bound]
            assert ("no width pays off" in reading) == (t.best.speedup <= 1)
            assert ("the curve is the one above, exactly" in reading) == (
                len(bound) == len(t.rows) and all(r.speedup == o.speedup for r, o in zip(t.rows, one.rows)))
            assert ("Even width 1" in reading) == (not bound)
            if 0 < len(bound) < len(t.rows):
                first = next(r for r in t.rows if not r.memory_bound)
                assert f"From width {first.width} on" in reading
                assert all(not r.memory_bound for r in t.rows if r.width >= first.width)
            assert ("serve fewer" in served) == (t.best.capacity < t.best.ordinary_capacity and t.best.speedup > 1)
            assert ("its ceiling is ordinary decoding's" in served) == (t.best.capacity == t.best.ordinary_capacity)


def test_the_batch_part_reads_in_chinese():
    with i18n.use("zh"):
        tab = shown(model=PayoffModel(draft="biased", batch=8, saturation=16))
        said = text(tab.batch.reading.object) + text(tab.batch.lead.object)
        assert "玩具成本模型" in said and "宽度 1 最好" in said
        assert "requests" not in said and "width" not in said


def test_moving_b_resends_the_batch_part_only():
    import panel as pn
    from bokeh.document import Document

    tab = PayoffTab()
    doc = Document()
    doc.add_root(pn.panel(tab).get_root(doc))
    assert tab.model.batch_table is not None
    changed = []
    doc.on_change(lambda event: changed.append(id(getattr(event, "model", None))))
    release(tab.batch.batch, 4)
    assert id(tab.batch.chart.sources["exact"]) in changed
    assert id(tab.batch.chart.sources["closed"]) not in changed  # the one-request curve does not depend on b
    assert id(tab.curves.speed.sources["exact"]) not in changed
    for pane in (tab.curves.reading, tab.notes.gap_text, tab.curves.tiles):
        assert not any(id(model) in changed for model, _ in pane._models.values())
