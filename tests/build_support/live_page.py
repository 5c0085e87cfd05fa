"""What the real-page tests and bench/bench_build.py read of the live preview (issue 27)."""

# The token strip (the block's chips, app/step/views.py chips_html) and the committed output's strip,
# found across shadow roots: their HTML as drawn.
STRIP_JS = """() => {
  const found = [];
  const find = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.classList.contains('chip-row') || el.classList.contains('strip')) found.push(el.outerHTML);
      if (el.shadowRoot) find(el.shadowRoot);
    }
  };
  find(document);
  return found.join('\\n');
}"""
# Click a button by its accessible name and time it until the recorded change is on screen (next frame).
TIMED_CLICK_JS = """async (name) => {
  const find = (root) => {
    for (const el of root.querySelectorAll('button')) {
      if ((el.getAttribute('aria-label') || el.textContent).trim() === name) return el;
    }
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) { const inner = find(el.shadowRoot); if (inner) return inner; }
    }
    return null;
  };
  const button = find(document);
  const before = performance.getEntriesByName('specstep:live-click').length;
  const started = performance.now();
  button.click();
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const answered = performance.getEntriesByName('specstep:live-click').length > before;
  return answered ? performance.now() - started : null;
}"""
