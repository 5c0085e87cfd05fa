"""The host script tells a frame the notes' colour scheme in hosts that are not MkDocs Material
(issue 23 item 4): a plain or Quarto page by its painted background's luminance, a page that
only sets ``color-scheme`` by that, and a theme toggle (a class or ``data-theme``, as Quarto and
Jupyter Book's pydata theme switch) live. ``tests/test_embed_host.py`` covers Material's attribute
on the real page; here the frame is a stand-in page that posts a height and records what it is told,
so only ``app/embed/host.js`` runs (no Python).
"""

from __future__ import annotations

import pytest
from embed_support import browser, host_site, new_page  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

# The widget's side of the conversation (app/page/page.js): post a height once, again when the host script
# says hello (it may start after the frame has posted), and keep every scheme told.
FRAME = """<!doctype html><html><head><meta charset="utf-8"><title>frame</title><link rel="icon" href="data:,"></head><body><p>widget</p>
<script>window.told = [];
const report = () => parent.postMessage({type: "specstep:height", height: 400}, "*");
addEventListener("message", (e) => {
  if (e.data && e.data.type === "specstep:scheme") window.told.push(e.data.scheme);
  if (e.data && e.data.type === "specstep:hello") report();
});
report();
window.reported = true;</script></body></html>"""

NOTES = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>notes</title><link rel="icon" href="data:,">
<style>{css}</style></head><body{body}><p>Notes.</p>
<iframe src="frame.html" data-specstep="" title="widget" style="border:0;width:100%;height:300px"></iframe>
{script}</body></html>"""
HOST_SCRIPT = '<script src="host.js"></script>'

HOSTS = {
    "plain-light": ("body { background: #fff; color: #111; }", ""),
    "plain-dark": ("body { background: #111418; color: #eee; }", ""),  # Quarto's darkly, a plain dark page
    "scheme-only": (":root { color-scheme: dark; }", ""),  # no painted background: the canvas is dark
    # Quarto and Jupyter Book switch with a class or data-theme on <html>/<body>; the colours follow by CSS.
    "toggle": ("body { background: #fff; } body.quarto-dark, html[data-theme=dark] body { background: #1a1c1e; }", ""),
}


@pytest.fixture(scope="module")
def notes():
    pages = {f"{name}.html": NOTES.format(css=css, body=body, script=HOST_SCRIPT) for name, (css, body) in HOSTS.items()}
    # Notes whose host script comes only after the frame has posted its height (a site that loads its scripts
    # late): the test adds it then.
    pages["late.html"] = NOTES.format(css=HOSTS["plain-dark"][0], body="", script="")
    with host_site({**pages, "frame.html": FRAME}) as url:
        yield url


def told(page, timeout=5_000):
    """The last scheme the frame was told, once it was told one."""
    frame = next(f for f in page.frames if f != page.main_frame)
    frame.wait_for_function("() => window.told && window.told.length > 0", timeout=timeout, polling=100)
    return frame.evaluate("() => window.told[window.told.length - 1]")


def wait_told(page, scheme, timeout=5_000):
    frame = next(f for f in page.frames if f != page.main_frame)
    frame.wait_for_function("(s) => window.told && window.told[window.told.length - 1] === s", arg=scheme,
                            timeout=timeout, polling=100)


@pytest.mark.parametrize("name, scheme", [("plain-light", "light"), ("plain-dark", "dark"), ("scheme-only", "dark")])
def test_a_host_without_materials_attribute_is_told_by_its_background_or_color_scheme(browser, notes, name, scheme):
    page = new_page(browser, color_scheme="light")  # the reader's setting is light: only the host decides
    try:
        page.goto(notes + f"{name}.html")
        assert told(page) == scheme
        assert not page.errors, page.errors
    finally:
        page.context.close()


@pytest.mark.parametrize("toggle", ["document.body.classList.add('quarto-dark')",
                                    "document.documentElement.setAttribute('data-theme', 'dark')"])
def test_a_hosts_theme_toggle_reaches_the_frame_live(browser, notes, toggle):
    page = new_page(browser, color_scheme="light")
    try:
        page.goto(notes + "toggle.html")
        assert told(page) == "light"
        page.evaluate(toggle)
        wait_told(page, "dark")
        assert not page.errors, page.errors
    finally:
        page.context.close()


def test_a_host_script_that_starts_after_the_frame_posted_its_height_still_sizes_and_tells_it(browser, notes):
    page = new_page(browser, color_scheme="light")
    try:
        page.goto(notes + "late.html")
        frame = next(f for f in page.frames if f != page.main_frame)
        frame.wait_for_function("() => window.reported === true", timeout=5_000, polling=100)
        page.add_script_tag(url=notes + "host.js")
        assert told(page) == "dark"  # the host's painted background, told after the frame answered hello
        page.wait_for_function("() => document.querySelector('iframe').style.height === '400px'", timeout=5_000)
        assert not page.errors, page.errors
    finally:
        page.context.close()
