"""The npm package pyodide@0.29.3, in one place for the build and the tests.

``sitebuild/npm/`` holds its package.json and lock; ``npm ci`` there puts it in
``sitebuild/npm/node_modules/pyodide``. The build byte-compiles wheels and reads
the release's lock file from it; the tests run Pyodide under Node from it and
serve its core files as a local Pyodide.
"""

from __future__ import annotations

import json
from pathlib import Path

NPM_DIR = Path(__file__).resolve().parent / "npm"


def pyodide_dir() -> Path:
    """The installed package's folder (pyodide.mjs, pyodide.asm.wasm, pyodide-lock.json...)."""
    return NPM_DIR / "node_modules" / "pyodide"


def wanted_version() -> str:
    """The version sitebuild/npm/package-lock.json pins."""
    lock = json.loads((NPM_DIR / "package-lock.json").read_text())
    return lock["packages"]["node_modules/pyodide"]["version"]


def installed_version() -> str | None:
    package = pyodide_dir() / "package.json"
    return json.loads(package.read_text())["version"] if package.is_file() else None
