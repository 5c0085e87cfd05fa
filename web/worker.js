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
let installedBy = ""; // who installed the release's packages: "worker" (installPrepared) or "loadPackage"
let latestPreview = null; // the page's live preview, until the app starts (web/live.js)
const initMessage = new Promise((resolve) => { resolveInit = resolve; });

function post(message) { self.postMessage(message); }
function progress(stage, detail) { post({ type: "progress", stage, detail: detail || "" }); }
const fetchedElsewhere = []; // what the unzipping worker downloaded for this one (below)
function resources() {
  return [...performance.getEntriesByType("resource").map((entry) => entry.name), ...fetchedElsewhere];
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

// A server that already sent the bundle gunzipped (Content-Encoding) gives a tar: no gzip magic.
function isGzip(bytes) {
  const head = new Uint8Array(bytes, 0, 2);
  return head[0] === 0x1f && head[1] === 0x8b;
}

async function gunzip(bytes) {
  const stream = streamOf(new Uint8Array(bytes)).pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).arrayBuffer();
}

// The bundle's tar bytes, gunzipped by the browser while Pyodide starts (by the unzipping
// worker, or here if it cannot); or, without DecompressionStream (Safari before 16.4), the
// .tar.gz for Pyodide's own unpacker.
async function downloadBundle(url) {
  if (typeof DecompressionStream === "function" && await unzipPort) {
    try {
      return { tar: (await elsewhere("bundle", url)).buffer };
    } catch (error) {
      console.warn("[specstep worker]", error); // downloaded and gunzipped here instead
    }
  }
  const bytes = await download(url);
  if (!isGzip(bytes)) return { tar: bytes };
  if (typeof DecompressionStream !== "function") return { gzip: bytes };
  return { tar: await gunzip(bytes) };
}

// Writes files into Pyodide's file system, making each folder once.
function fileWriter(FS) {
  const folders = new Set();
  return (path, data) => {
    const folder = path.slice(0, path.lastIndexOf("/"));
    if (!folders.has(folder)) {
      FS.mkdirTree(folder);
      folders.add(folder);
    }
    FS.writeFile(path, data);
  };
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
  const write = fileWriter(FS);
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
    write(path, bytes.subarray(offset, offset + size));
    files++;
    offset += Math.ceil(size / 512) * 512;
  }
  return files;
}

// Pyodide's compiled packages (numpy, nh3, ...) are installed by this worker, not by loadPackage
// (issue 27): each wheel is checked against the release's sha256 and unzipped as soon as it is
// downloaded, while the runtime starts, so that once Python is up installing is only writing files
// and loading their WebAssembly (loadPackage would unzip them in Python then: numpy alone is about
// 0.15 s). Without what this needs (DecompressionStream's "deflate-raw", SubtleCrypto, Pyodide's
// loadDynlib) loadPackage installs them as before.
const DYNLIB = /\.so(\.\d+)*$/; // what Pyodide's should_load_dynlib takes, for the release's wheels

function canUnzip() {
  try {
    new DecompressionStream("deflate-raw");
    return typeof crypto === "object" && !!crypto.subtle;
  } catch (error) {
    return false;
  }
}

// The bytes as a stream made here, not a Blob's (whose reading goes through the browser's blob
// store: behind the runtime's download, unzipping a wheel took 0.3 s that way).
function streamOf(data) {
  return new ReadableStream({ start(controller) { controller.enqueue(data); controller.close(); } });
}

// A deflated entry of `size` bytes, inflated.
async function inflate(data, size) {
  const reader = streamOf(data).pipeThrough(new DecompressionStream("deflate-raw")).getReader();
  const out = new Uint8Array(size);
  let at = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    if (at + chunk.value.byteLength > size) throw new Error("zip: an entry is larger than its header says");
    out.set(chunk.value, at);
    at += chunk.value.byteLength;
  }
  if (at !== size) throw new Error("zip: an entry is smaller than its header says");
  return out;
}

// A zip archive's files, in its central directory's order (Pyodide loads a wheel's .so files in
// that order): [[name, bytes], ...]. Stored and deflated entries only; no zip64 (wheels of a few MB).
async function unzip(buffer) {
  const bytes = new Uint8Array(buffer);
  const view = new DataView(buffer);
  let end = bytes.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end--;
  if (end < 0) throw new Error("not a zip archive");
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const text = new TextDecoder();
  const entries = [];
  for (let i = 0; i < count; i++) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error("zip: damaged central directory");
    const method = view.getUint16(at + 10, true);
    const size = view.getUint32(at + 20, true);
    const unzipped = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const local = view.getUint32(at + 42, true);
    const name = text.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (name.endsWith("/")) continue;
    if (name.startsWith("/") || name.split("/").includes("..")) throw new Error(`zip: ${name} is outside the archive`);
    if (method !== 0 && method !== 8) throw new Error(`zip: ${name} uses compression method ${method}`);
    if (view.getUint32(local, true) !== 0x04034b50) throw new Error(`zip: ${name}: damaged local header`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const data = bytes.subarray(start, start + size);
    entries.push([name, method === 0 ? Promise.resolve(data) : inflate(data, unzipped)]);
  }
  return Promise.all(entries.map(async ([name, data]) => [name, await data]));
}

