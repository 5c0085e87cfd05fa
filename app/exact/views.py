"""The views of the "Why it is exact" tab; each renders from the model.

Widgets come from the model's parameters (``Widget.from_param``), text from
``words`` through ``pn.bind``, the chart by refilling its data source. The
tab's body, and everything it computes, is built when the tab is first shown
(``ExactTab.activate``): constructing ``ExactTab`` costs a few widgets' worth.
"""

import panel as pn
import param

import core
from core import display, exact
from core.tables import AUTHORED
from core.variants import ALL_VARIANTS

from app import theme
from app.i18n import t
from app.parts import DRAFT_OPTIONS, built_when_shown, draft_options, field, html
from app.theme import stylesheet

from . import words
from .model import CARD_DRAFT, CARD_K, CARD_WIDTH, TEMPERATURES, TOP_KS, CalculatorModel, ExactModel

TOP = 12  # prefixes shown before "show all"
TOKENS = tuple(core.TOKENS)

def intro():
    return (f'<div class="section-title"><h2>{theme.esc(t("tab.exact"))}</h2></div>'
            f'<p>{t("exact.intro", exactly="<b>" + theme.esc(t("exact.intro.exactly")) + "</b>")}</p>')


def css():
    return [stylesheet("exact")]


def paragraphs(sentences, **attrs):
    extra = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in attrs.items())
    return f'<div class="reading"{extra}>' + "".join(f"<p>{theme.esc(s)}</p>" for s in sentences if s) + "</div>"


class Controls(pn.viewable.Viewer):
    """Rule, draft, width, k and the number of runs, each a widget of the model's parameter."""

    model = param.ClassSelector(class_=ExactModel)

    def __init__(self, **params):
        super().__init__(**params)
        m = self.model
        hidden = {"css_classes": ["hidden-label"], "stylesheets": css(), "description": None}
        self.variant = pn.widgets.Select.from_param(m.param.variant, name=t("exact.field.rule"), margin=(4, 5),
                                                    options={words.rule_name(v): v for v in m.param.variant.objects},
                                                    sizing_mode="stretch_width", **hidden)
        self.draft = pn.widgets.RadioButtonGroup.from_param(m.param.draft, options=draft_options(DRAFT_OPTIONS), name="",
                                                            sizing_mode="stretch_width", max_width=420,
                                                            color="primary",
                                                            variant="outline", description=None,
                                                            stylesheets=[theme.BUTTON], margin=(4, 2))
        self.width = pn.widgets.IntSlider.from_param(m.param.width, name="", bar_color=theme.ACCENT,
                                                     sizing_mode="stretch_width",
                                                     min_width=150, margin=(4, 10))
        self.k = pn.widgets.RadioButtonGroup.from_param(m.param.k, name="", color="primary",
                                                        variant="outline", description=None,
                                                        stylesheets=[theme.BUTTON], margin=(4, 5))
        self.runs = pn.widgets.Select.from_param(m.param.runs, name=t("exact.field.runs"), sizing_mode="stretch_width",
                                                 min_width=100, max_width=170, margin=(4, 5), **hidden)
        buttons = {"name": "", "color": "primary", "variant": "outline", "description": None,
                   "stylesheets": [theme.BUTTON], "margin": (4, 2), "sizing_mode": "stretch_width",
                   "max_width": 340}
        self.temperature = pn.widgets.RadioButtonGroup.from_param(m.param.temperature, options=TEMPERATURES,
                                                                  **buttons)
        self.top_k = pn.widgets.RadioButtonGroup.from_param(
            m.param.top_k, options={(t("exact.top_k.off") if v == "off" else k): v for k, v in TOP_KS.items()}, **buttons)
        self.transform_at = pn.widgets.RadioButtonGroup.from_param(m.param.transform_at, options=words.where_options(),
                                                                   **buttons)
        self.rule_text = html(pn.bind(self._rule_html, m.param.variant), css=css(), margin=(6, 5, 0, 5))
        self._layout = pn.Column(
            pn.FlexBox(
                field(t("exact.field.rule"), t("exact.field.rule.help"), self.variant, basis="220px"),
                field(t("step.field.draft"), words.draft_help(self.model.tables.authored), self.draft, basis="330px"),
                field(t("step.field.width"), t("exact.field.width.help"), self.width, basis="180px"),
                field(t("exact.field.k"), t("exact.field.k.help"), self.k, basis="170px"),
                field(t("exact.field.runs"), t("exact.field.runs.help"), self.runs, basis="130px"),
                gap="10px 22px", flex_wrap="wrap", sizing_mode="stretch_width", margin=0,
            ),
            pn.FlexBox(
                field(t("exact.field.temperature"), t("exact.help.temperature"), self.temperature, basis="220px"),
                field(t("exact.field.top_k"), t("exact.help.top_k"), self.top_k, basis="200px"),
                field(t("exact.field.transform_at"), t("exact.help.transform_at"), self.transform_at, basis="260px"),
                gap="10px 22px", flex_wrap="wrap", sizing_mode="stretch_width", margin=(6, 0, 0, 0),
            ),
            self.rule_text,
            sizing_mode="stretch_width", stylesheets=[theme.CARD], margin=(6, 0),
        )

    @staticmethod
    def _rule_html(variant):
        v = ALL_VARIANTS[variant]
        shortcut = "" if v.keeps_target else t("exact.shortcut")
        return (f'<div class="rule-box"><div class="title">{theme.esc(words.rule_title(variant, v.title))}'
                f'{theme.esc(shortcut)}</div>'
                f'<p class="small">{theme.esc(words.rule_summary(variant, v.summary))}</p></div>')

    def __panel__(self):
        return self._layout


