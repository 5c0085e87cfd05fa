"""Predict first (issue 28, item 1) for everyone: axe-core finds no critical or serious problem while
the calls are asked, after Verify reveals them, while the correction's tokens are asked and after they are
judged, at 1200 and 375 px and in the dark; the calls and the token toggles work by keyboard alone (focus,
Enter or Space) and say whether they are pressed.
"""

import pytest
from embed_support import WIDTHS, app_url, axe_violations, browser, open_app, page  # noqa: F401 (fixtures)
from playwright.sync_api import expect

from app.step import predict_words

pytestmark = pytest.mark.browser

LINK = "?draft=biased&width=3&seed=1&predict=1"


@pytest.mark.parametrize("width,theme", [(w, "light") for w in WIDTHS] + [(1200, "dark")])
def test_axe_is_clean_while_calling_and_after_the_reveal(page, app_url, width, theme):
    p = open_app(page(width), app_url, LINK + f"&theme={theme}")
    p.get_by_role("button", name="Draft", exact=True).click()
    first = p.get_by_role("button", name=predict_words.call_label(1, "A", "kept"), exact=True)
    first.wait_for(timeout=30_000)
    found = {"calling": axe_violations(p)}
    for position, token, verdict in ((1, "A", "kept"), (2, "A", "rejected"), (3, "B", "kept")):
        call = p.get_by_role("button", name=predict_words.call_label(position, token, verdict), exact=True)
        call.focus()
        p.keyboard.press("Enter")
        expect(call).to_have_attribute("aria-pressed", "true", timeout=20_000)
    found["called"] = axe_violations(p)
    verify = p.get_by_role("button", name="Verify", exact=True)
    expect(verify).to_be_enabled(timeout=20_000)
    verify.click()
    p.get_by_text("Your calls, judged").first.wait_for(timeout=30_000)
    found["revealed"] = axe_violations(p)
    # After the rejection: the correction's question (a toggle per token, Confirm disabled until one is marked).
    toggle = p.get_by_role("button", name=predict_words.toggle_aria("B"), exact=True)
    toggle.wait_for(timeout=30_000)
    found["asked"] = axe_violations(p)
    toggle.focus()
    p.keyboard.press("Space")
    expect(toggle).to_have_attribute("aria-pressed", "true", timeout=20_000)
    found["marked"] = axe_violations(p)
    confirm = p.get_by_role("button", name="Confirm the tokens you marked", exact=True)
    expect(confirm).to_be_enabled(timeout=20_000)
    confirm.focus()
    p.keyboard.press("Enter")
    p.get_by_text("The correction's tokens, judged").first.wait_for(timeout=30_000)
    found["support revealed"] = axe_violations(p)
    problems = {state: v for state, v in found.items() if v}
    assert not problems, problems
