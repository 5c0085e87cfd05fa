"""The page's one download of Python code (sitebuild/bundle.py) and the standard library's split (stdlib.split).

The worker writes the bundle into Pyodide's file system with a few lines of tar
reading (``untar`` in web/worker.js), run here under Node against the build's own
writer; without DecompressionStream it hands the .tar.gz to Pyodide's unpacker,
run here in Pyodide on the real build's bundle.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from build_support.real_site import real_site
from build_support.worker_js import run_on_worker_js
from pyodide_runner import ROOT, run_in_pyodide

sys.path.insert(0, str(ROOT))
from sitebuild import stdlib  # noqa: E402
from sitebuild.bundle import bundle_files, read_bundle, write_bundle  # noqa: E402


def test_split_moves_whole_packages_the_app_imports_after_start_up():
    names = ["os.py", "json/", "json/__init__.py", "json/decoder.py", "email/", "email/__init__.py",
             "email/utils.py", "email/mime/text.py", "uuid.py", "statistics.py", "ctypes/macholib/README.ctypes",
             "ctypes/__init__.py", "pdb.py", "encodings/cp1250.py", "encodings/utf_8.py"]
    imported = {"os", "json", "json.decoder", "email", "email.utils", "uuid", "ctypes", "pdb"}
    startup = {"os", "json", "json.decoder", "encodings", "encodings.utf_8"}
    got = stdlib.split(names, imported, startup)
    assert got.compiled == ("email/__init__.py", "email/utils.py", "uuid.py", "ctypes/__init__.py")
    # The rest of a moved package moves as it is: its submodules stay importable.
    assert got.source == ("email/mime/text.py", "ctypes/macholib/README.ctypes")
    # Start-up modules, what the app never imports, and folders stay; left-out files go nowhere.
    assert got.zipped == ("os.py", "json/", "json/__init__.py", "json/decoder.py", "email/", "statistics.py",
                          "encodings/utf_8.py")
    for gone in ("pdb.py", "encodings/cp1250.py"):
        assert gone not in got.zipped + got.compiled + got.source


def test_split_moves_pyodides_sysconfig_data_with_sysconfig():
    # The probe (CPython on Linux) imports _sysconfigdata_x86_64...; Pyodide's is named for emscripten.
    names = ["sysconfig/__init__.py", "_sysconfigdata__emscripten_wasm32-emscripten.py", "_strptime.py"]
    got = stdlib.split(names, {"sysconfig", "_sysconfigdata__linux_x86_64-linux-gnu"}, set())
    assert got.compiled == ("sysconfig/__init__.py", "_sysconfigdata__emscripten_wasm32-emscripten.py")
    assert stdlib.split(names, {"os"}, set()).compiled == ()


def make_wheel(path: Path, files: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as whl:
        for name, data in files.items():
            whl.writestr(name, data)
    return path


@pytest.fixture
def small_bundle(tmp_path):
    wheel = make_wheel(tmp_path / "demo-1.0-py3-none-any.whl", {
        "demo/__init__.pyc": b"\x00pyc",
        "demo/" + "deep/" * 25 + "leaf.txt": b"x" * 700,  # a path over ustar's 100-byte name field
        "demo-1.0.dist-info/METADATA": b"Name: demo\nVersion: 1.0\n",
        "demo/empty.txt": b"",
    })
    moved = tmp_path / "moved"
    (moved / "email").mkdir(parents=True)
    (moved / "email" / "utils.pyc").write_bytes(bytes(range(256)) * 3)
    (moved / "uuid.pyc").write_bytes(b"uuid")
    target = tmp_path / "python.tar.gz"
    folders = [(moved, "/lib/python3.13")]
    info = write_bundle(target, [wheel], folders)
    return target, info, bundle_files([wheel], folders)


def test_the_bundle_holds_the_wheels_in_site_packages_and_the_moved_stdlib_beside_it(small_bundle):
    target, info, expected = small_bundle
    assert read_bundle(target) == expected
    assert set(expected) == {
        "lib/python3.13/site-packages/demo/__init__.pyc",
        "lib/python3.13/site-packages/demo/" + "deep/" * 25 + "leaf.txt",
        "lib/python3.13/site-packages/demo-1.0.dist-info/METADATA",
        "lib/python3.13/site-packages/demo/empty.txt",
        "lib/python3.13/email/utils.pyc", "lib/python3.13/uuid.pyc",
    }
    assert info["files"] == 6 and info["stdlib_files"] == 2 and info["bytes"] == target.stat().st_size


def test_the_bundle_is_plain_ustar_of_regular_files_and_reproducible(small_bundle, tmp_path):
    target, _, expected = small_bundle
    with tarfile.open(target, "r:gz") as tar:
        members = tar.getmembers()
        assert [m.name for m in members] == sorted(expected)
        assert all(m.isfile() and m.mtime == 0 and m.uid == 0 and m.uname == "" for m in members)
    raw = tarfile.open(target, "r:gz").fileobj  # the gzip stream's tar bytes
    raw.seek(0)
    assert b"ustar\x0000" in raw.read(512)  # POSIX ustar, no GNU or pax extensions
    again = tmp_path / "again.tar.gz"
    wheel = tmp_path / "demo-1.0-py3-none-any.whl"
    write_bundle(again, [wheel], [(tmp_path / "moved", "/lib/python3.13")])
    assert again.read_bytes() == target.read_bytes()


UNTAR_HARNESS = r"""
const code = [pick(/\nfunction fileWriter\(FS\) \{[\s\S]*?\n\}\n/), pick(/\nfunction untar\(FS, buffer\) \{[\s\S]*?\n\}\n/)];
const untar = new Function(code.join("\n") + "\nreturn untar;")();
const files = {}; const folders = [];
const FS = {
  mkdirTree: (path) => folders.push(path),
  writeFile: (path, data) => { files[path] = require("crypto").createHash("sha256").update(data).digest("hex"); },
};
const buffer = fs.readFileSync(process.argv[2]);
const count = untar(FS, buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.length));
process.stdout.write(JSON.stringify({ count, files, folders }));
"""


def run_untar(tar: Path) -> dict:
    result = run_on_worker_js(UNTAR_HARNESS, tar)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def gunzip(path: Path, target: Path) -> Path:
    import gzip
    target.write_bytes(gzip.decompress(path.read_bytes()))
    return target


def test_the_workers_untar_writes_exactly_the_bundles_files(small_bundle, tmp_path):
    target, _, expected = small_bundle
    got = run_untar(gunzip(target, tmp_path / "python.tar"))
    assert got["files"] == {"/" + name: hashlib.sha256(data).hexdigest() for name, data in expected.items()}
    assert got["count"] == len(expected)
    assert len(got["folders"]) == len(set(got["folders"])), "each folder made once"


def test_the_workers_untar_refuses_what_the_build_never_writes(tmp_path):
    tar_path = tmp_path / "link.tar"
    with tarfile.open(tar_path, "w", format=tarfile.USTAR_FORMAT) as tar:
        link = tarfile.TarInfo("lib/x")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        tar.addfile(link)
    result = run_on_worker_js(UNTAR_HARNESS, tar_path)
    assert result.returncode != 0 and "not a regular file" in result.stderr


@pytest.mark.slow
@pytest.mark.pyodide
def test_the_real_bundle_unpacks_with_pyodides_own_unpacker_as_without_decompression_stream(tmp_path):
    built = real_site()
    bundle = built.out / built.packages["bundle"]["file"]
    given = tmp_path / "given"
    given.mkdir()
    shutil.copyfile(bundle, given / "python.tar.gz")
    expected = {"/" + name: hashlib.sha256(data).hexdigest() for name, data in read_bundle(bundle).items()}
    (given / "expected.json").write_text(json.dumps(expected))
    script = """
