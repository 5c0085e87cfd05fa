"""The distribution chart: per k-token start, the target, the rule (exact) and the sample.

Imported when the tab is first shown (it pulls in ``bokeh.plotting``, which
the first tab does not need at start-up). The figure is built once; every
change refills its ``ColumnDataSource`` in place.
"""

import panel as pn
from bokeh.models import ColumnDataSource, FactorRange, HoverTool, Range1d
from bokeh.plotting import figure
from bokeh.transform import dodge

from core import display

from app.i18n import t
from app.parts import ChartTitle, style_figure, y_label

from .words import label

# The three series: the target as the light reference, the rule's exact
# probability solid, the sample dotted in the rule's colour (it should match
# the rule, not necessarily the target). Dots, not diagonal lines: those mean
# the corrections in the step inspector, and a mark keeps one meaning. Grey against a dark reddish purple
# differs in lightness, so no hue needs to be told apart. The chart key in
# app/styles/exact.css (.swatch.*) uses the same colours.
SERIES = {
    "target": {"fill": "#c9d1db", "line": "#4b5563", "hatch": None},
    "result": {"fill": "#aa3377", "line": "#7a2255", "hatch": None},
    "sampled": {"fill": "#f7e3ee", "line": "#7a2255", "hatch": "dot"},
}
COLUMNS = ("y", "target", "result", "sampled", "target_text", "result_text", "sampled_text")


def columns(rows):
    """The source's columns for ``ExactModel.rows()``: floats to draw, exact text to hover."""
    data = {k: [] for k in COLUMNS}
    for prefix, target, result, share, count in rows:
        data["y"].append(label(prefix))
        data["target"].append(float(target))
        data["result"].append(float(result))
        data["sampled"].append(0.0 if share is None else float(share))
        data["target_text"].append(display.exact_or_dec(target, 4))
        data["result_text"].append(display.exact_or_dec(result, 4))
        data["sampled_text"].append("—" if share is None else
                                    t("exact.chart.runs", share=display.dec(share, 4), n=f"{count:,}"))
    return data


class DistributionChart:
    """Horizontal grouped bars, one group per prefix."""

    ROW = 34  # pixels per prefix

    def __init__(self):
        self.source = ColumnDataSource(columns([]))
        self.title = ChartTitle()  # above the plot, where it wraps on a phone
        self.fig = figure(title=None, y_range=FactorRange(factors=["A"]), x_range=Range1d(0, 1), height=200,
                          sizing_mode="stretch_width", min_width=260, tools="")
        style_figure(self.fig)
        self.fig.ygrid.grid_line_color = None
        self.fig.xaxis.axis_label = t("exact.chart.probability")
        y_label(self.fig, t("exact.chart.first"))
        self.fig.xaxis.formatter.use_scientific = False
        renderers = []
        for name, offset in (("target", 0.27), ("result", 0.0), ("sampled", -0.27)):
            s = SERIES[name]
            renderers.append(self.fig.hbar(
                y=dodge("y", offset, range=self.fig.y_range), right=name, height=0.25, source=self.source,
                fill_color=s["fill"], line_color=s["line"], line_width=1.2,
                hatch_pattern=s["hatch"], hatch_color=s["line"], hatch_alpha=0.8 if s["hatch"] else 0,
                hatch_scale=5,
            ))
        self.fig.add_tools(HoverTool(renderers=renderers, tooltips=[
            (t("exact.chart.first"), "@y"), (t("exact.keys.target"), "@target_text"),
            (t("exact.chart.rule"), "@result_text"), (t("exact.chart.sampled"), "@sampled_text"),
        ]))
        self.pane = pn.Column(self.title.pane, pn.pane.Bokeh(self.fig, sizing_mode="stretch_width", margin=0),
                              sizing_mode="stretch_width", margin=0)

    def update(self, rows, title):
        """Refill the bars; new rows also reset the factors, the height and the title."""
        data = columns(rows)
        # Plain Bokeh models changed in place, sent as one batch of changes.
        with pn.io.hold():
            if list(reversed(data["y"])) != list(self.fig.y_range.factors):
                self.fig.y_range.factors = list(reversed(data["y"]))
                self.fig.height = 90 + self.ROW * max(len(rows), 3)
            self.title.show(title)
            top = max(data["target"] + data["result"] + data["sampled"] + [0.05])
            end = self.fig.x_range.end
            if top > end or top < 0.6 * end:
                self.fig.x_range.end = min(1.0, top * 1.15) if top < 0.95 else 1.02
            self.source.data = data
