"""Benchmark of build.py's page: what a first visit downloads, and how fast the page shows and starts.

    .venv/bin/python bench/bench_build.py [--loads 5]

Prints figures; never fails on time. Offline: the page is served on
127.0.0.1 and its Pyodide URL points at a local stand-in for the CDN
(tests/build_support/fake_cdn.py: the real Pyodide 0.29.3 runtime, small
stand-ins for numpy, PyYAML, MarkupSafe, nh3, pyodide-http). So:

- Download sizes: our files are measured; Pyodide's core files are the npm
  package's; the compiled packages the page fetches from the CDN are counted
  at the sizes measured in DESIGN.md (not the stand-ins'). The plain
  ``panel convert`` page is estimated the same way from what its worker asks
  micropip for (Panel's CDN wheels, and everything their metadata pulls in),
  beside the 52 MB DESIGN.md measured when replaying it.
- Times: the pre-rendered widget (median of cold loads, empty cache), and
  the start-up stages the page marks (specstep:<stage>) with the stand-ins,
  which is real except numpy's own download (~3.4 MB) and import (~0.3 s).
- CPython import times of the app's modules (``-X importtime``), the proxy
  for the import phase in the browser.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import io
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from build_support.fake_cdn import CORE_FILES, PYODIDE_NPM, make_fake_cdn  # noqa: E402
from build_support.servers import LocalServer  # noqa: E402

MB = 1e6
# Wheels on the Pyodide CDN, as measured in DESIGN.md (MB); the middle of a range.
CDN_PACKAGE_MB = {"numpy": 3.35, "pyyaml": 0.12, "markupsafe": 0.01, "nh3": 0.44, "contourpy": 0.145,
                  "pillow": 1.3, "pyodide-http": 0.01, "micropip": 0.11}
PANDAS_MB_AT_LEAST = 4.0  # DESIGN.md: "well over 4 MB"
PYPI_MB = {"panel": 30.3, "bokeh": 6.4}  # DESIGN.md
PLAIN_REPLAY_MB = 52.0  # DESIGN.md: the plain conversion's page, replayed locally
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def repacked_size(dist_name: str, drop=lambda path: False) -> int:
    """Size of a wheel zipped from an installed distribution's files (≈ what PyPI ships)."""
    dist = importlib.metadata.distribution(dist_name)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as whl:
        for file in dist.files or ():
            rel = str(file)
            if rel.startswith("..") or "__pycache__" in rel or drop(rel):
                continue
            path = Path(dist.locate_file(file))
            if path.is_file():
                whl.write(path, rel)
    return len(buffer.getvalue())


def table(rows, headers):
    widths = [max(len(str(r[i])) for r in rows + [headers]) for i in range(len(headers))]
    line = "  ".join(f"{{:{'<' if i == 0 else '>'}{w}}}" for i, w in enumerate(widths))
    print(line.format(*headers))
    for row in rows:
        print(line.format(*row))


# ---------------------------------------------------------------------------

def build(out: Path, pyodide_url: str) -> float:
    started = time.perf_counter()
    result = subprocess.run([sys.executable, str(ROOT / "build.py"), "--out", str(out), "--pyodide-url", pyodide_url],
                            cwd=ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"build.py failed:\n{result.stdout}\n{result.stderr}")
    return time.perf_counter() - started


def load(browser, url, until_ready: bool):
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    started = time.perf_counter()
    page.goto(url, wait_until="commit")
    page.get_by_role("button", name="Draft", exact=True).first.wait_for(timeout=30_000)
    preview = page.evaluate("performance.now()")
    preview_wall = time.perf_counter() - started
    marks = {}
    if until_ready:
        page.wait_for_function("document.body.dataset.specstep === 'ready' || !!document.querySelector('.specstep-problem')",
                               timeout=180_000)
        marks = {m["name"].split(":", 1)[1]: m["startTime"] / 1000 for m in
                 page.evaluate("performance.getEntriesByType('mark').map(m => ({name: m.name, startTime: m.startTime}))")
                 if m["name"].startswith("specstep:")}
    context.close()
    return preview / 1000, preview_wall, marks


def first_visit(static: Path, site: LocalServer, cdn: LocalServer, packages: dict):
    """Every file the page fetched, with its size (CDN packages at DESIGN.md's sizes)."""
    ours = {}
    for path in site.requests:
        rel = path.lstrip("/") or "index.html"
        file = static / rel
        if file.is_file():
            ours[rel] = file.stat().st_size
    core = {}
    pkgs = {}
    lock_names = {}
    lock = json.loads((PYODIDE_NPM / "pyodide-lock.json").read_text())["packages"]
    for name, entry in lock.items():
        lock_names[entry["file_name"]] = name
    for path in cdn.requests:
        name = path.rsplit("/", 1)[-1]
        if name in CORE_FILES or name == "pyodide-lock.json":
            source = PYODIDE_NPM / name
            core[name] = source.stat().st_size
        elif name in lock_names:
            pkgs[lock_names[name]] = int(CDN_PACKAGE_MB.get(lock_names[name], 0) * MB)
    return ours, core, pkgs


