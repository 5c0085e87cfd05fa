"""Issue 24 items 1, 3 and 5 in the built page, real Pyodide 0.29.3 offline (``panel serve``:
tests/ui/test_hostile_input.py).

1. ``?tabs=guesses`` (no step tab) opens on its tab built, not on its placeholder;
3. Next step, Biased, Next step clicked in one task reach Python in that order (the page's
   loader once sent a click at once while a property change waited for the busy worker);
5. an emptied seed box comes back to the seed with a notice, and the console stays clean.
"""

from __future__ import annotations

import pytest

from build_support.fixtures import chromium, site  # noqa: F401 (fixtures)
from build_support.real_site import real_site
from test_real_page import assert_clean, open_ready, visit  # noqa: F401 (fixtures)
from ui.hostile_support import CLICK_IN_ONE_TASK_JS, ORDER_CLICKS, ORDER_QUERY, order_expected, seed_kept

pytestmark = pytest.mark.browser



@pytest.fixture(scope="module")
def built():
    return real_site()


@pytest.mark.parametrize("query, tab, words", [
    ("?tabs=guesses", "Several guesses at once", "Instead of one guess per position"),
    ("?tabs=payoff,guesses", "When it pays off", "pays off"),
])
def test_a_tabs_list_without_step_opens_on_its_tab_built(visit, site, query, tab, words):
    open_ready(visit, site, query)
    visit.page.get_by_role("tab", name=tab, selected=True).wait_for(timeout=15_000)
    visit.has_text(words, timeout=30)
    visit.page.wait_for_timeout(500)
    assert f"Opening “{tab}”" not in visit.text()  # its placeholder
    assert_clean(visit)


def test_clicks_in_one_task_reach_python_in_the_readers_order(visit, site):
    open_ready(visit, site, ORDER_QUERY)
    assert visit.page.evaluate(CLICK_IN_ONE_TASK_JS, list(ORDER_CLICKS)) == []
    visit.has_text(order_expected(), timeout=20)
    assert_clean(visit)


def test_an_emptied_seed_box_returns_to_the_seed_with_a_notice(visit, site):
    open_ready(visit, site, "?draft=biased&width=3&seed=1")
    box = visit.page.get_by_role("textbox", name="Seed")
    box.fill("")
    box.press("Enter")
    visit.page.wait_for_timeout(1500)
    assert visit.errors == [], visit.errors  # today: "PythonError: Traceback ..." in the console
    assert box.input_value() == "1"
    visit.has_text(seed_kept(1), timeout=15)
    assert_clean(visit)
