"""A 375 px phone (issue 14 item 5): the caption and the action buttons stay within reach while
the reader scrolls (a sticky bar), the inspector is one tap away, and "Stop drafting early"
folds to its toggle while it is off. At 1200 px none of this changes the page.

The app runs under ``panel serve`` on 127.0.0.1 in Debian's Chromium (tests/embed_support.py).
"""

import pytest
from playwright.sync_api import expect
from embed_support import SCREENSHOTS, app_url, browser, host_page, host_site, open_app, page  # noqa: F401 (fixtures)

from app.embed import snippet
from app.page import words as page_words
from app.i18n import t

pytestmark = pytest.mark.browser

PHONE, DESKTOP = 375, 1200
HEIGHT = 800  # the viewport height of every page here


# The boxes of the sticky elements of the page that take space, shadow roots included: [top, bottom, scrollHeight, clientHeight].
STICKY_JS = """() => { const found = [];
  const walk = (root) => { for (const el of root.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    if (getComputedStyle(el).position === "sticky" && r.height > 0) found.push([r.top, r.bottom, el.scrollHeight, el.clientHeight]);
    if (el.shadowRoot) walk(el.shadowRoot); } };
  walk(document); return found; }"""


# A loaded machine, made on purpose: once window.spSlow is set, each message the server sends over the
# websocket reaches the page spSlow ms late, in order (a listener added before Bokeh's holds it back).
SLOW_SOCKET_JS = """(() => { const Native = window.WebSocket;
  window.WebSocket = class extends Native { constructor(...args) { super(...args);
    this.addEventListener("message", (event) => {
      if (!window.spSlow || event.spLate) return;
      event.stopImmediatePropagation();
      setTimeout(() => { const late = new MessageEvent("message", { data: event.data }); late.spLate = true;
                         this.dispatchEvent(late); }, window.spSlow); }); } }; })();"""


def box(locator):
    """The element's box in the viewport (None when it is not rendered)."""
    return locator.bounding_box()


def threshold(p):
    return p.locator(".sp-threshold").first


def help_line(p):
    return p.get_by_text(t("step.help.lookahead"), exact=True)


def open_help(p):
    """Open the lookahead's help: a click on its name or the "?" beside it."""
    p.locator("summary", has_text=t("step.field.lookahead")).click()


def scroll_and_settle(p, do):
    """``do()`` scrolls the page (a wheel, a smooth scroll): return once it has stopped (the document's
    scrollend event), however long that takes."""
    p.evaluate("""() => { window.spScrolled = false;
      document.addEventListener("scrollend", () => { window.spScrolled = true; }, { once: true }); }""")
    do()
    p.wait_for_function("() => window.spScrolled", timeout=20_000)


def test_on_a_phone_lookahead_folds_to_its_toggle_until_it_is_turned_on(page, app_url):
    p = page(PHONE, HEIGHT)
    p.add_init_script(SLOW_SOCKET_JS)
    open_app(p, app_url)
    toggle = p.get_by_role("button", name=t("step.lookahead.toggle"), exact=True)
    assert toggle.is_visible()
    assert not threshold(p).is_visible() and not help_line(p).is_visible()
    # Quiet, then as under load: the test waits for the server's answer, not for a guess at its time.
    for slow in (0, 700):
        p.evaluate("(ms) => { window.spSlow = ms; }", slow)
        toggle.click()
        expect(threshold(p)).to_be_visible(timeout=20_000)
        if not slow:  # (the help stays open after)
            open_help(p)  # the help waits behind its "?" (issue 26), folded or not
            expect(help_line(p)).to_be_visible()
        toggle.click()
        expect(threshold(p)).to_be_hidden(timeout=20_000)


def test_on_a_wide_screen_the_threshold_stays_shown_while_off_and_its_help_is_one_click_away(page, app_url):
    p = open_app(page(DESKTOP, HEIGHT), app_url)
    assert threshold(p).is_visible() and not help_line(p).is_visible()
    open_help(p)
    expect(help_line(p)).to_be_visible()


