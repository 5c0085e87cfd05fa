"""A stand-in for the Pyodide CDN, in a local folder, for offline browser tests.

It holds the npm package pyodide@0.29.3's core files (the real runtime) and a
copy of its lock file in which the compiled packages the page asks for
(numpy, PyYAML, MarkupSafe, nh3, pyodide-http) point at small pure-Python
wheels made here: a numpy with no arrays and pass-through nh3/pyodide_http
(``standins/``), and the pure-Python fallbacks of MarkupSafe and PyYAML from
the installed packages. File names, versions and sha256 in the lock match
those wheels, so Pyodide's loadPackage installs them as it would the real
ones. Served by ``servers.LocalServer(..., cors=True)`` it lets the built page
start for real in Chromium with no network: everything but numpy's arithmetic
is the real thing.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
PYODIDE_NPM = ROOT / "sitebuild" / "npm" / "node_modules" / "pyodide"
CORE_FILES = ("pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip")


def _pure_sources(name: str) -> dict[str, bytes]:
    """Files of a stand-in package, as {path in the wheel: bytes}."""
    if name == "markupsafe":
        import markupsafe
        folder = Path(markupsafe.__file__).parent
        return {f"markupsafe/{p.name}": p.read_bytes() for p in sorted(folder.glob("*.py"))}
    if name == "pyyaml":
        import yaml
        folder = Path(yaml.__file__).parent
        return {f"yaml/{p.name}": p.read_bytes() for p in sorted(folder.glob("*.py")) if p.name != "cyaml.py"}
    module = {"pyodide-http": "pyodide_http"}.get(name, name)
    folder = HERE / "standins" / module
    if not folder.is_dir():
        raise KeyError(f"no stand-in for {name}")
    return {f"{module}/{p.relative_to(folder).as_posix()}": p.read_bytes()
            for p in sorted(folder.rglob("*.py"))}


def standin_wheel(name: str, version: str) -> bytes:
    files = _pure_sources(name)
    dist_info = f"{name.replace('-', '_')}-{version}.dist-info"
    files[f"{dist_info}/METADATA"] = (f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
                                      "Summary: offline test stand-in (tests/build_support/fake_cdn.py)\n").encode()
    files[f"{dist_info}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: specstep tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    rows = []
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as whl:
        for path, data in sorted(files.items()):
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            rows.append(f"{path},sha256={digest},{len(data)}")
            whl.writestr(path, data)
        whl.writestr(f"{dist_info}/RECORD", "\n".join(rows + [f"{dist_info}/RECORD,,"]) + "\n")
    return buffer.getvalue()


def make_fake_cdn(folder: Path, packages: list[str]) -> Path:
    """Fill folder/pyodide/ (the --pyodide-url is http://HOST/pyodide/); return that folder."""
    target = folder / "pyodide"
    target.mkdir(parents=True)
    for name in CORE_FILES:
        (target / name).symlink_to(PYODIDE_NPM / name)
    lock = json.loads((PYODIDE_NPM / "pyodide-lock.json").read_text())
    for name in packages:
        entry = lock["packages"][name]
        data = standin_wheel(name, entry["version"])
        (target / entry["file_name"]).write_bytes(data)
        entry["sha256"] = hashlib.sha256(data).hexdigest()
    (target / "pyodide-lock.json").write_text(json.dumps(lock))
    return target
