"""The views of the "When it pays off" tab; each renders from the model.

Widgets come from the model's parameters (``Widget.from_param``; the sliders
update the model when released), text from ``words`` through ``pn.bind``,
the charts by refilling their data sources. The tab's body, and the tables
it needs, are built when the tab is first shown (``PayoffTab.activate``).
"""

import panel as pn
import param

from core import display, rates

from app import theme
from app.exact.common import built_when_shown, html, stylesheet
from app.parts import DRAFT_OPTIONS, field

from . import words
from .model import PayoffModel

INTRO = ('<div class="section-title"><h2>When it pays off</h2></div>'
         '<p>Each block costs one target pass plus one draft step per proposal. Say a draft step costs '
         '<b>c</b> target passes: c = 0 means drafting is free, c = 1 means the draft is as slow as the '
         'target. A wider block can keep more tokens per target pass, but it costs more draft steps, and '
         'everything after an early rejection is thrown away. Where is the sweet spot?</p>')

LEFT_OUT = ('<h3>What these numbers leave out</h3>'
            '<p>They are algorithmic expectations: counts of target passes and draft steps, weighted by c. They '
            'are not measured latency, and they assume a target pass costs the same however many positions it '
            'checks. On real hardware the operating point also depends on:</p><ul class="left-out">'
            '<li><b>batching</b>: a server that already batches many requests has less idle compute for the '
            'extra positions of a block;</li>'
            '<li><b>memory</b>: the draft\'s weights and caches compete with the target\'s, and rejected '
            'positions must be rolled back in the cache;</li>'
            '<li><b>concurrency</b>: speculation can make one request faster while the extra draft work lowers '
            'how many requests a machine serves.</li></ul>')

COMPUTING = ('<div class="reading computing" role="status" aria-live="polite">Computing the expected speedups '
             'from the tables…</div>')


def css():
    return [stylesheet("payoff")]


def curve_key(name, label):
    return f'<span class="key"><span class="line-key {name}"></span>{theme.esc(label)}</span>'


class Controls(pn.viewable.Viewer):
    """Draft cost, draft, lookahead and its threshold, each a widget of the model's parameter."""

    model = param.ClassSelector(class_=PayoffModel)

    def __init__(self, **params):
        super().__init__(**params)
        m = self.model
        slider = {"name": "", "throttled": True, "format": "0.00", "bar_color": theme.ACCENT,
                  "sizing_mode": "stretch_width", "min_width": 160, "margin": (4, 10)}
        self.cost = pn.widgets.FloatSlider.from_param(m.param.cost, **slider)
        self.draft = pn.widgets.RadioButtonGroup.from_param(m.param.draft, options=DRAFT_OPTIONS, name="",
                                                            color="primary", variant="outline", description=None,
                                                            stylesheets=[theme.BUTTON], margin=(4, 5))
        self.lookahead = pn.widgets.Toggle.from_param(m.param.lookahead, name="Add the lookahead curves",
                                                      color="primary", variant="outline", css_classes=["wrap"],
                                                      stylesheets=[theme.BUTTON, *css()], margin=(4, 5),
                                                      sizing_mode="stretch_width", max_width=260)
        self.threshold = pn.widgets.FloatSlider.from_param(m.param.threshold, **slider)
        self._layout = pn.Column(
            pn.FlexBox(
                field("Draft cost c", "One draft step, in target passes.", self.cost, basis="260px"),
                field("Draft model", "Biased over-proposes A.", self.draft, basis="180px"),
                field("Dynamic lookahead", "Stop drafting when the draft is unsure.", self.lookahead,
                      basis="170px"),
                field("Lookahead threshold", "Stop after a proposal x with q(x) below this.", self.threshold,
                      basis="240px"),
                gap="10px 22px", flex_wrap="wrap", sizing_mode="stretch_width", margin=0,
            ),
            sizing_mode="stretch_width", stylesheets=[theme.CARD], margin=(6, 0),
        )

    def __panel__(self):
        return self._layout