def test_on_a_phone_the_buttons_stay_in_reach_and_the_inspector_is_one_tap_away(page, app_url):
    p = open_app(page(PHONE, HEIGHT), app_url, "?draft=biased&width=3&seed=1")
    draft = p.get_by_role("button", name="Draft", exact=True)
    jump = p.get_by_role("button", name=page_words.JUMP_LABEL, exact=True)
    assert jump.is_visible()
    scroll_and_settle(p, lambda: p.mouse.wheel(0, 2500))  # far down the page, past the strip
    assert p.evaluate("window.scrollY") > 1000
    placed = box(draft)
    assert placed is not None and 0 <= placed["y"] and placed["y"] + placed["height"] <= HEIGHT, placed
    # Back to the top, then one tap on the jump: the inspector's title shows below the bar.
    scroll_and_settle(p, lambda: p.evaluate("window.scrollTo(0, 0)"))
    scroll_and_settle(p, jump.click)  # a smooth scroll
    title = p.get_by_role("heading", name=t("step.inspector.title"), exact=True)
    at = box(title)
    bar = box(jump)
    assert at is not None and bar is not None
    assert bar["y"] + bar["height"] <= at["y"] + 1, (bar, at)  # not hidden under the sticky bar
    assert at["y"] + at["height"] <= HEIGHT, at  # on screen


def test_on_a_wide_screen_there_is_no_jump_button(page, app_url):
    p = open_app(page(DESKTOP, HEIGHT), app_url)
    assert not p.get_by_role("button", name=page_words.JUMP_LABEL, exact=True).is_visible()


def test_on_a_phone_after_a_long_caption_every_button_stays_in_the_bars_view(page, app_url):
    # The biased draft's first Verify writes the longest caption: it scrolls inside its own box,
    # and the buttons below it are never hidden in a nested scroll of the bar (issue 23 item 5).
    p = open_app(page(PHONE, HEIGHT), app_url, "?draft=biased&width=3&seed=1")
    p.get_by_role("button", name="Draft", exact=True).click()
    expect(p.get_by_role("button", name="Verify", exact=True)).to_be_enabled(timeout=30_000)
    p.get_by_role("button", name="Verify", exact=True).click()
    p.get_by_role("button", name="rejected").first.wait_for(timeout=30_000)
    scroll_and_settle(p, lambda: p.mouse.wheel(0, 2500))
    [(top, bottom, scroll_height, client_height)] = p.evaluate(STICKY_JS)
    assert scroll_height <= client_height + 1, (scroll_height, client_height)  # no nested scroll
    assert 0 <= top and bottom <= HEIGHT * 0.5, (top, bottom)
    for name in ("Draft", "Verify", "Commit", "Next step", "Run block", "Run to end", "Reset", page_words.JUMP_LABEL):
        at = box(p.get_by_role("button", name=name, exact=True))
        assert at is not None and top <= at["y"] and at["y"] + at["height"] <= bottom + 1, (name, at, top, bottom)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    p.screenshot(path=str(SCREENSHOTS / "phone_bar_after_biased_verify_375.png"))  # the screen, as the reader sees it


def test_inside_a_frame_on_a_phone_nothing_pretends_to_stick(browser, app_url):
    # In an iframe sized to its content the host scrolls, not the frame: a sticky bar would stay
    # behind, and the jump would scroll nothing. The bar is a plain part of the page there, and the
    # jump is not shown.
    tag = snippet.iframe(app_url + "?draft=biased&width=3&seed=1", title="specstep in the notes")
    with host_site({"notes.html": host_page([tag])}) as host:
        from embed_support import new_page
        p = new_page(browser, width=PHONE, height=HEIGHT)
        try:
            p.goto(host + "notes.html")
            frame = p.frame_locator("iframe")
            frame.get_by_role("button", name="Draft", exact=True).wait_for(timeout=60_000)
            inner = next(f for f in p.frames if f != p.main_frame)
            # page.js has found it is in a frame: the bar is then a plain part of the page.
            inner.wait_for_function("() => document.documentElement.classList.contains('sp-embedded')",
                                    timeout=20_000)
            assert inner.evaluate(STICKY_JS) == []
            assert not frame.get_by_role("button", name=page_words.JUMP_LABEL, exact=True).is_visible()
            assert frame.get_by_role("button", name="Run block", exact=True).is_visible()
            assert not p.errors, p.errors
        finally:
            p.context.close()
