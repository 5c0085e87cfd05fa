// Present mode, for a projector (app/styles/present.css): the page shows only the parts marked
// sp-present-keep (the caption and buttons, the token strip, the lanes and timeline where a tab
// marks them, and the Present button itself), in large type, full screen where the browser
// allows it; Esc leaves. Python owns the state: the Present toggle (app/main.py, present=1 in
// the URL) is pressed or not, and this follows it on every change page.js sees. Runs as a
// CustomJS on "document_ready" after page.js; args: `toggle` (the toggle's CSS class), `keep`
// (the class of kept parts), `on` (the root's class while presenting), `sheet` (present.css).
const page = window.specstepPage || (window.specstepPage = {});
const present = page.present || (page.present = { hidden: new Set(), active: false, fullscreen: false });
Object.assign(present, { toggleClass: toggle, keepClass: keep, onClass: on, css: sheet });

if (!present.installed) {
  present.installed = true;
  const skip = new Set(["STYLE", "LINK", "SCRIPT", "TEMPLATE", "SLOT"]);
  const parent = (el) => el.parentElement || (el.parentNode && el.parentNode.host) || null;
  const children = (el) => (el.shadowRoot ? el.shadowRoot.children : el.children);
  let paneSheet = null;

  const each = (root, visit) => page.walk(root, visit);  // every element, inside shadow roots too
  const find = (cls) => {
    const found = [];
    each(document.body, (el) => { if (el.classList && el.classList.contains(cls)) found.push(el); });
    return found;
  };
  // Inside a tab that is not shown (page.js marks the panels).
  const inHiddenPanel = (el) => {
    for (let node = el; node; node = parent(node)) {
      if (node.getAttribute && node.getAttribute("role") === "tabpanel" && node.getAttribute("aria-hidden") === "true") {
        return true;
      }
    }
    return false;
  };
  // The toggle, found again only when the page was drawn anew: a scan outside present mode costs no walk.
  let toggleHost = null;
  const pressed = () => {
    if (!toggleHost || !toggleHost.isConnected) toggleHost = find(present.toggleClass)[0] || null;
    const host = toggleHost;
    const button = host && host.shadowRoot && host.shadowRoot.querySelector(".bk-btn");
    return { host, button, on: !!(button && button.classList.contains("bk-active")) };
  };

  // What to hide: every child of a part on the way to a kept part, that is neither kept nor on
  // such a way. A tab with no kept part of its own is kept whole.
  const wanted = () => {
    const all = find(present.keepClass).filter((el) => !inHiddenPanel(el));
    let keep = all.filter((el) => !el.classList.contains(present.toggleClass));
    if (!keep.length) {
      each(document.body, (el) => {
        if (!keep.length && el.getAttribute && el.getAttribute("role") === "tabpanel"
            && el.getAttribute("aria-hidden") !== "true") keep = [el];
      });
    }
    keep = [...keep, ...all.filter((el) => el.classList.contains(present.toggleClass))];
    const kept = new Set(keep);
    const way = new Set();
    for (const el of keep) for (let node = el; node && node !== document.body; node = parent(node)) way.add(node);
    const hide = new Set();
    for (const el of [document.body, ...way]) {
      if (kept.has(el)) continue;
      for (const child of children(el)) {
        if (!skip.has(child.tagName) && !way.has(child)) hide.add(child);
      }
    }
    return hide;
  };

  const sheets = (add) => {
    if (!paneSheet) {
      paneSheet = new CSSStyleSheet();
      paneSheet.replaceSync(present.css);
    }
    each(document.body, (el) => {
      const root = el.shadowRoot;
      if (!root) return;
      const has = root.adoptedStyleSheets.includes(paneSheet);
      if (add && !has) root.adoptedStyleSheets = [...root.adoptedStyleSheets, paneSheet];
      if (!add && has) root.adoptedStyleSheets = root.adoptedStyleSheets.filter((s) => s !== paneSheet);
    });
  };

  // Hide and show only what differs, so a scan that changes nothing changes no style (page.js
  // follows style changes: anything else would loop).
  const apply = () => {
    const on = pressed().on;
    const root = document.documentElement;
    const hide = on ? wanted() : new Set();
    for (const el of present.hidden) {
      if (!hide.has(el)) {
        el.style.removeProperty("display");
        present.hidden.delete(el);
      }
    }
    for (const el of hide) {
      if (!present.hidden.has(el) && el.style.display !== "none") {
        el.style.setProperty("display", "none", "important");
        present.hidden.add(el);
      }
    }
    if (on !== present.active) {
      present.active = on;
      root.classList.toggle(present.onClass, on);
      if (on) window.scrollTo(0, 0);
      if (!on && document.fullscreenElement && present.fullscreen) document.exitFullscreen().catch(() => {});
      if (!on) present.fullscreen = false;
    }
    if (on || present.sheeted) sheets(on);
    present.sheeted = on;
  };
  (page.hooks || (page.hooks = [])).push(apply);

  // A press of the toggle is the reader's gesture: the only moment a page may ask for full screen.
  document.addEventListener("click", (event) => {
    const state = pressed();
    if (!state.host || !event.composedPath().includes(state.host)) return;
    if (!state.on && document.documentElement.requestFullscreen && document.fullscreenEnabled) {
      present.fullscreen = true;
      document.documentElement.requestFullscreen().catch(() => { present.fullscreen = false; });
    }
  }, true);
  const leave = () => {
    const state = pressed();
    if (state.on && state.button) state.button.click();
  };
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && present.active) {
      event.preventDefault();
      leave();
    }
  });
  // Esc in full screen is the browser's: it leaves full screen, and so present mode.
  document.addEventListener("fullscreenchange", () => {
    if (!document.fullscreenElement && present.fullscreen) {
      present.fullscreen = false;
      leave();
    }
  });
}
if (page.schedule) page.schedule();