class Result(pn.viewable.Viewer):
    """The exact comparison and the sample: reading, tiles, progress, the chart and its numbers."""

    model = param.ClassSelector(class_=ExactModel)

    show_all = param.Boolean(default=False, doc="Show every k-token start, not only the most likely ones.")

    def __init__(self, **params):
        super().__init__(**params)
        from .chart import DistributionChart  # bokeh.plotting, only once the tab is shown

        m = self.model
        sample = [m.param.counts, m.param.done, m.param.sampling, m.param.chi_target]
        self.reading = html(pn.bind(self._reading_html, m.param.comparison, *sample), css=css())
        self.tiles = html(pn.bind(self._tiles_html, m.param.comparison, *sample), css=css())
        # In percent: one bound value, so the bar is never asked to hold more than its maximum.
        self.progress = pn.indicators.Progress(value=pn.bind(lambda done, runs: min(100, 100 * done // runs),
                                                             m.param.done, m.param.runs), max=100,
                                               bar_color="primary",
                                               sizing_mode="stretch_width", height=12, margin=(2, 5),
                                               styles={"max-width": "720px"})
        self.status = html(pn.bind(self._status_html, m.param.sampling, m.param.done, m.param.runs,
                                   m.param.seconds, m.param.base_seed), css=css(), margin=(0, 5))
        self.again = pn.widgets.Button(label=t("exact.again"), stylesheets=[theme.BUTTON], margin=(4, 5),
                                       description=t("exact.again.tip"))
        self.again.on_click(lambda event: m.new_sample())
        self.keys = html(pn.bind(self._keys_html, m.param.comparison, m.param.done, self.param.show_all),
                         css=css())
        self.chart = DistributionChart()
        self.show_all_toggle = pn.widgets.Toggle.from_param(
            self.param.show_all, name=t("exact.show_all"), color="primary", variant="outline",
            stylesheets=[theme.BUTTON], margin=(4, 5),
            visible=pn.bind(lambda c: len(c.target) + len(set(c.result) - set(c.target)) > TOP,
                            m.param.comparison))
        self.numbers = html(pn.bind(self._numbers_html, m.param.comparison, *sample), css=css(),
                            margin=(6, 5, 0, 5))
        self._layout = pn.Column(
            pn.Column(self.reading, sizing_mode="stretch_width", stylesheets=[theme.CAPTION_CARD],
                      margin=(0, 0, 8, 0)),
            self.tiles,
            pn.FlexBox(pn.Column(self.status, self.progress, margin=0,
                                 styles={"flex": "1 1 260px", "min-width": "0"}),
                       self.again, flex_wrap="wrap", align_items="center", sizing_mode="stretch_width", margin=0),
            self.keys, self.chart.pane, self.show_all_toggle, self.numbers,
            sizing_mode="stretch_width", stylesheets=[theme.CARD], margin=(6, 0),
        )
        m.param.watch(self._draw, ["comparison", "counts", "done"])
        self.param.watch(self._draw, ["show_all"])
        self._draw()

    def _limit(self):
        n = len(self.model.prefixes())
        return None if self.show_all or n <= TOP else TOP

    def _draw(self, *events):
        m = self.model
        k = m.k
        title = t("exact.chart.title.one" if k == 1 else "exact.chart.title.other", k=k)
        self.show_all_toggle.label = t("exact.show_all.n", n=len(m.prefixes()))
        self.chart.update(m.rows(self._limit()), title)

    def _reading_html(self, comparison, *sample):
        m = self.model
        sentences = words.rule_reading(comparison, m.rule, exact.greedy_target(comparison.k, comparison.transform))
        transformed = words.transform_reading(comparison, m.raw_distance, m.rule.keeps_target)
        if transformed:
            sentences.append(transformed)
        sentences.append(words.sample_reading(m.done, m.sampling, m.chi_target, m.chi_rule, comparison.distance))
        return paragraphs(sentences, role="status", aria_live="polite")

    def _tiles_html(self, comparison, *sample):
        m = self.model
        chi, r = m.chi_target, m.chi_rule
        tiles = [
            ("good" if comparison.distance == 0 else "bad", display.exact_or_dec(comparison.distance, 4),
             t("exact.tile.distance")),
            ("" if chi is None else ("good" if chi.p_value >= words.LEVEL else "bad"),
             words.p_value_text(None if chi is None else chi.p_value), t("exact.tile.p_target")),
            ("", words.p_value_text(None if r is None else r.p_value), t("exact.tile.p_rule")),
            ("", f"{m.done:,}", t("exact.tile.runs", seeds=words.seeds_text(m.base_seed, m.runs))),
        ]
        return '<div class="tiles">' + "".join(
            f'<div class="tile {cls}"><div class="n">{theme.esc(n)}</div><div class="what">{theme.esc(w)}</div></div>'
            for cls, n, w in tiles) + "</div>"

    @staticmethod
    def _status_html(sampling, done, runs, seconds, base_seed):
        return (f'<div class="status" role="status">'
                f'{theme.esc(words.status_text(sampling, done, runs, seconds, base_seed))}</div>')

    def _keys_html(self, comparison, done, show_all):
        m = self.model
        n = len(m.prefixes())
        rule = words.rule_name(comparison.variant)
        esc = theme.esc
        showing = t("exact.keys.showing", top=TOP, n=n) if n > TOP and not show_all else ""
        target = (t("exact.keys.target") if comparison.transform.identity
                  else t("exact.keys.target_with", transformation=words.transformation(comparison.transform)))
        return (f'<div class="keys" aria-label="{esc(t("exact.keys.aria"))}">'
                f'<span class="key"><span class="swatch target"></span> {esc(target)}</span>'
                f'<span class="key"><span class="swatch result"></span> {esc(t("exact.keys.rule", rule=rule))}</span>'
                f'<span class="key"><span class="swatch sampled"></span> '
                f'{esc(t("exact.keys.sampled", rule=rule, runs=f"{done:,}"))}</span>'
                "</div>"
                f'<p class="muted small">{esc(t("exact.keys.rows", draft=words.draft_name(comparison.draft), width=comparison.width))}'
                f'{esc(showing)}</p>')

    def _numbers_html(self, comparison, *sample):
        m = self.model
        body = "".join(
            f'<tr><td class="mono">{theme.esc(words.label(s))}</td><td>{display.dec(target, 4)}</td>'
            f'<td>{display.dec(r, 4)}</td><td>{"—" if share is None else display.dec(share, 4)}</td>'
            f'<td>{n:,}</td></tr>'
            for s, target, r, share, n in m.rows())
        esc = theme.esc
        return (f'<details class="numbers"><summary>{esc(t("exact.numbers"))}</summary>'
                f'<table class="nums"><thead><tr><th scope="col">{esc(t("exact.numbers.first"))}</th>'
                f'<th scope="col">{esc(t("exact.keys.target"))}</th>'
                f'<th scope="col">{esc(words.rule_name(comparison.variant))}</th>'
                f'<th scope="col">{esc(t("exact.numbers.share"))}</th>'
                f'<th scope="col">{esc(t("exact.numbers.runs"))}</th></tr></thead><tbody>{body}</tbody></table></details>')

    def __panel__(self):
        return self._layout


class TraceComparison(pn.viewable.Viewer):
    """The trace of the first tab beside ordinary decoding with the same seed, and what each draw did."""

    model = param.ClassSelector(class_=ExactModel)

    def __init__(self, **params):
        super().__init__(**params)
        m = self.model
        self.html = html(pn.bind(self._html, m.param.trace), css=css())
        self.seed = pn.widgets.IntInput.from_param(m.param.seed, name=t("step.field.seed"), width=140, margin=(4, 5),
                                                   visible=m.session_model is None,
                                                   description=t("exact.trace.seed.tip"))
        self._layout = pn.Column(self.html, self.seed, sizing_mode="stretch_width", stylesheets=[theme.CARD],
                                 margin=(6, 0))

    def _html(self, session):
        m = self.model
        cfg = session.config
        spec, ordinary = session.output, m.ordinary()
        same = set(words.matches(spec, ordinary))

        def chips(seq):
            return "".join(theme.chip(token, "sm" + (" same" if i in same else ""),
                                      title=t("exact.trace.same") if i in same else "")
                           for i, token in enumerate(seq))

        uses = words.draw_uses(session)
        rows = "".join(
            f'<tr><td>{i + 1}</td><td class="mono">{display.draw(u)}</td>'
            f'<td>{theme.esc(t("exact.trace.token", i=i + 1))}<b>{theme.esc(ordinary[i])}</b></td>'
            f'<td>{theme.esc(what)}</td></tr>'
            for i, (u, what, _) in enumerate(uses[:len(ordinary)]))
        esc = theme.esc
        source = t("exact.trace.source.tab" if m.session_model is not None else "exact.trace.source.seed")
        scenario = t("exact.trace.scenario", seed=f"{cfg.seed:,}", draft=words.draft_name(cfg.draft), width=cfg.width)
        if cfg.lookahead is not None:
            scenario += t("exact.trace.lookahead", threshold=display.dec(cfg.lookahead))
        return (
            f'<div class="section-title"><h2>{esc(t("exact.trace.title"))}</h2>'
            f'<span class="muted">{esc(scenario)}</span></div>'
            f'<p>{t("exact.trace.lead", distribution="<em>" + esc(t("exact.trace.distribution")) + "</em>", source=esc(source))}</p>'
            '<div class="outputs">'
            f'<div class="who">{esc(t("exact.trace.speculative"))}<span class="muted">{esc(t("exact.trace.speculative.what"))}</span></div>'
            f'<div class="tokens">{chips(spec)}</div>'
            f'<div class="who">{esc(t("exact.trace.ordinary"))}<span class="muted">{esc(t("exact.trace.ordinary.what"))}</span></div>'
            f'<div class="tokens">{chips(ordinary)}</div></div>'
            f'<p>{esc(words.agreement(spec, ordinary))}</p>'
            f'<p>{esc(words.draws_sentence(len(uses), spec, ordinary))}</p>'
            f'<table class="draws"><caption class="muted small">{esc(t("exact.trace.caption"))}</caption>'
            f'<thead><tr><th scope="col">{esc(t("exact.trace.draw"))}</th><th scope="col">u</th>'
            f'<th scope="col">{esc(t("exact.trace.ordinary.col"))}</th>'
            f'<th scope="col">{esc(t("exact.trace.speculative.col"))}</th></tr></thead>'
            f'<tbody>{rows}</tbody></table>'
        )

    def __panel__(self):
        return self._layout


# (label, p, q, what it shows), label and what as catalogue keys: the three-token example of seed 001 first.
PRESETS = tuple((f"exact.preset.{name}", p, q, f"exact.preset.{name}.what") for name, p, q in (
    ("three", "0.6, 0.3, 0.1", "0.2, 0.5, 0.3"),
    ("biased", "0.5, 0.3, 0.2", "0.8, 0.15, 0.05"),
    ("equal", "0.5, 0.3, 0.2", "0.5, 0.3, 0.2"),
    ("disjoint", "1, 0, 0", "0, 1, 0"),
))


def presets(tables):
    """``PRESETS`` for a scenario on ``tables``: on a link's own tables, the biased preset is named as the
    authored numbers it is, and a preset with the link's own first rows (target and q) comes first."""
    if tables.authored:
        return PRESETS
    row = lambda r: ", ".join(str(x) for x in r)  # noqa: E731  (fractions as "1/3": the calculator reads them)
    own = ("exact.preset.own", row(tables.target[""]), row(tables.q[""]), "exact.preset.own.what")
    return (PRESETS[0], own) + tuple(
        ("exact.preset.biased.authored", p, q, "exact.preset.biased.authored.what") if label == "exact.preset.biased"
        else (label, p, q, what) for label, p, q, what in PRESETS[1:])


def _cell(x):
    """An exact value; a fraction that has no short decimal gets its decimal on a second line."""
    text = display.exact_or_dec(x, 3)
    if " ≈ " in text:
        exact, approx = text.split(" ≈ ")
        return f'{theme.esc(exact)}<span class="approx">≈ {theme.esc(approx)}</span>'
    return theme.esc(text)


class Calculator(pn.viewable.Viewer):
    """The one-position calculator of ``001_*.txt``: two fields, presets, the decomposition, the seed's lines."""

    model = param.ClassSelector(class_=CalculatorModel)

    tables = param.Parameter(default=AUTHORED, doc="""
        The scenario's tables (core.tables.Tables): they choose the presets (``presets``).""")

    # (field of core.Decomposition, row class); the label and description are exact.calc.FIELD(.what).
    ROWS = (("p", ""), ("q", ""), ("accepted", "kept"), ("positive_part", ""), ("residual", ""),
            ("corrected", "corr"), ("final", "final"))

    def __init__(self, **params):
        if params.get("model") is None:
            params["model"] = CalculatorModel()
        super().__init__(**params)
        m = self.model
        self.p_input = pn.widgets.TextInput.from_param(
            m.param.p_text, name=t("exact.calc.p_input"), placeholder=t("exact.calc.example", example="0.6, 0.3, 0.1"),
            description=t("exact.calc.p_input.tip"),
            sizing_mode="stretch_width", margin=(4, 0))
        self.q_input = pn.widgets.TextInput.from_param(
            m.param.q_text, name=t("exact.calc.q_input"), placeholder=t("exact.calc.example", example="0.2, 0.5, 0.3"),
            description=t("exact.calc.q_input.tip"),
            sizing_mode="stretch_width", margin=(4, 0))
        self.p_message = html(pn.bind(self._message, m.param.p_error), css=css(), margin=(0, 0, 4, 0))
        self.q_message = html(pn.bind(self._message, m.param.q_error), css=css(), margin=(0, 0, 4, 0))
        self.presets = self._presets()
        self.preset_box = pn.FlexBox(*self.presets, flex_wrap="wrap", sizing_mode="stretch_width", margin=(0, 0, 4, 0))
        d = m.param.decomposition
        self.summary = html(pn.bind(self._summary, d), css=css(), margin=(4, 0))
        self.table = html(pn.bind(self._table, d), css=css(), margin=(4, 0))
        self.lines = html(pn.bind(self._lines, d), css=css(), margin=(4, 0))
        intro = html(
            f'<div class="section-title"><h2>{theme.esc(t("exact.calc.title"))}</h2>'
            f'<span class="muted">{theme.esc(t("exact.calc.subtitle"))}</span></div>'
            f'<p>{theme.esc(t("exact.calc.lead"))}</p>', css=css(), margin=(0, 0, 4, 0))
        fields = pn.FlexBox(
            pn.Column(self.p_input, self.p_message, margin=0, styles={"flex": "1 1 240px", "min-width": "0"}),
            pn.Column(self.q_input, self.q_message, margin=0, styles={"flex": "1 1 240px", "min-width": "0"}),
            gap="0 20px", flex_wrap="wrap", sizing_mode="stretch_width", margin=0,
        )
        self._layout = pn.Column(
            intro, self.preset_box,
            fields, self.summary, self.table, self.lines,
            sizing_mode="stretch_width", stylesheets=[theme.CARD], margin=(6, 0),
        )

    def _presets(self):
        buttons = []
        for label, p, q, what in presets(self.tables):
            button = pn.widgets.Button(label=t(label), description=t(what),
                                       stylesheets=[theme.BUTTON],
                                       margin=(2, 6, 2, 0))
            button.on_click(lambda event, p=p, q=q: self.model.load(p, q))
            buttons.append(button)
        return buttons

    @param.depends("tables", watch=True)
    def _on_tables(self):
        self.presets = self._presets()
        self.preset_box.objects = self.presets

    @staticmethod
    def _message(error):
        if not error:
            return f'<div class="field-ok" aria-live="polite">✓ {theme.esc(t("exact.calc.ok"))}</div>'
        return f'<div class="field-error" role="alert">⚠ {theme.esc(words.field_message(error))}</div>'

    @staticmethod
    def _summary(d):
        if d is None:
            return f'<p class="muted">{theme.esc(t("exact.calc.fix"))}</p>'
        esc = theme.esc
        check = (f'<span class="verdict accepted">{esc(t("exact.calc.final_ok"))}</span>' if d.final == d.p
                 else f'<span class="verdict rejected">{esc(t("exact.calc.final_bad"))}</span>')
        return (f'<p>{esc(t("exact.calc.rejection"))}<b class="mono">{_cell(d.rejection)}</b> '
                f'<span class="muted">{esc(t("exact.calc.rejection.what"))}</span>{esc(t("exact.calc.stop"))}'
                f'{esc(words.residual_sentence(d, TOKENS))}</p>'
                f'<p>{check} {esc(t("exact.calc.why"))}</p>')

    @classmethod
    def _table(cls, d):
        if d is None:
            return ""
        head = "".join(f'<th scope="col">{theme.chip(token, "sm")}</th>' for token in TOKENS)
        body = "".join(
            f'<tr class="{kind}"><th scope="row">{theme.esc(t(f"exact.calc.{field_name}"))}'
            f'<span class="desc">{theme.esc(t(f"exact.calc.{field_name}.what"))}</span></th>'
            + "".join(f'<td class="mono">{_cell(v)}</td>' for v in getattr(d, field_name)) + "</tr>"
            for field_name, kind in cls.ROWS)
        return (f'<table class="calc"><thead><tr><th scope="col">{theme.esc(t("exact.calc.per_token"))}</th>{head}'
                f'</tr></thead><tbody>{body}</tbody></table>')

    @staticmethod
    def _lines(d):
        if d is None:
            return ""
        return (f'<p class="muted small" style="margin-top:6px">{theme.esc(t("exact.calc.prints"))}</p>'
                '<pre class="seed">' + theme.esc("\n".join(display.seed_lines(d))) + "</pre>")

    def __panel__(self):
        return self._layout


class RuleCards(pn.viewable.Viewer):
    """The rules in the wild: one card per rule, each from its ``core.rulecard`` record (``ExactModel.cards``).

    What the rule does, where it was shipped or proposed (repository#number), its exact distance
    from the target and its kept share beside the exact rule's, on one fixed scenario.
    """

    model = param.ClassSelector(class_=ExactModel)

    def __init__(self, **params):
        super().__init__(**params)
        self.html = html(pn.bind(self._html, self.model.param.cards), css=css())
        self._layout = pn.Column(self.html, sizing_mode="stretch_width", stylesheets=[theme.CARD], margin=(6, 0))

    @staticmethod
    def _card(record):
        c, esc = record.card, theme.esc
        kind, verdict = words.card_verdict(c)
        v = ALL_VARIANTS[c.variant]

        def line(label, sentences):
            return (f'<p><b>{esc(t(label))}</b>{esc(t("step.inspector.colon"))}'
                    + " ".join(esc(s) for s in sentences) + "</p>")

        return (f'<article class="rule-card {kind}" aria-labelledby="card-{c.variant}">'
                f'<h3 id="card-{c.variant}">{esc(words.rule_title(c.variant, v.title))}</h3>'
                f'<p class="card-tags"><span class="mono name">{esc(words.rule_name(c.variant))}</span>'
                f'<span class="verdict-tag {kind}">{esc(verdict)}</span></p>'
                + line("exact.card.what", [words.rule_summary(c.variant, v.summary)])
                + line("exact.card.where", words.card_where(c))
                + line("exact.card.distance.label", [words.card_distance(c)])
                + line("exact.card.kept.label", [words.card_kept(c), *words.card_notes(c, record.aligned)])
                + "</article>")

    def _html(self, cards):
        esc = theme.esc
        head = (f'<div class="section-title"><h2>{esc(t("exact.cards.title"))}</h2></div>'
                f'<p>{esc(words.card_lead(CARD_DRAFT, CARD_WIDTH, CARD_K, self.model.tables.authored))}</p>')
        if cards is None:
            return head + f'<p class="computing" role="status">{esc(t("exact.cards.computing"))}</p>'
        return head + '<div class="rule-cards">' + "".join(self._card(c) for c in cards) + "</div>"

    def __panel__(self):
        return self._layout


class ExactTab(pn.viewable.Viewer):
    """The "Why it is exact" tab.

    ``ExactTab(session_model=model)`` is cheap: the body is built, and the
    model's numbers computed, by ``activate()``, which the page may call when
    the tab opens and which the tab calls itself when it is first rendered
    (so ``pn.Tabs(dynamic=True)`` or a tab built on first open need nothing
    more).
    """

    model = param.ClassSelector(class_=ExactModel)

    def __init__(self, session_model=None, **params):
        if params.get("model") is None:
            params["model"] = ExactModel(session_model=session_model)
        super().__init__(**params)
        self.body = None
        self._layout = pn.Column(html(intro(), css=css(), margin=(8, 0, 4, 0)), built_when_shown(self._body),
                                 sizing_mode="stretch_width", margin=(4, 0))

    def activate(self):
        """Build the body and compute its numbers (once)."""
        if self.body is None:
            self.model.activate()
            self.controls = Controls(model=self.model)
            self.result = Result(model=self.model)
            self.cards = RuleCards(model=self.model)
            self.trace = TraceComparison(model=self.model)
            self.calculator = Calculator(tables=self.model.tables)
            # A link's tables that reach the page after the tab was built: the presets and card lead follow.
            self.model.param.watch(self._follow_tables, "comparison")
            self.body = pn.Column(self.controls, self.result, self.cards, self.trace, self.calculator,
                                  sizing_mode="stretch_width", margin=0)
        return self.body

    def _follow_tables(self, *events):
        if self.calculator.tables != self.model.tables:  # a new comparison on the same tables changes no preset
            self.calculator.tables = self.model.tables

    def _body(self):
        return self.activate()

    def __panel__(self):
        return self._layout
