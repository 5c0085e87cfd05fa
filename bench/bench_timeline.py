"""Timeline benchmark (issue 26): prints figures, never fails on time.

    .venv/bin/python bench/bench_timeline.py [--rounds N]

1. ``core.timeline.Timeline.of``: every moment of one 8-token trace, per draft
   (width 3 and width 8, fixed schedule) and for trees (biased, k = 3, width
   4: 120 nodes a block), in milliseconds (best of N rounds, CPU time). This
   is what the page pays once per scenario; a jump after it is an index.
2. A jump: ``Timeline.at(n)`` and ``moment_of`` (a deep comparison with the
   stored moment), in microseconds.
3. ``core.ordinary.lanes`` with a cost, in milliseconds.
4. For comparison: replaying ``steps=N`` from the start to the last moment
   (what jumping would cost without a timeline).
5. In Pyodide under Node (what the page runs): ``Timeline.of`` plus ``lanes``
   for 100 seeds, biased width 3, and for 10 trees (biased, k = 3, width 4),
   per trace in milliseconds (timed inside Python).
"""

import argparse
import json
import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import core  # noqa: E402
from core import Config, Session  # noqa: E402
from core.ordinary import lanes  # noqa: E402
from core.timeline import Timeline  # noqa: E402
from core.tree import TreeSession  # noqa: E402
from pyodide_runner import PyodideScriptError, PyodideUnavailable, run_in_pyodide  # noqa: E402

IN_PYODIDE = r"""
import json, time
from fractions import Fraction
from core import Config, Session, Timeline, lanes
from core.tree import TreeSession
lanes(Timeline.of(TreeSession.start("biased", 3, 4, 99)), 0)  # warm: first imports and rows
t = time.perf_counter()
for seed in range(100):
    lanes(Timeline.of(Config("biased", 3, seed)), Fraction(1, 10))
chain = (time.perf_counter() - t) / 100
t = time.perf_counter()
for seed in range(10):
    lanes(Timeline.of(TreeSession.start("biased", 3, 4, seed)), Fraction(1, 10))
print(json.dumps({"chain": chain, "tree": (time.perf_counter() - t) / 10}))
"""


def best(fn, rounds, repeat=20):
    """The best CPU time of ``rounds`` rounds, each ``repeat`` calls, per call in seconds."""
    out = []
    for _ in range(rounds):
        t = time.process_time()
        for _ in range(repeat):
            fn()
        out.append((time.process_time() - t) / repeat)
    return min(out)


def replay(start, n):
    s = start
    for _ in range(n):
        s = s.step()
    return s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    rounds = ap.parse_args().rounds
    starts = [(f"{d} w{w}", Session.start(Config(d, w, 1))) for d in core.ALL_DRAFTS for w in (3, 8)]
    starts += [("tree biased k3 w4", TreeSession.start("biased", 3, 4, 1))]
    print("1. Timeline.of (whole trace, every moment), ms; 4. replaying steps=last from the start, ms")
    for name, start in starts:
        t = Timeline.of(start)
        built = best(lambda: Timeline.of(start), rounds)
        again = best(lambda: replay(start, t.last), rounds)
        print(f"   {name:20s} moments {t.last + 1:3d}  build {built * 1e3:7.3f}  replay {again * 1e3:7.3f}")
    t = Timeline.of(Config("biased", 3, 1))
    s = t.at(t.last // 2)
    print(f"2. at(n) {best(lambda: t.at(7), rounds, 2000) * 1e6:.2f} us, "
          f"moment_of {best(lambda: t.moment_of(s), rounds, 2000) * 1e6:.2f} us, "
          f"back {best(lambda: t.back(s), rounds, 2000) * 1e6:.2f} us (biased w3 seed 1)")
    print(f"3. lanes with c = 1/10: {best(lambda: lanes(t, Fraction(1, 10)), rounds) * 1e3:.3f} ms")
    try:
        out = json.loads(run_in_pyodide(IN_PYODIDE, mounts=("core", "toy_tables")))
        print(f"5. Pyodide: Timeline.of + lanes, biased w3 {out['chain'] * 1e3:.3f} ms a trace, "
              f"tree k3 w4 {out['tree'] * 1e3:.3f} ms a trace")
    except (PyodideUnavailable, PyodideScriptError) as exc:
        print(f"5. Pyodide: not run ({str(exc).splitlines()[0]})")


if __name__ == "__main__":
    main()
