"""The "When it pays off" tab: width, draft cost and acceptance, and dynamic lookahead.

The seeds insist that a longer draft is not always faster and that counts
are not latency (``000_*.txt`` "Where the speedup can disappear",
``001_*.txt``, ``002_*.txt`` "The economics of acceptance"). Here a reader
sets the cost c of one draft step (in target passes) and the draft, and sees
the expected speedup and tokens per target pass for widths 1 to 8: exact
values from the toy tables beside the paper's closed form (Leviathan et al.
2023, Eq. 1 and Theorem 3.8), the best width marked, the trace of the first
tab as a point, and the same curves with dynamic lookahead.

Every number is a field of a ``core.payoff`` record; the slider's value is
parsed into an exact Fraction (``Fraction("0.05")``), nothing more.
"""

import asyncio
from fractions import Fraction
from functools import lru_cache, partial

import panel as pn
import param
from bokeh.models import ColumnDataSource, HoverTool, Range1d, Span
from bokeh.plotting import figure

import core
from core import display, payoff

from . import theme
from .exact_tab import connected
from .parts import DRAFT_OPTIONS, field, style_figure

WIDTHS = tuple(range(1, core.MAX_WIDTH + 1))

# Line colour, dash and marker per curve: three cues, so no curve depends on colour alone.
# The closed form is drawn first, with larger hollow squares, so the exact
# curve stays visible where the two nearly coincide.
CURVES = {
    "closed": {"color": "#b34700", "dash": "dashed", "marker": "square", "size": 12, "width": 2,
               "label": "closed form (paper)"},
    "exact": {"color": "#0b5cad", "dash": "solid", "marker": "circle", "size": 7, "width": 3,
              "label": "exact, from the tables"},
    "lookahead": {"color": "#aa3377", "dash": "dotted", "marker": "triangle", "size": 9, "width": 3,
                  "label": "exact, with lookahead"},
}
TRACE_COLOUR = "#1b1f24"


def fraction(value):
    """A slider value as the exact number it shows (the sliders step by 0.01 or 0.05)."""
    return Fraction(f"{value:.2f}")


@lru_cache(maxsize=512)
def table(draft, cost, lookahead=None):
    """``core.payoff.payoff_table``, remembered: the tables are fixed, so the answer never changes."""
    return payoff.payoff_table(draft, cost, lookahead)


def times(x):
    return f"{display.dec(x, 2)}×"


