"""Sampler benchmark: prints figures, never fails on time.

    .venv/bin/python bench/bench_sampler.py [--runs N] [--repeat R]

Runs per second of ``core.sampler.sample_prefixes`` for N runs (default
100,000, the most the "Why it is exact" tab draws) of the first 4 tokens,
on CPython and in Pyodide 0.29.3 under Node (timed inside Python with
time.perf_counter; boot and load reported apart), for the exact rule with
both drafts at width 3 and for ordinary target-only decoding
(``sampler.sample_target``). Best of R repeats. Issue 5's target: 100,000
runs of 4 tokens in under 2 s on CPython; the Pyodide / CPython ratio says
how long the same sample takes in the reader's browser. The last column is
the time of one chunk of the tab (``app.exact_tab.CHUNK`` runs), the longest
the page's Python is busy between two progress updates.
"""

import argparse
import json
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from core import sampler  # noqa: E402  (MAX_RUNS; the measurement imports it again)
from pyodide_runner import PyodideScriptError, PyodideUnavailable, run_in_pyodide  # noqa: E402

K = 4
CHUNK = 2_500  # app.exact_tab.CHUNK (not imported: the app needs panel, the benchmark only core)
CASES = (
    ("exact rule, biased draft, width 3", "prefixes", {"draft": "biased", "width": 3, "variant": "exact"}),
    ("exact rule, aligned draft, width 3", "prefixes", {"draft": "aligned", "width": 3, "variant": "exact"}),
    ("ordinary decoding (target only)", "target", {}),
)

# The measurement itself, one source for both runtimes.
MEASURE = """
import time
from core import sampler


def measure(cases, k, runs, repeat):
    out = []
    for name, kind, kw in cases:
        best = None
        for _ in range(repeat):
            start = time.perf_counter()
            if kind == "prefixes":
                counts = sampler.sample_prefixes(kw["draft"], kw["width"], k, runs, base_seed=0, variant=kw["variant"])
            else:
                counts = sampler.sample_target(k, runs, base_seed=0)
            seconds = time.perf_counter() - start
            best = seconds if best is None else min(best, seconds)
        out.append({"name": name, "seconds": best, "counts": sorted(("".join(s), c) for s, c in counts.items())})
    return out
"""

# Pyodide's Python runs it as a program and prints one JSON line.
SCRIPT = MEASURE + """
import json, sys
cases, k, runs, repeat = json.loads(sys.argv[1])
began = time.perf_counter()
out = measure(cases, k, runs, repeat)
print(json.dumps({"version": sys.version.split()[0], "cases": out, "total": time.perf_counter() - began}))
"""


def by_name(cases):
    """{name: (best seconds, counts as a sorted list of pairs)}."""
    return {c["name"]: (c["seconds"], [tuple(x) for x in c["counts"]]) for c in cases}


def cpython(runs, repeat):
    """The measurement on this interpreter."""
    namespace = {}
    exec(MEASURE, namespace)
    return by_name(namespace["measure"](CASES, K, runs, repeat))


def pyodide(runs, repeat):
    """(results as ``cpython`` gives them, boot + load seconds, Python version), or a reason it could not run."""
    start = time.perf_counter()
    try:
        raw = run_in_pyodide(SCRIPT, mounts=("core", "toy_tables"), args=(json.dumps([CASES, K, runs, repeat]),),
                             timeout=900)
    except (PyodideUnavailable, PyodideScriptError) as exc:
        return str(exc).splitlines()[0]
    wall = time.perf_counter() - start
    data = json.loads(raw)
    return by_name(data["cases"]), wall - data["total"], data["version"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=sampler.MAX_RUNS, help="runs per sample (at most 100,000)")
    parser.add_argument("--repeat", type=int, default=3, help="repeats per figure; the best is reported")
    args = parser.parse_args()

    print(f"sample_prefixes: {args.runs:,} runs of the first {K} tokens, seeds 0 to {args.runs - 1:,}; "
          f"best of {args.repeat}")
    print()
    c = cpython(args.runs, args.repeat)
    py = pyodide(args.runs, args.repeat)
    header = f"{'case':<38}{'runtime':<24}{'seconds':>9}{'runs/s':>11}{'chunk ms':>10}"
    print(header)
    print("-" * len(header))
    for name, _, _ in CASES:
        seconds, _ = c[name]
        rate = args.runs / seconds
        print(f"{name:<38}{'CPython ' + platform.python_version():<24}{seconds:>9.2f}{rate:>11,.0f}"
              f"{1000 * CHUNK / rate:>10.0f}")
        if isinstance(py, str):
            print(f"{'':<38}{'Pyodide/Node':<24}{'n/a':>9}  {py}")
            continue
        results, boot, version = py
        p_seconds, p_counts = results[name]
        p_rate = args.runs / p_seconds
        same = "same counts" if p_counts == c[name][1] else "COUNTS DIFFER from CPython"
        print(f"{'':<38}{'Pyodide 0.29.3 (' + version + ')':<24}{p_seconds:>9.2f}{p_rate:>11,.0f}"
              f"{1000 * CHUNK / p_rate:>10.0f}  {p_seconds / seconds:.2f}x CPython's time; {same}")
    print()
    first = c[CASES[0][0]][0]
    print(f"issue 5 target: {args.runs:,} runs of {K} tokens in under 2 s on CPython -> "
          f"{first:.2f} s ({'met' if first < 2 else 'not met'}; a figure, not a test)")
    if not isinstance(py, str):
        print(f"Pyodide boot + load (not in the figures above): {py[1]:.1f} s")


if __name__ == "__main__":
    main()
