// The web worker that runs the app's Python in Pyodide, off the page's main thread.
//
// Written by build.py from web/worker.js. The Python it runs is one module of our
// wheel, app/worker_protocol.py; this file only downloads, reports and relays:
//   - downloads start at once and in parallel: Pyodide's runtime, every package of
//     Pyodide's in packages.json, and our bundle (python.tar.gz: the slim wheels'
//     files and the standard library's moved modules, sitebuild/bundle.py), so
//     installing starts as soon as Python is up (the bundle is gunzipped by the
//     browser meanwhile and written into Pyodide's file system by untar() below;
//     Pyodide's own fetch of its packages is answered from the HTTP cache);
//   - it reports its progress ("progress" with stage runtime / runtime-start /
//     runtime-ready / packages / app) and any failure ("failed" with the stage),
//     so the page says what is happening in plain words;
//   - messages with the page follow Panel's pyodide worker ("render", "patch",
//     "idle" out; "init", "rendered", "patch", "location" in), with two of ours in:
//     "preview" (the live preview's state) and, in "init", the fingerprint of the
//     pre-render the page shows ("expect"), which "render" says it is ("same") or not.
"use strict";

const CONFIG = @@CONFIG@@;

let protocol = null; // the Python module app.worker_protocol
let resolveInit;
let latestPreview = null; // the page's live preview, until the app starts (web/live.js)
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

// Read a file to the end: its bytes (our bundle, unpacked from them), and the HTTP cache
// holds it when Pyodide asks again (its compiled packages, served with long cache times).
async function download(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

// The bundle's tar bytes, gunzipped by the browser while Pyodide starts; or, without
// DecompressionStream (Safari before 16.4), the .tar.gz for Pyodide's own unpacker.
// A server that already sent it gunzipped (Content-Encoding) gives a tar: no gzip magic.
async function downloadBundle(url) {
  const bytes = await download(url);
  const head = new Uint8Array(bytes, 0, 2);
  if (head[0] !== 0x1f || head[1] !== 0x8b) return { tar: bytes };
  if (typeof DecompressionStream !== "function") return { gzip: bytes };
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return { tar: await new Response(stream).arrayBuffer() };
}

// Write a ustar archive's regular files into Pyodide's file system under "/" (the
// build writes nothing else: sitebuild/bundle.py). Returns the number of files.
function untar(FS, buffer) {
  const bytes = new Uint8Array(buffer);
  const text = new TextDecoder();
  const field = (start, length) => {
    let end = start;
    while (end < start + length && bytes[end] !== 0) end++;
    return text.decode(bytes.subarray(start, end));
  };
  const folders = new Set();
  let offset = 0;
  let files = 0;
  while (offset + 512 <= bytes.length) {
    const name = field(offset, 100);
    if (!name) break; // the zero blocks that end the archive
    const size = parseInt(field(offset + 124, 12).trim() || "0", 8);
    const type = bytes[offset + 156];
    const prefix = field(offset + 345, 155);
    const path = "/" + (prefix ? `${prefix}/${name}` : name);
    if (type !== 0x30 && type !== 0) throw new Error(`bundle: ${path} is not a regular file`);
    offset += 512;
    const folder = path.slice(0, path.lastIndexOf("/"));
    if (!folders.has(folder)) {
      FS.mkdirTree(folder);
      folders.add(folder);
    }
    FS.writeFile(path, bytes.subarray(offset, offset + size));
    files++;
    offset += Math.ceil(size / 512) * 512;
  }
  return files;
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
  const bundle = downloadBundle(here(packages.bundle));
  for (const pending of [...fromPyodide, bundle]) pending.catch(() => {}); // reported in the packages stage

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
    progress("packages", `${names.length + packages.wheels.length} packages`);
    // Our wheels' files and the moved standard library: from the bytes already downloaded.
    const unpacked = await bundle;
    if (unpacked.tar) untar(pyodide.FS, unpacked.tar);
    else pyodide.unpackArchive(unpacked.gzip, "gztar", { extractDir: "/" });
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
    // The live preview's last state (issue 27): its URL (steps=N) and the click to replay.
    const preview = latestPreview;
    const replay = preview && preview.replay.length ? JSON.stringify(preview.replay) : null;
    // The pre-render the page shows (its fingerprint), while the reader has changed nothing: if this
    // render is that one, the page keeps what it has drawn ("same") and only links it.
    const expect = !preview && init.expect ? init.expect : null;
    const result = await protocol.start.callKwargs(preview ? preview.location : init.location,
      here(CONFIG.panelCdnRoot), { replay_json: replay, expect });
    const [docsJson, renderItems, rootIds, same] = result.toJs();
    result.destroy();
    post({ type: "render", docs_json: docsJson, render_items: renderItems, root_ids: rootIds, same: !!same,
      resources: resources(), preview_seq: preview ? preview.seq : 0 });
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
  } else if (message.type === "preview") {
    latestPreview = message;
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
