"""Make ``python3 build.py`` work on a fresh machine (only Python, Node and npm).

Without Panel importable, create ``.venv``, install the project into it and rerun
the script there; without the npm package pyodide (the build byte-compiles with
Pyodide's own Python), install it from its lock file. Imports nothing but the
standard library before that.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from .project import ROOT, BuildError


def bootstrap(argv, script: Path):
    venv = ROOT / ".venv"
    try:
        import panel  # noqa: F401
    except ImportError:
        if Path(sys.prefix).resolve() == venv.resolve():
            raise BuildError("panel is not installed in .venv: run .venv/bin/pip install -e .") from None
        python = venv / "bin" / "python"
        if not python.exists():
            print("build.py: first run: creating .venv", flush=True)
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        print("build.py: installing specstep and Panel into .venv", flush=True)
        install = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                                  "-e", str(ROOT)], capture_output=True, text=True)
        if install.returncode:
            sys.stderr.write(install.stdout + install.stderr)
            raise BuildError("pip install -e . failed (its output is above)")
        os.execv(str(python), [str(python), str(script), *argv])
    from . import npm_pyodide
    if npm_pyodide.installed_version() is None:
        npm_pyodide.install()