class PayoffModel(param.Parameterized):
    """State of the "When it pays off" view."""

    draft = param.Selector(default="biased", objects=list(core.DRAFTS), doc="""
        Which draft proposes tokens (follows the first tab when one is linked).""")

    cost = param.Number(default=0.1, bounds=(0, 1), step=0.01, doc="""
        c: the cost of one draft step, measured in target passes.""")

    lookahead = param.Boolean(default=False, doc="""
        Whether to add the curves with dynamic lookahead.""")

    threshold = param.Number(default=0.3, bounds=(0.05, 0.95), step=0.05, doc="""
        Dynamic lookahead: drafting stops after a proposal whose own draft probability is below this.""")

    session_model = param.Parameter(default=None, doc="""
        The main view's model: its draft is followed and its trace is shown as a point.""")

    table = param.Parameter(default=None, doc="""
        core.payoff.PayoffTable for the draft and cost, fixed width (None until first computed).""")

    lookahead_table = param.Parameter(default=None, doc="The same with dynamic lookahead, or None.")

    def __init__(self, **params):
        super().__init__(**params)
        sm = self.session_model
        if sm is not None and "draft" in sm.param:
            self.draft = sm.draft
            sm.param.watch(lambda e: pn.state.execute(partial(self._follow, e.new)), "draft")
        # The first tables take a second or so (more in the browser's Pyodide):
        # computed once the page is up, so the first tab is usable sooner.
        pn.state.onload(lambda: pn.state.execute(self._first))

    async def _first(self):
        await asyncio.sleep(0.01)
        table(self.draft, self.c)
        if connected():
            self._compute()

    async def _follow(self, draft):
        """Take the first tab's draft: the tables first (slow the first time), then the page, if still open."""
        table(draft, self.c)
        await asyncio.sleep(0.01)
        if connected():
            self.draft = draft

    @property
    def c(self):
        return fraction(self.cost)

    @property
    def t(self):
        return fraction(self.threshold)

    @param.depends("draft", "cost", "lookahead", "threshold", watch=True)
    def _compute(self):
        self.param.update(
            table=table(self.draft, self.c),
            lookahead_table=table(self.draft, self.c, self.t) if self.lookahead else None,
        )

    def best(self, which="exact"):
        """The best row of a table: ``exact`` (fixed width), ``closed`` or ``lookahead``."""
        if which == "lookahead":
            tab = self.lookahead_table
            return None if tab is None else tab.rows[tab.best_width - 1]
        width = self.table.best_width if which == "exact" else self.table.closed_best_width
        return self.table.rows[width - 1]

    # ---- the trace on the first tab ---------------------------------------------------

    def trace(self):
        """The main view's session when it has finished blocks, else None."""
        sm = self.session_model
        if sm is None or sm.session is None or not sm.session.counters.target_passes:
            return None
        return sm.session

    def trace_point(self):
        """``(width, tokens per pass, time per token, speedup or None)`` of the trace on the first tab."""
        s = self.trace()
        if s is None:
            return None
        counters = s.counters
        return (s.config.width, counters.tokens_per_pass, payoff.trace_time_per_token(counters, self.c),
                payoff.trace_speedup(counters, self.c))

    # ---- words -------------------------------------------------------------------------

    def reading(self):
        """The result in two or three sentences (plain text)."""
        rows = self.table.rows
        best, closed = self.best("exact"), self.best("closed")
        c = display.dec(self.c)
        if best.speedup <= 1:
            text = (f"With the {self.draft} draft and c = {c}, no width pays off: even the best, width "
                    f"{best.width}, reaches only {times(best.speedup)} of ordinary decoding's speed.")
        else:
            text = (f"With the {self.draft} draft and c = {c}, width {best.width} is best: expected speedup "
                    f"{times(best.speedup)} over ordinary decoding.")
        if closed.width == best.width:
            text += f" The paper's closed form agrees ({times(closed.closed_speedup)} at width {best.width})."
        else:
            text += f" The paper's closed form picks width {closed.width} ({times(closed.closed_speedup)})."
        slower = [r.width for r in rows if r.speedup < 1]
        if slower and best.speedup > 1:
            text += (f" From width {slower[0]} on, speculation is slower than ordinary decoding: the wasted draft "
                     f"work outweighs the extra tokens." if slower == list(range(slower[0], WIDTHS[-1] + 1))
                     else f" Widths {', '.join(map(str, slower))} are slower than ordinary decoding.")
        elif best.width == WIDTHS[-1] and best.speedup > 1:
            text += " Every proposal here is worth its cost, so the widest block wins."
        return text

    def trace_words(self):
        sm = self.session_model
        if sm is None:
            return ("Beside the step-through view, the trace you run there appears on these charts as a black "
                    "diamond.")
        s = self.trace()
        if s is None:
            return ("Run at least one block on the first tab (Step through a block) and its counters appear here "
                    "as a black diamond.")
        width, per_pass, time_per_token, speedup = self.trace_point()
        cfg, counters = s.config, s.counters
        expect = payoff.trace_expectation(cfg.draft, cfg.width, cfg.max_tokens, cfg.lookahead)
        text = (f"Your trace on the first tab ({cfg.draft} draft, width {cfg.width}, seed {cfg.seed}"
                + (f", lookahead threshold {display.dec(cfg.lookahead)}" if cfg.lookahead is not None else "")
                + f"): {counters.committed} tokens from {counters.target_passes} target "
                  f"pass{'es' if counters.target_passes != 1 else ''} and {counters.draft_steps} draft steps, "
                  f"{display.dec(per_pass)} tokens per pass. At c = {display.dec(self.c)} its time per token is "
                  f"{display.dec(time_per_token)} of ordinary decoding's"
                + f" (a speedup of {times(speedup)})."
                + f" One trace is noisy, and the 8-token limit cuts its last block short: over many full traces "
                  f"of this scenario expect {display.dec(expect.tokens_per_pass)} tokens per pass.")
        if cfg.draft != self.draft:
            text += f" (The charts show the {self.draft} draft; your trace used the {cfg.draft} draft.)"
        if cfg.lookahead is not None and (not self.lookahead or self.t != cfg.lookahead):
            text += (f" Your trace used dynamic lookahead: add the lookahead curves with threshold "
                     f"{display.dec(cfg.lookahead)} to compare like with like.")
        return text

    def lookahead_words(self):
        """The teaching point of dynamic lookahead for the current draft, with its numbers."""
        if self.lookahead_table is None:
            return ""
        fixed, dyn = self.best("exact"), self.best("lookahead")
        t = display.dec(self.t)
        text = (f"With threshold {t}, the best is width {dyn.width} at {times(dyn.speedup)}, against "
                f"{times(fixed.speedup)} at width {fixed.width} without lookahead.")
        if self.draft == "biased":
            text += (" Here stopping on low confidence backfires: the biased draft is least sure of B and C, which "
                     "the target accepts every time (it wants them at least as much), and most sure of A, the token "
                     "it over-proposes and the target rejects. So it stops exactly where the target agrees and "
                     "keeps going where it is about to be corrected.")
        else:
            text += (" The aligned draft is never rejected, so every early stop only gives up tokens the target "
                     "would have kept.")
        text += (" Draft confidence is a useful stopping signal only when the draft is calibrated: when its low "
                 "probabilities mark the places it is likely to be wrong.")
        return text


