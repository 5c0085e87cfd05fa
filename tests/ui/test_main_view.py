"""The served widget in Chromium, found by what a reader sees.

Each test opens a fresh page of ``panel serve app/main.py`` (fixtures in
conftest.py), clicks buttons by their visible names and reads the page's
text. Chromium runs with every host except 127.0.0.1 unresolvable, and each
test checks that nothing else was requested. Screenshots go to
``tests/screenshots/`` (git-ignored).
"""

import re
from urllib.parse import urlparse

import pytest
from reading import assert_clean, has_text, no_horizontal_scroll, shot_at_both_widths
from playwright.sync_api import expect

import core

pytestmark = pytest.mark.browser

ACTIONS = ("Draft", "Verify", "Commit", "Next step", "Run block", "Run to end", "Reset")
STEP_ACTIONS = ("Draft", "Verify", "Commit", "Next step", "Run block", "Run to end")


def button(page, name):
    return page.get_by_role("button", name=name, exact=True)


def click(page, name):
    button(page, name).click()


def test_default_page_shows_title_intro_controls_and_explains_before_any_click(app_page):
    page = app_page.open()
    expect(page.get_by_text("Speculative decoding, one block at a time").first).to_be_visible()
    for name in ACTIONS:
        expect(button(page, name)).to_be_visible()
    for name in ("Aligned", "Biased", "Previous seed", "Next seed", "Write the embed code"):
        expect(button(page, name)).to_be_visible()
    expect(button(page, "Draft")).to_be_enabled()
    for name in ("Verify", "Commit", "Reset"):
        expect(button(page, name)).to_be_disabled()
    has_text(page, "Next: Draft asks the draft model to guess the next three tokens",
             "The rule (Leviathan et al. 2023, Algorithm 1)", "Algorithmic counts")
    assert no_horizontal_scroll(page)
    shot_at_both_widths(page, "default", narrow=360)


def test_aligned_draft_verify_commit_commits_four_tokens_after_one_target_pass(app_page):
    page = app_page.open()
    click(page, "Draft")
    expect(page.get_by_text("The draft model proposed three tokens").first).to_be_visible()
    expect(page.get_by_role("button", name="proposed")).to_have_count(3)
    click(page, "Verify")
    expect(page.get_by_text("every one was accepted").first).to_be_visible()
    expect(page.get_by_role("button", name="bonus")).to_have_count(1)
    click(page, "Commit")
    expect(page.get_by_text("4 of 8 tokens committed")).to_be_visible()
    has_text(page, "1 target pass used here", "4 committed",
             "Ordinary decoding needs one target pass per token: 4 for these 4 tokens. This run used 1")
    assert_clean(page)


def test_biased_seed_1_shows_rejection_correction_discards_and_the_empty_prefix_numbers(app_page):
    page = app_page.open("?draft=biased&width=3&seed=1")
    click(page, "Draft")
    click(page, "Verify")
    expect(page.get_by_role("button", name="rejected")).to_have_count(1)
    expect(page.get_by_role("button", name="correction")).to_have_count(1)
    expect(page.get_by_role("button", name="discarded")).to_have_count(1)
    has_text(page, "was drawn from the residual in its place", "discarded without a test")
    page.shoot("biased_seed1_block1_1200")
    # The first proposal was conditioned on the empty prefix.
    page.get_by_role("button", name="accepted").first.click()
    expect(page.get_by_role("heading", name="Block 1 · position 1 · proposal A")).to_be_visible()
    has_text(page, "draft q the draft's probabilities 0.80 0.15 0.05",
             "target p the target's probabilities 0.50 0.30 0.20", "0.00 0.50 0.50",
             "nothing: this is the start of the text")
    page.shoot("biased_seed1_position1_1200")
    page.get_by_role("button", name="rejected").click()
    page.shoot("biased_seed1_block1_360", width=360)
    assert no_horizontal_scroll(page)
    assert_clean(page)


def test_the_url_scenario_loads_and_control_changes_update_the_url(app_page):
    page = app_page.open("?draft=biased&width=3&seed=1")
    expect(button(page, "Biased")).to_have_class(re.compile("bk-active"))
    has_text(page, "seed 1")
    click(page, "Next seed")
    expect(page).to_have_url(re.compile(r"seed=2"))
    click(page, "Aligned")
    expect(page).to_have_url(re.compile(r"draft=aligned"))
    assert re.search(r"width=3", page.url)
    # Reloading the written URL opens the same scenario.
    page.open(urlparse(page.url).query and "?" + urlparse(page.url).query)
    expect(button(page, "Aligned")).to_have_class(re.compile("bk-active"))
    has_text(page, "the aligned draft, width 3, seed 2")
    assert_clean(page)


def test_control_changes_replace_the_history_entry_so_back_leaves_the_widget(app_page):
    page = app_page.open("?draft=biased&width=3&seed=1")
    entries = page.evaluate("history.length")
    for _ in range(3):
        click(page, "Next seed")
    expect(page).to_have_url(re.compile(r"seed=4"))
    click(page, "Aligned")
    expect(page).to_have_url(re.compile(r"draft=aligned&width=3&seed=4"))
    assert page.evaluate("history.length") == entries, "no history entry per control change"
    click(page, "Write the embed code")
    area = page.get_by_role("textbox", name="Embed code for this scenario")
    expect(area).to_have_value(re.compile(r"draft=aligned&width=3&seed=4"))
    assert_clean(page)