function hex(digest) {
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

// The dynamic libraries' WebAssembly, compiled (off this thread) as soon as they are unzipped:
// when Pyodide's dlopen instantiates the same bytes, it gets the compiled module.
const compiled = []; // [{bytes, module: Promise<WebAssembly.Module>}]

function sameBytes(a, b) {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function useCompiled() {
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = function (source, imports) {
    const bytes = ArrayBuffer.isView(source) ? new Uint8Array(source.buffer, source.byteOffset, source.byteLength)
      : source instanceof ArrayBuffer ? new Uint8Array(source) : null;
    const hit = bytes && compiled.find((entry) => sameBytes(entry.bytes, bytes));
    if (!hit) return instantiate.apply(WebAssembly, arguments);
    return hit.module.then(async (module) => ({ module, instance: await instantiate.call(WebAssembly, module, imports) }),
      () => instantiate.call(WebAssembly, source, imports)); // not compiled here: as Pyodide would
  };
}

// Unzipping, gunzipping and compiling run in a worker of their own: this file again, named
// UNZIPPER, which the page starts beside this one. It downloads and unpacks every file of the
// release on its own (unzipAll) once the page tells it the runtime's WebAssembly is in ("go"), and
// hands the results to this worker by a MessagePort ("init"'s unzip). From its downloads to
// "runtime-ready" this thread is busy starting Python: work queued here would wait for it (the bundle
// and numpy were unpacked 0.1-0.3 s after Python was up), and so do the page's messages, so this
// worker starts at once and reads the port's results only when it installs.
const UNZIPPER = "specstep-unzip";
let resolveUnzipPort;
const unzipPort = new Promise((resolve) => { resolveUnzipPort = resolve; });
let unzipBroken = null; // why the unzipping worker cannot help, once the page says so
const unzipResults = new Map(); // job id (a package's name, or "bundle") -> {promise, resolve, reject}

function unzipResult(id) {
  if (!unzipResults.has(id)) {
    const entry = {};
    entry.promise = new Promise((resolve, reject) => Object.assign(entry, { resolve, reject }));
    entry.promise.catch(() => {});
    unzipResults.set(id, entry);
  }
  return unzipResults.get(id);
}

function unzipFailed(why) {
  unzipBroken = why;
  for (const entry of unzipResults.values()) entry.reject(new Error(why));
}

// What the unzipping worker made of `url` (it downloads and unpacks every file of the release on its own:
// see unzipAll), or an error.
async function elsewhere(id, url) {
  const port = await unzipPort;
  if (!port) throw new Error("no unzipping worker");
  if (unzipBroken) throw new Error(unzipBroken);
  if (!port.onmessage) {
    port.onmessage = ({ data }) => {
      const entry = unzipResult(data.id);
      if (data.error) entry.reject(new Error(data.error));
      else entry.resolve(data);
    };
  }
  fetchedElsewhere.push(url); // for the service worker's list of what the page needs
  return unzipResult(id).promise;
}

function unzipDone() {
  unzipPort.then((port) => port && port.postMessage({ done: true }));
}

// The unzipping waits for "runtime-start" (go): until the runtime's WebAssembly is in, compiling it
// takes every core, and unzipping beside it made Python 0.15 s later; then this thread is busy
// starting Python for a second or more, and another core is free.
let unzipGoes;
const unzipGo = new Promise((resolve) => { unzipGoes = resolve; });

// What UNZIPPER does with one job (downloading its file here: the app's worker may be busy when
// the last byte comes): the bundle, gunzipped; or a wheel, checked, unzipped (its files handed
// back in one buffer) and its dynamic libraries compiled.
async function unzipJob({ id, kind, url, sha256 }) {
  const bytes = await download(url);
  if (kind === "bundle") {
    const buffer = isGzip(bytes) ? await gunzip(bytes) : bytes;
    return [{ id, buffer }, [buffer]];
  }
  const digest = hex(await crypto.subtle.digest("SHA-256", bytes));
  if (digest !== sha256) throw new Error(`not the file of the release's lock (sha256 ${digest})`);
  const files = await unzip(bytes);
  const sizes = files.map(([, data]) => data.byteLength);
  const buffer = new ArrayBuffer(sizes.reduce((a, b) => a + b, 0));
  const offsets = [];
  let at = 0;
  for (const [, data] of files) {
    new Uint8Array(buffer, at, data.byteLength).set(data);
    offsets.push(at);
    at += data.byteLength;
  }
  const modules = await Promise.all(files.map(([name, data]) => (DYNLIB.test(name) ? WebAssembly.compile(data) : null)));
  return [{ id, names: files.map(([name]) => name), offsets, sizes, buffer, modules }, [buffer]];
}

// UNZIPPER's whole work, started by the port and held until "go": the bundle, and every release
// package of CONFIG, each checked against the sha256 of the lock the runtime is served with. The
// jobs are the ones the app's worker asks for: none without DecompressionStream (downloadBundle),
// no wheel without the rest of what unzipping needs (prepareWheel).
async function unzipAll(port) {
  await unzipGo;
  if (typeof DecompressionStream !== "function") return;
  const wheels = canUnzip() ? CONFIG.packages.from_pyodide : [];
  const lock = wheels.length ? download(indexURL + "pyodide-lock.json")
    .then((bytes) => JSON.parse(new TextDecoder().decode(bytes))) : null;
  const jobs = [{ id: "bundle", kind: "bundle", url: here(CONFIG.packages.bundle) },
    ...wheels.map((p) => ({ id: p.name, kind: "wheel", url: indexURL + p.file_name }))];
  await Promise.all(jobs.map(async (job) => {
    try {
      if (job.kind === "wheel") {
        const entry = ((await lock).packages || {})[job.id];
        if (!entry) throw new Error(`${job.id} is not in the release's lock`);
        job.sha256 = entry.sha256;
      }
      const [message, transfer] = await unzipJob(job);
      port.postMessage(message, transfer);
    } catch (error) {
      port.postMessage({ id: job.id, error: String((error && error.message) || error) });
    }
  }));
}

// A release package's files, unzipped (or null: loadPackage will install it). Checked as Pyodide
// checks it: against the sha256 of the lock file served with the runtime.
async function prepareWheel(url, name) {
  if (!canUnzip() || !(await unzipPort)) {
    await download(url); // for the HTTP cache, where loadPackage will find it
    return null;
  }
  let done;
  try {
    done = await elsewhere(name, url);
  } catch (error) {
    throw new Error(`${url}: ${error.message}`);
  }
  const files = done.names.map((file, i) => [file, new Uint8Array(done.buffer, done.offsets[i], done.sizes[i])]);
  files.forEach(([, data], i) => {
    if (done.modules[i]) compiled.push({ bytes: data, module: Promise.resolve(done.modules[i]) });
  });
  return files;
}

// Install the prepared packages into site-packages; false (nothing done) when this runtime cannot.
async function installPrepared(pyodide, names, prepared) {
  const api = pyodide._api;
  if (prepared.some((files) => files === null) || !api || typeof api.loadDynlib !== "function") return false;
  const site = pyodide.pyimport("sysconfig").get_path("purelib");
  const write = fileWriter(pyodide.FS);
  for (const files of prepared) {
    for (const [name, data] of files) write(`${site}/${name}`, data);
  }
  const instantiate = WebAssembly.instantiate;
  useCompiled();
  try {
    for (const files of prepared) {
      for (const [name] of files) if (DYNLIB.test(name)) await api.loadDynlib(`${site}/${name}`);
    }
  } finally {
    WebAssembly.instantiate = instantiate;
    compiled.length = 0;
  }
  for (const name of names) {
    try { pyodide.loadedPackages[name] = "specstep"; } catch (error) { /* a read-only view: nothing asks */ }
  }
  return true;
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
      progress("runtime-start"); // the page passes it on to the unzipping worker as its "go"
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
  const fromPyodide = packages.from_pyodide.map((p) => prepareWheel(indexURL + p.file_name, p.name));
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
    const problems = [];
    let prepared = null;
    try {
      prepared = await Promise.all(fromPyodide);
    } catch (error) { // a download failed, or a file is not the release's: loadPackage tries, and says which
      console.warn("[specstep worker]", error);
    } finally {
      unzipDone();
    }
    installedBy = prepared && await installPrepared(pyodide, names, prepared) ? "worker" : "loadPackage";
    if (installedBy === "loadPackage") {
      await pyodide.loadPackage(names, {
        messageCallback: () => {},
        errorCallback: (message) => problems.push(message),
      });
    }
    pyodide.pyimport("importlib").invalidate_caches();
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
      resources: resources(), preview_seq: preview ? preview.seq : 0, installed_by: installedBy });
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

if (self.name === UNZIPPER) {
  self.onmessage = ({ data, ports }) => {
    if (data && data.type === "go") unzipGoes(); // the page saw "runtime-start"
    if (!data || data.type !== "unzip-port" || !ports.length) return;
    const [port] = ports;
    unzipAll(port);
    port.onmessage = ({ data }) => {
      if (data.done) self.close();
    };
  };
} else {
  self.onmessage = (event) => {
    const message = event.data;
    if (message.type === "init") {
      resolveUnzipPort(message.unzip || null);
      resolveInit(message);
    } else if (message.type === "unzip-failed") { // the page saw the unzipping worker fail
      unzipFailed(message.why);
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
}
