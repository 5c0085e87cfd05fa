"""Benchmark of the built page in real Pyodide, offline, against the commit before this work.

    .venv/bin/python bench/bench_build.py [--loads 3] [--clicks 20] [--baseline COMMIT | --no-baseline]
                                          [--cpu-throttle 4]

Prints figures; never fails on time. Both pages are built the same way
(``tests/build_support/real_site.py``): ``--pyodide-url`` pointing at a local
Pyodide 0.29.3 with the real compiled packages (npm core + ``../shared/pyodide-packages``),
served on 127.0.0.1 with the CDN's cache headers; the page is served on
127.0.0.1 as well, and Chromium resolves no other host. The baseline (default
8672584, main before the plumbing work) is built from a temporary
``git worktree`` of that commit.

For each page:
- the loader's marks ``specstep:<stage>`` (median of cold loads, the two pages' loads interleaved
  round by round, each in a fresh
  browser context: empty cache, no service worker), and interactive − runtime-ready, for a reader who
  waits for Python (the worker can then keep the drawn page: "takeover kept") and apart for one who
  clicked early (the worker replays the click and its page is drawn: "drawn"); ``--loads`` rounds of both;
- one click of Next step (median of ``--clicks``; Reset when the trace has ended, not
  counted): the worker's "patch" messages, the Python time (each patch the page posts
  until the worker's "idle" for it) and the time from the click's first patch to its
  last patch message;
- Step back and a jump on the timeline (the end, then moment 1, in turn), measured as Next step is
  (median of ``--clicks``), and Play's patch messages per step it takes at its fastest speed;
- where the Draft button sits once the page is ready, at 1200 x 900 and 375 x 812 (issue 26:
  on the first screen at both);
- what a first visit downloads, by file, from the servers' own logs (a file fetched
  twice counts twice; the service worker's precache included; a 304 answer to a
  revalidation sends no body and is listed apart), and index.html's size.
  Cold loads run in a fresh on-disk browser profile, as a reader's first visit does.
- what the reader sees first (each cold load): the preview painted (the browser's first
  contentful paint, and its largest; the loader's mark when the pre-rendered widget is drawn),
  and the first click answered: Next step clicked as soon as the widget takes clicks (the
  preview is inert until Python is up), until the widget's text changes.

``--cpu-throttle N`` slows the page's CPU N times (Chrome DevTools Protocol
``Emulation.setCPUThrottlingRate``, through Playwright's CDP session) for every load and
click of both pages: what a slow school laptop sees. Chromium throttles the page's main
thread; the web worker that runs Python is not slowed (DevTools offers no throttling of a
dedicated worker), so Python's own times stay the machine's.
"""

from __future__ import annotations

import argparse
import atexit
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from build_support.browser import CHROMIUM_ARGS, Visit, chromium_executable, click_and_measure, launch  # noqa: E402
from build_support.local_pyodide import local_pyodide_unavailable  # noqa: E402
from build_support.real_site import real_site  # noqa: E402
from build_support.servers import LocalServer, wait_until  # noqa: E402
from sitebuild.npm_pyodide import NPM_DIR  # noqa: E402
from build_support.live_page import STRIP_JS, TIMED_CLICK_JS  # noqa: E402
from test_prerender import ROOT_TEXT_JS  # noqa: E402

BASELINE = "8672584"
STAGES = ("start", "runtime", "runtime-start", "runtime-ready", "packages", "app", "drawing", "ready")
# What the reader sees first, ms since navigation: the preview painted, the first click answered.
FIRST_SCREEN = ("paint:fcp", "paint:lcp", "specstep:preview", "click:clicked", "click:answered")
FIRST_SCREEN_LABELS = {"paint:fcp": "preview painted (first contentful paint)",
                       "paint:lcp": "largest contentful paint",
                       "specstep:preview": "pre-rendered widget drawn (loader's mark)",
                       "click:clicked": "first click taken (Next step)", "click:answered": "first click answered",
                       "click:after-fcp": "first click answered - first paint"}