def plain_conversion_estimate(tmp: Path) -> dict:
    """What the plain `panel convert` page of the same app fetches, by part (MB)."""
    out = tmp / "plain"
    env = {"PYTHONPATH": str(ROOT)}
    import os
    subprocess.run([str(Path(sys.executable).parent / "panel"), "convert", str(ROOT / "app" / "main.py"),
                    "--to", "pyodide-worker", "--out", str(out)], cwd=ROOT, capture_output=True, text=True,
                   env={**os.environ, **env})
    html = (out / "main.html").read_text()
    worker = (out / "main.js").read_text()
    parts = {}
    # Its JS/CSS: the same files we copy, from the CDNs.
    import bokeh
    from bokeh.util.paths import bokehjs_path
    from panel.io.resources import DIST_DIR
    js_css = 0
    for url in set(re.findall(r'(?:src|href)="(https?://[^"]+)"', html)):
        name = url.rsplit("/", 1)[-1]
        if "cdn.bokeh.org" in url:
            path = Path(bokehjs_path()) / "js" / name.replace(f"-{bokeh.__version__}", "")
        else:
            path = Path(DIST_DIR) / url.split("/dist/", 1)[1]
        js_css += path.stat().st_size if path.is_file() else 0
    parts["BokehJS + Panel JS/CSS"] = js_css / MB
    parts["Pyodide core (npm package sizes)"] = sum((PYODIDE_NPM / n).stat().st_size for n in
                                                    ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm",
                                                     "python_stdlib.zip", "pyodide-lock.json")) / MB
    parts["micropip"] = CDN_PACKAGE_MB["micropip"]
    parts["panel wheel (PyPI size)"] = PYPI_MB["panel"]
    parts["bokeh wheel (Panel's CDN copy: no BokehJS)"] = repacked_size(
        "bokeh", lambda p: p.startswith("bokeh/server/static/")) / MB
    # Everything panel's and bokeh's metadata pull in, as micropip resolves it.
    lock = json.loads((PYODIDE_NPM / "pyodide-lock.json").read_text())["packages"]
    seen, queue, extra = set(), ["panel", "bokeh"], {}
    while queue:
        name = canonical(queue.pop())
        if name in seen:
            continue
        seen.add(name)
        try:
            dist = importlib.metadata.distribution(name)
            requires = dist.requires or []
        except importlib.metadata.PackageNotFoundError:
            dist, requires = None, lock.get(name, {}).get("depends", [])
        for req in requires:
            if "extra ==" in req or "emscripten" in req:
                continue
            queue.append(re.split(r"[<>=!~ ;\[(]", req, maxsplit=1)[0])
        if name in ("panel", "bokeh"):
            continue
        if name == "pandas":
            extra["pandas (at least)"] = PANDAS_MB_AT_LEAST
        elif name in CDN_PACKAGE_MB:
            extra[name] = CDN_PACKAGE_MB[name]
        elif dist is not None and not any(str(f).endswith(".so") for f in dist.files or ()):
            extra[name] = repacked_size(name) / MB
        else:
            extra[f"{name} (size unknown, not counted)"] = 0.0
    parts["dependencies micropip resolves"] = sum(extra.values())
    assert "micropip" in worker
    return {"parts": parts, "dependencies": extra}


