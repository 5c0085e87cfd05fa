"""The caption: what just happened, and what the next click will do.

The words come from the model (``happened``, ``next_words``, ``limit_words``);
this view only lays them out, escaped, with the phase of the current block.
"""

import panel as pn
import param

from . import theme
from .model import LABELS, Model

PHASES = ("draft", "verify", "commit")


class Caption(pn.viewable.Viewer):
    """Phase pills, the last event, the next step, the limit message and any notice."""

    model = param.ClassSelector(class_=Model)

    def __init__(self, **params):
        super().__init__(**params)
        self.text = pn.pane.HTML("", stylesheets=[theme.CSS], sizing_mode="stretch_width", margin=0)
        self.notice_pane = pn.pane.HTML("", stylesheets=[theme.CSS], sizing_mode="stretch_width",
                                    margin=(8, 0, 0, 0), visible=False)
        self._layout = pn.Column(self.text, self.notice_pane, sizing_mode="stretch_width",
                                 stylesheets=[theme.CAPTION_CARD], margin=(6, 0))
        self.model.param.watch(self._sync, ["session", "happened", "notice"])
        self._sync()

    def _phases(self):
        block, phase = self.model.phase_label()
        if phase == "done":
            return '<div class="phases"><span class="phase done">Finished: the output is full</span></div>'
        pills = [f'<span class="muted" style="align-self:center">Block {block}:</span>']
        reached = PHASES.index(phase)
        for i, name in enumerate(PHASES):
            state = "now" if i == reached else ("done" if i < reached else "")
            mark = "✓ " if i < reached else ""
            aria = ' aria-current="step"' if i == reached else ""
            pills.append(f'<span class="phase {state}"{aria}>{mark}{i + 1}. {LABELS[name]}</span>')
        return '<div class="phases">' + "".join(pills) + "</div>"

    def _sync(self, *events):
        m = self.model
        html = self._phases()
        html += '<div class="caption" role="status" aria-live="polite">'
        html += f'<div class="happened">{theme.esc(m.happened)}</div>'
        upcoming = m.next_words()
        if upcoming:
            label = LABELS[m.session.next_action]
            rest = upcoming[len(label):] if upcoming.startswith(label) else " " + upcoming
            html += f'<div class="next">Next: <b>{theme.esc(label)}</b>{theme.esc(rest)}</div>'
        html += "</div>"
        limit = m.limit_words()
        if limit:
            html += f'<div class="limit" role="note">{theme.esc(limit)}</div>'
        self.text.object = html
        self.notice_pane.object = f'<div class="notice" role="alert">{theme.esc(m.notice)}</div>' if m.notice else ""
        self.notice_pane.visible = bool(m.notice)

    def __panel__(self):
        return self._layout
