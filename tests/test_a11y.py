"""Access for everyone (issue 14 item 4): axe-core finds no critical or serious problem in any
tab or state at 1200 and 375 px; real tabs; every control named; toggles say whether they are
pressed; a main landmark; the whole step walk by keyboard alone.

The app runs under ``panel serve`` on 127.0.0.1 and is driven in Debian's Chromium by roles
and names, as a screen reader finds things (tests/embed_support.py).
"""

import pytest
from playwright.sync_api import expect
from html_support import widget_text_contrast
from embed_support import WIDTHS, app_url, axe_violations, browser, focused, new_page, open_app, open_tab, page  # noqa: F401 (fixtures)

from app import main
from app.page import words as page_words
from app.step import words as step_words
from app.step.model import StepModel

pytestmark = pytest.mark.browser

BIASED = "?draft=biased&width=3&seed=1"
STEP, EXACT, PAYOFF, GUESSES = ("Step through a block", "Why it is exact", "When it pays off",
                                 "Several guesses at once")


def click(page, name):
    page.get_by_role("button", name=name, exact=True).click()
    page.wait_for_timeout(300)


def wait_built(page, title):
    """The tab's placeholder ("Opening …") has given way to the tab itself."""
    page.get_by_role("tabpanel", name=title).get_by_text(f"Opening “{title}”").wait_for(
        state="detached", timeout=60_000)
    page.wait_for_timeout(500)


@pytest.mark.parametrize("width,theme", [(w, "light") for w in WIDTHS] + [(1200, "dark")])
def test_axe_finds_no_critical_or_serious_violation_in_any_tab_or_state(page, app_url, width, theme):
    p = open_app(page(width), app_url, BIASED + f"&theme={theme}")
    found = {}
    found["start"] = axe_violations(p)
    for action in ("Draft", "Verify", "Commit"):
        click(p, action)
        found[action] = axe_violations(p)
    click(p, "Stop drafting early")
    found["lookahead on"] = axe_violations(p)
    click(p, "Run to end")
    found["run to end"] = axe_violations(p)
    open_tab(p, EXACT)
    wait_built(p, EXACT)
    found[EXACT] = axe_violations(p)
    open_tab(p, PAYOFF)
    wait_built(p, PAYOFF)
    found[PAYOFF] = axe_violations(p)
    open_tab(p, GUESSES)
    wait_built(p, GUESSES)
    found[GUESSES] = axe_violations(p)
    open_tab(p, STEP)
    found["step again, other tabs built"] = axe_violations(p)
    problems = {state: v for state, v in found.items() if v}
    assert not problems, problems
    # The check can fail: a control with no name is reported.
    p.evaluate("() => { const b = document.createElement('button'); b.id = 'nameless'; document.body.append(b); }")
    assert any(v[0] == "button-name" for v in axe_violations(p))


def test_tabs_are_a_tablist_first_in_the_tab_order_with_arrow_keys(page, app_url):
    p = open_app(page(), app_url)
    tablist = p.get_by_role("tablist", name=page_words.TABS_LABEL)
    assert tablist.get_by_role("tab").count() == len(main.TABS)
    assert p.get_by_role("tab", name=STEP, selected=True).count() == 1
    assert p.get_by_role("main").count() == 1
    # The first Tab stop is the language switch's other language, then the Present button, then the selected
    # tab (not the last of 25).
    p.keyboard.press("Tab")
    assert focused(p)["text"] == "中文"
    p.keyboard.press("Tab")
    assert focused(p)["text"] == "Present"
    p.keyboard.press("Tab")
    assert focused(p)["role"] == "tab" and focused(p)["text"] == STEP
    p.keyboard.press("ArrowRight")
    p.get_by_role("tab", name=EXACT, selected=True).wait_for(timeout=30_000)
    assert focused(p)["text"] == EXACT
    wait_built(p, EXACT)
    # Only the shown panel is there for the keyboard and screen readers.
    assert p.get_by_role("tabpanel").count() == 1
    assert p.get_by_role("button", name="Draft", exact=True).count() == 0
    p.keyboard.press("End")
    p.get_by_role("tab", name=GUESSES, selected=True).wait_for(timeout=30_000)
    p.keyboard.press("Home")
    p.get_by_role("tab", name=STEP, selected=True).wait_for(timeout=30_000)
    p.keyboard.press("ArrowLeft")  # wraps round to the last tab
    p.get_by_role("tab", name=GUESSES, selected=True).wait_for(timeout=30_000)
    assert [focused(p)["selected"]] == ["true"]


def test_every_control_has_a_name_and_toggles_say_whether_they_are_pressed(page, app_url):
    p = open_app(page(), app_url, BIASED)
    for role, name in (("textbox", "Seed"), ("button", "Previous seed"), ("button", "Next seed"),
                       ("slider", StepModel.param.width.label), ("slider", "Lookahead threshold")):
        assert p.get_by_role(role, name=name, exact=True).count() == 1, (role, name)
    assert p.get_by_role("button", name="Biased", pressed=True).count() == 1
    assert p.get_by_role("button", name="Aligned", pressed=False).count() == 1
    assert p.get_by_role("button", name="Stop drafting early", pressed=False).count() == 1
    click(p, "Stop drafting early")
    p.get_by_role("button", name="Stop drafting early", pressed=True).wait_for(timeout=30_000)
    click(p, "Aligned")
    p.get_by_role("button", name="Aligned", pressed=True).wait_for(timeout=30_000)
    assert p.get_by_role("button", name="Biased", pressed=False).count() == 1
    # The inspector's charts are no Tab stops and each is one image named by every bar (app/step/bars.py).
    charts = p.evaluate("""() => { const out = []; const walk = (r) => { for (const el of r.querySelectorAll('*')) {
        if (el.classList.contains('bars')) {
          const stops = [...el.querySelectorAll('*')].filter((c) => c.tabIndex >= 0).length;
          out.push([el.getAttribute('role'), el.getAttribute('aria-label'), stops]); }
        if (el.shadowRoot) walk(el.shadowRoot); } }; walk(document); return out; }""")
    assert len(charts) >= 2
    assert all(role == "img" and stops == 0 for role, _, stops in charts), charts
    assert any("draft q(A) = 0.50" in name and "target p(A) = 0.50" in name for _, name, _ in charts), charts  # aligned: q = p


