// One layout per patch. BokehJS lays the whole page out again, synchronously,
// for every change that may move something: a button's label, disabled state or
// colour, a pane shown or hidden. One click of "Next step" changes a dozen such
// properties in a single patch from Python, and each full layout re-reads the
// charts' CSS (a forced style recalculation): measured, 2-7 layouts of ~60 ms
// each per click. While a patch is applied, this gathers the layout requests
// and lays out each root once, right after the patch, in the same task (so
// nothing is drawn in between). `window.specstepLayoutBatch` counts layouts,
// patches and gathered requests (the real-page tests read them). Runs as a
// Bokeh CustomJS on "document_ready" (see page.py) and installs itself once per
// page. It wraps BokehJS internals, so, like app/fast_import.py, it applies only
// to the BokehJS it was written for (FOR_BOKEH) with the methods it expects;
// otherwise it leaves everything as is and says so once in the console.
const FOR_BOKEH = "3.9.2";
const bokeh = window.Bokeh;
const batch = window.specstepLayoutBatch || (window.specstepLayoutBatch = { installed: false, layouts: 0, patches: 0, gathered: 0 });
const leftOut = (why) => {
  if (batch.leftOut) return;
  batch.leftOut = why;
  console.info(`[specstep] layout.js left out (${why}): BokehJS lays the page out as it does`);
};

if (!batch.installed && bokeh && bokeh.version !== FOR_BOKEH) {
  leftOut(`it was written for BokehJS ${FOR_BOKEH}, this is ${bokeh.version}`);
} else if (!batch.installed && bokeh && bokeh.documents && bokeh.documents.length && bokeh.index) {
  const own = (object, name) => Object.prototype.hasOwnProperty.call(object, name);
  // The base layout view: the most basic class of a root view that owns the layout methods.
  const root = Object.values(bokeh.index)[0];
  let base = null;
  for (let proto = root && Object.getPrototypeOf(root); proto; proto = Object.getPrototypeOf(proto)) {
    if (own(proto, "invalidate_layout") && own(proto, "update_layout") && own(proto, "compute_layout")) base = proto;
  }
  const documentProto = Object.getPrototypeOf(bokeh.documents[0]);
  if (base === null || typeof documentProto.apply_json_patch !== "function") {
    leftOut("its layout view or document has not the methods it was written for");
  } else {
    batch.installed = true;
    const LayoutView = base.constructor;
    const layOut = base.invalidate_layout; // update_layout + compute_layout, from the root
    const compute = base.compute_layout; // measure + place, from the root (a re-rendered button asks this)
    const applyPatch = documentProto.apply_json_patch;
    const laying = new Set(); // roots to lay out after the patch
    const computing = new Set(); // roots to measure and place after the patch
    let depth = 0;

    // Both methods climb to the root as Bokeh's do (parents' own overrides included); only the root waits.
    base.invalidate_layout = function () {
      if (depth === 0) {
        batch.layouts += 1;
        return layOut.call(this);
      }
      if (this.parent instanceof LayoutView) return this.parent.invalidate_layout();
      batch.gathered += 1;
      laying.add(this);
    };
    base.compute_layout = function () {
      if (depth === 0) return compute.call(this);
      if (this.parent instanceof LayoutView) {
        this.parent.compute_layout();
        this._layout_computed = true; // as Bokeh's own compute_layout marks each view it climbs from
        return;
      }
      batch.gathered += 1;
      computing.add(this);
    };

    const flush = () => {
      const roots = [...laying];
      const placed = [...computing].filter((view) => !laying.has(view));
      laying.clear();
      computing.clear();
      for (const [view, method] of [...roots.map((v) => [v, layOut]), ...placed.map((v) => [v, compute])]) {
        batch.layouts += 1;
        try {
          method.call(view);
        } catch (error) {
          console.error("[specstep] layout after a patch failed:", error);
        }
      }
    };

    documentProto.apply_json_patch = function (...args) {
      depth += 1;
      try {
        return applyPatch.apply(this, args);
      } finally {
        depth -= 1;
        if (depth === 0) {
          batch.patches += 1;
          flush();
        }
      }
    };
  }
}
