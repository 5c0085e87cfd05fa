"""The views of "Step through a block": each renders from one ``StepModel``.

Reading order puts what to do first (issue 26): the caption (what happened,
what is next) and the action buttons, the token strip, the two lanes
(``lanes.py``), then the scenario that fixes the trace and "What to try", the
inspector, the counters beside the block history, and the embed code. At
1200 x 900 the buttons, the caption and the strip are on the first screen; at
375 px the buttons are. Each control's help waits behind a "?" beside its
name (``parts.field(fold_help=True)``). Boxes wrap from 1200 px down to 360 px.

Widgets come from ``Widget.from_param(model.param.x)``; what changes with
every click (caption, output, counters, chips, history) is rendered by one
``param.depends(..., watch=True)`` method per view, from words in
``words.py``, which sets only what changed (a pane bound with ``pn.bind``
re-resolves its reference on each click, four times the cost); settings
that change rarely (hide flags, a notice) stay bound. The strip's chips and
the history's lines are HTML buttons in one pane each (``chips_html``,
``history_html``), so a click restyles them with one text change and never
adds a Bokeh model or changes a CSS class (either would make BokehJS lay the
page out again); their clicks reach the model through ``parts.Opener``.
"""

import panel as pn
import param
from bokeh.models import Tooltip

from core.display import dec, frac

from .. import theme, urlstate
from ..embed.builder import EmbedBuilder
from ..page import script as page
from ..page import words as page_words
from ..i18n import t
from ..parts import (ActionButtons, Opener, draft_options, field, hold, html, lock_line, open_attrs, slider_title,
                     update_changed, wrap)
from . import draft_words, predict_words, words
from .guide import Guide
from .inspector import Inspector
from .lanes import LanesView
from .model import StepModel, interesting_item
from .predict_view import PredictPane
from .timeline_view import Player, back_button


def shown(part):
    """A function of ``hidden`` that is True while a link has not hidden ``part``."""
    return lambda hidden: part not in hidden


FOLDED = "sp-folded"  # app/styles/fold.css: on a phone, lookahead shows only its toggle while off


