"""Step back and the timeline of "Step through a block", at the model and view level (issue 26).

The screen after Step back from moment n must be the screen at moment n - 1, to the character:
every HTML pane the tab renders and every button's state, compared with what n - 1 clicks of
Next step from a fresh page show. Checked for every moment of 200 traces (every draft, widths
1 to 8, both schedules, lookahead on and off, several seeds).
"""

import itertools

import panel as pn
import pytest

import core
from app import urlstate
from app.i18n import t
from app.step import timeline_view, words
from app.step.model import BACK, StepModel
from app.step.views import StepView


def screen(view):
    """Everything the tab shows that a click can change: each shown pane's HTML, each shown widget's
    state, the inspector's charts with them (HTML too: app/step/bars.py; a part inside a hidden one is not on screen)."""
    out = []

    def walk(obj):
        if not obj.visible:
            return
        if isinstance(obj, pn.pane.HTML):
            out.append(("html", obj.object))
        elif isinstance(obj, pn.widgets.Widget):
            out.append((type(obj).__name__, obj.disabled, getattr(obj, "value", None), str(getattr(obj, "options", "")),
                        dict(obj.styles or {}), getattr(obj, "label", None)))
        for child in getattr(obj, "objects", None) or ():
            walk(child)

    walk(view._layout)
    return out


def scenarios():
    """200 scenarios: every draft x width 1-8 x schedule x lookahead, then more seeds."""
    combos = itertools.product(core.ALL_DRAFTS, range(1, core.MAX_WIDTH + 1), core.SCHEDULES, ("off", "0.50"))
    out = [dict(draft=d, width=w, schedule=s, lookahead=la, seed=i % 7) for i, (d, w, s, la) in enumerate(combos)]
    extra = itertools.product(("biased", "heads", "lookup"), range(1, core.MAX_WIDTH + 1), (11, 12, 13))
    out += [dict(draft=d, width=w, schedule="fixed", lookahead="off", seed=s) for d, w, s in extra]
    return out[:200]


def test_two_hundred_scenarios_cover_every_draft_width_schedule_and_lookahead():
    chosen = scenarios()
    assert len(chosen) == 200
    assert {c["draft"] for c in chosen} == set(core.ALL_DRAFTS)
    assert {c["width"] for c in chosen} == set(range(1, core.MAX_WIDTH + 1))
    assert {c["schedule"] for c in chosen} == set(core.SCHEDULES)
    assert {c["lookahead"] for c in chosen} == {"off", "0.50"}


SCENARIOS = scenarios()


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: "-".join(str(v) for v in s.values()))
def test_step_back_from_every_moment_shows_the_moment_before_to_the_character(scenario):
    view = StepView(model=StepModel(**scenario))
    m = view.model
    seen = [screen(view)]  # seen[k]: the screen after k clicks of Next step from a fresh page
    assert any(kind == "html" and "bars-chart" in value for kind, value, *_ in seen[0]) and any(kind == "Button" for kind, *_ in seen[0])
    while m.session.phase != "done":
        m.act("step")
        seen.append(screen(view))
    last = len(seen) - 1
    assert last == m.timeline().last
    # Step back from the end, back to the start, one Step back at a time
    for n in range(last, 0, -1):
        m.act(BACK)
        assert screen(view) == seen[n - 1], f"Step back from moment {n} (reached by Step back)"
    assert view.actions.back.disabled
    # Step back from each moment n, reached by a jump (which shows what n Next steps show)
    for n in range(last, 0, -1):
        view._open(timeline_view.moment_key(n))
        assert screen(view) == seen[n], f"jump to moment {n}"
        m.act(BACK)
        assert screen(view) == seen[n - 1], f"Step back from moment {n} (reached by a jump)"
    # ... and, in every tenth scenario, reached by n clicks of Next step after Reset
    if SCENARIOS.index(scenario) % 10 == 0:
        for n in range(last, 0, -1):
            m.act("reset")
            for _ in range(n):
                m.act("step")
            m.act(BACK)
            assert m.steps_done() == n - 1
            assert screen(view) == seen[n - 1], f"Step back from moment {n}"


