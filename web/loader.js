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
// Everything shown here is set with textContent: text from the URL is never HTML.
"use strict";
(function () {
  const CONFIG = @@CONFIG@@;
  // Tests may shorten the limits: window.specstepLoadTimeoutMs = 2000 (the download),
  // window.specstepStageLimitsMs = {app: 2000} (any step, by the stage that starts it).
  const timeoutMs = Number(window.specstepLoadTimeoutMs) > 0 ? Number(window.specstepLoadTimeoutMs) : CONFIG.loadTimeoutMs;

  // The reader's language: the link's ?lang=, else the browser's, else English (as the
  // app's Python chooses: app/i18n). The words below come in both of the app's languages.
  function pickLanguage(tag) {
    const value = String(tag || "").trim().toLowerCase().replace("_", "-");
    for (const lang of ["en", "zh"]) if (value === lang || value.startsWith(`${lang}-`)) return lang;
    return null;
  }
  let lang = null;
  try { lang = pickLanguage(new URLSearchParams(window.location.search).get("lang")); } catch (error) { /* none */ }
  if (!lang) { try { lang = pickLanguage(navigator.language); } catch (error) { /* none */ } }
  lang = lang || "en";
  if (lang === "zh") document.documentElement.lang = "zh-CN";
  // The pre-rendered widget is in the build's language (English unless the build says).
  const prerenderedLang = CONFIG.prerenderedLang || "en";

  const host = CONFIG.pyodideHost;
  const WORDS = {
    en: {
      steps: [
        `downloading Python for your browser (Pyodide, about 12 MB ${host ? `from ${host}` : "from this site"}; ` +
          "a later visit loads it from the cache)…",
        "starting Python (your browser compiles it; this takes a few seconds)…",
        "loading the packages the widget needs (numbers, charts and the widget itself)…",
        "building the widget…",
      ],
      step: (n, of, text) => `Step ${n} of ${of}: ${text}`,
      preview: "What you see below is a preview: its buttons respond once this is done.",
      reload: "Reload the page",
      stillTrying: "The page keeps trying and switches on by itself if this finishes.",
      whatToDo: (todo) => `What to do: ${todo}`,
      details: (detail) => `Details: ${detail}`,
      restPlaceholder: " The scenario of this link can only be shown once Python runs.",
      restPreview: " The widget below is only a preview: its buttons do not respond.",
      appearsLater: "It appears here once Python runs; see the message above.",
      loading: (what) => `Loading ${what}…`,
      appearsSoon: "The widget appears here as soon as Python has computed it.",
      scenario: {
        draft: (v) => `the ${v} draft`, width: (v) => `width ${v}`, lookahead: (v) => `lookahead ${v}`,
        steps: (v) => `${v} steps in`, seed: (v) => `seed ${v}`, subject: "the scenario of this link",
        join: (items, last) => `${items.join(", ")} and ${last}`, with: (subject, rest) => `${subject} with ${rest}`,
      },
      thisLanguage: "the widget in English",
      update: "A new version of this page is ready.", updateReload: "Reload",
      updateReloadLabel: "Reload to use the new version", later: "Later",
      problems: {
        runtime: {
          what: `Python could not be downloaded ${host ? `from ${host}` : "from this site"}, so the widget cannot run.`,
          todo: "Check that you are online and reload the page. If your network blocks that site, " +
            "ask whoever hosts this page to host a copy of Pyodide with it (the build's --pyodide-url option).",
        },
        timeout: {
          what: (s) => `Python did not finish downloading within ${s} seconds, so the widget cannot run yet.`,
          todo: "{still} If nothing happens, check that you are online and reload the page; " +
            "if your network blocks the download site, ask whoever hosts this page to host a copy of Pyodide " +
            "with it (the build's --pyodide-url option).",
        },
        "slow-start": {
          what: (s) => `Python was downloaded but has not finished starting after ${s} seconds.`,
          todo: "{still} A busy or older device can be slow at this step: close other tabs and reload the page.",
        },
        "slow-packages": {
          what: (s) => `Python started, but the packages the widget needs have not finished loading after ${s} seconds.`,
          todo: "{still} If nothing happens, check that you are online and reload the page.",
        },
        "slow-app": {
          what: (s) => `Python is running, but the widget has not finished building after ${s} seconds.`,
          todo: "{still} If nothing happens, reload the page; if it happens again, tell whoever hosts " +
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
      },
      // An embed below the fold waits for the reader (see whenSeen).
      poster: {
        text: "This widget starts when you scroll to it.",
        note: "Starting it downloads Python and the widget's packages into your browser: tens of megabytes " +
          "the first time, nothing on a later visit (they are cached). The preview below shows its first state.",
        start: "Start now",
      },
    },
    zh: {
      steps: [
        `正在为你的浏览器下载 Python（Pyodide，约 12 MB，${host ? `来自 ${host}` : "来自本站"}；以后再访问会从缓存加载）…`,
        "正在启动 Python（浏览器正在编译它，需要几秒钟）…",
        "正在加载小部件需要的软件包（数值计算、图表和小部件本身）…",
        "正在构建小部件…",
      ],
      step: (n, of, text) => `第 ${n} 步，共 ${of} 步：${text}`,
      preview: "下面是预览：完成后按钮才会响应。",
      reload: "重新加载页面",
      stillTrying: "页面会继续尝试，如果完成了会自动启用。",
      whatToDo: (todo) => `怎么办：${todo}`,
      details: (detail) => `详情：${detail}`,
      restPlaceholder: "这个链接的场景只有在 Python 运行后才能显示。",
      restPreview: "下面的小部件只是预览：它的按钮不会响应。",
      appearsLater: "Python 运行后它会出现在这里；请看上面的说明。",
      loading: (what) => `正在加载${what}…`,
      appearsSoon: "Python 一算好，小部件就会出现在这里。",
      scenario: {
        draft: (v) => `${{ aligned: "对齐的", biased: "有偏的", lookup: "查找", heads: "预测头" }[v] || `${v} `}草稿模型`, width: (v) => `宽度 ${v}`, lookahead: (v) => `前瞻 ${v}`,
        steps: (v) => `第 ${v} 步`, seed: (v) => `种子 ${v}`, subject: "这个链接的场景",
        join: (items, last) => `${items.join("、")}和${last}`, with: (subject, rest) => `${subject}（${rest}）`,
      },
      thisLanguage: "中文版小部件",
      update: "这个页面有新版本了。", updateReload: "重新加载", updateReloadLabel: "重新加载以使用新版本",
      later: "以后再说",
      problems: {
        runtime: {
          what: `无法${host ? `从 ${host} ` : "从本站"}下载 Python，所以小部件无法运行。`,
          todo: "请检查网络连接并重新加载页面。如果你的网络屏蔽了那个网站，请让托管本页面的人同时托管一份 Pyodide" +
            "（构建时的 --pyodide-url 选项）。",
        },
        timeout: {
          what: (s) => `Python 在 ${s} 秒内没有下载完成，所以小部件暂时无法运行。`,
          todo: "{still}如果没有反应，请检查网络连接并重新加载页面；如果你的网络屏蔽了下载网站，" +
            "请让托管本页面的人同时托管一份 Pyodide（构建时的 --pyodide-url 选项）。",
        },
        "slow-start": {
          what: (s) => `Python 已下载，但 ${s} 秒后仍未启动完成。`,
          todo: "{still}繁忙或较旧的设备在这一步可能很慢：请关闭其他标签页并重新加载页面。",
        },
        "slow-packages": {
          what: (s) => `Python 已启动，但小部件需要的软件包在 ${s} 秒后仍未加载完成。`,
          todo: "{still}如果没有反应，请检查网络连接并重新加载页面。",
        },
        "slow-app": {
          what: (s) => `Python 正在运行，但小部件在 ${s} 秒后仍未构建完成。`,
          todo: "{still}如果没有反应，请重新加载页面；如果再次发生，请告诉托管本页面的人（浏览器的控制台里有详情）。",
        },
        packages: {
          what: "Python 已启动，但小部件需要的部分软件包无法下载。",
          todo: "请检查网络连接并重新加载页面。如果再次发生，网站可能不完整：请告诉托管本页面的人。",
        },
        app: {
          what: "Python 已启动，但小部件本身启动失败。",
          todo: "请重新加载页面。如果再次发生，请告诉托管本页面的人（浏览器的控制台里有详情）。",
        },
        browser: {
          what: "这个浏览器无法运行 Python（它不支持 Web Worker 或 WebAssembly）。",
          todo: "请用最新版的 Firefox、Chrome、Edge 或 Safari 打开本页面。",
        },
        sandbox: {
          what: "本页面显示在一个沙箱框架中，沙箱不允许它启动 Web Worker，所以 Python 无法在这里运行。",
          todo: "嵌入本页面的人：请给 iframe 加上 sandbox=\"allow-scripts allow-same-origin\"" +
            "（或不加 sandbox 属性）。读者：请单独打开本页面。",
        },
      },
      poster: {
        text: "滚动到这里时，这个小部件才会启动。",
        note: "启动时会把 Python 和小部件需要的软件包下载到你的浏览器：第一次有几十 MB，以后再访问就不用下载（已缓存）。" +
          "下面的预览是它的初始状态。",
        start: "立即启动",
      },
    },
  };
  const W = WORDS[lang];

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

  const PREVIEW = W.preview;
  const RELOAD = W.reload;
  const STILL_TRYING = W.stillTrying;
  // Each problem: what happened, and what to do (the time-limit ones say first that the page keeps trying).
  const PROBLEMS = {};
  for (const [kind, text] of Object.entries(W.problems)) {
    PROBLEMS[kind] = { what: text.what, todo: text.todo.replace("{still}", lang === "en" ? `${STILL_TRYING} ` : STILL_TRYING) };
  }
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

  const SCENARIO_KEYS = ["draft", "width", "seed", "lookahead", "steps", "target", "q"];
  const MAX_VALUE = 40;
  const MAX_TABLE = 400; // core/tables_text.py's MAX_TEXT

  function bounded(value) {
    const text = String(value).replace(/\s+/g, " ").trim();
    return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
  }

  // One value of a link as app/urlstate.py's PROPS row reads it (the build hands over the
  // table), or null when it would not be valid there or this cannot tell: stricter than
  // Python, never looser, so a link is matched only with a scenario it surely asks for.
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
    if (prop.kind === "choice" || prop.kind === "threshold") {
      const lower = /^[A-Za-z0-9.]+$/.test(value) ? value.toLowerCase() : null;
      if (lower !== null && prop.choices.includes(lower)) return lower;
      const tenths = prop.kind === "threshold" ? /^0?\.([1-9])0*$/.exec(value) : null;
      return tenths && prop.choices.includes(`0.${tenths[1]}0`) ? `0.${tenths[1]}0` : null;
    }
    if (prop.kind === "int" && /^[0-9]{1,16}$/.test(value)) {
      const number = BigInt(value);
      return number >= BigInt(prop.low) && number <= BigInt(prop.high) ? number.toString() : null;
    }
    return null;
  }

  // The link's scenario: every PROPS value as the app would read it, or null.
  function linkValues(query) {
    if (!Array.isArray(CONFIG.props)) return null;
    const values = {};
    for (const prop of CONFIG.props) {
      const given = query.getAll(prop.name); // the last one counts, as in urlstate.read
      values[prop.name] = given.length ? readValue(prop, given[given.length - 1]) : prop.default;
      if (values[prop.name] === null) return null;
    }
    return values;
  }

  function sameValues(a, b) {
    return !!a && !!b && CONFIG.props.every((prop) => String(a[prop.name]) === String(b[prop.name]));
  }
  window.specstepLinkValues = (search) => linkValues(new URLSearchParams(search));

  // The link's scenario values that differ from the pre-rendered page's, or null.
  // Without the build's note of what it pre-rendered, any scenario in the URL counts.
  function otherScenario(query, values) {
    const prerendered = CONFIG.prerendered || null;
    if (values !== null && sameValues(values, prerendered) && lang === prerenderedLang) return null;
    const asked = {};
    let differs = false;
    for (const key of SCENARIO_KEYS) {
      if (!query.has(key)) continue;
      const value = query.get(key);
      asked[key] = value;
      if (prerendered === null || String(prerendered[key]) !== value) differs = true;
    }
    // The pre-rendered words are in one language: a link in the other one hides them too.
    return differs || lang !== prerenderedLang ? asked : null;
  }

  function describe(asked) {
    const say = W.scenario;
    const extras = [];
    for (const key of ["draft", "width", "lookahead", "steps"]) {
      if (asked[key] !== undefined) extras.push(say[key](bounded(asked[key])));
    }
    if (asked.seed === undefined && !extras.length) {
      return asked.tab ? say.subject : W.thisLanguage;  // only the tab, or only the language, differs
    }
    const subject = asked.seed !== undefined ? say.seed(bounded(asked.seed)) : say.subject;
    const last = extras.pop();
    const joined = extras.length ? say.join(extras, last) : last;
    return last === undefined ? subject : say.with(subject, joined);
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
    const height = window.specstepReservedHeight();
    if (height > 0) window.parent.postMessage({ type: CONFIG.heightType, height }, "*");
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
    placeholder.appendChild(paragraph("specstep-placeholder-text", W.loading(describe(asked))));
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
    // Map the document's roots onto the pre-rendered elements, in data-root-id order.
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
    return views;
  }

  // The page's own pre-render is drawn once the document has loaded; a document drawn
  // before it finished would be drawn over. Resolves when it is drawn (or after 20 s).
  function defaultDrawn() {
    return new Promise((resolve) => {
      const started = Date.now();
      const wanted = rootElements().length;
      const check = () => {
        const drawn = typeof Bokeh !== "undefined" && Bokeh.index ? Bokeh.index.roots.length : 0;
        if (drawn >= wanted || Date.now() - started > 20_000) resolve();
        else setTimeout(check, 20);
      };
      check();
    });
  }

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
      setInert(true);
      if (lastProblem) say(...lastProblem); // its words about the placeholder no longer hold
      document.body.dataset.specstepPrerendered = extra.query;
      mark("prerendered");
    })().catch((error) => console.warn("[specstep] pre-rendered scenario not shown:", error));
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
    text.textContent = W.step(step.number, STEPS.length, step.text);
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
    const what = typeof text.what === "function" ? text.what(seconds) : text.what;
    const rest = placeholder ? W.restPlaceholder : W.restPreview;
    status.append(paragraph("specstep-status-text", what + rest),
      paragraph("specstep-status-todo", W.whatToDo(text.todo)),
      reloadButton(RELOAD));
    if (detail) status.appendChild(paragraph("specstep-status-detail", W.details(detail)));
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
    worker.postMessage({ type: "init", location: JSON.stringify(window.location) });
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
      mark("drawing"); // Python is done; from here to "ready" the page draws the widget
      try {
        workerRendering = true;
        await prerendering;
        const views = await draw(msg.docs_json, msg.render_items, msg.root_ids);
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
