"""Two lanes on one clock: the speculative trace beside ordinary decoding of the same target.

Issue 26, item 3. One column per target pass, up to the output limit (ordinary
decoding needs one pass per token, so that many columns hold both lanes). The
speculative lane fills one column per committed block, with the tokens that
block committed; ordinary decoding fills one column per token, as many as the
speculative lane has committed. So each lane's length is a counter of the
"Work counters" card: target passes used here, and target passes ordinary
decoding would need. A line across both lanes marks the clock, the passes the
speculative lane has made: where it crosses the ordinary lane, ordinary
decoding has that many tokens.

Every number is a ``core.ordinary.lanes`` point of the trace's timeline
(``core.timeline.Timeline``), run once per scenario and kept; a click picks the
points up to the moment on screen and sets one text (``LanesView``). The
ordinary lane's letters are ``core.ordinary.OrdinaryTrace``'s: a different
sample of the same distribution, not the same trace, and the pane says so.
"""

from dataclasses import dataclass
from functools import lru_cache

import panel as pn
import param

from core.ordinary import lanes
from core.timeline import Timeline

from .. import theme
from ..i18n import t
from ..parts import html, update_changed
from . import words
from .model import StepModel

LANES = theme.stylesheet("lanes")


@lru_cache(maxsize=16)
def lanes_of(config):
    """Both lanes of ``config``'s whole trace (a scenario's trace is fixed by its config)."""
    return lanes(Timeline.of(config))


@dataclass(frozen=True)
class LaneState:
    """What the lanes show at one moment: ``core.ordinary.Point``s and the letters beside them.

    ``speculative``: one point per committed block (its passes and tokens so far);
    ``ordinary``: one point per token of ordinary decoding, as many as the speculative
    lane has committed; ``gained``: each committed block's tokens; ``plain``: ordinary
    decoding's tokens; ``pending``: a block verified but not committed (its pass is made,
    its tokens join the output at Commit); ``limit``: the output limit, the columns.
    """

    limit: int
    speculative: tuple
    ordinary: tuple
    gained: tuple
    plain: tuple
    pending: bool

    @property
    def passes(self):
        """Target passes of the speculative lane (the counters' "used here")."""
        return self.speculative[-1].passes if self.speculative else 0

    @property
    def tokens(self):
        """Tokens the speculative lane has committed (the counters' "committed")."""
        return self.speculative[-1].tokens if self.speculative else 0

    @property
    def ordinary_passes(self):
        """Target passes ordinary decoding needs for as many tokens (the counters' "would need")."""
        return self.ordinary[-1].passes if self.ordinary else 0

    @property
    def ordinary_tokens(self):
        return self.ordinary[-1].tokens if self.ordinary else 0


def state(session):
    """The lanes at ``session``'s moment: the committed blocks' points and as many ordinary tokens."""
    whole = lanes_of(session.config)
    done = len(session.blocks)
    speculative = whole.speculative[1:done + 1]
    tokens = speculative[-1].tokens if speculative else 0
    pending = session.pending is not None and session.pending.verified
    return LaneState(session.config.max_tokens, speculative, whole.ordinary[1:tokens + 1],
                     tuple(b.committed for b in session.blocks), whole.ordinary_trace.output[:tokens], pending)


def summary(lane):
    """The lanes in one sentence: the text alternative of the drawing, shown under it."""
    return words.lanes_summary(lane)


def _cells(filled, limit, pending=False):
    empty = ['<div class="cell empty"></div>'] * (limit - len(filled))
    if pending and empty:
        empty[0] = f'<div class="cell pending" title="{theme.esc(t("step.lanes.pending_tip"))}"></div>'
    return "".join(filled) + "".join(empty)


def lanes_html(lane):
    """The two lanes as a grid (hidden from screen readers: ``summary`` says the same), then the sentences."""
    n = lane.limit
    spec = [f'<div class="cell spec"><span class="gain">+{len(tokens)}</span>'
            f'<span class="toks">{"".join(theme.chip(x, "sm") for x in tokens)}</span></div>'
            for tokens in lane.gained]
    plain = [f'<div class="cell plain">{theme.chip(x, "sm")}</div>' for x in lane.plain]
    ticks = "".join(f'<div class="tick{" now" if i == lane.passes else ""}">{i}</div>' for i in range(1, n + 1))
    clock = (f'<div class="clock" style="grid-column: 2 / span {lane.passes}"></div>' if lane.passes else "")
    grid = (f'<div class="lanes" style="grid-template-columns: auto repeat({n}, minmax(0, 1fr)) auto" '
            'aria-hidden="true">'
            f'<div class="name spec">{theme.esc(t("step.lanes.speculative"))}</div>'
            f'{_cells(spec, n, lane.pending)}'
            f'<div class="total">{theme.esc(words.count(lane.tokens, "token", digits=True))}</div>'
            f'<div class="name">{theme.esc(t("step.lanes.ordinary"))}</div>{_cells(plain, n)}'
            f'<div class="total">{theme.esc(words.count(lane.ordinary_tokens, "token", digits=True))}</div>'
            f'<div class="axis">{theme.esc(t("step.lanes.axis"))}</div>{ticks}<div></div>{clock}</div>')
    return (f'<div class="section-title"><h2>{theme.esc(t("step.lanes.title"))}</h2>'
            f'<span class="muted">{theme.esc(t("step.lanes.lead"))}</span></div>{grid}'
            f'<p class="lanes-summary">{theme.esc(summary(lane))}</p>'
            f'<p class="muted small">{theme.esc(t("step.lanes.same_distribution"))}</p>')


class LanesView(pn.viewable.Viewer):
    """The speculative lane and ordinary decoding on one axis of target passes; one text change per click."""

    model = param.ClassSelector(class_=StepModel)

    def __init__(self, **params):
        super().__init__(**params)
        m = self.model
        self.pane = html(lanes_html(state(m.session)), theme.CHIPS, LANES)
        self._layout = pn.Column(self.pane, sizing_mode="stretch_width", stylesheets=[theme.CARD], margin=(6, 0),
                                 css_classes=["sp-lanes-card"])

    @param.depends("model.session", watch=True)
    def _render(self):
        update_changed(self.pane, object=lanes_html(state(self.model.session)))

    def __panel__(self):
        return self._layout
