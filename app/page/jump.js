// Scroll the inspector into view just below the phone's sticky bar. Runs in the page as a
// Panel js_on_click callback; `target` is the inspector's layout, `source` this button, whose
// parent view is the sticky bar. (The bar is not passed in: Panel's callback registry keeps the
// args for as long as the button lives, and the bar holds the button, so no session was freed.)
const view = Bokeh.index.find_one(target);
const button = Bokeh.index.find_one(source);
const barView = button ? button.parent : null;
if (view) {
  const covered = barView && barView.el ? barView.el.getBoundingClientRect().height : 0;
  const top = view.el.getBoundingClientRect().top + window.scrollY - covered - 8;
  window.scrollTo({ top, behavior: "smooth" });
}
