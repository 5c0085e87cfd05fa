"""The one-position calculator: why accepted mass plus corrections is exactly p.

The example of seed ``001_*.txt``: at one position the target gives ``p``
and the draft ``q``; a proposal x drawn from q is kept with probability
``min(1, p(x)/q(x))``, so the kept mass is ``min(p, q)``; a rejection (total
probability ``1 - sum(min(p, q))``) is refilled from the residual
``norm(max(p - q, 0))``. The reader edits p and q and sees every part,
exactly, and the three lines the seed's script prints.

Parsing and every number are ``core``'s (``core.parse_distribution``,
``core.decompose``, ``core.display.seed_lines``); a value that does not
parse becomes a message beside its field, never an exception.
"""


import panel as pn
import param

import core
from core import display

from . import theme

TOKENS = tuple(core.TOKENS)

# (label, p, q, what it shows): the seed's example first.
PRESETS = (
    ("Seed example", "0.6, 0.3, 0.1", "0.2, 0.5, 0.3",
     "The example of the article: only A is under-proposed, so every rejection is corrected to A."),
    ("Biased draft at the start", "0.5, 0.3, 0.2", "0.8, 0.15, 0.05",
     "The widget's own numbers at the start of the text: the draft over-proposes A, so a rejected A "
     "is replaced by B or C, never by A."),
    ("p = q", "0.5, 0.3, 0.2", "0.5, 0.3, 0.2",
     "A perfect draft: nothing is ever rejected, and there is no residual to normalise."),
    ("No overlap", "1, 0, 0", "0, 1, 0",
     "Disjoint supports: every proposal is rejected and the residual is all of p."),
)


class CalculatorModel(param.Parameterized):
    """The text of p and q, and what ``core`` makes of it."""

    p_text = param.String(default=PRESETS[0][1], doc="""
        The target's probabilities for A, B, C, as typed (decimals or fractions, comma separated).""")

    q_text = param.String(default=PRESETS[0][2], doc="""
        The draft's probabilities for A, B, C, as typed.""")

    p_error = param.String(default="", doc="Why p_text is not a distribution; '' when it is.")

    q_error = param.String(default="", doc="Why q_text is not a distribution; '' when it is.")

    decomposition = param.ClassSelector(class_=core.Decomposition, allow_None=True, doc="""
        core.decompose(p, q) for the current text, or None while either field is invalid.""")

    def __init__(self, **params):
        super().__init__(**params)
        self._update()

    @staticmethod
    def _parse(text):
        try:
            return core.parse_distribution(text), ""
        except ValueError as error:
            return None, str(error)
        except Exception:  # anything else the parser meets is still just bad input
            return None, "these cannot be read as three probabilities"

    @param.depends("p_text", "q_text", watch=True)
    def _update(self):
        p, p_error = self._parse(self.p_text)
        q, q_error = self._parse(self.q_text)
        d = core.decompose(p, q) if p is not None and q is not None else None
        self.param.update(p_error=p_error, q_error=q_error, decomposition=d)

    def load(self, index):
        """Fill both fields from ``PRESETS[index]``."""
        _, p, q, _ = PRESETS[index]
        self.param.update(p_text=p, q_text=q)

    def seed_lines(self):
        return [] if self.decomposition is None else display.seed_lines(self.decomposition)


def _cell(x):
    """An exact value; a fraction that has no short decimal gets its decimal on a second line."""
    text = display.exact_or_dec(x, 3)
    if " ≈ " in text:
        exact, approx = text.split(" ≈ ")
        return f'{theme.esc(exact)}<span class="approx">≈ {theme.esc(approx)}</span>'
    return theme.esc(text)