def baseline_checkout(commit: str) -> Path:
    """A temporary git worktree of ``commit``, sharing this checkout's npm Pyodide."""
    parent = Path(tempfile.mkdtemp(prefix="specstep-baseline-"))
    folder = parent / "specstep"
    subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(folder), commit], cwd=ROOT, check=True)
    # Last in, first out: the worktree is removed, then its temporary parent.
    atexit.register(shutil.rmtree, parent, True)
    atexit.register(subprocess.run, ["git", "worktree", "remove", "--force", str(folder)], cwd=ROOT,
                    capture_output=True)
    # The build of that time read the npm package from tests/pyodide/; the same package is here.
    old_npm = folder / "tests" / "pyodide" / "node_modules"
    if not old_npm.exists():
        old_npm.symlink_to(NPM_DIR / "node_modules")
    return folder


class FirstVisit(Visit):
    """A visit in a fresh browser profile on disk: an empty cache that keeps large files, as a
    reader's browser has (a Playwright context keeps its cache in memory, which drops
    Pyodide's 8.6 MB .wasm, so the service worker would download it a second time)."""

    def __init__(self, playwright):
        self.profile = tempfile.mkdtemp(prefix="specstep-profile-")
        self.context = playwright.chromium.launch_persistent_context(
            self.profile, executable_path=chromium_executable(), args=CHROMIUM_ARGS,
            viewport={"width": 1200, "height": 900})
        self.requests, self.errors = [], []
        self.context.on("request", lambda r: self.requests.append(r.url))
        self.page = self.context.new_page()

    def close(self):
        self.context.close()
        shutil.rmtree(self.profile, ignore_errors=True)


def throttle(visit, rate: float):
    """Slow the page's CPU ``rate`` times (1: not at all), from before it loads."""
    if rate and rate != 1:
        session = visit.context.new_cdp_session(visit.page)
        session.send("Emulation.setCPUThrottlingRate", {"rate": rate})


PAINTS_JS = """async () => {
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  const lcp = await new Promise((resolve) => {
    new PerformanceObserver((list) => resolve(list.getEntries().at(-1))).observe({type: 'largest-contentful-paint', buffered: true});
    setTimeout(() => resolve(null), 1000);
  });
  return {fcp: fcp ? fcp.startTime : NaN, lcp: lcp ? lcp.startTime : NaN};
}"""
# The widget's text (its roots, shadow roots included; not the status line, which goes at "ready"),
# to tell that a click changed the screen.
SCREEN_TEXT_JS = """() => {
  const deep = (node, parts) => {
    if (node.nodeType === Node.TEXT_NODE) { parts.push(node.textContent); return parts; }
    if (node.shadowRoot) deep(node.shadowRoot, parts);
    for (const child of node.childNodes) deep(child, parts);
    return parts;
  };
  return Array.from(document.querySelectorAll('[data-root-id]')).map((root) => deep(root, []).join(' ')).join(' ');
}"""


# The widget takes clicks: its roots are not inert (the loader keeps the preview inert until it can answer).
CLICKABLE_JS = """() => { const roots = document.querySelectorAll('[data-root-id]');
  return roots.length > 0 && !Array.from(roots).some((root) => root.hasAttribute('inert')); }"""


def first_click(visit, button: str = "Next step", timeout_s: float = 600.0) -> dict:
    """The first click the widget answers: ``button`` is clicked as soon as the widget takes clicks (an inert
    preview does not; a live one would at once), and answered when the widget's text changes (ms since
    navigation). The checks are cheap (an attribute, polled every 100 ms) so as not to slow the page."""
    page = visit.page
    page.wait_for_function(CLICKABLE_JS, timeout=timeout_s * 1000, polling=100)
    target = visit.button(button).first
    target.wait_for(state="visible", timeout=timeout_s * 1000)
    before = page.evaluate(SCREEN_TEXT_JS)
    clicked = page.evaluate("performance.now()")
    target.click(timeout=timeout_s * 1000)
    # Changed, and not a widget being drawn again (its roots empty for a moment).
    page.wait_for_function("(before) => { const now = (" + SCREEN_TEXT_JS + ")(); "
                           "return now !== before && now.trim().length > before.trim().length / 2; }", arg=before,
                           timeout=timeout_s * 1000, polling=100)
    return {"clicked": clicked, "answered": page.evaluate("performance.now()")}