class Scenario(pn.viewable.Viewer):
    """Draft, width, seed and dynamic lookahead: the settings that fix a trace."""

    model = param.ClassSelector(class_=StepModel)

    def __init__(self, **params):
        super().__init__(**params)
        m = self.model
        hidden = m.param.hidden
        # description=None: the help line above each control explains it (no tooltip icon from the doc).
        self.draft = pn.widgets.RadioButtonGroup.from_param(
            m.param.draft, options=draft_options(), description=None, color="primary", variant="outline",
            stylesheets=[theme.BUTTON], margin=(4, 2), sizing_mode="stretch_width", max_width=420)  # four buttons fit a 360 px phone
        self.width = pn.widgets.IntSlider.from_param(
            m.param.width, name=slider_title("step.widget.width"), sizing_mode="stretch_width", min_width=160, margin=(4, 10))
        # The label above names the seed box. Not from_param: an emptied box sends None,
        # which the model refuses with a notice (type_seed), and the box shows the seed again.
        low, high = m.param.seed.bounds
        self.seed = pn.widgets.IntInput(value=m.seed, start=low, end=high, label=t("step.field.seed"), width=130,
                                        margin=(4, 5), css_classes=["sp-seed-input"], stylesheets=[theme.SEED_INPUT])
        self.seed.param.watch(self._typed_seed, "value")
        m.param.watch(lambda event: setattr(self.seed, "value", event.new), "seed")
        self.seed_down = pn.widgets.Button(
            label="−", description=t("step.seed.previous"), width=44, stylesheets=[theme.BUTTON], align="end",
            css_classes=["sp-seed-down"], margin=(4, 2))
        self.seed_up = pn.widgets.Button(
            label="+", description=t("step.seed.next"), width=44, stylesheets=[theme.BUTTON], align="end",
            css_classes=["sp-seed-up"], margin=(4, 2))
        self.seed_down.on_click(lambda event: m.shift_seed(-1))
        self.seed_up.on_click(lambda event: m.shift_seed(+1))
        # A toggle button rather than a checkbox: Bokeh's checkbox has no accessible name.
        # It shows whether lookahead is on (_show_lookahead); a click is an action on the model.
        self.lookahead_on = pn.widgets.Toggle(
            label=t("step.lookahead.toggle"), value=m.lookahead != urlstate.LOOKAHEAD_OFF, color="primary",
            variant="outline",
            stylesheets=[theme.BUTTON], margin=(4, 5), width=190)
        self.lookahead_on.param.watch(lambda event: m.set_early_stop(event.new), "value")
        self.schedule = pn.widgets.RadioButtonGroup.from_param(
            m.param.schedule, options=words.schedule_options(), name="", description=None, color="primary",
            variant="outline", stylesheets=[theme.BUTTON], margin=(4, 5))
        # Built enabled, disabled afterwards (_enable): a DiscreteSlider built disabled
        # gets a track of two steps (Panel 1.9), so its knob sat at the 0.90 end.
        self.threshold = pn.widgets.DiscreteSlider.from_param(
            m.param.threshold, name=slider_title("step.widget.threshold"),
            sizing_mode="stretch_width", min_width=160, margin=(0, 10), css_classes=["sp-threshold"])
        self.lock_line = lock_line(m.locked)

        # Each help sentence behind a "?" beside its name: the first screen shows what to do (issue 26).
        self._draft_box = field(t("step.field.draft"), words.help_text("draft"), self.draft, basis="410px",
                                fold_help=True)
        self._width_box = field(t("step.field.width"), words.help_text("width"), self.width, fold_help=True)
        self._seed_box = field(t("step.field.seed"), words.help_text("seed"),
                               pn.Row(self.seed, self.seed_down, self.seed_up, margin=0), fold_help=True)
        self._lookahead_box = field(t("step.field.lookahead"), words.help_text("lookahead"), self.lookahead_on,
                                    self.threshold, fold_help=True)
        self._foldable = (self._lookahead_box, self._lookahead_box.objects[0])  # the field and its label
        for part in self._foldable:
            part.stylesheets = [*part.stylesheets, theme.FOLD]
        self._schedule_box = field(t("step.field.schedule"), words.help_text("schedule"), self.schedule,
                                   fold_help=True)
        for part, box in (("draft", self._draft_box), ("width", self._width_box), ("seed", self._seed_box),
                          ("lookahead", self._lookahead_box), ("schedule", self._schedule_box)):
            box.visible = pn.bind(shown(part), hidden)
        self.heading = html(f'<div class="section-title"><h2>{theme.esc(t("step.scenario.title"))}</h2>'
                          f'<span class="muted">{theme.esc(t("step.scenario.lead"))}</span></div>',
                          margin=(0, 5), styles={"flex": "1 1 100%"})
        self._layout = wrap(
            self.heading, self.lock_line, self._draft_box, self._width_box, self._seed_box, self._lookahead_box,
            self._schedule_box,
            gap="12px 24px", stylesheets=[theme.CARD],
            margin=(6, 0), css_classes=["sp-scenario"],
            visible=pn.bind(lambda h: not {"draft", "width", "seed", "lookahead", "schedule"} <= h, hidden))
        self._show_lookahead()
        self._enable()

    def controls(self):
        """Every widget that changes the scenario."""
        return (self.draft, self.width, self.seed, self.seed_down, self.seed_up, self.lookahead_on, self.threshold,
                self.schedule)

    @param.depends("model.locked", "model.seed", "model.lookahead", watch=True)
    def _enable(self):
        """Disable what cannot act now: everything under a lock, else a seed step past a bound, the threshold while off."""
        m = self.model
        low, high = m.param.seed.bounds
        idle = {self.seed_down: m.seed <= low, self.seed_up: m.seed >= high,
                self.threshold: m.lookahead == urlstate.LOOKAHEAD_OFF}
        hold(self.controls(), self.lock_line, m.locked, idle)

    def _typed_seed(self, event):
        if not self.model.type_seed(event.new):
            self.seed.value = self.model.seed

    @param.depends("model.lookahead", watch=True)
    def _show_lookahead(self):
        on = self.model.lookahead != urlstate.LOOKAHEAD_OFF
        self.lookahead_on.value = on
        folded = [] if on else [FOLDED]
        for part in self._foldable:
            part.css_classes = [c for c in part.css_classes if c != FOLDED] + folded

    def __panel__(self):
        return self._layout


