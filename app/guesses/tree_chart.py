"""The drawn tree: a node per candidate, coloured, shaped and marked by its status.

Positions run left to right (the text so far at 0, then positions 1 to the
tree's depth, and the bonus one further); the candidates at a position are
stacked top to bottom in test order. A correction sits below the candidates
it replaced, at their position. The figure is a bare ``bokeh.models.Plot``
built once; ``update`` refills its ``ColumnDataSource``s in place. Colour is
never the only cue: each status also has its own marker shape and a mark
(✓ ✗ – ? ↺ ★) beside the node, and the legend under the chart says both.
"""

import panel as pn
from bokeh.events import Tap
from bokeh.models import (ColumnDataSource, FixedTicker, LinearAxis, Plot, Range1d, Scatter, Segment,
                          Text)

from ..parts import style_figure
from . import words

# status -> (marker, fill, outline, letter colour). Letter colours keep 4.5:1 on their fill.
LOOK = {
    "text": ("square", "#4b5563", "#1b1f24", "#ffffff"),
    "proposed": ("circle", "#ffffff", "#4b5563", "#1b1f24"),
    "accepted": ("circle", "#1d6b3a", "#0f3d21", "#ffffff"),
    "rejected": ("square", "#a4262c", "#5e1519", "#ffffff"),
    "discarded": ("circle", "#eceff3", "#9aa5b1", "#4b5563"),
    "correction": ("diamond", "#6a3d9a", "#3b1f57", "#ffffff"),
    "bonus": ("hex", "#f2c14e", "#7a5a00", "#1b1f24"),
}
SIZE = {"text": 26, "diamond": 34, "hex": 32}
PATH_EDGE, OTHER_EDGE = "#1d6b3a", "#c3cad3"


def layout(block, prefix):
    """``[(key, x, y, status, letter, parent_key)]`` for everything drawn, and the rows used.

    Keys are node ids, "text", "correction" and "bonus". Leaves take one row
    each in draw order; a node sits at the mean of its children's rows; the
    correction, when there is one, takes a row of its own after its siblings' subtrees.
    """
    rows = {"n": 0}
    out = []
    if block is None:
        return [("text", 0, 0, "text", prefix[-1] if prefix else "·", None)], 1
    children = {}
    for n in block.nodes:
        children.setdefault(n.parent, []).append(n)
    fix_after = None if block.correction is None else (block.path[-1] if block.path else None)

    def place(node_id):
        kids = children.get(node_id, [])
        if not kids:
            y = rows["n"]
            rows["n"] += 1
            return y
        ys = []
        for kid in kids:
            y = place(kid.id)
            ys.append(y)
            out.append((kid.id, kid.depth, y, kid.status, kid.token, "text" if node_id is None else node_id))
        if block.correction is not None and node_id == fix_after:
            out.append(("correction", kids[0].depth, rows["n"], "correction", block.correction.token,
                        "text" if node_id is None else node_id))
            rows["n"] += 1
        return sum(ys) / len(ys)

    root_y = place(None)
    out.insert(0, ("text", 0, root_y, "text", prefix[-1] if prefix else "·", None))
    if block.bonus is not None:
        leaf = block.path[-1]
        y = next(item[2] for item in out if item[0] == leaf)
        out.append(("bonus", block.depth + 1, y, "bonus", block.bonus.token, leaf))
    return out, max(rows["n"], 1)


