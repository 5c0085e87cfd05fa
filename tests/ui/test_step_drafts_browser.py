"""The step tab in Chromium with the lookup and heads drafts and the heuristic schedule (issue 12).

Opened from links, clicked by visible names, read as a reader reads it;
screenshots at 1200 and 375 px go to ``tests/screenshots/``.
"""

import pytest
from playwright.sync_api import expect
from reading import has_text, no_horizontal_scroll, shot_at_both_widths

pytestmark = pytest.mark.browser


def button(page, name):
    return page.get_by_role("button", name=name, exact=True)


def test_lookup_link_shows_ordinary_steps_then_a_one_hot_copy(app_page):
    page = app_page.open("?draft=lookup&width=3&seed=1&schedule=heuristic")
    expect(button(page, "Lookup")).to_be_visible()
    has_text(page, "Draft finds nothing to copy", "Width schedule")
    button(page, "Draft").click()
    has_text(page, "The lookup draft has nothing to copy: the text is empty.")
    button(page, "Verify").click()
    expect(page.get_by_role("button", name="from p")).to_have_count(1)
    has_text(page, "an ordinary decoding step, because the draft had nothing to propose")
    button(page, "Commit").click()
    for n in (2, 3, 4):  # one click at a time: a busy server answers each before the next
        has_text(page, f"{n - 1} of 8 tokens committed", timeout=30)
        button(page, "Run block").click()
    has_text(page, "4 of 8 tokens committed", timeout=30)
    has_text(page, "4 ordinary steps", "nothing to copy · ordinary step")
    button(page, "Draft").click()
    has_text(page, "The lookup draft copied three tokens from the text: C C C")
    button(page, "Verify").click()
    page.get_by_role("button", name="rejected").first.click()
    expect(page.get_by_role("heading", name="Block 5 · position 1 · proposal C")).to_be_visible()
    has_text(page, "one-hot: the lookup draft copies one token",
             "the copy is accepted with probability exactly p(C); after a rejection the residual is p without C, "
             "renormalised", "no draw: q is one-hot")
    assert no_horizontal_scroll(page)
    shot_at_both_widths(page, "lookup_copy")


def test_heads_link_shows_a_heads_q_beside_the_p_it_is_tested_against(app_page):
    page = app_page.open("?draft=heads&width=4&seed=3")
    expect(button(page, "Heads")).to_be_visible()
    button(page, "Draft").click()
    has_text(page, "Four heads each guessed one token")
    button(page, "Verify").click()
    page.get_by_role("button", name="accepted").first.click()
    expect(page.get_by_role("heading", name="Block 1 · position 1", exact=False)).to_be_visible()
    has_text(page, "head's q this head's guess, made from the committed text alone",
             "Head 1 predicts one step ahead without seeing the earlier proposals")
    shot_at_both_widths(page, "heads")


def test_an_unknown_draft_in_the_link_is_named_in_a_notice(app_page):
    page = app_page.open("?draft=medusa&seed=2")
    has_text(page, "The link's draft is not valid (it must be one of aligned, biased, lookup, heads or custom)")
    expect(page.get_by_text("Traceback")).to_have_count(0)


EXACT, PAYOFF = "Why it is exact", "When it pays off"


def open_tab(page, title):
    page.locator(".bk-tab", has_text=title).click()
    has_text(page, title)


def test_payoff_tab_shows_the_heuristic_schedule_beside_the_fixed_widths(app_page):
    from fractions import Fraction

    from core import display, payoff

    page = app_page.open("?draft=heads&width=3&seed=0&schedule=heuristic")
    button(page, "Run to end").click()
    open_tab(page, PAYOFF)
    h = payoff.heuristic_payoff("heads", Fraction(1, 10))
    has_text(page, f"settles at an average width of {display.dec(h.mean_width)}",
             "heuristic schedule, at its average width", "only the exact curve is drawn", timeout=60)
    shot_at_both_widths(page, "payoff_heuristic_heads")


def test_exact_tab_transform_on_the_draft_only_says_what_went_wrong(app_page):
    page = app_page.open()
    open_tab(page, EXACT)
    has_text(page, "Sampled 20,000 runs", timeout=60)
    button(page, "T = 1/2").click()
    button(page, "Draft only").click()
    has_text(page, "What went wrong: temperature 1/2 was applied to the draft only",
             "target with temperature 1/2", timeout=60)
    shot_at_both_widths(page, "exact_transform_draft")