# ---- views ---------------------------------------------------------------------------

PAYOFF_CSS = """
.tiles { display: grid; grid-template-columns: repeat(auto-fit, minmax(128px, 1fr)); gap: 10px; margin: 6px 0; }
.tile { background: #f7f9fb; border: 1px solid %(line)s; border-radius: 10px; padding: 8px 12px; }
.tile .n { font-size: 1.25rem; font-weight: 700; font-variant-numeric: tabular-nums; overflow-wrap: anywhere; }
.tile .what { font-size: 0.8rem; color: %(muted)s; line-height: 1.3; }
.reading { font-size: 1.02rem; line-height: 1.5; }
.keys { display: flex; flex-wrap: wrap; gap: 4px 18px; font-size: 0.86rem; margin: 2px 0 4px; }
.keys .key { display: inline-flex; align-items: center; gap: 6px; }
.line-key { display: inline-block; width: 26px; height: 0; border-top-width: 3px; vertical-align: middle; }
.note { background: #f7f9fb; border-left: 4px solid %(line)s; padding: 8px 12px; border-radius: 0 8px 8px 0; }
.note h3 { margin-bottom: 4px; }
details.numbers summary { cursor: pointer; color: %(accent)s; font-weight: 600; font-size: 0.92rem; }
table.nums { border-collapse: collapse; width: 100%%; max-width: 720px; font-variant-numeric: tabular-nums;
  font-size: 0.86rem; margin-top: 6px; }
table.nums th, table.nums td { padding: 4px 6px; border-bottom: 1px solid %(line)s; text-align: right; }
table.nums th:first-child, table.nums td:first-child { text-align: left; }
table.nums tr.best td { background: #eaf2fb; font-weight: 700; }
ul.left-out { margin: 4px 0; padding-left: 1.2em; line-height: 1.5; }
""" % {"line": theme.LINE, "muted": theme.MUTED, "accent": theme.ACCENT}

CSS = [theme.CSS, PAYOFF_CSS]
WRAP = ".bk-btn { white-space: normal; line-height: 1.25; }"


def _html(text="", **kw):
    kw.setdefault("margin", 0)
    kw.setdefault("sizing_mode", "stretch_width")
    return pn.pane.HTML(text, stylesheets=CSS, **kw)


def _line_key(name):
    s = CURVES[name]
    style = {"solid": "solid", "dashed": "dashed", "dotted": "dotted"}[s["dash"]]
    return (f'<span class="key"><span class="line-key" style="border-top-style:{style};'
            f'border-top-color:{s["color"]}"></span>{theme.esc(s["label"])}</span>')


