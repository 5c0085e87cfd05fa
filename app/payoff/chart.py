"""One quantity against width 1 to 8: exact, closed form, lookahead, the best width and the trace.

Imported when the tab is first shown (it pulls in ``bokeh.plotting``). The
figure is built once; every change refills its ``ColumnDataSource``s in place.
"""

import panel as pn
from bokeh.models import ColumnDataSource, HoverTool, Range1d, Span
from bokeh.plotting import figure

from app.i18n import t
from app.parts import ChartTitle, style_figure, y_label as name_y_axis

from .model import WIDTHS

# Line colour, dash and marker per curve: three cues, so no curve depends on colour alone.
# The closed form is drawn first, with larger hollow squares, so the exact
# curve stays visible where the two nearly coincide. The chart key in
# app/styles/payoff.css (.line-key.*) uses the same colours and dashes.
CURVES = {
    "closed": {"color": "#b34700", "dash": "dashed", "marker": "square", "size": 12, "width": 2,
               "label": "closed form (paper)"},
    "exact": {"color": "#0b5cad", "dash": "solid", "marker": "circle", "size": 7, "width": 3,
              "label": "exact, from the tables"},
    "lookahead": {"color": "#aa3377", "dash": "dotted", "marker": "triangle", "size": 9, "width": 3,
                  "label": "exact, with lookahead"},
}
TRACE_COLOUR = "#1b1f24"
HEURISTIC_COLOUR = "#1a7f5a"  # the heuristic schedule's point: a star at the average width it settles at


def points(pts):
    """Source columns for ``[(width, value, text), ...]``."""
    return {"x": [float(p[0]) for p in pts], "y": [float(p[1]) for p in pts], "text": [p[2] for p in pts]}


class WidthChart:
    """Curves by width, the best width ringed, the trace as a diamond."""

    def __init__(self, title, y_label, reference=None):
        self.sources = {name: ColumnDataSource(points([])) for name in CURVES}
        self.best = ColumnDataSource(points([]))
        self.trace = ColumnDataSource(points([]))
        self.heuristic = ColumnDataSource(points([]))
        self.title = ChartTitle(title)  # above the plot, where it wraps on a phone
        self.fig = figure(title=None, height=320, sizing_mode="stretch_width", min_width=260, tools="",
                          x_range=Range1d(0.5, WIDTHS[-1] + 0.5), y_range=Range1d(0, 2))
        style_figure(self.fig)
        self.fig.xaxis.axis_label = t("payoff.chart.width")
        name_y_axis(self.fig, y_label)
        self.fig.xaxis.ticker = list(WIDTHS)
        self.fig.xgrid.grid_line_color = None
        if reference is not None:
            self.fig.add_layout(Span(location=reference, dimension="width", line_color="#6b7280", line_width=1.5,
                                     line_dash="dashdot"))
        renderers = []
        for name, s in CURVES.items():
            self.fig.line("x", "y", source=self.sources[name], line_color=s["color"], line_width=s["width"],
                          line_dash=s["dash"])
            renderers.append(self.fig.scatter("x", "y", source=self.sources[name], marker=s["marker"],
                                              size=s["size"], fill_color="#ffffff" if name == "closed" else s["color"],
                                              fill_alpha=0 if name == "closed" else 1, line_color=s["color"],
                                              line_width=2))
        renderers.append(self.fig.scatter("x", "y", source=self.best, marker="circle", size=22,
                                          fill_alpha=0, line_color=CURVES["exact"]["color"], line_width=2.5))
        renderers.append(self.fig.scatter("x", "y", source=self.trace, marker="diamond", size=16,
                                          fill_color=TRACE_COLOUR, line_color="#ffffff", line_width=1.5))
        renderers.append(self.fig.scatter("x", "y", source=self.heuristic, marker="star", size=20,
                                          fill_color=HEURISTIC_COLOUR, line_color="#ffffff", line_width=1.5))
        self.fig.add_tools(HoverTool(renderers=renderers, tooltips=[("", "@text")]))
        self.pane = pn.Column(self.title.pane, pn.pane.Bokeh(self.fig, sizing_mode="stretch_width", margin=0),
                              sizing_mode="stretch_width", margin=0)

    def update(self, curves, best, trace, top, heuristic=None):
        """``curves``: name -> [(width, value, text)]; ``best``, ``trace`` and ``heuristic``: (width, value,
        text) or None.

        Only sources whose data changed are assigned: each assignment is a message to the page.
        """
        with pn.io.hold():
            for name, source in self.sources.items():
                self._fill(source, points(curves.get(name) or []))
            for source, point in ((self.best, best), (self.trace, trace), (self.heuristic, heuristic)):
                self._fill(source, points([point] if point else []))
            if self.fig.y_range.end != top:
                self.fig.y_range.end = top

    @staticmethod
    def _fill(source, data):
        if dict(source.data) != data:
            source.data = data