import hashlib, json, os
import pyodide_js
from pyodide.ffi import to_js
given = "/home/pyodide/given"
data = open(os.path.join(given, "python.tar.gz"), "rb").read()
pyodide_js.unpackArchive(to_js(data), "gztar", to_js({"extractDir": "/"}, dict_converter=dict))
wanted = json.load(open(os.path.join(given, "expected.json")))
got = {path: hashlib.sha256(open(path, "rb").read()).hexdigest() for path in wanted if os.path.isfile(path)}
print(json.dumps({"same": sum(got[p] == h for p, h in wanted.items() if p in got), "missing": len(wanted) - len(got)}))
"""
    out = run_in_pyodide(script, mounts=(str(given),))
    assert json.loads(out.strip().splitlines()[-1]) == {"same": len(expected), "missing": 0}


@pytest.mark.slow
@pytest.mark.pyodide
def test_numpy_imports_from_the_bundles_bytecode_in_real_pyodide(tmp_path):
    """Pyodide's numpy wheel has sources only; the bundle's checked __pycache__ files spare compiling them."""
    built = real_site()
    if not built.info["release_pycs"].get("numpy", {}).get("modules"):
        pytest.skip(f"this build has no bytecode for numpy: {built.info['release_pycs'].get('numpy')}")
    given = tmp_path / "given"
    given.mkdir()
    shutil.copyfile(built.out / "python.tar.gz", given / "python.tar.gz")
    script = """
import importlib._bootstrap_external as external, json, os, sys
import pyodide_js
from pyodide.ffi import to_js
data = open("/home/pyodide/given/python.tar.gz", "rb").read()
pyodide_js.unpackArchive(to_js(data), "gztar", to_js({"extractDir": "/"}, dict_converter=dict))
compiled = []
source_to_code = external.SourceLoader.source_to_code
def counting(self, data, path, *args, **kwargs):
    compiled.append(path.split("site-packages/")[-1])
    return source_to_code(self, data, path, *args, **kwargs)
external.SourceLoader.source_to_code = counting
import numpy
ours = [m for m in sys.modules if m.startswith("numpy")]
assert float(numpy.arange(4).sum()) == 6.0 and numpy.concatenate.__doc__  # docs where numpy needs them
print(json.dumps({"numpy_modules": len(ours), "compiled": sorted(p for p in compiled if p.startswith("numpy/"))}))
"""
    out = run_in_pyodide(script, mounts=(str(given),), index_url=built.pyodide_folder, load=("numpy",))
    got = json.loads(out.strip().splitlines()[-1])
    assert got["numpy_modules"] > 60
    # Only files Pyodide's build changed compile (numpy/__config__.py is generated at build time).
    assert len(got["compiled"]) <= 3, got["compiled"]