def import_times():
    """CPython -X importtime for the app's entry module: cumulative ms of the heavy imports."""
    result = subprocess.run([sys.executable, "-X", "importtime", "-c", "import app.main"], cwd=ROOT,
                            capture_output=True, text=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    rows = {}
    for line in result.stderr.splitlines():
        match = re.match(r"import time:\s+\d+ \|\s+(\d+) \|( *)(\S+)", line)
        if match:
            rows[match[3]] = (int(match[1]) / 1000, len(match[2]))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=5, help="cold loads for the pre-render median (default 5)")
    parser.add_argument("--starts", type=int, default=3, help="cold start-ups for the stage medians (default 3)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp(prefix="specstep-bench-"))
    try:
        cdn = LocalServer(tmp, cors=True)
        static = tmp / "static"
        seconds = build(static, cdn.url + "pyodide/")
        packages = json.loads((static / "packages.json").read_text())
        make_fake_cdn(tmp, [p["name"] for p in packages["from_pyodide"]])
        info = json.loads((static / "build-info.json").read_text())

        print("== build.py")
        print(f"build time: {seconds:.1f} s (build.py's own count: {info['build_seconds']} s)")
        print(f"static/: {len(info['files'])} files, {info['total_bytes'] / MB:.2f} MB")
        print()
        print("== slim wheels (byte-compiled to Python 3.13, without the JS/CSS the page loads separately)")
        rows = []
        for entry in packages["wheels"]:
            name = entry["name"]
            if name == "specstep":
                rows.append((name, f"{entry['bytes'] / MB:.3f}", "(ours)", ""))
                continue
            full = PYPI_MB.get(canonical(name)) or repacked_size(name) / MB
            rows.append((name, f"{entry['bytes'] / MB:.3f}", f"{full:.3f}", f"{entry['bytes'] / MB / full:.0%}"))
        table(rows, ("wheel", "MB here", "MB full wheel*", "ratio"))
        print("* panel and bokeh: PyPI's wheels (DESIGN.md); others: the installed files zipped as .py")
        print()

        site = LocalServer(static)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
            cdn.clear()
            site.clear()
            _, _, marks = load(browser, site.url + "index.html?draft=biased&width=3&seed=1", until_ready=True)
            ours, core, pkgs = first_visit(static, site, cdn, packages)
            print("== first visit: what the page downloads")
            rows = [(f"static/{k}", f"{v / MB:.3f}") for k, v in sorted(ours.items(), key=lambda kv: -kv[1])]
            rows += [(f"Pyodide CDN: {k}", f"{v / MB:.3f}") for k, v in sorted(core.items(), key=lambda kv: -kv[1])]
            rows += [(f"Pyodide CDN: {k} (DESIGN.md size)", f"{v / MB:.3f}") for k, v in sorted(pkgs.items())]
            table(rows, ("file", "MB"))
            total = (sum(ours.values()) + sum(core.values()) + sum(pkgs.values())) / MB
            wheels = sum(v for k, v in ours.items() if k.startswith("wheels/")) / MB
            print(f"total: {total:.2f} MB  (this site {sum(ours.values()) / MB:.2f} MB, of it wheels {wheels:.2f} MB; "
                  f"Pyodide core {sum(core.values()) / MB:.2f} MB; CDN packages {sum(pkgs.values()) / MB:.2f} MB)")
            plain = plain_conversion_estimate(tmp)
            plain_total = sum(plain["parts"].values())
            print()
            print("== the plain `panel convert` page of the same app (estimated by part)")
            table([(k, f"{v:.2f}") for k, v in plain["parts"].items()], ("part", "MB"))
            print("   dependencies: " + ", ".join(f"{k} {v:.2f}" for k, v in sorted(plain["dependencies"].items())))
            print(f"total (estimate, a lower bound): {plain_total:.1f} MB; measured by replay in DESIGN.md: "
                  f"{PLAIN_REPLAY_MB:.0f} MB")
            print(f"ours / plain: {total / plain_total:.0%} of the estimate, {total / PLAIN_REPLAY_MB:.0%} of the replay "
                  f"(target: under 25 MB and under 60%)")
            print()

            print(f"== pre-rendered widget visible, served on 127.0.0.1, {args.loads} cold loads")
            cdn.set_mode("fail")  # the runtime plays no part in the preview
            times = [load(browser, site.url + "index.html", until_ready=False) for _ in range(args.loads)]
            cdn.set_mode("serve")
            in_page = [t[0] for t in times]
            print(f"median {statistics.median(in_page):.2f} s after navigation start (page clock); runs: "
                  + ", ".join(f"{t:.2f}" for t in in_page) + "  (target: under 1 s)")
            print()

            print(f"== start-up stages with the stand-in CDN, {args.starts} cold loads (seconds after navigation start)")
            runs = [marks] + [load(browser, site.url + "index.html?draft=biased&width=3&seed=1", until_ready=True)[2]
                              for _ in range(args.starts - 1)]
            stages = ["start", "runtime", "runtime-ready", "packages", "app", "ready"]
            rows = []
            for stage in stages:
                values = [r[stage] for r in runs if stage in r]
                if values:
                    rows.append((stage, f"{statistics.median(values):.2f}", ", ".join(f"{v:.2f}" for v in values)))
            table(rows, ("stage reached", "median s", "runs"))
            failed = [k for r in runs for k in r if k.startswith("failed")]
            if failed:
                print(f"(some runs failed: {failed})")
            print("stand-ins: numpy's download (~3.4 MB) and import (~0.3 s) are not in these figures; "
                  "the plain conversion became interactive after 24.6 s (DESIGN.md)")
            browser.close()
        site.stop()
        cdn.stop()

        print()
        print("== CPython import times for `import app.main` (-X importtime, cumulative ms)")
        rows = import_times()
        wanted = [n for n in rows if n in ("panel", "bokeh", "bokeh.plotting", "numpy", "param", "core", "app")
                  or n.startswith("app.")]
        table([(n, f"{rows[n][0]:.0f}") for n in wanted], ("module", "ms"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