def table_html(d):
    """The decomposition as an A/B/C table, one row per step of the argument."""
    rows = (
        ("target p", "what the output must follow", d.p, ""),
        ("draft q", "what proposals are drawn from", d.q, ""),
        ("kept: min(p, q)", "q(x) × min(1, p(x)/q(x))", d.accepted, "kept"),
        ("max(p − q, 0)", "the mass q under-supplies", d.positive_part, ""),
        ("residual", "max(p − q, 0), normalised: a rejection is redrawn from this", d.residual, ""),
        ("corrections", "rejection probability × residual", d.corrected, "corr"),
        ("final", "kept + corrections", d.final, "final"),
    )
    head = "".join(f'<th scope="col">{theme.chip(t, "sm")}</th>' for t in TOKENS)
    body = []
    for label, desc, values, kind in rows:
        cells = "".join(f'<td class="mono">{_cell(v)}</td>' for v in values)
        body.append(f'<tr class="{kind}"><th scope="row">{theme.esc(label)}'
                    f'<span class="desc">{theme.esc(desc)}</span></th>{cells}</tr>')
    return (f'<table class="calc"><thead><tr><th scope="col">per token</th>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table>')


def summary_html(d):
    """Rejection probability, the residual's meaning, and the check final == p."""
    if d.rejection == 0:
        residual = ("Nothing is ever rejected (p and q agree wherever q proposes), so there is no residual to "
                    "sample: the kept mass is already p.")
    else:
        can = [t for t, r in zip(TOKENS, d.residual) if r]
        cannot = [t for t, r in zip(TOKENS, d.residual) if not r]
        residual = (f"After a rejection the replacement is {_either(can)}"
                    + (f"; it can never be {_either(cannot, 'or')}, the token{'s' if len(cannot) > 1 else ''} "
                       f"the draft already supplies enough of" if cannot else "")
                    + ".")
    same = d.final == d.p
    check = ('<span class="verdict accepted">final = p, exactly</span>' if same
             else '<span class="verdict rejected">final ≠ p</span>')
    return (f'<p>Rejection probability: <b class="mono">{_cell(d.rejection)}</b> '
            f'<span class="muted">(1 − the kept mass)</span>. {theme.esc(residual)}</p>'
            f'<p>{check} Kept mass plus corrections gives back the target for every token, which is why '
            f'the correction cannot be skipped or replaced by a fresh draw from p.</p>')


def _either(tokens, word="or"):
    if len(tokens) == 1:
        return tokens[0]
    return ", ".join(tokens[:-1]) + f" {word} " + tokens[-1]


CALC_CSS = f"""
table.calc {{ border-collapse: collapse; width: 100%; max-width: 620px; font-variant-numeric: tabular-nums; }}
table.calc th, table.calc td {{ padding: 5px 6px; border-bottom: 1px solid {theme.LINE}; text-align: right;
  vertical-align: top; }}
table.calc th:first-child {{ text-align: left; font-weight: 600; }}
table.calc thead th {{ font-weight: 650; }}
table.calc .desc {{ display: block; font-weight: 400; color: {theme.MUTED}; font-size: 0.8rem; line-height: 1.3; }}
table.calc .approx {{ display: block; color: {theme.MUTED}; font-size: 0.78rem; }}
table.calc tr.kept td {{ background: #eef6f0; }}
table.calc tr.corr td {{ background: #f4eef8; }}
table.calc tr.final td, table.calc tr.final th {{ border-top: 2px solid {theme.INK}; font-weight: 700; }}
pre.seed {{ font-family: {theme.MONO}; font-size: 0.86rem; background: #f3f5f8; border: 1px solid {theme.LINE};
  border-radius: 8px; padding: 8px 10px; margin: 6px 0 0; white-space: pre-wrap; overflow-wrap: anywhere; }}
.field-error {{ color: {theme.REJECT}; font-size: 0.86rem; font-weight: 600; line-height: 1.35; }}
.field-ok {{ color: {theme.ACCEPT}; font-size: 0.86rem; }}
"""