class Curves(pn.viewable.Viewer):
    """The reading, the tiles, both charts, the trace's sentence and the numbers behind the charts."""

    model = param.ClassSelector(class_=PayoffModel)

    def __init__(self, **params):
        super().__init__(**params)
        from .chart import WidthChart  # bokeh.plotting, only once the tab is shown

        m = self.model
        self.reading = html(pn.bind(self._reading, m.param.table), css=css())
        self.schedule_text = html(pn.bind(self._schedule, m.param.heuristic, m.param.table, m.param.lookahead_table),
                                  css=css(), margin=(4, 0))
        self.tiles = html(pn.bind(self._tiles, m.param.table, m.param.heuristic), css=css())
        self.keys = html(pn.bind(self._keys, m.param.lookahead_table, m.param.session, m.param.table), css=css())
        self.speed = WidthChart("Expected speedup by width", "speedup (× ordinary decoding)", reference=1)
        self.passes = WidthChart("Tokens per target pass by width", "committed tokens per target pass")
        self.trace_text = html(pn.bind(self._trace, m.param.session, m.param.table, m.param.lookahead_table), css=css(),
                               margin=(4, 0))
        self.numbers = html(pn.bind(self._numbers, m.param.table, m.param.lookahead_table), css=css(), margin=(6, 0, 0, 0))
        box = {"flex": "1 1 420px", "min-width": "0"}
        self._layout = pn.Column(
            pn.Column(self.reading, sizing_mode="stretch_width", stylesheets=[theme.CAPTION_CARD],
                      margin=(0, 0, 8, 0)),
            self.tiles, self.keys,
            pn.FlexBox(pn.Column(self.speed.pane, margin=0, styles=box),
                       pn.Column(self.passes.pane, margin=0, styles=box),
                       gap="8px 20px", flex_wrap="wrap", sizing_mode="stretch_width", margin=0),
            self.schedule_text, self.trace_text, self.numbers,
            sizing_mode="stretch_width", stylesheets=[theme.CARD], margin=(6, 0),
        )
        m.param.watch(self._draw, ["table", "lookahead_table", "session", "heuristic"])
        self._draw()

    def _draw(self, *events):
        m = self.model
        tab, dyn = m.table, m.lookahead_table
        if tab is None:
            return
        t = words.times
        # Lookup and heads have no closed form (core gives None): only their exact curve is drawn.
        speed = {"exact": [(r.width, r.speedup, f"width {r.width}: {t(r.speedup)} (exact)") for r in tab.rows],
                 "closed": [(r.width, r.closed_speedup, f"width {r.width}: {t(r.closed_speedup)} (closed form)")
                            for r in tab.rows if r.closed_speedup is not None]}
        per_pass = {
            "exact": [(r.width, r.tokens_per_pass, f"width {r.width}: {display.dec(r.tokens_per_pass)} tokens "
                       f"per pass (exact)") for r in tab.rows],
            "closed": [(r.width, r.closed_tokens_per_pass, f"width {r.width}: "
                        f"{display.dec(r.closed_tokens_per_pass)} tokens per pass (closed form)") for r in tab.rows
                       if r.closed_tokens_per_pass is not None]}
        if dyn is not None:
            speed["lookahead"] = [(r.width, r.speedup, f"width {r.width}: {t(r.speedup)} with lookahead")
                                  for r in dyn.rows]
            per_pass["lookahead"] = [(r.width, r.tokens_per_pass, f"width {r.width}: "
                                      f"{display.dec(r.tokens_per_pass)} tokens per pass with lookahead")
                                     for r in dyn.rows]
        point = m.trace_point()
        speed_trace = pass_trace = None
        if point is not None:
            width, tokens, speedup = point
            pass_trace = (width, tokens, f"your trace: {display.dec(tokens)} tokens per pass")
            speed_trace = (width, speedup, f"your trace: {t(speedup)}")
        h = m.heuristic
        speed_h = pass_h = None
        if h is not None:
            where = f"heuristic schedule, average width {display.dec(h.mean_width)}"
            speed_h = (h.mean_width, h.speedup, f"{where}: {t(h.speedup)}")
            pass_h = (h.mean_width, h.tokens_per_pass, f"{where}: {display.dec(h.tokens_per_pass)} tokens per pass")
        best = m.best("exact")
        top_speed = max([float(v) for curve in speed.values() for _, v, _ in curve]
                        + [float(p[1]) for p in (speed_trace, speed_h) if p] + [1.0])
        top_pass = max([float(v) for curve in per_pass.values() for _, v, _ in curve]
                       + [float(p[1]) for p in (pass_trace, pass_h) if p])
        with pn.io.hold():
            self.speed.update(speed, (best.width, best.speedup, f"best width: {best.width}, {t(best.speedup)}"),
                              speed_trace, top_speed * 1.12, speed_h)
            self.passes.update(per_pass, None, pass_trace, top_pass * 1.12, pass_h)

    def _reading(self, table):
        if table is None:
            return COMPUTING
        m = self.model
        return (f'<div class="reading" role="status" aria-live="polite">'
                f'{theme.esc(words.reading(table, m.draft, m.c))}</div>')

    def _schedule(self, h, table, lookahead_table):
        if table is None:
            return ""
        if h is None:
            return f'<p class="muted" role="status">{theme.esc(words.HEURISTIC_COMPUTING)}</p>'
        m = self.model
        dynamic = m.best("lookahead") if lookahead_table is not None else None
        return f"<p>{theme.esc(words.heuristic(h, m.best('exact'), dynamic))}</p>"

    def _tiles(self, table, h):
        if table is None:
            return ""
        m = self.model
        best, closed = m.best("exact"), m.best("closed")
        tiles = ((words.alpha_tile(best.alpha), words.kept_tile(rates.kept_share(m.draft, best.width), best.width))
                 if m.has_table_draft else ())
        tiles += ((f"{best.width}", "best width, exact"),
                  (words.times(best.speedup), "expected speedup at the best width"))
        if m.has_table_draft:
            tiles += ((f"{closed.width}", "best width, closed form"),)
        if h is not None:
            tiles += (words.heuristic_tile(h),)
        return '<div class="tiles">' + "".join(
            f'<div class="tile"><div class="n">{theme.esc(n)}</div><div class="what">{theme.esc(w)}</div></div>'
            for n, w in tiles) + "</div>"

    def _keys(self, lookahead_table, session, table):
        keys = [curve_key("exact", "exact, from the tables")]
        if self.model.has_table_draft:
            keys.append(curve_key("closed", "closed form (paper)"))
        if lookahead_table is not None:
            keys.append(curve_key("lookahead", "exact, with lookahead"))
        keys.append('<span class="key"><span class="best-key"></span>best width</span>')
        if session is not None:
            keys.append('<span class="key"><span class="trace-key">◆</span>your trace</span>')
        keys.append('<span class="key"><span class="trace-key heuristic-key" style="color:#1a7f5a">★</span>'
                    'heuristic schedule, at its average width</span>')
        keys.append(curve_key("ordinary", "ordinary decoding (1×)"))
        return '<div class="keys" aria-label="chart key">' + "".join(keys) + "</div>"

    def _trace(self, session, table, lookahead_table):
        m = self.model
        if m.session_model is None:
            text = "Beside the step-through view, the trace you run there appears on these charts as a black diamond."
        elif session is None:
            text = ("Run at least one block on the first tab (Step through a block) and its counters appear here "
                    "as a black diamond.")
        else:
            text = words.trace(session, m.c, m.trace_passes(), m.draft, m.t if m.lookahead else None)
        return f"<p>{theme.esc(text)}</p>"

    def _numbers(self, table, lookahead_table):
        if table is None:
            return ""
        t = words.times
        head = ("<th scope='col'>width</th><th scope='col'>tokens per pass</th><th scope='col'>closed form</th>"
                "<th scope='col'>speedup</th><th scope='col'>closed form</th>"
                + ("<th scope='col'>speedup with lookahead</th>" if lookahead_table is not None else ""))
        body = "".join(
            f'<tr class="{"best" if r.width == table.best_width else ""}"><td>{r.width}</td>'
            f"<td>{display.dec(r.tokens_per_pass, 3)}</td><td>{display.dec(r.closed_tokens_per_pass, 3)}</td>"
            f"<td>{t(r.speedup)}</td><td>{t(r.closed_speedup)}</td>"
            + (f"<td>{t(lookahead_table.rows[i].speedup)}</td>" if lookahead_table is not None else "") + "</tr>"
            for i, r in enumerate(table.rows))
        return ('<details class="numbers"><summary>The numbers behind the charts</summary>'
                f'<table class="nums"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></details>')

    def __panel__(self):
        return self._layout