def test_a_jump_to_any_moment_shows_what_that_many_next_steps_show():
    view = StepView(model=StepModel(draft="biased", width=3, seed=1))
    m = view.model
    seen = [screen(view)]
    while m.session.phase != "done":
        m.act("step")
        seen.append(screen(view))
    for n in (0, 5, 2, len(seen) - 1, 1, 3):
        view._open(timeline_view.moment_key(n))  # a click on the timeline
        assert screen(view) == seen[n], n


def test_step_back_at_the_start_is_disabled_and_says_why():
    view = StepView(model=StepModel())
    assert view.actions.back.disabled
    view.model.act(BACK)
    assert view.model.notice == words.not_possible(BACK, t("step.back.nothing"))
    view.model.act("draft")
    assert not view.actions.back.disabled


def test_other_buttons_land_on_moments_step_back_undoes_one_step_of():
    m = StepModel(draft="biased", width=3, seed=1)
    m.act("run_block")  # moment 3
    m.act("draft")      # moment 4
    m.act(BACK)
    assert m.steps_done() == 3
    assert m.session == m.timeline().at(3)
    m.act("run_to_end")
    m.act(BACK)
    assert m.steps_done() == m.timeline().last - 1


def test_a_link_opens_on_its_moment_and_the_link_names_the_moment_on_screen():
    m = StepModel()
    m.open_link(urlstate.read("?draft=biased&width=3&seed=1&steps=4"))
    assert m.steps_done() == 4
    assert m.session == m.timeline().at(4)
    assert m.scenario()["steps"] == 4
    m.act(BACK)
    assert m.scenario()["steps"] == 3
    assert "steps=3" in urlstate.write(m.scenario())


def test_a_jump_to_a_moment_the_trace_lacks_is_a_notice():
    view = StepView(model=StepModel(draft="aligned", width=8))  # one block: moments 0 to 3
    view._open("moment:9")
    assert view.model.notice == t("step.timeline.no_moment", last=3)
    assert view.model.steps_done() == 0
    view._open("moment:x")  # not a number: nothing happens
    assert view.model.steps_done() == 0


def test_the_timeline_shows_every_moment_with_a_symbol_the_one_on_screen_a_tab_stop():
    view = StepView(model=StepModel(draft="biased", width=3, seed=1))
    m = view.model
    line = m.timeline()
    html = view.player.strip.object
    assert html.count("data-sp-open=\"moment:") == line.last + 1
    assert html.count('tabindex="0"') == 1 and 'aria-current="step"' in html
    m.act("run_block")
    html = view.player.strip.object
    assert 'data-sp-open="moment:3" title' in html
    now = html.split('aria-current="step"')[0].rsplit("<button", 1)[1]
    assert 'moment:3' in now and 'tabindex="0"' in now
    kinds = [timeline_view.kind(mark) for mark in line.marks]
    assert "verified.rejected" in kinds  # seed 1's first block has a rejection: ✗ on screen
    assert timeline_view.GLYPHS["verified.rejected"] in html


def test_one_click_on_the_timeline_changes_the_strip_once_and_play_is_disabled_at_the_end():
    view = StepView(model=StepModel(draft="biased", width=3, seed=1))
    changes = []
    view.player.strip.param.watch(lambda e: changes.append(e.new), "object")
    view._open("moment:5")
    assert len(changes) == 1
    view.model.act("run_to_end")
    assert view.player.play.disabled


def test_moments_ahead_of_the_screen_keep_their_outcome_to_themselves():
    """The strip must not answer "kept or rejected?" before Verify does: ahead, only the phase's name."""
    view = StepView(model=StepModel(draft="biased", width=3, seed=1))
    m = view.model
    html = view.player.strip.object
    outcomes = [GLYPH for key, GLYPH in timeline_view.GLYPHS.items() if key != "start"]
    assert not any(f">{glyph}</button>" in html for glyph in outcomes), html
    assert html.count(f">{timeline_view.AHEAD}</button>") == m.timeline().last
    assert "rejected" not in html.split("</button>", 1)[1]  # no counts in the titles ahead
    m.act("draft")
    m.act("verify")  # seed 1's first block has a rejection: now it is said, the blocks after stay quiet
    html = view.player.strip.object
    assert f">{timeline_view.GLYPHS['verified.rejected']}</button>" in html
    assert html.count(f">{timeline_view.AHEAD}</button>") == m.timeline().last - 2