class Actions(pn.viewable.Viewer):
    """The action buttons; each is enabled only when its action is valid now, the next phase highlighted."""

    model = param.ClassSelector(class_=StepModel)

    def __init__(self, **params):
        super().__init__(**params)
        m = self.model
        buttons = {
            action: pn.widgets.Button(
                # Below the button: a tooltip on the right would cover the next button after a click.
                label=words.label(action), description=Tooltip(content=words.tooltip(action), position="bottom"),
                stylesheets=[theme.BUTTON],
                css_classes=[page.action_class(action)],
                # A wider gap after Commit and Run to end groups the phases, the shortcuts, and Reset.
                margin=(4, 20, 4, 4) if action in ("commit", "run_to_end") else (4, 4))
            for action in words.ACTION_NAMES}
        self.actions = ActionButtons(m, buttons, lambda a: (m.can(a), m.session.next_action == a))
        # Predict first: Verify waits for every call, Commit for the correction's tokens.
        m.param.watch(self.actions.update, ["calls", "predict", "asking"])
        self.buttons = buttons
        self.buttons["reset"].visible = pn.bind(shown("reset"), m.param.hidden)
        self.back = back_button(m)  # Step back, before Next step (app/step/timeline_view.py)
        row = list(self.buttons.values())
        row.insert(list(self.buttons).index("step"), self.back)
        # A toggle button like lookahead's: Predict first, a reader's setting (URL predict=1).
        self.predict = pn.widgets.Toggle(
            label=predict_words.toggle_label(), value=m.predict, color="primary", variant="outline",
            stylesheets=[theme.BUTTON], margin=(4, 4), css_classes=["sp-predict-toggle"])
        self.predict.param.watch(lambda event: m.set_predict(event.new), "value")
        m.param.watch(lambda event: setattr(self.predict, "value", event.new), "predict")
        row.append(self.predict)
        self.keys = html(self._keys_html(), margin=(0, 4))
        # While Predict first asks for the correction's tokens, A, B and C mark them (and B is no Step back).
        m.param.watch(lambda *events: update_changed(self.keys, object=self._keys_html()), ["session", "predict", "asking"])
        self._layout = pn.Column(
            wrap(*row, align_items="center", margin=(4, 0)),
            self.keys, sizing_mode="stretch_width", margin=0)

    def _keys_html(self):
        labels = words.SHORTCUT_LABELS
        line = (predict_words.marking_keys_line(labels) if self.model.asking_block() is not None
                else page_words.shortcuts_line(labels))
        return f'<p class="muted small shortcuts">{theme.esc(line)}</p>'

    def __panel__(self):
        return self._layout


# ---- the caption ---------------------------------------------------------------------

def phases_html(session):
    if session.phase == "done":
        return f'<div class="phases"><span class="phase done">{theme.esc(t("step.phases.finished"))}</span></div>'
    pills = [f'<span class="muted">{theme.esc(t("step.phases.block", block=words.phase_block(session)))}</span>']
    reached = words.PHASES.index(session.phase)
    for i, name in enumerate(words.PHASES):
        status = "now" if i == reached else ("done" if i < reached else "")
        mark = "✓ " if i < reached else ""
        aria = ' aria-current="step"' if i == reached else ""
        pills.append(f'<span class="phase {status}"{aria}>{mark}{i + 1}. {theme.esc(words.label(name))}</span>')
    return '<div class="phases">' + "".join(pills) + "</div>"


