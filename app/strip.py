"""The token strip: the committed output, and the block being worked on.

Committed tokens are solid chips grouped by the block that produced them.
The current block (or, between blocks, the one just committed) shows each
proposal as a chip that is a real button: click it (or Tab to it and press
Enter) to open it in the inspector. Proposals are dashed and labelled
"proposed" until the target has checked them; then each is accepted,
rejected (with its correction beside it) or discarded (faded, with why); a
bonus token is marked as such. Every chip shows its letter, so colour is
never the only cue.
"""

import panel as pn
import param

from . import theme
from .model import Model, count

STATUS_LABEL = {
    "proposed": "proposed",
    "accepted": "✓ accepted",
    "rejected": "✗ rejected",
    "discarded": "discarded",
    "correction": "correction",
    "bonus": "★ bonus",
}

STATUS_TIP = {
    "proposed": "Drafted from the draft's probabilities q. Not in the output yet: Verify will test it.",
    "accepted": "The target accepted this proposal: it goes into the output.",
    "rejected": "The target rejected this proposal; the correction beside it takes its place.",
    "discarded": "Discarded without a test: it was drafted after a rejected token, so its prefix is gone.",
    "correction": "Drawn from the residual, the part of the target's probabilities the draft under-supplies.",
    "bonus": "Every proposal was accepted, so the same target pass gives one extra token from p.",
}

LEGEND = (
    ("proposed", "proposed: drafted, not in the output yet"),
    ("", "accepted, correction or bonus: goes into the output"),
    ("rejected", "rejected: replaced by a correction"),
    ("discarded", "discarded: came after a rejection"),
)


ORIGIN_MARK = {"accepted": "✓", "correction": "↺", "bonus": "★"}
ORIGIN_TIP = {
    "accepted": "an accepted draft token",
    "correction": "a correction drawn from the residual",
    "bonus": "a bonus token drawn from the target",
}


def origins(block):
    """Where each committed token of ``block`` came from, in order: accepted proposals, then the extra token."""
    out = ["accepted"] * block.count("accepted")
    if block.correction is not None:
        out.append("correction")
    if block.bonus is not None:
        out.append("bonus")
    return out


def _legend_html():
    items = []
    for kind, text in LEGEND:
        items.append(f'<span class="item">{theme.chip("A", "sm " + kind)}{theme.esc(text)}</span>')
    return ('<div class="legend" aria-label="How to read the chips">' + "".join(items)
            + '<span class="item">Colours: '
            + " ".join(theme.chip(t, "sm") for t in theme.TOKEN_COLOURS)
            + " (the letter is always shown)</span>"
            + '<span class="item">In the output: ✓ accepted guess, ↺ correction, ★ bonus</span></div>')


def _joiner(symbol):
    return pn.pane.HTML(f'<span class="muted" aria-hidden="true" style="font-size:1.4rem">{symbol}</span>',
                        stylesheets=[theme.CSS], margin=(0, 6), align="center")


