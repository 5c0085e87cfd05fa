"""Cross-runtime: tree traces are byte-identical on CPython and in Pyodide 0.29.3.

The same pattern as tests/test_cross_runtime.py: one Pyodide boot under Node
(offline, no packages), both table drafts x k = 1..3 x widths 1..4 x 15 seeds,
both tree rules, each trace's JSON compared byte for byte.
"""

import json

import pytest

from pyodide_runner import run_in_pyodide
from test_cross_runtime import first_difference

pytestmark = pytest.mark.pyodide

CASES = [(draft, k, width, seed, rule) for draft in ("aligned", "biased") for k in (1, 2, 3)
         for width in range(1, 5) for seed in range(15) for rule in ("exact", "against-p")]

SCRIPT = f"""
import json, sys
from core.tree import simulate_tree
print(json.dumps(list(sys.version_info[:2])))
for draft, k, width, seed, rule in {CASES!r}:
    print(json.dumps(simulate_tree(draft, width, seed, k, 8, rule).to_json()))
"""


@pytest.fixture(scope="module")
def pyodide_traces():
    lines = run_in_pyodide(SCRIPT, mounts=("core", "toy_tables")).splitlines()
    assert json.loads(lines[0]) == [3, 13]
    return [json.loads(line) for line in lines[1:]]


def test_tree_traces_are_byte_identical_to_cpython(pyodide_traces):
    from core.tree import simulate_tree

    assert len(pyodide_traces) == len(CASES) == 720
    mismatches = []
    for (draft, k, width, seed, rule), theirs in zip(CASES, pyodide_traces):
        ours = simulate_tree(draft, width, seed, k, 8, rule).to_json()
        if ours != theirs:
            where = first_difference(json.loads(ours), json.loads(theirs)) or "same data, different bytes"
            mismatches.append(f"{draft} k={k} width={width} seed={seed} {rule}: {where}")
    assert mismatches == [], "\n".join(mismatches[:10])
