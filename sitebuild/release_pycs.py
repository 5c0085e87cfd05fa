"""Bytecode for the pure-Python modules of the packages the page installs from Pyodide's release.

Pyodide's wheels (numpy, PyYAML...) hold .py sources only, so Python compiles
numpy's 80-odd modules each time the page opens: about 0.3 s of its start. Their
sources are those of the PyPI wheels of the same version (numpy 2.2.5: 175 of its
178 .py files are byte-identical), so the build downloads a PyPI wheel (any
platform's: the .py files do not depend on it), compiles the modules the app
imports, and ships them in the bundle as ``__pycache__`` files with *checked*
hashes: Python uses one only while the installed source hashes the same, so a
file Pyodide changed is compiled as before, never run stale.

Downloading needs the package index, as installing the build's own packages does;
without it the build goes on and says so (the page then compiles those modules).
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from .packages import ALWAYS_FROM_PYODIDE
from .stdlib import module_of
from .wheels import SITE_PACKAGES_IN_PYODIDE

# Any platform with wheels for every package Pyodide builds: only their .py files are used.
PLATFORM = "manylinux2014_x86_64"
STAGED = "release-pycs"  # in the build's temporary folder
# Compiled without docstrings (as -OO would; 0.27 MB less to download) except here:
# numpy hands these functions' docstrings to its C add_docstring, which accepts
# None only when Python itself runs with -OO.
DOCSTRINGS_KEPT = {"numpy/_core/multiarray.py"}


def download(name: str, version: str, dest: Path) -> tuple[Path | None, str]:
    """The PyPI wheel of name==version in dest, or None and why not."""
    dest.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "pip", "download", f"{name}=={version}", "--no-deps", "--only-binary=:all:",
               "--platform", PLATFORM, "--python-version", "3.13", "--implementation", "cp",
               "--disable-pip-version-check", "-q", "-d", str(dest)]
    try:
        result = subprocess.run(command, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=600)
    except subprocess.TimeoutExpired:
        return None, "pip download timed out"
    wheels = sorted(dest.glob("*.whl"))
    if result.returncode != 0 or not wheels:
        last = (result.stderr.strip().splitlines() or ["no wheel"])[-1]
        return None, last[:200]
    return wheels[0], ""


def stage(packages, imported, work: Path, log=print) -> tuple[dict | None, dict]:
    """Download and stage the imported modules' sources; return the tree to compile and a summary per package."""
    imported = set(imported)
    root = work / STAGED
    summary = {}
    for package in packages:
        wheel, why = download(package.name, package.version, work / "release-wheels" / package.name)
        if wheel is None:
            log(f"build.py: no bytecode for {package.name} {package.version} ({why}): "
                "the page compiles its modules as it starts")
            summary[package.name] = {"modules": 0, "why_none": why}
            continue
        count = 0
        # A package installed for Pyodide's sake only (pyodide-http) is not imported by the
        # probe, which runs in CPython: all its modules, then.
        everything = package.name in ALWAYS_FROM_PYODIDE
        with zipfile.ZipFile(wheel) as whl:
            for name in whl.namelist():
                if name.endswith(".py") and (everything or module_of(name) in imported):
                    target = root / name
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(whl.read(name))
                    count += 1
        summary[package.name] = {"modules": count, "from": wheel.name}
    if not root.is_dir():
        return None, summary
    tree = {"path": root.name, "sourceless": False, "checked": True, "docstrings": False,
            "docstrings_kept": sorted(DOCSTRINGS_KEPT), "display_prefix": SITE_PACKAGES_IN_PYODIDE}
    return tree, summary


def caches_only(root: Path) -> None:
    """After compiling, keep only the __pycache__ files: the sources are the installed package's."""
    for path in sorted(root.rglob("*.py")):
        path.unlink()
