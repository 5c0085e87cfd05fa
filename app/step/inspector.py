"""The inspector: one position of one block, every number of its test.

For a proposal: the prefix it was conditioned on, the draft row q and (after
Verify) the target row p, the token x, q(x), p(x), p(x)/q(x), the acceptance
probability min(1, p(x)/q(x)), the draw u and the decision (Leviathan et al.
2023, Algorithm 1). On a rejection: the residual norm(max(p − q, 0)), its draw
and the replacement. For a bonus: the target row and its draw.

Three Bokeh charts: q and p side by side; the residual; and one stacked bar
per token, accepted mass min(p, q) plus rejection × residual, which reaches
exactly p (``core.decompose``). They are bare ``bokeh.models.Plot``s (no
``bokeh.plotting``, which the page would otherwise import at start-up), made
once; a click refills their ``ColumnDataSource``s in place. Every value
comes from a ``core`` record and is formatted with ``core.display``; charts
turn the same Fractions into floats only to draw them.
"""

import panel as pn
import param
from bokeh.core.properties import field as column
from bokeh.models import (CategoricalAxis, CategoricalScale, ColumnDataSource, FactorRange, FixedTicker, Grid, HoverTool, LabelSet,
                          Legend, LegendItem, LinearAxis, Plot, Range1d, VBar)

import core
from core.display import dec, draw, exact_or_dec, versus

from .. import theme
from ..i18n import t
from ..parts import ChartTitle, html, style_figure, update_changed, y_label
from . import words
from .model import StepModel

TOKENS = tuple(core.TOKENS)


def _u(x):
    """A draw, shown to 4 places, more when 4 would show 1 (the exact value is k / 2**32, in the tooltip)."""
    return draw(x)


def _prefix_html(prefix, committed_len):
    if not prefix:
        return f'<span class="muted">{theme.esc(t("step.inspector.no_prefix"))}</span>'
    parts = []
    for i, token in enumerate(prefix):
        if i == committed_len and i > 0:
            parts.append('<span class="sep" aria-hidden="true">|</span>')
        parts.append(theme.chip(token, "sm" + (" proposed" if i >= committed_len else ""),
                                title=t("step.inspector.earlier" if i >= committed_len else "step.block_state.committed")))
    return '<span class="prefix">' + "".join(parts) + "</span>"


def _table(rows, picked=None):
    """An A/B/C table; ``rows`` holds ((label, description), values) with values as Fractions."""
    head = "".join(
        f'<th scope="col" class="{"picked" if t == picked else ""}">{theme.chip(t, "sm")}</th>' for t in TOKENS)
    body = []
    for (label, desc), values in rows:
        cells = "".join(
            f'<td class="mono {"picked" if t == picked else ""}">{dec(v)}</td>' for t, v in zip(TOKENS, values))
        body.append(f'<tr><th scope="row">{theme.esc(label)}<span class="desc muted small">{theme.esc(desc)}</span>'
                    f'</th>{cells}</tr>')
    return (f'<table class="rows"><thead><tr><th scope="col">{theme.esc(t("step.inspector.next_token"))}</th>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table>')


def _facts(items):
    rows = "".join(f"<dt>{label}</dt><dd>{value}</dd>" for label, value in items)
    return f'<dl class="facts">{rows}</dl>'


def _verdict(status, text=None):
    return f'<span class="verdict {status}">{theme.esc(text or words.status_word(status))}</span>'


def _mono(x, exact=None):
    title = f' title="{theme.esc(t("step.inspector.exactly", value=exact))}"' if exact is not None else ""
    return f'<span class="mono"{title}>{x}</span>'


# ---- the words on the left ------------------------------------------------------------