def caption_html(session, happened, waiting="", masked=False):
    """Phase pills, the last event, the next step, why Verify waits (Predict first) and the limit message."""
    out = phases_html(session)
    out += f'<div class="caption" role="status" aria-live="polite"><div class="happened">{theme.esc(happened)}</div>'
    upcoming = words.next_words(session, masked)
    if upcoming:
        label = words.label(session.next_action)
        rest = upcoming[len(label):] if upcoming.startswith(label) else " " + upcoming
        out += (f'<div class="next">{theme.esc(t("step.caption.next"))}<b>{theme.esc(label)}</b>'
                f'{theme.esc(rest)}</div>')
    out += "</div>"
    if waiting:
        out += f'<div class="limit" role="note">{theme.esc(waiting)}</div>'
    limit = words.limit_words(session)
    if limit:
        out += f'<div class="limit" role="note">{theme.esc(limit)}</div>'
    return out


def notice_html(notice):
    return f'<div class="notice" role="alert">{theme.esc(notice)}</div>' if notice else ""


class Caption(pn.viewable.Viewer):
    """What just happened, what the next click will do, and any notice."""

    model = param.ClassSelector(class_=StepModel)

    def __init__(self, **params):
        super().__init__(**params)
        m = self.model
        self.text = html(caption_html(m.session, m.happened, m.waiting_words(), m.asking_block() is not None),
                         theme.CAPTION)
        self.notice_pane = html(pn.bind(notice_html, m.param.notice), theme.CAPTION, margin=(8, 0, 0, 0),
                                visible=pn.bind(bool, m.param.notice))
        self._layout = pn.Column(self.text, self.notice_pane, sizing_mode="stretch_width",
                                 stylesheets=[theme.CAPTION_CARD], margin=(6, 0), css_classes=["sp-bar-caption"])

    # A watcher that sets the text, not a pane bound to the model: a bound pane re-resolves
    # its reference on every click (four times the cost of setting the text).
    @param.depends("model.session", "model.happened", "model.calls", "model.predict", "model.asking", watch=True)
    def _render(self):
        m = self.model
        update_changed(self.text, object=caption_html(m.session, m.happened, m.waiting_words(),
                                                      m.asking_block() is not None))

    def __panel__(self):
        return self._layout


# ---- the token strip --------------------------------------------------------------------

def output_html(session, masked=False):
    head = (f'<div class="section-title"><h2>{theme.esc(t("step.output.title"))}</h2><span class="muted">'
            f'{theme.esc(words.output_count(session))}</span></div>')
    if not session.blocks:
        return head + f'<div class="empty-note">{theme.esc(words.empty_output(session, masked))}</div>'
    groups = []
    for block in session.blocks:
        chips = "".join(
            f'<span class="committed">{theme.chip(token, title=words.origin_tip(origin))}'
            f'<span class="origin" aria-label="{theme.esc(words.origin_tip(origin))}">{words.ORIGIN_MARK[origin]}'
            f'</span></span>'
            for token, origin in zip(block.committed, words.origins(block)))
        groups.append(f'<div class="block-group"><div class="tokens">{chips}</div>'
                      f'<div class="label">{theme.esc(t("step.output.block", block=block.index + 1))}</div></div>')
    return (head + f'<div class="strip" aria-label="{theme.esc(t("step.output.aria"))}">' + "".join(groups)
            + "</div>")


def block_title_html(session):
    block = session.pending or (session.blocks[-1] if session.blocks else None)
    if block is None:
        return (f'<div class="section-title"><h2>{theme.esc(t("step.block.current"))}</h2></div>'
                f'<div class="empty-note">{theme.esc(t("step.block.none"))}</div>')
    state = words.block_state(block, block is session.pending)
    return (f'<div class="section-title"><h2>{theme.esc(t("step.block.title", block=block.index + 1))}</h2>'
            f'<span class="muted">{theme.esc(state)}</span></div>')