class TokenStrip(pn.viewable.Viewer):
    """The output so far and the current block's chips."""

    model = param.ClassSelector(class_=Model)

    def __init__(self, **params):
        super().__init__(**params)
        self.output = pn.pane.HTML("", stylesheets=[theme.CSS], sizing_mode="stretch_width", margin=(0, 0, 6, 0))
        self.block_title = pn.pane.HTML("", stylesheets=[theme.CSS], sizing_mode="stretch_width", margin=(6, 0, 0, 0))
        self.chips = pn.FlexBox(flex_wrap="wrap", align_items="center", gap="6px 10px",
                                 sizing_mode="stretch_width", margin=(2, 0))
        self.note = pn.pane.HTML("", stylesheets=[theme.CSS], sizing_mode="stretch_width", margin=(4, 0, 0, 0))
        self._legend = pn.pane.HTML(_legend_html(), stylesheets=[theme.CSS], sizing_mode="stretch_width",
                                    margin=(10, 0, 0, 0))
        self._layout = pn.Column(
            self.output, self.block_title, self.chips, self.note, self._legend,
            sizing_mode="stretch_width", stylesheets=[theme.CARD], margin=(6, 0),
        )
        self._built_block = None
        self._built_chips = []
        self.model.param.watch(self._sync, ["session", "focus"])
        self._sync()

    # ---- committed output -------------------------------------------------------

    def _output_html(self):
        s = self.model.session
        head = (f'<div class="section-title"><h2>Output</h2><span class="muted">'
                f'{len(s.output)} of {s.config.max_tokens} tokens committed</span></div>')
        if not s.blocks:
            return head + '<div class="empty-note">Empty: nothing is committed until a block is verified.</div>'
        groups = []
        for block in s.blocks:
            chips = "".join(
                f'<span class="committed">{theme.chip(t, title=ORIGIN_TIP[origin])}'
                f'<span class="origin" aria-label="{ORIGIN_TIP[origin]}">{ORIGIN_MARK[origin]}</span></span>'
                for t, origin in zip(block.committed, origins(block))
            )
            groups.append(f'<div class="block-group"><div class="tokens">{chips}</div>'
                          f'<div class="label">block {block.index + 1}</div></div>')
        return head + '<div class="strip" aria-label="Committed output">' + "".join(groups) + "</div>"

    # ---- the current block ---------------------------------------------------------

    def _block_in_view(self):
        s = self.model.session
        if s.pending is not None:
            return s.pending
        return s.blocks[-1] if s.blocks else None

    def _chip(self, token, status, focus, where):
        button = pn.widgets.Button(
            label=f"{token}\n{STATUS_LABEL[status]}",
            description=f"{where}: {STATUS_TIP[status]} Click to inspect.",
            stylesheets=self._chip_sheets(token, status, focus), margin=(2, 0), width=92, height=64,
        )
        button.on_click(lambda event: self.model.inspect(focus))
        self._built_chips.append((button, token, status, focus))
        return button

    def _chip_sheets(self, token, status, focus):
        selected = [theme.SELECTED_CHIP] if self.model.focus == focus else []
        return [theme.BUTTON, theme.chip_button_css(token, status)] + selected

    def _sync(self, *events):
        s = self.model.session
        self.output.object = self._output_html()
        block = self._block_in_view()
        if block is None:
            self.block_title.object = ('<div class="section-title"><h2>Current block</h2></div>'
                                        '<div class="empty-note">No block yet. Draft lets the draft model '
                                        'guess the first tokens.</div>')
            self.chips.objects = []
            self._built_block = None
            self.note.object = ""
            return
        pending = block is s.pending
        if pending and not block.verified:
            state = "drafted, not checked yet: these tokens are only proposals"
        elif pending:
            state = "checked by one target pass, waiting for Commit"
        else:
            state = "committed"
        self.block_title.object = (f'<div class="section-title"><h2>Block {block.index + 1}</h2>'
                                    f'<span class="muted">{theme.esc(state)}</span></div>')
        if block is self._built_block:
            # Same record (Commit keeps it; a click only moves the focus): restyle, don't rebuild.
            for button, token, status, focus in self._built_chips:
                sheets = self._chip_sheets(token, status, focus)
                if len(sheets) != len(button.stylesheets):
                    button.stylesheets = sheets
        else:
            self._build_chips(block)
        self.note.object = self._note_html(block)

    def _build_chips(self, block):
        self._built_block = block
        self._built_chips = []
        chips = []
        for proposal in block.proposals:
            where = f"Position {proposal.index + 1}"
            focus = (block.index, proposal.index)
            chip = self._chip(proposal.token, proposal.status, focus, where)
            if proposal.status == "rejected" and block.correction is not None:
                # The rejected chip and its correction wrap together.
                correction = self._chip(block.correction.token, "correction", focus, where)
                chip = pn.Row(chip, _joiner("→"), correction, margin=0)
            chips.append(chip)
        if block.bonus is not None:
            chips.append(pn.Row(_joiner("+"), self._chip(block.bonus.token, "bonus", (block.index, "bonus"), "Bonus"),
                                margin=0))
        self.chips.objects = chips

    def _note_html(self, block):
        notes = []
        discarded = block.count("discarded")
        if discarded:
            notes.append(f"The {count(discarded, 'discarded proposal')} came after the rejected one: "
                         f"{'it was' if discarded == 1 else 'they were'} drafted as if the rejected token "
                         f"were in the output, so {'it' if discarded == 1 else 'they'} cannot be kept, "
                         f"however plausible {'it looks' if discarded == 1 else 'they look'}.")
        if block.verified and block.bonus is None and block.correction is None:
            notes.append("No bonus token: the output limit leaves no room for one.")
        if not block.verified:
            notes.append("Click a chip to see the draft's probabilities q at its position.")
        else:
            notes.append("Click a chip to see the test that decided it.")
        return "".join(f'<p class="muted small">{theme.esc(n)}</p>' for n in notes)

    def __panel__(self):
        return self._layout
