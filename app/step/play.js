// Play: press Next step by itself every `intervals[speed.active]` ms until the end; any other
// click pauses. Runs as the Play button's CustomJS (app/step/timeline_view.py); args: `play` (its
// model, whose label says Play or Pause), `speed` (the speed choice), `intervals` (ms per speed),
// `labels` ({play, pause}), `step_class` (the CSS class of the Next step button). Each step is a
// real click of Next step, so it is one patch, under `panel serve` and in the Pyodide worker alike.
const state = window.specstepPlay || (window.specstepPlay = { timer: null, clicking: false, listening: false });

const findNext = () => {
  let found = null;
  const walk = (root) => {
    for (const el of root.children) {
      if (found) return;
      if (el.classList.contains(step_class) && el.shadowRoot) {
        const inner = el.shadowRoot.querySelector("button");
        if (inner && el.checkVisibility()) found = inner;
      }
      if (el.shadowRoot) walk(el.shadowRoot);
      walk(el);
    }
  };
  walk(document.body);
  return found;
};

const stop = () => {
  clearTimeout(state.timer);
  state.timer = null;
  if (state.play) state.play.label = state.labels.play;
};

const tick = () => {
  const next = findNext();
  if (!next || next.disabled) {
    stop();
    return;
  }
  state.clicking = true;
  next.click();
  state.clicking = false;
  state.timer = setTimeout(tick, state.intervals[state.speed.active] || state.intervals[1]);
};

if (state.timer) {
  stop();
} else {
  Object.assign(state, { play, speed, intervals, labels });
  play.label = labels.pause;
  state.timer = -1;  // playing; the first step is now
  tick();
}

if (!state.listening) {
  state.listening = true;
  const ours = (path, cls) => path.some((el) => el.classList && el.classList.contains(cls));
  document.addEventListener("click", (event) => {
    if (state.timer === null || state.clicking) return;
    const path = event.composedPath();
    if (ours(path, "sp-play") || ours(path, "sp-play-speed")) return;  // Pause itself; a new speed plays on
    stop();
  }, true);
}
