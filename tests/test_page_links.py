"""Hostile links and inputs of issue 24, from Python (no browser): items 1, 5 and 7.

1. a ``tabs=`` list without ``step`` builds the tab it opens on;
5. an empty seed box keeps the seed with a calm notice, never a traceback;
7. every fallback of a link (seed past 2**53 - 1, a bad ``tab``, ``tabs``, ``theme`` or
   ``lock``, a ``tab`` the ``tabs`` list leaves out) says its rule in one line.

The browser halves (``panel serve`` and the real page) are in ``tests/ui/test_hostile_input.py``
and ``tests/test_hostile_input_real_page.py``.
"""

import html

import panel as pn
import pytest
from bokeh.document import Document
from panel.io.location import Location
from panel.io.state import set_curdoc, state

from app import i18n, main, urlstate
from app.page import links
from app.step.model import StepModel
from app.step.views import StepView

NAMES = [links.slug(make) for _, make in main.TABS]
OPENING = "Opening"  # the placeholder's first word (page.opening)


def build(search):
    """``main.build_page()`` for a page opened at ``search``; returns (page, tabs, model's notice)."""
    doc = Document()
    with set_curdoc(doc):
        state._locations[doc] = Location(search=search)
        page = main.build_page()
        page.server_doc(doc)
    tabs = next(iter(page.select(pn.Tabs)))
    return page, tabs, doc


def shown_text(viewable):
    """The HTML of every pane in ``viewable``, entities decoded."""
    return html.unescape(" ".join(str(getattr(obj, "object", "")) for obj in viewable.select(pn.pane.HTML)))


# ---- item 1: a tabs= list without step -------------------------------------------------------

@pytest.mark.parametrize("search, first", [("?tabs=guesses", "guesses"), ("?tabs=exact", "exact"),
                                           ("?tabs=payoff,guesses", "payoff"),
                                           ("?tabs=payoff,guesses&tab=guesses", "guesses")])
def test_a_tabs_list_without_step_builds_the_tab_it_opens_on(search, first):
    page, tabs, _ = build(search)
    shown = [name for name in NAMES if name in links.read(search, NAMES).shown]
    assert tabs.active == shown.index(first)
    opened = tabs[tabs.active]
    assert OPENING not in shown_text(opened), f"{search}: the first tab is still its placeholder"


def test_the_default_page_still_builds_no_other_tab():
    page, tabs, _ = build("")
    for index in range(1, len(tabs)):
        assert OPENING in shown_text(tabs[index]), "a tab nobody opened was built"


# ---- item 5: the seed box emptied ------------------------------------------------------------

def test_an_empty_seed_box_keeps_the_seed_with_a_notice_and_no_traceback(capsys):
    m = StepModel(draft="biased", width=3, seed=7)
    view = StepView(model=m)
    m.act("draft")
    session = m.session
    view.scenario.seed.value = None  # what the browser sends when the reader clears the box
    assert m.seed == 7 and m.session is session, "the trace stays as it was"
    assert view.scenario.seed.value == 7, "the box shows the seed again"
    assert m.notice == i18n.t("step.seed.empty", seed=7)
    assert m.error_trace == "" and "Traceback" not in capsys.readouterr().err
    view.scenario.seed.value = 8  # a seed typed afterwards still works
    assert m.seed == 8 and m.session.config.seed == 8 and view.scenario.seed.value == 8


# ---- item 7: every fallback says its rule ------------------------------------------------------

def test_a_seed_past_the_limit_names_the_limit():
    url = urlstate.read("?seed=9007199254740992")
    assert url.values["seed"] == 0
    assert str(urlstate.SEED_MAX) in url.notice == (
        "The link's seed is not valid (it must be a whole number from 0 to 9007199254740991), "
        "so the default 0 is used.")
    assert urlstate.read("?seed=9007199254740991").notices == ()


@pytest.mark.parametrize("search, key", [
    ("?tab=nothing", "tab"), ("?tab=guesses&tabs=step", "tab"), ("?tabs=nothing", "tabs"),
    ("?tabs=step,nothing", "tabs"), ("?theme=purple", "theme"), ("?lock=maybe", "lock"),
])
def test_a_bad_page_key_falls_back_with_a_one_line_notice(search, key):
    link = links.read(search, NAMES)
    assert len(link.notices) == 1, link.notices
    notice = link.notices[0]
    assert notice.startswith(f"The link's {key} is not valid (it must be ") and "\n" not in notice
    assert "nothing" not in notice and "purple" not in notice and "maybe" not in notice


def test_the_page_key_notices_name_the_rule_and_what_is_used_instead():
    assert links.read("?tab=guesses&tabs=step", NAMES).notices == (
        "The link's tab is not valid (it must be a tab the page shows: step), so the default step is used.",)
    assert links.read("?tabs=step,nothing", NAMES).notices == (
        "The link's tabs is not valid (it must be names from step, exact, payoff or guesses, separated by commas), "
        "so it shows: step.",)
    assert links.read("?theme=purple", NAMES).notices == (
        "The link's theme is not valid (it must be dark or light), so the reader's own colour setting is used.",)
    assert links.read("?lock=maybe", NAMES).notices == (
        "The link's lock is not valid (it must be 1 or 0), so the controls are not locked.",)
    with i18n.use("zh"):
        for search in ("?tab=nothing", "?tabs=nothing", "?theme=purple", "?lock=maybe"):
            notice = links.read(search, NAMES).notices[0]
            assert "The link" not in notice and "链接" in notice, notice


@pytest.mark.parametrize("search", ["?tab=exact", "?tabs=step,exact&tab=exact", "?lock=1", "?lock=0",
                                    "?lock=true", "?theme=dark", "?theme=light", "", "?tabs=guesses"])
def test_good_page_keys_give_no_notice(search):
    assert links.read(search, NAMES).notices == ()


def test_the_page_shows_a_page_key_notice_with_the_links_own_notices():
    page, _, _ = build("?tab=nothing&width=12")
    notice = shown_text(page)
    assert "The link's width is not valid" in notice and "The link's tab is not valid" in notice


def test_without_the_step_tab_the_notice_is_still_on_the_page():
    page, tabs, _ = build("?tabs=guesses&theme=purple")
    assert "The link's theme is not valid" in shown_text(page)


# ---- present=1 (issue 28 item 2): the page's mode, kept in the URL apart from the scenario --------

def test_present_1_asks_for_present_mode_and_is_not_a_scenario_key():
    from app import urlstate
    url = urlstate.read("?draft=biased&present=1")
    assert url.present and not url.notices and "present" not in url.given and "present" not in url.values
    assert not urlstate.read("?present=0").present and not urlstate.read("").present


def test_present_is_written_only_when_on_and_a_bad_value_says_the_rule():
    from app import urlstate
    scenario = dict(urlstate.DEFAULTS)
    assert "present" not in urlstate.write(scenario)
    assert urlstate.write(dict(scenario, present="1")).endswith("&present=1")
    assert urlstate.write(dict(scenario, present="0"), search="?present=1") == urlstate.write(scenario)
    url = urlstate.read("?present=maybe")
    assert not url.present and url.notice == "The link's present is not valid (it must be 1 or 0), so the default 0 is used."