class WidthChart:
    """One quantity against width 1 to 8: exact, closed form, lookahead, the best width and the trace."""

    def __init__(self, title, y_label, reference=None):
        self.sources = {name: ColumnDataSource({"x": [], "y": [], "text": []}) for name in CURVES}
        self.best = ColumnDataSource({"x": [], "y": [], "text": []})
        self.trace = ColumnDataSource({"x": [], "y": [], "text": []})
        self.fig = figure(title=title, height=320, sizing_mode="stretch_width", min_width=260, tools="",
                          x_range=Range1d(0.5, WIDTHS[-1] + 0.5), y_range=Range1d(0, 2))
        style_figure(self.fig)
        self.fig.xaxis.axis_label = "width: tokens drafted per block"
        self.fig.yaxis.axis_label = y_label
        self.fig.xaxis.ticker = list(WIDTHS)
        self.fig.xgrid.grid_line_color = None
        self.reference = None
        if reference is not None:
            self.reference = Span(location=reference, dimension="width", line_color="#6b7280", line_width=1.5,
                                  line_dash="dashdot")
            self.fig.add_layout(self.reference)
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
        self.fig.add_tools(HoverTool(renderers=renderers, tooltips=[("", "@text")]))

    def update(self, curves, best, trace, top):
        """``curves``: name -> [(width, value, text)]; ``best`` and ``trace``: (width, value, text) or None."""
        # Plain Bokeh models changed in place, from callbacks Panel runs without
        # the document lock: sent the way Panel sends its own changes.
        with pn.io.unlocked():
            for name, source in self.sources.items():
                points = curves.get(name) or []
                source.data = {"x": [p[0] for p in points], "y": [float(p[1]) for p in points],
                               "text": [p[2] for p in points]}
            for source, point in ((self.best, best), (self.trace, trace)):
                source.data = ({"x": [point[0]], "y": [float(point[1])], "text": [point[2]]} if point
                               else {"x": [], "y": [], "text": []})
            self.fig.y_range.end = top


