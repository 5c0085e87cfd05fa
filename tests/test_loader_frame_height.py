"""web/loader.js in a frame sized to its content (issue 23 item 3): from its first paint until the
widget is drawn, the page reports the height the widget will have (the build's measured table for
the tab the link opens on, at the frame's width), never the height of its status line or
placeholder; and a link opened on another tab than the pre-rendered one hides that tab's preview.

The loader runs with a stand-in for the pre-rendered widget and a worker that never finishes
(``tests/test_loader.py``'s page), in a frame of a host page that records every height posted.
"""

from __future__ import annotations

import json
import shutil

import pytest
from test_loader import CHROMIUM_ARGS, FAKE_WORKER, PAGE, WEB, PRERENDERED, base_config

from build_support.servers import LocalServer

pytestmark = pytest.mark.browser

HEIGHTS = {"step": [[375, 4000], [1200, 2000]], "exact": [[375, 5000], [1200, 3000]]}
HOST = """<!doctype html><html><body style="margin:0">
<script>window.heights = []; addEventListener("message", (e) => {{
  if (e.data && e.data.type === "specstep:height") window.heights.push(e.data.height); }});</script>
<p>Notes before the widget.</p><iframe src="index.html?{query}" width="800" height="300"></iframe>
<p>Notes after the widget.</p></body></html>"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("frame-height")
    config = {**base_config(), "prerendered": PRERENDERED, "heights": HEIGHTS, "tabOrder": ["step", "exact"],
              "heightType": "specstep:height", "helloType": "specstep:hello"}
    loader = (WEB / "loader.js").read_text().replace("@@LIVE@@", (WEB / "live.js").read_text())
    (folder / "loader.js").write_text(loader.replace("@@CONFIG@@", json.dumps(config)))
    shutil.copyfile(WEB / "loader.css", folder / "loader.css")
    (folder / "fake-worker.js").write_text(FAKE_WORKER)
    (folder / "index.html").write_text(PAGE.format(status=(WEB / "status.html").read_text(), numbers="q(A) = 0.50"))
    for name, query in (("step.html", "plan=runtime:hang"), ("exact.html", "tab=exact&plan=runtime:hang")):
        (folder / name).write_text(HOST.format(query=query))
    with LocalServer(folder) as server:
        yield server


@pytest.fixture(scope="module")
def chrome():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def between(rows, width):
    (w0, h0), (w1, h1) = rows
    return round(h0 + (h1 - h0) * (width - w0) / (w1 - w0))


@pytest.mark.parametrize("tab", ["step", "exact"])
def test_while_loading_the_frame_reports_the_widgets_height_for_its_tab(chrome, site, tab):
    page = chrome.new_context(viewport={"width": 1000, "height": 700}).new_page()
    try:
        page.goto(site.url + f"{tab}.html")
        frame = page.frame_locator("iframe")
        frame.locator("#specstep-status[data-stage]").wait_for(timeout=15_000)
        page.wait_for_timeout(500)
        inner = next(f for f in page.frames if f != page.main_frame)
        width = inner.evaluate("document.documentElement.clientWidth")
        heights = page.evaluate("window.heights")
        assert heights and set(heights) == {between(HEIGHTS[tab], width)}, (heights, width)
        # Another tab than the pre-rendered one: its preview is hidden behind the placeholder.
        preview_shown = inner.evaluate("document.querySelector('.fake').getClientRects().length > 0")
        assert preview_shown == (tab == "step")
        assert (frame.locator(".specstep-placeholder").count() == 1) == (tab == "exact")
        if tab == "exact":
            assert frame.locator(".specstep-placeholder").inner_text().startswith("Loading the scenario of this link…")
    finally:
        page.context.close()


def test_while_loading_the_frame_answers_a_late_host_scripts_hello_with_the_reserved_height(chrome, site):
    # A host script that starts after the frame posted (it is loaded late) says hello; the loader, before
    # page.js is installed, posts the reserved height again.
    page = chrome.new_context(viewport={"width": 1000, "height": 700}).new_page()
    try:
        page.goto(site.url + "step.html")
        page.frame_locator("iframe").locator("#specstep-status[data-stage]").wait_for(timeout=15_000)
        page.wait_for_function("() => window.heights.length > 0")
        reserved = page.evaluate("window.heights[0]")
        page.evaluate("() => { window.heights = []; document.querySelector('iframe').contentWindow"
                      ".postMessage({type: 'specstep:hello'}, '*'); }")
        page.wait_for_function("() => window.heights.length > 0", timeout=5_000)
        assert page.evaluate("window.heights") == [reserved]
    finally:
        page.context.close()
