"""A locked link (``lock=1``) and the lookahead threshold, driven from Python (no browser).

Issue 23, item 1: in ``?draft=biased&width=3&seed=1&lock=1`` a "What to try"
preset switched the locked scenario to seed 0, the seed box stayed greyed so
the reader could not return, the schedule stayed clickable and the status line
said a link had opened it. Locked means every control that changes the
scenario is disabled, presets included, with one line that says why.
Item 9: the threshold slider, built while lookahead is off, put its knob at
the 0.90 end while its label said 0.50.
"""

import pytest
from bokeh.document import Document
from bokeh.models import Slider
from panel.io.location import Location
from panel.io.state import set_curdoc

from app import main, urlstate
from app.i18n import t
from app.step.model import StepModel
from app.step.views import StepView

LOCKED = "?draft=biased&width=3&seed=1&lock=1"


def click(button):
    button.clicks += 1


def page_view(search):
    """The first tab as the page builds it for ``search`` (link_url reads the link, lock included)."""
    m = StepModel()
    main.link_url(m, Location(search=search))
    return StepView(model=m)


def scenario_widgets(view):
    s = view.scenario
    return {"draft": s.draft, "width": s.width, "seed": s.seed, "seed_down": s.seed_down, "seed_up": s.seed_up,
            "lookahead": s.lookahead_on, "threshold": s.threshold, "schedule": s.schedule}


def test_a_locked_link_disables_every_scenario_control_and_every_preset():
    view = page_view(LOCKED)
    assert view.model.locked
    enabled = [name for name, w in scenario_widgets(view).items() if not w.disabled]
    assert enabled == [], f"still clickable in a locked scenario: {enabled}"
    assert all(b.disabled for b in view.guide.buttons), "a preset changes the scenario too"


def test_a_preset_cannot_change_a_locked_scenario():
    view = page_view(LOCKED)
    before = view.model.session
    for button in view.guide.buttons:
        click(button)
        view.guide.open(view.guide.presets[1])  # even called directly
    m = view.model
    assert (m.draft, m.width, m.seed) == ("biased", 3, 1) and m.session is before


def test_the_seed_buttons_stay_disabled_when_the_seed_changes_under_a_lock():
    """They were bound to the seed: a change of seed re-enabled the one the bound rule allowed."""
    view = page_view(LOCKED)
    view.model.open_link(urlstate.read("?draft=biased&width=3&seed=5"))  # the worker's late location
    assert view.scenario.seed_down.disabled and view.scenario.seed_up.disabled


def test_one_line_says_the_author_fixed_the_scenario_and_only_when_locked():
    line = t("step.locked")
    locked, free = page_view(LOCKED), page_view("?draft=biased&width=3&seed=1")
    assert locked.scenario.lock_line.visible and line in locked.scenario.lock_line.object
    assert not free.scenario.lock_line.visible
    pick = t("embed.guide.pick")
    assert pick not in str(locked.guide.question.object), "no invitation to press a disabled button"
    assert pick in str(free.guide.question.object)
    assert not any(w.disabled for name, w in scenario_widgets(free).items()
                   if name not in ("seed_down", "threshold")), "an unlocked link leaves the controls free"
    assert not any(b.disabled for b in free.guide.buttons)


def test_a_lock_that_arrives_after_the_first_render_still_locks():
    """In the Pyodide worker the browser's location can reach Python only after rendering."""
    location = Location()
    m = StepModel()
    main.link_url(m, location)
    view = StepView(model=m)
    location.search = LOCKED
    assert m.locked and view.scenario.draft.disabled and all(b.disabled for b in view.guide.buttons)


def test_a_preset_says_the_button_opened_it_not_a_link():
    view = page_view("?draft=aligned&width=3&seed=0")
    preset = view.guide.presets[1]
    click(view.guide.buttons[1])
    happened = view.model.happened
    assert "from the link" not in happened
    assert preset.title in happened, happened
    assert f"seed {view.model.seed}" in happened


# ---- item 9: the threshold slider ---------------------------------------------------------------

