"""Embeds in course notes do not make the notes jump (issue 23 item 3): the built page in real
Pyodide, offline, in two iframes of a host page served from another 127.0.0.1 port, with the
snippet's host script. From navigation until both embeds are ready the host's cumulative layout
shift (``PerformanceObserver('layout-shift')``, measured in the host) stays under 0.1, and an
embed opened on another tab never shows the pre-rendered step tab's preview.

The site is the session's shared build (``build_support/real_site.py``).
"""

from __future__ import annotations

import pytest

from build_support.browser import SCREENSHOTS, Visit
from build_support.fixtures import chromium, site  # noqa: F401 (fixtures)
from build_support.real_site import real_site
from embed_support import host_page, host_site

from app.embed import snippet

pytestmark = pytest.mark.browser

FIRST = "index.html?draft=biased&width=3&seed=1"  # another scenario than the pre-rendered one: a placeholder
SECOND = "index.html?tab=exact"  # another tab than the pre-rendered one
READY = "document.body.dataset.specstep === 'ready'"

# In the host: every layout shift not caused by input. In a frame: every animation frame before
# the worker's render is drawn (the loader's "drawing" mark) in which a pre-rendered root was
# painted although the link opens on another tab.
WATCH_JS = """
if (window.top === window) {
  window.specstepShift = { total: 0, entries: [] };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      window.specstepShift.total += entry.value;
      window.specstepShift.entries.push([Math.round(entry.startTime), Number(entry.value.toFixed(4))]);
    }
  }).observe({ type: "layout-shift", buffered: true });
} else {
  window.specstepOtherTabShown = 0;
  const tab = new URLSearchParams(location.search).get("tab");
  (function watch() {
    if (tab && tab !== "step" && document.body && !performance.getEntriesByName("specstep:drawing").length) {
      for (const root of document.querySelectorAll("[data-root-id]")) {
        for (const child of root.children) if (child.getClientRects().length > 0) window.specstepOtherTabShown += 1;
      }
    }
    if (!performance.getEntriesByName("specstep:drawing").length) requestAnimationFrame(watch);
  })();
}
"""

NOTES = "".join(f"<p>Paragraph {i} of the notes between the two widgets: a few sentences a reader reads.</p>"
                for i in range(12))


@pytest.fixture(scope="module")
def built():
    return real_site()


def frames(page):
    return [f for f in page.frames if f != page.main_frame]


def wait_frame_ready(page, index, timeout_s=240):
    for _ in range(timeout_s * 4):
        found = frames(page)
        if len(found) > index:
            try:
                if found[index].evaluate(READY):
                    return found[index]
            except Exception:  # the frame is still navigating
                pass
        page.wait_for_timeout(250)
    raise AssertionError(f"embed {index + 1} did not become ready")


@pytest.mark.parametrize("width", [1200, 375])
def test_two_embeds_keep_the_hosts_layout_shift_under_a_tenth(chromium, site, width):
    tags = [snippet.iframe(site.url + FIRST, title="specstep, biased draft"), NOTES,
            snippet.iframe(site.url + SECOND, title="specstep, why it is exact")]
    with host_site({"notes.html": host_page(tags)}) as host:
        assert host.split(":")[2] != site.url.split(":")[2]  # another origin than the widget's
        visit = Visit(chromium, viewport=(width, 800), init_script=WATCH_JS)
        try:
            visit.page.goto(host + "notes.html")
            wait_frame_ready(visit.page, 0)
            # The reader scrolls on to the second embed, which starts when it comes into view.
            visit.page.evaluate("document.querySelectorAll('iframe')[1].scrollIntoView()")
            second = wait_frame_ready(visit.page, 1)
            visit.page.wait_for_timeout(2000)  # the last heights posted after ready
            shift = visit.page.evaluate("window.specstepShift")
            print(f"\nhost layout shift at {width} px: {shift}")
            assert shift["total"] < 0.1, shift
            assert second.evaluate("window.specstepOtherTabShown") == 0, "the step tab's preview showed"
            heights = visit.page.evaluate("[...document.querySelectorAll('iframe')].map((f) => f.offsetHeight)")
            assert min(heights) > 1500, heights  # each frame sized to its widget, not to a placeholder
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            # The screen as the reader sees it at each embed (a frame off screen is not painted again).
            visit.page.screenshot(path=str(SCREENSHOTS / f"real_page_second_embed_{width}.png"))
            visit.page.evaluate("window.scrollTo(0, 0)")
            visit.page.wait_for_timeout(500)
            visit.page.screenshot(path=str(SCREENSHOTS / f"real_page_first_embed_{width}.png"))
            assert visit.errors == [], visit.errors
        finally:
            visit.close()