class Notes(pn.viewable.Viewer):
    """Dynamic lookahead's lesson, what the numbers leave out, and why exact and closed form differ."""

    model = param.ClassSelector(class_=PayoffModel)

    def __init__(self, **params):
        super().__init__(**params)
        m = self.model
        self.lookahead_text = html(pn.bind(self._lookahead, m.param.lookahead_table), css=css(), margin=(4, 0))
        self.gap_text = html(pn.bind(self._gap, m.param.table), css=css(), margin=(4, 0))
        self._layout = pn.Column(
            pn.Column(self.lookahead_text, sizing_mode="stretch_width", stylesheets=[theme.CARD], margin=(6, 0)),
            pn.Column(html(LEFT_OUT, css=css(), margin=(4, 0)), self.gap_text, sizing_mode="stretch_width",
                      stylesheets=[theme.CARD], margin=(6, 0)),
            sizing_mode="stretch_width", margin=0,
        )

    def _lookahead(self, lookahead_table):
        m = self.model
        head = ('<h3>Dynamic lookahead</h3>'
                '<p>Instead of always drafting the full width, the draft can stop early when it is unsure of its '
                'own guess: after a proposal x whose draft probability q(x) is below a threshold. Turn it on '
                'above, or move the threshold, to add its curves. The output stays exact, because the stop '
                'depends only on the draft\'s own proposals.</p>')
        if lookahead_table is None or m.table is None:
            return head + '<p class="muted">Switch on dynamic lookahead to compare its curve with the fixed widths.</p>'
        if m.has_table_draft:
            text = words.lookahead(m.draft, m.t, m.best("exact"), m.best("lookahead"), rates.keep_chances(m.draft))
        else:
            text = words.lookahead_plain(m.draft, m.t, m.table, lookahead_table)
        return head + f"<p>{theme.esc(text)}</p>"

    def _gap(self, table):
        if table is None:
            return ""
        m = self.model
        if not m.has_table_draft:
            return f'<h3 class="gap">No closed form here</h3><p>{theme.esc(words.NO_CLOSED_FORM[m.draft])}</p>'
        best = table.best_width
        r1 = m.rates(1)
        # With α = 1 the note needs no per-position chances (and a wide best width would cost a moment).
        rw = r1 if r1.alpha == 1 else m.rates(best)
        sentences = words.gap(table.rows[0], r1, table.rows[best - 1], rw, rates.kept_after(m.draft))
        return '<h3 class="gap">Why exact and closed form differ</h3>' + "".join(
            f"<p>{theme.esc(s)}</p>" for s in sentences)

    def __panel__(self):
        return self._layout


class PayoffTab(pn.viewable.Viewer):
    """The "When it pays off" tab.

    ``PayoffTab(session_model=model)`` is cheap: the body is built, and the
    tables computed, by ``activate()``, which the page may call when the tab
    opens and which the tab calls itself when it is first rendered.
    """

    model = param.ClassSelector(class_=PayoffModel)

    def __init__(self, session_model=None, **params):
        if params.get("model") is None:
            params["model"] = PayoffModel(session_model=session_model)
        super().__init__(**params)
        self.body = None
        self._layout = pn.Column(html(INTRO, css=css(), margin=(8, 0, 4, 0)), built_when_shown(self.activate),
                                 sizing_mode="stretch_width", margin=(4, 0))

    def activate(self):
        """Build the body and start computing its tables (once)."""
        if self.body is None:
            self.controls = Controls(model=self.model)
            self.curves = Curves(model=self.model)
            self.notes = Notes(model=self.model)
            from .candidates import CandidatesView  # several candidates per position (issue 13)
            self.candidates = CandidatesView(model=self.model)
            self.body = pn.Column(self.controls, self.curves, self.candidates, self.notes, sizing_mode="stretch_width",
                                  margin=0)
            self.model.activate()
        return self.body

    def __panel__(self):
        return self._layout
