"""The one file of Python the page downloads: our slim wheels and the moved standard library, as a .tar.gz.

The worker (``web/worker.js``) unpacks it at ``/`` in Pyodide's file system:
the wheels' files under ``site-packages`` (dist-info folders included, so
``importlib.metadata`` sees every package), the modules of the standard
library that leave its zip (``stdlib.split``) under ``/lib/python3.13``, and
``__pycache__`` files for Pyodide's own packages (``release_pycs.py``). One
gzip stream over all of them compresses better than one zip per wheel, where
each file is deflated alone: the bytes saved pay for the moved modules' .pyc.

The archive is plain ustar (regular files only, no long-name extensions), so
the worker's few lines of tar reading suffice, and reproducible: sorted names,
zero times and owners.
"""

from __future__ import annotations

import gzip
import io
import re
import tarfile
import zipfile
from pathlib import Path

from .project import BuildError
from .wheels import SITE_PACKAGES_IN_PYODIDE

BUNDLE = "python.tar.gz"
# Of a wheel's dist-info, the page reads METADATA's headers (importlib.metadata: name,
# version, requirements) and entry points; not its RECORD (for uninstalling) nor the
# long description after the headers (a README). Licences stay.
DIST_INFO_RECORD = re.compile(r"^[^/]+\.dist-info/RECORD$")
DIST_INFO_METADATA = re.compile(r"^[^/]+\.dist-info/METADATA$")


def metadata_headers(data: bytes) -> bytes:
    """A METADATA file without its body (the long description after the first blank line)."""
    head, blank, _ = data.replace(b"\r\n", b"\n").partition(b"\n\n")
    return head + b"\n" if blank else data


def bundle_files(wheels: list[Path], folders: list[tuple[Path, str]]) -> dict[str, bytes]:
    """Path in Pyodide's file system (without the leading /) -> bytes, for every file of the bundle.

    The wheels' files go to site-packages; each (folder, prefix) puts the folder's files under prefix.
    """
    files = {}
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as whl:
            for info in whl.infolist():
                if info.is_dir() or DIST_INFO_RECORD.search(info.filename):
                    continue
                data = whl.read(info)
                if DIST_INFO_METADATA.search(info.filename):
                    data = metadata_headers(data)
                files[f"{SITE_PACKAGES_IN_PYODIDE}/{info.filename}".lstrip("/")] = data
    for root, prefix in folders:
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            files[f"{prefix.rstrip('/')}/{path.relative_to(root).as_posix()}".lstrip("/")] = path.read_bytes()
    return files


def write_bundle(target: Path, wheels: list[Path], folders: list[tuple[Path, str]]) -> dict:
    """Write the bundle; return a summary for packages.json."""
    files = bundle_files(wheels, folders)
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for name in sorted(files):
            info = tarfile.TarInfo(name)
            info.size, info.mode, info.mtime = len(files[name]), 0o644, 0
            try:
                tar.addfile(info, io.BytesIO(files[name]))
            except ValueError as error:  # a path ustar cannot hold
                raise BuildError(f"{BUNDLE}: {name}: {error}") from error
    with open(target, "wb") as out, gzip.GzipFile(filename="", mode="wb", fileobj=out, compresslevel=9,
                                                 mtime=0) as gz:
        gz.write(raw.getvalue())
    moved = sum(1 for name in files if not name.startswith(SITE_PACKAGES_IN_PYODIDE.lstrip("/") + "/"))
    return {"file": BUNDLE, "files": len(files), "stdlib_files": moved, "tar_bytes": len(raw.getvalue()),
            "bytes": target.stat().st_size}


def read_bundle(path: Path) -> dict[str, bytes]:
    """The files of a bundle, as the worker unpacks them (for tests and checks)."""
    with tarfile.open(path, mode="r:gz") as tar:
        return {member.name: tar.extractfile(member).read() for member in tar.getmembers() if member.isfile()}

