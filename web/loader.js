// Starts the app's Python in a web worker and tells the reader, in plain words,
// what is loading, step by step, and what went wrong if it cannot start.
//
// Written by the build from web/loader.js; it replaces the worker handler of Panel's
// converted page (panel/_templates/pyodide_handler.js), whose render/patch protocol
// it keeps. Until the worker has rendered, the pre-rendered widget stays on screen,
// readable but inert (a click on it could do nothing yet) — unless the URL asks for
// another scenario than the pre-rendered one: then its numbers would be wrong, so a
// placeholder names the link's scenario instead.
//
// Everything shown here is set with textContent: text from the URL is never HTML.
"use strict";
(function () {
  const CONFIG = @@CONFIG@@;
  // Tests may shorten the limits: window.specstepLoadTimeoutMs = 2000 (the download),
  // window.specstepStageLimitsMs = {app: 2000} (any step, by the stage that starts it).
  const timeoutMs = Number(window.specstepLoadTimeoutMs) > 0 ? Number(window.specstepLoadTimeoutMs) : CONFIG.loadTimeoutMs;
  const where = CONFIG.pyodideHost ? `from ${CONFIG.pyodideHost}` : "from this site";

  // The worker reports stages; each belongs to one of four steps the reader sees.
  // A step has a time limit: the download keeps the build's --load-timeout (a slow
  // network), the others get generous limits of their own.
  const STEPS = [
    { number: 1, stages: ["start", "runtime"], limitMs: timeoutMs,
      text: `downloading Python for your browser (Pyodide, about 12 MB ${where}; a later visit loads it from the cache)…` },
    { number: 2, stages: ["runtime-start"], limitMs: 60_000,
      text: "starting Python (your browser compiles it; this takes a few seconds)…" },
    { number: 3, stages: ["runtime-ready", "packages"], limitMs: Math.max(60_000, 2 * timeoutMs),
      text: "loading the packages the widget needs (numbers, charts and the widget itself)…" },
    { number: 4, stages: ["app"], limitMs: 90_000,
      text: "building the widget…" },
  ];
  const overrides = window.specstepStageLimitsMs || {};
  function limitOf(step) {
    for (const name of step.stages) {
      if (Number(overrides[name]) > 0) return Number(overrides[name]);
    }
    return step.limitMs;
  }
  function stepOf(stage) {
    return STEPS.find((step) => step.stages.includes(stage)) || null;
  }

  const PREVIEW = "What you see below is a preview: its buttons respond once this is done.";
  const RELOAD = "Reload the page";
  const STILL_TRYING = "The page keeps trying and switches on by itself if this finishes.";

  const PROBLEMS = {
    runtime: {
      what: `Python could not be downloaded ${where}, so the widget cannot run.`,
      todo: "Check that you are online and reload the page. If your network blocks that site, " +
        "ask whoever hosts this page to host a copy of Pyodide with it (the build's --pyodide-url option).",
    },
    timeout: {
      what: (s) => `Python did not finish downloading within ${s} seconds, so the widget cannot run yet.`,
      todo: `${STILL_TRYING} If nothing happens, check that you are online and reload the page; ` +
        "if your network blocks the download site, ask whoever hosts this page to host a copy of Pyodide " +
        "with it (the build's --pyodide-url option).",
    },
    "slow-start": {
      what: (s) => `Python was downloaded but has not finished starting after ${s} seconds.`,
      todo: `${STILL_TRYING} A busy or older device can be slow at this step: close other tabs and reload the page.`,
    },
    "slow-packages": {
      what: (s) => `Python started, but the packages the widget needs have not finished loading after ${s} seconds.`,
      todo: `${STILL_TRYING} If nothing happens, check that you are online and reload the page.`,
    },
    "slow-app": {
      what: (s) => `Python is running, but the widget has not finished building after ${s} seconds.`,
      todo: `${STILL_TRYING} If nothing happens, reload the page; if it happens again, tell whoever hosts ` +
        "this page (the browser's console has the details).",
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
    sandbox: {
      what: "This page is shown in a frame whose sandbox does not allow it to start a web worker, " +
        "so Python cannot run here.",
      todo: "Whoever embeds this page: give the iframe sandbox=\"allow-scripts allow-same-origin\" " +
        "(or no sandbox attribute). Readers: open the page on its own.",
    },
  };
  const SLOW = { 1: "timeout", 2: "slow-start", 3: "slow-packages", 4: "slow-app" };

  const status = document.getElementById("specstep-status");
  let step = STEPS[0];
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

  function paragraph(className, text) {
    const p = document.createElement("p");
    p.className = className;
    p.textContent = text;
    return p;
  }

  function reloadButton(label) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = label;
    button.addEventListener("click", () => window.location.reload());
    return button;
  }

  // ----- A link to another scenario than the pre-rendered one -----------------

  const SCENARIO_KEYS = ["draft", "width", "seed", "lookahead", "steps"];
  const MAX_VALUE = 40;

  function bounded(value) {
    const text = String(value).replace(/\s+/g, " ").trim();
    return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
  }

  // The link's scenario values that differ from the pre-rendered page's, or null.
  // Without the build's note of what it pre-rendered, any scenario in the URL counts.
  function otherScenario() {
    let query;
    try { query = new URLSearchParams(window.location.search); } catch (error) { return null; }
    const prerendered = CONFIG.prerendered || null;
    const asked = {};
    let differs = false;
    for (const key of SCENARIO_KEYS) {
      if (!query.has(key)) continue;
      const value = query.get(key);
      asked[key] = value;
      if (prerendered === null || String(prerendered[key]) !== value) differs = true;
    }
    return differs ? asked : null;
  }

  function describe(asked) {
    const extras = [];
    if (asked.draft !== undefined) extras.push(`the ${bounded(asked.draft)} draft`);
    if (asked.width !== undefined) extras.push(`width ${bounded(asked.width)}`);
    if (asked.lookahead !== undefined) extras.push(`lookahead ${bounded(asked.lookahead)}`);
    if (asked.steps !== undefined) extras.push(`${bounded(asked.steps)} steps in`);
    const subject = asked.seed !== undefined ? `seed ${bounded(asked.seed)}` : "the scenario of this link";
    const last = extras.pop();
    const joined = extras.length ? `${extras.join(", ")} and ${last}` : last;
    return last === undefined ? subject : `${subject} with ${joined}`;
  }

  let placeholder = null;
  const asked = otherScenario();
  if (asked) {
    // The pre-rendered widget shows the default scenario's numbers: hidden until the
    // worker has rendered the link's own.
    placeholder = document.createElement("div");
    placeholder.className = "specstep-placeholder";
    placeholder.dataset.scenario = describe(asked);
    placeholder.appendChild(paragraph("specstep-placeholder-text", `Loading ${describe(asked)}…`));
    placeholder.appendChild(paragraph("specstep-placeholder-note",
      "The widget appears here as soon as Python has computed it."));
    const roots = rootElements();
    const anchor = roots.length ? roots[0] : null;
    if (anchor && anchor.parentNode) anchor.parentNode.insertBefore(placeholder, anchor);
    else if (status && status.parentNode) status.after(placeholder);
    document.body.classList.add("specstep-other-scenario");
  }

  function showScenario() {
    document.body.classList.remove("specstep-other-scenario");
    if (placeholder) placeholder.remove();
    placeholder = null;
  }

  // ----- Status line -----------------------------------------------------------

  function show(stageName) {
    if (!status || done) return;
    status.dataset.stage = stageName;
    status.dataset.step = String(step.number);
    status.classList.remove("specstep-problem");
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    let text = status.querySelector(".specstep-status-text");
    let note = status.querySelector(".specstep-status-note");
    // After a problem message (a stage that finished late), the plain layout comes back.
    if (!text || !note || status.children.length !== 2) {
      status.replaceChildren();
      text = paragraph("specstep-status-text", "");
      note = paragraph("specstep-status-note", placeholder ? "" : PREVIEW);
      status.append(text, note);
    }
    // Only the step's own words change, so a screen reader announces just them.
    text.textContent = `Step ${step.number} of ${STEPS.length}: ${step.text}`;
    note.textContent = placeholder ? "" : PREVIEW;
    note.hidden = !!placeholder;
    document.body.classList.add("specstep-preview");
  }

  function problem(kind, detail, seconds) {
    mark(`failed-${kind}`);
    if (!status || done) return;
    const text = PROBLEMS[kind] || PROBLEMS.app;
    status.dataset.stage = `failed-${kind}`;
    status.classList.add("specstep-problem");
    status.setAttribute("role", "alert");
    status.setAttribute("aria-live", "assertive");
    status.replaceChildren();
    const what = typeof text.what === "function" ? text.what(seconds) : text.what;
    const rest = placeholder
      ? " The scenario of this link can only be shown once Python runs."
      : " The widget below is only a preview: its buttons do not respond.";
    status.append(paragraph("specstep-status-text", what + rest),
      paragraph("specstep-status-todo", `What to do: ${text.todo}`),
      reloadButton(RELOAD));
    if (detail) status.appendChild(paragraph("specstep-status-detail", `Details: ${detail}`));
    if (placeholder) {
      const line = placeholder.querySelector(".specstep-placeholder-note");
      if (line) line.textContent = "It appears here once Python runs; see the message above.";
    }
    // The preview stays fully visible (not dimmed) once it is all there is.
    document.body.classList.remove("specstep-preview");
  }

  // One timer per step: a step that does not finish in time ends in plain words.
  function arm() {
    clearTimeout(timer);
    const current = step;
    const limit = limitOf(current);
    timer = setTimeout(() => {
      if (done || step !== current) return;
      problem(SLOW[current.number], "", Math.round(limit / 1000));
    }, limit);
  }

  function enter(stageName) {
    mark(stageName);
    // An unknown stage is progress within the current step; every stage restarts the timer.
    step = stepOf(stageName) || step;
    arm();
    show(stageName);
  }

  function finished() {
    done = true;
    clearTimeout(timer);
    if (status) status.remove();
    setInert(false);
  }

  // ----- Service worker: a cache per build, and a quiet note when a new one is ready

  let updateNotice = null;
  function offerUpdate(waiting) {
    if (updateNotice) return;
    updateNotice = document.createElement("div");
    updateNotice.className = "specstep-update";
    updateNotice.setAttribute("role", "status");
    updateNotice.setAttribute("aria-live", "polite");
    const text = paragraph("specstep-update-text", "A new version of this page is ready.");
    const reload = document.createElement("button");
    reload.type = "button";
    reload.textContent = "Reload";
    reload.setAttribute("aria-label", "Reload to use the new version");
    reload.addEventListener("click", () => {
      // The new build takes over only now, when the page is about to reload: the
      // running page never gets files of another build.
      let reloaded = false;
      const go = () => { if (!reloaded) { reloaded = true; window.location.reload(); } };
      navigator.serviceWorker.addEventListener("controllerchange", go);
      waiting.postMessage({ type: "skip-waiting" });
      setTimeout(go, 3000);
    });
    const later = document.createElement("button");
    later.type = "button";
    later.className = "specstep-update-later";
    later.textContent = "Later";
    later.addEventListener("click", () => { updateNotice.hidden = true; });
    updateNotice.append(text, reload, later);
    document.body.appendChild(updateNotice);
    document.body.dataset.specstepUpdate = "ready";
  }

  function watchForUpdates(registration) {
    const check = () => {
      // Only a page run by an older build's cache is offered the newer build.
      if (registration.waiting && navigator.serviceWorker.controller) offerUpdate(registration.waiting);
    };
    check();
    registration.addEventListener("updatefound", () => {
      const installing = registration.installing;
      if (!installing) return;
      installing.addEventListener("statechange", () => { if (installing.state === "installed") check(); });
    });
  }

  function registerServiceWorker(resources) {
    let available = false;
    try { available = "serviceWorker" in navigator && !!CONFIG.serviceWorker; } catch (error) { /* sandboxed */ }
    if (!available) return;
    navigator.serviceWorker.register(CONFIG.serviceWorker)
      .then((registration) => {
        watchForUpdates(registration);
        return navigator.serviceWorker.ready;
      })
      .then((registration) => {
        const urls = Array.from(new Set([
          ...performance.getEntriesByType("resource").map((e) => e.name),
          ...(resources || []),
        ]));
        // The active worker keeps what this visit downloaded (Pyodide's files among them).
        if (registration.active) registration.active.postMessage({ type: "cache", urls });
      })
      .catch((error) => console.warn("[specstep] service worker not registered:", error));
  }

  // ----- Start -------------------------------------------------------------------

  setInert(true);
  if (typeof Worker === "undefined" || typeof WebAssembly === "undefined") {
    problem("browser");
    return;
  }

  // An embed below the fold (several on one course page) starts Python only when it is
  // scrolled into view or its "Start now" button is clicked: each embed boots its own Python.
  const POSTER = {
    text: "This widget starts when you scroll to it.",
    note: "Starting it downloads Python and the widget's packages into your browser: tens of megabytes " +
      "the first time, nothing on a later visit (they are cached). The preview below shows its first state.",
    start: "Start now",
  };

  function whenSeen(go) {
    let started = false;
    const begin = () => {
      if (started) return;
      started = true;
      observer.disconnect();
      go();
    };
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        begin();
      } else if (status && !started && status.dataset.stage !== "poster") {
        mark("poster");
        status.dataset.stage = "poster";
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = POSTER.start;
        button.addEventListener("click", begin);
        status.replaceChildren(paragraph("specstep-status-text", POSTER.text),
          paragraph("specstep-status-note", POSTER.note), button);
      }
    });
    observer.observe(document.body);
  }

  let worker;
  function startWorker() {
    try {
      worker = new Worker(CONFIG.worker);
    } catch (error) {
      // In an iframe sandboxed without allow-same-origin the page has an opaque origin,
      // and a worker script from this site counts as another origin's.
      const sandboxed = window.origin === "null" || (error && error.name === "SecurityError");
      problem(sandboxed ? "sandbox" : "browser", String(error));
      return;
    }
    worker.busy = false;
    worker.queue = [];
    window.specstepWorker = worker;
    worker.postMessage({ type: "init", location: JSON.stringify(window.location) });
    enter("start");
    worker.onerror = onWorkerError;
    worker.onmessage = onWorkerMessage;
  }

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

  function onWorkerError(event) {
    event.preventDefault();
    clearTimeout(timer);
    problem(step.number <= 2 ? "runtime" : "app", event.message || "the worker stopped");
  }

  async function onWorkerMessage(event) {
    const msg = event.data;
    if (msg.type === "progress") {
      // After a time-limit message, a stage that arrives late replaces it: carry on as normal.
      enter(String(msg.stage));
    } else if (msg.type === "failed") {
      clearTimeout(timer);
      const failedStep = stepOf(String(msg.stage)) || step;
      problem(PROBLEMS[msg.stage] ? msg.stage : ["runtime", "runtime", "packages", "app"][failedStep.number - 1],
        msg.detail);
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
        for (const el of rootElements()) el.replaceChildren();
        showScenario();
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
  }

  if (window.parent !== window && "IntersectionObserver" in window) whenSeen(startWorker);
  else startWorker();
})();
