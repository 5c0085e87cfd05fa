"""The block history: one line per finished block; click one to inspect it."""

import panel as pn
import param

from . import theme
from .model import Model, interesting_item, tokens

# Panel's button.css styles `:host(.solid) .bk-btn.bk-btn-default`; match it.
HISTORY_BUTTON = f"""
:host(.solid) .bk-btn.bk-btn-default {{ text-align: left; white-space: normal; font-weight: 400; line-height: 1.35;
  padding: 7px 10px; border-radius: 8px; border: 1px solid {theme.LINE}; background: #fff; color: {theme.INK};
  width: 100%; font-size: 0.88rem; }}
:host(.solid) .bk-btn.bk-btn-default:hover {{ background: #f2f6fb; border-color: #b8c7d9; }}
.bk-btn:focus-visible {{ outline: 3px solid #f0b400; outline-offset: 2px; }}
"""
SELECTED = f":host(.solid) .bk-btn.bk-btn-default {{ border: 2px solid {theme.ACCENT}; background: #f2f7fd; }}"


def summary(block):
    """One line: what the block drafted and what it committed."""
    parts = [f"Block {block.index + 1}: drafted {tokens(p.token for p in block.proposals)}"]
    accepted = block.count("accepted")
    outcome = [f"{accepted} accepted"]
    rejected = [p for p in block.proposals if p.status == "rejected"]
    if rejected:
        outcome.append(f"{rejected[0].token} rejected → {block.correction.token}")
    if block.count("discarded"):
        outcome.append(f"{block.count('discarded')} discarded")
    if block.bonus is not None:
        outcome.append(f"bonus {block.bonus.token}")
    parts.append(", ".join(outcome))
    parts.append(f"committed {tokens(block.committed)}")
    return " · ".join(parts)


class History(pn.viewable.Viewer):
    """Finished blocks as buttons; a click opens the block in the inspector."""

    model = param.ClassSelector(class_=Model)

    def __init__(self, **params):
        super().__init__(**params)
        self._head = pn.pane.HTML(
            '<div class="section-title"><h2>Block history</h2></div>',
            stylesheets=[theme.CSS], sizing_mode="stretch_width", margin=0,
        )
        self._empty = pn.pane.HTML('<p class="empty-note">No finished block yet.</p>', stylesheets=[theme.CSS],
                                   sizing_mode="stretch_width", margin=0)
        self.lines = pn.Column(sizing_mode="stretch_width", margin=0)
        self._layout = pn.Column(self._head, self.lines, sizing_mode="stretch_width",
                                 stylesheets=[theme.CARD], margin=(6, 0))
        self._cache = {}
        self.model.param.watch(self._sync, ["session", "focus", "hidden"])
        self._sync()

    def _line(self, block):
        button = pn.widgets.Button(label=summary(block), stylesheets=[HISTORY_BUTTON], sizing_mode="stretch_width",
                                   description="Open this block in the inspector", margin=(3, 0))
        button.on_click(lambda event: self.model.inspect((block.index, interesting_item(block))))
        return button

    def _sync(self, *events):
        m = self.model
        focused = m.focus[0] if m.focus else None
        # Finished blocks are frozen records: keep each one's button while the block stays.
        cache = {}
        lines = []
        for block in m.session.blocks:
            old = self._cache.get(block.index)
            button = old[1] if old is not None and old[0] is block else self._line(block)
            cache[block.index] = (block, button)
            sheets = [HISTORY_BUTTON] + ([SELECTED] if block.index == focused else [])
            if len(button.stylesheets) != len(sheets):
                button.stylesheets = sheets
            lines.append(button)
        self._cache = cache
        # An empty Column would draw a Bokeh "empty layout" warning; show the note instead.
        self.lines.objects = lines or [self._empty]
        self._layout.visible = "history" not in m.hidden

    def __panel__(self):
        return self._layout