def cold_load(playwright, url: str, site: LocalServer, pyodide: LocalServer, rate: float = 1,
              early_click: bool = True) -> dict:
    """One first visit: marks, and every file downloaded from both servers by the time the cache is filled.
    With ``early_click`` the reader clicks Next step as soon as the widget takes clicks (the first click's
    figures); without, the reader waits (then Python can keep the drawn page: issue 27)."""
    site.clear()
    pyodide.clear()
    visit = FirstVisit(playwright)
    try:
        throttle(visit, rate)
        visit.page.goto(url, wait_until="commit")
        click = first_click(visit) if early_click else {}
        # On a busy machine a page may pass its download time limit and then start anyway.
        visit.page.wait_for_function("document.body && document.body.dataset.specstep === 'ready'", timeout=600_000)
        marks = visit.marks()
        paints = visit.page.evaluate(PAINTS_JS)
        marks.update({"paint:fcp": paints["fcp"], "paint:lcp": paints["lcp"]})
        if click:
            marks.update({"click:clicked": click["clicked"], "click:answered": click["answered"]})
        takeover = visit.page.evaluate("document.body.dataset.specstepTakeover || '-'")
        installed_by = visit.page.evaluate("document.body.dataset.specstepInstalledBy || '-'")
        # The service worker precaches once the widget is up: count its downloads too.
        cached = "async () => (await caches.keys()).length"
        wait_until(lambda: visit.page.evaluate(cached) > 0, 20)
        visit.page.wait_for_timeout(3000)
        # A 304 answers a revalidation with no body: the file is not downloaded again.
        downloads = site.downloaded() + pyodide.downloaded("CDN ")
        revalidated = site.revalidated() + pyodide.revalidated("CDN ")
        return {"marks": marks, "downloads": downloads, "revalidated": revalidated, "takeover": takeover,
                "installed_by": installed_by, "early_click": early_click}
    finally:
        visit.close()


def clicks(browser, url: str, count: int, rate: float = 1) -> dict:
    """Per-click figures in one ready page: Next step, Step back and a jump on the timeline (issue 26),
    ``count`` clicks each, and Play's patches per step it takes."""
    visit = Visit(browser)
    samples = {"step": [], "back": [], "jump": []}
    try:
        throttle(visit, rate)
        visit.page.goto(url)
        visit.page.wait_for_function("document.body.dataset.specstep === 'ready'", timeout=600_000)
        while len(samples["step"]) < count:
            if visit.button("Next step").is_disabled():
                visit.button("Reset").click()
                visit.page.wait_for_timeout(1000)
                continue
            samples["step"].append(click_and_measure(visit, "Next step"))
        if not visit.button("Step back").count():  # a baseline from before issue 26
            return samples
        while len(samples["back"]) < count:
            if visit.button("Step back").is_disabled():  # at the start: go forward again first
                click_and_measure(visit, "Run to end")
                continue
            samples["back"].append(click_and_measure(visit, "Step back"))
        moments = visit.page.locator('[data-sp-open^="moment:"]')
        last = moments.count() - 1
        for i in range(count):  # far jumps, forward and back: the end, then the start's neighbour
            target = moments.nth(last if i % 2 == 0 else 1)
            samples["jump"].append(click_and_measure(visit, "timeline", target=target))
        samples["play"] = play_patches(visit)
    finally:
        visit.close()
    return samples


