"""The inspector: one position of one block, every number of its test.

For a proposal: the prefix it was conditioned on, the draft row q and (after
Verify) the target row p, the token x, q(x), p(x), p(x)/q(x), the acceptance
probability min(1, p(x)/q(x)), the draw u and the decision (Leviathan et al.
2023, Algorithm 1). On a rejection: the residual norm(max(p − q, 0)), its draw
and the replacement. For a bonus: the target row and its draw.

Three Bokeh charts: q and p side by side; the residual; and one stacked bar
per token, accepted mass min(p, q) plus rejection × residual, which reaches
exactly p (``core.decompose``). Every value comes from a ``core`` record and
is formatted with ``core.display``; charts turn the same Fractions into
floats only to draw them.
"""

import panel as pn
import param
from bokeh.models import ColumnDataSource, FactorRange, HoverTool, LabelSet, Range1d
from bokeh.plotting import figure

import core
from core.display import dec, exact_or_dec

from . import theme
from .model import Model, count, ordinal
from .parts import style_figure

TOKENS = tuple(core.TOKENS)
NOTHING = "Nothing to inspect yet"


def _u(x):
    """A draw, shown to 4 places (the exact value is k / 2**32, in the tooltip)."""
    return dec(x, 4)


def _prefix_html(prefix, committed_len):
    if not prefix:
        return '<span class="muted">nothing: this is the start of the text</span>'
    parts = []
    for i, t in enumerate(prefix):
        if i == committed_len and i > 0:
            parts.append('<span class="sep" aria-hidden="true">|</span>')
        parts.append(theme.chip(t, "sm" + (" proposed" if i >= committed_len else ""),
                                title="earlier proposal in this block" if i >= committed_len else "committed"))
    return '<span class="prefix">' + "".join(parts) + "</span>"


def _row_name(prefix):
    return "the start of the text" if not prefix else f"after {prefix[-1]}"


def _short_row(prefix):
    return "at the start" if not prefix else f"after {prefix[-1]}"


def _table(rows, picked=None):
    """An A/B/C table; ``rows`` holds (label, description, values) with values as Fractions or None."""
    head = "".join(
        f'<th scope="col" class="{"picked" if t == picked else ""}">{theme.chip(t, "sm")}</th>' for t in TOKENS
    )
    body = []
    for label, desc, values in rows:
        cells = "".join(
            f'<td class="mono {"picked" if t == picked else ""}">{dec(v)}</td>' for t, v in zip(TOKENS, values)
        )
        body.append(f'<tr><th scope="row">{theme.esc(label)}<span class="desc muted small">{theme.esc(desc)}</span>'
                    f'</th>{cells}</tr>')
    return (f'<table class="rows"><thead><tr><th scope="col">next token</th>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table>')


def _facts(items):
    rows = "".join(f"<dt>{label}</dt><dd>{value}</dd>" for label, value in items)
    return f'<dl class="facts">{rows}</dl>'


def _verdict(status, text=None):
    return f'<span class="verdict {status}">{theme.esc(text or status)}</span>'


# ---- charts ------------------------------------------------------------------------

def _base(title, x_range, y_label="probability", x_label="next token"):
    fig = style_figure(figure(title=title, x_range=x_range, y_range=Range1d(0, 1.08), height=230,
                              sizing_mode="stretch_width", min_width=240, tools=""))
    fig.title.text_font_size = "13px"
    fig.yaxis.axis_label = y_label
    fig.xaxis.axis_label = x_label
    fig.xgrid.grid_line_color = None
    fig.yaxis.ticker = [0, 0.25, 0.5, 0.75, 1]
    return fig


def _labels(fig, source, x, y, text):
    fig.add_layout(LabelSet(x=x, y=y, text=text, source=source, text_align="center", y_offset=3,
                            text_font_size="11px", text_color=theme.INK))


