"""The "Several guesses at once" tab in the built page, real Pyodide 0.29.3, offline, in Chromium.

The same fixtures as tests/test_real_page.py (one build per session, a local
Pyodide on 127.0.0.1, no other host): the tab is built in the worker on first
open, Draft and Verify run ``core.tree`` in Pyodide, and a tap on a node goes
through the worker as a Bokeh event. Sentences are computed on CPython.
"""

import io

import pytest

from app.guesses import words
from app.guesses.tree_chart import LOOK
from core.tree import TreeSession
from test_real_page import assert_clean, built, chromium, open_ready, site, visit  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

REJECTED_FILL = tuple(int(LOOK["rejected"][1][i:i + 2], 16) for i in (1, 3, 5))


def topmost_pixel(page, colour):
    from PIL import Image

    # The tree is drawn above its "Inspect node" picker: bring both on screen first
    # (taller cards above can push the tree below a 900 px viewport).
    page.get_by_label("Inspect node").evaluate("e => e.scrollIntoView({block: 'end'})")
    page.wait_for_timeout(300)
    image = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
    for y in range(0, image.height, 2):
        for x in range(0, image.width, 2):
            if image.getpixel((x, y)) == colour:
                return x, y
    raise AssertionError(f"no pixel of {colour} on screen")


def test_the_tree_tab_drafts_verifies_and_inspects_a_tapped_node_in_pyodide(visit, site):  # noqa: F811
    open_ready(visit, site)
    page = visit.page
    page.locator(".bk-tab", has_text=words.TITLE).click()
    visit.has_text(words.INTRO[:60], timeout=60)
    tab = page.locator(".guesses-tab")
    s = TreeSession.start("biased", 2, 2, 1).draft().verify()
    tab.get_by_role("button", name="Draft", exact=True).click()
    visit.has_text(words.drafted(s.pending), timeout=30)
    tab.get_by_role("button", name="Verify", exact=True).click()
    visit.has_text(words.verified(s.pending), words.correction_words(s.pending.correction), timeout=30)
    page.wait_for_timeout(500)
    x, y = topmost_pixel(page, REJECTED_FILL)
    page.mouse.click(x + 6, y + 8)
    visit.has_text("Inspector: node 1", words.test_words(s.pending.nodes[0]), timeout=30)
    visit.shot("guesses_real_page")
    assert_clean(visit)