def block_notes_html(session):
    block = session.pending or (session.blocks[-1] if session.blocks else None)
    if block is None:
        return ""
    return "".join(f'<p class="muted small">{theme.esc(n)}</p>' for n in words.strip_notes(block))


def legend_html():
    items = [f'<span class="item">{theme.chip("A", "sm " + kind)}{theme.esc(text)}</span>'
             for kind, text in words.legend()]
    return (f'<div class="legend" aria-label="{theme.esc(t("step.legend.aria"))}">' + "".join(items)
            + f'<span class="item">{theme.esc(t("step.legend.colours"))}'
            + " ".join(theme.chip(token, "sm") for token in theme.TOKEN_COLOURS)
            + f' {theme.esc(t("step.legend.letter"))}</span>'
            + f'<span class="item">{theme.esc(t("step.legend.marks"))}</span></div>')


def chips(block, masked=False):
    """The current block's chips in reading order: (token, status, focus).

    The proposals, with the correction right after the rejected proposal (it shares
    that proposal's focus) or the bonus after the last one. ``masked``: Predict first
    asks which tokens the correction can be, so its chip is a "?" until answered.
    """
    out = []
    for proposal in block.proposals:
        out.append((proposal.token, proposal.status, (block.index, proposal.index)))
        if proposal.status == "rejected" and block.correction is not None:
            out.append((MASK if masked else block.correction.token, "correction", (block.index, proposal.index)))
    if block.bonus is not None:
        out.append((block.bonus.token, words.extra_kind(block), (block.index, "bonus")))
    return out


JOINERS = {"correction": "→", "bonus": "+"}
MASK = "?"  # the correction's letter while Predict first asks about it


def focus_key(focus):
    """``(block, item)`` as the key an HTML button carries (``"0:2"``, ``"1:bonus"``)."""
    return f"{focus[0]}:{focus[1]}"


def chips_html(block, focus, masked=False):
    """The block's chips as real buttons (Tab, Enter and Space work); a click opens the chip in the inspector."""
    if block is None:
        return ""
    out = []
    for token, status, at in chips(block, masked):
        joiner = JOINERS.get(status)  # an ordinary step has no proposal to join
        if joiner:
            out.append(f'<span class="joiner" aria-hidden="true">{joiner}</span>')
        selected = at == focus  # a correction shares its rejected proposal's focus
        css = f"chip-button tok-{'mask' if token == MASK else token} {status}" + (" selected" if selected else "")
        current = ' aria-current="true"' if selected else ""
        out.append(f'<button class="{css}" {open_attrs(focus_key(at), t("step.chip.open"))}{current}>'
                   f'<span class="letter">{token}</span> <span class="state">{theme.esc(words.status_label(status))}'
                   '</span></button>')
    return '<div class="chip-row">' + "".join(out) + "</div>"


class TokenStrip(pn.viewable.Viewer):
    """The output so far and the current block's chips (a real button each: click to inspect)."""

    model = param.ClassSelector(class_=StepModel)

    def __init__(self, **params):
        super().__init__(**params)
        m = self.model
        self.output = html(output_html(m.session, m.asking_block() is not None), theme.CHIPS, margin=(0, 0, 6, 0))
        self.block_title = html(block_title_html(m.session), margin=(6, 0, 0, 0))
        self.chips = html(chips_html(m.block_in_view(), m.focus, m.asking_block() is not None), theme.CHIPS,
                          margin=(2, 0))
        self.note = html(block_notes_html(m.session), margin=(4, 0, 0, 0))
        self._legend = html(legend_html(), theme.CHIPS, margin=(10, 0, 0, 0))
        self._layout = pn.Column(self.output, self.block_title, self.chips, self.note, self._legend,
                                 sizing_mode="stretch_width", stylesheets=[theme.CARD], margin=(6, 0))

    @param.depends("model.session", "model.asking", "model.predict", watch=True)
    def _render_text(self):
        """The output, the block's title and its notes (set by a watcher: see Caption._render)."""
        session = self.model.session
        update_changed(self.output, object=output_html(session, self.model.asking_block() is not None))
        update_changed(self.block_title, object=block_title_html(session))
        update_changed(self.note, object=block_notes_html(session))

    @param.depends("model.session", "model.focus", "model.asking", "model.predict", watch=True)
    def _render_chips(self):
        m = self.model
        update_changed(self.chips, object=chips_html(m.block_in_view(), m.focus, m.asking_block() is not None))

    def __panel__(self):
        return self._layout


