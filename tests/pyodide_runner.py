"""Run a Python script in Pyodide 0.29.3 under Node, from tests and benchmarks.

Pyodide is the npm package the build installs in ``sitebuild/npm/`` (``npm ci``
there; ``tests/run.sh`` and ``build.py`` do it). ``tests/pyodide/run.mjs`` boots it offline, copies
our package folders into its file system, and passes the script's stdout
through byte for byte.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNNER_DIR = ROOT / "tests" / "pyodide"
RUNNER = RUNNER_DIR / "run.mjs"
NPM_DIR = ROOT / "sitebuild" / "npm"
PYODIDE_PACKAGE = NPM_DIR / "node_modules" / "pyodide" / "package.json"

# Our own packages, pure stdlib Python, mounted by default.
DEFAULT_MOUNTS = ("core", "toy_tables")


class PyodideUnavailable(RuntimeError):
    """Node or the npm package pyodide is missing."""


class PyodideScriptError(RuntimeError):
    """The script failed inside Pyodide; the message holds its stderr."""


def unavailable_reason() -> str | None:
    """Why Pyodide cannot run here, or None when it can."""
    if shutil.which("node") is None:
        return "node is not on PATH (Node 20 is needed to run Pyodide; tests/run.sh checks for it)"
    if not PYODIDE_PACKAGE.is_file():
        return (f"the npm package pyodide is not installed in {NPM_DIR.relative_to(ROOT)}/ "
                "(run `npm ci` there, or `bash tests/run.sh`, which does)")
    return None


def _unavailable(reason: str):
    """Skip under pytest, unless tests/run.sh installed everything (then a missing tool fails)."""
    if "pytest" in sys.modules and not os.environ.get("SPECSTEP_FULL_SETUP"):
        import pytest

        pytest.skip(reason)
    raise PyodideUnavailable(reason)


def run_in_pyodide(script: str, mounts=DEFAULT_MOUNTS, wheels=(), args=(), timeout: float = 300,
                   index_url: Path | None = None, load=()) -> str:
    """Run ``script`` (Python source) in Pyodide and return its stdout, exactly.

    ``mounts`` are package folders relative to the repository root, copied to
    ``/home/pyodide/<name>/`` (importable); ``wheels`` are pure-Python wheel
    files unpacked into site-packages; ``args`` become ``sys.argv[1:]``.
    ``index_url`` boots another Pyodide folder (a local Pyodide with the real
    packages), from whose lock ``load`` installs packages before the script.
    Raises PyodideScriptError (with the Python traceback) when the script fails.
    """
    reason = unavailable_reason()
    if reason is not None:
        _unavailable(reason)
    command = ["node", str(RUNNER)]
    if index_url is not None:
        command += ["--index-url", str(index_url)]
    for name in load:
        command += ["--load", name]
    for mount in mounts:
        command += ["--mount", str(ROOT / mount)]
    for wheel in wheels:
        command += ["--wheel", str(Path(wheel).resolve())]
    with tempfile.TemporaryDirectory(prefix="specstep-pyodide-") as tmp:
        path = Path(tmp) / "script.py"
        path.write_text(script, encoding="utf-8")
        result = subprocess.run(
            [*command, str(path), *args],
            cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout,
        )
    if result.returncode != 0:
        raise PyodideScriptError(
            f"script failed in Pyodide (exit {result.returncode}):\n"
            + result.stderr.decode("utf-8", "replace")
        )
    return result.stdout.decode("utf-8")
