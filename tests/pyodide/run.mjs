#!/usr/bin/env node
// Run a Python script in Pyodide 0.29.3 (the runtime Panel 1.9.4 pins) under Node,
// offline, from the npm package the build installs in sitebuild/npm/ (`npm ci` there).
//
//   node run.mjs [--index-url DIR] [--load NAME]... [--mount DIR]... [--wheel FILE.whl]...
//                [--timing] script.py [args...]
//
// --index-url DIR  boot Pyodide from DIR instead (a local Pyodide folder, see
//               tests/build_support/local_pyodide.py); --load NAME then installs
//               a package of its lock file (e.g. numpy) before the script runs.
// --mount DIR   copy a local package folder into Pyodide's file system as
//               /home/pyodide/<basename of DIR>/ (recursively; __pycache__,
//               *.pyc and dot-files are left out), importable by its name.
// --wheel FILE  unpack a pure-Python wheel into site-packages (micropip would
//               need the CDN; unpackArchive does not).
// --timing      print the boot time to stderr as "pyodide boot: N ms".
//
// The script's stdout is passed through byte for byte (raw writes, no line
// batching, so nothing is added or dropped); its stderr goes to stderr. An
// uncaught Python exception prints its traceback to stderr and exits 1; the
// script's own sys.exit(n) becomes the exit status.

import { readFileSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const npmDir = resolve(here, "..", "..", "sitebuild", "npm");
const npmIndexURL = join(npmDir, "node_modules", "pyodide") + "/";
const HOME = "/home/pyodide";

function usage(message) {
  process.stderr.write(`run.mjs: ${message}\n` +
    "usage: node run.mjs [--index-url DIR] [--load NAME]... [--mount DIR]... [--wheel FILE.whl]... " +
    "[--timing] script.py [args...]\n");
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { mounts: [], wheels: [], loads: [], indexURL: npmIndexURL, timing: false, script: null, args: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (opts.script !== null) { opts.args.push(a); continue; }
    if (a === "--mount" || a === "--wheel") {
      const value = argv[++i];
      if (value === undefined) usage(`${a} needs a value`);
      (a === "--mount" ? opts.mounts : opts.wheels).push(resolve(value));
    } else if (a === "--index-url" || a === "--load") {
      const value = argv[++i];
      if (value === undefined) usage(`${a} needs a value`);
      if (a === "--load") opts.loads.push(value);
      else opts.indexURL = resolve(value) + "/";
    } else if (a === "--timing") {
      opts.timing = true;
    } else if (a.startsWith("--")) {
      usage(`unknown option ${a}`);
    } else {
      opts.script = resolve(a);
    }
  }
  if (opts.script === null) usage("no script given");
  return opts;
}

// Copy a host folder into Pyodide's in-memory file system.
function copyTree(FS, src, dest) {
  FS.mkdirTree(dest);
  for (const name of readdirSync(src).sort()) {
    if (name.startsWith(".") || name === "__pycache__" || name.endsWith(".pyc")) continue;
    const from = join(src, name);
    const to = `${dest}/${name}`;
    const st = statSync(from);
    if (st.isDirectory()) copyTree(FS, from, to);
    else if (st.isFile()) FS.writeFile(to, new Uint8Array(readFileSync(from)));
  }
}

// The Python side: argv, sys.path, run as __main__, exit status.
const LAUNCH = `
import runpy, sys, traceback

def _launch(script, args, home):
    sys.argv = [script, *args]
    sys.path[:0] = [home]
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as exc:
        code = exc.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        print(code, file=sys.stderr)
        return 1
    except BaseException:
        traceback.print_exc()
        return 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    return 0
`;

// A reader that closes early (`| head`) is not an error of the script.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (err) => { if (err.code !== "EPIPE") throw err; });
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  let loadPyodide;
  try {
    ({ loadPyodide } = await import(pathToFileURL(join(npmIndexURL, "pyodide.mjs")).href));
  } catch (err) {
    process.stderr.write(`run.mjs: cannot import the npm package pyodide from ${npmIndexURL} ` +
      `(run \`npm ci\` in ${npmDir}): ${err.message}\n`);
    process.exit(3);
  }

  const t0 = performance.now();
  const pyodide = await loadPyodide({ indexURL: opts.indexURL });
  if (opts.timing) {
    process.stderr.write(`pyodide boot: ${Math.round(performance.now() - t0)} ms\n`);
  }

  // Raw writers: Pyodide hands over bytes exactly as Python wrote them.
  // The buffer may be reused after write returns, so copy it.
  pyodide.setStdout({ write: (buf) => { process.stdout.write(Buffer.from(buf)); return buf.length; } });
  pyodide.setStderr({ write: (buf) => { process.stderr.write(Buffer.from(buf)); return buf.length; } });

  if (opts.loads.length) {
    const problems = [];
    await pyodide.loadPackage(opts.loads, { messageCallback: () => {}, errorCallback: (m) => problems.push(m) });
    if (problems.length) {
      process.stderr.write(`run.mjs: loadPackage failed: ${problems.join("; ")}\n`);
      process.exit(4);
    }
  }

  const FS = pyodide.FS;
  for (const dir of opts.mounts) {
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) usage(`--mount ${dir}: not a folder`);
    copyTree(FS, dir, `${HOME}/${basename(dir)}`);
  }
  if (opts.wheels.length) {
    const extractDir = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
    for (const wheel of opts.wheels) {
      // A Node Buffer is refused: hand over a plain Uint8Array.
      pyodide.unpackArchive(new Uint8Array(readFileSync(wheel)), "wheel", { extractDir });
    }
  }

  const runDir = `${HOME}/.run`;
  const scriptPath = `${runDir}/${basename(opts.script)}`;
  FS.mkdirTree(runDir);
  FS.writeFile(scriptPath, new Uint8Array(readFileSync(opts.script)));

  pyodide.runPython(LAUNCH);
  const launch = pyodide.globals.get("_launch");
  const args = pyodide.toPy(opts.args);
  let status;
  try {
    status = launch(scriptPath, args, HOME);
  } finally {
    args.destroy();
    launch.destroy();
  }
  // Let stdout drain before leaving (no process.exit here).
  process.exitCode = status;
}

main().catch((err) => {
  process.stderr.write(`run.mjs: ${err && err.stack ? err.stack : err}\n`);
  process.exitCode = 1;
});