def guide_html(session):
    items = "".join(f"<li><b>{theme.esc(name)}</b>{theme.esc(t('step.inspector.colon'))}{theme.esc(text)}</li>"
                    for name, text in words.guide())
    lead = t("step.all_done" if session.phase == "done" else "step.nothing_yet")
    return (f"<p>{theme.esc(lead)}</p><ol class=\"guide\">{items}</ol>"
            f'<div class="explain"><p><b>{theme.esc(t("step.rule.title"))}</b> {theme.esc(t("step.rule"))}</p></div>')


def _heading(it, title, status, status_text=None):
    where = t("step.block.current" if it.pending else "step.block_state.committed")
    return (f'<div class="section-title"><h3>{theme.esc(t("step.inspector.heading", block=it.block.index + 1, title=title))}</h3>'
            f'{_verdict(status, status_text)}<span class="muted small">{where}</span></div>')


def proposal_html(it, draft="aligned"):
    x, block, d = it.proposal, it.block, it.decomposition
    out = _heading(it, t("step.inspector.proposal", position=x.index + 1, token=x.token), x.status,
                   words.status_text(x.status))
    out += (f'<p>{theme.esc(t("step.inspector.conditioned"))}{_prefix_html(x.prefix, len(block.prefix))}</p>'
            f'<p class="muted small">{theme.esc(words.where_rows(draft, x))}</p>')
    rows = [(words.q_row_label(draft), x.q)]
    if x.p is not None:
        rows.append((words.row("p"), x.p))
    if d is not None:
        rows.append((words.row("kept"), d.accepted))
        rows.append((words.row("residual"), d.residual))
    out += _table(rows, picked=x.token)
    esc = theme.esc
    if x.u_draft is None:  # the lookup draft copies: no draw
        picked = f'{theme.chip(x.token, "sm")} {esc(words.copied_from(x))}'
    else:
        picked = f'{theme.chip(x.token, "sm")} {esc(t("step.fact.token.drawn", u=_u(x.u_draft)))}'
    facts = [
        (esc(t("step.fact.token")), picked),
        ("q(x)", f'{_mono(dec(x.q_x))} <span class="muted">{esc(t("step.fact.q", token=x.token))}</span>'),
    ]
    if x.p is None:
        facts.append(("p(x)", f'<span class="muted">{esc(t("step.fact.p.later"))}</span>'))
    else:
        facts.append(("p(x)", f'{_mono(dec(x.p_x))} <span class="muted">{esc(t("step.fact.p", token=x.token))}</span>'))
        facts.append(("p(x) / q(x)", _mono(exact_or_dec(x.ratio))))
    if x.status in ("accepted", "rejected"):
        u, chance = versus(x.u, x.accept_probability)  # the digits of the decision sentence below
        facts.append((f'{esc(t("step.fact.acceptance"))}<br>min(1, p(x)/q(x))',
                      f'{_mono(chance)} <span class="muted">'
                      f'{esc(words.keep_chance(x))}</span>'))
        facts.append((esc(t("step.fact.draw")), _mono(u, x.u)))
        facts.append((esc(t("step.fact.decision")), f"{_verdict(x.status)} {esc(words.decision(x))}"))
    elif x.status == "discarded":
        facts.append((esc(t("step.fact.decision")), f'{_verdict("discarded")} {esc(words.discarded_why(block))}'))
    if getattr(it, "masked", False):  # Predict first: the residual and the draw are the answer the reader is giving
        facts.append((esc(t("step.fact.replacement")), esc(t("step.predict.support.inspector"))))
    if it.correction is not None:
        c = it.correction
        label, what = words.position_rejects()
        facts.append((esc(label), f'{_mono(dec(c.rejection))} <span class="muted">{esc(what)}</span>'))
        facts.append((esc(t("step.row.residual")), _mono(f"[{core.display.row(c.residual)}]")))
        facts.append((esc(t("step.fact.correction_draw")), _mono(_u(c.u), c.u)))
        facts.append((esc(t("step.fact.replacement")),
                      f'{theme.chip(c.token, "sm")} {esc(t("step.fact.replacement.what", token=x.token))}'))
    out += _facts(facts)
    lead = words.draft_lead(draft, x)
    out += '<div class="explain">'
    if lead is not None:
        out += f'<p class="draft-note">{theme.esc(lead)}</p>'
    out += f'<p>{theme.esc(words.explain_proposal(x, d))}</p></div>'
    return out


