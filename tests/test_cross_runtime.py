"""Cross-runtime: `core` gives the same traces on CPython and in Pyodide.

The widget's Python runs in the reader's browser through Pyodide 0.29.3
(Python 3.13, the runtime Panel 1.9.4 pins); the tests and the CLI run on
CPython 3.11. A trace a student redoes by hand, or quotes from the course
notes, must not depend on which one produced it. So the JSON trace of every
draft (aligned, biased, lookup, heads) x width 1-4 x seed 0-49 is compared
byte for byte, and for every draft 25 seeds under the heuristic schedule
with a temperature and top-k, at the target and at the draft.

All 1,000 traces come from one Pyodide boot under Node (the npm package in
sitebuild/npm/, no packages loaded, offline).
"""

import ast
import json
import sys

import pytest

from pyodide_runner import ROOT, run_in_pyodide

pytestmark = pytest.mark.pyodide

DRAFTS = ("aligned", "biased", "lookup", "heads")
WIDTHS = range(1, 5)
SEEDS = range(50)
# (draft, width, seed, schedule, n for temperature 1/n, top-k, transform at)
PLAIN = ("fixed", 1, None, "both")
MIXED = (("heuristic", 2, 2, "target"), ("heuristic", 3, None, "draft"))
CASES = ([(draft, width, seed) + PLAIN for draft in DRAFTS for width in WIDTHS for seed in SEEDS]
         + [(draft, 2, seed) + mix for draft in DRAFTS for mix in MIXED for seed in range(25)])

# Runs in Pyodide. Line 1: the runtime and which modules importing core added;
# then one line per case: the trace's JSON string, itself JSON-quoted so that
# whatever to_json() writes (newlines included) round-trips exactly.
SCRIPT = f"""
import json, sys
from fractions import Fraction

before = set(sys.modules)
import core
import toy_tables
added = sorted(set(sys.modules) - before)

print(json.dumps({{
    "version_info": list(sys.version_info[:3]),
    "platform": sys.platform,
    "added_modules": added,
    "stdlib_module_names": sorted(sys.stdlib_module_names),
}}))
for draft, width, seed, schedule, n, top_k, at in {CASES!r}:
    trace = core.simulate(draft, width, seed, 8, "exact", None, schedule, Fraction(1, n), top_k, at)
    print(json.dumps(trace.to_json()))
"""


@pytest.fixture(scope="module")
def pyodide_run():
    lines = run_in_pyodide(SCRIPT, mounts=("core", "toy_tables")).splitlines()
    header = json.loads(lines[0])
    traces = [json.loads(line) for line in lines[1:]]
    return header, traces


def first_difference(a, b, path="$"):
    """The JSON path of the first place where two decoded traces differ."""
    if type(a) is not type(b):
        return f"{path}: {a!r} (CPython) != {b!r} (Pyodide)"
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{path}.{key}: present only in {'CPython' if key in a else 'Pyodide'}"
            found = first_difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        if len(a) != len(b):
            return f"{path}: length {len(a)} (CPython) != {len(b)} (Pyodide)"
        return None
    if a != b:
        return f"{path}: {a!r} (CPython) != {b!r} (Pyodide)"
    return None


def test_pyodide_is_the_python_313_the_browser_runs(pyodide_run):
    header, _ = pyodide_run
    assert header["platform"] == "emscripten"
    assert tuple(header["version_info"][:2]) == (3, 13)
    # ...while this side of the comparison is CPython (3.11 here).
    assert sys.implementation.name == "cpython"


def imported_top_level_names(package):
    """Every top-level module name that `import`/`from ... import` in a package names (relative imports are its own)."""
    names = set()
    for path in sorted((ROOT / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names.add(node.module.split(".")[0])
    return names


def test_core_imports_only_the_standard_library(pyodide_run):
    header, _ = pyodide_run
    allowed = set(header["stdlib_module_names"]) | {"core", "toy_tables"}
    # What importing core loaded in Pyodide, where no package is installed...
    assert "core" in header["added_modules"]
    assert [m for m in header["added_modules"] if m.split(".")[0] not in allowed] == []
    # ...and every import written in the source (Pyodide preloads its own
    # `pyodide` module at boot, so the check above alone would miss it).
    for package in ("core", "toy_tables"):
        assert sorted(imported_top_level_names(package) - allowed) == [], package


def test_traces_are_byte_identical_to_cpython(pyodide_run):
    from fractions import Fraction

    import core

    _, pyodide_traces = pyodide_run
    assert len(pyodide_traces) == len(CASES) == 1000
    mismatches = []
    for (draft, width, seed, schedule, n, top_k, at), theirs in zip(CASES, pyodide_traces):
        ours = core.simulate(draft, width, seed, 8, "exact", None, schedule, Fraction(1, n), top_k, at).to_json()
        if ours != theirs:
            where = first_difference(json.loads(ours), json.loads(theirs)) or "same data, different bytes"
            mismatches.append(f"{draft} width={width} seed={seed}: {where}")
    assert mismatches == [], f"{len(mismatches)} of {len(CASES)} traces differ:\n" + "\n".join(mismatches[:10])
