"""The lifting's Fractions are the same in Pyodide as on CPython (issue 24 item 8): the
lookup draft's heuristic chain at T = 1/4 and the heads draft's, whose stationary weights
every heuristic payoff row is made of. Prints the weights' hash and the rows' figures."""

import subprocess
import sys

import pytest

from pyodide_runner import ROOT, run_in_pyodide

pytestmark = pytest.mark.pyodide

SCRIPT = r"""
import hashlib, time
from fractions import Fraction as F
from core import payoff
from core.transform import Transform

for draft, temperature in (("lookup", F(1, 4)), ("heads", F(1, 2)), ("aligned", F(1))):
    start = time.process_time()
    nodes, weights, _, _ = payoff.chain(draft, 1, None, "exact", "heuristic", Transform(temperature))
    seconds = time.process_time() - start
    text = ";".join(f"{n!r}={weights[n]}" for n in nodes)
    row = payoff.heuristic_payoff(draft, F(1, 9), transform=Transform(temperature))
    print(draft, len(nodes), hashlib.sha256(text.encode()).hexdigest(), row.tokens_per_pass, row.mean_width)
    print(f"# {draft}: {seconds:.2f} s", file=__import__("sys").stderr)
"""


def test_the_heuristic_chains_stationary_weights_are_identical_in_pyodide():
    here = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert here.returncode == 0, here.stderr
    there = run_in_pyodide(SCRIPT, mounts=("core", "toy_tables"))
    assert here.stdout.splitlines() == there.splitlines()
    assert len(there.splitlines()) == 3
