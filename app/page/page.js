// What the page does that Bokeh and Panel do not: real tabs, names and pressed
// states for screen readers, the D/V/C/N/B/R keys (and the arrows on a timeline; an HTML button's own
// data-sp-key letter), the colour theme from the URL,
// a hook after each scan (`page.hooks`: present.js),
// and its own height posted to the page that embeds it (web/host.js sizes the
// iframe from it). Runs in the page as a Bokeh CustomJS on "document_ready";
// args: `names` (CSS class -> accessible name), `keys` (key -> CSS class of
// the button it presses), `tabs_label` (the tab list's name), `height_type`
// (the message type of a height report), `hello_type` (a host script's hello: report again), `widget_css` (Bokeh's widget colours as
// the page's palette, added to every shadow root), `frame_hidden` (CSS class -> the
// part's name, for parts hidden inside an iframe unless the link says NAME_hide=0), `open_class`
// (the class of the hidden input that HTML buttons with data-sp-open write to), `open_recent` (how many
// of their latest clicks it holds). It installs itself once per page and
// then follows every change of the DOM (shadow roots included), so a document
// the Pyodide worker renders later is handled the same way.
const page = window.specstepPage || (window.specstepPage = {});
page.names = names;
page.keys = keys;
page.tabsLabel = tabs_label;
page.heightType = height_type;
page.helloType = hello_type;
page.widgetCss = widget_css;
page.frameHidden = frame_hidden;
page.openClass = open_class;
page.openRecent = open_recent;