class Charts:
    """The three Bokeh figures; ``update`` refills their sources from one ``Inspected``."""

    def __init__(self):
        factors = [(t, side) for t in TOKENS for side in ("q", "p")]
        self.pq_source = ColumnDataSource(self._empty_pq())
        self.pq = _base("Draft q vs target p", FactorRange(*factors, group_padding=0.6),
                        x_label="next token (q = draft, p = target)")
        self.pq.vbar(x="x", top="value", width=0.85, source=self.pq_source, fill_color="fill",
                     line_color="line", hatch_pattern="hatch", hatch_color="line", hatch_alpha=0.5,
                     hatch_scale=8, line_width=1.5)
        _labels(self.pq, self.pq_source, "x", "value", "label")
        self.pq.add_tools(HoverTool(tooltips=[("", "@name")]))

        self.res_source = ColumnDataSource(self._empty_tokens())
        self.residual = _base("Residual: redraw after a rejection", FactorRange(*TOKENS))
        self.residual.vbar(x="x", top="value", width=0.6, source=self.res_source, fill_color="fill",
                           line_color="line", line_width=1.5)
        _labels(self.residual, self.res_source, "x", "value", "label")

        self.stack_source = ColumnDataSource(self._empty_stack())
        self.stack = _base("Kept guesses + corrections = p", FactorRange(*TOKENS))
        self.stack.vbar(x="x", bottom=0, top="accepted", width=0.6, source=self.stack_source,
                        fill_color="fill", line_color="line", line_width=1.5,
                        legend_label="accepted: min(p, q)")
        self.stack.vbar(x="x", bottom="accepted", top="final", width=0.6, source=self.stack_source,
                        fill_color="tint", line_color="line", hatch_pattern="right_diagonal_line",
                        hatch_color="line", hatch_alpha=0.6, hatch_scale=8, line_width=1.5,
                        legend_label="corrections: rejection × residual")
        _labels(self.stack, self.stack_source, "x", "final", "label")
        self.stack.add_tools(HoverTool(tooltips=[("", "@name")]))
        self.stack.height = 280  # room for the legend below the bars
        legend = self.stack.legend[0]
        self.stack.legend.orientation = "horizontal"
        self.stack.add_layout(legend, "below")
        self.stack.legend.label_text_font_size = "11px"
        self.stack.legend.background_fill_alpha = 0.85
        self.stack.legend.border_line_color = None
        self.stack.legend.padding = 4
        self.stack.legend.spacing = 2

    @staticmethod
    def _empty_pq():
        return {k: [] for k in ("x", "value", "fill", "line", "hatch", "label", "name")}

    @staticmethod
    def _empty_tokens():
        return {k: [] for k in ("x", "value", "fill", "line", "label")}

    @staticmethod
    def _empty_stack():
        return {k: [] for k in ("x", "accepted", "final", "fill", "tint", "line", "label", "name")}

    def show_rows(self, q, p, title):
        """q (draft) and p (target) side by side; a row that is None (not known yet, or not used) is left out."""
        rows = [(side, row) for side, row in (("q", q), ("p", p)) if row is not None]
        data = self._empty_pq()
        for i, t in enumerate(TOKENS):
            for side, row in rows:
                data["x"].append((t, side))
                data["value"].append(float(row[i]))
                data["fill"].append(theme.tint(t) if side == "q" else theme.fill(t))
                data["line"].append(theme.ink(t))
                data["hatch"].append("left_diagonal_line" if side == "q" else " ")
                data["label"].append(dec(row[i]))
                who = "draft q" if side == "q" else "target p"
                data["name"].append(f"{who}({t}) = {dec(row[i])}")
        self.pq.x_range.factors = list(data["x"])
        self.pq_source.data = data
        self.pq.title.text = title
        names = {"q": "q = draft", "p": "p = target"}
        self.pq.xaxis.axis_label = f"next token ({', '.join(names[side] for side, _ in rows)})"

    def show_residual(self, residual, title):
        data = self._empty_tokens()
        for t, v in zip(TOKENS, residual):
            data["x"].append(t)
            data["value"].append(float(v))
            data["fill"].append(theme.fill(t))
            data["line"].append(theme.ink(t))
            data["label"].append(dec(v))
        self.res_source.data = data
        self.residual.title.text = title

    def show_decomposition(self, d):
        data = self._empty_stack()
        for i, t in enumerate(TOKENS):
            data["x"].append(t)
            data["accepted"].append(float(d.accepted[i]))
            data["final"].append(float(d.final[i]))
            data["fill"].append(theme.fill(t))
            data["tint"].append(theme.tint(t))
            data["line"].append(theme.ink(t))
            data["label"].append(f"p = {dec(d.final[i])}")
            data["name"].append(f"{t}: min(p, q) = {dec(d.accepted[i])}, plus rejection {dec(d.rejection)} × "
                                f"residual {dec(d.residual[i])} = {dec(d.corrected[i])}, total {dec(d.final[i])}")
        self.stack_source.data = data