def play_patches(visit, seconds: float = 4.0) -> float:
    """Patch messages per step while Play runs at its fastest speed (each step is one Next step click)."""
    from build_support.browser import instrument

    click_and_measure(visit, "Reset")
    instrument(visit)
    page = visit.page
    visit.button("Fast").click()
    # The moment on screen, as the URL says it (steps=N; the timeline's buttons are in shadow roots).
    moment = "() => Number(new URLSearchParams(location.search).get('steps') || 0)"
    page.wait_for_timeout(1000)
    start = page.evaluate(moment)
    page.evaluate("window.specstepWorker.specstepLog.length = 0")
    visit.button("Play").click()
    page.wait_for_timeout(seconds * 1000)
    if visit.button("Pause").count():
        visit.button("Pause").click()
    page.wait_for_timeout(1000)
    log = page.evaluate("window.specstepWorker.specstepLog.slice()")
    patches = sum(1 for entry in log if entry[0] == "patch")
    steps = max(1, page.evaluate(moment) - start)  # the moments Play moved through
    return patches / steps  # Play's and Pause's own clicks are counted in too: an upper bound


FIRST_SCREENS = ((1200, 900), (375, 812))  # issue 26: Draft on the first screen at both


def first_screen(browser, url: str) -> dict:
    """Where the Draft button sits once the page is ready: its top and bottom, px from the top, per size."""
    where = {}
    for width, height in FIRST_SCREENS:
        visit = Visit(browser, viewport=(width, height))
        try:
            visit.page.goto(url)
            visit.wait_ready(600_000)
            box = visit.button("Draft").bounding_box()
            where[f"{width}x{height}"] = (box["y"], box["y"] + box["height"], height)
        finally:
            visit.close()
    return where


def size_of(path: str, out: Path, pyodide_folder: Path) -> int:
    if path.startswith("CDN "):
        local = pyodide_folder.parent / path[4:].lstrip("/")
    else:
        local = out / path.lstrip("/")
        if path.endswith("/"):
            local = local / "index.html"
    return local.stat().st_size if local.is_file() else 0


def live_preview(browser, url: str, pyodide: LocalServer, count: int, rate: float = 1) -> dict | None:
    """The live preview (issue 27), Python held back (Pyodide's server hangs): ``count`` clicks of Next step
    and Step back, each until its recorded change is on screen (next frame); then Python comes up, and the
    page's deep text and token strip just before and after the takeover are compared. None: no live preview."""
    pyodide.set_mode("hang")
    visit = Visit(browser)
    try:
        throttle(visit, rate)
        visit.page.goto(url)
        try:
            visit.page.wait_for_function("performance.getEntriesByName('specstep:live').length > 0", timeout=30_000)
        except Exception:
            return None
        times = [visit.page.evaluate(TIMED_CLICK_JS, "Next step" if i % 12 < 6 else "Step back") for i in range(count)]
        before = (visit.page.evaluate(ROOT_TEXT_JS), visit.page.evaluate(STRIP_JS))
        pyodide.set_mode("serve")
        visit.page.wait_for_function("document.body.dataset.specstep === 'ready'", timeout=600_000)
        visit.page.wait_for_timeout(300)
        after = (visit.page.evaluate(ROOT_TEXT_JS), visit.page.evaluate(STRIP_JS))
        answered = [t for t in times if t is not None]
        return {"click_ms": statistics.median(answered) if answered else float("nan"),
                "unanswered": len(times) - len(answered), "identical": before == after}
    finally:
        pyodide.set_mode("serve")
        visit.close()


class Page:
    """One checkout's page, built and served, and its cold loads so far."""

    def __init__(self, root: Path):
        self.built = real_site(root)
        self.site = LocalServer(self.built.out)
        self.url = self.site.url + "index.html"
        self.visits = []

    def round(self, playwright, rate: float = 1):
        """A reader who waits for Python, then one who clicks at once."""
        for early in (False, True):
            self.visits.append(cold_load(playwright, self.url, self.site, self.built.pyodide, rate, early_click=early))


def alternating(items: list, rounds: int):
    """``items`` in turn, ``rounds`` times: in their order in even rounds, reversed in odd ones, so a machine
    that slows down or speeds up meanwhile slows every item alike (bench_build's pages, bench_start's sites)."""
    for i in range(rounds):
        yield from (items if i % 2 == 0 else items[::-1])


