"""Issue 23 in Chromium: a locked link (item 1) and the guesses tab's drafts (item 7).

Screenshots at 1200 and 375 px go to ``tests/screenshots/``.
"""

import pytest
from playwright.sync_api import expect
from reading import assert_clean, has_text, shot_at_both_widths

from app.i18n import t

pytestmark = pytest.mark.browser


def button(page, name):
    return page.get_by_role("button", name=name, exact=True)


def test_a_locked_link_shows_its_controls_fixed_and_says_why(app_page):
    page = app_page.open("?draft=biased&width=3&seed=1&lock=1")
    has_text(page, t("step.locked"))
    for name in ("2 · A draft too fond of A", "Heuristic", "Fixed width", "Aligned", t("step.lookahead.toggle")):
        expect(button(page, name)).to_be_disabled()
    for seed_step in (".sp-seed-down button", ".sp-seed-up button"):
        expect(page.locator(seed_step)).to_be_disabled()
    expect(page.locator(".sp-seed-input input").first).to_be_disabled()
    has_text(page, "seed 1")  # the link's scenario, in the caption
    button(page, "Draft").click()  # the trace still runs
    expect(page.get_by_role("button", name="proposed")).to_have_count(3)
    shot_at_both_widths(page, "locked_biased")


def test_the_guesses_tab_offers_only_drafts_that_can_run_a_tree(app_page):
    page = app_page.open("?tab=guesses")
    page.get_by_role("tab", name=t("tab.guesses")).wait_for()
    has_text(page, t("guesses.help.no_tree", drafts=t("guesses.help.and", rest=t("draft.lookup"),
                                                       last=t("draft.heads"))), timeout=60)
    tab = page.locator(".guesses-tab").first
    expect(tab.get_by_role("button", name="Biased", exact=True)).to_be_visible()
    expect(tab.get_by_role("button", name="Lookup", exact=True)).to_have_count(0)
    expect(tab.get_by_role("button", name="Heads", exact=True)).to_have_count(0)
    tab.get_by_role("button", name="Aligned", exact=True).click()
    has_text(page, "aligned")
    assert "cannot run" not in page.text()
    shot_at_both_widths(page, "guesses_drafts")
    assert_clean(page)


SLIDER_TABS_JS = """(root) => { const found = []; const walk = (node) => {
    if (node.shadowRoot) walk(node.shadowRoot);
    for (const el of node.querySelectorAll('*')) {
      if (el.getAttribute('role') === 'slider') found.push(el.getAttribute('tabindex'));
      if (el.shadowRoot) walk(el.shadowRoot); } }; walk(root); return found; }"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_locked_link_opened_on_the_guesses_tab_fixes_its_scenario_there_too(app_page, lang):
    from app import i18n

    i18n.set_language(lang)
    try:
        line, draft_label, biased, aligned = t("step.locked"), t("step.label.draft"), t("draft.biased"), \
            t("draft.aligned")
    finally:
        i18n.set_language("en")
    page = app_page
    page.goto(page.base_url + f"?tab=guesses&lock=1&gdraft=biased&gk=3&gwidth=2&gseed=5&lang={lang}")
    tab = page.locator(".guesses-tab").first
    expect(tab.get_by_text(line)).to_be_visible(timeout=60_000)
    for name in (biased, aligned):
        expect(tab.get_by_role("button", name=name, exact=True)).to_be_disabled()
    expect(tab.locator(".sp-seed-input input").first).to_be_disabled()
    expect(tab.locator(".sp-seed-input input").first).to_have_value("5")
    # The k and depth sliders: no Tab stop while disabled (page.js, as the step tab's)
    page.wait_for_timeout(300)
    handles = tab.evaluate(SLIDER_TABS_JS)
    assert len(handles) == 2 and all(h == "-1" for h in handles), handles
    draft = tab.get_by_role("button", name=draft_label, exact=True)
    expect(draft).to_be_enabled()  # the fixed scenario still walks
    draft.click()
    expect(tab.get_by_role("button", name=draft_label, exact=True)).to_be_disabled()  # drafted: Verify is next
    if lang == "en":
        shot_at_both_widths(page, "locked_guesses")
    assert_clean(page)
