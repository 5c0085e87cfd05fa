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
from app.i18n import t
from app.parts import DRAFT_OPTIONS, built_when_shown, draft_options, field, html
from app.theme import stylesheet

from . import words
from .model import PayoffModel

def intro():
    return (f'<div class="section-title"><h2>{theme.esc(t("tab.payoff"))}</h2></div>'
            f'<p>{theme.esc(t("payoff.intro"))}</p>')


def left_out():
    items = "".join(f'<li><b>{theme.esc(t(f"payoff.left_out.{name}"))}</b>{theme.esc(t("step.inspector.colon"))}'
                    f'{theme.esc(t(f"payoff.left_out.{name}.what"))}</li>' for name in ("batching", "memory", "concurrency"))
    return (f'<h3>{theme.esc(t("payoff.left_out.title"))}</h3><p>{theme.esc(t("payoff.left_out.lead"))}</p>'
            f'<ul class="left-out">{items}</ul>')


def batch_lead():
    return (f'<h3>{theme.esc(t("payoff.batch.title"))}</h3>'
            f'<p>{theme.esc(t("payoff.batch.lead"))}</p>')


def computing():
    return f'<div class="reading computing" role="status" aria-live="polite">{theme.esc(t("payoff.computing"))}</div>'


def refused_html(refused):
    """The notice for tables with no long run (``PayoffModel.refused``), in the page's language."""
    if refused is None:
        return ""
    a, b = refused
    return f'<div class="reading" role="status" aria-live="polite">{theme.esc(t("payoff.long_run.refused", a=a, b=b))}</div>'


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
        # Named for screen readers through these classes (app/page/words.py NAME_KEYS), not by their titles.
        self.cost = pn.widgets.FloatSlider.from_param(m.param.cost, css_classes=["sp-cost"], **slider)
        self.draft = pn.widgets.RadioButtonGroup.from_param(m.param.draft, options=draft_options(DRAFT_OPTIONS), name="",
                                                            sizing_mode="stretch_width", max_width=420,
                                                            color="primary", variant="outline", description=None,
                                                            stylesheets=[theme.BUTTON], margin=(4, 2))
        self.lookahead = pn.widgets.Toggle.from_param(m.param.lookahead, name=t("payoff.add_lookahead"),
                                                      color="primary", variant="outline", css_classes=["wrap"],
                                                      stylesheets=[theme.BUTTON, *css()], margin=(4, 5),
                                                      sizing_mode="stretch_width", max_width=260)
        self.threshold = pn.widgets.FloatSlider.from_param(m.param.threshold, css_classes=["sp-threshold"], **slider)
        self._layout = pn.Column(
            pn.FlexBox(
                field(t("payoff.field.cost"), t("payoff.field.cost.help"), self.cost, basis="260px"),
                # 420px: the five drafts' buttons (custom included) fit without running into the next field.
                field(t("step.field.draft"), t("exact.field.draft.help" if m.tables.authored else "exact.field.draft.help.custom"),
                      self.draft, basis="420px"),
                field(t("step.field.lookahead"), t("payoff.field.lookahead.help"), self.lookahead,
                      basis="170px"),
                field(t("payoff.field.threshold"), t("payoff.field.threshold.help"), self.threshold,
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
        self.speed = WidthChart(t("payoff.chart.speed"), t("payoff.chart.speed.axis"), reference=1)
        self.passes = WidthChart(t("payoff.chart.passes"), t("payoff.chart.passes.axis"))
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
        x = words.times

        def hover(kind, curve, width, value):
            return t(f"payoff.hover.{kind}.{curve}", width=width, value=value)

        # Lookup and heads have no closed form (core gives None): only their exact curve is drawn.
        speed = {"exact": [(r.width, r.speedup, hover("speed", "exact", r.width, x(r.speedup))) for r in tab.rows],
                 "closed": [(r.width, r.closed_speedup, hover("speed", "closed", r.width, x(r.closed_speedup)))
                            for r in tab.rows if r.closed_speedup is not None]}
        per_pass = {
            "exact": [(r.width, r.tokens_per_pass, hover("passes", "exact", r.width, display.dec(r.tokens_per_pass)))
                      for r in tab.rows],
            "closed": [(r.width, r.closed_tokens_per_pass,
                        hover("passes", "closed", r.width, display.dec(r.closed_tokens_per_pass))) for r in tab.rows
                       if r.closed_tokens_per_pass is not None]}
        if dyn is not None:
            speed["lookahead"] = [(r.width, r.speedup, hover("speed", "lookahead", r.width, x(r.speedup)))
                                  for r in dyn.rows]
            per_pass["lookahead"] = [(r.width, r.tokens_per_pass,
                                      hover("passes", "lookahead", r.width, display.dec(r.tokens_per_pass)))
                                     for r in dyn.rows]
        point = m.trace_point()
        speed_trace = pass_trace = None
        if point is not None:
            width, tokens, speedup = point
            pass_trace = (width, tokens, t("payoff.hover.trace.passes", value=display.dec(tokens)))
            speed_trace = (width, speedup, t("payoff.hover.trace.speed", value=x(speedup)))
        h = m.heuristic
        speed_h = pass_h = None
        if h is not None:
            where = t("payoff.hover.heuristic", width=display.dec(h.mean_width))
            speed_h = (h.mean_width, h.speedup, t("payoff.hover.at", where=where, value=x(h.speedup)))
            pass_h = (h.mean_width, h.tokens_per_pass,
                      t("payoff.hover.at.passes", where=where, value=display.dec(h.tokens_per_pass)))
        best = m.best("exact")
        top_speed = max([float(v) for curve in speed.values() for _, v, _ in curve]
                        + [float(p[1]) for p in (speed_trace, speed_h) if p] + [1.0])
        top_pass = max([float(v) for curve in per_pass.values() for _, v, _ in curve]
                       + [float(p[1]) for p in (pass_trace, pass_h) if p])
        with pn.io.hold():
            self.speed.update(speed, (best.width, best.speedup,
                                      t("payoff.hover.best", width=best.width, value=x(best.speedup))),
                              speed_trace, top_speed * 1.12, speed_h)
            self.passes.update(per_pass, None, pass_trace, top_pass * 1.12, pass_h)

    def _reading(self, table):
        if table is None:
            return computing()
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
        tiles = ((words.alpha_tile(best.alpha), words.kept_tile(m.kept_share(best.width), best.width))
                 if m.has_table_draft else ())
        tiles += ((f"{best.width}", t("payoff.tile.best")),
                  (words.times(best.speedup), t("payoff.tile.speedup")))
        if m.has_table_draft:
            tiles += ((f"{closed.width}", t("payoff.tile.closed")),)
        if h is not None:
            tiles += (words.heuristic_tile(h),)
        return '<div class="tiles">' + "".join(
            f'<div class="tile"><div class="n">{theme.esc(n)}</div><div class="what">{theme.esc(w)}</div></div>'
            for n, w in tiles) + "</div>"

    def _keys(self, lookahead_table, session, table):
        keys = [curve_key("exact", t("payoff.key.exact"))]
        if self.model.has_table_draft:
            keys.append(curve_key("closed", t("payoff.key.closed")))
        if lookahead_table is not None:
            keys.append(curve_key("lookahead", t("payoff.key.lookahead")))
        keys.append(f'<span class="key"><span class="best-key"></span>{theme.esc(t("payoff.key.best"))}</span>')
        if session is not None:
            keys.append(f'<span class="key"><span class="trace-key">◆</span>{theme.esc(t("payoff.key.trace"))}</span>')
        keys.append('<span class="key"><span class="trace-key heuristic-key" style="color:#1a7f5a">★</span>'
                    f'{theme.esc(t("payoff.key.heuristic"))}</span>')
        keys.append(curve_key("ordinary", t("payoff.key.ordinary")))
        return f'<div class="keys" aria-label="{theme.esc(t("exact.keys.aria"))}">' + "".join(keys) + "</div>"

    def _trace(self, session, table, lookahead_table):
        m = self.model
        if m.session_model is None:
            text = t("payoff.trace.beside")
        elif session is None:
            text = t("payoff.trace.run_first", tab=t("tab.step"))
        else:
            text = words.trace(session, m.c, m.trace_passes(), m.draft, m.t if m.lookahead else None)
        return f"<p>{theme.esc(text)}</p>"

    def _numbers(self, table, lookahead_table):
        if table is None:
            return ""
        x = words.times
        cols = ("width", "per_pass", "closed", "speedup", "closed") + (("lookahead",) if lookahead_table is not None else ())
        head = "".join(f"<th scope='col'>{theme.esc(t(f'payoff.col.{c}'))}</th>" for c in cols)
        body = "".join(
            f'<tr class="{"best" if r.width == table.best_width else ""}"><td>{r.width}</td>'
            f"<td>{display.dec(r.tokens_per_pass, 3)}</td><td>{display.dec(r.closed_tokens_per_pass, 3)}</td>"
            f"<td>{x(r.speedup)}</td><td>{x(r.closed_speedup)}</td>"
            + (f"<td>{x(lookahead_table.rows[i].speedup)}</td>" if lookahead_table is not None else "") + "</tr>"
            for i, r in enumerate(table.rows))
        return (f'<details class="numbers"><summary>{theme.esc(t("payoff.numbers"))}</summary>'
                f'<table class="nums"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></details>')

    def __panel__(self):
        return self._layout


class BatchView(pn.viewable.Viewer):
    """Speculation in a batch (``core.batch``): sliders for b and s, per-request speedup by width beside
    the curves above, the best width, what the whole batch serves, and the toy model named as one."""

    model = param.ClassSelector(class_=PayoffModel)

    def __init__(self, **params):
        super().__init__(**params)
        m = self.model
        slider = {"name": "", "throttled": True, "bar_color": theme.ACCENT, "sizing_mode": "stretch_width",
                  "min_width": 160, "margin": (4, 10)}
        # Named for screen readers by app/page/page.js through these classes (app/page/words.py NAME_KEYS).
        self.batch = pn.widgets.IntSlider.from_param(m.param.batch, css_classes=["sp-batch"], **slider)
        self.saturation = pn.widgets.IntSlider.from_param(m.param.saturation, css_classes=["sp-saturation"], **slider)
        self.lead = html(batch_lead(), css=css(), margin=(0, 0, 4, 0))
        self.reading = html(pn.bind(self._reading, m.param.batch_table, m.param.table), css=css())
        self.tiles = html(pn.bind(self._tiles, m.param.batch_table), css=css())
        self.keys = html(pn.bind(self._keys, m.param.batch_table), css=css())
        # The chart is built with its first numbers, not before: in a page that opens on this tab, an
        # empty figure here kept BokehJS from ever reporting the document idle, so Panel's onload (and
        # with it the tab's tables) never came (seen under panel serve with ?tab=payoff).
        self.chart = None
        self.chart_box = pn.Column(sizing_mode="stretch_width", margin=0, visible=m.batched)
        self.numbers = html(pn.bind(self._numbers, m.param.batch_table), css=css(), margin=(6, 0, 0, 0))
        self._layout = pn.Column(
            self.lead,
            pn.FlexBox(
                field(t("payoff.field.batch"), t("payoff.field.batch.help"), self.batch, basis="240px"),
                field(t("payoff.field.saturation"), t("payoff.field.saturation.help"), self.saturation,
                      basis="240px"),
                gap="10px 22px", flex_wrap="wrap", sizing_mode="stretch_width", margin=0,
            ),
            pn.Column(self.reading, sizing_mode="stretch_width", stylesheets=[theme.CAPTION_CARD],
                      margin=(4, 0, 8, 0)),
            self.tiles, self.keys, self.chart_box, self.numbers,
            html(f'<p class="muted small">{theme.esc(t("payoff.batch.differ"))}</p>', css=css(), margin=(4, 0)),
            sizing_mode="stretch_width", stylesheets=[theme.CARD], margin=(6, 0),
        )
        m.param.watch(self._draw, ["batch_table", "table"])
        self._draw()

    def _draw(self, *events):
        m = self.model
        bt, one = m.batch_table, m.table
        self.chart_box.visible = bt is not None
        if bt is None or one is None:
            return
        if self.chart is None:
            from .chart import WidthChart  # bokeh.plotting, only once the tab is shown
            self.chart = WidthChart(t("payoff.batch.chart"), t("payoff.batch.chart.axis"), reference=1)
            self.chart_box.objects = [self.chart.pane]
        x = words.times
        curves = {"exact": [(r.width, r.speedup, t("payoff.hover.batch", width=r.width, value=x(r.speedup)))
                            for r in bt.rows],
                  "closed": [(r.width, r.speedup, t("payoff.hover.batch.one", width=r.width, value=x(r.speedup)))
                             for r in one.rows]}
        best = bt.best
        top = max([float(v) for curve in curves.values() for _, v, _ in curve] + [1.0])
        self.chart.update(curves, (best.width, best.speedup, t("payoff.hover.best", width=best.width,
                                                                 value=x(best.speedup))), None, top * 1.12)

    def _reading(self, bt, table):
        m = self.model
        if not m.batched:
            return f'<div class="reading" role="status">{theme.esc(t("payoff.batch.lookup"))}</div>'
        if bt is None or table is None:
            return computing()
        text = words.batch_reading(bt, m.draft, m.c, table)
        return (f'<div class="reading" role="status" aria-live="polite"><p>{theme.esc(text)}</p>'
                f'<p>{theme.esc(words.batch_throughput(bt))}</p></div>')

    @staticmethod
    def _tiles(bt):
        if bt is None:
            return ""
        return '<div class="tiles">' + "".join(
            f'<div class="tile"><div class="n">{theme.esc(n)}</div><div class="what">{theme.esc(w)}</div></div>'
            for n, w in words.batch_tiles(bt)) + "</div>"

    @staticmethod
    def _keys(bt):
        if bt is None:
            return ""
        best = bt.best
        keys = [curve_key("exact", t("payoff.batch.key.batch", b=best.batch, s=best.saturation)),
                curve_key("closed", t("payoff.batch.key.one")),
                f'<span class="key"><span class="best-key"></span>{theme.esc(t("payoff.key.best"))}</span>',
                curve_key("ordinary", t("payoff.key.ordinary"))]
        return f'<div class="keys" aria-label="{theme.esc(t("exact.keys.aria"))}">' + "".join(keys) + "</div>"

    @staticmethod
    def _numbers(bt):
        if bt is None:
            return ""
        x, dec = words.times, display.dec
        cols = ("width", "pass_time", "speedup", "throughput", "capacity")
        head = "".join(f"<th scope='col'>{theme.esc(t(f'payoff.batch.col.{c}'))}</th>" for c in cols)
        body = "".join(
            f'<tr class="{"best" if r.width == bt.best_width else ""}"><td>{r.width}</td>'
            f"<td>{dec(r.target_pass_time)}</td><td>{x(r.speedup)}</td><td>{dec(r.throughput)}</td>"
            f"<td>{dec(r.capacity)}</td></tr>"
            for r in bt.rows)
        return (f'<details class="numbers"><summary>{theme.esc(t("payoff.batch.numbers"))}</summary>'
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
            pn.Column(html(left_out(), css=css(), margin=(4, 0)), self.gap_text, sizing_mode="stretch_width",
                      stylesheets=[theme.CARD], margin=(6, 0)),
            sizing_mode="stretch_width", margin=0,
        )

    def _lookahead(self, lookahead_table):
        m = self.model
        head = (f'<h3>{theme.esc(t("step.field.lookahead"))}</h3>'
                f'<p>{theme.esc(t("payoff.lookahead.lead"))}</p>')
        if lookahead_table is None or m.table is None:
            return head + f'<p class="muted">{theme.esc(t("payoff.lookahead.off"))}</p>'
        if m.has_table_draft:
            text = words.lookahead(m.draft, m.t, m.best("exact"), m.best("lookahead"), rates.keep_chances(m.draft, tables=m.tables))
        else:
            text = words.lookahead_plain(m.draft, m.t, m.table, lookahead_table)
        return head + f"<p>{theme.esc(text)}</p>"

    def _gap(self, table):
        if table is None:
            return ""
        m = self.model
        if not m.has_table_draft:
            return (f'<h3 class="gap">{theme.esc(t("payoff.gap.none"))}</h3>'
                    f'<p>{theme.esc(words.NO_CLOSED_FORM[m.draft])}</p>')
        best = table.best_width
        r1 = m.rates(1)
        # With α = 1 the note needs no per-position chances (and a wide best width would cost a moment).
        rw = r1 if r1.alpha == 1 else m.rates(best)
        sentences = words.gap(table.rows[0], r1, table.rows[best - 1], rw, rates.kept_after(m.draft, tables=m.tables))
        return f'<h3 class="gap">{theme.esc(t("payoff.gap.title"))}</h3>' + "".join(
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
        self._layout = pn.Column(html(intro(), css=css(), margin=(8, 0, 4, 0)), built_when_shown(self.activate),
                                 sizing_mode="stretch_width", margin=(4, 0))

    def activate(self):
        """Build the body and start computing its tables (once)."""
        if self.body is None:
            self.controls = Controls(model=self.model)
            self.curves = Curves(model=self.model)
            self.batch = BatchView(model=self.model)
            self.notes = Notes(model=self.model)
            from .candidates import CandidatesView  # several candidates per position (issue 13)
            self.candidates = CandidatesView(model=self.model)
            m = self.model
            # On tables with no long run every part below would wait forever: a notice says why instead.
            self.notice = html(pn.bind(refused_html, m.param.refused), css=css(), margin=0)
            notice = pn.Column(self.notice, sizing_mode="stretch_width", stylesheets=[theme.CAPTION_CARD],
                               margin=(6, 0), visible=pn.bind(lambda r: r is not None, m.param.refused))
            self.own = html(f'<p class="muted small">{theme.esc(t("payoff.long_run.custom"))}</p>', css=css(),
                            margin=(0, 0), visible=pn.bind(lambda *e: not m.tables.authored and m.refused is None,
                                                           m.param.table, m.param.refused))
            parts = pn.Column(self.curves, self.batch, self.candidates, self.notes, sizing_mode="stretch_width",
                              margin=0, visible=pn.bind(lambda r: r is None, m.param.refused))
            self.notice_box = notice
            self.body = pn.Column(self.controls, notice, self.own, parts, sizing_mode="stretch_width",
                                  margin=0)
            self.model.activate()
        return self.body

    def __panel__(self):
        return self._layout


_CONSTANTS = {"INTRO": intro, "LEFT_OUT": left_out, "COMPUTING": computing}


def __getattr__(name):
    """The module's HTML constants, in the page's language."""
    if name in _CONSTANTS:
        return _CONSTANTS[name]()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