# ---- counters and history ------------------------------------------------------------------

def counters_html(session):
    c = session.counters
    per_pass = c.tokens_per_pass
    per_pass_text = "—" if per_pass is None else (
        dec(per_pass) if per_pass.denominator == 1
        else f"{dec(per_pass)} <span class='muted small'>= {frac(per_pass)}</span>")
    used = "one" if c.target_passes == 1 else "other"
    ordinary = "one" if c.ordinary_passes == 1 else "other"
    headline = (
        '<div class="counters headline">'
        f'<div class="counter key" title="{theme.esc(t("step.counters.used.tip"))}">'
        f'<div class="n">{c.target_passes}</div><div class="what">{theme.esc(t(f"step.counters.used.{used}"))}'
        '</div></div>'
        f'<div class="counter" title="{theme.esc(t("step.counters.ordinary.tip"))}">'
        f'<div class="n">{c.ordinary_passes}</div>'
        f'<div class="what">{theme.esc(t(f"step.counters.ordinary.{ordinary}"))}</div></div>'
        f'<div class="counter" title="{theme.esc(t("step.counters.per_pass.tip"))}">'
        f'<div class="n">{per_pass_text}</div><div class="what">{theme.esc(t("step.counters.per_pass"))}</div></div>'
        '</div>')
    rows = (words.counter_details(early_stops=session.config.lookahead is not None)
            + ((words.counter("ordinary_steps"),) if draft_words.of(session.config.draft).counts_ordinary_steps else ()))
    details = "".join(
        f'<div class="counter sm" title="{theme.esc(what)}"><div class="n">{getattr(c, name)}</div>'
        f'<div class="what">{theme.esc(label)}</div></div>' for name, label, what in rows)
    compare = words.compare(c)
    compare = (f'<p class="compare">{theme.esc(compare)}</p>' if compare
               else f'<p class="compare muted">{theme.esc(t("step.counters.nothing"))}</p>')
    widths = words.widths_used(session)
    if widths:
        compare += f'<p class="widths">{theme.esc(widths)}</p>'
    if session.pending is not None:
        compare += (f'<p class="pending">{theme.esc(words.pending_counts(session.pending))} '
                    f'{theme.esc(t("step.pending_not_counted"))}</p>')
    return (f'<div class="section-title"><h2>{theme.esc(t("step.counters.title"))}</h2></div>'
            f'<p class="muted small">{theme.esc(t("step.counters.lead"))}</p>'
            f'{headline}<div class="counters details">{details}</div>{compare}')


class Counters(pn.viewable.Viewer):
    """Target passes against ordinary decoding, then the detailed counts."""

    model = param.ClassSelector(class_=StepModel)

    def __init__(self, **params):
        super().__init__(**params)
        m = self.model
        self.html = html(counters_html(m.session), theme.COUNTERS)
        self._layout = pn.Column(self.html, sizing_mode="stretch_width", stylesheets=[theme.CARD], margin=(6, 0),
                                 visible=pn.bind(shown("counters"), m.param.hidden),
                                 styles={"flex": "1 1 340px", "min-width": "0"})

    @param.depends("model.session", watch=True)
    def _render(self):
        self.html.object = counters_html(self.model.session)  # a watcher: see Caption._render

    def __panel__(self):
        return self._layout