def cold_rounds(pages: list, loads: int, playwright, rate: float = 1) -> None:
    """``loads`` rounds of cold loads of every page, interleaved (``alternating``)."""
    for page in alternating(pages, loads):
        page.round(playwright, rate)


def measure(page: Page, click_count: int, browser, rate: float = 1) -> dict:
    built, site, url, visits = page.built, page.site, page.url, page.visits
    try:
        samples = clicks(browser, url, click_count, rate)
        screens = first_screen(browser, url)
        live = live_preview(browser, url, built.pyodide, click_count, rate)
    finally:
        site.stop()
    waited = [v for v in visits if not v["early_click"]]
    clicked = [v for v in visits if v["early_click"]]

    def stages(group):
        return {stage: statistics.median(v["marks"].get(f"specstep:{stage}", float("nan")) for v in group)
                for stage in STAGES}

    marks, marks_clicked = stages(waited), stages(clicked)
    first = {name: statistics.median(v["marks"].get(name, float("nan")) for v in clicked) for name in FIRST_SCREEN}
    first["click:after-fcp"] = statistics.median(v["marks"]["click:answered"] - v["marks"]["paint:fcp"]
                                                 for v in clicked)
    downloads = visits[0]["downloads"]
    by_file = {path: n * size_of(path, built.out, built.pyodide_folder) for path, n in downloads.items()}
    return {
        "marks": marks,
        "first": first,
        "interactive_after_runtime": marks["ready"] - marks["runtime-ready"],
        "interactive_after_runtime_clicked": marks_clicked["ready"] - marks_clicked["runtime-ready"],
        "installing": marks["app"] - marks["packages"],
        "installed_by": sorted({v.get("installed_by", "-") for v in waited + clicked}),
        "takeovers": {kind: [v["takeover"] for v in group] for kind, group in (("waited", waited),
                                                                                ("clicked", clicked))},
        "patches": statistics.median(s["patches"] for s in samples["step"]),
        "python_ms": statistics.median(s["python_ms"] for s in samples["step"]),
        "settled_ms": statistics.median(s["settled_ms"] for s in samples["step"]),
        "last_patch_ms": statistics.median(s["last_patch_ms"] for s in samples["step"]),
        "moves": {kind: {key: statistics.median(s[key] for s in samples[kind])
                         for key in ("patches", "python_ms", "last_patch_ms")}
                  for kind in ("back", "jump") if samples[kind]},
        "play_patches_per_step": samples.get("play"),
        "bytes": by_file,
        "fetches": downloads,
        "revalidated": visits[0]["revalidated"],
        "index_html": (built.out / "index.html").stat().st_size,
        "build_seconds": built.seconds,
        "first_screen": screens,
        "live": live,
        "moments_bytes": {q or "(default)": m for q, m in built.info.get("moments", {}).items()},
    }


