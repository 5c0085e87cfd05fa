"""The worker installs Pyodide's compiled packages itself (issue 27): ``unzip`` in web/worker.js.

Each wheel of the release is unzipped in the worker while the runtime starts (DecompressionStream),
so once Python is up installing is only writing files. Here ``unzip`` and the dynamic-library rule
run under Node (which has DecompressionStream) against Python's zipfile: every file, byte for byte,
in the archive's order, on a crafted archive and on the real numpy wheel the page installs; a
damaged or escaping archive is refused (the worker then leaves the install to loadPackage).
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path

import pytest

from build_support.local_pyodide import shared_packages
from build_support.worker_js import run_on_worker_js

HARNESS = r"""
const code = [pick(/\nfunction streamOf\(data\) \{[\s\S]*?\n\}\n/), pick(/\nasync function inflate\(data, size\) \{[\s\S]*?\n\}\n/),
              pick(/\nasync function unzip\(buffer\) \{[\s\S]*?\n\}\n/), pick(/\nconst DYNLIB = .*\n/)].join("\n");
const { unzip, DYNLIB } = new Function(code + "\nreturn { unzip, DYNLIB };")();
const buffer = fs.readFileSync(process.argv[2]);
unzip(buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.length)).then((files) => {
  const hash = (data) => require("crypto").createHash("sha256").update(data).digest("hex");
  process.stdout.write(JSON.stringify({ files: files.map(([name, data]) => [name, hash(data)]),
                                        dynlibs: files.map(([name]) => name).filter((n) => DYNLIB.test(n)) }));
}, (error) => { process.stdout.write(JSON.stringify({ error: String(error.message || error) })); });
"""


def run_unzip(archive: Path) -> dict:
    result = run_on_worker_js(HARNESS, archive, timeout=300)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def expected(archive: Path) -> list[list[str]]:
    with zipfile.ZipFile(archive) as z:
        return [[i.filename, hashlib.sha256(z.read(i)).hexdigest()] for i in z.infolist() if not i.is_dir()]


def test_unzip_gives_every_file_of_stored_and_deflated_entries_in_the_archives_order(tmp_path):
    archive = tmp_path / "demo-1.0-cp313-cp313-pyodide_2025_0_wasm32.whl"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr(zipfile.ZipInfo("demo/"), b"")
        z.writestr("demo/__init__.py", b"x = 1\n" * 500, compress_type=zipfile.ZIP_DEFLATED)
        z.writestr("demo/_speedups.cpython-313-wasm32-emscripten.so", bytes(range(256)) * 40,
                   compress_type=zipfile.ZIP_STORED)
        z.writestr("demo/empty.txt", b"", compress_type=zipfile.ZIP_DEFLATED)
        z.writestr("demo-1.0.dist-info/METADATA", "Name: demo\nVersion: 1.0\n", compress_type=zipfile.ZIP_DEFLATED)
    got = run_unzip(archive)
    assert got["files"] == expected(archive)
    assert [name for name, _ in got["files"]][0] == "demo/__init__.py"  # the folder entry is not a file
    assert got["dynlibs"] == ["demo/_speedups.cpython-313-wasm32-emscripten.so"]


def test_unzip_refuses_an_archive_that_writes_outside_its_folder_or_is_not_a_zip(tmp_path):
    escaping = tmp_path / "escape.whl"
    with zipfile.ZipFile(escaping, "w") as z:
        z.writestr("../../etc/evil.py", b"x")
    assert "outside the archive" in run_unzip(escaping)["error"]
    garbage = tmp_path / "garbage.whl"
    garbage.write_bytes(b"not a zip at all" * 10)
    assert "not a zip archive" in run_unzip(garbage)["error"]


def test_unzip_reads_the_real_numpy_wheel_as_zipfile_does_with_the_dynamic_libraries_pyodide_loads():
    wheels = sorted(shared_packages().glob("numpy-*-pyodide_*_wasm32.whl"))
    if not wheels:
        pytest.skip(f"no real numpy wheel in {shared_packages()} (../shared/pyodide-packages)")
    got = run_unzip(wheels[0])
    assert got["files"] == expected(wheels[0])
    # Pyodide's rule (should_load_dynlib) takes every extension module of the wheel: 13 in numpy 2.2.5.
    with zipfile.ZipFile(wheels[0]) as z:
        extensions = [n for n in z.namelist() if n.endswith("-wasm32-emscripten.so")]
    assert got["dynlibs"] == extensions and len(extensions) >= 10
