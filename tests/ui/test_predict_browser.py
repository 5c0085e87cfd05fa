"""Predict first (issue 28, item 1) in Chromium under ``panel serve``: ``?predict=1``, Draft, the calls, Verify reveals.

The worked block: biased draft, width 3, seed 1 (tests/test_predict.py): A kept
with probability 5/8, the second A rejected (kept with 2/7), B discarded.
"""

import re

import pytest
from playwright.sync_api import expect
from reading import assert_clean, has_text, shot_at_both_widths

from core import Session
from core.predict import KEPT, REJECTED, judge_calls, tally

from app.i18n import t
from app.page import words as page_words
from app.step import predict_words
from app.step import words as step_words

pytestmark = pytest.mark.browser

LINK = "?draft=biased&width=3&seed=1&predict=1"


def button(page, name):
    return page.get_by_role("button", name=name, exact=True)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_predict_first_calls_then_verify_reveals(app_page, scheme):
    page = app_page.open(LINK + ("&theme=dark" if scheme == "dark" else ""))
    expect(button(page, "Predict first")).to_have_attribute("aria-pressed", "true", timeout=10_000)
    button(page, "Draft").click()
    has_text(page, "Verify waits for your calls: 3 proposals still need one.", timeout=30)
    expect(button(page, "Verify")).to_be_disabled()
    calls = (REJECTED, KEPT, KEPT)
    # The first call by keyboard: Tab to it and press Enter; the others by mouse.
    first = button(page, predict_words.call_label(1, "A", calls[0]))
    first.focus()
    page.keyboard.press("Enter")
    expect(first).to_have_attribute("aria-pressed", "true")
    # A reader sees each call pressed before the next (the pane is drawn again after each call).
    for position, token, call in ((2, "A", calls[1]), (3, "B", calls[2])):
        button(page, predict_words.call_label(position, token, call)).click()
        expect(button(page, predict_words.call_label(position, token, call))).to_have_attribute("aria-pressed", "true")
    has_text(page, "Every proposal has a call", timeout=20)
    expect(button(page, "Verify")).to_be_enabled()
    if scheme == "light":
        page.shoot("predict_calls_1200")
    button(page, "Verify").click()
    block = Session.start(draft="biased", width=3, seed=1).draft().verify().pending
    judged = judge_calls(block, calls)
    has_text(page, *(predict_words.verdict(c) for c in judged.calls), predict_words.tally_line(tally([judged])),
             timeout=30)
    assert "you said rejected; it was kept with probability 5/8 = 0.625: an unlikely call." in page.text()
    assert not re.search(r"[?&](call|calls)=", page.url) and "predict=1" in page.url
    shot_at_both_widths(page, f"predict_reveal_{scheme}")


def test_present_mode_keeps_the_calls_on_the_projector(app_page):
    page = app_page.open(LINK + "&present=1")
    page.wait_for_function("() => document.documentElement.classList.contains('sp-present')", timeout=20_000)
    button(page, "Draft").click()
    call = button(page, predict_words.call_label(1, "A", KEPT))
    expect(call).to_be_visible(timeout=30_000)
    call.click()
    expect(call).to_have_attribute("aria-pressed", "true")
    page.wait_for_timeout(300)
    page.shoot("predict_present_1200")
    assert_clean(page)


def test_calls_and_a_chip_clicked_in_one_tick_all_reach_the_model_in_order(app_page):
    """Quick clicks on HTML buttons share one hidden input (parts.Opener): Panel's server keeps the last
    value of a property in its debounce window, so each click must carry the ones before it."""
    page = app_page.open(LINK)
    button(page, "Draft").click()
    has_text(page, "3 proposals still need one.", timeout=30)
    clicks = [(1, "A", KEPT), (2, "A", KEPT), (3, "B", REJECTED), (1, "A", REJECTED)]
    handles = [button(page, predict_words.call_label(*c)).element_handle() for c in clicks]
    chip = page.locator('[data-sp-open="0:1"]').first.element_handle()
    page.evaluate("(buttons) => { for (const b of buttons) b.click(); }", [handles[0], chip, *handles[1:]])
    has_text(page, "Every proposal has a call", timeout=20)
    pressed = {c: button(page, predict_words.call_label(*c)).get_attribute("aria-pressed") for c in clicks}
    assert pressed == {(1, "A", KEPT): "false", (2, "A", KEPT): "true", (3, "B", REJECTED): "true",
                       (1, "A", REJECTED): "true"}, pressed
    expect(page.locator('[data-sp-open="0:1"]').first).to_have_attribute("aria-current", "true")
    assert_clean(page)


def ask_the_support(page, *also):
    """Draft, call A kept, A rejected, B kept, Verify: the block's rejection opens the support question."""
    button(page, "Draft").click()
    for position, token, call in ((1, "A", KEPT), (2, "A", REJECTED), (3, "B", KEPT)):
        b = button(page, predict_words.call_label(position, token, call))
        b.click()
        expect(b).to_have_attribute("aria-pressed", "true")
    expect(button(page, "Verify")).to_be_enabled(timeout=20_000)
    button(page, "Verify").click()
    has_text(page, "Which tokens can the correction be?", *also, timeout=30)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_after_a_rejection_the_support_is_marked_by_keyboard_before_the_correction_shows(app_page, scheme):
    page = app_page.open(LINK + ("&theme=dark" if scheme == "dark" else ""))
    ask_the_support(page, "Commit waits for your answer")
    expect(button(page, "Commit")).to_be_disabled()
    expect(button(page, "Run block")).to_be_disabled()
    assert "the correction B was drawn" not in page.text()
    # Keyboard only: focus B, Space; Tab to C, Space; Tab to Confirm, Enter.
    b = button(page, predict_words.toggle_aria("B"))
    b.focus()
    page.keyboard.press("Space")
    expect(b).to_have_attribute("aria-pressed", "true", timeout=20_000)
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    expect(button(page, predict_words.toggle_aria("C"))).to_have_attribute("aria-pressed", "true", timeout=20_000)
    has_text(page, "You marked B, C.", timeout=20)
    page.shoot(f"predict_support_asked_{scheme}_1200")
    page.shoot(f"predict_support_asked_{scheme}_375", width=375)
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    has_text(page, "You marked B, C: exactly the support. Right.", "The correction drawn: B.",
             "the correction B was drawn", timeout=30)
    expect(button(page, "Commit")).to_be_enabled()
    shot_at_both_widths(page, f"predict_support_revealed_{scheme}")
    assert_clean(page)


