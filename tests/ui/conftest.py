"""Fixtures for browser tests: the app under ``panel serve`` and Debian's Chromium.

``served_app`` starts ``panel serve app/main.py`` on a free port of 127.0.0.1
once per test session and waits until it answers. ``app_page`` is a fresh
Chromium page per test, launched with the flags from DESIGN.md; the
host-resolver rule maps every host except 127.0.0.1 to "not found", so a
test that passes made no external request. The page collects console errors
(``page.console_errors``), every requested URL (``page.requests``) and
what the server logged as an error meanwhile (``page.server_errors()``).
"""

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "tests" / "screenshots"

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]

# Collect a page's visible text, shadow roots included (Bokeh and Panel render
# every component inside one).
DEEP_TEXT_JS = """
() => {
  const parts = [];
  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) { parts.push(node.textContent); return; }
    if (node.nodeType !== Node.ELEMENT_NODE && node.nodeType !== Node.DOCUMENT_FRAGMENT_NODE) return;
    if (node.tagName === 'SCRIPT' || node.tagName === 'STYLE') return;
    if (node.shadowRoot) walk(node.shadowRoot);
    for (const child of node.childNodes) walk(child);
    if (node.tagName === 'TEXTAREA' || node.tagName === 'INPUT') parts.push(node.value || '');
  };
  walk(document.body);
  return parts.join(' ').replace(/\\s+/g, ' ');
}
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def panel_command():
    """``panel`` from the same environment as this Python."""
    exe = Path(sys.executable).with_name("panel")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "panel"]


class ServedApp(str):
    """The app's base URL (``http://127.0.0.1:PORT/main``) that can also read the server's log."""

    def log_text(self):
        self.log.flush()
        self.log.seek(0)
        return self.log.read().decode(errors="replace")


@pytest.fixture(scope="session")
def served_app():
    """The app served by ``panel serve`` for the whole session (a ``ServedApp``)."""
    port = free_port()
    cmd = panel_command() + [
        "serve", "app/main.py", "--port", str(port), "--address", "127.0.0.1",
        f"--allow-websocket-origin=127.0.0.1:{port}",
    ]
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    # The server's log goes to a temporary file (a pipe nobody reads could fill up and stall it).
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/main"
    # Generous: a first page render takes seconds on a busy 2-core machine.
    deadline = time.monotonic() + 180
    try:
        while True:
            if proc.poll() is not None:
                log.seek(0)
                out = log.read().decode(errors="replace")
                pytest.fail(f"panel serve exited with {proc.returncode}:\n{out[-2000:]}")
            try:
                with urllib.request.urlopen(url, timeout=30) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("panel serve did not answer within 180 s")
            time.sleep(0.25)
        app = ServedApp(url)
        app.log = log
        yield app
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="module")
def chromium():
    """Debian's Chromium through Playwright (Playwright's own download does not work here).

    One per test file: Playwright's sync API leaves its event loop marked as
    running in this thread, which would make asyncio code in any test that
    runs after it (the tabs' model tests) schedule work that never runs.
    """
    executable = shutil.which("chromium")
    if executable is None:
        reason = "Debian's chromium is not installed (tests/run.sh installs it with apt-get)"
        if os.environ.get("SPECSTEP_FULL_SETUP"):
            pytest.fail(reason)  # tests/run.sh installed everything: a missing browser is a failure
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def app_page(chromium, served_app):
    """A fresh 1200 x 900 page with ``console_errors``, ``requests``, ``open(query)``, ``text()``, ``shoot(name)``."""
    context = chromium.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.console_errors = []
    page.requests = []
    page.on("console", lambda msg: page.console_errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: page.console_errors.append(str(exc)))
    page.on("request", lambda request: page.requests.append(request.url))

    def open_app(query=""):
        page.goto(served_app + query)
        # The app is ready when its first button is on screen.
        page.get_by_role("button", name="Draft", exact=True).wait_for(state="visible", timeout=30_000)
        return page

    page.open = open_app
    page.base_url = served_app
    page.text = lambda: deep_text(page)
    # Errors in Python callbacks are logged by the server, not in the browser console.
    start = len(served_app.log_text())
    def server_errors():
        new = served_app.log_text()[start:]
        return [new] if real_errors(new) else []

    page.server_errors = server_errors
    page.shoot = lambda name, width=None: screenshot(page, name, width)
    yield page
    page.wait_for_timeout(200)  # let the last update arrive before the socket closes
    context.close()


# A page closed while the server was still sending makes tornado log a chained
# traceback ending in one of these; that is the test ending, not an app error.
BENIGN = ("tornado.iostream.StreamClosedError", "tornado.websocket.WebSocketClosedError")


def real_errors(log_text):
    """How many tracebacks/errors in ``log_text`` are not a closed-websocket notice."""
    tracebacks = log_text.count("Traceback (most recent call last)")
    benign = sum(line.startswith(BENIGN) for line in log_text.splitlines())
    errors = sum(" ERROR " in line for line in log_text.splitlines())
    return max(0, tracebacks - benign) + errors


def deep_text(page):
    """All text a reader can see, including inside shadow roots."""
    return page.evaluate(DEEP_TEXT_JS)


def screenshot(page, name, width=None):
    """Write ``tests/screenshots/NAME.png`` (full page) at ``width`` px, if given."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    if width is not None:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(400)
    page.mouse.move(0, 0)  # no tooltip in the picture
    page.wait_for_timeout(150)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