def ordinary_html(it):
    b, block = it.bonus, it.block
    esc = theme.esc
    out = _heading(it, t("step.inspector.ordinary", token=b.token), "bonus", t("step.inspector.ordinary.badge"))
    out += (f'<p>{esc(t("step.inspector.conditioned"))}{_prefix_html(b.prefix, len(block.prefix))}</p>'
            f'<p class="muted small">{esc(t("step.inspector.ordinary_row", row=words.row_name(b.prefix)))}</p>')
    out += _table([(words.row("p"), b.p)], picked=b.token)
    out += _facts([
        (esc(t("step.fact.why_ordinary")), esc(words.ordinary_why(block))),
        (esc(t("step.fact.draw")), _mono(_u(b.u), b.u)),
        (esc(t("step.fact.bonus_token")), f'{theme.chip(b.token, "sm")} {esc(t("step.fact.bonus_token.what"))}'),
    ])
    return out + f'<div class="explain"><p>{esc(t("step.ordinary_explain"))}</p></div>'


def bonus_html(it):
    b, block = it.bonus, it.block
    esc = theme.esc
    if not block.proposals:
        return ordinary_html(it)
    out = _heading(it, t("step.inspector.bonus", token=b.token), "bonus", words.status_label("bonus"))
    out += (f'<p>{esc(t("step.inspector.conditioned"))}{_prefix_html(b.prefix, len(block.prefix))}</p>'
            f'<p class="muted small">{esc(t("step.inspector.bonus_row", row=words.row_name(b.prefix)))}</p>')
    out += _table([(words.row("p"), b.p)], picked=b.token)
    out += _facts([
        (esc(t("step.fact.why_bonus")), esc(words.bonus_why(block))),
        (esc(t("step.fact.draw")), _mono(_u(b.u), b.u)),
        (esc(t("step.fact.bonus_token")), f'{theme.chip(b.token, "sm")} {esc(t("step.fact.bonus_token.what"))}'),
    ])
    return out + f'<div class="explain"><p>{esc(t("step.bonus_explain"))}</p></div>'


# ---- charts ------------------------------------------------------------------------

def _plot(x_range, height=230, x_label=None):
    """A bar plot without a title: its ``ChartTitle`` stands above it (and wraps on a phone)."""
    plot = Plot(title=None, x_range=x_range, x_scale=CategoricalScale(),
                y_range=Range1d(0, 1.08),
                height=height, sizing_mode="stretch_width", min_width=240, toolbar_location=None)
    x_axis = CategoricalAxis(axis_label=x_label or t("step.inspector.next_token"))
    y_axis = LinearAxis(ticker=FixedTicker(ticks=[0, 0.25, 0.5, 0.75, 1]))
    plot.add_layout(x_axis, "below")
    plot.add_layout(y_axis, "left")
    plot.add_layout(Grid(dimension=1, ticker=y_axis.ticker))
    return y_label(style_figure(plot), t("step.chart.probability"))


def _labels(plot, source, y, text="label"):
    plot.add_layout(LabelSet(x="x", y=y, text=text, source=source, text_align="center", y_offset=3,
                             text_font_size="11px", text_color=theme.INK))


PQ_COLUMNS = ("x", "value", "fill", "line", "label", "name")
TOKEN_COLUMNS = ("x", "value", "fill", "line", "label")
STACK_COLUMNS = ("x", "accepted", "final", "fill", "tint", "line", "label", "name")


def _empty(columns):
    return {k: [] for k in columns}


