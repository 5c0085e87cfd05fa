// Starts the app's Python in a web worker and tells the reader, in plain words,
// what is loading and what went wrong if it cannot start.
//
// Written by build.py from web/loader.js; it replaces the worker handler of Panel's
// converted page (panel/_templates/pyodide_handler.js), whose render/patch protocol
// it keeps. Until the worker has rendered, the pre-rendered widget stays on screen,
// readable but inert (a click on it could do nothing yet).
"use strict";
(function () {
  const CONFIG = @@CONFIG@@;
  // Tests may shorten the wait for the runtime: window.specstepLoadTimeoutMs = 2000.
  const timeoutMs = Number(window.specstepLoadTimeoutMs) > 0 ? Number(window.specstepLoadTimeoutMs) : CONFIG.loadTimeoutMs;
  const seconds = Math.round(timeoutMs / 1000);
  const where = CONFIG.pyodideHost ? `from ${CONFIG.pyodideHost}` : "from this site";

  const STEPS = {
    start: "Starting the interactive version…",
    runtime: `Step 1 of 3: downloading Python for your browser (Pyodide, about 12 MB ${where}; a later visit loads it from the cache)…`,
    "runtime-ready": "Step 2 of 3: Python is ready; installing the packages the widget needs…",
    packages: "Step 2 of 3: installing the packages the widget needs (numbers, charts and the widget itself)…",
    app: "Step 3 of 3: starting the widget…",
  };
  const PREVIEW = "What you see below is a preview: its buttons respond once this is done.";

  const PROBLEMS = {
    runtime: {
      what: `Python could not be downloaded ${where}, so the widget cannot run.`,
      todo: "Check that you are online and reload the page. If your network blocks that site, " +
        "ask whoever hosts this page to host a copy of Pyodide with it (the build's --pyodide-url option).",
    },
    timeout: {
      what: `Python did not finish downloading within ${seconds} seconds, so the widget cannot run yet.`,
      todo: "The page keeps trying and switches on by itself if the download completes. If nothing happens, " +
        "check that you are online and reload the page; if your network blocks the download site, " +
        "ask whoever hosts this page to host a copy of Pyodide with it (the build's --pyodide-url option).",
    },
    packages: {
      what: "Python started, but some of the packages the widget needs could not be downloaded.",
      todo: "Check that you are online and reload the page. If it happens again, the site may be " +
        "incomplete: tell whoever hosts this page.",
    },
    app: {
      what: "Python started, but the widget itself failed to start.",
      todo: "Reload the page. If it happens again, tell whoever hosts this page (the browser's console has the details).",
    },
    browser: {
      what: "This browser cannot run Python (it lacks web workers or WebAssembly).",
      todo: "Open the page in a current version of Firefox, Chrome, Edge or Safari.",
    },
  };

  const status = document.getElementById("specstep-status");
  let stage = "start";
  let done = false;
  let timer = null;

  function rootElements() {
    return Array.from(document.querySelectorAll("[data-root-id]"));
  }

  function setInert(inert) {
    for (const el of rootElements()) {
      if (inert) el.setAttribute("inert", "");
      else el.removeAttribute("inert");
    }
    document.body.classList.toggle("specstep-preview", inert);
  }

  // Marks for measuring the start-up (bench/bench_build.py reads them): specstep:<stage>.
  function mark(name) {
    try { performance.mark(`specstep:${name}`); } catch (error) { /* old browsers */ }
  }

  function show(stageName, detail) {
    mark(stageName);
    if (!status || done) return;
    status.dataset.stage = stageName;
    status.classList.remove("specstep-problem");
    status.setAttribute("role", "status");
    status.replaceChildren();
    const p = document.createElement("p");
    p.className = "specstep-status-text";
    p.textContent = `${STEPS[stageName] || STEPS.start} ${PREVIEW}`;
    status.appendChild(p);
    document.body.classList.add("specstep-preview");
  }

  function problem(kind, detail) {
    mark(`failed-${kind}`);
    if (!status || done) return;
    const text = PROBLEMS[kind];
    status.dataset.stage = `failed-${kind}`;
    status.classList.add("specstep-problem");
    status.setAttribute("role", "alert");
    status.replaceChildren();
    const what = document.createElement("p");
    what.className = "specstep-status-text";
    what.textContent = `${text.what} The widget below is only a preview: its buttons do not respond.`;
    const todo = document.createElement("p");
    todo.className = "specstep-status-todo";
    todo.textContent = `What to do: ${text.todo}`;
    const reload = document.createElement("button");
    reload.type = "button";
    reload.textContent = "Reload the page";
    reload.addEventListener("click", () => window.location.reload());
    status.append(what, todo, reload);
    if (detail) {
      const small = document.createElement("p");
      small.className = "specstep-status-detail";
      small.textContent = `Details: ${detail}`;
      status.appendChild(small);
    }
    // The preview stays fully visible (not dimmed) once it is all there is.
    document.body.classList.remove("specstep-preview");
  }

  function finished() {
    done = true;
    clearTimeout(timer);
    if (status) status.remove();
    setInert(false);
  }

  function registerServiceWorker(resources) {
    if (!("serviceWorker" in navigator) || !CONFIG.serviceWorker) return;
    navigator.serviceWorker.register(CONFIG.serviceWorker).then(() => navigator.serviceWorker.ready)
      .then((registration) => {
        const urls = Array.from(new Set([
          ...performance.getEntriesByType("resource").map((e) => e.name),
          ...(resources || []),
        ]));
        if (registration.active) registration.active.postMessage({ type: "cache", urls });
      })
      .catch((error) => console.warn("[specstep] service worker not registered:", error));
  }

  setInert(true);
  if (typeof Worker === "undefined" || typeof WebAssembly === "undefined") {
    problem("browser");
    return;
  }

  let worker;
  try {
    worker = new Worker(CONFIG.worker);
  } catch (error) {
    problem("browser", String(error));
    return;
  }
  worker.busy = false;
  worker.queue = [];
  window.specstepWorker = worker;
  worker.postMessage({ type: "init", location: JSON.stringify(window.location) });
  timer = setTimeout(() => {
    if (stage === "start" || stage === "runtime") problem("timeout");
  }, timeoutMs);
  show("start");

  let patching = 0;
  function sendChange(jsdoc, event) {
    if ((event.setter_id != null && event.setter_id === "py") || patching > 0) return;
    if (worker.busy && event.model && event.attr) {
      worker.queue = worker.queue.filter((old) => !(old.model === event.model && old.attr === event.attr));
      worker.queue.push(event);
      return;
    }
    const patch = jsdoc.create_json_patch([event]);
    worker.busy = true;
    worker.postMessage({ type: "patch", patch });
  }

  worker.onerror = (event) => {
    event.preventDefault();
    problem(stage === "start" || stage === "runtime" ? "runtime" : "app", event.message || "the worker stopped");
  };

  worker.onmessage = async (event) => {
    const msg = event.data;
    if (msg.type === "progress") {
      stage = msg.stage;
      if (stage !== "runtime" && stage !== "start") clearTimeout(timer);
      // After the timeout message, a runtime that arrives late replaces it: carry on as normal.
      show(stage, msg.detail);
    } else if (msg.type === "failed") {
      clearTimeout(timer);
      problem(msg.stage, msg.detail);
      registerServiceWorker(msg.resources);
    } else if (msg.type === "idle") {
      if (worker.queue.length) {
        const patch = worker.jsdoc.create_json_patch(worker.queue);
        worker.busy = true;
        worker.queue = [];
        worker.postMessage({ type: "patch", patch });
      } else {
        worker.busy = false;
      }
    } else if (msg.type === "render") {
      try {
        const docsJson = JSON.parse(msg.docs_json);
        const renderItems = JSON.parse(msg.render_items);
        const rootIds = JSON.parse(msg.root_ids);
        // Map the worker's roots onto the pre-rendered elements, in data-root-id order.
        const dataRoots = rootElements().map((el) => [el.getAttribute("data-root-id"), el.id]);
        dataRoots.sort((a, b) => (a[0] < b[0] ? -1 : 1));
        const roots = {};
        rootIds.forEach((id, i) => { if (dataRoots[i]) roots[id] = dataRoots[i][1]; });
        renderItems[0].roots = roots;
        renderItems[0].root_ids = rootIds;
        Bokeh.index.roots.map((view) => view.remove());
        for (const el of rootElements()) el.innerHTML = "";
        const [views] = await Bokeh.embed.embed_items(docsJson, renderItems);
        finished();
        mark("ready");
        const jsdoc = [...views.roots.values()][0].model.document;
        worker.jsdoc = jsdoc;
        jsdoc.on_change(sendChange.bind(null, jsdoc), false);
        worker.postMessage({ type: "rendered" });
        worker.postMessage({ type: "location", location: JSON.stringify(window.location) });
        document.body.dataset.specstep = "ready";
        registerServiceWorker(msg.resources);
      } catch (error) {
        console.error("[specstep]", error);
        problem("app", String(error));
      }
    } else if (msg.type === "patch") {
      try {
        patching += 1;
        worker.jsdoc.apply_json_patch(msg.patch, msg.buffers);
      } finally {
        patching -= 1;
      }
    }
  };
})();
