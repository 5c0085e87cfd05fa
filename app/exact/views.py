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
from core.variants import VARIANTS

from app import theme
from app.parts import DRAFT_OPTIONS, field

from . import words
from .common import built_when_shown, html, stylesheet
from .model import TEMPERATURES, TOP_KS, CalculatorModel, ExactModel

TOP = 12  # prefixes shown before "show all"
TOKENS = tuple(core.TOKENS)

INTRO = ('<div class="section-title"><h2>Why it is exact</h2></div>'
         '<p>The claim of speculative sampling: whatever the draft proposes, the tokens that come out follow '
         'the target\'s probabilities <b>exactly</b>. Here the engine follows every branch of the algorithm '
         'with exact fractions, and also runs it many times with seeds. Try the exact rule, then the '
         'tempting shortcuts, and watch where they go wrong.</p>')


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
        self.variant = pn.widgets.Select.from_param(m.param.variant, name="Verification rule", margin=(4, 5),
                                                    sizing_mode="stretch_width", **hidden)
        self.draft = pn.widgets.RadioButtonGroup.from_param(m.param.draft, options=DRAFT_OPTIONS, name="",
                                                            color="primary",
                                                            variant="outline", description=None,
                                                            stylesheets=[theme.BUTTON], margin=(4, 5))
        self.width = pn.widgets.IntSlider.from_param(m.param.width, name="", bar_color=theme.ACCENT,
                                                     sizing_mode="stretch_width",
                                                     min_width=150, margin=(4, 10))
        self.k = pn.widgets.RadioButtonGroup.from_param(m.param.k, name="", color="primary",
                                                        variant="outline", description=None,
                                                        stylesheets=[theme.BUTTON], margin=(4, 5))
        self.runs = pn.widgets.Select.from_param(m.param.runs, name="Runs", sizing_mode="stretch_width",
                                                 min_width=100, max_width=170, margin=(4, 5), **hidden)
        buttons = {"name": "", "color": "primary", "variant": "outline", "description": None,
                   "stylesheets": [theme.BUTTON], "margin": (4, 5)}
        self.temperature = pn.widgets.RadioButtonGroup.from_param(m.param.temperature, options=TEMPERATURES,
                                                                  **buttons)
        self.top_k = pn.widgets.RadioButtonGroup.from_param(m.param.top_k, options=TOP_KS, **buttons)
        self.transform_at = pn.widgets.RadioButtonGroup.from_param(m.param.transform_at, options=words.WHERE,
                                                                   **buttons)
        self.rule_text = html(pn.bind(self._rule_html, m.param.variant), css=css(), margin=(6, 5, 0, 5))
        self._layout = pn.Column(
            pn.FlexBox(
                field("Verification rule", "Which test judges the proposals.", self.variant, basis="220px"),
                field("Draft model", "Biased over-proposes A.", self.draft, basis="180px"),
                field("Width", "Tokens drafted per block.", self.width, basis="180px"),
                field("First k tokens", "How much output to compare.", self.k, basis="170px"),
                field("Runs", "Seeded runs to sample.", self.runs, basis="130px"),
                gap="10px 22px", flex_wrap="wrap", sizing_mode="stretch_width", margin=0,
            ),
            pn.FlexBox(
                field("Temperature", words.HELP["temperature"], self.temperature, basis="220px"),
                field("Top-k", words.HELP["top_k"], self.top_k, basis="200px"),
                field("Applied to", words.HELP["transform_at"], self.transform_at, basis="260px"),
                gap="10px 22px", flex_wrap="wrap", sizing_mode="stretch_width", margin=(6, 0, 0, 0),
            ),
            self.rule_text,
            sizing_mode="stretch_width", stylesheets=[theme.CARD], margin=(6, 0),
        )

    @staticmethod
    def _rule_html(variant):
        v = VARIANTS[variant]
        return (f'<div class="rule-box"><div class="title">{theme.esc(v.title)}'
                f'{"" if v.keeps_target else " · a shortcut"}</div>'
                f'<p class="small">{theme.esc(v.summary)}</p></div>')

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
        self.again = pn.widgets.Button(label="Draw a new sample", stylesheets=[theme.BUTTON], margin=(4, 5),
                                       description="Run the same settings on the next seeds, to see how much "
                                                   "a sample varies.")
        self.again.on_click(lambda event: m.new_sample())
        self.keys = html(pn.bind(self._keys_html, m.param.comparison, m.param.done, self.param.show_all),
                         css=css())
        self.chart = DistributionChart()
        self.show_all_toggle = pn.widgets.Toggle.from_param(
            self.param.show_all, name="Show every start", color="primary", variant="outline",
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
        title = "How the first token comes out" if k == 1 else f"How the first {k} tokens come out"
        self.show_all_toggle.label = f"Show all {len(m.prefixes())} starts (a tall chart)"
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
        t, r = m.chi_target, m.chi_rule
        tiles = [
            ("good" if comparison.distance == 0 else "bad", display.exact_or_dec(comparison.distance, 4),
             "total-variation distance from the target, exact"),
            ("" if t is None else ("good" if t.p_value >= words.LEVEL else "bad"),
             words.p_value_text(None if t is None else t.p_value), "chi-square p-value of the sample vs the target"),
            ("", words.p_value_text(None if r is None else r.p_value), "p-value vs the rule's own exact distribution"),
            ("", f"{m.done:,}", f"runs sampled ({words.seeds_text(m.base_seed, m.runs)})"),
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
        rule = theme.esc(comparison.variant)
        target = "target" if comparison.transform.identity else f"target with {words.transformation(comparison.transform)}"
        return ('<div class="keys" aria-label="chart key">'
                f'<span class="key"><span class="swatch target"></span> {theme.esc(target)}</span>'
                f'<span class="key"><span class="swatch result"></span> {rule} rule</span>'
                f'<span class="key"><span class="swatch sampled"></span> {rule} rule, sampled ({done:,} runs)</span>'
                "</div>"
                f'<p class="muted small">Each row is one way the text can start ({theme.esc(comparison.draft)} draft, '
                f'width {comparison.width}); the solid bars are exact probabilities, the hatched bar the share of '
                f'seeded runs.' + (f" Showing the {TOP} most likely of {n}." if n > TOP and not show_all else "")
                + "</p>")

    def _numbers_html(self, comparison, *sample):
        m = self.model
        body = "".join(
            f'<tr><td class="mono">{theme.esc(words.label(s))}</td><td>{display.dec(t, 4)}</td>'
            f'<td>{display.dec(r, 4)}</td><td>{"—" if share is None else display.dec(share, 4)}</td>'
            f'<td>{n:,}</td></tr>'
            for s, t, r, share, n in m.rows())
        return ('<details class="numbers"><summary>The numbers behind the chart</summary>'
                '<table class="nums"><thead><tr><th scope="col">first tokens</th><th scope="col">target</th>'
                f'<th scope="col">{theme.esc(comparison.variant)}</th><th scope="col">sampled share</th>'
                f'<th scope="col">runs</th></tr></thead><tbody>{body}</tbody></table></details>')

    def __panel__(self):
        return self._layout


class TraceComparison(pn.viewable.Viewer):
    """The trace of the first tab beside ordinary decoding with the same seed, and what each draw did."""

    model = param.ClassSelector(class_=ExactModel)

    def __init__(self, **params):
        super().__init__(**params)
        m = self.model
        self.html = html(pn.bind(self._html, m.param.trace), css=css())
        self.seed = pn.widgets.IntInput.from_param(m.param.seed, name="Seed", width=140, margin=(4, 5),
                                                   visible=m.session_model is None,
                                                   description="The seed of the trace compared with ordinary "
                                                               "decoding.")
        self._layout = pn.Column(self.html, self.seed, sizing_mode="stretch_width", stylesheets=[theme.CARD],
                                 margin=(6, 0))

    def _html(self, session):
        m = self.model
        cfg = session.config
        spec, ordinary = session.output, m.ordinary()
        same = set(words.matches(spec, ordinary))

        def chips(seq):
            return "".join(theme.chip(t, "sm" + (" same" if i in same else ""),
                                      title="the same in both" if i in same else "")
                           for i, t in enumerate(seq))

        uses = words.draw_uses(session)
        rows = "".join(
            f'<tr><td>{i + 1}</td><td class="mono">{display.dec(u, 4)}</td>'
            f'<td>token {i + 1}: <b>{theme.esc(ordinary[i])}</b></td><td>{theme.esc(what)}</td></tr>'
            for i, (u, what, _) in enumerate(uses[:len(ordinary)]))
        source = ("the trace on the first tab, run to the end (change it there)" if m.session_model is not None
                  else "the trace of the seed below, run to the end")
        return (
            '<div class="section-title"><h2>Same distribution, different trace</h2>'
            f'<span class="muted">seed {cfg.seed:,}, {theme.esc(cfg.draft)} draft, width {cfg.width}'
            + (f", lookahead threshold {display.dec(cfg.lookahead)}" if cfg.lookahead is not None else "")
            + '</span></div>'
            f'<p>Exact speculative sampling promises the target\'s <em>distribution</em>, not the same text as '
            f'an ordinary decoder with the same seed. Below: {theme.esc(source)}, beside ordinary decoding with '
            f'the same seed, which draws each token straight from the target.</p>'
            '<div class="outputs">'
            '<div class="who">Speculative<span class="muted">exact rule</span></div>'
            f'<div class="tokens">{chips(spec)}</div>'
            '<div class="who">Ordinary<span class="muted">target only</span></div>'
            f'<div class="tokens">{chips(ordinary)}</div></div>'
            f'<p>{theme.esc(words.agreement(spec, ordinary))}</p>'
            f'<p>{theme.esc(words.draws_sentence(len(uses), spec, ordinary))}</p>'
            '<table class="draws"><caption class="muted small">The first draws of the seed, and what each '
            'decoder does with them</caption><thead><tr><th scope="col">draw</th><th scope="col">u</th>'
            '<th scope="col">ordinary</th><th scope="col">speculative</th></tr></thead>'
            f'<tbody>{rows}</tbody></table>'
        )

    def __panel__(self):
        return self._layout


# (label, p, q, what it shows): the seed's example first.
PRESETS = (
    ("Seed example", "0.6, 0.3, 0.1", "0.2, 0.5, 0.3",
     "The example of the article: only A is under-proposed, so every rejection is corrected to A."),
    ("Biased draft at the start", "0.5, 0.3, 0.2", "0.8, 0.15, 0.05",
     "The widget's own numbers at the start of the text: the draft over-proposes A, so a rejected A "
     "is replaced by B or C, never by A."),
    ("p = q", "0.5, 0.3, 0.2", "0.5, 0.3, 0.2",
     "A perfect draft: nothing is ever rejected, and there is no residual to normalise."),
    ("No overlap", "1, 0, 0", "0, 1, 0",
     "Disjoint supports: every proposal is rejected and the residual is all of p."),
)


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

    ROWS = (
        ("target p", "what the output must follow", "p", ""),
        ("draft q", "what proposals are drawn from", "q", ""),
        ("kept: min(p, q)", "q(x) × min(1, p(x)/q(x))", "accepted", "kept"),
        ("max(p − q, 0)", "the mass q under-supplies", "positive_part", ""),
        ("residual", "max(p − q, 0), normalised: a rejection is redrawn from this", "residual", ""),
        ("corrections", "rejection probability × residual", "corrected", "corr"),
        ("final", "kept + corrections", "final", "final"),
    )

    def __init__(self, **params):
        if params.get("model") is None:
            params["model"] = CalculatorModel()
        super().__init__(**params)
        m = self.model
        self.p_input = pn.widgets.TextInput.from_param(
            m.param.p_text, name="Target p for A, B, C", placeholder="e.g. 0.6, 0.3, 0.1",
            description="Three probabilities, decimals or fractions like 1/3, separated by commas. They must "
                        "add up to exactly 1.",
            sizing_mode="stretch_width", margin=(4, 0))
        self.q_input = pn.widgets.TextInput.from_param(
            m.param.q_text, name="Draft q for A, B, C", placeholder="e.g. 0.2, 0.5, 0.3",
            description="The draft's three probabilities, in the same form.",
            sizing_mode="stretch_width", margin=(4, 0))
        self.p_message = html(pn.bind(self._message, m.param.p_error), css=css(), margin=(0, 0, 4, 0))
        self.q_message = html(pn.bind(self._message, m.param.q_error), css=css(), margin=(0, 0, 4, 0))
        self.presets = []
        for label, p, q, what in PRESETS:
            button = pn.widgets.Button(label=label, description=what, stylesheets=[theme.BUTTON],
                                       margin=(2, 6, 2, 0))
            button.on_click(lambda event, p=p, q=q: m.load(p, q))
            self.presets.append(button)
        d = m.param.decomposition
        self.summary = html(pn.bind(self._summary, d), css=css(), margin=(4, 0))
        self.table = html(pn.bind(self._table, d), css=css(), margin=(4, 0))
        self.lines = html(pn.bind(self._lines, d), css=css(), margin=(4, 0))
        intro = html(
            '<div class="section-title"><h2>One position, by hand</h2>'
            '<span class="muted">why kept proposals plus corrections give exactly p</span></div>'
            '<p>A proposal x is drawn from q and kept with probability min(1, p(x)/q(x)), so token x is '
            'kept with probability q(x) × min(1, p(x)/q(x)) = min(p(x), q(x)). What is missing, '
            'max(p − q, 0), is exactly what the rejections must supply: that is the residual. Type any p '
            'and q and check it yourself.</p>', css=css(), margin=(0, 0, 4, 0))
        fields = pn.FlexBox(
            pn.Column(self.p_input, self.p_message, margin=0, styles={"flex": "1 1 240px", "min-width": "0"}),
            pn.Column(self.q_input, self.q_message, margin=0, styles={"flex": "1 1 240px", "min-width": "0"}),
            gap="0 20px", flex_wrap="wrap", sizing_mode="stretch_width", margin=0,
        )
        self._layout = pn.Column(
            intro, pn.FlexBox(*self.presets, flex_wrap="wrap", sizing_mode="stretch_width", margin=(0, 0, 4, 0)),
            fields, self.summary, self.table, self.lines,
            sizing_mode="stretch_width", stylesheets=[theme.CARD], margin=(6, 0),
        )

    @staticmethod
    def _message(error):
        if not error:
            return '<div class="field-ok" aria-live="polite">✓ a distribution over A, B, C</div>'
        return f'<div class="field-error" role="alert">⚠ {theme.esc(words.field_message(error))}</div>'

    @staticmethod
    def _summary(d):
        if d is None:
            return '<p class="muted">Fix the field marked above to see the decomposition.</p>'
        check = ('<span class="verdict accepted">final = p, exactly</span>' if d.final == d.p
                 else '<span class="verdict rejected">final ≠ p</span>')
        return (f'<p>Rejection probability: <b class="mono">{_cell(d.rejection)}</b> '
                f'<span class="muted">(1 − the kept mass)</span>. '
                f'{theme.esc(words.residual_sentence(d, TOKENS))}</p>'
                f'<p>{check} Kept mass plus corrections gives back the target for every token, which is why '
                f'the correction cannot be skipped or replaced by a fresh draw from p.</p>')

    @classmethod
    def _table(cls, d):
        if d is None:
            return ""
        head = "".join(f'<th scope="col">{theme.chip(t, "sm")}</th>' for t in TOKENS)
        body = "".join(
            f'<tr class="{kind}"><th scope="row">{theme.esc(label)}<span class="desc">{theme.esc(desc)}</span></th>'
            + "".join(f'<td class="mono">{_cell(v)}</td>' for v in getattr(d, field_name)) + "</tr>"
            for label, desc, field_name, kind in cls.ROWS)
        return (f'<table class="calc"><thead><tr><th scope="col">per token</th>{head}</tr></thead>'
                f'<tbody>{body}</tbody></table>')

    @staticmethod
    def _lines(d):
        if d is None:
            return ""
        return ('<p class="muted small" style="margin-top:6px">What the seed article\'s script prints for these '
                'numbers:</p><pre class="seed">' + theme.esc("\n".join(display.seed_lines(d))) + "</pre>")

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
        self._layout = pn.Column(html(INTRO, css=css(), margin=(8, 0, 4, 0)), built_when_shown(self._body),
                                 sizing_mode="stretch_width", margin=(4, 0))

    def activate(self):
        """Build the body and compute its numbers (once)."""
        if self.body is None:
            self.model.activate()
            self.controls = Controls(model=self.model)
            self.result = Result(model=self.model)
            self.trace = TraceComparison(model=self.model)
            self.calculator = Calculator()
            self.body = pn.Column(self.controls, self.result, self.trace, self.calculator,
                                  sizing_mode="stretch_width", margin=0)
        return self.body

    def _body(self):
        return self.activate()

    def __panel__(self):
        return self._layout
