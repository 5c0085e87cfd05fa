"""What a second embed on the same course-notes page costs (issue 14 item 3). Prints figures; never fails.

    .venv/bin/python bench/bench_embeds.py [--runs 2]

The built page in real Pyodide, offline (``tests/build_support/real_site.py``), embedded
in host pages on 127.0.0.1:
- ``one``: one embed at the top of the notes;
- ``two``: the same, plus a second embed far below the fold (3,000 px of notes between);
- ``two, both scrolled to``: the second page after the reader scrolled to the second embed.

The embeds are the widget's own snippet (``app/embed/snippet.py``: the iframe and the host
script that sizes it). Each case runs in a fresh Chromium (empty cache, no service worker) until the first
embed is interactive, plus 3 s for the service worker's precache and the second
embed's poster. Figures: each embed's time to ready (from navigation, or for the second
embed from the reader's scroll to it), the host's cumulative layout shift until then
(``PerformanceObserver('layout-shift')`` in the host; the target is under 0.1), bytes downloaded (both servers' logs; a file sent twice counts
twice, a 304 answer, which has no body, not at all), the resident memory of all of Chromium's processes (from /proc: the browser, its
renderers and the workers' Pythons), and how many embeds started a Python. Ratios are
against ``one``; the target is two < 1.3x one in bytes and memory.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from build_support.browser import CHROMIUM_ARGS, chromium_executable  # noqa: E402
from build_support.local_pyodide import local_pyodide_unavailable  # noqa: E402
from build_support.real_site import real_site  # noqa: E402
from build_support.servers import LocalServer  # noqa: E402

from app.embed import snippet  # noqa: E402


def frame(id):
    return snippet.iframe("index.html", title=f"specstep {id}").replace("<iframe ", f'<iframe id="{id}" ', 1)


HOSTS = {
    "bench-one.html": frame("top") + snippet.host_script(),
    "bench-two.html": frame("top") + '<div style="height:3000px">notes</div>' + frame("below") + snippet.host_script(),
}
# The host's layout shifts not caused by input, summed (the page's own, not its frames').
SHIFT_JS = """if (window.top === window) { window.benchShift = 0; new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) window.benchShift += e.value; })
  .observe({ type: "layout-shift", buffered: true }); }"""
# For each frame: when it was ready, in ms on the host's clock (null: not ready).
READY_AT_JS = """() => [...document.querySelectorAll('iframe')].map((f) => { const w = f.contentWindow;
  const m = w.performance.getEntriesByName('specstep:ready')[0];
  return m ? w.performance.timeOrigin + m.startTime - performance.timeOrigin : null; })"""
# [the frame's loader stage, whether it started a worker (a Python)] for each frame.
FRAMES_JS = """() => [...document.querySelectorAll('iframe')].map((f) => {
  const w = f.contentWindow; const s = w.document.getElementById('specstep-status');
  const b = w.document.body;  // none: a lazy iframe the browser has not loaded yet
  return [f.id, b ? (b.dataset.specstep || (s && s.dataset.stage) || '') : 'not loaded', !!w.specstepWorker]; })"""
# A frame's readiness (a lazy iframe not loaded yet has an empty document, with no body).
READY_JS = "() => {{ const b = document.getElementById('{id}').contentWindow.document.body; " \
           "return !!b && b.dataset.specstep === 'ready'; }}"
TOP_READY_JS = READY_JS.format(id="top")


def process_tree_rss(pid: int) -> int:
    """Resident bytes of ``pid`` and all its descendants (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
    total, todo = 0, [pid]
    page = os.sysconf("SC_PAGE_SIZE")
    while todo:
        current = todo.pop()
        try:
            total += int(Path(f"/proc/{current}/statm").read_text().split()[1]) * page
        except OSError:
            pass
        todo.extend(children.get(current, []))
    return total


def browser_pid() -> int:
    """Chromium's main process as Playwright starts it (over a pipe; renderers carry --type=)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if b"--remote-debugging-pipe" in cmdline and b"--type=" not in cmdline:
                found.append(int(entry))
    assert found, "no Chromium browser process"
    return max(found)  # the newest


def one_case(playwright, site: LocalServer, pyodide: LocalServer, host: str, scroll: bool) -> dict:
    site.clear()
    pyodide.clear()
    browser = playwright.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
    try:
        pid = browser_pid()
        context = browser.new_context(viewport={"width": 1000, "height": 900})
        context.add_init_script(SHIFT_JS)
        page = context.new_page()
        page.goto(site.url + host)
        page.wait_for_function(TOP_READY_JS, timeout=600_000)
        scrolled = None
        if scroll:
            scrolled = page.evaluate("performance.now()")
            page.locator("#below").scroll_into_view_if_needed()
            page.wait_for_function(READY_JS.format(id="below"), timeout=600_000)
        page.wait_for_timeout(3000)
        frames = page.evaluate(FRAMES_JS)
        ready_at = page.evaluate(READY_AT_JS)
        # The first embed from navigation; a scrolled-to one from the scroll.
        to_ready = [None if at is None else (at - (scrolled if i and scrolled is not None else 0)) / 1000
                    for i, at in enumerate(ready_at)]
        shift = page.evaluate("window.benchShift")
        rss = process_tree_rss(pid)
        downloads = site.downloaded() + pyodide.downloaded("CDN ")  # a 304 sends no body
        return {"frames": frames, "rss": rss, "downloads": downloads, "to_ready": to_ready, "shift": shift}
    finally:
        browser.close()


def size(path: str, out: Path, pyodide_folder: Path) -> int:
    local = pyodide_folder.parent / path[4:].lstrip("/") if path.startswith("CDN ") else out / path.lstrip("/")
    if local.is_dir():
        local = local / "index.html"
    return local.stat().st_size if local.is_file() else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=2, help="runs per case (default 2; medians)")
    args = parser.parse_args()
    reason = local_pyodide_unavailable()
    if reason:
        sys.exit(f"bench_embeds: {reason}")
    from playwright.sync_api import sync_playwright

    built = real_site()
    for name, body in HOSTS.items():
        (built.out / name).write_text(f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>notes'
                                      f'</title></head><body style="margin:0">{body}</body></html>')
    site = LocalServer(built.out)
    cases = {"one": ("bench-one.html", False), "two": ("bench-two.html", False),
             "two, both scrolled to": ("bench-two.html", True)}
    results = {}
    try:
        with sync_playwright() as playwright:
            for label, (host, scroll) in cases.items():
                runs = [one_case(playwright, site, built.pyodide, host, scroll) for _ in range(args.runs)]
                results[label] = {
                    "bytes": statistics.median(sum(n * size(p, built.out, built.pyodide_folder)
                                                   for p, n in r["downloads"].items()) for r in runs),
                    "rss": statistics.median(r["rss"] for r in runs),
                    "pythons": max(sum(1 for f in r["frames"] if f[2]) for r in runs),
                    "frames": runs[-1]["frames"],
                    "to_ready": [statistics.median(t) if None not in t else None
                                 for t in zip(*(r["to_ready"] for r in runs))],
                    "shift": max(r["shift"] for r in runs),
                }
    finally:
        site.stop()
    one = results["one"]
    print(f"\nEmbeds on one host page (median of {args.runs} fresh browsers; real Pyodide, offline)")
    print(f"  {'':<24} {'bytes':>10} {'ratio':>7} {'memory (RSS)':>13} {'ratio':>7} {'Pythons':>8}")
    for label, r in results.items():
        print(f"  {label:<24} {r['bytes'] / 1e6:8.2f} MB {r['bytes'] / one['bytes']:6.2f}x "
              f"{r['rss'] / 1e6:10.0f} MB {r['rss'] / one['rss']:6.2f}x {r['pythons']:>8}")
    print("  time to ready of each embed (s; the first from navigation, a scrolled-to one from the scroll)"
          " and the host's cumulative layout shift (the largest of the runs; target < 0.1):")
    for label, r in results.items():
        times = ", ".join("not started" if t is None else f"{t:.1f}" for t in r["to_ready"])
        print(f"    {label:<24} {times:<22} layout shift {r['shift']:.3f}")
    print("  frames (id, stage, Python started) in the last run of each case:")
    for label, r in results.items():
        print(f"    {label}: {r['frames']}")
    two = results["two"]
    met = two["bytes"] < 1.3 * one["bytes"] and two["rss"] < 1.3 * one["rss"]
    print(f"\n  two < 1.3x one in bytes and memory: {'met' if met else 'NOT met'} "
          "(an embed below the fold waits behind its poster until the reader scrolls to it or starts it)")


if __name__ == "__main__":
    started = time.monotonic()
    main()
    print(f"  ({time.monotonic() - started:.0f} s)")
