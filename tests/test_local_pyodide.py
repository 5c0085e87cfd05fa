"""The local Pyodide the real-page tests serve: npm core + the five real compiled packages."""

from __future__ import annotations

import hashlib
import json

from build_support.local_pyodide import (CORE_FILES, PAGE_PACKAGES, make_local_pyodide, npm_pyodide,
                                         require_local_pyodide, shared_packages)
from pyodide_runner import run_in_pyodide


def test_the_lock_names_the_real_wheels_with_their_sha256(tmp_path):
    require_local_pyodide()
    folder = make_local_pyodide(tmp_path) / "pyodide"
    lock = json.loads((folder / "pyodide-lock.json").read_text())
    # The runtime is the npm package pyodide@0.29.3 (its lock's info says 0.28.0.dev0, as shipped).
    assert json.loads((npm_pyodide() / "package.json").read_text())["version"] == "0.29.3"
    for name in CORE_FILES:
        assert (folder / name).is_file(), name
    for name in PAGE_PACKAGES:
        entry = lock["packages"][name]
        wheel = folder / entry["file_name"]
        assert hashlib.sha256(wheel.read_bytes()).hexdigest() == entry["sha256"], name
    if shared_packages().is_dir():
        wanted = json.loads((shared_packages() / "lock-entries.json").read_text())
        for name in PAGE_PACKAGES:
            assert lock["packages"][name]["file_name"] == wanted[name]["file_name"]
        assert not any(p.is_file() and not p.is_symlink() and p.suffix == ".whl" for p in folder.iterdir()), \
            "wheels are linked, never copied"


def test_real_numpy_and_the_other_packages_load_into_pyodide_from_it(tmp_path):
    require_local_pyodide()
    folder = make_local_pyodide(tmp_path) / "pyodide"
    script = (
        "import numpy, yaml, markupsafe, nh3, pyodide_http\n"
        "print(int(numpy.arange(10).reshape(2, 5).sum(axis=1)[1]), numpy.__version__)\n"
        "print(yaml.safe_dump({'p': 1}).strip(), markupsafe.escape('<b>'), nh3.clean('<script>x</script>ok'))\n"
    )
    out = run_in_pyodide(script, mounts=(), index_url=folder, load=PAGE_PACKAGES).splitlines()
    assert out == ["35 2.2.5", "p: 1 &lt;b&gt; ok"]