class TreeChart:
    """The tree, built once, refilled per click; ``on_pick(node_id)`` is called when a node is tapped."""

    def __init__(self, on_pick=None):
        self.on_pick = on_pick
        self.keys = []
        # No vectorised colours or widths: every style is fixed per renderer (one renderer per status,
        # two for the edges), so a redraw never reads a style column of another length.
        self.edges = {kind: ColumnDataSource({"x0": [], "y0": [], "x1": [], "y1": []}) for kind in ("other", "path")}
        self.nodes = {s: ColumnDataSource({"x": [], "y": [], "key": [], "letter": [], "mark": []}) for s in LOOK}
        self.ring = ColumnDataSource({"x": [], "y": []})
        self.points = []  # (x, y, node id) of every drawn node, for taps
        self.fig = Plot(height=220, min_width=260, sizing_mode="stretch_width", x_range=Range1d(-0.5, 3.5),
                        y_range=Range1d(1, -1), toolbar_location=None, min_border_top=10, min_border_bottom=8)
        axis = LinearAxis(ticker=FixedTicker(ticks=[0, 1, 2]), axis_label="position in the block")
        self.fig.add_layout(axis, "below")
        style_figure(self.fig)
        for kind, colour, width in (("other", OTHER_EDGE, 2), ("path", PATH_EDGE, 4)):
            self.fig.add_glyph(self.edges[kind], Segment(x0="x0", y0="y0", x1="x1", y1="y1", line_color=colour,
                                                         line_width=width))
        self.fig.add_glyph(self.ring, Scatter(x="x", y="y", size=44, marker="circle", fill_alpha=0,
                                              line_color="#0b5cad", line_width=3))
        for status, (marker, fill, line, letter) in LOOK.items():
            source = self.nodes[status]
            self.fig.add_glyph(source, Scatter(x="x", y="y", marker=marker, size=SIZE.get(status, SIZE.get(marker, 28)),
                                               fill_color=fill, line_color=line, line_width=2))
            self.fig.add_glyph(source, Text(x="x", y="y", text="letter", text_color=letter, text_align="center",
                                            text_baseline="middle", text_font_size="14px", text_font_style="bold"))
            self.fig.add_glyph(source, Text(x="x", y="y", text="mark", text_color="#1b1f24", x_offset=16,
                                            y_offset=-10, text_font_size="13px", text_font_style="bold"))
        # A tap arrives as a bokeh.events.Tap in data units; the nearest node is picked in Python.
        self.axis = axis
        self.fig.on_event(Tap, self._tapped)
        self.pane = pn.pane.Bokeh(self.fig, sizing_mode="stretch_width", margin=0)

    def _tapped(self, event):
        """A tap on the plot picks the nearest node within half a position and half a row."""
        if self.on_pick is None or event.x is None or event.y is None:
            return
        near = [(abs(x - event.x) + abs(y - event.y), key) for x, y, key in self.points
                if abs(x - event.x) < 0.5 and abs(y - event.y) < 0.5]
        if near:
            self.on_pick(min(near)[1])

    def update(self, block, prefix, selected, depth):
        """Draw ``block`` (None: only the text so far) with node ``selected`` ringed.
        ``depth`` is the scenario's width, so the axis is right before any tree is drafted."""
        items, rows = layout(block, prefix)
        at = {key: (x, y) for key, x, y, *_ in items}
        path = set(block.path) if block is not None else set()
        edges = {kind: {"x0": [], "y0": [], "x1": [], "y1": []} for kind in ("other", "path")}
        nodes = {s: {"x": [], "y": [], "key": [], "letter": [], "mark": []} for s in LOOK}
        for key, x, y, status, letter, parent in items:
            if parent is not None:
                px, py = at[parent]
                on_path = (key in path or key in ("bonus", "correction")) and (parent == "text" or parent in path)
                edge = edges["path" if on_path else "other"]
                for name, value in zip(("x0", "y0", "x1", "y1"), (px, py, x, y)):
                    edge[name].append(value)
            node = nodes[status]
            node["x"].append(x)
            node["y"].append(y)
            node["key"].append(str(key))
            node["letter"].append(letter)
            node["mark"].append("" if status == "text" else words.STATUS[status][0])
        self.points = [(x, y, key) for key, x, y, *_ in items if isinstance(key, int)]
        ring = {"x": [], "y": []}
        if selected is not None and selected in at:
            ring = {"x": [at[selected][0]], "y": [at[selected][1]]}
        last = max([depth + 1] + [i[1] for i in items])
        with pn.io.hold():
            for source, data in ((self.ring, ring), *((self.edges[k], edges[k]) for k in edges)):
                self._fill(source, data)
            for status, source in self.nodes.items():
                self._fill(source, nodes[status])
            height = max(200, rows * (40 if rows <= 10 else 26) + 70)
            if self.fig.height != height:
                self.fig.height = height
            if (self.fig.y_range.start, self.fig.y_range.end) != (rows - 0.4, -0.6):
                self.fig.y_range.update(start=rows - 0.4, end=-0.6)
            if self.fig.x_range.end != last + 0.6:
                self.fig.x_range.update(start=-0.5, end=last + 0.6)
            ticks = list(range(0, last + 1))
            if list(self.axis.ticker.ticks) != ticks:
                self.axis.ticker.ticks = ticks
                self.axis.major_label_overrides = {0: "text so far", **{i: str(i) for i in ticks[1:]}}

    @staticmethod
    def _fill(source, data):
        if dict(source.data) != data:
            source.data = data
