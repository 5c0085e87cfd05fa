// Starts the app's Python in a web worker and tells the reader, in plain words,
// what is loading, step by step, and what went wrong if it cannot start.
//
// Written by the build from web/loader.js; it replaces the worker handler of Panel's
// converted page (panel/_templates/pyodide_handler.js), whose render/patch protocol
// it keeps. Until the worker has rendered, the pre-rendered widget stays on screen,
// readable but inert (a click on it could do nothing yet) — unless the URL asks for
// another scenario than the pre-rendered one: then its numbers would be wrong, so a
// placeholder names the link's scenario instead, and if the build pre-rendered that
// scenario too (build.py --prerender), its file replaces the placeholder.
//
// Its words are app/i18n's loader.* sentences and its reading of a link is urlstate.PROPS,
// both written into CONFIG by the build (sitebuild/loader_config.py): no sentence and no
// URL rule lives here. Everything shown is set with textContent: text from the URL is never HTML.
"use strict";
(function () {
  const CONFIG = @@CONFIG@@;
  // Tests may shorten the limits: window.specstepLoadTimeoutMs = 2000 (the download),
  // window.specstepStageLimitsMs = {app: 2000} (any step, by the stage that starts it).
  const timeoutMs = Number(window.specstepLoadTimeoutMs) > 0 ? Number(window.specstepLoadTimeoutMs) : CONFIG.loadTimeoutMs;

  // The reader's language: the link's ?lang=, else the browser's, else the default (as the
  // app's Python chooses: app/i18n's pick, over the build's list of languages).
  const URL_TABLE = CONFIG.url;
  function pickLanguage(tag) {
    const value = String(tag || "").trim().toLowerCase().replace("_", "-");
    for (const lang of URL_TABLE.languages) if (value === lang || value.startsWith(`${lang}-`)) return lang;
    return null;
  }
  let lang = null;
  try { lang = pickLanguage(new URLSearchParams(window.location.search).get("lang")); } catch (error) { /* none */ }
  if (!lang) { try { lang = pickLanguage(navigator.language); } catch (error) { /* none */ } }
  lang = lang || URL_TABLE.defaultLanguage;
  if (lang === "zh") document.documentElement.lang = "zh-CN";
  // The pre-rendered widget is in the build's language (the default unless the build says).
  const prerenderedLang = CONFIG.prerenderedLang || URL_TABLE.defaultLanguage;

  // Every word comes from app/i18n's loader.* sentences, which the build writes into CONFIG
  // (sitebuild/loader_config.py) in both languages; their {fields} are filled here as t() fills them.
  const W = CONFIG.words[lang];
  function fill(template, fields) {
    return String(template).replace(/\{(\w+)\}/g, (whole, name) => (name in fields ? String(fields[name]) : whole));
  }

  // The worker reports stages; each belongs to one of four steps the reader sees.
  // A step has a time limit: the download keeps the build's --load-timeout (a slow
  // network), the others get generous limits of their own.
  const STEPS = [
    { number: 1, stages: ["start", "runtime"], limitMs: timeoutMs, text: W.steps[0] },
    { number: 2, stages: ["runtime-start"], limitMs: 60_000, text: W.steps[1] },
    { number: 3, stages: ["runtime-ready", "packages"], limitMs: Math.max(60_000, 2 * timeoutMs), text: W.steps[2] },
    { number: 4, stages: ["app"], limitMs: 90_000, text: W.steps[3] },
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

  let PREVIEW = W.preview; // the live preview's own words once its step buttons answer (issue 27)
  const RELOAD = W.reload;
  // Each problem: what happened, and what to do (the time-limit ones say first that the page keeps trying).
  const PROBLEMS = {};
  for (const [kind, text] of Object.entries(W.problems)) PROBLEMS[kind] = text;
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

  // app/urlstate.py's PROPS as the build wrote them (sitebuild/loader_config.py): the names, kinds,
  // bounds, defaults, the spellings of each choice the app accepts, and which keys name a scenario.
  const PROPS = URL_TABLE.props;
  const SCENARIO_KEYS = PROPS.filter((prop) => prop.scenario).map((prop) => prop.name);
  const MAX_VALUE = URL_TABLE.maxChars;
  const MAX_TABLE = 400; // core/tables_text.py's MAX_TEXT

  function bounded(value) {
    const text = String(value).replace(/\s+/g, " ").trim();
    return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
  }

  // One value of a link as its PROPS row reads it, or null when it would not be valid there
  // or the table cannot tell (a spelling it does not list): stricter than Python, never
  // looser, so a link is matched only with a scenario it surely asks for.
  function readValue(prop, text) {
    // A table (target=, q=) is read only when spelled as a pre-rendered scenario's: the build
    // wrote that text in core/tables_text.py's canonical form, which the app reads as itself.
    if (prop.kind === "table") {
      const known = text !== "" && text.length <= MAX_TABLE && Array.isArray(CONFIG.prerenders)
        && CONFIG.prerenders.some((entry) => entry.values && entry.values[prop.name] === text);
      return known ? text : null;
    }
    if (text.length > MAX_VALUE) return null;
    const value = text.replace(/^[ \t\n\r\f\v]+|[ \t\n\r\f\v]+$/g, "");
    if (prop.spellings) {
      const lower = /^[A-Za-z0-9._-]+$/.test(value) ? value.toLowerCase() : null;
      return lower !== null && Object.hasOwn(prop.spellings, lower) ? prop.spellings[lower] : null;
    }
    if (prop.kind === "int" && /^[0-9]{1,16}$/.test(value)) {
      const number = BigInt(value);
      return number >= BigInt(prop.low) && number <= BigInt(prop.high) ? number.toString() : null;
    }
    return null;
  }

  // The link's scenario: every PROPS value as the app would read it, or null.
  function linkValues(query) {
    const values = {};
    for (const prop of PROPS) {
      const given = query.getAll(prop.name); // the last one counts, as in urlstate.read
      values[prop.name] = given.length ? readValue(prop, given[given.length - 1]) : prop.default;
      if (values[prop.name] === null) return null;
    }
    return values;
  }

  function sameValues(a, b) {
    return !!a && !!b && PROPS.every((prop) => String(a[prop.name]) === String(b[prop.name]));
  }
  window.specstepLinkValues = (search) => linkValues(new URLSearchParams(search));

  // The link's scenario keys (as the link spells them) when its scenario differs from the
  // pre-rendered page's, or null. Without the build's note of what it pre-rendered, any
  // scenario in the URL counts.
  function otherScenario(query, values) {
    const prerendered = CONFIG.prerendered || null;
    const same = values !== null && sameValues(values, prerendered);
    if (same && lang === prerenderedLang) return null;
    const asked = {};
    let differs = prerendered !== null && values !== null && !same;
    for (const key of SCENARIO_KEYS) {
      if (!query.has(key)) continue;
      const value = query.get(key);
      asked[key] = value;
      if (prerendered === null || String(prerendered[key]) !== value) differs = true;
    }
    // The pre-rendered words are in one language: a link in the other one hides them too.
    return differs || lang !== prerenderedLang ? asked : null;
  }

  // One setting of the link in words: a value with a name in this language by its name, else as the link spells it.
  function phrase(key, value) {
    const words = W.scenario[key];
    const named = words.names && Object.hasOwn(words.names, value);
    const template = words.names && !named ? words.other : words.text;
    return fill(template, { name: named ? words.names[value] : value, value });
  }

  function describe(asked) {
    const say = W.phrase;
    const extras = [];
    for (const key of SCENARIO_KEYS) {
      if (key !== W.subject && asked[key] !== undefined) extras.push(phrase(key, bounded(asked[key])));
    }
    const subjectGiven = asked[W.subject] !== undefined;
    if (!subjectGiven && !extras.length) {
      return asked.tab ? say.subject : W.thisLanguage;  // only the tab, or only the language, differs
    }
    const subject = subjectGiven ? phrase(W.subject, bounded(asked[W.subject])) : say.subject;
    const last = extras.pop();
    const joined = extras.length ? fill(say.join, { items: extras.join(say.sep), last }) : last;
    return last === undefined ? subject : fill(say.with, { subject, rest: joined });
  }

  // ----- The frame's height while the widget loads ------------------------------
  // In a frame sized to its content (app/embed/host.js) the status line and a placeholder are
  // far shorter than the widget, and the pre-rendered preview is another tab's for a link
  // opened on another tab: each change of height moves the host's text below the frame. So
  // from its first paint until the widget is drawn, the page reports the height the widget will
  // have, read from the build's measured table (app/embed/heights.json: each tab's height at
  // common widths) for the tab the link opens on at the frame's width; page.js posts it instead
  // of what is on screen.

  // The tab a link opens on, read as app/page/links.py reads it (CONFIG.tabOrder: the app's tabs in order).
  function openingTab(query) {
    const names = (CONFIG.tabOrder || []).filter((name) => CONFIG.heights && CONFIG.heights[name]);
    const wanted = new Set(String(query.get("tabs") || "").split(",").map((name) => name.trim().toLowerCase()));
    const shown = names.filter((name) => wanted.has(name));
    const list = shown.length ? shown : names;
    const start = String(query.get("tab") || "").trim().toLowerCase();
    return list.includes(start) ? start : (list[0] || null);
  }

  // A link opened on another tab than the pre-rendered one (the first) must not show its preview.
  function otherTab(asked, tab) {
    const first = (CONFIG.tabOrder || [])[0];
    if (!tab || tab === first) return asked;
    return { ...(asked || {}), tab };
  }

  // The table's height at this width, linear between the measured widths.
  function tableHeight(rows, width) {
    if (!Array.isArray(rows) || !rows.length) return 0;
    if (width <= rows[0][0]) return rows[0][1];
    for (let i = 1; i < rows.length; i++) {
      const [w0, h0] = rows[i - 1];
      const [w1, h1] = rows[i];
      if (width <= w1) return Math.round(h0 + ((h1 - h0) * (width - w0)) / (w1 - w0));
    }
    return rows[rows.length - 1][1];
  }

  function reserveHeight(tab) {
    if (window.parent === window || !tab || !CONFIG.heights || !CONFIG.heights[tab]) return;
    const rows = CONFIG.heights[tab];
    window.specstepReservedHeight = () => tableHeight(rows, document.documentElement.clientWidth);
    // Before page.js runs (it waits for the pre-rendered document): the host sizes the frame now.
    postReservedHeight();
  }

  function postReservedHeight() {
    const height = window.specstepReservedHeight ? window.specstepReservedHeight() : 0;
    if (height > 0) window.parent.postMessage({ type: CONFIG.heightType, height }, "*");
  }

  // A host script that started after the reserved height was posted says hello: post it again, until
  // page.js is installed (it answers then, with the height it draws).
  if (window.parent !== window) {
    window.addEventListener("message", (event) => {
      if (event.source !== window.parent || !event.data || event.data.type !== CONFIG.helloType) return;
      if (!(window.specstepPage && window.specstepPage.repost)) postReservedHeight();
    });
  }

  function releaseHeight() {
    if (!window.specstepReservedHeight) return;
    delete window.specstepReservedHeight;
    if (window.specstepPage && window.specstepPage.schedule) window.specstepPage.schedule();
  }

  let placeholder = null;
  let query = null;
  try { query = new URLSearchParams(window.location.search); } catch (error) { /* no scenario to read */ }
  const values = query ? linkValues(query) : null;
  const openTab = query ? openingTab(query) : null;
  const asked = query ? otherTab(otherScenario(query, values), openTab) : null;
  if (query) reserveHeight(openTab);
  if (asked) {
    // The pre-rendered widget shows the default scenario's numbers: hidden until the
    // worker has rendered the link's own.
    placeholder = document.createElement("div");
    placeholder.className = "specstep-placeholder";
    placeholder.dataset.scenario = describe(asked);
    placeholder.appendChild(paragraph("specstep-placeholder-text", fill(W.loading, { what: describe(asked) })));
    placeholder.appendChild(paragraph("specstep-placeholder-note", W.appearsSoon));
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
    const note = status && status.querySelector(".specstep-status-note");
    if (note && !done) {
      note.textContent = PREVIEW;
      note.hidden = false;
    }
  }

  // A document as the worker sends it for its first render (JSON text), or as build.py
  // --prerender wrote it (the same, parsed), drawn into the page's roots in place of what they show.
  const parsed = (value) => (typeof value === "string" ? JSON.parse(value) : value);
  async function draw(docsJsonValue, renderItemsValue, rootIdsValue) {
    const docsJson = parsed(docsJsonValue);
    const renderItems = parsed(renderItemsValue);
    const rootIds = parsed(rootIdsValue);
    // Map the document's roots onto the pre-rendered elements: by id (the build gives the elements the
    // ids of the worker's numbered roots), else in data-root-id order.
    const dataRoots = rootElements().map((el) => [el.getAttribute("data-root-id"), el.id]);
    const byId = new Map(dataRoots);
    dataRoots.sort((a, b) => (a[0] < b[0] ? -1 : 1));
    const roots = {};
    const all = rootIds.every((id) => byId.has(id));
    rootIds.forEach((id, i) => {
      const element = all ? byId.get(id) : dataRoots[i] && dataRoots[i][1];
      if (element) roots[id] = element;
    });
    renderItems[0].roots = roots;
    renderItems[0].root_ids = rootIds;
    Bokeh.index.roots.map((view) => view.remove());
    for (const el of rootElements()) el.replaceChildren();
    showScenario();
    const [views] = await Bokeh.embed.embed_items(docsJson, renderItems);
    return views;
  }

  // The page's own pre-render is drawn once the document has loaded; a document drawn
  // before it finished would be drawn over. Resolves when it is drawn (or after 20 s), and
  // marks specstep:preview then (bench/bench_build.py: when the preview is on screen).
  let drawnDefault = null;
  function defaultDrawn() {
    drawnDefault = drawnDefault || new Promise((resolve) => {
      const started = Date.now();
      const wanted = rootElements().length;
      const check = () => {
        const drawn = typeof Bokeh !== "undefined" && Bokeh.index ? Bokeh.index.roots.length : 0;
        if (drawn >= wanted && wanted > 0) mark("preview");
        if (drawn >= wanted || Date.now() - started > 20_000) resolve();
        else setTimeout(check, 20);
      };
      check();
    });
    return drawnDefault;
  }
  defaultDrawn();

  // The fingerprint of the pre-render on screen (app/worker_protocol.py's): the worker's first render
  // is compared with it, and when they are the same the page keeps what it has drawn.
  let shown = asked ? null : CONFIG.fingerprint || null;

  // The build pre-rendered the link's scenario: fetched (once, kept by the service
  // worker) and shown, inert, until the worker renders. A failed fetch keeps the placeholder.
  let workerRendering = false;
  let prerendering = Promise.resolve();
  // The build's pre-rendered scenarios are in its language too: another language keeps the placeholder.
  const extra = asked && values && lang === prerenderedLang && !asked.tab && Array.isArray(CONFIG.prerenders)
    ? CONFIG.prerenders.find((entry) => sameValues(values, entry.values)) : null;
  if (extra) {
    prerendering = (async () => {
      const response = await fetch(extra.file);
      if (!response.ok) throw new Error(`${extra.file}: HTTP ${response.status}`);
      const payload = await response.json();
      await defaultDrawn();
      if (workerRendering) return;
      await draw(payload.docs_json, payload.render_items, payload.root_ids);
      shown = extra.fingerprint || null;
      setInert(true);
      if (lastProblem) say(...lastProblem); // its words about the placeholder no longer hold
      document.body.dataset.specstepPrerendered = extra.query;
      mark("prerendered");
      startLive();
    })().catch((error) => console.warn("[specstep] pre-rendered scenario not shown:", error));
  }

  // ----- The live preview (issue 27): web/live.js, inserted here by the build ------------

  @@LIVE@@

  // Only for a link on the pre-rendered screen that holds nothing but the widget's settings (a hide
  // flag or a tab makes another screen than the recording's): its recorded moments, fetched after the
  // first paint (CONFIG.moments for index.html's own scenario, an entry's own for a pre-rendered one).
  let live = null;
  let livePreview = null; // the latest state for the worker: {type: "preview", location, replay, seq}
  const liveFile = (() => {
    if (!query || !values) return null;
    const cosmetic = ["theme"]; // app/page/page.js's colours: the same models, the same patches
    for (const key of query.keys()) if (!cosmetic.includes(key) && !PROPS.some((prop) => prop.name === key)) return null;
    if (!asked) return CONFIG.moments || null;
    return extra ? extra.moments || null : null;
  })();
  function startLive() {
    if (!liveFile || live || workerRendering || done || typeof Bokeh === "undefined" || !Bokeh.index.roots.length) return;
    live = specstepLive({
      file: liveFile, words: { wait: W.liveWait }, mark,
      post: (message) => { livePreview = message; if (worker) worker.postMessage(message); },
    });
    live.start(Bokeh.index.roots[0].model.document).then(() => {
      if (done || workerRendering) return;
      setInert(false);
      document.body.classList.add("specstep-live");
      PREVIEW = W.previewLive;
      const note = status && status.querySelector(".specstep-status-note");
      if (note && !placeholder) note.textContent = PREVIEW;
      if (lastProblem) say(...lastProblem); // said before the preview was live: "its buttons do not respond" no longer holds
    }).catch((error) => { live = null; console.warn("[specstep] live preview not started:", error); });
  }
  if (liveFile && !asked) defaultDrawn().then(startLive);

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
    text.textContent = fill(W.step, { n: step.number, of: STEPS.length, text: step.text });
    note.textContent = placeholder ? "" : PREVIEW;
    note.hidden = !!placeholder;
    document.body.classList.add("specstep-preview");
  }

  let lastProblem = null;
  function problem(kind, detail, seconds) {
    mark(`failed-${kind}`);
    lastProblem = [kind, detail, seconds];
    say(kind, detail, seconds);
  }

  function say(kind, detail, seconds) {
    if (!status || done) return;
    const text = PROBLEMS[kind] || PROBLEMS.app;
    status.dataset.stage = `failed-${kind}`;
    status.classList.add("specstep-problem");
    status.setAttribute("role", "alert");
    status.setAttribute("aria-live", "assertive");
    status.replaceChildren();
    const what = fill(text.what, { seconds });
    const rest = placeholder ? W.restPlaceholder
      : document.body.classList.contains("specstep-live") ? W.restPreviewLive : W.restPreview;
    status.append(paragraph("specstep-status-text", fill(W.problemText, { what, rest })),
      paragraph("specstep-status-todo", fill(W.whatToDo, { todo: text.todo })),
      reloadButton(RELOAD));
    if (detail) status.appendChild(paragraph("specstep-status-detail", fill(W.details, { detail })));
    if (placeholder) {
      const line = placeholder.querySelector(".specstep-placeholder-note");
      if (line) line.textContent = W.appearsLater;
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
    const focusWasHere = holdsFocus();
    if (status) status.remove();
    setInert(false);
    releaseHeight();
    if (focusWasHere) focusFirstControl();
  }

  // ----- Keyboard focus across the start: "Start now" is removed once pressed, the status
  // line after it, and the widget is inert until ready. The focus stays on the status line
  // meanwhile (not on <body>, from which the next Tab would leave the frame), then moves to
  // the widget's first control.

  function holdsFocus() {
    return !!status && document.hasFocus() && status.contains(document.activeElement);
  }

  function keepFocusOnStatus() {
    if (!holdsFocus() || document.activeElement === status) return;
    status.tabIndex = -1;
    status.focus({ preventScroll: true });
  }

  // The first element a Tab would reach in the widget, across shadow roots (as web browsers
  // order them: a host's shadow tree, then its children); inert or hidden parts have none.
  function firstControl() {
    const stops = "a[href], button, input, select, textarea, [tabindex]";
    const search = (root) => {
      for (const el of root.children) {
        if (el.inert) continue;
        if (el.matches(stops) && el.tabIndex >= 0 && !el.disabled && el.checkVisibility()) return el;
        const inner = (el.shadowRoot && search(el.shadowRoot)) || search(el);
        if (inner) return inner;
      }
      return null;
    };
    for (const root of rootElements()) {
      const found = search(root);
      if (found) return found;
    }
    return null;
  }

  // After app/page/page.js has given the drawn widget its tab order (it runs on the next frames).
  // A control Bokeh has just drawn may not take the focus yet: tried again for up to 2 s,
  // for as long as the focus is nowhere else.
  function focusFirstControl() {
    let tries = 0;
    const lost = () => document.hasFocus() && (!document.activeElement || document.activeElement === document.body);
    const attempt = () => {
      if (!lost()) return;
      const control = firstControl();
      if (control) control.focus();
      if (lost() && ++tries < 40) setTimeout(attempt, 50);
    };
    requestAnimationFrame(() => requestAnimationFrame(attempt));
  }

  // ----- Service worker: a cache per build, and a quiet note when a new one is ready

  let updateNotice = null;
  function offerUpdate(waiting) {
    if (updateNotice) return;
    updateNotice = document.createElement("div");
    updateNotice.className = "specstep-update";
    updateNotice.setAttribute("role", "status");
    updateNotice.setAttribute("aria-live", "polite");
    const text = paragraph("specstep-update-text", W.update);
    const reload = document.createElement("button");
    reload.type = "button";
    reload.textContent = W.updateReload;
    reload.setAttribute("aria-label", W.updateReloadLabel);
    reload.addEventListener("click", () => {
      if (!waiting) { window.location.reload(); return; } // the new build is already in charge
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
    later.textContent = W.later;
    later.addEventListener("click", () => { updateNotice.hidden = true; });
    updateNotice.append(text, reload, later);
    document.body.appendChild(updateNotice);
    document.body.dataset.specstepUpdate = "ready";
  }

  // A page runs the build whose worker served it. When another tab's Reload hands the site
  // to a newer build, this page's requests go to the newer worker and would get the newer
  // build's files: a page that has not started Python reloads into that build when it
  // starts (nothing is lost), one that is starting reloads at once, and one that runs keeps
  // its files and offers the reload.
  let servedBy = null;
  try { servedBy = navigator.serviceWorker.controller || null; } catch (error) { /* none, or sandboxed */ }
  function buildReplaced() {
    try { return servedBy !== null && navigator.serviceWorker.controller !== servedBy; } catch (error) { return false; }
  }
  if (servedBy) {
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      if (!buildReplaced()) return;
      if (worker && !done) window.location.reload();
      else offerUpdate(null);
    });
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
  const POSTER = W.poster;

  function whenSeen(go) {
    let started = false;
    const begin = () => {
      if (started) return;
      started = true;
      observer.disconnect();
      keepFocusOnStatus();
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
  // The worker that unzips for the app's worker: its end of a MessagePort, or null (then the app's
  // worker unpacks everything itself).
  function startUnzipper(app) {
    try {
      const unzipper = new Worker(CONFIG.worker, { name: "specstep-unzip" });
      const channel = new MessageChannel();
      unzipper.onerror = (event) => {
        event.preventDefault();
        app.postMessage({ type: "unzip-failed", why: String(event.message || "[specstep] the unzipping worker failed") });
      };
      unzipper.postMessage({ type: "unzip-port" }, [channel.port2]);
      app.unzipper = unzipper;
      return channel.port1;
    } catch (error) {
      return null;
    }
  }

  function startWorker() {
    if (buildReplaced()) { window.location.reload(); return; } // see servedBy
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
    // The pre-render the page shows or is about to show (a link's own, once fetched).
    const expect = asked ? (extra && extra.fingerprint) || null : shown;
    // A second worker, the same file, unpacks the downloads while the first starts Python (web/worker.js).
    const unzip = startUnzipper(worker);
    worker.postMessage({ type: "init", location: JSON.stringify(window.location), expect, unzip },
      unzip ? [unzip] : []);
    if (livePreview) worker.postMessage(livePreview); // what the live preview reached (issue 27)
    enter("start");
    worker.onerror = onWorkerError;
    worker.onmessage = onWorkerMessage;
  }

  let patching = 0;
  // While the worker is busy, every change the reader makes (a click too) waits in the queue, in
  // the order made, and the queue goes as one patch when the worker is idle: Python must see the
  // events in the reader's order (issue 24). A property change replaces only a change of the same
  // property just before it (a slider dragged), which reorders nothing.
  function sendChange(jsdoc, event) {
    if ((event.setter_id != null && event.setter_id === "py") || patching > 0) return;
    if (worker.busy) {
      const last = worker.queue[worker.queue.length - 1];
      const same = last && event.model && event.attr && last.model === event.model && last.attr === event.attr;
      if (same) worker.queue[worker.queue.length - 1] = event;
      else worker.queue.push(event);
      return;
    }
    const patch = jsdoc.create_json_patch([event]);
    worker.busy = true;
    worker.postMessage({ type: "patch", patch });
  }

  function onWorkerError(event) {
    event.preventDefault();
    clearTimeout(timer);
    problem(step.number <= 2 ? "runtime" : "app", event.message || W.workerStopped);
  }

  async function onWorkerMessage(event) {
    const msg = event.data;
    if (msg.type === "progress") {
      // After a time-limit message, a stage that arrives late replaces it: carry on as normal.
      enter(String(msg.stage));
      // The runtime's WebAssembly is in: the unzipping worker may download and unpack (web/worker.js).
      if (worker.unzipper && (msg.stage === "runtime-start" || msg.stage === "runtime-ready")) {
        worker.unzipper.postMessage({ type: "go" });
      }
    } else if (msg.type === "failed") {
      clearTimeout(timer);
      if (worker.unzipper) worker.unzipper.terminate(); // its downloads would be for nothing
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
      mark("drawing"); // Python is done; from here to "ready" the page draws the widget
      try {
        workerRendering = true;
        if (live) live.stop();
        await prerendering;
        // The worker's document is the one on screen, model for model and id for id, and the reader
        // has changed nothing in it: it is kept, not drawn again (no redraw, nothing moves).
        const drawnRoots = new Set(Bokeh.index.roots.map((view) => view.model.id));
        const keep = msg.same && shown !== null && !placeholder && (!live || live.untouched())
          && parsed(msg.root_ids).every((id) => drawnRoots.has(id));
        const jsdoc = keep ? Bokeh.index.roots[0].model.document
          : [...(await draw(msg.docs_json, msg.render_items, msg.root_ids)).roots.values()][0].model.document;
        document.body.dataset.specstepTakeover = keep ? "kept" : "drawn";
        document.body.dataset.specstepInstalledBy = String(msg.installed_by || ""); // measured: bench_build
        finished();
        mark("ready");
        worker.jsdoc = jsdoc;
        jsdoc.on_change(sendChange.bind(null, jsdoc), false);
        if (live) live.takeover(jsdoc, msg.preview_seq);
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
