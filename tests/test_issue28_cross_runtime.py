"""Issue 28's core figures are the same in Pyodide as on CPython: the wild rules' traces,
typical acceptance's exact decisions, rule cards, batch payoffs and predicted calls."""

import json

import pytest

from pyodide_runner import run_in_pyodide

pytestmark = pytest.mark.pyodide

# Runs on both sides; prints one JSON line per figure.
SCRIPT = r"""
import json
from fractions import Fraction as F
from core import Session, simulate
from core.batch import batch_table
from core.predict import judge_calls
from core.rulecard import rule_card
from core.transform import Transform
from core import exact, typical

out = []
for variant in ("greedy-draft", "greedy-one-hot", "typical"):
    for draft in ("aligned", "biased", "lookup", "heads"):
        for seed in range(20):
            out.append(simulate(draft, 3, seed, 8, variant).to_json())
p = (F("0.5"), F("0.3"), F("0.2"))
out.append([typical.accepts(p, x, typical.Parameters(F(1), F(n, 100))) for x in range(3) for n in range(80, 90)])
out.append(str(exact.compare("biased", 2, 2, "typical", transform=Transform(F(1, 4))).distance))
for variant in ("greedy-draft", "typical", "match-keep"):
    c = rule_card(variant, "biased", 3, 3)
    out.append([str(c.distance), str(c.kept_share), str(c.exact_kept_share)])
for b in (1, 4, 8):
    t = batch_table("biased", F(1, 10), b, 16)
    out.append([t.best_width] + [str(r.speedup) for r in t.rows] + [str(t.best.capacity)])
for seed in range(10):
    block = Session.start(draft="biased", width=3, seed=seed).draft().verify().pending
    r = judge_calls(block, ["kept", "rejected", "kept"])
    out.append([r.right, r.scored, str(r.expected_right), str(r.expected_before_verify)])
for item in out:
    print(json.dumps(item))
"""


def test_issue_28_figures_are_byte_identical_in_pyodide():
    import subprocess
    import sys

    from pyodide_runner import ROOT
    here = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert here.returncode == 0, here.stderr
    there = run_in_pyodide(SCRIPT, mounts=("core", "toy_tables"))
    mine, theirs = here.stdout.splitlines(), there.splitlines()
    assert len(mine) == len(theirs) > 230
    for a, b in zip(mine, theirs):
        assert json.loads(a) == json.loads(b)
