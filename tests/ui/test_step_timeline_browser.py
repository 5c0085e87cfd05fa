"""Step back, the timeline and Play of "Step through a block" in Chromium under ``panel serve`` (issue 26).

The screen is compared as a reader sees it: the page's whole visible text, shadow roots included.
"""

import re

import pytest
from playwright.sync_api import expect
from reading import assert_clean, has_text, shot_at_both_widths

from core import Config
from core.timeline import Timeline

pytestmark = pytest.mark.browser

BIASED = "?draft=biased&width=3&seed=1"
LAST = Timeline.of(Config("biased", 3, 1)).last

# The visible text of the step tab, shadow roots included; `skip` names classes left out.
TAB_TEXT_JS = """
(skip) => {
  const parts = [];
  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) { parts.push(node.textContent); return; }
    if (node.nodeType !== Node.ELEMENT_NODE && node.nodeType !== Node.DOCUMENT_FRAGMENT_NODE) return;
    if (node.tagName === 'SCRIPT' || node.tagName === 'STYLE') return;
    if (node.classList && skip.some((c) => node.classList.contains(c))) return;
    if (node.classList && node.classList.contains('bk-tooltip')) return;  // a hover's tooltip is not the state
    if (node.shadowRoot) walk(node.shadowRoot);
    for (const child of node.childNodes) walk(child);
    if (node.tagName === 'TEXTAREA' || node.tagName === 'INPUT') parts.push(node.value || '');
  };
  walk(document.body);
  return parts.join(' ').replace(/\\s+/g, ' ');
}
"""


def button(page, name):
    return page.get_by_role("button", name=name, exact=True)


def at_moment(page, n, last=LAST):
    has_text(page, f"moment {n} of {last}", timeout=30)
    page.wait_for_timeout(300)  # one patch per click, but let any stray one arrive before reading
    page.mouse.move(0, 0)


def screen(page, skip=()):
    """The page's text; the hidden input a chip's or a moment's click writes to is no part of the screen."""
    return page.evaluate(TAB_TEXT_JS, ["sp-open", *skip])


def next_steps(page, n, start=0):
    for k in range(start + 1, start + n + 1):
        button(page, "Next step").click()
        at_moment(page, k)


def test_five_next_steps_then_step_back_is_the_screen_of_four_next_steps(app_page):
    page = app_page.open(BIASED)
    expect(button(page, "Step back")).to_be_disabled()
    next_steps(page, 4)
    four = screen(page)
    assert "moment 4 of" in four
    next_steps(page, 1, start=4)
    assert screen(page) != four
    button(page, "Step back").click()
    at_moment(page, 4)
    assert screen(page) == four
    assert re.search(r"[?&]steps=4(&|$)", page.url), page.url
    page.keyboard.press("b")  # the key of Step back
    at_moment(page, 3)
    assert re.search(r"[?&]steps=3(&|$)", page.url), page.url
    assert_clean(page)


def test_a_steps_4_link_opens_on_the_screen_of_four_clicks(app_page):
    page = app_page.open(BIASED)
    next_steps(page, 4)
    clicked = screen(page, skip=["happened"])  # the caption's sentence says a link opened it
    page.goto(app_page.base_url + BIASED + "&steps=4")
    at_moment(page, 4)
    assert screen(page, skip=["happened"]) == clicked
    has_text(page, "It replayed four steps.")
    assert_clean(page)


def test_a_click_on_the_timeline_jumps_and_the_arrow_keys_move_one_step(app_page):
    page = app_page.open(BIASED)
    next_steps(page, 2)
    two = screen(page)
    button(page, "Run to end").click()
    at_moment(page, LAST)
    page.get_by_role("button", name=re.compile(r"^Moment 2: ")).click()
    at_moment(page, 2)
    assert screen(page) == two
    assert re.search(r"[?&]steps=2(&|$)", page.url), page.url
    # The strip is one Tab stop: the moment on screen.
    strip = page.get_by_role("toolbar")
    expect(strip.locator('[tabindex="0"]')).to_have_count(1)
    expect(strip.locator('[aria-current="step"]')).to_have_attribute("data-sp-open", "moment:2")
    strip.locator('[aria-current="step"]').focus()
    page.keyboard.press("ArrowRight")
    at_moment(page, 3)
    page.keyboard.press("ArrowRight")  # the focus stayed on the strip, on the pressed moment
    at_moment(page, 4)
    page.keyboard.press("Home")
    at_moment(page, 0)
    expect(button(page, "Step back")).to_be_disabled()
    assert_clean(page)