class Calculator(pn.viewable.Viewer):
    """Two fields, preset buttons, the decomposition table and the seed's three lines."""

    model = param.ClassSelector(class_=CalculatorModel)

    def __init__(self, **params):
        if params.get("model") is None:
            params["model"] = CalculatorModel()
        super().__init__(**params)
        m = self.model
        css = [theme.CSS, CALC_CSS]
        self.p_input = pn.widgets.TextInput(
            label="Target p for A, B, C", value=m.p_text, placeholder="e.g. 0.6, 0.3, 0.1",
            description="Three probabilities, decimals or fractions like 1/3, separated by commas. They must "
                        "add up to exactly 1.",
            sizing_mode="stretch_width", margin=(4, 0),
        )
        self.q_input = pn.widgets.TextInput(
            label="Draft q for A, B, C", value=m.q_text, placeholder="e.g. 0.2, 0.5, 0.3",
            description="The draft's three probabilities, in the same form.",
            sizing_mode="stretch_width", margin=(4, 0),
        )
        self.p_message = pn.pane.HTML("", stylesheets=css, sizing_mode="stretch_width", margin=(0, 0, 4, 0))
        self.q_message = pn.pane.HTML("", stylesheets=css, sizing_mode="stretch_width", margin=(0, 0, 4, 0))
        self.presets = []
        for i, (label, _, _, what) in enumerate(PRESETS):
            button = pn.widgets.Button(label=label, description=what, stylesheets=[theme.BUTTON],
                                       margin=(2, 6, 2, 0))
            button.on_click(lambda event, i=i: m.load(i))
            self.presets.append(button)
        self.table = pn.pane.HTML("", stylesheets=css, sizing_mode="stretch_width", margin=(4, 0))
        self.summary = pn.pane.HTML("", stylesheets=css, sizing_mode="stretch_width", margin=(4, 0))
        self.lines = pn.pane.HTML("", stylesheets=css, sizing_mode="stretch_width", margin=(4, 0))

        self.p_input.param.watch(lambda e: setattr(m, "p_text", e.new or ""), "value")
        self.q_input.param.watch(lambda e: setattr(m, "q_text", e.new or ""), "value")
        m.param.watch(self._sync, ["p_text", "q_text", "decomposition", "p_error", "q_error"])

        intro = pn.pane.HTML(
            '<div class="section-title"><h2>One position, by hand</h2>'
            '<span class="muted">why kept proposals plus corrections give exactly p</span></div>'
            '<p>A proposal x is drawn from q and kept with probability min(1, p(x)/q(x)), so token x is '
            'kept with probability q(x) × min(1, p(x)/q(x)) = min(p(x), q(x)). What is missing, '
            'max(p − q, 0), is exactly what the rejections must supply: that is the residual. Type any p '
            'and q and check it yourself.</p>',
            stylesheets=css, sizing_mode="stretch_width", margin=(0, 0, 4, 0),
        )
        fields = pn.FlexBox(
            pn.Column(self.p_input, self.p_message, margin=0, styles={"flex": "1 1 240px", "min-width": "0"}),
            pn.Column(self.q_input, self.q_message, margin=0, styles={"flex": "1 1 240px", "min-width": "0"}),
            gap="0 20px", flex_wrap="wrap", sizing_mode="stretch_width", margin=0,
        )
        self._layout = pn.Column(
            intro,
            pn.FlexBox(*self.presets, flex_wrap="wrap", sizing_mode="stretch_width", margin=(0, 0, 4, 0)),
            fields, self.summary, self.table, self.lines,
            sizing_mode="stretch_width", stylesheets=[theme.CARD], margin=(6, 0),
        )
        self._sync()

    @staticmethod
    def _message(error):
        if not error:
            return '<div class="field-ok" aria-live="polite">✓ a distribution over A, B, C</div>'
        text = error[0].upper() + error[1:]
        return f'<div class="field-error" role="alert">⚠ {theme.esc(text)}.</div>'

    def _sync(self, *events):
        m = self.model
        self.p_input.value = m.p_text
        self.q_input.value = m.q_text
        self.p_message.object = self._message(m.p_error)
        self.q_message.object = self._message(m.q_error)
        d = m.decomposition
        if d is None:
            self.summary.object = ('<p class="muted">Fix the field marked above to see the decomposition.</p>')
            self.table.object = ""
            self.lines.object = ""
            return
        self.summary.object = summary_html(d)
        self.table.object = table_html(d)
        self.lines.object = ('<p class="muted small" style="margin-top:6px">What the seed article\'s script '
                             'prints for these numbers:</p><pre class="seed">'
                             + theme.esc("\n".join(m.seed_lines())) + "</pre>")

    def __panel__(self):
        return self._layout
