"""A link with a teacher's own tables opens on its numbers (issue 29), under ``panel serve`` in Chromium.

The target's first row is 0.6, 0.3, 0.1 and the custom draft's 0.2, 0.5, 0.3: numbers no authored
table has, so the inspector can only show them if the link's tables reached ``core``.
"""

import pytest
from playwright.sync_api import expect
from reading import assert_clean, has_text, no_horizontal_scroll, shot_at_both_widths

pytestmark = pytest.mark.browser

LINK = "?draft=custom&width=2&seed=1&target=.6,.3,.1&q=.2,.5,.3"


def button(page, name):
    return page.get_by_role("button", name=name, exact=True)


def test_a_custom_table_link_shows_its_numbers_in_the_inspector(app_page):
    page = app_page.open(LINK)
    expect(button(page, "Custom")).to_be_visible()
    button(page, "Draft").click()
    button(page, "Verify").click()
    page.get_by_role("button", name="rejected").first.click()
    expect(page.get_by_role("heading", name="Block 1 · position 1 · proposal B")).to_be_visible()
    has_text(page, "0.20 0.50 0.30", "0.60 0.30 0.10", "u = 0.8070 is not below 0.6, so B is replaced.")
    assert no_horizontal_scroll(page)
    shot_at_both_widths(page, "custom_tables")
    assert_clean(page)


def test_a_malformed_table_in_a_link_gets_a_notice_and_the_authored_numbers(app_page):
    page = app_page.open("?draft=aligned&width=2&seed=4&target=.6,.3,.2")
    has_text(page, "The link's target table is not valid", "the authored table is used")
    button(page, "Draft").click()
    button(page, "Verify").click()
    page.get_by_role("button", name="accepted").first.click()
    has_text(page, "0.50 0.30 0.20")  # the authored target's first row, for the aligned draft
    expect(page.get_by_text("Traceback")).to_have_count(0)
