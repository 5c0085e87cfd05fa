"""Issue 26 item 5: the first screen shows what to do; item 3: the two lanes in the page.

Under ``panel serve`` in Chromium (conftest.py). At 1200 x 900 the Draft button,
the caption and the token strip are on the first screen without scrolling; at
375 x 812 the Draft button is. Each control's help waits behind a "?" beside its
name: every sentence is still in the page (and opens with a click or Enter), just
not in the way. The lanes follow the clicks and say in words what they draw.
"""

import pytest
from playwright.sync_api import expect
from reading import assert_clean, has_text, no_horizontal_scroll

from app.i18n import t
from app.step import words

pytestmark = pytest.mark.browser

FIRST_SCREENS = {"desktop": (1200, 900), "phone": (375, 812)}


def button(page, name):
    return page.get_by_role("button", name=name, exact=True)


def on_first_screen(locator, height):
    """The element's box lies inside the first viewport (the page is not scrolled)."""
    box = locator.bounding_box()
    assert box is not None, "not rendered"
    assert 0 <= box["y"] and box["y"] + box["height"] <= height, box
    return box


def test_at_1200_by_900_draft_the_caption_and_the_token_strip_are_on_the_first_screen(app_page):
    page = app_page.open()
    assert page.evaluate("window.scrollY") == 0
    on_first_screen(button(page, "Draft"), 900)
    on_first_screen(page.locator(".caption").first, 900)
    on_first_screen(page.get_by_role("heading", name=t("step.output.title"), exact=True), 900)
    button(page, "Draft").click()
    expect(page.get_by_role("button", name="proposed")).to_have_count(3)
    for chip in page.get_by_role("button", name="proposed").all():
        on_first_screen(chip, 900)  # the strip's chips themselves, not just its title
    assert_clean(page)


def test_at_375_by_812_draft_is_on_the_first_screen(app_page):
    page = app_page.open()
    page.set_viewport_size({"width": 375, "height": 812})
    page.wait_for_timeout(400)
    page.evaluate("window.scrollTo(0, 0)")
    on_first_screen(button(page, "Draft"), 812)
    assert no_horizontal_scroll(page)
    assert_clean(page)


def test_every_help_sentence_is_in_the_page_behind_a_question_mark_that_opens_it(app_page):
    page = app_page.open()
    sentences = [words.help_text(c) for c in ("draft", "width", "seed", "lookahead", "schedule")]
    has_text(page, *sentences)  # in the page, for a screen reader and a search too
    help_line = page.get_by_text(words.help_text("seed"), exact=True)
    expect(help_line).to_be_hidden()
    page.locator("summary", has_text=t("step.field.seed")).click()
    expect(help_line).to_be_visible()
    # The keyboard: the name is a Tab stop and Enter opens it.
    summary = page.locator("summary", has_text=t("step.field.schedule"))
    summary.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_text(words.help_text("schedule"), exact=True)).to_be_visible()
    assert_clean(page)


def test_the_lanes_follow_the_clicks_and_say_what_they_draw(app_page):
    page = app_page.open("?draft=aligned&width=3&seed=0")
    has_text(page, t("step.lanes.empty"))
    button(page, "Run to end").click()
    has_text(page, "Speculative: 8 tokens in 2 target passes; ordinary: 8 tokens in 8 target passes.",
             "2 target passes used here", t("step.lanes.same_distribution"))
    assert page.locator(".lanes .cell.spec").count() == 2
    assert page.locator(".lanes .cell.plain").count() == 8
    page.shoot("lanes_aligned_end_1200")
    assert_clean(page)