if (!page.installed) {
  page.installed = true;
  const observed = new WeakSet();
  let widgetSheet = null;
  let pending = false;
  let lastHeight = 0;
  let uid = 0;

  const set = (el, name, value) => {
    if (value === null) {
      if (el.hasAttribute(name)) el.removeAttribute(name);
    } else if (el.getAttribute(name) !== String(value)) {
      el.setAttribute(name, String(value));
    }
  };

  // Every element of the page, inside shadow roots too.
  const walk = (root, visit) => {
    for (const el of root.children) {
      visit(el);
      if (el.shadowRoot) {
        watch(el.shadowRoot);
        walk(el.shadowRoot, visit);
      }
      walk(el, visit);
    }
  };

  const schedule = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      scan();
      postHeight();
    });
  };
  page.schedule = schedule;

  const changes = new MutationObserver(schedule);
  const watch = (root) => {
    if (observed.has(root)) return;
    observed.add(root);
    if (root !== document.body && page.widgetCss) {
      if (!widgetSheet) {
        widgetSheet = new CSSStyleSheet();
        widgetSheet.replaceSync(page.widgetCss);
      }
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, widgetSheet];
    }
    changes.observe(root, { subtree: true, childList: true, attributes: true,
                            attributeFilter: ["class", "style", "aria-hidden", "disabled"] });
  };

  const hostName = (el) => {
    for (const cls of el.classList) {
      if (Object.prototype.hasOwnProperty.call(page.names, cls)) return page.names[cls];
    }
    return null;
  };

  // The name of the nearest widget around el (across shadow roots) that the names table knows.
  const aroundName = (el) => {
    let node = el;
    while (node) {
      if (node.classList) {
        const name = hostName(node);
        if (name) return name;
      }
      node = node.parentElement || (node.getRootNode && node.getRootNode().host) || null;
    }
    return null;
  };

  const enhanceTabs = (host) => {
    const root = host.shadowRoot;
    const header = root && Array.from(root.children).find((el) => el.classList.contains("bk-header"));
    if (!header) return;
    const list = header.querySelector(".bk-headers-wrapper") || header;
    const tabs = Array.from(list.querySelectorAll(".bk-tab"));
    const panels = Array.from(root.children).filter(
      (el) => el !== header && el.tagName === "DIV" && el.className.startsWith("bk-"));
    // The tab list comes first in the Tab order, before the panels (Bokeh appends it last).
    if (panels.length && header.compareDocumentPosition(panels[0]) & Node.DOCUMENT_POSITION_PRECEDING) {
      root.insertBefore(header, panels[0]);
    }
    if (!host.dataset.spTabs) host.dataset.spTabs = String(++uid);
    const id = host.dataset.spTabs;
    set(list, "role", "tablist");
    set(list, "aria-label", page.tabsLabel || null);
    tabs.forEach((tab, i) => {
      const active = tab.classList.contains("bk-active");
      set(tab, "role", "tab");
      set(tab, "id", `sp-tab-${id}-${i}`);
      set(tab, "aria-selected", active ? "true" : "false");
      set(tab, "tabindex", active ? "0" : "-1");
      if (panels[i]) set(tab, "aria-controls", `sp-panel-${id}-${i}`);
    });
    panels.forEach((panel, i) => {
      set(panel, "role", "tabpanel");
      // A hidden panel holds no focus stop (Panel only makes it invisible and aria-hidden).
      set(panel, "inert", panel.getAttribute("aria-hidden") === "true" ? "" : null);
      set(panel, "id", `sp-panel-${id}-${i}`);
      if (tabs[i]) set(panel, "aria-labelledby", `sp-tab-${id}-${i}`);
    });
    if (!list.spKeys) {
      list.spKeys = true;
      list.addEventListener("keydown", (event) => {
        const all = Array.from(list.querySelectorAll(".bk-tab"));
        const now = all.indexOf(event.target);
        if (now < 0) return;
        const to = { ArrowRight: now + 1, ArrowLeft: now - 1, Home: 0, End: all.length - 1,
                     Enter: now, " ": now }[event.key];
        if (to === undefined) return;
        event.preventDefault();
        const next = all[(to + all.length) % all.length];
        next.focus();
        next.click();
      });
    }
  };

  // Inside an iframe the title, introduction and embed form are hidden unless the link says
  // NAME_hide=0 (an inline style: Bokeh shows and hides with stylesheets, never inline).
  const embedded = window.parent !== window;
  const query = new URLSearchParams(window.location.search);
  const hideInFrame = (el) => {
    for (const c of el.classList) {
      const part = page.frameHidden[c];
      if (part && query.get(part + "_hide") !== "0" && el.style.display !== "none") el.style.display = "none";
    }
  };

  // A disabled slider (a locked embed's width) is no Tab stop: Bokeh marks its track disabled,
  // but noUiSlider's handle keeps tabindex=0. Restored when the slider is enabled again.
  const untabDisabledSlider = (handle) => {
    const disabled = !!handle.closest("[disabled]");
    if (disabled) {
      set(handle, "tabindex", "-1");
      set(handle, "aria-disabled", "true");
      handle.dataset.spUntabbed = "1";
    } else if (handle.dataset.spUntabbed) {
      set(handle, "tabindex", "0");
      set(handle, "aria-disabled", null);
      delete handle.dataset.spUntabbed;
    }
  };

  const enhance = (el) => {
    const cls = el.className;
    if (typeof cls !== "string") return;
    if (embedded) hideInFrame(el);
    // A long caption scrolls in its own box on a phone (app/styles/action_bar.css): only then is it
    // a Tab stop, so a keyboard can scroll it as well.
    if (el.classList.contains("sp-bar-caption")) set(el, "tabindex", el.scrollHeight > el.clientHeight + 1 ? "0" : null);
    if (el.shadowRoot && cls.includes("-Tabs")) enhanceTabs(el);
    // A named host: its button or its input carries the name.
    const name = el.shadowRoot ? hostName(el) : null;
    if (name) {
      const target = el.shadowRoot.querySelector("button, input, textarea, select, .bk-btn");
      if (target) set(target, "aria-label", name);
    }
    // A toggle that shows and hides a part ("Your own numbers", class sp-disclosure) is a disclosure:
    // it says whether that part is expanded, and points at it, the parts of class sp-disclosed beside
    // it (an id would not reach out of the button's shadow root; element reflection does).
    if (el.shadowRoot && el.classList.contains("sp-disclosure")) {
      const button = el.shadowRoot.querySelector(".bk-btn");
      if (button) {
        set(button, "aria-pressed", null);
        set(button, "aria-expanded", button.classList.contains("bk-active") ? "true" : "false");
        const parts = [...el.parentNode.children].filter((c) => c.classList.contains("sp-disclosed"));
        const now = button.ariaControlsElements || [];
        if ("ariaControlsElements" in button && (now.length !== parts.length || parts.some((c, i) => now[i] !== c))) {
          button.ariaControlsElements = parts;
        }
      }
    }
    // Toggle buttons (the draft choice, "Stop drafting early") say whether they are pressed.
    else if (el.shadowRoot && (cls.includes("RadioButtonGroup") || cls.includes("Toggle"))) {
      for (const button of el.shadowRoot.querySelectorAll(".bk-btn")) {
        set(button, "aria-pressed", button.classList.contains("bk-active") ? "true" : "false");
      }
    }
    // A slider's handle is named by the nearest named widget around it (the names table), else
    // by the slider's title ("Width: 3" -> "Width"). A slider without a name of its own shows only
    // its value as the title ("0.10"), which names nothing.
    if (el.getAttribute && el.getAttribute("role") === "slider" && !el.hasAttribute("aria-labelledby")) {
      const slider = el.closest(".bk-input-group") || el.getRootNode();
      const title = slider.querySelector && slider.querySelector(".bk-slider-title");
      const text = aroundName(el) || (title ? title.textContent.split(":")[0].trim() : "");
      if (text) set(el, "aria-label", text);
    }
    if (el.getAttribute && el.getAttribute("role") === "slider") untabDisabledSlider(el);
    // Charts are pictures with a name (a Bokeh model's html_attributes), or, without one, hidden
    // from screen readers (their numbers are in the tables beside them); never Tab stops.
    if (el.shadowRoot && (cls.includes("bk-Figure") || cls.includes("bk-Plot"))) {
      // Drawn on a canvas in the light palette: the dark theme shows it inverted, hues kept.
      if (el.style.filter !== "var(--sp-chart-filter, none)") el.style.filter = "var(--sp-chart-filter, none)";
      if (el.hasAttribute("aria-label")) set(el, "role", "img");
      else set(el, "aria-hidden", "true");
      walk(el.shadowRoot, (inner) => { if (inner.hasAttribute("tabindex")) set(inner, "tabindex", "-1"); });
    }
  };

  // A clicked HTML button that had the keyboard focus gets it back once Python has redrawn
  // its pane (the pane's HTML is replaced, the button with it): {root, key, index, gone, until}.
  // A button the redraw removes hands the focus to the element marked data-sp-after="ITS KEY".
  let refocus = null;
  const restoreFocus = () => {
    if (!refocus) return;
    if (performance.now() > refocus.until) {
      refocus = null;
      return;
    }
    if (refocus.gone.isConnected) return; // not redrawn yet
    // Lost: the focus fell back to the page (or the pane's host) with the removed button.
    const active = document.activeElement;
    const lost = !active || active === document.body || (active === refocus.root.host && !refocus.root.activeElement);
    // The button at the same place with the same key (a correction shares its proposal's key), else
    // what the pane says follows it when that button is gone (data-sp-after: Predict first's Confirm).
    const same = refocus.root.querySelectorAll("[data-sp-open]")[refocus.index];
    const key = CSS.escape(refocus.key);
    const button = same && same.getAttribute("data-sp-open") === refocus.key ? same
      : refocus.root.querySelector(`[data-sp-open="${key}"]`) || refocus.root.querySelector(`[data-sp-after="${key}"]`);
    if (lost && button) button.focus({ preventScroll: true });
    refocus = null;
  };

  page.walk = walk;
  const scan = () => {
    const main = document.querySelector("body > [data-root-id], body > .bk-root, body > div");
    if (main) set(main, "role", "main");
    walk(document.body, enhance);
    restoreFocus();
    for (const hook of page.hooks || []) hook();  // present.js
  };

  // The bottom of what is drawn: display: contents boxes have none of their own.
  const bottom = (el) => {
    const style = getComputedStyle(el);
    if (style.display === "none" || style.position === "fixed") return 0;
    if (style.display === "contents") {
      return Math.max(0, ...Array.from(el.children).map(bottom));
    }
    return el.getBoundingClientRect().bottom + (parseFloat(style.marginBottom) || 0);
  };

  const postHeight = () => {
    if (window.parent === window) return;
    // While the widget loads, the loader reserves the height it will have (web/loader.js).
    const reserved = typeof window.specstepReservedHeight === "function" ? window.specstepReservedHeight() : 0;
    const height = reserved > 0 ? reserved
      : Math.ceil(Math.max(0, ...Array.from(document.body.children).map(bottom)) + window.scrollY);
    if (height === lastHeight || height <= 0) return;
    lastHeight = height;
    // With the scheme the host said (none yet): a host that has not said it yet answers.
    window.parent.postMessage({ type: page.heightType, height, scheme: page.hostScheme || null }, "*");
  };
  // A host script that started after the height was posted says hello: post it again (web/loader.js
  // answers until this page is installed).
  page.repost = () => {
    lastHeight = 0;
    postHeight();
  };

  // Keyboard shortcuts: a letter presses its button when nothing that takes text has the focus.
  // An HTML button on screen with data-sp-key="LETTER" (Predict first's A/B/C toggles while the question
  // is open) takes its letter from the page's keys meanwhile: there B marks B and does not step back.
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
    const origin = event.composedPath()[0];
    if (origin && origin.closest && origin.closest("input, textarea, select, [contenteditable]")) return;
    const letter = event.key.toLowerCase();
    if (!/^[a-z]$/.test(letter)) return;  // Tab, Space, Enter and the arrows are the focused control's
    let button = null;
    walk(document.body, (el) => {
      if (button || !el.shadowRoot) return;
      const own = el.shadowRoot.querySelector(`button[data-sp-key="${CSS.escape(letter)}"]:not([disabled])`);
      if (own && own.checkVisibility()) button = own;
    });
    const cls = page.keys[letter];
    if (!button && !cls) return;
    if (!button) walk(document.body, (el) => {
      if (!button && el.classList && el.classList.contains(cls) && el.shadowRoot) {
        const inner = el.shadowRoot.querySelector("button");
        if (inner && !inner.disabled && el.checkVisibility()) button = inner;
      }
    });
    if (button) {
      event.preventDefault();
      button.click();
    }
  });

  // A strip of HTML buttons with role="toolbar" (the step tab's timeline) is one Tab stop, the
  // button on screen (a roving tabindex): the arrow keys, Home and End press its neighbours, and the
  // refocus below keeps the focus on the pressed one once Python has redrawn the strip.
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const origin = event.composedPath()[0];
    const strip = origin && origin.closest && origin.hasAttribute && origin.hasAttribute("data-sp-open")
      && origin.closest('[role="toolbar"]');
    if (!strip) return;
    const all = [...strip.querySelectorAll("[data-sp-open]")];
    const now = all.indexOf(origin);
    const to = { ArrowRight: now + 1, ArrowDown: now + 1, ArrowLeft: now - 1, ArrowUp: now - 1, Home: 0,
                 End: all.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const next = all[Math.max(0, Math.min(all.length - 1, to))];
    if (next === origin) return;
    next.focus();
    next.click();
  });

  // Buttons drawn in HTML (the token chips, the block history) carry data-sp-open="KEY": a
  // click writes K1|K2|KEY@n into the document's hidden input with class `open_class`
  // (app/parts.py Opener, which says why): the keys of the latest `open_recent` clicks on that
  // input and n, its clicks so far. Python opens the keys it has not seen, so clicks that reach it
  // as one value (the loader's queue, Panel's debounce) are all made, in order.
  const clicks = new WeakMap();  // input model -> {n, recent}: a new document's input starts afresh
  document.addEventListener("click", (event) => {
    const button = event.composedPath().find((el) => el instanceof Element && el.hasAttribute("data-sp-open"));
    const root = button && button.getRootNode();
    // The pane's button that has the focus: the one clicked, or another when a key pressed this one.
    const focused = root && root.activeElement;
    if (focused && focused.hasAttribute("data-sp-open")) {
      refocus = { root, key: focused.getAttribute("data-sp-open"), gone: focused, until: performance.now() + 5000,
                  index: [...root.querySelectorAll("[data-sp-open]")].indexOf(focused) };
    }
    const documents = (button && window.Bokeh && window.Bokeh.documents) || [];
    for (let i = documents.length - 1; i >= 0; i--) {  // the newest document: the worker's, once drawn
      for (const model of documents[i].all_models) {
        if (Array.isArray(model.css_classes) && model.css_classes.includes(page.openClass) && "value" in model) {
          const made = clicks.get(model) || { n: 0, recent: [] };
          made.n += 1;
          made.recent = [...made.recent, button.getAttribute("data-sp-open")].slice(-page.openRecent);
          clicks.set(model, made);
          model.value = `${made.recent.join("|")}@${made.n}`;
          return;
        }
      }
    }
  });

  // theme=dark|light in the URL; without it, the host page's scheme once its host script
  // says it ({type: "specstep:scheme"}, app/embed/host.js, live), else the reader's setting.
  const theme = new URLSearchParams(window.location.search).get("theme");
  if (theme === "dark" || theme === "light") document.documentElement.dataset.theme = theme;
  const followHost = (event) => {
    const data = event.data;
    if (event.source !== window.parent || !data) return;
    if (data.type === page.helloType) {
      page.repost();
      return;
    }
    if (data.type !== "specstep:scheme") return;
    if (data.scheme !== "dark" && data.scheme !== "light") return;
    page.hostScheme = data.scheme;
    if (theme !== "dark" && theme !== "light") document.documentElement.dataset.theme = data.scheme;
  };
  if (window.parent !== window) {
    document.documentElement.classList.add("sp-embedded");
    // The frame is as tall as its content and the host scrolls: the phone's bar cannot stick, and
    // its jump to the inspector would scroll nothing (app/styles/action_bar.css, phone_only.css).
    document.documentElement.style.setProperty("--sp-bar-position", "static");
    document.documentElement.style.setProperty("--sp-phone-display", "none");
    window.addEventListener("message", followHost);
  }

  watch(document.body);
  new ResizeObserver(schedule).observe(document.body);
  window.addEventListener("resize", schedule);
}
page.schedule();
