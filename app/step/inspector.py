"""The inspector: one position of one block, every number of its test.

For a proposal: the prefix it was conditioned on, the draft row q and (after
Verify) the target row p, the token x, q(x), p(x), p(x)/q(x), the acceptance
probability min(1, p(x)/q(x)), the draw u and the decision (Leviathan et al.
2023, Algorithm 1). On a rejection: the residual norm(max(p − q, 0)), its draw
and the replacement. For a bonus: the target row and its draw.

Three bar charts: q and p side by side; the residual; and one stacked bar
per token, accepted mass min(p, q) plus rejection × residual, which reaches
exactly p (``core.decompose``). They are HTML in one pane (``bars.py``), so a
click changes one text and never lays the page out. Every value comes from a
``core`` record and is formatted with ``core.display``; a bar's height is the
same Fraction as a float, only to draw it.
"""

import panel as pn
import param

import core
from core.display import dec, draw, exact_or_dec, versus

from .. import theme
from ..i18n import t
from ..parts import html, update_changed, wrap
from . import bars, words
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

class Charts:
    """The three charts as one HTML pane (``bars.py``): ``show`` sets what this moment shows, in one text.

    ``shown`` maps each chart shown to its ``bars.Chart`` (the tests read the bars' numbers there).
    """

    def __init__(self, **params):
        self.shown: dict[str, bars.Chart] = {}
        self.pane = html("", theme.CHIPS, theme.CHART_TITLE, theme.BARS, margin=0, **params)

    def show(self, *charts):
        """Show ``charts`` (``bars.Chart``s, None for one left out), in that order, and nothing else."""
        self.shown = {c.key: c for c in charts if c is not None}
        update_changed(self.pane, object=bars.charts_html(self.shown.values()))


def _probability():
    return t("step.chart.probability")


def rows_chart(q, p, title) -> bars.Chart:
    """q (draft) and p (target) side by side; a row that is None (not known yet, or not used) is left out."""
    rows = [(side, row) for side, row in (("q", q), ("p", p)) if row is not None]
    made = []
    for i, token in enumerate(TOKENS):
        for side, row in rows:
            who = words.row(side)[0]
            made.append(bars.Bar(token, float(row[i]), dec(row[i]), f"{who}({token}) = {dec(row[i])}",
                                 under=side, light=side == "q"))
    sides = "both" if len(rows) == 2 else rows[0][0] if rows else "both"
    return bars.Chart("pq", title, tuple(made), t("step.chart.axis", sides=t(f"step.chart.sides.{sides}")),
                      _probability())


def residual_chart(residual, title) -> bars.Chart:
    made = tuple(bars.Bar(token, float(v), dec(v), f"{token}: {dec(v)}") for token, v in zip(TOKENS, residual))
    return bars.Chart("residual", title, made, t("step.inspector.next_token"), _probability())


def stack_chart(d) -> bars.Chart:
    """One bar per token: the accepted mass min(p, q), and above it rejection × residual, reaching p."""
    made = tuple(bars.Bar(token, float(d.accepted[i]), f"p = {dec(d.final[i])}",
                          t("step.chart.stack.hover", token=token, kept=dec(d.accepted[i]), rejection=dec(d.rejection),
                            residual=dec(d.residual[i]), corrected=dec(d.corrected[i]), total=dec(d.final[i])),
                          hatched=float(d.corrected[i]))
                 for i, token in enumerate(TOKENS))
    return bars.Chart("stack", t("step.chart.stack"), made, t("step.inspector.next_token"), _probability(),
                      legend=(("solid", t("step.chart.legend.kept")), ("hatched", t("step.chart.legend.corrections"))))


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
        # Numbers on the left, charts on the right; they stack on a narrow screen.
        self.charts = Charts(styles={"flex": "1 1 360px", "min-width": "0"})
        self._charts = self.charts.pane
        self._layout = pn.Column(
            head, self.picker,
            wrap(self.body, self._charts, gap="8px 28px", margin=0),
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
        self._show(m.inspected())

    def _show(self, it):
        """The body's numbers and the charts of the moment (a chart not shown is not in the pane's text)."""
        charts = self.charts
        if it is None:
            session = self.model.session
            self.body.object = guide_html(session)
            preview = session.phase == "draft"
            update_changed(self._charts, visible=preview)
            if not preview:
                charts.show()
                return
            # Before a block is drafted: the next position's q and p, so the default view already shows the rule.
            d = core.position(session.config.draft, session.output, session.config.tables)
            where = words.short_row(session.output)
            if d is None:  # lookup has nothing to copy: the next block is an ordinary step from p
                p = core.position("aligned", session.output, session.config.tables).p
                self.body.object = f"<p>{theme.esc(t('step.nothing_to_copy_preview'))}</p>" + guide_html(session)
                charts.show(rows_chart(None, p, t("step.chart.next_ordinary", where=where)))
                return
            charts.show(rows_chart(d.q, d.p, t("step.chart.next_position", where=where)),
                        residual_chart(d.residual, t("step.chart.next_residual", where=where))
                        if d.rejection > 0 else None,
                        stack_chart(d))
            return
        update_changed(self._charts, visible=True)
        if it.bonus is not None:
            b = it.bonus
            self.body.object = bonus_html(it)
            key = "step.chart.bonus" if it.block.proposals else "step.chart.ordinary"
            charts.show(rows_chart(None, b.p, t(key, where=words.short_row(b.prefix))))
            return
        x, d = it.proposal, it.decomposition
        self.body.object = proposal_html(it, self.model.session.config.draft)
        title = t("step.chart.pq_at" if x.p is not None else "step.chart.q_at", where=words.short_row(x.prefix))
        residual = None
        if d is not None and d.rejection > 0:
            row = it.correction.residual if it.correction is not None else d.residual
            residual = residual_chart(row, t("step.chart.residual"))
        charts.show(rows_chart(x.q, x.p, title), residual, stack_chart(d) if d is not None else None)

    def __panel__(self):
        return self._layout
