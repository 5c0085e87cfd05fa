// The live preview (issue 27): before Python is ready, the step tab's buttons, its timeline and
// Play answer at once with changes the build recorded (sitebuild/record.py: the worker's own
// patches, made by the app's Python at build time). This code computes nothing: it only picks
// recorded patches and applies them to the pre-rendered document as the loader applies the
// worker's. When Python is ready, the worker opens on the moment reached (steps=N in the URL, and
// the last click replayed before its first render: app/step/replay.py), so the screen does not move.
// Anything else the reader changes early (seed, width, another tab...) says "starting Python…" where
// it was used, and is made again in the worker's document once it is drawn.
//
// Inserted into loader.js by the build (at its LIVE marker); the loader calls specstepLive(env) with
// env = {file, words: {wait}, mark(name), post(message)} once the pre-rendered document is drawn.
function specstepLive(env) {
  const live = {
    data: null, doc: null, on: false, applying: 0,
    moment: 0, settle: null, replay: [], seq: 0, log: [], early: [], byId: {},
  };

  const patches = (index) => live.data.patches[index];
  function apply(index) {
    live.applying += 1;
    try {
      for (const patch of patches(index)) live.doc.apply_json_patch(patch, new Map());
    } finally {
      live.applying -= 1;
    }
  }

  // A moment's own screen to another's, through the timeline's recorded steps (forward or back).
  function chain(from, to) {
    const moments = live.data.moments;
    for (let n = from; n < to; n++) apply(moments[n].step[0]);
    for (let n = from; n > to; n--) apply(moments[n].back[0]);
  }

  // The sentence a button said beyond its moment's own goes before the next click, as the timeline's click would.
  function settleFirst() {
    if (live.settle !== null) apply(live.settle);
    live.settle = null;
  }

  function changed(click) {
    live.seq += 1;
    live.log.push({ seq: live.seq, click });
    try {
      const url = new URL(window.location.href);
      if (live.moment > 0) url.searchParams.set("steps", String(live.moment));
      else url.searchParams.delete("steps");
      window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
    } catch (error) { /* a sandboxed frame: the worker still gets the replay */ }
    env.mark("live-click");
    env.post({ type: "preview", location: JSON.stringify(window.location), replay: live.replay, seq: live.seq });
  }

  function press(name) {
    const entry = live.data.moments[live.moment][name];
    if (!entry) return;
    settleFirst();
    const [patch, to, settle, decorate] = entry;
    const from = live.moment;
    if (patch !== null) apply(patch);
    else { chain(from, to); apply(decorate); }
    live.moment = to;
    live.settle = settle;
    live.replay = settle === null ? [["moment", to]] : [["moment", from], name];
    changed(name);
  }

  function jump(to) {
    if (!Number.isInteger(to) || to < 0 || to > live.data.last) return;
    settleFirst();
    chain(live.moment, to);
    live.moment = to;
    live.replay = [["moment", to]];
    changed(["moment", to]);
  }

  // ----- what needs Python: said where it was used, made again once Python is ready

  let lastTarget = null;
  const remember = (event) => { lastTarget = event.composedPath()[0] || null; };
  for (const type of ["pointerdown", "keydown", "focusin"]) document.addEventListener(type, remember, true);

  let bubble = null;
  function wait() {
    if (!bubble) {
      bubble = document.createElement("div");
      bubble.className = "specstep-live-wait";
      bubble.setAttribute("role", "status");
      bubble.setAttribute("aria-live", "polite");
      document.body.appendChild(bubble);
    }
    bubble.textContent = env.words.wait;
    const rect = lastTarget && lastTarget.getBoundingClientRect ? lastTarget.getBoundingClientRect() : null;
    const top = rect && rect.height ? rect.bottom + window.scrollY + 4 : window.scrollY + 8;
    const left = rect && rect.width ? rect.left + window.scrollX : window.scrollX + 8;
    bubble.style.top = `${Math.round(top)}px`;
    bubble.style.left = `${Math.round(Math.max(4, Math.min(left, document.documentElement.clientWidth - 260)))}px`;
  }

  // Where a model sits in its document: root index, then (property, index) steps. The worker's
  // document is built by the same code, so the same path leads to the same control there.
  function children(model) {
    const out = [];
    for (const prop of model) {
      const value = prop.get_value();
      const list = Array.isArray(value) ? value : [value];
      list.forEach((item, i) => {
        if (item && typeof item === "object" && item.properties && item.id) out.push([prop.attr, i, item]);
      });
    }
    return out;
  }
  function pathOf(doc, target) {
    const seen = new Set();
    const search = (model, path) => {
      if (model === target) return path;
      if (seen.has(model)) return null;
      seen.add(model);
      for (const [attr, i, child] of children(model)) {
        const found = search(child, [...path, [attr, i]]);
        if (found) return found;
      }
      return null;
    };
    const roots = doc.roots();
    for (let r = 0; r < roots.length; r++) {
      const found = search(roots[r], [r]);
      if (found) return found;
    }
    return null;
  }
  function follow(doc, path, type) {
    if (!path) return null;
    let model = doc.roots()[path[0]];
    for (const [attr, i] of path.slice(1)) {
      if (!model) return null;
      const value = model.property(attr) ? model.property(attr).get_value() : null;
      model = Array.isArray(value) ? value[i] : (i === 0 ? value : null);
    }
    return model && model.type === type ? model : null;
  }

  function early(event, origin) {
    const path = pathOf(live.doc, origin);
    if (!path) return;
    const click = event.kind === "MessageSent";
    if (!click) live.early = live.early.filter((e) => !(e.attr === event.attr && String(e.path) === String(path)));
    live.early.push({ path, type: origin.type, click, attr: event.attr, value: event.value });
    wait();
  }

  function onChange(event) {
    if (live.applying || !live.on) return;
    const origin = event.kind === "MessageSent" ? (event.msg_data && event.msg_data.origin) : event.model;
    if (!origin) return;
    // A button's help shown on hover (BokehJS sets its Tooltip's visible): the page's own, nothing for Python.
    if (origin.type === "Tooltip") return;
    const name = live.byId[origin.id];
    if (name === "play") return; // Play is the page's own timer (its label, its click)
    if (name === "speed") { // read by Play in the page; Python gets it once ready, with nothing to say now
      live.early = live.early.filter((e) => !e.quiet);
      live.early.push({ path: pathOf(live.doc, origin), type: origin.type, attr: event.attr, value: event.value,
        quiet: true });
      return;
    }
    const waiting = live.early.some((e) => !e.quiet);
    if (!waiting && name && name !== "moment" && event.kind === "MessageSent") {
      press(name);
      return;
    }
    if (name === "moment" && event.attr === "value") {
      // page.js writes K1|K2|KEY@n (app/parts.py Opener): this click is the last key.
      const value = String(event.value);
      const key = value.slice(0, value.lastIndexOf("@")).split("|").pop();
      if (!waiting && key.startsWith("moment:")) {
        jump(Number(key.slice("moment:".length)));
        return;
      }
      // A chip or call clicked early: clicked again on the worker's page, through page.js, whose
      // count for the new document's input starts afresh (its value here counts the preview's clicks).
      live.early.push({ open: key });
      wait();
      return;
    }
    early(event, origin); // from here on, everything waits for Python, in the reader's order
  }

  // ----- takeover

  function deepFind(root, test) {
    for (const el of root.querySelectorAll("*")) {
      if (test(el)) return el;
      if (el.shadowRoot) {
        const inner = deepFind(el.shadowRoot, test);
        if (inner) return inner;
      }
    }
    return null;
  }
  function domClick(click) {
    const host = Array.isArray(click)
      ? deepFind(document, (el) => el.getAttribute && el.getAttribute("data-sp-open") === `moment:${click[1]}`)
      : deepFind(document, (el) => el.classList && el.classList.contains(`sp-action-${click}`));
    const button = host && !Array.isArray(click) && host.shadowRoot ? host.shadowRoot.querySelector("button") : host;
    if (button) button.click();
  }

  // The control that has the keyboard focus (a step button, a moment), named so the worker's own can take it.
  let focused = null;
  function focusedControl() {
    let el = document.activeElement;
    while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
    if (!el || el === document.body) return null;
    if (el.getAttribute && el.getAttribute("data-sp-open")) return ["moment", el.getAttribute("data-sp-open")];
    const host = el.getRootNode && el.getRootNode().host;
    const action = host && Array.from(host.classList).find((name) => name.startsWith("sp-action-"));
    return action ? ["action", action] : null;
  }
  function refocus(control) {
    const el = control[0] === "moment"
      ? deepFind(document, (e) => e.getAttribute && e.getAttribute("data-sp-open") === control[1])
      : deepFind(document, (e) => e.classList && e.classList.contains(control[1]));
    const target = el && el.shadowRoot ? el.shadowRoot.querySelector("button") : el;
    if (target) target.focus({ preventScroll: true });
  }

  // Nothing the reader did has changed the pre-rendered document (the worker may then keep it): every
  // recorded patch is applied by a click (press, jump), and each click is counted by changed().
  live.untouched = () => live.seq === 0 && live.early.length === 0;

  live.stop = () => {
    live.on = false;
    focused = focusedControl();
  };

  // The worker's document is drawn and linked: clicks it had not seen yet, then the early changes, go to Python.
  live.takeover = (doc, renderedSeq) => {
    live.on = false;
    const seen = Number.isInteger(renderedSeq) ? renderedSeq : 0;
    for (const entry of live.log) if (entry.seq > seen) domClick(entry.click);
    for (const change of live.early) {
      if (change.open) {
        const button = deepFind(document, (el) => el.getAttribute && el.getAttribute("data-sp-open") === change.open);
        if (button) button.click();
        continue;
      }
      const model = follow(doc, change.path, change.type);
      if (!model) continue;
      if (change.click) {
        const view = window.Bokeh && Bokeh.index && Bokeh.index.find_one_by_id(model.id);
        if (view && view.button_el) view.button_el.click();
      } else {
        try { model.setv({ [change.attr]: change.value }); } catch (error) { /* a value of another shape */ }
      }
    }
    live.early = [];
    if (focused) requestAnimationFrame(() => refocus(focused));
    if (bubble) bubble.remove();
    bubble = null;
  };

  live.start = async (doc) => {
    const response = await fetch(env.file);
    if (!response.ok) throw new Error(`${env.file}: HTTP ${response.status}`);
    live.data = await response.json();
    live.doc = doc;
    for (const [name, id] of Object.entries(live.data.controls)) live.byId[id] = name;
    live.settle = live.data.start;
    live.moment = live.data.begin;
    doc.on_change(onChange, false);
    live.on = true;
    env.mark("live");
    return live;
  };
  return live;
}
