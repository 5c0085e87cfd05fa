"""The npm package pyodide@0.29.3, in one place for the build and the tests.

``sitebuild/npm/`` holds its package.json and lock; ``npm ci`` there puts it in
``sitebuild/npm/node_modules/pyodide``. The build byte-compiles wheels with its
Python and reads the release's lock file from it; the tests run Pyodide under
Node from it and serve its core files as a local Pyodide.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from .project import ROOT, BuildError, panel_version, pyodide_version

NPM_DIR = Path(__file__).resolve().parent / "npm"


def pyodide_dir() -> Path:
    """The installed package's folder (pyodide.mjs, pyodide.asm.wasm, pyodide-lock.json...)."""
    return NPM_DIR / "node_modules" / "pyodide"


def installed_version() -> str | None:
    package = pyodide_dir() / "package.json"
    return json.loads(package.read_text())["version"] if package.is_file() else None


def install():
    """``npm ci`` in sitebuild/npm/ (from its lock file)."""
    if not shutil.which("npm"):
        raise BuildError("needs Node 20 and npm, to byte-compile with Pyodide's own Python")
    print(f"build.py: installing the npm package pyodide into {NPM_DIR.relative_to(ROOT)}/", flush=True)
    subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=NPM_DIR,
                   check=True, stdout=subprocess.DEVNULL)


def lock() -> dict:
    """The release's pyodide-lock.json, after checking the package is the version Panel pins."""
    have = installed_version()
    if have is None:
        raise BuildError(f"the npm package pyodide is not installed in {NPM_DIR.relative_to(ROOT)}/ "
                         "(run `npm ci` there, or `bash tests/run.sh`, which does)")
    want = pyodide_version()
    if have != want:
        raise BuildError(f"{NPM_DIR.relative_to(ROOT)} has pyodide {have}, but Panel {panel_version()} "
                         f"pins {want} (run `npm ci` there)")
    return json.loads((pyodide_dir() / "pyodide-lock.json").read_text())
