"""Issue 26's core figures are the same in Pyodide as on CPython: every moment's mark of
many traces (chains and trees), Step back, and both lanes with a draft cost."""

import json
import subprocess
import sys

import pytest

from pyodide_runner import ROOT, run_in_pyodide

pytestmark = pytest.mark.pyodide

# Runs on both sides; prints one JSON line per trace.
SCRIPT = r"""
import json
from dataclasses import asdict
from fractions import Fraction as F
from core import Config, Session, Timeline, lanes
from core.tree import TreeSession

starts = [Session.start(Config(d, w, s, schedule=plan, lookahead=ahead))
          for d in ("aligned", "biased", "lookup", "heads") for w in (1, 3, 8) for s in range(4)
          for plan, ahead in (("fixed", None), ("heuristic", None), ("fixed", F(1, 2)))]
starts += [TreeSession.start("biased", k, 2, s) for k in (1, 2, 3) for s in range(4)]
for start in starts:
    t = Timeline.of(start)
    back = [t.moment_of(t.back(t.at(n))) for n in range(1, t.last + 1)]
    L = lanes(t, F(1, 10))
    out = {"marks": [asdict(m) for m in t.marks], "back": back, "output": list(t.at(t.last).output),
           "speculative": [[p.passes, p.tokens, str(p.time), p.moment] for p in L.speculative],
           "ordinary": L.ordinary_trace.to_dict()}
    print(json.dumps(out))
"""


def test_issue_26_timelines_and_lanes_are_byte_identical_in_pyodide():
    here = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert here.returncode == 0, here.stderr
    there = run_in_pyodide(SCRIPT, mounts=("core", "toy_tables"))
    mine, theirs = here.stdout.splitlines(), there.splitlines()
    assert len(mine) == len(theirs) == 156
    for a, b in zip(mine, theirs):
        assert json.loads(a) == json.loads(b)