class Charts:
    """The three Bokeh plots, made once; ``show_*`` refill their sources in place."""

    def __init__(self):
        factors = [(t, side) for t in TOKENS for side in ("q", "p")]
        self.pq_source = ColumnDataSource(_empty(PQ_COLUMNS))
        self.pq_title = ChartTitle(t("step.chart.pq"))
        self.pq = _plot(FactorRange(*factors, group_padding=0.6),
                        x_label=t("step.chart.axis", sides=t("step.chart.sides.both")))
        # q is the light bar, p the full colour; hatching is kept for one meaning, the corrections below.
        self.pq.add_glyph(self.pq_source, VBar(
            x="x", top="value", width=0.85, fill_color=column("fill"), line_color=column("line"), line_width=1.5))
        _labels(self.pq, self.pq_source, "value")
        self.pq.add_tools(HoverTool(tooltips=[("", "@name")]))

        self.res_source = ColumnDataSource(_empty(TOKEN_COLUMNS))
        self.residual_title = ChartTitle(t("step.chart.residual"))
        self.residual = _plot(FactorRange(*TOKENS))
        self.residual.add_glyph(self.res_source, VBar(x="x", top="value", width=0.6, fill_color=column("fill"),
                                                      line_color=column("line"), line_width=1.5))
        _labels(self.residual, self.res_source, "value")

        self.stack_source = ColumnDataSource(_empty(STACK_COLUMNS))
        self.stack_title = ChartTitle(t("step.chart.stack"))
        self.stack = _plot(FactorRange(*TOKENS), height=280)
        kept = self.stack.add_glyph(self.stack_source, VBar(
            x="x", bottom=0, top="accepted", width=0.6, fill_color=column("fill"), line_color=column("line"),
            line_width=1.5))
        corrected = self.stack.add_glyph(self.stack_source, VBar(
            x="x", bottom="accepted", top="final", width=0.6, fill_color=column("tint"), line_color=column("line"),
            hatch_pattern="right_diagonal_line", hatch_color=column("line"), hatch_alpha=0.6, hatch_scale=8,
            line_width=1.5))
        _labels(self.stack, self.stack_source, "final")
        self.stack.add_tools(HoverTool(tooltips=[("", "@name")]))
        # Below the bars, so it never hides one.
        self.stack.add_layout(Legend(
            items=[LegendItem(label=t("step.chart.legend.kept"), renderers=[kept]),
                   LegendItem(label=t("step.chart.legend.corrections"), renderers=[corrected])],
            orientation="horizontal", label_text_font_size="11px", background_fill_alpha=0.85,
            border_line_color=None, padding=4, spacing=2), "below")

    def show_rows(self, q, p, title):
        """q (draft) and p (target) side by side; a row that is None (not known yet, or not used) is left out."""
        rows = [(side, row) for side, row in (("q", q), ("p", p)) if row is not None]
        data = _empty(PQ_COLUMNS)
        for i, token in enumerate(TOKENS):
            for side, row in rows:
                data["x"].append((token, side))
                data["value"].append(float(row[i]))
                data["fill"].append(theme.tint(token) if side == "q" else theme.fill(token))
                data["line"].append(theme.ink(token))
                data["label"].append(dec(row[i]))
                who = words.row(side)[0]
                data["name"].append(f"{who}({token}) = {dec(row[i])}")
        sides = "both" if len(rows) == 2 else rows[0][0] if rows else "both"
        self.pq.x_range.factors = list(data["x"])
        self.pq_source.data = data
        self.pq_title.show(title)
        self.pq.below[0].axis_label = t("step.chart.axis", sides=t(f"step.chart.sides.{sides}"))

    def show_residual(self, residual, title):
        data = _empty(TOKEN_COLUMNS)
        for token, v in zip(TOKENS, residual):
            data["x"].append(token)
            data["value"].append(float(v))
            data["fill"].append(theme.fill(token))
            data["line"].append(theme.ink(token))
            data["label"].append(dec(v))
        self.res_source.data = data
        self.residual_title.show(title)

    def clear(self, pq=False, residual=False, stack=False):
        """Hidden charts go back to their first, empty state, so what a hidden chart holds never
        depends on the way the reader came to this moment (issue 27: the page's recorded moments
        must equal Python's whatever the path); nothing is sent for a chart already empty."""
        for wanted, source, title, text in ((pq, self.pq_source, self.pq_title, t("step.chart.pq")),
                                            (residual, self.res_source, self.residual_title, t("step.chart.residual")),
                                            (stack, self.stack_source, self.stack_title, t("step.chart.stack"))):
            if wanted:
                if any(len(column) for column in source.data.values()):
                    source.data = _empty(list(source.data))
                title.show(text)
        if pq:
            factors = [(t, side) for t in TOKENS for side in ("q", "p")]
            if list(self.pq.x_range.factors) != factors:
                self.pq.x_range.factors = factors
            axis = t("step.chart.axis", sides=t("step.chart.sides.both"))
            if self.pq.below[0].axis_label != axis:
                self.pq.below[0].axis_label = axis

    def show_decomposition(self, d):
        data = _empty(STACK_COLUMNS)
        for i, token in enumerate(TOKENS):
            data["x"].append(token)
            data["accepted"].append(float(d.accepted[i]))
            data["final"].append(float(d.final[i]))
            data["fill"].append(theme.fill(token))
            data["tint"].append(theme.tint(token))
            data["line"].append(theme.ink(token))
            data["label"].append(f"p = {dec(d.final[i])}")
            data["name"].append(t("step.chart.stack.hover", token=token, kept=dec(d.accepted[i]),
                                  rejection=dec(d.rejection), residual=dec(d.residual[i]),
                                  corrected=dec(d.corrected[i]), total=dec(d.final[i])))
        self.stack_source.data = data


