"""The "Several guesses at once" tab in Chromium (fixtures in conftest.py).

``panel serve app/main.py`` on 127.0.0.1, Debian's Chromium with every other
host unresolvable; buttons found by their names, the picker by its label.
Expected sentences come from ``app.guesses.words`` applied to ``core.tree``
records of the same scenario (the page must show core's numbers).
Screenshots: tests/screenshots/guesses_tab_1200.png and guesses_tab_375.png.
"""

import pytest
from reading import assert_clean, has_text, no_horizontal_scroll

from app.guesses import words
from app.guesses.tree_chart import LOOK
from core.tree import TreeSession

pytestmark = pytest.mark.browser

TITLE = "Several guesses at once"


def open_guesses(page):
    page.locator(".bk-tab", has_text=TITLE).click()
    has_text(page, words.INTRO[:60], timeout=30)
    return page.locator(".guesses-tab")


REJECTED_FILL = tuple(int(LOOK["rejected"][1][i:i + 2], 16) for i in (1, 3, 5))  # the rejected nodes' fill


def topmost_pixel(page, colour):
    """Viewport coordinates of the topmost pixel of ``colour`` (the tree's nodes are drawn on a canvas)."""
    import io

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


def click(tab, name):
    tab.get_by_role("button", name=name, exact=True).click()


def test_the_tab_steps_through_a_tree_and_inspects_each_candidate(app_page):
    page = app_page.open()
    tab = open_guesses(page)
    has_text(page, "Draft grows a tree of candidates", "text so far")
    s = TreeSession.start("biased", 2, 2, 1).draft()
    click(tab, "Draft")
    has_text(page, words.drafted(s.pending), "Node 6: A at position 2, candidate 2, proposed")
    s = s.verify()
    click(tab, "Verify")
    first, second = s.pending.children(None)
    has_text(page, words.verified(s.pending), words.test_words(first), words.test_words(second),
             words.correction_words(s.pending.correction))
    page.shoot("guesses_tab_1200")
    # A tap on the first rejected node (the top one) opens it in the inspector.
    x, y = topmost_pixel(page, REJECTED_FILL)
    page.mouse.click(x + 6, y + 8)
    has_text(page, "Inspector: node 1")
    page.get_by_label("Inspect node").select_option(label=words.node_label(s.pending.nodes[2]))
    has_text(page, "Inspector: node 3", words.test_words(s.pending.nodes[2]))
    s = s.commit()
    click(tab, "Commit")
    has_text(page, words.committed(s.blocks[-1], 1, 8))
    click(tab, "Run block")
    s = s.run_block()
    has_text(page, words.per_pass(s.counters))
    assert_clean(page)


def test_out_of_turn_and_reset_and_a_narrow_screen(app_page):
    page = app_page.open()
    tab = open_guesses(page)
    assert tab.get_by_role("button", name="Verify", exact=True).is_disabled()
    click(tab, "Next step")
    click(tab, "Next step")
    click(tab, "Reset")
    has_text(page, words.RESET)
    click(tab, "Run block")
    has_text(page, "tree 1: committed")
    page.shoot("guesses_tab_375", width=375)
    assert no_horizontal_scroll(page)
    assert_clean(page)