def test_a_jump_is_one_patch_and_quick(app_page):
    page = app_page.open(BIASED)
    frames = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(f) if '"PATCH-DOC"' in str(f) else None))
    page.reload()
    button(page, "Draft").wait_for(state="visible", timeout=30_000)
    page.wait_for_timeout(1000)
    times = []
    for n in (LAST, 2, 7, 0, 5):
        before = len(frames)
        ms = page.evaluate("""(n) => new Promise((done) => {
          const find = (root) => { for (const el of root.querySelectorAll('*')) {
            if (el.getAttribute('data-sp-open') === 'moment:' + n) return el;
            if (el.shadowRoot) { const f = find(el.shadowRoot); if (f) return f; } } return null; };
          const target = find(document);
          const t0 = performance.now();
          const check = () => { const now = find(document);
            if (now && now !== target && now.getAttribute('aria-current') === 'step') done(performance.now() - t0);
            else requestAnimationFrame(check); };
          target.click(); requestAnimationFrame(check); })""", n)
        at_moment(page, n)
        times.append(ms)
        # One PATCH-DOC message from the server per jump (its header frame names the type).
        assert len(frames) - before == 1, (n, frames[before:])
    print("timeline jump click -> redrawn (ms):", [round(t) for t in times])


def test_play_steps_by_itself_and_stops_at_the_end(app_page):
    page = app_page.open("?draft=biased&width=3&seed=1&steps=" + str(LAST - 4))
    at_moment(page, LAST - 4)
    page.get_by_role("button", name="Fast", exact=True).click()
    button(page, "Play").click()
    expect(button(page, "Pause")).to_be_visible()
    has_text(page, f"moment {LAST} of {LAST}", timeout=30)
    expect(button(page, "Play")).to_be_visible(timeout=10_000)
    expect(button(page, "Play")).to_be_disabled()
    assert_clean(page)


def test_any_other_click_pauses_play(app_page):
    page = app_page.open(BIASED)
    page.get_by_role("button", name="Slow", exact=True).click()
    button(page, "Play").click()
    at_moment(page, 1)
    page.locator("h1").click()  # a click anywhere else
    expect(button(page, "Play")).to_be_visible()
    page.wait_for_timeout(2500)  # longer than a slow step
    has_text(page, f"moment 1 of {LAST}")
    assert_clean(page)


TRANSITION_JS = """() => { let out = null; const walk = (root) => { for (const el of root.querySelectorAll('*')) {
  if (!out && el.classList.contains('tl-step')) out = getComputedStyle(el).transitionDuration;
  if (el.shadowRoot) walk(el.shadowRoot); } }; walk(document); return out; }"""


@pytest.mark.parametrize("motion, moving", [("no-preference", True), ("reduce", False)])
def test_reduced_motion_turns_the_transitions_off(chromium, served_app, motion, moving):
    context = chromium.new_context(viewport={"width": 1200, "height": 900}, reduced_motion=motion)
    try:
        page = context.new_page()
        page.goto(served_app + BIASED)
        button(page, "Draft").wait_for(state="visible", timeout=30_000)
        durations = page.evaluate(TRANSITION_JS)
        assert durations is not None
        assert any(float(d.rstrip("s")) > 0 for d in durations.split(",")) == moving, durations
        button(page, "Draft").click()
        page.get_by_role("button", name="proposed").first.wait_for(timeout=30_000)
        animation = page.evaluate("""() => { let out = null; const walk = (root) => {
          for (const el of root.querySelectorAll('*')) {
            if (!out && el.classList.contains('chip-button')) out = getComputedStyle(el).animationName;
            if (el.shadowRoot) walk(el.shadowRoot); } }; walk(document); return out; }""")
        assert (animation != "none") == moving, animation  # a proposal appears, or is simply there
    finally:
        context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots_of_the_timeline(app_page, scheme):
    page = app_page.open(BIASED + f"&theme={scheme}&steps=5")
    at_moment(page, 5)
    shot_at_both_widths(page, f"timeline_{scheme}")


def test_the_guesses_tab_opens_on_its_moment_and_steps_back(app_page):
    page = app_page.open("?tab=guesses&gdraft=aligned&gk=3&gsteps=2")
    back = button(page, "Step back")
    expect(back).to_be_enabled(timeout=30_000)
    has_text(page, "Next: Commit")  # moment 2: the tree drafted and verified
    back.click()
    page.wait_for_function("() => /[?&]gsteps=1(&|$)/.test(location.search)", timeout=30_000)
    assert "gdraft=aligned" in page.url and "gk=3" in page.url
    back.click()
    expect(back).to_be_disabled(timeout=30_000)
    page.wait_for_function("() => !/gsteps=/.test(location.search)", timeout=30_000)
    shot_at_both_widths(page, "guesses_step_back")
