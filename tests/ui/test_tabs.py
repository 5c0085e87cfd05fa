"""The "Why it is exact" and "When it pays off" tabs in Chromium.

Same fixtures as ``test_main_view.py`` (conftest.py): ``panel serve
app/main.py`` on 127.0.0.1, Debian's Chromium with every other host
unresolvable, fields found by their labels and buttons by their names.
Expected numbers come from ``core`` (the page must show core's numbers).
Screenshots go to ``tests/screenshots/`` (git-ignored).
"""

from fractions import Fraction

import pytest
from reading import assert_clean, has_text, no_horizontal_scroll

import core
from core import display, exact, payoff

pytestmark = pytest.mark.browser

EXACT, PAYOFF = "Why it is exact", "When it pays off"


def open_tab(page, title):
    page.locator(".bk-tab", has_text=title).click()
    has_text(page, title)


def test_exact_tab_renders_and_switching_the_rule_changes_the_distance(app_page):
    page = app_page.open()
    open_tab(page, EXACT)
    has_text(page, "keeps the target's distribution", "Sampled 20,000 runs")
    page.shoot("exact_tab_1200")
    page.get_by_label("Verification rule").select_option("naive-resample")
    distance = exact.compare("biased", 3, 2, "naive-resample").distance
    has_text(page, display.exact_or_dec(distance, 4), "too often", "clearly differ from the target")
    page.get_by_label("Verification rule").select_option("match-keep")
    has_text(page, "The match-keep rule keeps the target's distribution")
    page.shoot("exact_tab_match_keep_1200")
    assert_clean(page)


def test_bad_calculator_input_shows_a_message_beside_the_field(app_page):
    page = app_page.open()
    open_tab(page, EXACT)
    field = page.get_by_label("Target p for A, B, C")
    field.fill("0.5, 0.6, abc")
    field.press("Enter")
    has_text(page, "is not a number", "Fix the field marked above")
    field.fill("0.5, 0.3, 0.1")
    field.press("Enter")
    with pytest.raises(ValueError) as error:
        core.parse_distribution("0.5, 0.3, 0.1")
    has_text(page, str(error.value)[1:40])  # core's own message (capitalised on the page)
    field.fill("0.5, 0.3, 0.2")
    field.press("Enter")
    has_text(page, "final = p, exactly", "rejection probability: 0.3")
    assert_clean(page)


def test_a_long_sample_shows_progress_and_the_page_stays_usable(app_page):
    page = app_page.open()
    open_tab(page, EXACT)
    has_text(page, "Sampled 20,000 runs")
    page.get_by_label("Runs").select_option("100,000")
    has_text(page, "Sampling… ", timeout=3)
    # A click while sampling is handled at once and starts the sample over for the new setting.
    page.get_by_role("button", name="1", exact=True).click()
    has_text(page, "each of the 3 possible first tokens", timeout=5)
    has_text(page, "Sampled 100,000 runs", timeout=60)
    assert_clean(page)


def test_the_trace_on_the_first_tab_is_compared_with_ordinary_decoding(app_page):
    page = app_page.open()
    page.get_by_role("button", name="Biased", exact=True).first.click()
    open_tab(page, EXACT)
    has_text(page, "Same distribution, different trace", "seed 0, biased draft, width 3", "Speculative", "Ordinary")
    assert_clean(page)


def test_payoff_tab_renders_and_moving_c_moves_the_best_width(app_page):
    page = app_page.open()
    page.get_by_role("button", name="Biased", exact=True).first.click()
    open_tab(page, PAYOFF)
    start = payoff.payoff_table("biased", Fraction("0.1")).best_width
    has_text(page, f"c = 0.10, width {start} is best")
    page.shoot("payoff_tab_1200")
    handle = page.locator(".noUi-handle").filter(visible=True).first  # the c slider: first on this tab
    handle.focus()
    handle.press("End")  # c = 1: drafting as slow as the target
    has_text(page, "c = 1.00", "no width pays off", timeout=20)
    worst = payoff.payoff_table("biased", Fraction(1)).best_width
    assert worst != start
    has_text(page, f"even the best, width {worst}")
    assert_clean(page)


def test_lookahead_curves_and_the_trace_point(app_page):
    page = app_page.open()
    page.get_by_role("button", name="Biased", exact=True).first.click()
    page.get_by_role("button", name="Run to end", exact=True).click()
    open_tab(page, PAYOFF)
    has_text(page, "Your trace on the first tab (biased draft, width 3, seed 0)")
    page.get_by_role("button", name="Add the lookahead curves").click()
    has_text(page, "With threshold 0.30", "backfires", "keeps going exactly where it may be corrected", timeout=20)
    page.shoot("payoff_tab_lookahead_1200")
    assert_clean(page)


@pytest.mark.parametrize("title, name", [(EXACT, "exact_tab"), (PAYOFF, "payoff_tab")])
def test_tabs_fit_from_360_to_1200_px_without_horizontal_scroll(app_page, title, name):
    page = app_page.open()
    open_tab(page, title)
    for width in (1200, 800, 480, 375, 360):
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(300)
        assert no_horizontal_scroll(page), width
    page.shoot(f"{name}_375", width=375)
    page.shoot(f"{name}_360", width=360)
    assert_clean(page)