class PayoffTab(pn.viewable.Viewer):
    """The "When it pays off" view."""

    model = param.ClassSelector(class_=PayoffModel)

    def __init__(self, session_model=None, **params):
        if params.get("model") is None:
            params["model"] = PayoffModel(session_model=session_model)
        super().__init__(**params)
        m = self.model
        self.cost = pn.widgets.FloatSlider(label="", start=0, end=1, step=0.01, value=m.cost, format="0.00",
                                           bar_color=theme.ACCENT, sizing_mode="stretch_width", min_width=160,
                                           margin=(4, 10))
        self.draft = pn.widgets.RadioButtonGroup(options=DRAFT_OPTIONS,
                                                 value=m.draft, color="primary", variant="outline",
                                                 stylesheets=[theme.BUTTON], margin=(4, 5))
        self.lookahead = pn.widgets.Toggle(label="Add the lookahead curves", value=m.lookahead, color="primary",
                                           variant="outline", stylesheets=[theme.BUTTON, WRAP], margin=(4, 5),
                                           sizing_mode="stretch_width", max_width=260)
        self.threshold = pn.widgets.FloatSlider(label="", start=0.05, end=0.95, step=0.05, value=m.threshold,
                                                format="0.00", bar_color=theme.ACCENT, sizing_mode="stretch_width",
                                                min_width=160, margin=(4, 10))
        # Sliders update the model when released: each new c is a fresh exact computation.
        self.cost.param.watch(lambda e: setattr(m, "cost", e.new), "value_throttled")
        # Moving the threshold means "show me lookahead": it switches the curves on.
        self.threshold.param.watch(lambda e: m.param.update(threshold=e.new, lookahead=True), "value_throttled")
        self.draft.param.watch(lambda e: setattr(m, "draft", e.new), "value")
        self.lookahead.param.watch(lambda e: setattr(m, "lookahead", e.new), "value")
        m.param.watch(self._sync_controls, ["cost", "draft", "lookahead", "threshold"])

        self.speed = WidthChart("Expected speedup by width", "speedup (× ordinary decoding)", reference=1)
        self.passes = WidthChart("Tokens per target pass by width", "committed tokens per target pass")
        chart_box = {"flex": "1 1 420px", "min-width": "0"}
        self.keys = _html()
        self.reading = _html()
        self.tiles = _html()
        self.trace_text = _html(margin=(4, 0))
        self.lookahead_text = _html(margin=(4, 0))
        self.numbers = _html(margin=(6, 0, 0, 0))

        intro = _html(
            '<div class="section-title"><h2>When it pays off</h2></div>'
            '<p>Each block costs one target pass plus one draft step per proposal. Say a draft step costs '
            '<b>c</b> target passes: c = 0 means drafting is free, c = 1 means the draft is as slow as the '
            'target. A wider block can keep more tokens per target pass, but it costs more draft steps, and '
            'everything after an early rejection is thrown away. Where is the sweet spot?</p>',
            margin=(8, 0, 4, 0),
        )
        controls = pn.FlexBox(
            field("Draft cost c", "One draft step, in target passes.", self.cost, basis="260px"),
            field("Draft model", "Biased over-proposes A.", self.draft, basis="180px"),
            field("Dynamic lookahead", "Stop drafting when the draft is unsure.", self.lookahead, basis="170px"),
            field("Lookahead threshold", "Stop after a proposal x with q(x) below this.", self.threshold,
                  basis="240px"),
            gap="10px 22px", flex_wrap="wrap", sizing_mode="stretch_width", margin=0,
        )
        caveats = _html(
            '<h3>What these numbers leave out</h3>'
            '<p>They are algorithmic expectations: counts of target passes and draft steps, weighted by c. They are '
            'not measured latency, and they assume a target pass costs the same however many positions it '
            'checks. On real hardware the operating point also depends on:</p><ul class="left-out">'
            '<li><b>batching</b>: a server that already batches many requests has less idle compute for the '
            'extra positions of a block;</li>'
            '<li><b>memory</b>: the draft\'s weights and caches compete with the target\'s, and rejected positions '
            'must be rolled back in the cache;</li>'
            '<li><b>concurrency</b>: speculation can make one request faster while the extra draft work lowers '
            'how many requests a machine serves.</li></ul>'
            '<h3 style="margin-top:8px">Why exact and closed form differ</h3>'
            '<p>The paper\'s closed form assumes every position is accepted with the same chance α, independently '
            'of the others. In these tables the chance depends on the previous token, and a block\'s later '
            'positions follow tokens the draft favours, so the two curves part. With the aligned draft every '
            'proposal is accepted (α = 1) and they coincide.</p>',
            margin=(4, 0),
        )
        self._layout = pn.Column(
            intro,
            pn.Column(controls, sizing_mode="stretch_width", stylesheets=[theme.CARD], margin=(6, 0)),
            pn.Column(
                pn.Column(self.reading, sizing_mode="stretch_width", stylesheets=[theme.CAPTION_CARD],
                          margin=(0, 0, 8, 0)),
                self.tiles, self.keys,
                pn.FlexBox(
                    pn.Column(pn.pane.Bokeh(self.speed.fig, sizing_mode="stretch_width"), margin=0,
                              styles=chart_box),
                    pn.Column(pn.pane.Bokeh(self.passes.fig, sizing_mode="stretch_width"), margin=0,
                              styles=chart_box),
                    gap="8px 20px", flex_wrap="wrap", sizing_mode="stretch_width", margin=0,
                ),
                self.trace_text, self.numbers,
                sizing_mode="stretch_width", stylesheets=[theme.CARD], margin=(6, 0),
            ),
            pn.Column(self.lookahead_text, sizing_mode="stretch_width", stylesheets=[theme.CARD], margin=(6, 0)),
            pn.Column(caveats, sizing_mode="stretch_width", stylesheets=[theme.CARD], margin=(6, 0)),
            sizing_mode="stretch_width", margin=(4, 0),
        )
        m.param.watch(self._sync, ["table", "lookahead_table"])
        if m.session_model is not None:
            m.session_model.param.watch(self._on_session, ["session"])
        self._sync()

    def _on_session(self, *events):
        # Only a commit or a new scenario moves the trace's point; Draft and Verify change nothing here.
        s = self.model.session_model.session
        key = (s.config, s.counters)
        if key != self._trace_key:
            self._sync()

    def _sync_controls(self, *events):
        m = self.model
        self.cost.value = m.cost
        self.draft.value = m.draft
        self.lookahead.value = m.lookahead
        self.threshold.value = m.threshold

    def _sync(self, *events):
        m = self.model
        sm = m.session_model
        self._trace_key = None if sm is None else (sm.session.config, sm.session.counters)
        tab, dyn = m.table, m.lookahead_table
        if tab is None:
            self.reading.object = ('<div class="reading" role="status" aria-live="polite">Computing the expected '
                                   'speedups from the tables…</div>')
            return
        best = m.best("exact")
        point = m.trace_point()

        speed = {
            "exact": [(r.width, r.speedup, f"width {r.width}: {times(r.speedup)} (exact)") for r in tab.rows],
            "closed": [(r.width, r.closed_speedup, f"width {r.width}: {times(r.closed_speedup)} (closed form)")
                       for r in tab.rows],
        }
        passes = {
            "exact": [(r.width, r.tokens_per_pass, f"width {r.width}: {display.dec(r.tokens_per_pass)} tokens "
                       f"per pass (exact)") for r in tab.rows],
            "closed": [(r.width, r.closed_tokens_per_pass, f"width {r.width}: "
                        f"{display.dec(r.closed_tokens_per_pass)} tokens per pass (closed form)") for r in tab.rows],
        }
        if dyn is not None:
            speed["lookahead"] = [(r.width, r.speedup, f"width {r.width}: {times(r.speedup)} with lookahead")
                                  for r in dyn.rows]
            passes["lookahead"] = [(r.width, r.tokens_per_pass, f"width {r.width}: {display.dec(r.tokens_per_pass)}"
                                    f" tokens per pass with lookahead") for r in dyn.rows]
        speed_trace = pass_trace = None
        if point is not None:
            width, per_pass, _, speedup = point
            pass_trace = (width, per_pass, f"your trace: {display.dec(per_pass)} tokens per pass")
            speed_trace = (width, speedup, f"your trace: {times(speedup)}")
        top_speed = max([float(v) for curve in speed.values() for _, v, _ in curve]
                        + ([float(speed_trace[1])] if speed_trace else []) + [1.0])
        top_pass = max([float(v) for curve in passes.values() for _, v, _ in curve]
                       + ([float(pass_trace[1])] if pass_trace else []))
        self.speed.update(speed, (best.width, best.speedup, f"best width: {best.width}, {times(best.speedup)}"),
                          speed_trace, top_speed * 1.12)
        self.passes.update(passes, None, pass_trace, top_pass * 1.12)

        self.reading.object = f'<div class="reading" role="status" aria-live="polite">{theme.esc(m.reading())}</div>'
        closed = m.best("closed")
        tiles = (
            (display.exact_or_dec(tab.rows[0].alpha, 3), "α: average chance a proposal is accepted (exact)"),
            (f"{best.width}", "best width, exact"),
            (times(best.speedup), "expected speedup at the best width"),
            (f"{closed.width}", "best width, closed form"),
        )
        self.tiles.object = '<div class="tiles">' + "".join(
            f'<div class="tile"><div class="n">{theme.esc(n)}</div><div class="what">{theme.esc(w)}</div></div>'
            for n, w in tiles) + "</div>"
        keys = [_line_key("exact"), _line_key("closed")]
        if dyn is not None:
            keys.append(_line_key("lookahead"))
        keys.append('<span class="key"><span style="display:inline-block;width:14px;height:14px;border-radius:50%;'
                    f'border:2.5px solid {CURVES["exact"]["color"]}"></span>best width</span>')
        if point is not None:
            keys.append(f'<span class="key"><span style="color:{TRACE_COLOUR};font-size:1.1rem">◆</span>'
                        'your trace</span>')
        keys.append('<span class="key"><span class="line-key" style="border-top-style:dashed;'
                    'border-top-color:#6b7280"></span>ordinary decoding (1×)</span>')
        self.keys.object = '<div class="keys" aria-label="chart key">' + "".join(keys) + "</div>"
        self.trace_text.object = f'<p>{theme.esc(m.trace_words())}</p>'
        self.numbers.object = self._numbers_html()
        words = m.lookahead_words()
        self.lookahead_text.object = (
            '<h3>Dynamic lookahead</h3>'
            '<p>Instead of always drafting the full width, the draft can stop early when it is unsure of its own '
            'guess: after a proposal x whose draft probability q(x) is below a threshold. Turn it on above, or '
            'move the threshold, to add its curves. The output stays exact, because the stop depends only on the '
            'draft\'s own proposals.</p>'
            + (f'<p>{theme.esc(words)}</p>' if words else
               '<p class="muted">Switch on dynamic lookahead to compare its curve with the fixed widths.</p>'))

    def _numbers_html(self):
        m = self.model
        tab, dyn = m.table, m.lookahead_table
        head = ("<th scope='col'>width</th><th scope='col'>tokens per pass</th><th scope='col'>closed form</th>"
                "<th scope='col'>speedup</th><th scope='col'>closed form</th>"
                + ("<th scope='col'>speedup with lookahead</th>" if dyn is not None else ""))
        body = []
        for i, r in enumerate(tab.rows):
            extra = f"<td>{times(dyn.rows[i].speedup)}</td>" if dyn is not None else ""
            body.append(f'<tr class="{"best" if r.width == tab.best_width else ""}"><td>{r.width}</td>'
                        f"<td>{display.dec(r.tokens_per_pass, 3)}</td>"
                        f"<td>{display.dec(r.closed_tokens_per_pass, 3)}</td>"
                        f"<td>{times(r.speedup)}</td><td>{times(r.closed_speedup)}</td>{extra}</tr>")
        return ('<details class="numbers"><summary>The numbers behind the charts</summary>'
                f'<table class="nums"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></details>')

    def __panel__(self):
        return self._layout