class Inspector(pn.viewable.Viewer):
    """One position at a time; pick it from the list or click a chip in the strip."""

    model = param.ClassSelector(class_=StepModel)

    def __init__(self, **params):
        super().__init__(**params)
        # The picker's two placeholder options are their own values (in the page's
        # language): a Select cannot show an option whose value is None.
        self.nothing = t("step.picker.nothing")
        self.pick = t("step.picker.pick")
        self.picker = pn.widgets.Select(label=t("step.picker.label"), options=[self.nothing], value=self.nothing,
                                        disabled=True,
                                        sizing_mode="stretch_width", max_width=520, margin=(4, 0, 8, 0))
        self.picker.param.watch(self._picked, "value")
        head = html(f'<div class="section-title"><h2>{theme.esc(t("step.inspector.title"))}</h2><span class="muted">'
                    f'{theme.esc(t("step.inspector.lead"))}</span></div>'
                    # Lectures that follow Chen et al. swap the letters: say which is which, once.
                    f'<p class="muted small notation">{theme.esc(t("step.notation"))}</p>')
        self.body = html("", theme.CHIPS, theme.INSPECTOR, margin=(0, 0, 4, 0), styles={"flex": "1 1 400px", "min-width": "0"})
        self.charts = Charts()
        chart = {"sizing_mode": "stretch_width", "min_width": 240, "margin": (4, 0)}
        # Visibility is toggled on a wrapper: a Bokeh pane hands `visible`
        # back and forth with its figure, which can leave it hidden.
        c = self.charts
        self._pq = pn.Column(c.pq_title.pane, pn.pane.Bokeh(c.pq, **chart), sizing_mode="stretch_width", margin=0)
        self._residual = pn.Column(c.residual_title.pane, pn.pane.Bokeh(c.residual, **chart),
                                   sizing_mode="stretch_width", margin=0)
        self._stack = pn.Column(c.stack_title.pane, pn.pane.Bokeh(c.stack, **chart), sizing_mode="stretch_width",
                                margin=0)
        # Numbers on the left, charts on the right; they stack on a narrow screen.
        self._charts = pn.Column(self._pq, self._residual, self._stack, sizing_mode="stretch_width",
                                 margin=0, styles={"flex": "1 1 360px", "min-width": "0"})
        self._layout = pn.Column(
            head, self.picker,
            pn.FlexBox(self.body, self._charts, gap="8px 28px", flex_wrap="wrap", align_items="flex-start",
                       sizing_mode="stretch_width", margin=0),
            sizing_mode="stretch_width", stylesheets=[theme.CARD], margin=(6, 0))
        self._render()

    def _picked(self, event):
        self.model.inspect(None if event.new in (self.nothing, self.pick) else event.new)

    @param.depends("model.session", "model.focus", "model.asking", watch=True)
    def _render(self):
        m = self.model
        positions = m.positions()
        if positions:
            options = dict(positions)
            if m.focus not in options.values():
                options = {self.pick: self.pick, **options}
            # Options and value in one update, so the picker's own watcher sees only the final value.
            update_changed(self.picker, options=options, value=m.focus if m.focus in options.values() else self.pick,
                           disabled=False)
        else:
            update_changed(self.picker, options=[self.nothing], value=self.nothing, disabled=True)
        # The charts are plain Bokeh models changed in place. Panel runs a
        # click's callback without Bokeh's document lock, so their changes
        # must be sent the way Panel sends its own (`unlocked`); in the
        # Pyodide worker this is a no-op.
        with pn.io.unlocked():
            self._show(m.inspected())
            whole = not self._charts.visible
            self.charts.clear(pq=whole, residual=whole or not self._residual.visible,
                              stack=whole or not self._stack.visible)

    def _show(self, it):
        charts = self.charts
        if it is None:
            session = self.model.session
            self.body.object = guide_html(session)
            preview = session.phase == "draft"
            self._charts.visible = preview
            if preview:
                # Before a block is drafted: the next position's q and p, so the default view already shows the rule.
                d = core.position(session.config.draft, session.output, session.config.tables)
                where = words.short_row(session.output)
                if d is None:  # lookup has nothing to copy: the next block is an ordinary step from p
                    p = core.position("aligned", session.output, session.config.tables).p
                    self.body.object = f"<p>{theme.esc(t('step.nothing_to_copy_preview'))}</p>" + guide_html(session)
                    charts.show_rows(None, p, t("step.chart.next_ordinary", where=where))
                    self._residual.visible = False
                    self._stack.visible = False
                    return
                charts.show_rows(d.q, d.p, t("step.chart.next_position", where=where))
                self._residual.visible = d.rejection > 0
                if d.rejection > 0:
                    charts.show_residual(d.residual, t("step.chart.next_residual", where=where))
                self._stack.visible = True
                charts.show_decomposition(d)
            return
        self._charts.visible = True
        if it.bonus is not None:
            b = it.bonus
            self.body.object = bonus_html(it)
            key = "step.chart.bonus" if it.block.proposals else "step.chart.ordinary"
            charts.show_rows(None, b.p, t(key, where=words.short_row(b.prefix)))
            self._residual.visible = False
            self._stack.visible = False
            return
        x, d = it.proposal, it.decomposition
        self.body.object = proposal_html(it, self.model.session.config.draft)
        title = t("step.chart.pq_at" if x.p is not None else "step.chart.q_at", where=words.short_row(x.prefix))
        charts.show_rows(x.q, x.p, title)
        has_residual = d is not None and d.rejection > 0
        self._residual.visible = has_residual
        if has_residual:
            residual = it.correction.residual if it.correction is not None else d.residual
            charts.show_residual(residual, t("step.chart.residual"))
        self._stack.visible = d is not None
        if d is not None:
            charts.show_decomposition(d)

    def __panel__(self):
        return self._layout
