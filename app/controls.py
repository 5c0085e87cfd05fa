"""The scenario controls and the action buttons.

``Scenario``: draft (Aligned / Biased), width, seed with − and + buttons, and
dynamic lookahead (a switch and its threshold).
Changing any of them restarts the trace (the model says so in the caption).
``Actions``: Draft, Verify, Commit, Next step, Run block, Run to end, Reset,
each enabled only when ``core.Session.can`` says the action is valid; the
button for the next phase is highlighted so a reader always sees where to
click.
"""

import panel as pn
import param

from . import theme
from .model import LABELS, Model
from .parts import DRAFT_OPTIONS, field
from .urlstate import LOOKAHEAD_OFF, SEED_MAX, THRESHOLDS

HELP = {
    "draft": "Aligned: the draft uses the target's own table, so every guess is accepted. "
             "Biased: the draft strongly favours A, so the target has to correct it.",
    "width": "How many tokens the draft guesses per block before the target checks them.",
    "seed": "Fixes every random draw: the same seed always gives the same trace.",
    "lookahead": "Stop drafting early when the draft is unsure of its own guess (its q(x) is below the "
                 "threshold), instead of always guessing the full width.",
}

TOOLTIPS = {
    "draft": "Ask the small draft model to guess the next tokens. They are proposals, not output.",
    "verify": "One pass of the big target model scores every proposal and accepts or rejects each, left to right.",
    "commit": "Append the accepted tokens, plus the correction or bonus token, to the output.",
    "step": "Do whichever of Draft, Verify or Commit comes next.",
    "run_block": "Finish the current block: Draft, Verify and Commit as needed.",
    "run_to_end": "Run blocks until the output holds 8 tokens.",
    "reset": "Empty the output and start this scenario again from its first draw.",
}


