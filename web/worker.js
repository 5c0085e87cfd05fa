// The web worker that runs the app's Python in Pyodide, off the page's main thread.
//
// Written by build.py from web/worker.js. It follows the protocol of Panel's own
// pyodide_worker.js template (messages "render", "patch", "idle", "rendered",
// "location"), with three changes:
//   - it installs exactly the packages in packages.json, by name from the Pyodide
//     release and as wheels from this site, with no dependency resolution;
//   - it reports its progress ("progress" with stage runtime / packages / app) and
//     any failure ("failed" with the stage) so the page can say so in plain words;
//   - the app's code runs in its own namespace, with the page's URL already in
//     pn.state.location (as under `panel serve`), and Panel's protocol snippets in
//     another, so an app global can never clash with them.
"use strict";

const CONFIG = @@CONFIG@@;

let pyodide = null;
let protocol = null; // Python namespace for the protocol snippets
let resolveInit;
const initMessage = new Promise((resolve) => { resolveInit = resolve; });

function post(message) { self.postMessage(message); }
function progress(stage, detail) { post({ type: "progress", stage, detail: detail || "" }); }
function resources() {
  return performance.getEntriesByType("resource").map((entry) => entry.name);
}
function failed(stage, error) {
  const text = String((error && error.message) || error || "unknown error");
  console.error(`[specstep worker] ${stage} failed:`, error);
  // The last line of a Python traceback names the error; the traceback stays in the console.
  const lines = text.trim().split("\n");
  post({ type: "failed", stage, detail: lines[lines.length - 1].slice(0, 300), resources: resources() });
}

function sendPatch(patch, buffers) {
  post({ type: "patch", patch, buffers });
}

async function fetchPackageList() {
  const response = await fetch(CONFIG.packagesList, { cache: "no-cache" });
  if (!response.ok) throw new Error(`${CONFIG.packagesList}: HTTP ${response.status}`);
  return response.json();
}

async function start() {
  const listPromise = fetchPackageList();
  listPromise.catch(() => {}); // reported in the packages stage

  progress("runtime");
  try {
    importScripts(CONFIG.pyodideURL);
    pyodide = await loadPyodide({ indexURL: new URL(CONFIG.pyodideIndexURL, self.location.href).href });
  } catch (error) {
    failed("runtime", error);
    return;
  }
  progress("runtime-ready");

  let list;
  try {
    list = await listPromise;
    const names = list.from_pyodide.map((p) => p.name);
    const wheels = list.wheels.map((w) => new URL(w.file, self.location.href).href);
    progress("packages", `${names.length + wheels.length} packages`);
    const problems = [];
    await pyodide.loadPackage([...names, ...wheels], {
      messageCallback: () => {},
      errorCallback: (message) => problems.push(message),
    });
    if (problems.length) {
      console.error("[specstep worker]", problems.join("\n"));
      // Pyodide says "The following error occurred while loading NAME:" for each.
      const failedNames = problems.map((m) => (m.match(/while loading ([^:]+):/) || [])[1]).filter(Boolean);
      throw new Error(failedNames.length ? `could not download ${failedNames.join(", ")}` : problems.join("; "));
    }
    // Every listed distribution must now be installed at the listed version.
    const wanted = [...list.from_pyodide, ...list.wheels].map((p) => [p.name, p.version]);
    pyodide.globals.set("specstep_wanted", pyodide.toPy(wanted));
    const missing = pyodide.runPython(`
import importlib.metadata as _md
_missing = []
for _name, _version in specstep_wanted:
    try:
        _have = _md.version(_name)
    except _md.PackageNotFoundError:
        _have = None
    if _have != _version:
        _missing.append(f"{_name} {_version} (found {_have})")
del specstep_wanted
", ".join(_missing)
`);
    if (missing) throw new Error(`not installed: ${missing}`);
  } catch (error) {
    failed("packages", error);
    return;
  }

  progress("app");
  try {
    const init = await initMessage;
    const dict = pyodide.globals.get("dict");
    protocol = dict();
    protocol.set("sendPatch", sendPatch);
    const app = dict();
    app.set("__name__", "__main__");
    dict.destroy();
    protocol.set("specstep_cdn_root", new URL(CONFIG.panelCdnRoot, self.location.href).href);
    protocol.set("specstep_location", init.location);
    // Panel's JS/CSS URLs in the documents it renders point at this site (read at import).
    await pyodide.runPythonAsync(`
import os
os.environ["PANEL_CDN_ROOT"] = specstep_cdn_root
`, { globals: protocol });
    await pyodide.runPythonAsync(CONFIG.code.pre, { globals: app });
    await pyodide.runPythonAsync(`
import json
from panel.io.state import state
from panel.util import edit_readonly
if state.location is not None:
    _data = json.loads(specstep_location)
    with edit_readonly(state.location):
        state.location.param.update({k: v for k, v in _data.items() if k in state.location.param})
`, { globals: protocol });
    const result = await pyodide.runPythonAsync(CONFIG.code.source + "\n" + CONFIG.code.post,
      { globals: app, filename: CONFIG.entry });
    const [docsJson, renderItems, rootIds] = result.toJs();
    result.destroy();
    post({ type: "render", docs_json: docsJson, render_items: renderItems, root_ids: rootIds,
      resources: resources() });
  } catch (error) {
    failed("app", error);
  }
}

async function runProtocol(code) {
  try {
    await pyodide.runPythonAsync(code, { globals: protocol });
  } catch (error) {
    console.error("[specstep worker]", error);
  }
}

self.onmessage = async (event) => {
  const message = event.data;
  if (message.type === "init") {
    resolveInit(message);
  } else if (message.type === "rendered") {
    await runProtocol(`
from panel.io.state import state
from panel.io.pyodide import _link_docs_worker
_link_docs_worker(state.curdoc, sendPatch, setter="js")
`);
  } else if (message.type === "patch") {
    protocol.set("patch", message.patch);
    await runProtocol(`
from panel.io.state import state
from panel.io.pyodide import _convert_json_patch
state.curdoc.apply_json_patch(_convert_json_patch(patch), setter="js")
`);
    post({ type: "idle" });
  } else if (message.type === "location") {
    protocol.set("location", message.location);
    await runProtocol(`
import json
from panel.io.state import state
from panel.util import edit_readonly
if state.location:
    _data = json.loads(location)
    with edit_readonly(state.location):
        state.location.param.update({k: v for k, v in _data.items() if k in state.location.param})
`);
  }
};

start();
