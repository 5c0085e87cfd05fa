"""Step back and the moment in the URL on "Several guesses at once" (issue 26), at the model and view level."""

import itertools

import panel as pn
import pytest

from app import urlstate
from app.guesses.model import BACK, GuessesModel
from app.guesses.views import GuessesTab
from app.step.model import StepModel


def chart_data(source):
    """A chart's data as plain values (a number drawn at 0 is 0 whether int or float)."""
    return sorted((k, [float(x) if isinstance(x, (int, float)) else x for x in list(v)]) for k, v in source.data.items())


def screen(tab):
    """Every shown pane's HTML and every shown widget's state of the tab."""
    out = []

    def walk(obj):
        if not obj.visible:
            return
        if isinstance(obj, pn.pane.HTML):
            out.append(obj.object)
        elif isinstance(obj, pn.pane.Bokeh):
            out.extend(chart_data(r.data_source) for r in obj.object.renderers
                       if getattr(r, "data_source", None) is not None)
        elif isinstance(obj, pn.widgets.Widget):
            out.append((type(obj).__name__, obj.disabled, getattr(obj, "value", None), str(getattr(obj, "options", ""))))
        for child in getattr(obj, "objects", None) or ():
            walk(child)

    walk(tab._layout)
    return out


@pytest.mark.parametrize("draft, k, width, seed", list(itertools.product(("aligned", "biased"), (1, 2, 3), (1, 2), (0, 1))))
def test_step_back_from_every_moment_shows_the_moment_before(draft, k, width, seed):
    tab = GuessesTab(model=GuessesModel(draft=draft, candidates=k, width=width, seed=seed))
    m = tab.model
    seen = [screen(tab)]
    while m.session.phase != "done":
        m.act("step")
        seen.append(screen(tab))
    assert len(seen) - 1 == m.timeline().last
    for n in range(len(seen) - 1, 0, -1):
        m.act(BACK)
        assert screen(tab) == seen[n - 1], n
    assert tab.actions.buttons[BACK].disabled
    for n in range(1, len(seen)):
        m.act("reset")
        for _ in range(n):
            m.act("step")
        m.act(BACK)
        assert screen(tab) == seen[n - 1], n


def test_a_gsteps_link_opens_the_trees_scenario_on_its_moment_and_the_url_follows():
    page = StepModel()
    tab = GuessesTab(session_model=page)
    m = tab.model
    m.open_link(urlstate.read_guesses("?gdraft=aligned&gk=3&gwidth=1&gseed=5&gsteps=4"))
    clicked = GuessesTab(model=GuessesModel(draft="aligned", candidates=3, width=1, seed=5))
    for _ in range(4):
        clicked.model.act("step")
    assert screen(tab) == screen(clicked)
    assert page.guesses == {"gdraft": "aligned", "gk": 3, "gwidth": 1, "gseed": 5, "gsteps": 4}
    m.act(BACK)
    query = urlstate.write(page.scenario(), guesses=page.guesses)
    assert query == "?draft=aligned&width=3&seed=0&gdraft=aligned&gk=3&gwidth=1&gseed=5&gsteps=3"


def test_a_bad_guesses_value_falls_back_with_a_notice_and_other_keys_are_kept_until_the_tab_is_built():
    url = urlstate.read_guesses("?gk=99&gsteps=2")
    assert url.values["gk"] == urlstate.GUESS_DEFAULTS["gk"] and url.values["gsteps"] == 2
    assert "gk" in url.notice
    assert urlstate.write({}, search="?gk=3&gsteps=2") == "?draft=aligned&width=3&seed=0&gk=3&gsteps=2"
    assert urlstate.write({}, search="?gk=3&gsteps=2", guesses=dict(urlstate.GUESS_DEFAULTS)) == (
        "?draft=aligned&width=3&seed=0")


def test_the_urls_defaults_are_the_tabs_defaults():
    m = GuessesModel()
    assert m.link_values() == urlstate.GUESS_DEFAULTS
