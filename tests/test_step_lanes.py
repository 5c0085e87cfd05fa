"""Issue 26 item 3: the step tab's two lanes on one clock (app/step/lanes.py).

At every moment of many traces (every draft, widths 1 to 8, both schedules,
lookahead on and off), the lanes' numbers are ``core.ordinary.lanes``' points
and equal the work counters' (target passes used here, target passes ordinary
decoding would need, tokens committed); the ordinary lane's letters are
ordinary decoding's own; the drawing has one column per pass; a click sends
one text only when the lanes changed.
"""

import re
from fractions import Fraction as F

import pytest

import core
from core.ordinary import OrdinaryTrace, lanes
from core.timeline import Timeline

from app.i18n import use as use_language
from app.step import lanes as lane_view
from app.step.model import StepModel
from app.step.views import StepView

SCENARIOS = [
    core.Config(draft=draft, width=width, seed=seed, lookahead=lookahead, schedule=schedule)
    for draft in core.ALL_DRAFTS
    for width in range(1, core.MAX_WIDTH + 1)
    for seed in (0, 1, 7)
    for lookahead, schedule in ((None, "fixed"), (None, "heuristic"), (F(1, 2), "fixed"))
]


def test_the_scenarios_cover_every_draft_width_and_schedule():
    assert len(SCENARIOS) >= 200
    assert {c.draft for c in SCENARIOS} == set(core.ALL_DRAFTS)


@pytest.mark.parametrize("config", SCENARIOS, ids=str)
def test_at_every_moment_the_lanes_numbers_are_the_counters_numbers(config):
    timeline = Timeline.of(config)
    whole = lanes(timeline)
    plain = OrdinaryTrace.of(config).output
    for session in timeline.sessions:
        lane = lane_view.state(session)
        c = session.counters
        assert lane.passes == c.target_passes  # a verified block's pass counts from its Commit, as the counters say
        assert lane.tokens == c.committed == len(session.output)
        assert lane.ordinary_passes == c.ordinary_passes
        assert lane.ordinary_tokens == c.committed
        assert lane.speculative == whole.speculative[1:c.target_passes + 1]
        assert lane.ordinary == whole.ordinary[1:c.committed + 1]
        assert lane.gained == tuple(b.committed for b in session.blocks)
        assert lane.plain == plain[:c.committed]
        assert lane.pending == (session.pending is not None and session.pending.verified)
        assert lane.limit == config.max_tokens


def cells(text, kind):
    return len(re.findall(rf'class="cell {kind}"', text))


@pytest.mark.parametrize("config", SCENARIOS[::7], ids=str)
def test_the_drawing_has_one_column_per_pass_in_each_lane_and_the_clock_at_the_passes_made(config):
    for session in Timeline.of(config).sessions:
        lane = lane_view.state(session)
        text = lane_view.lanes_html(lane)
        n = config.max_tokens
        assert cells(text, "spec") == lane.passes and cells(text, "plain") == lane.tokens
        assert cells(text, "pending") == int(lane.pending)
        assert cells(text, "spec") + cells(text, "plain") + cells(text, "pending") + cells(text, "empty") == 2 * n
        assert text.count('<div class="tick') == n
        assert ('grid-column: 2 / span' in text) == (lane.passes > 0)
        if lane.passes:
            assert f"grid-column: 2 / span {lane.passes}\"" in text
            assert f'<div class="tick now">{lane.passes}</div>' in text
        gains = [int(x) for x in re.findall(r'class="gain">\+(\d+)<', text)]
        assert gains == [len(b.committed) for b in session.blocks]


def test_aligned_width_3_seed_0_reaches_8_tokens_in_2_passes_against_8():
    end = Timeline.of(core.Config("aligned", 3, 0)).sessions[-1]
    lane = lane_view.state(end)
    assert (lane.passes, lane.tokens, lane.ordinary_passes) == (2, 8, 8)
    text = lane_view.lanes_html(lane)
    assert "Speculative: 8 tokens in 2 target passes; ordinary: 8 tokens in 8 target passes." in text
    assert "a different sample of the same distribution" in text
    assert 'aria-hidden="true"' in text  # the drawing; the sentence is its text alternative


def test_biased_seed_1_after_verify_of_block_3_shows_its_pass_striped_and_says_so():
    session = Timeline.of(core.Config("biased", 3, 1)).at(8)  # block 3 verified, not committed
    lane = lane_view.state(session)
    assert (lane.passes, lane.tokens, lane.pending) == (2, 6, True)
    assert lane.plain == ("B", "A", "C", "C", "C", "A")
    assert lane_view.summary(lane) == (
        "Speculative: 6 tokens in 2 target passes; ordinary: 6 tokens in 6 target passes. "
        "The striped column is block 3's pass: made, but its tokens count only after Commit.")


def test_before_any_pass_the_lanes_say_what_will_fill_them():
    lane = lane_view.state(core.Session.start(core.Config()))
    assert (lane.passes, lane.tokens, lane.speculative, lane.ordinary) == (0, 0, (), ())
    assert lane_view.summary(lane).startswith("No target pass yet.")
    assert "grid-column: 2 / span" not in lane_view.lanes_html(lane)  # no clock before the first pass


def test_the_lanes_speak_chinese():
    end = Timeline.of(core.Config("aligned", 3, 0)).sessions[-1]
    with use_language("zh"):
        text = lane_view.summary(lane_view.state(end))
    assert text == "推测解码：2 次目标前向得到 8 个 token；普通解码：8 次目标前向得到 8 个 token。"


def test_the_view_follows_the_model_and_sends_a_text_only_when_the_lanes_changed():
    m = StepModel(draft="biased", width=3, seed=1)
    view = StepView(model=m)
    pane = view.lanes.pane
    texts = [pane.object]
    sent = []
    pane.param.watch(lambda event: sent.append(event.new), "object")
    m.act("draft")
    assert sent == []  # a draft makes no target pass
    m.act("verify")
    m.act("commit")
    assert len(sent) == 2
    assert pane.object == lane_view.lanes_html(lane_view.state(m.session))
    assert "Speculative: 2 tokens in 1 target pass" in pane.object
    m.act("reset")
    assert pane.object == texts[0]


def test_a_scenario_runs_its_trace_once_for_the_lanes():
    lane_view.lanes_of.cache_clear()
    m = StepModel(draft="biased", width=1, seed=1)  # 6 blocks: 18 moments
    StepView(model=m)
    for _ in range(12):
        m.act("step")
    info = lane_view.lanes_of.cache_info()
    assert info.misses == 1 and info.hits >= 12
