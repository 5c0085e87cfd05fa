"""Issue 28 in Chromium: the rules-in-the-wild cards ("Why it is exact") and the batch model
("When it pays off") under ``panel serve`` (conftest.py ``served_app``).

Expected numbers come from ``core``. Screenshots go to ``tests/screenshots/`` (git-ignored):
both tabs at 1200 and 375 px, and dark.
"""

from fractions import Fraction

import pytest
from reading import assert_clean, has_text, no_horizontal_scroll

from core import batch, display, exact
from core.rulecard import rule_card

from app.exact.words import fraction_and_decimal

pytestmark = pytest.mark.browser

EXACT, PAYOFF = "Why it is exact", "When it pays off"


def open_tab(page, title):
    page.locator(".bk-tab", has_text=title).click()
    has_text(page, title)


def test_the_cards_show_cores_distance_and_sources_and_the_picker_runs_a_wild_rule(app_page):
    page = app_page.open()
    open_tab(page, EXACT)
    typical = rule_card("typical")
    draft = rule_card("greedy-draft")
    has_text(page, "The rules in the wild", "jaymody/speculative-sampling#3", "vllm-project/vllm#40651",
             fraction_and_decimal(typical.distance), fraction_and_decimal(draft.distance),
             "Σp² = 19/50 = 0.38", "ε = 0.09 and δ = 0.3", timeout=30)
    page.get_by_role("heading", name="Typical acceptance (Medusa)").scroll_into_view_if_needed()
    page.shoot("exact_cards_1200")
    page.get_by_label("Verification rule").select_option("typical")
    distance = exact.compare("biased", 3, 2, "typical").distance
    has_text(page, "Typical acceptance (Medusa) · a shortcut", display.exact_or_dec(distance, 4))
    for width in (375, 360):
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(300)
        assert no_horizontal_scroll(page), width
    page.shoot("exact_cards_375", width=375)
    assert_clean(page)


def test_moving_b_moves_the_per_request_curve_to_cores_best_width(app_page):
    page = app_page.open()
    page.get_by_role("button", name="Biased", exact=True).first.click()
    open_tab(page, PAYOFF)
    has_text(page, "A toy cost model, not a measurement", "With a batch of b = 1, s = 16",
             "so the curve is the one above, exactly", "Real kernels, caches and schedulers differ", timeout=30)
    handle = page.get_by_role("slider", name="Requests in the batch b")
    handle.scroll_into_view_if_needed()
    page.shoot("payoff_batch_1200")
    handle.focus()
    for _ in range(7):
        handle.press("ArrowRight")  # b = 8
    t = batch.batch_table("biased", Fraction(1, 10), 8, 16)
    has_text(page, "With a batch of b = 8, s = 16", f"width {t.best_width} is best",
             f"{display.dec(t.best.speedup, 2)}×", display.dec(t.best.throughput), timeout=20)
    page.shoot("payoff_batch_b8_1200")
    page.get_by_role("button", name="Lookup", exact=True).first.click()
    has_text(page, "the lookup draft's proposals vary with the text, so it is left out here", timeout=20)
    for width in (375, 360):
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(300)
        assert no_horizontal_scroll(page), width
    page.get_by_role("button", name="Biased", exact=True).first.click()
    has_text(page, "With a batch of b = 8, s = 16", timeout=20)
    page.shoot("payoff_batch_375", width=375)
    assert_clean(page)


@pytest.mark.parametrize("title, name", [(EXACT, "exact"), (PAYOFF, "payoff")])
def test_both_tabs_in_the_dark_and_on_a_phone(app_page, title, name):
    page = app_page.open("?theme=dark&draft=biased")
    open_tab(page, title)
    has_text(page, "The rules in the wild" if title == EXACT else "A toy cost model", timeout=30)
    page.shoot(f"{name}_issue28_dark_1200")
    page.shoot(f"{name}_issue28_375", width=375)
    assert no_horizontal_scroll(page)
    assert_clean(page)