def group(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    if name == "python_stdlib.zip" or path.startswith("CDN ") and name.startswith("pyodide"):
        return "Pyodide core"
    if path.startswith("CDN "):
        return "Pyodide packages"
    if path.startswith("/wheels/") or name == "python.tar.gz":
        return "our slim wheels (+ moved stdlib)"
    if path.startswith(("/bokeh/", "/panel/")):
        return "BokehJS + Panel JS/CSS"
    if name in ("", "index.html"):
        return "index.html"
    return "the rest (loader, worker, icons, lists)"


def ratio(new, old) -> str:
    try:
        return f"{new / old:.2f}" if old else "-"
    except TypeError:
        return "-"


def row(label, new, old, fmt) -> str:
    old_text = fmt(old) if old is not None else "-"
    return f"  {label:<38} {fmt(new):>12} {old_text:>12} {ratio(new, old) if old is not None else '-':>7}"


def report(new: dict, old: dict | None):
    def ms(v):
        return "-" if v != v else f"{v:,.0f} ms"

    def mb(v):
        return f"{v / 1e6:.2f} MB"

    def get(d, *keys):
        if d is None:
            return None
        for key in keys:
            d = d[key]
        return d

    head = f"  {'':<38} {'now':>12} {'baseline':>12} {'ratio':>7}"
    print("\nStart-up, ms since navigation (median of cold loads; the reader waits for Python)")
    print(head)
    for stage in STAGES:
        print(row(f"specstep:{stage}", new["marks"][stage], get(old, "marks", stage), ms))
    print(row("interactive - runtime-ready", new["interactive_after_runtime"],
              get(old, "interactive_after_runtime"), ms))
    print(row("  the same after an early click", new["interactive_after_runtime_clicked"],
              (old or {}).get("interactive_after_runtime_clicked"), ms))
    print(row("  packages -> app (installing)", new["installing"], get(old, "installing"), ms))
    if new.get("installed_by"):
        print(f"  {'release packages installed by':<38} {' '.join(new['installed_by']):>12}  "
              "(worker: unzipped while the runtime starts)")
    takeovers = new.get("takeovers") or {}
    for kind, label in (("waited", "waited"), ("clicked", "after an early click")):
        if takeovers.get(kind):
            print(f"  {'takeover, ' + label:<38} {' '.join(takeovers[kind]):>12}  (kept: the drawn page linked)")
    print("\nWhat the reader sees first, ms since navigation (median of the cold loads with an early click)")
    print(head)
    for name in (*FIRST_SCREEN, "click:after-fcp"):
        print(row(FIRST_SCREEN_LABELS[name], new["first"][name],
                  get(old, "first", name) if old and "first" in old else None, ms))
    print("\nThe live preview before Python is ready (issue 27; Python held back; median of the clicks)")
    print(head)
    live, old_live = new.get("live"), (old or {}).get("live")
    print(row("early click -> recorded change on screen", live["click_ms"] if live else float("nan"),
              old_live["click_ms"] if old_live else None, ms))
    print(f"  {'takeover identical (deep text, token strip)':<38} "
          f"{('yes' if live['identical'] else 'NO') if live else '-':>12} "
          f"{('yes' if old_live['identical'] else 'NO') if old_live else '-':>12}")
    for query, info in new.get("moments_bytes", {}).items():
        size = f"{info.get('bytes', 0) / 1e3:,.0f} KB, {info['gzip_bytes'] / 1e3:,.1f} KB gzip" \
            + ("" if info.get("file") else " (left out)")
        print(f"  recorded moments {query[:40]:<21} {size:>30}")
    print("\nOne click of Next step (median)")
    print(head)
    print(row("patch messages", new["patches"], get(old, "patches"), lambda v: f"{v:g}"))
    print(row("Python ms (measured in the worker)", new["python_ms"], get(old, "python_ms"), ms))
    print(row("patch posted -> idle handled (page)", new["settled_ms"], get(old, "settled_ms"), ms))
    print(row("first patch posted -> last patch", new["last_patch_ms"], get(old, "last_patch_ms"), ms))
    print("\nStep back and a timeline jump (median; the same measures as Next step) and Play")
    print(head)
    for kind, label in (("back", "Step back"), ("jump", "timeline jump")):
        figures = new["moves"].get(kind)
        if figures is None:
            continue
        before = old.get("moves", {}).get(kind) if old else None
        print(row(f"{label}: patch messages", figures["patches"], before and before["patches"], lambda v: f"{v:g}"))
        print(row(f"{label}: Python ms", figures["python_ms"], before and before["python_ms"], ms))
        print(row(f"{label}: first -> last patch", figures["last_patch_ms"], before and before["last_patch_ms"], ms))
    if new["play_patches_per_step"] is not None:
        print(row("Play: patch messages per step", new["play_patches_per_step"],
                  old.get("play_patches_per_step") if old else None, lambda v: f"{v:.2f}"))
    print("\nFirst screen: the Draft button's bottom edge, px from the top (on the first screen: <= its height)")
    print(head)
    for size, (top, bottom, height) in new["first_screen"].items():
        print(row(f"{size}: Draft at y = {top:,.0f}", bottom, get(old, "first_screen", size, 1),
                  lambda v: f"{v:,.0f} px"))
    print("\nFirst visit, bytes downloaded (both servers' logs; a file downloaded twice counts twice)")
    print(head)
    groups = sorted({group(p) for p in new["bytes"]} | ({group(p) for p in old["bytes"]} if old else set()))
    for name in groups:
        total_new = sum(b for p, b in new["bytes"].items() if group(p) == name)
        total_old = sum(b for p, b in old["bytes"].items() if group(p) == name) if old else None
        print(row(name, total_new, total_old, mb))
    print(row("total", sum(new["bytes"].values()), sum(old["bytes"].values()) if old else None, mb))
    print(row("index.html size", new["index_html"], get(old, "index_html"), lambda v: f"{v / 1e3:,.0f} KB"))
    index_fetches = lambda d: sum(n for p, n in d["fetches"].items() if group(p) == "index.html")  # noqa: E731
    print(row("index.html fetches", index_fetches(new), index_fetches(old) if old else None, lambda v: f"{v}"))
    revalidated = lambda d: sum(d["revalidated"].values())  # noqa: E731
    print(row("revalidations (304, no body)", revalidated(new), revalidated(old) if old else None, lambda v: f"{v}"))
    print("\nFirst visit now, by file (bytes x times; CDN = the Pyodide server)")
    for path, size in sorted(new["bytes"].items(), key=lambda kv: -kv[1]):
        print(f"  {path:<70} {size / 1e6:8.3f} MB x{new['fetches'][path]}")
    if new["revalidated"]:
        print("  revalidated only (304, no body): " + ", ".join(sorted(new["revalidated"])))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--loads", type=int, default=3, help="rounds of cold loads per page, each a reader who waits and one who clicks early (default 3)")
    parser.add_argument("--clicks", type=int, default=20, help="clicks of Next step per page (default 20)")
    parser.add_argument("--baseline", default=BASELINE, help=f"commit to compare with (default {BASELINE})")
    parser.add_argument("--no-baseline", action="store_true", help="measure this checkout only")
    parser.add_argument("--cpu-throttle", type=float, default=1, metavar="N",
                        help="slow the page's CPU N times (Emulation.setCPUThrottlingRate; default 1: not at all)")
    args = parser.parse_args()
    reason = local_pyodide_unavailable()
    if reason:
        print(f"bench_build: cannot run: {reason}")
        return
    os.environ.setdefault("SPECSTEP_FULL_SETUP", "")
    from playwright.sync_api import sync_playwright

    print(f"bench_build: building this checkout ({ROOT}) against a local real Pyodide...", flush=True)
    pages = [Page(ROOT)]
    print(f"  built in {pages[0].built.seconds:.0f} s", flush=True)
    if not args.no_baseline:
        print(f"bench_build: building the baseline {args.baseline} from a git worktree...", flush=True)
        try:
            pages.append(Page(baseline_checkout(args.baseline)))
            print(f"  built in {pages[1].built.seconds:.0f} s", flush=True)
        except Exception as error:  # the figures of this checkout still count
            print(f"  the baseline could not be built: {type(error).__name__}: {error}", flush=True)
    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            print(f"bench_build: {args.loads} rounds of cold loads, the pages interleaved...", flush=True)
            cold_rounds(pages, args.loads, playwright, args.cpu_throttle)
            new = measure(pages[0], args.clicks, browser, args.cpu_throttle)
            old = None
            if len(pages) > 1:
                try:
                    old = measure(pages[1], args.clicks, browser, args.cpu_throttle)
                except Exception as error:  # the figures of this checkout still count
                    print(f"  the baseline could not be measured: {type(error).__name__}: {error}", flush=True)
        finally:
            browser.close()
    if args.cpu_throttle != 1:
        print(f"\nThe page's CPU slowed {args.cpu_throttle:g}x (Emulation.setCPUThrottlingRate; not the Python worker).")
    report(new, old)
    print("\n(2 vCPU shared with other work: times are indicative; compare ratios, run again for spread.)")


if __name__ == "__main__":
    if shutil.which("chromium") is None:
        sys.exit("bench_build: needs Debian's chromium")
    main()
