"""How fast the widget answers a click. Prints figures; never fails on time.

1. Python time per step in the model (target: under 5 ms): ``StepModel.act("step")``
   alone, and with every view of the "Step through a block" tab rendered into a
   Bokeh document linked as the Pyodide worker links it (target: under 20 ms per
   click), with the Bokeh events and the models the document holds per click.
2. Click to updated text in Chromium against ``panel serve app/main.py``:
   the time from a click on "Next step" until the caption shows the new
   sentence, measured in the page with ``performance.now()``; median over 20
   clicks; and how many PATCH-DOC messages the server sends per click (read
   from the page's websocket frames).

Run: ``.venv/bin/python bench/bench_ui.py`` from the project root.
"""

import os
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CLICKS = 20
TARGET_MS = 5.0

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]

# Click the button named NAME and wait (one animation frame at a time) until
# the caption's first sentence changes; returns milliseconds.
CLICK_JS = """
async (name) => {
  const all = (root, pred, out = []) => {
    for (const el of root.querySelectorAll('*')) {
      if (pred(el)) out.push(el);
      if (el.shadowRoot) all(el.shadowRoot, pred, out);
    }
    return out;
  };
  const caption = () => all(document, el => el.classList && el.classList.contains('happened'))[0];
  const button = all(document, el => el.tagName === 'BUTTON' && el.textContent.trim() === name)[0];
  const before = caption().textContent;
  const t0 = performance.now();
  button.click();
  return await new Promise((resolve, reject) => {
    const check = () => {
      const c = caption();
      if (c && c.textContent !== before) resolve(performance.now() - t0);
      else if (performance.now() - t0 > 10000) reject(new Error('caption did not change'));
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
}
"""


def per_step_ms(model, steps=400):
    """Mean milliseconds per ``act("step")``, resetting whenever the output is full."""
    elapsed = 0.0
    done = 0
    while done < steps:
        if model.session.phase == "done":
            model.act("reset")
        t0 = time.perf_counter()
        model.act("step")
        elapsed += time.perf_counter() - t0
        done += 1
    assert not model.notice, model.notice
    return 1000 * elapsed / steps


def rendered(view):
    """``view`` in a Bokeh document held as the Pyodide worker holds it (same thread, linked); its events list."""
    import threading

    import panel as pn
    from bokeh.document import Document
    from panel.io.state import set_curdoc, state

    doc = Document()
    state._connected[doc] = True
    with set_curdoc(doc):
        state._thread_id = threading.get_ident()
        pn.panel(view).server_doc(doc)
    events = []
    doc.on_change(events.append)
    return doc, events


def python_figures():
    from panel.io.state import set_curdoc

    from app.step.model import StepModel
    from app.step.views import StepView

    bare = StepModel(draft="biased", width=3, seed=1)
    per_step_ms(bare, 50)  # warm caches
    model_ms = per_step_ms(bare)
    view = StepView(model=StepModel(draft="biased", width=3, seed=1))
    doc, events = rendered(view)
    models_before = len(doc.models)
    times, counts = [], []
    with set_curdoc(doc):
        per_step_ms(view.model, 20)
        for _ in range(100):
            if view.model.session.phase == "done":
                view.model.act("reset")
            events.clear()
            t0 = time.perf_counter()
            view.actions.buttons["step"].clicks += 1
            times.append(1000 * (time.perf_counter() - t0))
            counts.append(len(events))
    print(f"model step (Python): {model_ms:.3f} ms per step "
          f"[target < {TARGET_MS:.0f} ms: {'met' if model_ms < TARGET_MS else 'NOT met'}]")
    print(f"one click of Next step with the step tab rendered (Python, no browser): median "
          f"{statistics.median(times):.1f} ms, p90 {sorted(times)[89]:.1f} ms [target < 20 ms]")
    print(f"Bokeh events per click: median {statistics.median(counts):.0f}, max {max(counts)} "
          f"(one patch message per click under the worker protocol or a panel serve hold)")
    print(f"Bokeh models in the document: {models_before} before, {len(doc.models)} after 120 clicks")


def serve():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    exe = Path(sys.executable).with_name("panel")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "panel"]
    cmd += ["serve", "app/main.py", "--port", str(port), "--address", "127.0.0.1",
            f"--allow-websocket-origin=127.0.0.1:{port}"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/main"
    for _ in range(240):
        try:
            with urllib.request.urlopen(url, timeout=2):
                return proc, url
        except OSError:
            time.sleep(0.25)
    proc.terminate()
    raise SystemExit("panel serve did not start")


def browser_figures():
    executable = shutil.which("chromium")
    if executable is None:
        print("click to updated text (Chromium): skipped, Debian's chromium is not installed")
        return
    from playwright.sync_api import sync_playwright

    proc, url = serve()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            patches = []

            def on_socket(ws):
                ws.on("framereceived", lambda frame: patches.append(1)
                      if isinstance(frame, str) and "PATCH-DOC" in frame else None)

            page.on("websocket", on_socket)
            page.goto(url + "?draft=biased&width=3&seed=1")
            page.get_by_role("button", name="Next step", exact=True).wait_for(state="visible")
            page.wait_for_timeout(500)
            times, per_click = [], []
            page.evaluate(CLICK_JS, "Next step")  # warm-up, not counted
            while len(times) < CLICKS:
                # Let the rest of the update (button states, charts) land before the next click.
                page.wait_for_timeout(250)
                if page.get_by_role("button", name="Next step", exact=True).is_disabled():
                    page.evaluate(CLICK_JS, "Reset")
                    continue
                patches.clear()
                times.append(page.evaluate(CLICK_JS, "Next step"))
                page.wait_for_timeout(250)
                per_click.append(len(patches))
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    print(f"click to updated text (Chromium, panel serve, {CLICKS} clicks of Next step): "
          f"median {statistics.median(times):.0f} ms, min {min(times):.0f} ms, max {max(times):.0f} ms")
    print(f"PATCH-DOC messages per click (panel serve): median {statistics.median(per_click):.0f}, "
          f"max {max(per_click)}")


if __name__ == "__main__":
    python_figures()
    browser_figures()
