"""The built site with real Pyodide, once per test session (and for the benchmark).

``real_site()`` assembles a local Pyodide (``local_pyodide.py``: npm core + the five
real compiled packages), serves it on 127.0.0.1 with CORS and the CDN's cache
headers, and runs ``python3 build.py --out ... --pyodide-url http://127.0.0.1:PORT/pyodide/``
once per process; every test file that needs the site shares that build (about a
minute). The Pyodide server stays up until the process ends.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from .local_pyodide import ROOT, make_local_pyodide, require_local_pyodide
from .servers import LocalServer

# What Pyodide's CDN answers: files that never change under their name.
CDN_CACHE = "public, max-age=31536000, immutable"


@dataclass
class RealSite:
    out: Path
    pyodide: LocalServer  # the local Pyodide, at pyodide.url + "pyodide/"
    build_output: str
    seconds: float

    def json(self, name: str) -> dict:
        return json.loads((self.out / name).read_text())

    def text(self, name: str) -> str:
        return (self.out / name).read_text(encoding="utf-8")

    @property
    def packages(self) -> dict:
        return self.json("packages.json")

    @property
    def info(self) -> dict:
        return self.json("build-info.json")

    @property
    def pyodide_folder(self) -> Path:
        return Path(self.pyodide.folder) / "pyodide"


def run_build(*args, timeout=900, cwd=ROOT) -> subprocess.CompletedProcess:
    """``python3 build.py ARGS`` with this interpreter (the project's .venv)."""
    return subprocess.run([sys.executable, str(ROOT / "build.py"), *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)


_built: dict = {}


def real_site(root: Path = ROOT, extra_args: tuple[str, ...] = ()) -> RealSite:
    """The site built from ``root`` (a checkout of the project) against a local real Pyodide, with
    ``extra_args`` for build.py (e.g. ``("--prerender", "draft=biased")``); built once per process."""
    require_local_pyodide()
    key = f"{root} {extra_args}"
    if key in _built:
        if isinstance(_built[key], Exception):
            raise _built[key]
        return _built[key]
    tmp = Path(tempfile.mkdtemp(prefix="specstep-real-site-"))
    atexit.register(shutil.rmtree, tmp, True)
    folder = make_local_pyodide(tmp / "cdn")
    server = LocalServer(folder, cors=True, cache_control=CDN_CACHE)
    server.folder = folder
    atexit.register(server.stop)
    out = tmp / "site" / "static"
    started = time.perf_counter()
    result = subprocess.run([sys.executable, str(root / "build.py"), "--out", str(out),
                             "--pyodide-url", server.url + "pyodide/", *extra_args], cwd=root, capture_output=True,
                            text=True,
                            timeout=900, stdin=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONPATH": str(root)})
    seconds = time.perf_counter() - started
    if result.returncode != 0:
        _built[key] = AssertionError(f"build.py failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
        raise _built[key]
    _built[key] = RealSite(out, server, result.stdout, seconds)
    return _built[key]
