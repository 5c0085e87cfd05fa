"""Pyodide's own Python under Node: byte-compiling to its Python 3.13, and what it imports at start-up.

One script, ``web/compile_pyc.mjs``, does both: the page's Python is 3.13 and the
build's may be 3.11, so .pyc files come from Pyodide itself.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from . import npm_pyodide
from .project import WEB, BuildError


def compile_trees(root: Path, trees: list[dict]) -> dict:
    """Byte-compile staged trees to Python 3.13 with Pyodide's Python under Node (web/compile_pyc.mjs)."""
    if shutil.which("node") is None:
        raise BuildError("node is not on PATH (Node 20 compiles the wheels with Pyodide's Python 3.13)")
    npm_pyodide.lock()  # checks the npm package is there, at the pinned version
    job = root / "compile-job.json"
    job.write_text(json.dumps({"root": str(root), "trees": trees}))
    result = subprocess.run(["node", str(WEB / "compile_pyc.mjs"), str(npm_pyodide.pyodide_dir()), str(job)],
                            capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=600)
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise BuildError(f"byte-compiling with Pyodide failed: {last}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def startup_modules(work: Path) -> list[str]:
    """The modules Python has imported once Pyodide has started and unpacked a .tar.gz."""
    return compile_trees(work, [])["startup_modules"]