# The name of the element that has the keyboard focus, shadow roots included (None on the page itself).
FOCUSED_JS = """() => { let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  return !a || a === document.body ? null : (a.getAttribute("aria-label") || a.textContent.trim()); }"""


def focus_lands_on(page, name, timeout=10_000):
    """Wait until the keyboard focus is on the element named ``name`` (the pane is redrawn first)."""
    try:
        page.wait_for_function(f"(name) => ({FOCUSED_JS})() === name", arg=name, timeout=timeout)
    except Exception:
        raise AssertionError(f"the focus is on {page.evaluate(FOCUSED_JS)!r}, not {name!r}") from None


def test_keyboard_focus_survives_each_call_and_confirm_lands_on_the_reveal(app_page):
    """Every Predict first button pressed by keyboard redraws its pane: the focus stays on the call (or
    toggle) pressed, and after Confirm, whose button is gone, it lands on the reveal's heading."""
    page = app_page.open(LINK)
    button(page, "Draft").click()
    has_text(page, "3 proposals still need one.", timeout=30)
    for position, token, call in ((1, "A", KEPT), (2, "A", REJECTED), (3, "B", KEPT), (3, "B", REJECTED),
                                  (3, "B", KEPT)):
        name = predict_words.call_label(position, token, call)
        button(page, name).focus()
        page.keyboard.press("Enter" if position != 2 else "Space")
        expect(button(page, name)).to_have_attribute("aria-pressed", "true", timeout=20_000)
        focus_lands_on(page, name)
    expect(button(page, "Verify")).to_be_enabled(timeout=20_000)
    button(page, "Verify").click()
    toggle = button(page, predict_words.toggle_aria("B"))
    toggle.focus()
    page.keyboard.press("Space")
    expect(toggle).to_have_attribute("aria-pressed", "true", timeout=20_000)
    focus_lands_on(page, predict_words.toggle_aria("B"))
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    expect(button(page, predict_words.toggle_aria("C"))).to_have_attribute("aria-pressed", "true", timeout=20_000)
    focus_lands_on(page, predict_words.toggle_aria("C"))
    page.keyboard.press("Tab")
    focus_lands_on(page, t("step.predict.support.confirm_aria"))
    page.keyboard.press("Enter")
    has_text(page, "You marked B, C: exactly the support. Right.", timeout=30)
    focus_lands_on(page, t("step.predict.support.revealed"))
    page.shoot("predict_support_focus_1200")
    assert_clean(page)


def keys_line(page):
    return page.locator(".shortcuts").first


def test_while_the_question_is_open_a_b_c_mark_tokens_and_b_does_not_step_back(app_page):
    """The page's B is Step back, but a student asked which tokens the correction can be and pressing B
    means B: while the question is open the letters A, B and C toggle the marks (the keys' line says so),
    Step back stays on its button, and once Confirm is pressed B steps back again."""
    page = app_page.open(LINK)
    normal = page_words.shortcuts_line(step_words.SHORTCUT_LABELS)
    expect(keys_line(page)).to_have_text(normal, timeout=20_000)
    ask_the_support(page)
    expect(keys_line(page)).to_have_text(predict_words.marking_keys_line(step_words.SHORTCUT_LABELS),
                                         timeout=20_000)
    toggle = {x: button(page, predict_words.toggle_aria(x)) for x in "ABC"}
    page.locator("h1").click()  # no control has the focus: the letters are the page's keys
    page.keyboard.press("b")
    expect(toggle["B"]).to_have_attribute("aria-pressed", "true", timeout=20_000)
    page.keyboard.press("c")
    expect(toggle["C"]).to_have_attribute("aria-pressed", "true", timeout=20_000)
    # A letter pressed while a toggle has the focus marks its token, and the focus stays put.
    toggle["B"].focus()
    page.keyboard.press("a")
    expect(toggle["A"]).to_have_attribute("aria-pressed", "true", timeout=20_000)
    focus_lands_on(page, predict_words.toggle_aria("B"))
    page.keyboard.press("Shift+A")
    expect(toggle["A"]).to_have_attribute("aria-pressed", "false", timeout=20_000)
    has_text(page, "You marked B, C.", "Which tokens can the correction be?", "Commit waits for your answer")
    button(page, t("step.predict.support.confirm_aria")).click()
    has_text(page, "You marked B, C: exactly the support. Right.", timeout=30)
    expect(keys_line(page)).to_have_text(normal, timeout=20_000)
    # The question is answered: B is Step back again, back to the moment before Verify.
    page.locator("h1").click()
    page.keyboard.press("b")
    expect(button(page, "Verify")).to_be_enabled(timeout=20_000)
    assert_clean(page)
