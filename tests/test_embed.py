"""Made for course notes (issue 14): an embed that fits its content, in a host page with web/host.js.

The app runs under ``panel serve``; the host page (course notes with the iframe and
``host.js``) is served from another port, so the frame is cross-origin as on a course site.
"""

import pytest
from embed_support import WIDTHS, chromium, host_page, host_site, new_page, served_app, shoot

from app.embed import snippet

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


@pytest.fixture(scope="module")
def app_url():
    with served_app() as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


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