class Inspector(pn.viewable.Viewer):
    """One position at a time; pick it from the list or click a chip in the strip."""

    model = param.ClassSelector(class_=Model)

    def __init__(self, **params):
        super().__init__(**params)
        self.picker = pn.widgets.Select(label="Inspect a position", options={NOTHING: None},
                                        sizing_mode="stretch_width", max_width=520, margin=(4, 0, 8, 0))
        self.picker.param.watch(self._picked, "value")
        self._head = pn.pane.HTML(
            '<div class="section-title"><h2>Inspector</h2><span class="muted">one position of one block, '
            'with every number of its test</span></div>',
            stylesheets=[theme.CSS], sizing_mode="stretch_width", margin=0,
        )
        self.body = pn.pane.HTML("", stylesheets=[theme.CSS], sizing_mode="stretch_width", margin=(0, 0, 4, 0))
        self.charts = Charts()
        chart = {"sizing_mode": "stretch_width", "min_width": 240, "margin": (4, 0)}
        # Visibility is toggled on a wrapper: a Bokeh pane hands `visible`
        # back and forth with its figure, which can leave it hidden.
        self._pq = pn.Column(pn.pane.Bokeh(self.charts.pq, **chart), sizing_mode="stretch_width", margin=0)
        self._residual = pn.Column(pn.pane.Bokeh(self.charts.residual, **chart), sizing_mode="stretch_width",
                                   margin=0)
        self._stack = pn.Column(pn.pane.Bokeh(self.charts.stack, **chart), sizing_mode="stretch_width", margin=0)
        # Numbers on the left, charts on the right; they stack on a narrow screen.
        self._charts = pn.Column(self._pq, self._residual, self._stack, sizing_mode="stretch_width",
                                 margin=0, styles={"flex": "1 1 360px", "min-width": "0"})
        self.body.styles = {"flex": "1 1 400px", "min-width": "0"}
        self._layout = pn.Column(
            self._head, self.picker,
            pn.FlexBox(self.body, self._charts, gap="8px 28px", flex_wrap="wrap", align_items="flex-start",
                       sizing_mode="stretch_width", margin=0),
            sizing_mode="stretch_width", stylesheets=[theme.CARD], margin=(6, 0))
        self.model.param.watch(self._sync, ["session", "focus"])
        self._syncing = False
        self._sync()

    def _picked(self, event):
        if self._syncing or event.new == NOTHING:
            return
        self.model.inspect(event.new)

    def _sync(self, *events):
        m = self.model
        self._syncing = True
        try:
            positions = m.positions()
            if positions:
                options = dict(positions)
                if m.focus not in options.values():
                    options = {"Pick a position": None, **options}
                self.picker.options = options
                self.picker.value = m.focus if m.focus in options.values() else None
                self.picker.disabled = False
            else:
                self.picker.options = [NOTHING]
                self.picker.value = NOTHING
                self.picker.disabled = True
        finally:
            self._syncing = False
        try:
            # The charts are plain Bokeh models changed in place. Panel runs a
            # click's callback without Bokeh's document lock, so their changes
            # must be sent the way Panel sends its own (`unlocked`); in the
            # Pyodide worker this is a no-op.
            with pn.io.unlocked():
                self._render(m.inspected())
        except Exception:
            m.report_error()

    # ---- what each kind of position shows ------------------------------------------------

    def _render(self, it):
        if it is None:
            self.body.object = self._empty_html()
            session = self.model.session
            self._charts.visible = session.phase == "draft"
            if session.phase == "draft":
                self._render_preview(core.position(session.config.draft, session.output), session.output)
            return
        self._charts.visible = True
        if it.bonus is not None:
            self._render_bonus(it)
        else:
            self._render_proposal(it)

    def _empty_html(self):
        steps = (
            ("Draft", "The small draft model guesses the next tokens one at a time, each drawn from its "
                      "probabilities q. The guesses are proposals, not output."),
            ("Verify", "One pass of the large target model gives its probabilities p at every proposed "
                       "position. Each proposal is kept with probability min(1, p/q), left to right; the first "
                       "rejected one is replaced by a draw from the residual, and the rest are discarded."),
            ("Commit", "The kept tokens, plus the replacement (or a bonus token when every guess was kept), "
                       "join the output. The next block starts from there."),
        )
        items = "".join(f"<li><b>{name}</b>: {theme.esc(text)}</li>" for name, text in steps)
        if self.model.session.phase == "done":
            lead = ('<p>The output is complete. Pick a position above, or a block in the history, to see the '
                    'test that decided it.</p>')
        else:
            lead = ('<p>Nothing drafted yet. The charts show the next position\'s rows: what the draft (q) and '
                    'the target (p) say there, and how kept guesses plus corrections add up to exactly p. After '
                    '<b>Draft</b>, click a chip (or pick a position above) to see how its token was chosen and, '
                    'after <b>Verify</b>, every number of the test that decided it.</p>')
        return (
            lead +
            f'<ol class="guide">{items}</ol>'
            '<div class="explain"><p><b>The rule</b> (Leviathan et al. 2023, Algorithm 1). At one position '
            'the draft gives probabilities q and the target gives p. A token x drawn from q is accepted when '
            'a uniform draw u is below min(1, p(x)/q(x)). After a rejection, the replacement is drawn from '
            'the residual: the part of p that q under-supplies, max(p − q, 0), scaled to sum to 1. Every '
            'later proposal in the block is discarded. Kept guesses and corrections together give each '
            'token exactly its target probability p.</p></div>'
        )

    def _render_preview(self, d, prefix):
        """Before a block is drafted: the next position's q and p, so the default view already shows the rule."""
        where = _short_row(prefix)
        self.charts.show_rows(d.q, d.p, f"Next position, {where}: draft q vs target p")
        self._residual.visible = d.rejection > 0
        if d.rejection > 0:
            self.charts.show_residual(d.residual, f"Residual {where}: what a rejection redraws from")
        self._stack.visible = True
        self.charts.show_decomposition(d)

    def _heading(self, it, title, status, status_text=None):
        where = "current block" if it.pending else "committed"
        return (f'<div class="section-title"><h3>Block {it.block.index + 1} · {theme.esc(title)}</h3>'
                f'{_verdict(status, status_text)}<span class="muted small">{where}</span></div>')

    def _render_proposal(self, it):
        x = it.proposal
        block = it.block
        committed_len = len(block.prefix)
        status_text = {"proposed": "proposed, not tested yet", "discarded": "discarded, never tested"}.get(
            x.status, x.status)
        html = self._heading(it, f"position {x.index + 1} · proposal {x.token}", x.status, status_text)
        html += (f'<p>Conditioned on: {_prefix_html(x.prefix, committed_len)}</p>'
                 f'<p class="muted small">The toy tables look only at the last token, so this position uses '
                 f'their rows for {_row_name(x.prefix)}.</p>')
        rows = [("draft q", "the draft's probabilities", x.q)]
        if x.p is not None:
            rows.append(("target p", "the target's probabilities", x.p))
        d = it.decomposition
        if d is not None:
            rows.append(("min(p, q)", "kept when the draft proposes it", d.accepted))
            rows.append(("residual", "norm(max(p − q, 0)): used after a rejection", d.residual))
        html += _table(rows, picked=x.token)
        facts = [
            ("token x", f'{theme.chip(x.token, "sm")} drawn from q with draw {_u(x.u_draft)}'),
            ("q(x)", f'<span class="mono">{dec(x.q_x)}</span> <span class="muted">the draft\'s probability of '
                     f'{x.token}</span>'),
        ]
        if x.p is None:
            facts.append(("p(x)", '<span class="muted">not computed yet: Verify scores every position in one '
                                  'target pass</span>'))
        else:
            facts.append(("p(x)", f'<span class="mono">{dec(x.p_x)}</span> <span class="muted">the target\'s '
                                  f'probability of {x.token}</span>'))
            facts.append(("p(x) / q(x)", f'<span class="mono">{exact_or_dec(x.ratio)}</span>'))
        if x.status in ("accepted", "rejected"):
            facts.append(("acceptance probability<br>min(1, p(x)/q(x))",
                          f'<span class="mono">{exact_or_dec(x.accept_probability)}</span>'))
            facts.append(("draw u", f'<span class="mono" title="exactly {x.u}">{_u(x.u)}</span>'))
            if x.status == "accepted":
                decision = (f'{_verdict("accepted")} u = {_u(x.u)} is below '
                            f'{exact_or_dec(x.accept_probability)}, so {x.token} is kept.')
            else:
                decision = (f'{_verdict("rejected")} u = {_u(x.u)} is not below '
                            f'{exact_or_dec(x.accept_probability)}, so {x.token} is replaced.')
            facts.append(("decision", decision))
        elif x.status == "discarded":
            rejected = next((p for p in block.proposals if p.status == "rejected"), None)
            why = (f"the {ordinal(rejected.index)} proposal ({rejected.token}) was rejected, and this one was "
                   f"drafted after it" if rejected else "an earlier proposal was rejected")
            facts.append(("decision", f'{_verdict("discarded")} not tested: {theme.esc(why)}, so its prefix is '
                                      f'not the output any more.'))
        if it.correction is not None:
            c = it.correction
            facts.append(("rejection probability<br>here: 1 − Σ min(p, q)",
                          f'<span class="mono">{dec(c.rejection)}</span>'))
            facts.append(("residual", f'<span class="mono">[{core.display.row(c.residual)}]</span>'))
            facts.append(("draw for the correction", f'<span class="mono" title="exactly {c.u}">{_u(c.u)}</span>'))
            facts.append(("replacement", f'{theme.chip(c.token, "sm")} drawn from the residual; it goes into the '
                                         f'output in place of {x.token}'))
        html += _facts(facts)
        html += self._explain_proposal(it)
        self.body.object = html

        title = (f"Draft q vs target p, {_short_row(x.prefix)}" if x.p is not None
                 else f"Draft q, {_short_row(x.prefix)} (p comes with Verify)")
        self.charts.show_rows(x.q, x.p, title)
        has_residual = d is not None and d.rejection > 0
        self._residual.visible = has_residual
        if has_residual:
            residual = it.correction.residual if it.correction is not None else d.residual
            self.charts.show_residual(residual, "Residual: redraw after a rejection")
        self._stack.visible = d is not None
        if d is not None:
            self.charts.show_decomposition(d)

    def _explain_proposal(self, it):
        x = it.proposal
        d = it.decomposition
        if x.status == "proposed":
            text = (f"The draft picked {x.token} with probability q({x.token}) = {dec(x.q_x)}. It is only a guess: "
                    f"nothing enters the output until the target has tested it.")
        elif x.status == "discarded":
            text = ("A discarded proposal is never tested, however good it looks: the target's p for it was "
                    "computed for a prefix that the output no longer has.")
        elif d is not None and d.rejection == 0:
            text = ("Here p equals q, so p(x)/q(x) = 1 and the proposal is always accepted. There is nothing to "
                    "correct: the residual is empty.")
        elif x.status == "accepted":
            text = (f"Drafting {x.token} and then accepting it happens with probability q(x) × min(1, p(x)/q(x)) = "
                    f"min(p, q) = {dec(d.accepted[TOKENS.index(x.token)])}. Rejections, redrawn from the residual, "
                    f"add exactly the missing mass, so every token ends up with probability p.")
        else:
            text = (f"{x.token} was over-proposed by the draft (q > p), so it is kept only part of the time. The "
                    f"replacement never comes from plain p: the residual holds only the mass that accepted "
                    f"guesses did not already supply, which is what keeps the output exactly distributed as p.")
        return f'<div class="explain"><p>{theme.esc(text)}</p></div>'

    def _render_bonus(self, it):
        b = it.bonus
        block = it.block
        html = self._heading(it, f"bonus token {b.token}", "bonus", "★ bonus")
        html += (f'<p>Conditioned on: {_prefix_html(b.prefix, len(block.prefix))}</p>'
                 f'<p class="muted small">The toy tables look only at the last token, so this uses the target\'s '
                 f'row for {_row_name(b.prefix)}.</p>')
        html += _table([("target p", "the target's probabilities", b.p)], picked=b.token)
        n = len(block.proposals)
        kept = "the one proposal was" if n == 1 else f"all {count(n, 'proposal')} were"
        html += _facts([
            ("why a bonus", f"{kept} accepted, and the target pass already computed p after the last "
                            f"of them"),
            ("draw u", f'<span class="mono" title="exactly {b.u}">{_u(b.u)}</span>'),
            ("token", f'{theme.chip(b.token, "sm")} drawn from the target p'),
        ])
        html += ('<div class="explain"><p>The bonus costs no extra target pass: it is the target\'s own next-token '
                 'distribution after the fully accepted draft. That is how one pass can commit width + 1 tokens.'
                 '</p></div>')
        self.body.object = html
        self.charts.show_rows(None, b.p, f"Target p, {_short_row(b.prefix)}: the bonus draw")
        self._residual.visible = False
        self._stack.visible = False

    def __panel__(self):
        return self._layout
