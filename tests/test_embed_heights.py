"""The table of the widget's heights in a frame (``app/embed/heights.json``) still describes the
widget (issue 23 item 3): the loader reserves these heights for an embed until the widget is drawn,
so a table that has drifted from the layout makes the host's notes jump again. Re-measure with
``.venv/bin/python tests/embed_heights.py`` after a change of layout.

The app runs under ``panel serve`` on 127.0.0.1 in Debian's Chromium (tests/embed_support.py).
"""

import pytest
from embed_heights import TABS, WIDTHS, load, measure
from embed_support import app_url, browser  # noqa: F401 (fixtures)

from app.main import TABS as APP_TABS
from app.page import links

CHECKED = (375, 1024)  # a phone and a course page's column; the table has more widths between


def allowed(height):
    """How far the layout may drift before the reserve moves the host's text visibly (about a line or two)."""
    return max(60, 0.03 * height)


def test_the_table_has_every_tab_in_the_apps_order_at_every_width():
    table = load()["tabs"]
    assert list(table) == [links.slug(make) for _, make in APP_TABS] == list(TABS)
    for tab, rows in table.items():
        assert [w for w, _ in rows] == list(WIDTHS), tab
        assert all(h > 500 for _, h in rows), tab  # the widget, not a placeholder
        # Narrower is taller (text wraps, parts stack), give or take a pixel of rounding between two
        # widths at which nothing wraps differently (step: 3057 px at 600, 3058 px at 768).
        heights = [h for _, h in rows]
        assert all(narrow >= wide - 2 for narrow, wide in zip(heights, heights[1:])), (tab, rows)


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("tab", TABS)
def test_each_tab_is_as_tall_as_the_table_says(browser, app_url, tab):
    rows = dict(load()["tabs"][tab])
    for width in CHECKED:
        height = measure(browser, app_url, tab, width)
        assert abs(height - rows[width]) <= allowed(rows[width]), (tab, width, height, rows[width])