class Scenario(pn.viewable.Viewer):
    """Draft, width and seed: the three settings that fix a trace."""

    model = param.ClassSelector(class_=Model)

    def __init__(self, **params):
        super().__init__(**params)
        m = self.model
        self.draft = pn.widgets.RadioButtonGroup(
            label="Draft model", options=DRAFT_OPTIONS, value=m.draft, color="primary",
            variant="outline", stylesheets=[theme.BUTTON], margin=(4, 5),
        )
        self.width = pn.widgets.IntSlider(
            label="Tokens per block", start=1, end=m.param.width.bounds[1], value=m.width,
            sizing_mode="stretch_width", min_width=160, margin=(4, 10),
        )
        self.seed = pn.widgets.IntInput(
            label="Seed", start=0, end=SEED_MAX, value=m.seed, width=130, margin=(4, 5),
        )
        self.seed_down = pn.widgets.Button(
            label="−", description="Previous seed", width=44, stylesheets=[theme.BUTTON],
            align="end", margin=(4, 2),
        )
        self.seed_up = pn.widgets.Button(
            label="+", description="Next seed", width=44, stylesheets=[theme.BUTTON],
            align="end", margin=(4, 2),
        )
        self.seed_down.on_click(lambda event: self._shift_seed(-1))
        self.seed_up.on_click(lambda event: self._shift_seed(+1))

        # A toggle button rather than a checkbox: Bokeh's checkbox has no accessible name.
        self.lookahead_on = pn.widgets.Toggle(label="Stop drafting early", value=m.lookahead != LOOKAHEAD_OFF,
                                              color="primary", variant="outline",
                                              stylesheets=[theme.BUTTON], margin=(4, 5), width=190)
        self.threshold = pn.widgets.DiscreteSlider(
            label="Stop after a guess with q(x) below", options=list(THRESHOLDS),
            value=m.lookahead if m.lookahead != LOOKAHEAD_OFF else "0.50",
            sizing_mode="stretch_width", min_width=160, margin=(0, 10),
        )

        # widgets -> model
        self.lookahead_on.param.watch(self._lookahead_changed, "value")
        self.threshold.param.watch(self._lookahead_changed, "value")
        self.draft.param.watch(lambda e: self._set("draft", e.new), "value")
        self.width.param.watch(lambda e: self._set("width", e.new), "value")
        self.seed.param.watch(lambda e: self._set("seed", e.new), "value")
        # model -> widgets (a link or Reset may change the model)
        m.param.watch(self._sync, ["draft", "width", "seed", "lookahead", "hidden"])

        self._draft_box = field("Draft model", HELP["draft"], self.draft, basis="260px")
        self._width_box = field("Width", HELP["width"], self.width)
        self._seed_box = field("Seed", HELP["seed"], pn.Row(self.seed, self.seed_down, self.seed_up, margin=0))
        self._lookahead_box = field("Dynamic lookahead", HELP["lookahead"], self.lookahead_on, self.threshold)
        self.seed.label = ""  # the label above names it
        self._layout = pn.FlexBox(
            self._draft_box, self._width_box, self._seed_box, self._lookahead_box,
            gap="12px 24px", flex_wrap="wrap", sizing_mode="stretch_width",
            stylesheets=[theme.CARD], margin=(6, 0),
        )
        self._sync()

    def _set(self, name, value):
        if value is None or getattr(self.model, name) == value:
            return
        try:
            setattr(self.model, name, value)
        except Exception:
            self.model.report_error()

    def _lookahead_changed(self, event):
        self._set("lookahead", self.threshold.value if self.lookahead_on.value else LOOKAHEAD_OFF)

    def _shift_seed(self, delta):
        seed = self.model.seed + delta
        if 0 <= seed <= SEED_MAX:
            self.model.seed = seed

    def _sync(self, *events):
        m = self.model
        self.draft.value = m.draft
        self.width.value = m.width
        self.seed.value = m.seed
        self.lookahead_on.value = m.lookahead != LOOKAHEAD_OFF
        if m.lookahead != LOOKAHEAD_OFF:
            self.threshold.value = m.lookahead
        self.threshold.disabled = m.lookahead == LOOKAHEAD_OFF
        self._lookahead_box.visible = "lookahead" not in m.hidden
        self.seed_down.disabled = m.seed <= 0
        self.seed_up.disabled = m.seed >= SEED_MAX
        self._draft_box.visible = "draft" not in m.hidden
        self._width_box.visible = "width" not in m.hidden
        self._seed_box.visible = "seed" not in m.hidden
        self._layout.visible = not {"draft", "width", "seed", "lookahead"} <= m.hidden

    def __panel__(self):
        return self._layout


class Actions(pn.viewable.Viewer):
    """The action buttons; each is enabled only when its action is valid now."""

    model = param.ClassSelector(class_=Model)

    def __init__(self, **params):
        super().__init__(**params)
        self.buttons = {}
        for action, label in LABELS.items():
            button = pn.widgets.Button(
                label=label, description=TOOLTIPS[action], stylesheets=[theme.BUTTON], margin=(4, 4),
            )
            button.on_click(lambda event, action=action: self.model.act(action))
            self.buttons[action] = button
        # One wrapping row; a wider gap after Commit and Run to end groups the
        # three phases, the shortcuts, and Reset.
        for action in ("commit", "run_to_end"):
            self.buttons[action].margin = (4, 20, 4, 4)
        self._layout = pn.FlexBox(
            *self.buttons.values(),
            flex_wrap="wrap", align_items="center", sizing_mode="stretch_width", margin=(4, 0),
        )
        self.model.param.watch(self._sync, ["session", "hidden"])
        self._sync()

    def _sync(self, *events):
        m = self.model
        upcoming = m.session.next_action
        for action, button in self.buttons.items():
            button.disabled = not m.can(action)
            button.color = "primary" if action == upcoming else "default"
        self.buttons["reset"].visible = "reset" not in m.hidden

    def __panel__(self):
        return self._layout
