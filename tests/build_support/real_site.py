"""The built site with real Pyodide, once per test session (and for the benchmark).

``real_site()`` assembles a local Pyodide (``local_pyodide.py``: npm core + the five
real compiled packages), serves it on 127.0.0.1 with CORS and the CDN's cache
headers, and runs ``python3 build.py --out ... --pyodide-url http://127.0.0.1:PORT/pyodide/``
once per process and set of arguments; every test file that needs the site shares that
build (about half a minute each). One Pyodide server for every build, up until the
process ends.

``prerendered_site()`` is the build with every ``--prerender`` scenario the tests open
(tests/test_prerender.py and tests/test_loader_url_real_page.py), one build for both.
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
_pyodide: list[LocalServer] = []

# The scenarios tests/test_prerender.py and tests/test_loader_url_real_page.py open before
# Python is up: one build pre-renders all three.
CUSTOM_QUERY = "draft=custom&width=2&seed=1&target=0.6,0.3,0.1;0.2,0.6,0.2;0.55,0.15,0.3;0.25,0.25,0.5" \
               "&q=0.2,0.5,0.3;0.7,0.25,0.05;0.75,0.15,0.1;0.85,0.05,0.1"
PRERENDER_ARGS = ("--prerender", "draft=biased&width=3&seed=1", "--prerender", CUSTOM_QUERY,
                  "--prerender", "schedule=heuristic")


def local_pyodide() -> LocalServer:
    """The process's local Pyodide server (the files under ``pyodide/``)."""
    if not _pyodide:
        require_local_pyodide()
        tmp = Path(tempfile.mkdtemp(prefix="specstep-pyodide-"))
        atexit.register(shutil.rmtree, tmp, True)
        folder = make_local_pyodide(tmp / "cdn")
        server = LocalServer(folder, cors=True, cache_control=CDN_CACHE)
        server.folder = folder
        atexit.register(server.stop)
        _pyodide.append(server)
    return _pyodide[0]


def prerendered_site() -> RealSite:
    """The site built with ``PRERENDER_ARGS``, once per process."""
    return real_site(extra_args=PRERENDER_ARGS)


def real_site(root: Path = ROOT, extra_args: tuple[str, ...] = ()) -> RealSite:
    """The site built from ``root`` (a checkout of the project) against the local real Pyodide, with
    ``extra_args`` for build.py (e.g. ``("--prerender", "draft=biased")``); built once per process."""
    require_local_pyodide()
    key = f"{root} {extra_args}"
    if key in _built:
        if isinstance(_built[key], Exception):
            raise _built[key]
        return _built[key]
    server = local_pyodide()
    tmp = Path(tempfile.mkdtemp(prefix="specstep-real-site-"))
    atexit.register(shutil.rmtree, tmp, True)
    out = tmp / "site" / "static"
    started = time.perf_counter()
    result = subprocess.run([sys.executable, str(root / "build.py"), "--out", str(out),
                             "--pyodide-url", server.url + "pyodide/", *extra_args], cwd=root,
                            capture_output=True, text=True,
                            timeout=900, stdin=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONPATH": str(root)})
    seconds = time.perf_counter() - started
    if result.returncode != 0:
        _built[key] = AssertionError(f"build.py failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
        raise _built[key]
    _built[key] = RealSite(out, server, result.stdout, seconds)
    return _built[key]
