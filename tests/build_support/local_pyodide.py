"""A local copy of Pyodide 0.29.3 with the page's five compiled packages, for offline tests.

    folder = make_local_pyodide(tmp)          # tmp/pyodide/ holds the files
    LocalServer(folder, cors=True)            # serve tmp at http://127.0.0.1:PORT/
    build.py --pyodide-url http://127.0.0.1:PORT/pyodide/

The runtime's core (pyodide.js, .mjs, .asm.js, .asm.wasm, python_stdlib.zip) comes
from the npm package pyodide@0.29.3 the build installs; the compiled packages the
page loads (numpy, MarkupSafe, PyYAML, nh3, pyodide-http) come from
``../shared/pyodide-packages/`` beside the clone (or ``$SPECSTEP_PYODIDE_PACKAGES``):
Pyodide's official builds for the same platform, with the lock entries they need in
its ``lock-entries.json`` (see its README). The lock file written here is the npm
package's, with those five entries' file_name and sha256 replaced, because Pyodide
checks every package's sha256 against the lock. Files are symlinked, never copied
into the repository.

Where that folder is absent (a user's clone), the same packages are downloaded from
the Pyodide release the page loads by default, when a network exists; otherwise
``local_pyodide_unavailable()`` says why, and the tests skip with that reason.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import sys
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES_ENV = "SPECSTEP_PYODIDE_PACKAGES"
CORE_FILES = ("pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip")
# The compiled packages the page loads from Pyodide's release (build-info.json's from_pyodide).
PAGE_PACKAGES = ("markupsafe", "nh3", "numpy", "pyodide-http", "pyyaml")
SUBFOLDER = "pyodide"


def shared_packages() -> Path:
    """The folder of real wheels: $SPECSTEP_PYODIDE_PACKAGES, else ../shared/pyodide-packages/
    beside the clone (or beside a folder above it, for a git worktree nested one level down)."""
    override = os.environ.get(PACKAGES_ENV)
    if override:
        return Path(override)
    candidates = [parent / "shared" / "pyodide-packages" for parent in ROOT.parents]
    return next((c for c in candidates if c.is_dir()), candidates[0])


def npm_pyodide() -> Path:
    """The npm package pyodide@0.29.3 that the build installs (sitebuild/npm/)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from sitebuild.npm_pyodide import pyodide_dir  # noqa: PLC0415
    return pyodide_dir()


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _lock_entries(folder: Path) -> dict:
    """lock-entries.json, checked against the wheels beside it (SHA256SUMS)."""
    entries = json.loads((folder / "lock-entries.json").read_text())
    missing = sorted(set(PAGE_PACKAGES) - set(entries))
    if missing:
        raise RuntimeError(f"{folder}/lock-entries.json has no entry for {', '.join(missing)}")
    sums = {}
    sums_file = folder / "SHA256SUMS"
    if sums_file.is_file():
        for line in sums_file.read_text().splitlines():
            if line.strip():
                digest, name = line.split()
                sums[name.lstrip("*")] = digest
    for name in PAGE_PACKAGES:
        entry = entries[name]
        wheel = folder / entry["file_name"]
        if not wheel.is_file():
            raise RuntimeError(f"{wheel} is missing")
        have = _sha256(wheel)
        if have != entry["sha256"] or sums.get(entry["file_name"], have) != have:
            raise RuntimeError(f"{wheel.name}: sha256 {have} differs from lock-entries.json/SHA256SUMS")
    return entries


def _release_url() -> str:
    """The folder of the Pyodide release the page loads by default (Panel's pinned URL)."""
    from panel.io.convert import PYODIDE_URL  # noqa: PLC0415
    return PYODIDE_URL.rsplit("/", 1)[0] + "/"


@functools.lru_cache(maxsize=1)
def _release_reachable() -> bool:
    try:
        with urllib.request.urlopen(_release_url() + "pyodide-lock.json", timeout=5) as response:
            return response.status == 200
    except (OSError, ImportError):
        return False


def local_pyodide_unavailable() -> str | None:
    """Why no local Pyodide with the real packages can be made here, or None when it can."""
    core = npm_pyodide()
    absent = [name for name in (*CORE_FILES, "pyodide-lock.json") if not (core / name).is_file()]
    if absent:
        return (f"the npm package pyodide is not installed in {core.parent.parent.relative_to(ROOT)}/ "
                "(python3 build.py or bash tests/run.sh installs it)")
    folder = shared_packages()
    if folder.is_dir():
        try:
            _lock_entries(folder)
        except (RuntimeError, OSError, ValueError) as exc:
            return f"the real Pyodide packages in {folder} are unusable: {exc}"
        return None
    if not _release_reachable():
        return (f"no real Pyodide packages here ({folder} is absent, ${PACKAGES_ENV} unset) and "
                "the Pyodide release is unreachable (no network)")
    return None


def require_local_pyodide():
    """In a test: skip when a user's clone has neither the packages nor a network; fail on
    anything else missing once tests/run.sh installed everything (SPECSTEP_FULL_SETUP)."""
    import pytest  # noqa: PLC0415

    reason = local_pyodide_unavailable()
    if reason is None:
        return
    if os.environ.get("SPECSTEP_FULL_SETUP") and "no network" not in reason:
        pytest.fail(reason)
    pytest.skip(reason)


def make_local_pyodide(dest: Path) -> Path:
    """Fill ``dest/pyodide/`` with Pyodide 0.29.3's core and the page's packages; return ``dest``.

    Serve ``dest`` (CORS on, as Pyodide's CDN does) and build with
    ``--pyodide-url http://127.0.0.1:PORT/pyodide/``. Raises RuntimeError with
    ``local_pyodide_unavailable()``'s reason when it cannot.
    """
    reason = local_pyodide_unavailable()
    if reason:
        raise RuntimeError(reason)
    core = npm_pyodide()
    target = Path(dest) / SUBFOLDER
    target.mkdir(parents=True, exist_ok=True)
    for name in CORE_FILES:
        (target / name).symlink_to(core / name)
    lock = json.loads((core / "pyodide-lock.json").read_text())
    folder = shared_packages()
    if folder.is_dir():
        for name, entry in _lock_entries(folder).items():
            if name not in lock["packages"]:
                continue
            lock["packages"][name].update(file_name=entry["file_name"], sha256=entry["sha256"])
            (target / entry["file_name"]).symlink_to(folder / entry["file_name"])
    else:
        for name in PAGE_PACKAGES:
            entry = lock["packages"][name]
            _download(_release_url() + entry["file_name"], target / entry["file_name"], entry["sha256"])
    (target / "pyodide-lock.json").write_text(json.dumps(lock))
    return Path(dest)


def _download(url: str, path: Path, sha256: str):
    with urllib.request.urlopen(url, timeout=60) as response, open(path, "wb") as out:
        shutil.copyfileobj(response, out)
    if _sha256(path) != sha256:
        path.unlink()
        raise RuntimeError(f"{url}: sha256 differs from the lock file")
