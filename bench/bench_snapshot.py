"""Can Pyodide's memory snapshot hold a loaded numpy? (issue 27, item 2: one measured look.)

    .venv/bin/python bench/bench_snapshot.py

Prints what it found; never fails. In Node, with the local Pyodide 0.29.3 and the page's real
numpy wheel (``tests/build_support/local_pyodide.py``), three snapshots
(``loadPyodide({_makeSnapshot: true})``, ``pyodide.makeMemorySnapshot()``,
``loadPyodide({_loadSnapshot})``):

1. numpy installed as the page does (``loadPackage``), then imported: can a snapshot be made?
2. numpy's wheel unpacked by hand and imported (no ``loadPackage``): a snapshot is made; after
   restoring it, does numpy run?
3. the standard library only: made and restored, with its size and the time to restore
   against a plain start (what a snapshot could save if numpy could not be in it).

On 2026-12-02: (1) "Unexpected hiwire entry" (loadPackage's JS objects stay referenced);
(2) a 30 MB snapshot whose numpy is in ``sys.modules`` but whose first call is a fatal
"table index is out of bounds" (numpy's WebAssembly modules are not in the restored function
table); (3) 21 MB (5.2 MB gzip), restored in 0.2-0.6 s against a plain start of 1.4-2.3 s (Node). Bokeh
and Panel import numpy, so a snapshot could only save Python's own start (not the download and
compile of the runtime's WebAssembly), for 5 MB more to download on a first visit, and one made
in Node holds Node's JS globals: not used.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from build_support.local_pyodide import SUBFOLDER, local_pyodide_unavailable, make_local_pyodide  # noqa: E402

NODE = r"""
globalThis.XMLHttpRequest = class XMLHttpRequest {};
const { readFileSync, writeFileSync } = await import("node:fs");
const { gzipSync } = await import("node:zlib");
const [indexURL, numpyWheel, out] = process.argv.slice(2);
const { loadPyodide } = await import(indexURL + "pyodide.mjs");
const T = () => performance.now();
const last = (e) => String(e && e.message || e).trim().split("\n").filter((l) => !l.startsWith("  ")).pop();
const found = {};
let t0 = T();
let py = await loadPyodide({ indexURL });
found.plain_start_ms = T() - t0;
// 1. numpy through loadPackage, as the page installs it.
py = await loadPyodide({ indexURL, _makeSnapshot: true });
await py.loadPackage(["numpy"], { messageCallback: () => {} });
py.runPython("import numpy");
try { py.makeMemorySnapshot(); found.load_package = "made"; } catch (e) { found.load_package = "not made: " + last(e); }
// 2. numpy unpacked by hand and imported.
py = await loadPyodide({ indexURL, _makeSnapshot: true });
py.unpackArchive(new Uint8Array(readFileSync(numpyWheel)), "wheel", { extractDir: "/lib/python3.13/site-packages" });
py.runPython("import numpy");
const snap = py.makeMemorySnapshot();
found.unpacked_mb = snap.length / 1e6;
writeFileSync(out, snap);
py = await loadPyodide({ indexURL, _loadSnapshot: readFileSync(out) });
found.unpacked_in_modules = py.runPython("import sys; 'numpy' in sys.modules");
try { found.unpacked_runs = String(py.runPython("import numpy; int(numpy.arange(5).sum())")); }
catch (e) { found.unpacked_runs = "fails: " + last(e); }
// 3. the standard library only.
py = await loadPyodide({ indexURL, _makeSnapshot: true });
py.runPython("import json, fractions");
const small = py.makeMemorySnapshot();
found.stdlib_mb = small.length / 1e6;
found.stdlib_gzip_mb = gzipSync(small).length / 1e6;
t0 = T();
await loadPyodide({ indexURL, _loadSnapshot: small });
found.stdlib_restore_ms = T() - t0;
process.stdout.write("\nRESULT " + JSON.stringify(found) + "\n");
"""


def main() -> int:
    reason = local_pyodide_unavailable()
    if reason:
        print(f"bench_snapshot: cannot run: {reason}")
        return 0
    with tempfile.TemporaryDirectory(prefix="specstep-snapshot-") as tmp:
        folder = make_local_pyodide(Path(tmp)) / SUBFOLDER
        wheel = next(folder.glob("numpy-*.whl"))
        script = Path(tmp) / "snapshot.mjs"
        script.write_text(NODE, encoding="utf-8")
        run = subprocess.run(["node", str(script), f"{folder}/", str(wheel), str(Path(tmp) / "snap.bin")],
                             capture_output=True, text=True, timeout=600)
    if "RESULT " not in run.stdout:
        print("bench_snapshot: the Node script failed:\n" + run.stderr[-2000:])
        return 0
    f = json.loads(next(line for line in run.stdout.splitlines()[::-1] if line.startswith("RESULT "))[7:])
    print("Pyodide 0.29.3 memory snapshots, with the page's numpy (Node, 127.0.0.1 files)")
    print(f"  1. numpy by loadPackage, imported: snapshot {f['load_package']}")
    print(f"  2. numpy unpacked by hand, imported: snapshot of {f['unpacked_mb']:.1f} MB made; restored, numpy in "
          f"sys.modules: {f['unpacked_in_modules']}; numpy.arange(5).sum(): {f['unpacked_runs']}")
    print(f"  3. standard library only: {f['stdlib_mb']:.1f} MB ({f['stdlib_gzip_mb']:.1f} MB gzip), restored in {f['stdlib_restore_ms']:,.0f} ms "
          f"against a plain start of {f['plain_start_ms']:,.0f} ms ({f['stdlib_restore_ms'] / f['plain_start_ms']:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
