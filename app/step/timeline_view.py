"""The timeline of "Step through a block": every moment of the trace, Step back and Play.

The trace is fixed by its scenario, so ``core.timeline`` knows every moment
before the reader reaches it: the strip shows them all (each block a group of
three moments: drafted, checked, committed), and a click on one is an index
into the timeline, never a recomputation (``StepModel.jump``). Step back is
the same jump, to the moment before.

Like the token chips (``views.chips_html``) the strip is HTML buttons in one
pane, so a jump restyles it with one text change; their clicks reach the
model through the tab's ``parts.Opener`` (keys ``moment:N``). One button is
a Tab stop (the moment on screen: a roving tabindex), and ``page.js`` moves
along the strip with the arrow keys, Home and End.

Play is a timer in the page (``play.js``) that clicks Next step, so each of
its steps is an ordinary click (one patch) under ``panel serve`` and in the
Pyodide worker alike; it stops at the end and pauses on any other click.
"""

from pathlib import Path

import panel as pn
import param
from bokeh.models import Tooltip

from .. import theme
from ..page import script as page
from ..i18n import t
from ..parts import html, update_changed, wrap
from . import words
from .model import BACK, StepModel

KEY = "moment:"  # an Opener key: moment:N jumps to moment N
TIMELINE = theme.stylesheet("timeline")
PLAY_JS = (Path(__file__).resolve().parent / "play.js").read_text(encoding="utf-8")
SPEEDS = ("slow", "normal", "fast")
INTERVALS = {"slow": 1600, "normal": 900, "fast": 400}  # ms between two steps of Play

# What a moment's button shows, beside its colour: a symbol per kind of moment (never colour alone),
# the output's own marks for how a block ended (words.ORIGIN_MARK).
GLYPHS = {"start": "○", "drafted": "?", "verified.accepted": "✓", "verified.rejected": "✗", "verified.none": "·",
          "committed.bonus": words.ORIGIN_MARK["bonus"], "committed.correction": words.ORIGIN_MARK["correction"],
          "committed.ordinary": words.ORIGIN_MARK["ordinary"], "committed.full": "■"}
AHEAD = "…"  # a moment not reached yet: what it did stays unsaid until the reader gets there


def kind(mark):
    """The CSS class and glyph key of a ``core.timeline.Mark``: what the moment did at a glance."""
    if mark.block is None:
        return "start"
    if mark.reached == "drafted":
        return "drafted"
    if mark.reached == "verified":
        if "rejected" in mark.statuses:
            return "verified.rejected"
        return "verified.accepted" if mark.statuses else "verified.none"
    return f"committed.{mark.ending or 'full'}"


def moment_key(n):
    return f"{KEY}{n}"


def _button(mark, now):
    k = kind(mark)
    here = mark.index == now
    if mark.index > now:
        # Ahead of the screen: its phase, not its outcome, so the strip never answers a question
        # ("will the target keep it?") before Verify does; a jump there shows it.
        css, glyph, name = "tl-step ahead", AHEAD, t("step.timeline.ahead", what=words.mark_name(mark))
    else:
        css = "tl-step " + k.replace(".", " ") + (" now" if here else " past")
        glyph, name = GLYPHS[k], words.mark_words(mark)
    attrs = (f'type="button" data-sp-open="{moment_key(mark.index)}" title="{theme.esc(name)}" '
             f'aria-label="{theme.esc(t("step.timeline.button", n=mark.index, what=words.mark_name(mark)))}" '
             f'tabindex="{0 if here else -1}"' + (' aria-current="step"' if here else ""))
    return f'<button class="{css}" {attrs}>{glyph}</button>'


def timeline_html(timeline, now):
    """Every moment of ``timeline`` as a button, grouped by block, moment ``now`` marked."""
    marks = timeline.marks
    groups = [f'<div class="tl-group start">{_button(marks[0], now)}'
              f'<div class="label">{theme.esc(t("step.timeline.start_label"))}</div></div>']
    for block, first, last in timeline.groups():
        name = t("step.output.block", block=block + 1)
        steps = "".join(_button(marks[i], now) for i in range(first, last + 1))
        groups.append(f'<div class="tl-group" role="group" aria-label="{theme.esc(name)}">'
                      f'<div class="tl-steps">{steps}</div><div class="label">{theme.esc(name)}</div></div>')
    head = (f'<div class="section-title"><h2>{theme.esc(t("step.timeline.title"))}</h2>'
            f'<span class="muted tl-now">{theme.esc(words.moment_now(now, timeline.last))}</span></div>')
    return (head + f'<div class="tl-track" role="toolbar" aria-label="{theme.esc(t("step.timeline.aria"))}">'
            + "".join(groups) + "</div>")


def back_button(model):
    """Step back, for the action row (its key is B: ``app/embed/words.SHORTCUTS``); disabled at moment 0."""
    button = pn.widgets.Button(
        label=words.label(BACK), description=Tooltip(content=t("step.tooltip.back"), position="bottom"),
        stylesheets=[theme.BUTTON], css_classes=[page.action_class(BACK)], margin=(4, 4),
        disabled=not model.can(BACK))
    button.on_click(lambda event: model.back())
    model.param.watch(lambda event: update_changed(button, disabled=not model.can(BACK)), "session")
    return button


class Player(pn.viewable.Viewer):
    """The timeline strip, and Play at a chosen speed."""

    model = param.ClassSelector(class_=StepModel)

    def __init__(self, **params):
        super().__init__(**params)
        m = self.model
        self.strip = html(self._html(), theme.CHIPS, TIMELINE, margin=(0, 0, 4, 0), css_classes=["sp-timeline"])
        self.speed = pn.widgets.RadioButtonGroup(
            options={t(f"step.play.{s}"): s for s in SPEEDS}, value="normal", description=None,
            color="primary", variant="outline", stylesheets=[theme.BUTTON], margin=(4, 4),
            css_classes=["sp-play-speed"])
        self.play = pn.widgets.Button(
            label=t("step.play.play"), description=Tooltip(content=t("step.play.tip"), position="bottom"),
            stylesheets=[theme.BUTTON], css_classes=["sp-play"], margin=(4, 4), width=96,
            disabled=m.session.phase == "done")
        self.play.js_on_click(args={"speed": self.speed, "play": self.play, "step_class": page.action_class("step"),
                                    "intervals": [INTERVALS[s] for s in SPEEDS],
                                    "labels": {"play": t("step.play.play"), "pause": t("step.play.pause")}},
                              code=PLAY_JS)
        self._layout = pn.Column(
            self.strip,
            wrap(self.play, self.speed, html(f'<p class="muted small">{theme.esc(t("step.timeline.help"))}</p>',
                                             margin=(4, 8), styles={"flex": "1 1 220px"}),
                 align_items="center", margin=0),
            sizing_mode="stretch_width", stylesheets=[theme.CARD], margin=(6, 0))
        m.param.watch(self._render, "session")

    def _html(self):
        m = self.model
        return timeline_html(m.timeline(), m.steps_done())

    def _render(self, *events):
        m = self.model
        update_changed(self.strip, object=self._html())
        update_changed(self.play, disabled=m.session.phase == "done")

    def open(self, key):
        """A click on a moment's button (an Opener key); True when the key was one of ours."""
        if not key.startswith(KEY):
            return False
        text = key[len(KEY):]
        if text.isascii() and text.isdigit():
            self.model.jump(int(text))
        return True

    def __panel__(self):
        return self._layout
