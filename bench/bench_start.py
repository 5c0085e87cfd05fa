"""The Python of the page's start-up, in Pyodide under Node, against a baseline commit, runs alternating.

    .venv/bin/python bench/bench_start.py [--runs 6] [--baseline COMMIT]

Prints figures; never fails on time. Both sites are built as ``bench_build.py`` builds them (real Pyodide,
real packages); ``bench/node/start.mjs`` then replays the worker's start in Node for each, in turn, ``--runs``
times: the packages check (``missing_packages``), importing numpy, Bokeh and Panel, running the app and
writing the document (``bench/node/measure.py``). Medians and ratios. The real page's cold loads vary too
much on a shared 2-vCPU machine to show a change of a tenth of a second (``bench_build.py``); these runs
measure only Python, alternating, so a drifting machine slows both sides alike.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

from bench_build import alternating, baseline_checkout  # noqa: E402
from build_support.local_pyodide import local_pyodide_unavailable  # noqa: E402
from build_support.real_site import real_site  # noqa: E402

START = ROOT / "bench" / "node" / "start.mjs"
STAGES = ("packages check", "imports", "app", "write document")


def run(site) -> dict:
    out = subprocess.run(["node", str(START), str(site.pyodide_folder) + "/", str(site.out)],
                         capture_output=True, text=True, timeout=300)
    lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
    if out.returncode or not lines:
        raise RuntimeError(f"start.mjs failed:\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}")
    return json.loads(lines[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=6, help="runs of each site, alternating (default 6)")
    parser.add_argument("--baseline", default="46b25cd", help="commit to compare with (default 46b25cd)")
    args = parser.parse_args()
    reason = local_pyodide_unavailable()
    if reason:
        print(f"bench_start: cannot run: {reason}")
        return
    print("bench_start: building this checkout and the baseline...", flush=True)
    sites = {"now": real_site(ROOT), "baseline": real_site(baseline_checkout(args.baseline))}
    found = {name: [] for name in sites}
    for name in alternating(["now", "baseline"], args.runs):
        found[name].append(run(sites[name]))
    for name, runs in found.items():
        if any(r["missing"] for r in runs):
            print(f"  {name}: missing packages: {runs[0]['missing']}")
    print(f"\nThe start-up's Python in Pyodide under Node, ms (medians of {args.runs} alternating runs)")
    print(f"  {'':<20} {'now':>8} {'baseline':>9} {'ratio':>6}")
    for runs in found.values():
        for r in runs:
            r["in all"] = sum(r[s] for s in STAGES)
    for stage in (*STAGES, "in all"):
        now = statistics.median(r[stage] for r in found["now"])
        old = statistics.median(r[stage] for r in found["baseline"])
        print(f"  {stage:<20} {now:8,.0f} {old:9,.0f} {now / old:6.2f}")
    spread = [r["in all"] for r in found["now"]]
    print(f"\n  now, in all: {min(spread):,.0f} to {max(spread):,.0f} ms between runs")


if __name__ == "__main__":
    main()
