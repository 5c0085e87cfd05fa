"""Shared by the access and embedding tests: the app under ``panel serve``, Chromium, axe-core, host pages.

``panel serve app/main.py`` on a free port of 127.0.0.1; Debian's Chromium with
every other host unresolvable (a passing test made no external request);
axe-core from ``tests/npm`` (``tests/run.sh`` installs it from the lock);
and host pages (course notes with one or two iframes and ``web/host.js``)
served from a folder of their own on another port, so the frame is
cross-origin as on a real course site.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

import pytest

from build_support.browser import CHROMIUM_ARGS
from build_support.servers import LocalServer, free_port, wait_until

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOTS = ROOT / "tests" / "screenshots"
AXE = ROOT / "tests" / "npm" / "node_modules" / "axe-core" / "axe.min.js"
HOST_JS = ROOT / "app" / "embed" / "host.js"
WIDTHS = (1200, 375)

# axe-core on the whole page, through every shadow root; the violations as [id, impact, where, why].
# A rule with its own impact reports every violation at that impact (axe's finalizeRuleResult), so
# the rules whose impact is not asked for cannot report one that is: they are left out (about a
# third of the rules, "region" on every element among them). Rules without one all run.
AXE_RUN_JS = """
async (impacts) => {
  const rules = {};
  for (const rule of axe._audit.rules) {
    if (rule.impact && !impacts.includes(rule.impact)) rules[rule.id] = { enabled: false };
  }
  const result = await axe.run(document, { resultTypes: ["violations"], rules });
  return result.violations.map((v) => [v.id, v.impact,
    v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target).slice(-160)).join(" | "),
    v.nodes[0] ? v.nodes[0].failureSummary.slice(0, 200) : ""]);
}
"""

# The element that has the keyboard focus, through shadow roots: its role, name and text.
FOCUSED_JS = """
() => {
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  if (!el) return null;
  return { tag: el.tagName, role: el.getAttribute("role"), label: el.getAttribute("aria-label"),
           text: (el.textContent || "").trim().slice(0, 60), selected: el.getAttribute("aria-selected") };
}
"""


def require_tool(path: Path, what: str):
    if not path.exists():
        reason = f"{what} is not installed ({path}); tests/run.sh installs it"
        if os.environ.get("SPECSTEP_FULL_SETUP"):
            pytest.fail(reason)
        pytest.skip(reason)


@contextlib.contextmanager
def served_app():
    """``panel serve app/main.py`` on 127.0.0.1; yields the app's URL (``http://127.0.0.1:PORT/main``)."""
    port = free_port()
    exe = Path(sys.executable).with_name("panel")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "panel"]
    cmd += ["serve", "app/main.py", "--port", str(port), "--address", "127.0.0.1",
            f"--allow-websocket-origin=127.0.0.1:{port}"]
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/main"

    def answers():
        if proc.poll() is not None:
            return True
        try:
            with urllib.request.urlopen(url, timeout=30) as response:
                return response.status == 200
        except OSError:
            return False

    try:
        if not wait_until(answers, 180, 0.25) or proc.poll() is not None:
            log.seek(0)
            pytest.fail("panel serve did not start:\n" + log.read().decode(errors="replace")[-2000:])
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@contextlib.contextmanager
def chromium():
    executable = shutil.which("chromium")
    if executable is None:
        require_tool(Path("/nonexistent/chromium"), "Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


# Module fixtures for a test file that imports them: one `panel serve` and one Chromium per
# file (Playwright's sync API is started and stopped within each file).
@pytest.fixture(scope="module")
def app_url():
    with served_app() as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@pytest.fixture
def page(browser):
    """``page(width=..., height=..., color_scheme=...)`` opens a fresh page; each must end with no console error."""
    pages = []

    def make(width=1200, height=900, color_scheme="light"):
        p = new_page(browser, width=width, height=height, color_scheme=color_scheme)
        pages.append(p)
        return p

    yield make
    for p in pages:
        assert not p.errors, p.errors
        p.context.close()


def new_page(browser, width=1200, height=900, color_scheme="light"):
    """A fresh page that records console errors in ``page.errors``."""
    context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=color_scheme)
    page = context.new_page()
    page.errors = []
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def open_app(page, url, query=""):
    page.goto(url + query)
    page.get_by_role("button", name="Draft", exact=True).wait_for(state="visible", timeout=60_000)
    page.wait_for_timeout(400)
    return page


def axe_violations(page, impacts=("critical", "serious")):
    """axe-core's violations of these impacts on the page as it is now."""
    require_tool(AXE, "axe-core")
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    page.wait_for_timeout(150)  # page.js follows the last change in the next frame
    return [v for v in page.evaluate(AXE_RUN_JS, list(impacts)) if v[1] in impacts]


def focused(page):
    return page.evaluate(FOCUSED_JS)


def open_tab(page, title):
    page.get_by_role("tab", name=title).click()
    page.get_by_role("tab", name=title, selected=True).wait_for(timeout=30_000)


def shoot(page, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.mouse.move(0, 0)
    page.wait_for_timeout(200)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


HOST_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Course notes</title><link rel="icon" href="data:,">
<style>body {{ margin: 0; padding: 16px; font: 16px/1.5 sans-serif; background: {background}; color: {ink}; }}
iframe {{ display: block; width: 100%; border: 0; }}</style>
</head><body>
<main><h1>Lecture 7: speculative decoding</h1>
<p>Before the widget, a paragraph of course notes.</p>
{frames}
<p id="after">After the widget, the notes go on.</p></main>
{script}
</body></html>
"""


@contextlib.contextmanager
def host_site(pages: dict[str, str]):
    """A folder of host pages (name -> HTML) plus web/host.js, served on its own port; yields its base URL."""
    with tempfile.TemporaryDirectory() as folder:
        for name, text in pages.items():
            (Path(folder) / name).write_text(text, encoding="utf-8")
        shutil.copyfile(HOST_JS, Path(folder) / "host.js")
        with LocalServer(Path(folder)) as server:
            yield server.url


def host_page(frames, script=True, background="#ffffff", ink="#111111"):
    """A page of course notes holding ``frames`` (iframe HTML), with the host script unless ``script`` is False."""
    tag = '<script src="host.js"></script>' if script else ""
    return HOST_PAGE.format(frames="\n".join(frames), script=tag, background=background, ink=ink)