def slider_model(widget):
    doc = Document()
    with set_curdoc(doc):
        root = widget.get_root(doc)
    return root.select_one({"type": Slider})


@pytest.mark.parametrize("search", ["?draft=biased", LOCKED])
def test_the_threshold_knob_sits_where_its_label_says_while_lookahead_is_off(search):
    view = page_view(search)
    s = view.scenario
    assert s.threshold.disabled and s.threshold.value == "0.50"
    slider = slider_model(s.threshold)
    options = list(s.threshold.options)
    assert (slider.start, slider.end) == (0, len(options) - 1), "the knob's track spans every threshold"
    assert slider.value == options.index("0.50")


def test_the_threshold_knob_follows_a_remembered_threshold_while_off():
    view = page_view("?draft=biased&lookahead=0.30")
    view.model.set_early_stop(False)
    s = view.scenario
    slider = slider_model(s.threshold)
    assert s.threshold.disabled and slider.end == len(s.threshold.options) - 1
    assert slider.value == list(s.threshold.options).index("0.30")


def test_embed_code_copied_from_a_locked_page_is_locked_too():
    view = page_view(LOCKED)
    view.embed.open()
    assert view.embed.lock.value and "lock=1" in view.embed.area.value
    location = Location()
    m = StepModel()
    main.link_url(m, location)
    late = StepView(model=m)
    late.embed.open()
    assert not late.embed.lock.value and "lock=1" not in late.embed.area.value
    location.search = LOCKED  # a lock that reaches the worker after the first render
    assert late.embed.lock.value and "lock=1" in late.embed.area.value


# ---- the guesses tab under the same lock ---------------------------------------------------------

GLOCKED = "?tab=guesses&lock=1&gdraft=biased&gk=3&gwidth=2&gseed=5"


def guesses_view(search, location=None):
    """The guesses tab beside the page's model, as the page builds it: the lock comes from the page's link."""
    from app.guesses.views import GuessesTab

    m = StepModel()
    main.link_url(m, location if location is not None else Location(search=search))
    tab = GuessesTab(session_model=m)
    tab.model.open_link(urlstate.read_guesses(search))  # the tab reads pn.state.location, absent here
    return tab


def guesses_scenario(tab):
    c = tab.controls
    return {"draft": c.draft, "candidates": c.candidates, "width": c.width, "seed": c.seed}


def test_a_locked_link_fixes_the_guesses_tabs_scenario_but_not_its_stepping():
    tab = guesses_view(GLOCKED)
    m = tab.model
    assert (m.draft, m.candidates, m.width, m.seed) == ("biased", 3, 2, 5)
    enabled = [name for name, w in guesses_scenario(tab).items() if not w.disabled]
    assert enabled == [], f"still changeable in a locked guesses tab: {enabled}"
    assert not tab.actions.buttons["draft"].disabled and not tab.actions.buttons["step"].disabled
    tab.actions.buttons["draft"].clicks += 1  # the fixed scenario still walks
    assert m.session.phase == "verify" and (m.session.candidates, m.session.config.seed) == (3, 5)


def test_the_guesses_tab_says_the_author_fixed_the_scenario_only_when_locked():
    line = t("step.locked")
    locked, free = guesses_view(GLOCKED), guesses_view(GLOCKED.replace("lock=1&", ""))
    assert locked.controls.lock_line.visible and line in locked.controls.lock_line.object
    assert not free.controls.lock_line.visible
    assert not any(w.disabled for w in guesses_scenario(free).values()), "an unlocked link leaves them free"


def test_a_lock_that_reaches_the_worker_late_locks_the_guesses_tab_too():
    location = Location()
    tab = guesses_view("", location)
    assert not tab.controls.draft.disabled
    location.search = GLOCKED
    assert all(w.disabled for w in guesses_scenario(tab).values()) and tab.controls.lock_line.visible
    location.search = GLOCKED.replace("lock=1&", "")
    assert not any(w.disabled for w in guesses_scenario(tab).values()) and not tab.controls.lock_line.visible