def test_a_link_with_a_4301_digit_tracker_value_still_opens_its_scenario(app_page):
    page = app_page.open("?draft=biased&width=3&seed=1&utm_id=" + "7" * 4301)
    expect(button(page, "Biased")).to_have_class(re.compile("bk-active"))
    has_text(page, "the biased draft, width 3, seed 1")
    click(page, "Next seed")
    expect(page).to_have_url(re.compile(r"seed=2&utm_id=7{4301}$"))
    assert_clean(page)


def test_changing_the_seed_resets_the_trace(app_page):
    page = app_page.open()
    click(page, "Run block")
    expect(page.get_by_text("4 of 8 tokens committed")).to_be_visible()
    click(page, "Next seed")
    expect(page.get_by_text("changed the seed to 1, so the trace started over").first).to_be_visible()
    expect(page.get_by_text("0 of 8 tokens committed")).to_be_visible()
    expect(button(page, "Draft")).to_be_enabled()
    assert_clean(page)


def test_run_to_end_stops_at_8_tokens_and_says_the_limit_is_reached(app_page):
    page = app_page.open("?draft=biased&width=3&seed=1")
    click(page, "Run to end")
    expect(page.get_by_text("8 of 8 tokens committed")).to_be_visible()
    for name in STEP_ACTIONS:
        expect(button(page, name)).to_be_disabled()
    expect(button(page, "Reset")).to_be_enabled()
    has_text(page, "the limit of this toy", "no end-of-sequence token")
    # One history line per finished block; a click opens the block in the inspector.
    lines = page.get_by_role("button", name=re.compile(r"^Block \d+: drafted"))
    expect(lines).to_have_count(len(core.simulate("biased", 3, 1).blocks))
    lines.first.click()
    expect(page.get_by_role("heading", name=re.compile(r"^Block 1 · position"))).to_be_visible()
    assert_clean(page)


def test_the_lookahead_toggle_changes_the_counters(app_page):
    from fractions import Fraction
    page = app_page.open("?draft=biased&width=6&seed=3")
    click(page, "Run to end")
    fixed = core.simulate("biased", 6, 3).counters
    has_text(page, "8 of 8 tokens committed", f"This run used {fixed.target_passes}",
             f"plus {fixed.draft_steps} cheap draft")
    assert "early stops" not in page.text()
    click(page, "Stop drafting early")
    has_text(page, "dynamic lookahead", "0 of 8 tokens committed")  # the trace restarted, and said why
    expect(page).to_have_url(re.compile(r"lookahead=0\.50"))
    click(page, "Run to end")
    early = core.simulate("biased", 6, 3, lookahead=Fraction(1, 2)).counters
    assert early.early_stops > 0 and early != fixed
    has_text(page, "early stops", f"This run used {early.target_passes}", f"plus {early.draft_steps} cheap draft")
    assert_clean(page)


def test_a_bad_url_value_shows_a_plain_text_notice_and_the_default(app_page):
    page = app_page.open("?width=12&draft=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E")
    expect(page.get_by_text("The link's width is not valid").first).to_be_visible()
    has_text(page, "The link's draft is not valid", "Tokens per block: 3")
    expect(button(page, "Aligned")).to_have_class(re.compile("bk-active"))
    assert page.evaluate("document.querySelectorAll('img[src=x]').length") == 0
    assert_clean(page)


def test_a_link_can_hide_controls_with_name_hide(app_page):
    page = app_page.open("?draft=biased&seed=1&draft_hide=1&embed_hide=1")
    expect(button(page, "Biased")).to_be_hidden()
    expect(button(page, "Write the embed code")).to_be_hidden()
    expect(button(page, "Next seed")).to_be_visible()
    has_text(page, "the biased draft, width 3, seed 1")
    assert_clean(page)


def test_buttons_work_from_the_keyboard(app_page):
    page = app_page.open()
    button(page, "Draft").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_text("The draft model proposed three tokens").first).to_be_visible()
    page.keyboard.press("Tab")  # Draft is now disabled, so focus moves on to Verify
    button(page, "Verify").focus()
    page.keyboard.press("Space")
    expect(page.get_by_text("every one was accepted").first).to_be_visible()
    assert_clean(page)


def test_layout_fits_from_360_to_1200_px_without_horizontal_scroll(app_page):
    page = app_page.open("?draft=biased&width=8&seed=3")
    click(page, "Draft")
    click(page, "Verify")
    for width in (360, 480, 768, 1024, 1200):
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(300)
        assert no_horizontal_scroll(page), width
    page.shoot("biased_width8_360", width=360)
    assert_clean(page)


def test_embed_code_holds_an_iframe_for_the_scenario_on_screen(app_page):
    page = app_page.open("?draft=biased&width=3&seed=1")
    click(page, "Draft")
    click(page, "Write the embed code")
    area = page.get_by_role("textbox", name="Embed code for this scenario")
    expect(area).to_have_value(re.compile(r'^<iframe src="http://127\.0\.0\.1:\d+/main\?draft=biased&width=3&seed=1&steps=1"'))
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    click(page, "Copy embed code")
    expect(button(page, "Copied")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == area.input_value()
    assert_clean(page)
