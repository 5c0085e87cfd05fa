"""Several candidates per position in "When it pays off": speedup against width for k = 1, 2, 3.

Every number comes from ``core.tree_payoff`` (exact, long run, every tree
node drafted at cost c); sentences from ``candidates_words.py``. The chart
is built once and refilled in place when the tab's table (draft, cost) changes.
"""

from functools import lru_cache

import panel as pn
import param
from bokeh.models import ColumnDataSource, HoverTool, Range1d, Span
from bokeh.plotting import figure

from core import tree, tree_payoff
from core.display import dec

from app import theme
from app.i18n import t
from app.parts import ChartTitle, html, style_figure, y_label
from app.theme import stylesheet

from . import candidates_words as words
from .model import PayoffModel

# k -> line colour, dash, marker: three cues per curve, so none depends on colour alone. One
# candidate is the exact curve of the charts above, drawn the same; k = 2 and 3 take marks those
# charts do not use (there dashed squares are the closed form, dotted triangles lookahead).
LINES = {
    1: ("#0b5cad", "solid", "circle"),
    2: ("#117733", "12 4", "hex"),
    3: ("#882255", "8 3 2 3 2 3", "inverted_triangle"),
}  # a dash is Bokeh's pattern and, but for "solid", the key's SVG stroke-dasharray too


@lru_cache(maxsize=256)
def table(draft, cost, tables=None):
    """``core.tree_payoff.tree_payoff_table`` on ``tables`` (None: the authored ones), remembered."""
    return tree_payoff.tree_payoff_table(draft, cost) if tables is None else \
        tree_payoff.tree_payoff_table(draft, cost, tables=tables)


def css():
    return [stylesheet("payoff"), stylesheet("guesses")]


def key_html():
    def name(k, marker):
        return t("guesses.payoff.key", candidates=words.count(k, "candidate"), marker=t(f"guesses.marker.{marker}"))

    keys = "".join(f'<span class="key"><svg width="34" height="12" aria-hidden="true"><line x1="1" y1="6" x2="33" '
                   f'y2="6" stroke="{c}" stroke-width="3" stroke-dasharray="{"" if d == "solid" else d}"/>'
                   f'</svg> {theme.esc(name(k, m))}</span>'
                   for k, (c, d, m) in LINES.items())
    return f'<div class="keys">{keys}</div>'


def numbers_html(tab):
    rows = "".join(f'<tr><th scope="row">{k}</th><td class="mono">{r.width}</td><td class="mono">'
                   f'{dec(r.tokens_per_pass)}</td><td class="mono">{r.draft_tokens}</td><td class="mono">'
                   f'{dec(r.speedup)}×</td></tr>' for k in tree_payoff.CANDIDATES for r in (tab.best_width(k),))
    head = "".join(f'<th scope="col">{theme.esc(t(f"guesses.payoff.col.{c}"))}</th>'
                   for c in ("k", "width", "per_pass", "draft", "speedup"))
    return f'<table class="rows"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>'


class CandidatesView(pn.viewable.Viewer):
    """The section: intro, best (k, width) in a sentence, the chart, the numbers behind it."""

    model = param.ClassSelector(class_=PayoffModel)

    def __init__(self, **params):
        super().__init__(**params)
        self.sources = {k: ColumnDataSource({"x": [], "y": [], "text": []}) for k in LINES}
        self.best = ColumnDataSource({"x": [], "y": [], "text": []})
        self.title = ChartTitle(t("guesses.payoff.chart"))  # above the plot, where it wraps on a phone
        self.fig = figure(title=None, height=320,
                          sizing_mode="stretch_width", min_width=260, tools="",
                          x_range=Range1d(0.5, tree_payoff.WIDTHS[-1] + 0.5), y_range=Range1d(0, 2))
        style_figure(self.fig)
        self.fig.xaxis.axis_label = t("guesses.payoff.chart.width")
        y_label(self.fig, t("payoff.chart.speed.axis"))
        self.fig.xaxis.ticker = list(tree_payoff.WIDTHS)
        self.fig.add_layout(Span(location=1, dimension="width", line_color="#6b7280", line_width=1.5,
                                 line_dash="dashdot"))
        renderers = []
        for k, (colour, dash, marker) in LINES.items():
            self.fig.line("x", "y", source=self.sources[k], line_color=colour, line_width=3, line_dash=dash)
            renderers.append(self.fig.scatter("x", "y", source=self.sources[k], marker=marker, size=9,
                                              fill_color=colour, line_color=colour))
        renderers.append(self.fig.scatter("x", "y", source=self.best, marker="circle", size=24, fill_alpha=0,
                                          line_color="#1b1f24", line_width=2.5))
        self.fig.add_tools(HoverTool(renderers=renderers, tooltips=[("", "@text")]))
        self.text = html("", css=css(), margin=(4, 0))
        self.numbers = html("", css=css(), margin=(6, 0, 0, 0))
        self._layout = pn.Column(
            html(f'<h3>{theme.esc(words.PAYOFF_TITLE)}</h3><p>{theme.esc(words.PAYOFF_INTRO)}</p>', css=css()),
            self.text, html(key_html(), css=css()),
            # Inside a FlexBox like the tab's own two charts: a bare figure pane in this Column
            # collapsed those charts (Bokeh laid them out at zero width).
            pn.FlexBox(pn.Column(self.title.pane, pn.pane.Bokeh(self.fig, sizing_mode="stretch_width", margin=0),
                                 margin=0,
                                 styles={"flex": "1 1 420px", "min-width": "0"}),
                       flex_wrap="wrap", sizing_mode="stretch_width", margin=0),
            self.numbers, sizing_mode="stretch_width", stylesheets=[theme.CARD], margin=(6, 0))
        self.model.param.watch(self._draw, ["table"])
        self._draw()

    def _draw(self, *events):
        m = self.model
        if m.table is None:
            return
        if m.draft not in tree.TREE_DRAFTS:
            with pn.io.hold():
                for source in (*self.sources.values(), self.best):
                    if len(source.data["x"]):
                        source.data = {"x": [], "y": [], "text": []}
                self.text.object = f'<p>{theme.esc(words.payoff_no_table(m.draft, tree.TREE_DRAFTS))}</p>'
                self.numbers.object = ""
            return
        tab = table(m.draft, m.c, m.tables)
        best = tab.best
        with pn.io.hold():
            for k, source in self.sources.items():
                rows = tab.of(k)
                data = {"x": [r.width for r in rows], "y": [float(r.speedup) for r in rows],
                        "text": [words.payoff_row(r) for r in rows]}
                if dict(source.data) != data:
                    source.data = data
            ring = {"x": [best.width], "y": [float(best.speedup)], "text": [words.payoff_row(best)]}
            if dict(self.best.data) != ring:
                self.best.data = ring
            top = max(2.0, max(float(r.speedup) for r in tab.rows) * 1.15)
            if self.fig.y_range.end != top:
                self.fig.y_range.end = top
            self.text.object = f'<p>{theme.esc(words.payoff_best(m.draft, m.c, best))}</p>'
            self.numbers.object = numbers_html(tab)

    def __panel__(self):
        return self._layout
