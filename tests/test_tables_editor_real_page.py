"""The table editor in the built page, real Pyodide 0.29.3, offline, in Chromium (issue 29 item 2).

The grids are built in the worker when "Your own numbers" is first pressed; each keystroke goes
through the worker to ``core.tables_text``, and "Use these numbers" opens the page on the tables:
the inspector then shows numbers no authored table has.
"""

import pytest

from core.tables_text import parse_row
from test_real_page import assert_clean, built, chromium, open_ready, site, visit  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


def test_the_editor_checks_each_row_in_pyodide_and_runs_the_page_on_it(visit, site):  # noqa: F811
    open_ready(visit, site, "?draft=biased&width=2&seed=1")
    page = visit.page
    page.get_by_role("button", name="Your own numbers", exact=True).click()
    own = page.locator(".sp-own-page")
    first = own.get_by_label("p(A) at the start", exact=True)
    first.wait_for(timeout=60_000)
    first.fill("0.6")
    try:
        parse_row("target", "", ("0.6", "0.3", "0.2"))
    except ValueError as error:
        visit.has_text(str(error), timeout=30)
    own.get_by_label("p(C) at the start", exact=True).fill("0.1")
    for name, value in (("q(A) at the start", "0.2"), ("q(B) at the start", "0.5"), ("q(C) at the start", "0.3")):
        own.get_by_label(name, exact=True).fill(value)
    visit.has_text("Every row sums to exactly 1.", "custom draft, width 2, seed 1", timeout=30)
    own.get_by_role("button", name="Use these numbers", exact=True).click()
    visit.has_text("Opened the page on your own numbers", timeout=30)
    page.get_by_role("button", name="Draft", exact=True).click()
    page.get_by_role("button", name="Verify", exact=True).click()
    page.get_by_role("button", name="rejected").first.click()
    visit.has_text("0.20 0.50 0.30", "0.60 0.30 0.10", timeout=30)
    visit.shot("tables_editor_real_page")
    assert_clean(visit)
