"""The built site with real Pyodide, once per test session (and for the benchmark).

``real_site()`` assembles a local Pyodide (``local_pyodide.py``: npm core + the five
real compiled packages), serves it on 127.0.0.1 with CORS and the CDN's cache
headers, and runs ``python3 build.py --out ... --pyodide-url http://127.0.0.1:PORT/pyodide/``
once per process and set of arguments; every test file that needs the site shares that
build (about half a minute each). One Pyodide server for every build, up until the
process ends.

``prerendered_site()`` is the build with every ``--prerender`` scenario the tests open
(tests/test_prerender.py and tests/test_loader_url_real_page.py), one build for both;
``moved_pyodide_site()`` a redeploy whose Pyodide moved (the service worker's tests).

``prefetch()`` starts those builds one after another in a thread of the test process, as soon
as the session's tests are collected (tests/conftest.py): a build runs in a process of its own,
so on a machine of two cores it goes on beside the tests that need no build, and a test that
asks for a build waits only for what is left of it (four builds are about two minutes).
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import Future
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


_built: dict[str, Future] = {}
_pyodide: list[LocalServer] = []
_lock = threading.RLock()  # the test thread and prefetch()'s share _built and _pyodide

# The scenarios tests/test_prerender.py and tests/test_loader_url_real_page.py open before
# Python is up: one build pre-renders all three.
CUSTOM_QUERY = "draft=custom&width=2&seed=1&target=0.6,0.3,0.1;0.2,0.6,0.2;0.55,0.15,0.3;0.25,0.25,0.5" \
               "&q=0.2,0.5,0.3;0.7,0.25,0.05;0.75,0.15,0.1;0.85,0.05,0.1"
PRERENDER_ARGS = ("--prerender", "draft=biased&width=3&seed=1", "--prerender", CUSTOM_QUERY,
                  "--prerender", "schedule=heuristic")
MOVED = "pyodide2"  # the same release under a second folder of the local server


def local_pyodide() -> LocalServer:
    """The process's local Pyodide server (the files under ``pyodide/``, and ``pyodide2/`` the same)."""
    with _lock:
        if not _pyodide:
            require_local_pyodide()
            tmp = Path(tempfile.mkdtemp(prefix="specstep-pyodide-"))
            atexit.register(shutil.rmtree, tmp, True)
            folder = make_local_pyodide(tmp / "cdn")
            (Path(folder) / MOVED).symlink_to(Path(folder) / "pyodide", target_is_directory=True)
            server = LocalServer(folder, cors=True, cache_control=CDN_CACHE)
            server.folder = folder
            atexit.register(server.stop)
            _pyodide.append(server)
        return _pyodide[0]


def prerendered_site() -> RealSite:
    """The site built with ``PRERENDER_ARGS``, once per process."""
    return real_site(extra_args=PRERENDER_ARGS)


def moved_args(extra_args: tuple[str, ...] = ()) -> tuple[str, ...]:
    """build.py's arguments for a redeploy of the site built with ``extra_args`` whose Pyodide moved
    (``pyodide2/``: its worker.js, loader.js and index.html differ) and whose load time limit is 45 s."""
    return (*extra_args, "--pyodide-url", local_pyodide().url + MOVED + "/", "--load-timeout", "45")


def moved_pyodide_site(extra_args: tuple[str, ...] = ()) -> RealSite:
    """That redeploy (the last ``--pyodide-url`` given is the one build.py takes), once per process."""
    return real_site(extra_args=moved_args(extra_args))


def real_site(root: Path = ROOT, extra_args: tuple[str, ...] = ()) -> RealSite:
    """The site built from ``root`` (a checkout of the project) against the local real Pyodide, with
    ``extra_args`` for build.py (e.g. ``("--prerender", "draft=biased")``); built once per process
    (a build prefetch() started is waited for)."""
    require_local_pyodide()
    key = f"{root} {extra_args}"
    with _lock:
        future = _built.get(key)
        mine = future is None
        if mine:
            future = _built[key] = Future()
    if mine:
        try:
            future.set_result(_build(root, extra_args))
        except BaseException as exc:  # kept: every later caller gets the same failure
            future.set_exception(exc)
    return future.result()


def _build(root: Path, extra_args: tuple[str, ...]) -> RealSite:
    server = local_pyodide()
    tmp = Path(tempfile.mkdtemp(prefix="specstep-real-site-"))
    atexit.register(shutil.rmtree, tmp, True)
    out = tmp / "site" / "static"
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, str(root / "build.py"), "--out", str(out),
                                "--pyodide-url", server.url + "pyodide/", *extra_args], cwd=root,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               stdin=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": str(root)})
    # A build still running when the tests end (a prefetched one after -x) is stopped, not left
    # behind: registered after its folder's removal, so it runs first.
    atexit.register(lambda: process.poll() is None and process.kill())
    stdout, stderr = process.communicate(timeout=900)
    seconds = time.perf_counter() - started
    if process.returncode != 0:
        raise AssertionError(f"build.py failed:\n{stdout[-3000:]}\n{stderr[-3000:]}")
    return RealSite(out, server, stdout, seconds)


def prefetch(*variants: tuple[str, ...]) -> threading.Thread | None:
    """Build the sites of ``variants`` (build.py's extra arguments; a callable gives them once the
    local Pyodide is up) one after another in a daemon thread; None where no real Pyodide can be had
    (each test then skips or fails with its reason, as without prefetch)."""
    try:
        require_local_pyodide()
    except BaseException:  # noqa: BLE001 (pytest's skip is not an Exception)
        return None

    def run():
        for variant in variants:
            try:
                real_site(extra_args=variant() if callable(variant) else variant)
            except BaseException:  # noqa: BLE001 (kept in its future for the test that asks)
                pass

    thread = threading.Thread(target=run, name="specstep-prefetch", daemon=True)
    thread.start()
    return thread
