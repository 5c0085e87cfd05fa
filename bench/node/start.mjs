// The worker's start-up (web/worker.js) replayed in Node for bench/bench_start.py: boot Pyodide with the
// site's standard library, write its bundle into the file system, install the release's packages with
// loadPackage, then run measure.py (the Python stages, timed), and print its one JSON line.
//
//   node start.mjs PYODIDE_FOLDER/ SITE_FOLDER
globalThis.XMLHttpRequest = class XMLHttpRequest {}; // panel.io.pyodide imports the name
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";

const [indexURL, site] = process.argv.slice(2);
const { loadPyodide } = await import(indexURL + "pyodide.mjs");

// A ustar archive's regular files under "/" (sitebuild/bundle.py writes nothing else).
function untar(FS, bytes) {
  const text = new TextDecoder();
  const field = (start, length) => {
    let end = start;
    while (end < start + length && bytes[end] !== 0) end++;
    return text.decode(bytes.subarray(start, end));
  };
  const folders = new Set();
  for (let at = 0; at + 512 <= bytes.length;) {
    const name = field(at, 100);
    if (!name) break;
    const size = parseInt(field(at + 124, 12).trim() || "0", 8);
    const prefix = field(at + 345, 155);
    const path = "/" + (prefix ? `${prefix}/${name}` : name);
    at += 512;
    const folder = path.slice(0, path.lastIndexOf("/"));
    if (!folders.has(folder)) {
      FS.mkdirTree(folder);
      folders.add(folder);
    }
    FS.writeFile(path, bytes.subarray(at, at + size));
    at += Math.ceil(size / 512) * 512;
  }
}

const py = await loadPyodide({ indexURL, stdLibURL: site + "/python_stdlib.zip" });
untar(py.FS, gunzipSync(readFileSync(site + "/python.tar.gz")));
const packages = JSON.parse(readFileSync(site + "/packages.json", "utf8"));
await py.loadPackage(packages.from_pyodide.map((p) => p.name), { messageCallback: () => {} });
py.pyimport("importlib").invalidate_caches();
const location = { href: "http://127.0.0.1/index.html", origin: "http://127.0.0.1", protocol: "http:",
  host: "127.0.0.1", hostname: "127.0.0.1", port: "", pathname: "/index.html", search: "", hash: "" };
py.globals.set("LOCATION", JSON.stringify(location));
py.globals.set("WANTED", JSON.stringify([...packages.from_pyodide, ...packages.wheels].map((p) => [p.name, p.version])));
await py.runPythonAsync(readFileSync(new URL("./measure.py", import.meta.url), "utf8"));
