"""Debian's Chromium on the built page: launch flags, one visit, readiness, and what a click costs.

Used by the real-page tests and ``bench/bench_build.py``. Chromium runs with every
host but 127.0.0.1 unresolvable, so a visit that passes made no external request.
``instrument``/``click_and_measure`` watch the page's web worker without changing
the page: the patches the page posts to it (a reader's change) and the messages it
posts back ("patch", "idle", ...), with their times.
"""

from __future__ import annotations

import shutil
import statistics
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "tests" / "screenshots"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
READY_OR_FAILED = "document.body.dataset.specstep === 'ready' || !!document.querySelector('.specstep-problem')"

# Collect the page's visible text, shadow roots included (Bokeh and Panel render inside them).
DEEP_TEXT_JS = """
() => {
  const parts = [];
  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) { parts.push(node.textContent); return; }
    if (node.nodeType !== Node.ELEMENT_NODE && node.nodeType !== Node.DOCUMENT_FRAGMENT_NODE) return;
    if (node.tagName === 'SCRIPT' || node.tagName === 'STYLE') return;
    if (node.shadowRoot) walk(node.shadowRoot);
    for (const child of node.childNodes) walk(child);
  };
  walk(document.body);
  return parts.join(' ').replace(/\\s+/g, ' ');
}
"""

# Record the worker's traffic: [kind, ms] with kind "sent" (a patch the page posted) or
# the type of a message from the worker.
INSTRUMENT_JS = """
() => {
  const worker = window.specstepWorker;
  if (!worker || worker.specstepLog) return !!worker;
  const log = worker.specstepLog = [];
  const post = worker.postMessage.bind(worker);
  worker.postMessage = (message, ...rest) => {
    if (message && message.type === "patch") log.push(["sent", performance.now()]);
    return post(message, ...rest);
  };
  worker.addEventListener("message", (event) => log.push([event.data.type, performance.now(), event.data.python_ms]));
  return true;
}
"""


def chromium_executable() -> str | None:
    return shutil.which("chromium")


def launch(playwright):
    return playwright.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)


class Visit:
    """One browser context on one page, with every request it made and every console error."""

    def __init__(self, browser, viewport=(1200, 900), init_script: str | None = None):
        self.context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
        if init_script:
            self.context.add_init_script(init_script)
        self.requests = []
        self.errors = []
        self.context.on("request", lambda r: self.requests.append(r.url))
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)

    def close(self):
        self.context.close()

    def elsewhere(self) -> set[str]:
        """Network requests (blob: and data: are not) to any host but 127.0.0.1."""
        return {u for u in self.requests
                if urlsplit(u).scheme not in ("blob", "data") and urlsplit(u).hostname != "127.0.0.1"}

    def status(self) -> str:
        return self.page.evaluate("(document.getElementById('specstep-status') || {}).innerText || ''")

    def text(self) -> str:
        return self.page.evaluate(DEEP_TEXT_JS)

    def has_text(self, *parts, timeout=15.0) -> str:
        """Wait until the page's text holds every part (updates arrive pane by pane); return the text."""
        deadline = time.monotonic() + timeout
        while True:
            text = self.text()
            missing = [p for p in parts if p not in text]
            if not missing:
                return text
            if time.monotonic() > deadline:
                raise AssertionError(f"not on the page: {missing}")
            self.page.wait_for_timeout(100)

    def wait_ready(self, timeout_ms=180_000):
        self.page.wait_for_function(READY_OR_FAILED, timeout=timeout_ms)
        ready = self.page.evaluate("document.body.dataset.specstep")
        assert ready == "ready", f"the page did not become interactive: {self.status()!r} {self.errors}"

    def button(self, name):
        return self.page.get_by_role("button", name=name, exact=True)

    def shot(self, name: str):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.page.mouse.move(0, 0)
        self.page.screenshot(path=str(SCREENSHOTS / f"real_page_{name}.png"), full_page=True)

    def marks(self) -> dict[str, float]:
        """The loader's performance marks specstep:*, in ms since navigation."""
        entries = self.page.evaluate(
            "performance.getEntriesByType('mark').filter(m => m.name.startsWith('specstep:'))"
            ".map(m => [m.name, m.startTime])")
        return {name: ms for name, ms in entries}


def instrument(visit: Visit):
    assert visit.page.evaluate(INSTRUMENT_JS), "the page has no window.specstepWorker"


def click_and_measure(visit: Visit, name: str, quiet_ms: int = 400, timeout: float = 30.0, target=None) -> dict:
    """Click a button; wait until the worker has answered every patch and been quiet for ``quiet_ms``.

    ``target``: a locator to click instead of the button named ``name`` (a timeline moment).

    Returns the worker's "patch" messages for this click; the Python time (what the
    worker measured around each patch the page posted, summed); ``settled_ms``, the
    page's time from each patch posted until the worker's "idle" for it was handled
    (it includes drawing the answer on the page's thread), summed; and the time from
    the first patch posted until the last patch was received and applied to the page.
    """
    instrument(visit)
    page = visit.page
    page.evaluate("window.specstepWorker.specstepLog.length = 0")
    (target if target is not None else visit.button(name)).click()
    deadline = time.monotonic() + timeout
    while True:
        page.wait_for_timeout(50)
        log, now = page.evaluate("[window.specstepWorker.specstepLog.slice(), performance.now()]")
        sent = [entry[1] for entry in log if entry[0] == "sent"]
        idle = [entry[1] for entry in log if entry[0] == "idle"]
        if sent and len(idle) >= len(sent) and now - log[-1][1] >= quiet_ms:
            break
        if time.monotonic() > deadline:
            raise AssertionError(f"the worker did not settle after clicking {name!r}: {log}")
    patches = [entry[1] for entry in log if entry[0] == "patch"]
    measured = [entry[2] for entry in log if entry[0] == "idle" and len(entry) > 2 and entry[2] is not None]
    python_ms = sum(measured) if measured else float("nan")  # nan: a worker older than this measurement
    return {"patches": len(patches), "python_ms": python_ms,
            "settled_ms": sum(i - s for s, i in zip(sent, idle)),
            "last_patch_ms": (max(patches) - sent[0]) if patches else 0.0}


def median_of(samples: list[dict], key: str) -> float:
    return statistics.median(s[key] for s in samples)
