"""Work counters: algorithmic counts over the finished blocks, not measured time.

Every figure is a field of ``core.Counters``; "ordinary decoding" is
``Counters.ordinary_passes`` (one target pass per committed token). The
headline compares target passes; the details say where the draft's work went.
"""

import panel as pn
import param

from core.display import dec, frac

from . import theme
from .model import Model

# (field, label, what it counts)
DETAILS = (
    ("draft_steps", "draft steps", "tokens the draft model generated"),
    ("accepted", "accepted", "proposals the target kept"),
    ("rejected", "rejected", "proposals the target replaced"),
    ("discarded", "discarded", "proposals thrown away after a rejection"),
    ("corrections", "corrections", "tokens drawn from the residual"),
    ("bonus", "bonus tokens", "extra target tokens after a full acceptance"),
    ("committed", "committed", "tokens in the output"),
)
EARLY = ("early_stops", "early stops", "blocks whose drafting dynamic lookahead cut short")


def _plural(n, one, many):
    return one if n == 1 else many


class Counters(pn.viewable.Viewer):
    """Target passes against ordinary decoding, then the detailed counts."""

    model = param.ClassSelector(class_=Model)

    def __init__(self, **params):
        super().__init__(**params)
        self.html = pn.pane.HTML("", stylesheets=[theme.CSS], sizing_mode="stretch_width", margin=0)
        self._layout = pn.Column(self.html, sizing_mode="stretch_width", stylesheets=[theme.CARD], margin=(6, 0))
        self.model.param.watch(self._sync, ["session", "hidden"])
        self._sync()

    def _sync(self, *events):
        c = self.model.session.counters
        per_pass = c.tokens_per_pass
        per_pass_text = "—" if per_pass is None else (
            dec(per_pass) if per_pass.denominator == 1 else f"{dec(per_pass)} <span class='muted small'>"
                                                             f"= {frac(per_pass)}</span>")
        headline = (
            '<div class="counters headline">'
            f'<div class="counter key" title="one Verify = one pass of the target over the whole block">'
            f'<div class="n">{c.target_passes}</div><div class="what">target '
            f'{_plural(c.target_passes, "pass", "passes")} used here</div></div>'
            f'<div class="counter" title="one target pass per token">'
            f'<div class="n">{c.ordinary_passes}</div><div class="what">target '
            f'{_plural(c.ordinary_passes, "pass", "passes")} ordinary decoding would need</div></div>'
            f'<div class="counter" title="committed tokens divided by target passes">'
            f'<div class="n">{per_pass_text}</div><div class="what">tokens per target pass</div></div>'
            '</div>'
        )
        details = "".join(
            f'<div class="counter sm" title="{theme.esc(what)}"><div class="n">{getattr(c, name)}</div>'
            f'<div class="what">{theme.esc(label)}</div></div>'
            for name, label, what in DETAILS + ((EARLY,) if self.model.session.config.lookahead is not None else ())
        )
        if c.committed:
            compare = (f'<p class="compare">Ordinary decoding needs one target pass per token: '
                       f'<b>{c.ordinary_passes}</b> for these {c.committed} '
                       f'{_plural(c.committed, "token", "tokens")}. This run used <b>{c.target_passes}</b>, '
                       f'plus {c.draft_steps} cheap draft {_plural(c.draft_steps, "step", "steps")}.</p>')
        else:
            compare = '<p class="compare muted">Nothing is committed yet.</p>'
        if self.model.session.pending is not None:
            compare += '<p class="muted small">The current block is counted once it is committed.</p>'
        self.html.object = (
            '<div class="section-title"><h2>Work counters</h2></div>'
            '<p class="muted small">Algorithmic counts for the finished blocks, not measured time: a real '
            'speedup also depends on what a draft step and a target pass cost.</p>'
            f'{headline}<div class="counters details">{details}</div>{compare}'
        )
        self._layout.visible = "counters" not in self.model.hidden

    def __panel__(self):
        return self._layout
