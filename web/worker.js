// The web worker that runs the app's Python in Pyodide, off the page's main thread.
//
// Written by build.py from web/worker.js. The Python it runs is one module of our
// wheel, app/worker_protocol.py; this file only downloads, reports and relays:
//   - downloads start at once and in parallel: Pyodide's runtime and every package
//     in packages.json, so installing starts as soon as Python is up (our wheels are
//     unpacked from the downloaded bytes; Pyodide's own fetch of its packages is
//     answered from the HTTP cache);
//   - it reports its progress ("progress" with stage runtime / runtime-start /
//     runtime-ready / packages / app) and any failure ("failed" with the stage),
//     so the page says what is happening in plain words;
//   - messages with the page follow Panel's pyodide worker ("render", "patch",
//     "idle" out; "init", "rendered", "patch", "location" in).
"use strict";

const CONFIG = @@CONFIG@@;

let protocol = null; // the Python module app.worker_protocol
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

const here = (path) => new URL(path, self.location.href).href;
const indexURL = here(CONFIG.pyodideIndexURL);

// Read a file to the end: its bytes (our wheels, unpacked from them), and the HTTP cache
// holds it when Pyodide asks again (its compiled packages, served with long cache times).
async function download(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

// "runtime-start" once Pyodide's WebAssembly is downloaded: Python is compiling and
// starting. Pyodide compiles the .wasm while it streams in, so this watches that same
// stream (a tee of it): the file is fetched once, and the stage is posted as soon as
// the last byte is in, before Python's start-up keeps this thread busy. Returns a
// function that posts the stage if it has not been posted yet.
function watchRuntimeDownload() {
  let posted = false;
  const post = () => {
    if (!posted) {
      posted = true;
      progress("runtime-start");
    }
  };
  const streaming = WebAssembly.instantiateStreaming;
  if (typeof streaming !== "function" || typeof ReadableStream === "undefined") return post;
  WebAssembly.instantiateStreaming = async (source, imports) => {
    const response = await source;
    if (!response.body || !String(response.url).endsWith("/pyodide.asm.wasm")) {
      return streaming.call(WebAssembly, response, imports);
    }
    const [watched, compiled] = response.body.tee();
    (async () => {
      const reader = watched.getReader();
      while (!(await reader.read()).done) { /* until the last byte */ }
      post();
    })().catch(() => {});
    return streaming.call(WebAssembly, new Response(compiled, { status: response.status, headers: response.headers }),
      imports);
  };
  return post;
}

function sendPatch(patch, buffers) {
  post({ type: "patch", patch, buffers });
}

async function start() {
  progress("runtime");
  const packages = CONFIG.packages;
  const fromPyodide = packages.from_pyodide.map((p) => download(indexURL + p.file_name));
  const wheels = packages.wheels.map((w) => download(here(w.file)));
  for (const pending of [...fromPyodide, ...wheels]) pending.catch(() => {}); // reported in the packages stage

  let pyodide;
  const runtimeStarting = watchRuntimeDownload();
  try {
    importScripts(CONFIG.pyodideURL);
    // The standard library from this site: Pyodide's own, without what the page never imports.
    pyodide = await loadPyodide({ indexURL, stdLibURL: here(CONFIG.stdLibURL) });
  } catch (error) {
    failed("runtime", error);
    return;
  }
  runtimeStarting();
  progress("runtime-ready");

  try {
    const names = packages.from_pyodide.map((p) => p.name);
    progress("packages", `${names.length + wheels.length} packages`);
    // Our wheels are pure Python: unpacked from the bytes already downloaded.
    for (const bytes of await Promise.all(wheels)) {
      pyodide.unpackArchive(bytes, "wheel", { extractDir: CONFIG.sitePackages });
    }
    pyodide.pyimport("importlib").invalidate_caches();
    const problems = [];
    await pyodide.loadPackage(names, {
      messageCallback: () => {},
      errorCallback: (message) => problems.push(message),
    });
    if (problems.length) {
      console.error("[specstep worker]", problems.join("\n"));
      // Pyodide says "The following error occurred while loading NAME:" for each.
      const failedNames = problems.map((m) => (m.match(/while loading ([^:]+):/) || [])[1]).filter(Boolean);
      throw new Error(failedNames.length ? `could not download ${failedNames.join(", ")}` : problems.join("; "));
    }
    protocol = pyodide.pyimport("app.worker_protocol");
    const wanted = [...packages.from_pyodide, ...packages.wheels].map((p) => [p.name, p.version]);
    const missing = protocol.missing_packages(pyodide.toPy(wanted));
    if (missing) throw new Error(`not installed: ${missing}`);
  } catch (error) {
    failed("packages", error);
    return;
  }

  progress("app");
  try {
    const init = await initMessage;
    const result = await protocol.start(init.location, here(CONFIG.panelCdnRoot));
    const [docsJson, renderItems, rootIds] = result.toJs();
    result.destroy();
    post({ type: "render", docs_json: docsJson, render_items: renderItems, root_ids: rootIds,
      resources: resources() });
  } catch (error) {
    failed("app", error);
  }
}

function call(name, ...args) {
  try {
    protocol[name](...args);
  } catch (error) {
    console.error("[specstep worker]", error);
  }
}

self.onmessage = (event) => {
  const message = event.data;
  if (message.type === "init") {
    resolveInit(message);
  } else if (message.type === "rendered") {
    call("link", sendPatch);
  } else if (message.type === "patch") {
    const started = performance.now();
    call("apply_patch", message.patch);
    // The Python time of this change, as the worker measures it (the page's own clock
    // would add the time its main thread spends drawing the answer).
    post({ type: "idle", python_ms: performance.now() - started });
  } else if (message.type === "location") {
    call("set_location", message.location);
  }
};

start();
