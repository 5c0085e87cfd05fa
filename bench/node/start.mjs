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

// The page's own untar (and its file writer), cut from web/worker.js as tests/test_bundle.py cuts them.
const worker = readFileSync(new URL("../../web/worker.js", import.meta.url), "utf8");
const piece = (re) => {
  const found = worker.match(re);
  if (!found) throw new Error(`not in web/worker.js: ${re}`);
  return found[0];
};
const untar = new Function([piece(/\nfunction fileWriter\(FS\) \{[\s\S]*?\n\}\n/),
  piece(/\nfunction untar\(FS, buffer\) \{[\s\S]*?\n\}\n/), "return untar;"].join("\n"))();

const py = await loadPyodide({ indexURL, stdLibURL: site + "/python_stdlib.zip" });
const tar = gunzipSync(readFileSync(site + "/python.tar.gz"));
untar(py.FS, tar.buffer.slice(tar.byteOffset, tar.byteOffset + tar.length));
const packages = JSON.parse(readFileSync(site + "/packages.json", "utf8"));
await py.loadPackage(packages.from_pyodide.map((p) => p.name), { messageCallback: () => {} });
py.pyimport("importlib").invalidate_caches();
const location = { href: "http://127.0.0.1/index.html", origin: "http://127.0.0.1", protocol: "http:",
  host: "127.0.0.1", hostname: "127.0.0.1", port: "", pathname: "/index.html", search: "", hash: "" };
py.globals.set("LOCATION", JSON.stringify(location));
py.globals.set("WANTED", JSON.stringify([...packages.from_pyodide, ...packages.wheels].map((p) => [p.name, p.version])));
await py.runPythonAsync(readFileSync(new URL("./measure.py", import.meta.url), "utf8"));
