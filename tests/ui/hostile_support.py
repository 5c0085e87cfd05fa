"""What the browser halves of issue 24's tests share: clicks made in one task, and what they should give.

Used by ``tests/ui/test_hostile_input.py`` (``panel serve``, beside this file) and
``tests/test_hostile_input_real_page.py`` (the built page in real Pyodide). What the page
should end on comes from the model replaying the same events on CPython.
"""

from __future__ import annotations

from app import i18n
from app.step.model import StepModel

# Clicks the buttons named, in order, inside one task (0 ms apart): what a fast reader, a
# double-tap or a slow phone's backlog does. Buttons are found by their text inside
# shadow roots (Bokeh renders every widget in one). Returns the names it did not find.
CLICK_IN_ONE_TASK_JS = """
(names) => {
  const buttons = [];
  const walk = (node) => {
    if (node.nodeType === Node.ELEMENT_NODE && node.tagName === "BUTTON") buttons.push(node);
    if (node.shadowRoot) walk(node.shadowRoot);
    for (const child of node.children || []) walk(child);
  };
  walk(document.body);
  const missing = [];
  for (const name of names) {
    const button = buttons.find((b) => b.textContent.trim() === name && b.getClientRects().length > 0);
    if (button) button.click(); else missing.push(name);
  }
  return missing;
}
"""

# Issue 24 item 3: on the aligned draft at seed 1, Next step, Biased, Next step.
ORDER_QUERY = "?draft=aligned&width=3&seed=1"
ORDER_CLICKS = ("Next step", "Biased", "Next step")


def order_expected() -> str:
    """What the caption says after those three events, replayed in order on the model."""
    m = StepModel(draft="aligned", width=3, seed=1)
    m.act("step")
    m.draft = "biased"
    m.act("step")
    assert m.session.phase == "verify" and len(m.session.blocks) == 0  # biased block 1, drafted
    return m.happened


def seed_kept(seed: int) -> str:
    """The notice after the seed box was emptied."""
    with i18n.use("en"):
        return i18n.t("step.seed.empty", seed=seed)
