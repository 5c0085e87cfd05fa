"""Made for course notes (issue 14): an embed that fits its content, in a host page with web/host.js.

The app runs under ``panel serve``; the host page (course notes with the iframe and
``host.js``) is served from another port, so the frame is cross-origin as on a course site.
"""

import re

import pytest
from embed_support import WIDTHS, app_url, browser, host_page, host_site, new_page, shoot  # noqa: F401 (fixtures)

from app.embed import snippet
from app.embed import tables_words
from app.page.script import FRAME_HIDDEN
from app.embed import words as embed_words

pytestmark = pytest.mark.browser

BIASED = "?draft=biased&width=3&seed=1"

# The bottom of the page's content inside the frame, as its reader sees it (page.js measures the same way).
CONTENT_JS = """
() => {
  const bottom = (el) => {
    const style = getComputedStyle(el);
    if (style.display === "none" || style.position === "fixed") return 0;
    if (style.display === "contents") return Math.max(0, ...Array.from(el.children).map(bottom));
    return el.getBoundingClientRect().bottom;
  };
  return Math.max(...Array.from(document.body.children).map(bottom)) + window.scrollY;
}
"""


def frame_of(page):
    return next(f for f in page.frames if f != page.main_frame)


def wait_fitted(page, tolerance=20, timeout=30_000):
    """Wait until the frame's height is within ``tolerance`` px of its content; return both."""
    frame = frame_of(page)
    for _ in range(timeout // 250):
        content = frame.evaluate(CONTENT_JS)
        height = page.evaluate("() => document.querySelector('iframe').getBoundingClientRect().height")
        if abs(height - content) <= tolerance:
            return height, content
        page.wait_for_timeout(250)
    return height, content


def open_frame(browser, url, width, script=True):
    frame_tag = snippet.iframe(url + BIASED, title="Speculative decoding in lecture 7")
    with host_site({"notes.html": host_page([frame_tag], script=script)}) as host:
        page = new_page(browser, width=width)
        page.goto(host + "notes.html")
        frame = page.frame_locator("iframe")
        frame.get_by_role("button", name="Draft", exact=True).wait_for(timeout=60_000)
        yield page, frame


@pytest.mark.parametrize("width", WIDTHS)
def test_host_script_sizes_the_frame_to_its_content_on_every_change(browser, app_url, width):
    for page, frame in open_frame(browser, app_url, width):
        height, content = wait_fitted(page)
        assert abs(height - content) <= 20, (height, content)
        shoot(page, f"embed_host_{width}")
        # A change of content (a block drafted, another tab) resizes the frame again.
        frame.get_by_role("button", name="Run to end", exact=True).click()
        page.wait_for_timeout(800)
        height2, content2 = wait_fitted(page)
        assert abs(height2 - content2) <= 20, (height2, content2)
        frame.get_by_role("tab", name="Why it is exact").click()
        frame.get_by_text("Opening “Why it is exact”").wait_for(state="detached", timeout=60_000)
        page.wait_for_timeout(800)
        height3, content3 = wait_fitted(page)
        assert abs(height3 - content3) <= 20, (height3, content3)
        assert height3 != height2  # the frame follows the shown tab, not the tallest one
        assert not page.errors, page.errors
        page.context.close()


def test_without_the_host_script_the_frame_keeps_its_own_height(browser, app_url):
    for page, frame in open_frame(browser, app_url, 1200, script=False):
        page.wait_for_timeout(1500)
        height = page.evaluate("() => document.querySelector('iframe').getBoundingClientRect().height")
        # The fallback height for a 1200 px window: max(2200px, 5200px - 250vw) = 2200 px.
        assert height == 2200
        page.context.close()


# ---- the embed builder and the flags it writes ------------------------------------------------------

def frame_text(frame_locator):
    return frame_locator.locator("body").inner_text()


def test_the_builder_writes_every_choice_into_the_code():
    from app.embed.builder import query
    from app.urlstate import HIDEABLE

    names = ["step", "exact", "payoff"]
    scenario = {"draft": "biased", "width": 3, "seed": 1, "lookahead": "off", "steps": 0}
    plain = query(scenario, ["intro", "embed", "tables"], False, "step", names, "auto", names)
    assert plain == "?draft=biased&width=3&seed=1"  # an embed's defaults cost nothing in the link
    full = query(scenario, ["seed", "reset"], True, "exact", ["step", "exact"], "dark", names)
    assert full == ("?draft=biased&width=3&seed=1&seed_hide=1&reset_hide=1&intro_hide=0&embed_hide=0"
                    "&tables_hide=0&tabs=step%2Cexact&tab=exact&lock=1&theme=dark")
    # Every hideable part has a box in the form.
    assert set(embed_words.PARTS) == set(HIDEABLE)


def test_the_code_holds_the_title_caption_and_host_script_escaped():
    code = snippet.snippet('http://127.0.0.1/x?a=1&b="2"', title='Lecture 7 <a> "frame"', caption="Figure 3: try seed 1")
    assert code.startswith("<figure style=") and ">\n<iframe " in code
    assert "<figcaption>Figure 3: try seed 1</figcaption>" in code
    assert 'title="Lecture 7 &lt;a&gt; &quot;frame&quot;"' in code and "%222%22" in code
    assert code.rstrip().endswith("</script>") and "specstep:height" in code
    assert "//" not in code.split("<script>")[1]  # comments left out of the pasted script


@pytest.mark.parametrize("width", WIDTHS)
def test_flags_in_a_frame_hide_lock_and_pick_the_tabs(browser, app_url, width):
    query = "?draft=biased&width=3&seed=1&seed_hide=1&lock=1&tabs=step,exact&tab=exact"
    frame_tag = snippet.iframe(app_url + query, title="Lecture 7 widget")
    with host_site({"notes.html": host_page([frame_tag])}) as host:
        page = new_page(browser, width=width)
        page.goto(host + "notes.html")
        frame = page.frame_locator("iframe")
        frame.get_by_role("tab", name="Why it is exact", selected=True).wait_for(timeout=60_000)
        assert frame.get_by_role("tab").count() == 2  # "When it pays off" left out
        frame.get_by_role("tab", name="Step through a block").click()
        frame.get_by_role("button", name="Draft", exact=True).wait_for(timeout=30_000)
        # Locked: the controls are shown but fixed; the hidden seed is gone; title and embed form hidden in a frame.
        assert frame.get_by_role("button", name="Biased", exact=True).is_disabled()
        assert frame.get_by_role("textbox", name="Seed").count() == 0
        assert not frame.get_by_role("heading", name="Embed this scenario").is_visible()
        assert not frame.locator("h1").is_visible()
        history = page.evaluate("() => history.length")
        frame.get_by_role("button", name="Run to end", exact=True).click()
        frame.get_by_role("button", name="Reset", exact=True).click()
        page.wait_for_timeout(800)
        assert page.evaluate("() => history.length") == history  # the host's Back button still leaves the notes
        assert not page.errors, page.errors
        page.context.close()


def test_copy_inside_a_cross_origin_frame_copies_or_selects_and_says_so(browser, app_url):
    frame_tag = snippet.iframe(app_url + "?draft=biased&width=3&seed=1&embed_hide=0", title="Lecture 7 widget")
    with host_site({"notes.html": host_page([frame_tag])}) as host:
        page = new_page(browser, width=1200)
        page.goto(host + "notes.html")
        frame = page.frame_locator("iframe")
        opener = frame.get_by_role("button", name=embed_words.TOGGLE)
        opener.wait_for(timeout=60_000)
        opener.click()  # the form is drawn when asked for
        copy = frame.get_by_role("button", name=embed_words.COPY_LABEL)
        copy.wait_for(timeout=30_000)
        assert frame.locator("h1").count() == 1 and not frame.locator("h1").is_visible()  # intro still hidden
        # The table editor ("Your own numbers") is hidden in a frame too: course notes embed the author's numbers.
        own = frame.locator("." + FRAME_HIDDEN["tables"])
        assert own.count() == 1 and not own.is_visible()
        assert frame.get_by_role("button", name=tables_words.TOGGLE, exact=True).count() == 0
        code = frame.get_by_role("textbox", name=embed_words.AREA_LABEL).input_value()
        assert code.startswith("<iframe ") and "<script>" in code
        copy.click()
        said = frame.get_by_role("button", name=re.compile("^(" + "|".join(
            re.escape(s) for s in embed_words.COPY_SAID.values()) + ")"))
        said.wait_for(timeout=10_000)
        selected = frame_of(page).evaluate("""() => { let el = document.activeElement;
            while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
            return el ? el.value.slice(el.selectionStart, el.selectionEnd) : null; }""")
        assert selected == code  # copied or not, the whole code is selected for the reader
        page.context.close()