@pytest.mark.parametrize("width", WIDTHS)
def test_a_keyboard_alone_walks_draft_verify_commit_and_the_shortcuts_are_listed(page, app_url, width):
    p = open_app(page(width=width), app_url, BIASED)
    line = page_words.shortcuts_line(step_words.SHORTCUT_LABELS)
    # Listed under the buttons; on a phone's width the line gives its room to the sticky bar,
    # and the keys work all the same (a narrow window with a keyboard).
    p.get_by_text(line).wait_for(state="visible" if width > 600 else "hidden", timeout=10_000)
    # Tab to Draft and press Enter.
    for _ in range(40):
        p.keyboard.press("Tab")
        if focused(p)["text"] == "Draft":
            break
    assert focused(p)["text"] == "Draft"
    expect(p.get_by_role("button", name="Verify", exact=True)).to_be_disabled()
    p.keyboard.press("Enter")
    # Verify is on the page from the start: wait until the draft has enabled it.
    expect(p.get_by_role("button", name="Verify", exact=True)).to_be_enabled(timeout=30_000)
    # Then the letters: V verifies, C commits (focus stays off any text field).
    p.locator("h1").click()
    p.keyboard.press("v")
    expect(p.get_by_role("button", name="Commit", exact=True)).to_be_enabled(timeout=30_000)
    p.keyboard.press("c")
    # The output's block label (the timeline names every block from the start).
    output_block = p.locator('[aria-label="Committed output"]').get_by_text("block 1", exact=True)
    output_block.wait_for(timeout=30_000)
    # A letter typed into the seed box is text, not a shortcut.
    seed = p.get_by_role("textbox", name="Seed")
    seed.focus()
    p.keyboard.press("r")
    p.wait_for_timeout(500)
    assert output_block.count() == 1
    # R resets from anywhere else.
    p.locator("h1").click()
    p.keyboard.press("r")
    output_block.wait_for(state="detached", timeout=30_000)


def test_a_chip_and_a_history_line_open_from_the_keyboard_and_keep_the_focus(page, app_url):
    """Chips and history lines are HTML buttons, redrawn by Python after a click: the focus comes back."""
    p = open_app(page(), app_url, BIASED)
    click(p, "Draft")
    click(p, "Verify")
    chip = p.get_by_role("button", name="discarded")
    chip.wait_for(timeout=30_000)
    chip.focus()
    assert focused(p)["text"] == "B discarded"
    p.keyboard.press("Enter")
    p.get_by_role("heading", name="Block 1 · position 3").wait_for(timeout=30_000)
    p.wait_for_timeout(300)
    assert "discarded" in focused(p)["text"], focused(p)  # the redrawn chip has the focus again
    p.keyboard.press("Shift+Tab")
    p.keyboard.press("Space")  # the correction before it: its rejected proposal, position 2
    p.get_by_role("heading", name="Block 1 · position 2").wait_for(timeout=30_000)
    p.wait_for_timeout(300)
    assert "correction" in focused(p)["text"], focused(p)
    click(p, "Commit")
    click(p, "Run block")
    line = p.get_by_role("button", name="Block 1:")
    line.wait_for(timeout=30_000)
    line.focus()
    p.keyboard.press("Enter")
    p.get_by_role("heading", name="Block 1 · position 2").wait_for(timeout=30_000)
    p.wait_for_timeout(300)
    assert focused(p)["text"].startswith("Block 1:"), focused(p)


def body_colour(p):
    return p.evaluate("() => getComputedStyle(document.body).backgroundColor")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_widget_text_is_readable_in_both_themes(page, app_url, theme):
    """Inputs and buttons (Bokeh's and Panel's, inside shadow roots) follow the page's palette: 4.5:1 at least."""
    p = open_app(page(), app_url, f"{BIASED}&theme={theme}")
    names, poor = widget_text_contrast(p)
    assert {"Lookup", "Stop drafting early", "1"} <= names, names  # an outline button, a toggle, the seed box
    assert not poor, poor


def test_dark_mode_follows_the_readers_setting_and_the_url_overrides_it(page, app_url):
    light = body_colour(open_app(page(), app_url))
    auto_dark = body_colour(open_app(page(color_scheme="dark"), app_url))
    forced_light = body_colour(open_app(page(color_scheme="dark"), app_url, "?theme=light"))
    forced_dark = body_colour(open_app(page(), app_url, "?theme=dark"))
    assert light == forced_light != auto_dark == forced_dark
    assert auto_dark == "rgb(16, 19, 23)"  # --sp-page of the dark palette (app/styles/page.css)
