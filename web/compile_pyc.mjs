// Byte-compile Python files to Python 3.13 .pyc with Pyodide's own Python, under Node.
//
//   node web/compile_pyc.mjs PYODIDE_DIR JOB.json
//
// JOB.json: {"root": "/abs/host/dir", "trees": [{"path": "rel/dir", "sourceless": true,
//            "display_prefix": "/lib/python3.13/site-packages"}]}
// Every .py under each tree is compiled in place. sourceless=true writes mod.pyc beside
// mod.py and deletes mod.py (the layout of Pyodide's own "pyc" build: imports skip the
// compile and the wheel shrinks); sourceless=false keeps mod.py and adds
// __pycache__/mod.cpython-313.pyc. Both use hash-based pycs (PEP 552), so file times
// lost in a zip do not matter: unchecked, or with "checked": true checked against the
// source Python finds (for sources the page gets from elsewhere). "docstrings": false
// leaves out docstrings as -OO does, keeping asserts (but not in the files listed in
// "docstrings_kept", paths relative to the tree).
//
// Before compiling it notes the modules Python has imported once Pyodide has started and
// unpacked a .tar.gz (what the page's worker does before its code bundle is in place):
// those must stay in the standard library zip (sitebuild/stdlib.py).
// Prints one JSON line: {"compiled": N, "python": "3.13.x", "cache_tag": ..., "startup_modules": [...]}.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, jobPath] = process.argv.slice(2);
if (!pyodideDir || !jobPath) {
  process.stderr.write("usage: node compile_pyc.mjs PYODIDE_DIR JOB.json\n");
  process.exit(2);
}
const job = JSON.parse(readFileSync(jobPath, "utf8"));
const { loadPyodide } = await import(pathToFileURL(join(resolve(pyodideDir), "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: resolve(pyodideDir) + "/" });
// An empty tar (two zero blocks), gzipped: unpacking it imports what any unpack imports.
pyodide.unpackArchive(new Uint8Array(gzipSync(Buffer.alloc(1024))), "gztar", { extractDir: "/tmp/unpacked" });
const startupModules = pyodide.runPython("import sys; sorted(sys.modules)").toJs();
pyodide.mountNodeFS("/build", resolve(job.root));
pyodide.globals.set("job_json", JSON.stringify(job));
const out = pyodide.runPython(`
import ast, importlib.util, json, marshal, os, sys

job = json.loads(job_json)


def without_docstrings(tree):
    """What -OO drops of a module, class or function, and nothing else (asserts stay)."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \\
                    and isinstance(first.value.value, str):
                node.body[0:1] = [] if len(node.body) > 1 else [ast.copy_location(ast.Pass(), first)]
    return tree


def pyc(source, display, docstrings, checked):
    """A hash-based .pyc (PEP 552): checked ones are used only while the source is unchanged."""
    code = compile(source if docstrings else without_docstrings(ast.parse(source, display)), display, "exec",
                   dont_inherit=True)
    flags = 0b11 if checked else 0b01
    return importlib.util.MAGIC_NUMBER + flags.to_bytes(4, "little") + importlib.util.source_hash(source) \\
        + marshal.dumps(code)


count = 0
for tree in job["trees"]:
    base = os.path.join("/build", tree["path"])
    for folder, dirs, files in os.walk(base):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            source = os.path.join(folder, name)
            rel = os.path.relpath(source, base)
            display = tree["display_prefix"].rstrip("/") + "/" + rel
            if tree["sourceless"]:
                target = source[:-3] + ".pyc"
            else:
                target = importlib.util.cache_from_source(source)
                os.makedirs(os.path.dirname(target), exist_ok=True)
            docstrings = tree.get("docstrings", True) or rel in tree.get("docstrings_kept", ())
            with open(source, "rb") as file:
                data = pyc(file.read(), display, docstrings, tree.get("checked", False))
            with open(target, "wb") as file:
                file.write(data)
            if tree["sourceless"]:
                os.remove(source)
            count += 1
json.dumps({"compiled": count, "python": sys.version.split()[0],
            "cache_tag": sys.implementation.cache_tag})
`);
const result = JSON.parse(out);
result.startup_modules = startupModules;
process.stdout.write(JSON.stringify(result) + "\n");
