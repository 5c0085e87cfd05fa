// Scroll the inspector into view just below the phone's sticky bar. Runs in the page as a
// Panel js_on_click callback; `target` is the inspector's layout, `bar` the sticky bar.
const view = Bokeh.index.find_one(target);
const barView = Bokeh.index.find_one(bar);
if (view) {
  const covered = barView ? barView.el.getBoundingClientRect().height : 0;
  const top = view.el.getBoundingClientRect().top + window.scrollY - covered - 8;
  window.scrollTo({ top, behavior: "smooth" });
}