def history_html(session, focus):
    """Finished blocks, one button a line; a click opens the block in the inspector."""
    blocks = session.blocks
    if not blocks:
        return f'<p class="empty-note">{theme.esc(t("step.history.empty"))}</p>'
    focused = focus[0] if focus else None
    lines = []
    for block in blocks:
        selected = block.index == focused
        css = "history-line" + (" selected" if selected else "")
        current = ' aria-current="true"' if selected else ""
        key = focus_key((block.index, interesting_item(block)))
        lines.append(f'<button class="{css}" {open_attrs(key, t("step.history.open"))}{current}>'
                     f'{theme.esc(words.history_line(block, session.config.schedule))}</button>')
    return '<div class="history-lines">' + "".join(lines) + "</div>"


class History(pn.viewable.Viewer):
    """Finished blocks as buttons; a click opens the block in the inspector."""

    model = param.ClassSelector(class_=StepModel)

    def __init__(self, **params):
        super().__init__(**params)
        m = self.model
        self.lines = html(history_html(m.session, m.focus), theme.HISTORY)
        self._layout = pn.Column(
            html(f'<div class="section-title"><h2>{theme.esc(t("step.history.title"))}</h2></div>'), self.lines,
            sizing_mode="stretch_width", stylesheets=[theme.CARD], margin=(6, 0),
            visible=pn.bind(shown("history"), m.param.hidden), styles={"flex": "1 1 340px", "min-width": "0"})

    @param.depends("model.session", "model.focus", watch=True)
    def _render(self):
        update_changed(self.lines, object=history_html(self.model.session, self.model.focus))

    def __panel__(self):
        return self._layout


class StepView(pn.viewable.Viewer):
    """The "Step through a block" tab; every part takes the same model."""

    model = param.ClassSelector(class_=StepModel)

    def __init__(self, **params):
        if params.get("model") is None:
            params["model"] = StepModel()
        super().__init__(**params)
        m = self.model
        self.scenario = Scenario(model=m)
        self.guide = Guide(model=m)
        self.caption = Caption(model=m)
        self.actions = Actions(model=m)
        self.player = Player(model=m)  # the timeline and Play, right after the action buttons
        self.predict = PredictPane(model=m)  # Predict first's calls, between the buttons and the timeline
        self.strip = TokenStrip(model=m)
        self.inspector = Inspector(model=m)
        self.counters = Counters(model=m)
        self.history = History(model=m)
        self.embed = EmbedBuilder(model=m)
        self.opener = Opener(self._open)  # clicks on the chips and the history's lines
        self.jump = pn.widgets.Button(label=page_words.JUMP_LABEL, description=None, margin=(0, 4, 4, 4),
                                      stylesheets=[theme.BUTTON, theme.PHONE_ONLY])
        # On a phone the caption and the buttons stay on screen (app/styles/action_bar.css).
        self.bar = pn.Column(self.caption, self.actions, self.jump, sizing_mode="stretch_width", margin=0,
                             stylesheets=[theme.ACTION_BAR])
        self.jump.js_on_click(args={"target": self.inspector._layout}, code=page.JUMP_JS)
        self.lanes = LanesView(model=m)
        # What to do first (issue 26): the caption and the buttons, the strip and the two lanes, then
        # the scenario that fixes the trace and the moments to try; a reader scrubs a trace before
        # changing its parameters.
        self._layout = pn.Column(
            self.bar, self.predict, self.player, self.strip, self.lanes, self.scenario, self.guide, self.inspector,
            wrap(self.counters, self.history, gap="0 16px", margin=0),
            self.embed, self.opener.input,
            sizing_mode="stretch_width", margin=(8, 0))

    def _open(self, key):
        """Open the position a chip or a history line names; a key of no current position does nothing."""
        if self.player.open(key) or self.predict.open(key):  # a moment of the timeline, a call
            return
        focus = {focus_key(focus): focus for _, focus in self.model.positions()}.get(key)
        if focus is not None:
            self.model.inspect(focus)

    def __panel__(self):
        return self._layout
