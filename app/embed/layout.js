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
// page; with other Bokeh internals than expected it leaves everything as is.
const bokeh = window.Bokeh;
const batch = window.specstepLayoutBatch || (window.specstepLayoutBatch = { installed: false, layouts: 0, patches: 0, gathered: 0 });

if (!batch.installed && bokeh && bokeh.documents && bokeh.documents.length && bokeh.index) {
  const own = (object, name) => Object.prototype.hasOwnProperty.call(object, name);
  // The base layout view: the most basic class of a root view that owns the layout methods.
  const root = Object.values(bokeh.index)[0];
  let base = null;
  for (let proto = root && Object.getPrototypeOf(root); proto; proto = Object.getPrototypeOf(proto)) {
    if (own(proto, "invalidate_layout") && own(proto, "update_layout") && own(proto, "compute_layout")) base = proto;
  }
  const documentProto = Object.getPrototypeOf(bokeh.documents[0]);
  if (base !== null && typeof documentProto.apply_json_patch === "function") {
    batch.installed = true;
    const LayoutView = base.constructor;
    const layOut = base.invalidate_layout;
    const applyPatch = documentProto.apply_json_patch;
    const waiting = new Set();
    let depth = 0;

    base.invalidate_layout = function () {
      if (depth === 0) {
        batch.layouts += 1;
        return layOut.call(this);
      }
      // The same climb as Bokeh's (parents' own overrides included); only the root waits.
      if (this.parent instanceof LayoutView) return this.parent.invalidate_layout();
      batch.gathered += 1;
      waiting.add(this);
    };

    documentProto.apply_json_patch = function (...args) {
      depth += 1;
      try {
        return applyPatch.apply(this, args);
      } finally {
        depth -= 1;
        if (depth === 0) {
          batch.patches += 1;
          const roots = [...waiting];
          waiting.clear();
          for (const view of roots) {
            batch.layouts += 1;
            try {
              layOut.call(view);
            } catch (error) {
              console.error("[specstep] layout after a patch failed:", error);
            }
          }
        }
      }
    };
  }
}
