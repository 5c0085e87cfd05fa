"""The "Why it is exact" tab: exact distributions, sampled runs, and the wrong rules.

The seeds' central claim (``000_*.txt``, ``001_*.txt``, ``002_*.txt``): the
acceptance test plus the residual keep the target's distribution exactly,
the tempting shortcuts do not, and "same distribution" does not mean "same
text for the same seed". This view shows all three:

* for a rule (``core.variants.VARIANTS``), a draft, a width and k, the exact
  distribution of the first k tokens beside the target's (``core.exact``),
  their total-variation distance, and N seeded runs (``core.sampler``) with a
  chi-square test (``core.stats``);
* the trace of one seed beside ordinary decoding with the same seed, and
  which draw each of them used for what;
* the one-position calculator of ``001_*.txt`` (``app.calculator``).

Sampling runs in chunks from a coroutine that yields to the event loop
between chunks, so the page stays usable and shows progress under
``panel serve`` and in the Pyodide worker alike (no threads: Pyodide has
none). Without an event loop (plain pytest) the coroutine simply runs to the
end before the call returns.
"""

import asyncio
import time
from collections import Counter
from fractions import Fraction
from functools import lru_cache

import panel as pn
import param
from bokeh.models import ColumnDataSource, FactorRange, HoverTool, Range1d
from bokeh.plotting import figure
from bokeh.transform import dodge

import core
from core import display, exact, sampler, stats
from core.variants import VARIANTS

from . import theme
from .calculator import Calculator
from .parts import DRAFT_OPTIONS, field, style_figure
from .urlstate import SEED_MAX as MAX_SEED  # seeds a browser number field holds exactly

TOKENS = tuple(core.TOKENS)
CHUNK = 2_500  # runs per chunk: ~50 ms on CPython, a few times that in Pyodide
RUN_CHOICES = (1_000, 5_000, 20_000, 50_000, 100_000)
MAX_K = 4
TOP = 12  # prefixes shown before "show all"
LEVEL = 0.01  # a p-value below this counts as a detected difference
WORDS = ("no", "one", "two", "three", "four")

# The three series: the target as the light reference, the rule's exact
# probability solid, the sample hatched in the rule's colour (it should match
# the rule, not necessarily the target). Grey against a dark reddish purple
# differs in lightness, so no hue needs to be told apart.
SERIES = {
    "target": {"fill": "#c9d1db", "line": "#4b5563", "hatch": None},
    "result": {"fill": "#aa3377", "line": "#7a2255", "hatch": None},
    "sampled": {"fill": "#f7e3ee", "line": "#7a2255", "hatch": "right_diagonal_line"},
}


def label(prefix):
    return " ".join(prefix)


def p_value_text(p):
    """A chi-square p-value for people: tiny values are 'below 0.0001'."""
    if p is None:
        return "—"
    if p < 1e-4:
        return "below 0.0001"
    return f"{p:.4f}" if p < 0.01 else f"{p:.2f}"


@lru_cache(maxsize=512)
def chunk(draft, width, k, n, base_seed, variant):
    """``sampler.sample_prefixes`` for one chunk, remembered: the same seeds always give the same counts."""
    return sampler.sample_prefixes(draft, width, k, n, base_seed=base_seed, variant=variant)


def connected():
    """Whether the page is still open (always, outside ``panel serve``): a closed page needs no more chunks."""
    context = getattr(pn.state.curdoc, "session_context", None)
    session = getattr(context, "session", None)
    return session is None or session.connection_count > 0


USES = {
    "propose": "block {block}: proposes {token}",
    "test": "tests proposal {index} ({token}): {verdict}",
    "correction": "correction from the residual: {token}",
    "bonus": "bonus token from p: {token}",
}


def draw_uses(session):
    """Every draw a finished trace consumed, in order (``core.Trace.draws``), as ``[(u, what, token), ...]``."""
    return [(d.u, USES[d.use].format(block=d.block + 1, token=d.token,
                                     index=None if d.index is None else d.index + 1,
                                     verdict="kept" if d.status == "accepted" else "rejected"), d.token)
            for d in session.trace().draws()]


class ExactModel(param.Parameterized):
    """State of the "Why it is exact" view; every number comes from ``core``."""

    variant = param.Selector(default="exact", objects=list(VARIANTS), doc="""
        The verification rule: the exact one (Algorithm 1) or one of the shortcuts it is compared with.""")

    draft = param.Selector(default="biased", objects=list(core.DRAFTS), doc="""
        Which draft proposes tokens. The biased draft over-proposes A, so rejections happen.""")

    width = param.Integer(default=3, bounds=(1, core.MAX_WIDTH), doc="""
        Tokens the draft proposes per block.""")

    k = param.Integer(default=2, bounds=(1, MAX_K), doc="""
        How many output tokens are compared: the distribution of the first k tokens.""")

    runs = param.Selector(default=20_000, objects=list(RUN_CHOICES), doc="""
        How many seeded runs the sample has.""")

    base_seed = param.Integer(default=0, bounds=(0, None), doc="""
        Run i uses seed base_seed + i, so any run can be replayed on the first tab.""")

    seed = param.Integer(default=0, bounds=(0, MAX_SEED), doc="""
        The seed compared with ordinary decoding when no main view is linked.""")

    session_model = param.Parameter(default=None, doc="""
        The main view's model, when this tab is part of the page: its trace is the one compared
        with ordinary decoding.""")

    comparison = param.ClassSelector(class_=exact.Comparison, doc="""
        core.exact.compare for the current rule, draft, width and k.""")

    counts = param.ClassSelector(class_=Counter, default=Counter(), doc="""
        Counts of the first k tokens over the runs sampled so far.""")

    done = param.Integer(default=0, doc="Runs sampled so far.")

    sampling = param.Boolean(default=False, doc="Whether a sample is being drawn right now.")

    seconds = param.Number(default=None, allow_None=True, doc="How long the finished sample took.")

    chi_target = param.Parameter(default=None, doc="""
        core.stats.chi_square of the sample against the target, or None before any run.""")

    chi_rule = param.Parameter(default=None, doc="""
        The same test against the rule's own exact distribution.""")

    trace = param.ClassSelector(class_=core.Session, doc="""
        The finished trace compared with ordinary decoding (the main view's scenario, run to the end).""")

    def __init__(self, **params):
        super().__init__(**params)
        self._token = 0
        self._started = None
        self._compare()
        self._follow_trace()
        if self.session_model is not None:
            self.session_model.param.watch(self._follow_trace, ["session"])
        # The first sample starts once the page is connected (under `panel
        # serve`; elsewhere onload runs at once) and is shown when complete.
        self.param.update(sampling=True)
        pn.state.onload(lambda: self.start_sampling(stream=False))

    # ---- exact distributions ----------------------------------------------------

    def _compare(self):
        self.comparison = exact.compare(self.draft, self.width, self.k, self.variant)

    @param.depends("variant", "draft", "width", "k", watch=True)
    def _on_settings(self):
        self._compare()
        self.start_sampling()

    @param.depends("runs", "base_seed", watch=True)
    def _on_runs(self):
        self.start_sampling()

    @property
    def rule(self):
        return VARIANTS[self.variant]

    def prefixes(self):
        """Every k-token prefix either distribution gives weight, most likely first (target, then rule)."""
        c = self.comparison
        keys = set(c.target) | set(c.result)
        return sorted(keys, key=lambda s: (-max(c.target.get(s, 0), c.result.get(s, 0)), s))

    def rows(self, limit=None):
        """``(prefix, target, rule, sampled share or None, count)`` for the chart and the table."""
        c = self.comparison
        shares = sampler.frequencies(self.counts) if self.done else {}
        out = []
        for s in self.prefixes()[:limit]:
            share = shares.get(s, Fraction(0)) if self.done else None
            out.append((s, c.target.get(s, Fraction(0)), c.result.get(s, Fraction(0)), share, self.counts.get(s, 0)))
        return out

    # ---- sampling, in chunks ----------------------------------------------------------

    def start_sampling(self, stream=True):
        """Start a fresh sample for the current settings (an unfinished one is abandoned).

        ``stream``: show the counts chunk by chunk, with progress; otherwise
        only when all runs are in (the first sample of a page).
        """
        self._token += 1
        self._started = time.perf_counter()
        self.param.update(counts=Counter(), done=0, sampling=True, seconds=None, chi_target=None, chi_rule=None)
        token, settings = self._token, (self.draft, self.width, self.k, self.runs, self.base_seed, self.variant)

        async def run():
            await self._sample(token, settings, stream)

        pn.state.execute(run)

    def new_sample(self):
        """Draw the next N runs: new seeds, same settings."""
        self.base_seed = self.base_seed + self.runs

    async def _sample(self, token, settings, stream):
        """Draw the sample chunk by chunk, giving the event loop a turn after each."""
        draft, width, k, runs, base_seed, variant = settings
        counts, done = Counter(), 0
        while done < runs:
            n = min(CHUNK, runs - done)
            counts = counts + chunk(draft, width, k, n, base_seed + done, variant)
            done += n
            # The loop handles clicks (which may start another sample) and notices a closed page.
            await asyncio.sleep(0.005)
            if token != self._token or not connected():
                return
            if stream or done == runs:
                self._apply(token, counts, done)

    def _apply(self, token, counts, done):
        if token != self._token:
            return
        finished = done >= self.runs
        self.param.update(counts=counts, done=done, sampling=not finished, **self._tests(counts),
                          seconds=time.perf_counter() - self._started if finished else None)

    def _tests(self, counts):
        c = self.comparison
        return {"chi_target": stats.chi_square(counts, c.target), "chi_rule": stats.chi_square(counts, c.result)}

    # ---- same distribution, different trace ---------------------------------------------

    def _follow_trace(self, *events):
        if self.session_model is not None:
            config = self.session_model.session.config
        else:
            config = core.Config(self.draft, self.width, self.seed)
        # Draft, Verify and Commit on the first tab keep the scenario: nothing to redo.
        if self.trace is None or self.trace.config != config:
            self.trace = core.Session.start(config).run_to_end()

    @param.depends("seed", watch=True)
    def _on_seed(self):
        if self.session_model is None:
            self._follow_trace()

    @param.depends("draft", "width", watch=True)
    def _on_scenario(self):
        if self.session_model is None:
            self._follow_trace()

    def ordinary(self):
        """What ordinary decoding writes with the trace's seed."""
        config = self.trace.config
        return sampler.ordinary_output(config.seed, config.max_tokens)

    def shared_start(self):
        """How many leading tokens the speculative and ordinary outputs share."""
        n = 0
        for a, b in zip(self.trace.output, self.ordinary()):
            if a != b:
                break
            n += 1
        return n

    # ---- words ------------------------------------------------------------------------

    def reading(self):
        """Sentences that read the exact result (plain text)."""
        c, v = self.comparison, self.rule
        what = f"{3 ** self.k} possible " + ("first tokens" if self.k == 1 else f"{WORDS[self.k]}-token starts")
        out = []
        if self.variant == "greedy":
            seq = label(exact.greedy_target(self.k))
            out.append(f"The greedy rule always writes {seq}, and so does greedy decoding of the target"
                       + (": that equality is its promise, and it holds." if c.greedy_equal else
                          ", yet here the two differ.")
                       + f" But it is no sample from the target: it puts all its probability on one of the {what}, "
                         f"so its distance from the target's distribution is {display.exact_or_dec(c.distance, 3)}.")
        elif c.distance == 0:
            if v.keeps_target:
                out.append(f"The {v.name} rule keeps the target's distribution: each of the {what} comes out "
                           f"exactly as often as under the target (distance 0).")
                if self.variant == "match-keep":
                    out.append("It is exact, but it keeps a proposal only when an independent draw from p lands "
                               "on the same token, so most of the draft's work is thrown away.")
            else:
                out.append(f"With the {self.draft} draft the {v.name} rule happens to give the target's "
                           f"distribution (distance 0): its mistake only shows after a rejection, and this draft "
                           f"is never rejected. Switch to the biased draft.")
        else:
            worst, difference = c.largest_gap()
            more = difference > 0
            start = "token" if len(worst) == 1 else "tokens"
            out.append(f"The {v.name} rule starts the text with {label(worst)} with probability "
                       f"{display.dec(c.result.get(worst, 0))}; the target does so with probability "
                       f"{display.dec(c.target.get(worst, 0))}. That {start} come{'s' if len(worst) == 1 else ''} out "
                       f"{'too often' if more else 'too rarely'}"
                       + (f", and the two part ways already at token {c.first_departure}." if c.first_departure
                          else "."))
            out.append(f"Total-variation distance from the target: {display.exact_or_dec(c.distance, 4)}, the most "
                       f"by which the two disagree on the chance of anything you could ask about the first "
                       f"{'token' if self.k == 1 else f'{self.k} tokens'}.")
        return out

    def sample_reading(self):
        """What the sample says, or "" before it has any runs."""
        if self.chi_target is None:
            return ""
        runs = f"{self.done:,} runs"
        so_far = " so far" if self.sampling else ""
        t, r = self.chi_target, self.chi_rule
        if t.p_value >= LEVEL:
            text = (f"The {runs}{so_far} agree with the target (chi-square p-value {p_value_text(t.p_value)}: "
                    f"no detectable difference).")
            if self.comparison.distance:
                text += " The bias is real but small; more runs would expose it."
        else:
            text = (f"The {runs}{so_far} clearly differ from the target (chi-square p-value "
                    f"{p_value_text(t.p_value)}, far below {LEVEL}).")
            if not self.comparison.distance:
                text += " The exact distributions are equal, so this is one of the rare unlucky samples."
        if r.p_value >= LEVEL:
            text += (f" They match the rule's own exact distribution (p-value {p_value_text(r.p_value)}): "
                     f"the enumeration and the seeded runs tell the same story.")
        return text

    def seeds_text(self):
        last = self.base_seed + self.runs - 1
        return f"seeds {self.base_seed:,} to {last:,}"


# ---- views -------------------------------------------------------------------------------

EXACT_CSS = f"""
.tiles {{ display: grid; grid-template-columns: repeat(auto-fit, minmax(128px, 1fr)); gap: 10px; margin: 6px 0; }}
.tile {{ background: #f7f9fb; border: 1px solid {theme.LINE}; border-radius: 10px; padding: 8px 12px; }}
.tile .n {{ font-size: 1.25rem; font-weight: 700; font-variant-numeric: tabular-nums; overflow-wrap: anywhere; }}
.tile .what {{ font-size: 0.8rem; color: {theme.MUTED}; line-height: 1.3; }}
.tile.good .n {{ color: {theme.ACCEPT}; }}
.tile.bad .n {{ color: {theme.REJECT}; }}
.reading {{ font-size: 1.02rem; line-height: 1.5; }}
.reading p:first-child {{ font-weight: 600; }}
.rule-box {{ background: #f7f9fb; border-left: 4px solid #aa3377; padding: 8px 12px; border-radius: 0 8px 8px 0; }}
.rule-box .title {{ font-weight: 650; }}
.keys {{ display: flex; flex-wrap: wrap; gap: 4px 18px; font-size: 0.86rem; color: {theme.INK}; margin: 2px 0 4px; }}
.keys .key {{ display: inline-flex; align-items: center; gap: 6px; }}
.swatch {{ display: inline-block; width: 22px; height: 12px; border-radius: 3px; box-sizing: border-box; }}
.status {{ font-size: 0.86rem; color: {theme.MUTED}; }}
details.numbers summary {{ cursor: pointer; color: {theme.ACCENT}; font-weight: 600; font-size: 0.92rem; }}
table.nums {{ border-collapse: collapse; width: 100%; max-width: 640px; font-variant-numeric: tabular-nums;
  font-size: 0.88rem; margin-top: 6px; }}
table.nums th, table.nums td {{ padding: 4px 6px; border-bottom: 1px solid {theme.LINE}; text-align: right; }}
table.nums th:first-child, table.nums td:first-child {{ text-align: left; white-space: nowrap; }}
.outputs {{ display: grid; grid-template-columns: max-content 1fr; gap: 8px 12px; align-items: center; margin: 8px 0; }}
.outputs .who {{ font-weight: 600; font-size: 0.92rem; }}
.outputs .who .muted {{ display: block; font-weight: 400; font-size: 0.8rem; }}
.outputs .tokens {{ display: flex; flex-wrap: wrap; gap: 4px; }}
.chip.same {{ box-shadow: 0 0 0 2px #ffffff, 0 0 0 4px {theme.INK}; }}
table.draws {{ border-collapse: collapse; width: 100%; max-width: 720px; font-size: 0.86rem; margin-top: 4px; }}
table.draws th, table.draws td {{ padding: 4px 6px; border-bottom: 1px solid {theme.LINE}; text-align: left;
  vertical-align: top; }}
table.draws td.mono {{ white-space: nowrap; }}
table.draws caption {{ text-align: left; caption-side: top; padding: 2px 0 4px; }}
@media (max-width: 480px) {{ .outputs {{ grid-template-columns: 1fr; }} }}
"""

CSS = [theme.CSS, EXACT_CSS]

# The visible heading above a field names it; the widget's own label stays
# for screen readers (and for tests that find fields by label).
HIDDEN_LABEL = """
label { position: absolute !important; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
"""


def _html(text="", **kw):
    kw.setdefault("margin", 0)
    kw.setdefault("sizing_mode", "stretch_width")
    return pn.pane.HTML(text, stylesheets=CSS, **kw)


def _swatch(series):
    s = SERIES[series]
    pattern = ("background-image: repeating-linear-gradient(135deg, transparent 0 3px, "
               f"{s['line']} 3px 4px);" if s["hatch"] else "")
    return (f'<span class="swatch" style="background-color:{s["fill"]};border:1.5px solid {s["line"]};'
            f'{pattern}"></span>')


class DistributionChart:
    """Horizontal grouped bars: per prefix, the target, the rule (exact) and the sample."""

    ROW = 34  # pixels per prefix

    def __init__(self):
        self.source = ColumnDataSource(self._columns([]))
        self.fig = figure(y_range=FactorRange(factors=["A"]), x_range=Range1d(0, 1), height=200,
                          sizing_mode="stretch_width", min_width=260, tools="")
        style_figure(self.fig)
        self.fig.ygrid.grid_line_color = None
        self.fig.xaxis.axis_label = "probability"
        self.fig.yaxis.axis_label = "first tokens"
        self.fig.xaxis.formatter.use_scientific = False
        renderers = []
        for name, offset in (("target", 0.27), ("result", 0.0), ("sampled", -0.27)):
            s = SERIES[name]
            renderers.append(self.fig.hbar(
                y=dodge("y", offset, range=self.fig.y_range), right=name, height=0.25, source=self.source,
                fill_color=s["fill"], line_color=s["line"], line_width=1.2,
                hatch_pattern=s["hatch"], hatch_color=s["line"], hatch_alpha=0.55 if s["hatch"] else 0,
                hatch_scale=6,
            ))
        self.fig.add_tools(HoverTool(renderers=renderers, tooltips=[
            ("first tokens", "@y"), ("target", "@target_text"), ("rule, exact", "@result_text"),
            ("sampled", "@sampled_text"),
        ]))

    @staticmethod
    def _columns(rows):
        data = {k: [] for k in ("y", "target", "result", "sampled", "target_text", "result_text", "sampled_text")}
        for prefix, target, result, share, count in rows:
            data["y"].append(label(prefix))
            data["target"].append(float(target))
            data["result"].append(float(result))
            data["sampled"].append(0.0 if share is None else float(share))
            data["target_text"].append(display.exact_or_dec(target, 4))
            data["result_text"].append(display.exact_or_dec(result, 4))
            data["sampled_text"].append("—" if share is None else f"{display.dec(share, 4)} ({count:,} runs)")
        return data

    def update(self, rows, title, reshape):
        """Refill the bars; ``reshape`` also resets the rows, the height and the scale."""
        # Plain Bokeh models changed in place. Panel runs clicks' callbacks and
        # our sampling coroutine without Bokeh's document lock, so the changes
        # are sent the way Panel sends its own (a no-op outside a server).
        with pn.io.unlocked():
            self._update(rows, title, reshape)

    def _update(self, rows, title, reshape):
        data = self._columns(rows)
        if reshape:
            self.fig.y_range.factors = list(reversed(data["y"]))
            self.fig.height = 90 + self.ROW * max(len(rows), 3)
            self.fig.title.text = title
        top = max(data["target"] + data["result"] + data["sampled"] + [0.05])
        if reshape or top > self.fig.x_range.end or top < 0.6 * self.fig.x_range.end:
            self.fig.x_range.end = min(1.0, top * 1.15) if top < 0.95 else 1.02
        self.source.data = data


class ExactTab(pn.viewable.Viewer):
    """The "Why it is exact" view."""

    model = param.ClassSelector(class_=ExactModel)

    def __init__(self, session_model=None, **params):
        if params.get("model") is None:
            params["model"] = ExactModel(session_model=session_model)
        super().__init__(**params)
        m = self.model
        m.param.watch(self._sync_exact, ["comparison"])
        m.param.watch(self._sync_sample, ["counts", "done", "sampling", "chi_target"])
        m.param.watch(self._sync_trace, ["trace"])
        self._build_controls()
        self._build_result()
        self._build_trace()
        self.calculator = Calculator()
        intro = _html(
            '<div class="section-title"><h2>Why it is exact</h2></div>'
            '<p>The claim of speculative sampling: whatever the draft proposes, the tokens that come out follow '
            'the target\'s probabilities <b>exactly</b>. Here the engine follows every branch of the algorithm '
            'with exact fractions, and also runs it many times with seeds. Try the exact rule, then the '
            'tempting shortcuts, and watch where they go wrong.</p>',
            margin=(8, 0, 4, 0),
        )
        self._layout = pn.Column(
            intro, self.controls, self.result, self.trace_card, self.calculator,
            sizing_mode="stretch_width", margin=(4, 0),
        )
        self._sync_exact()
        self._sync_trace()

    # ---- building ---------------------------------------------------------------------

    def _build_controls(self):
        m = self.model
        self.variant = pn.widgets.Select(label="Verification rule", options=list(VARIANTS), value=m.variant,
                                         sizing_mode="stretch_width", margin=(4, 5), stylesheets=[HIDDEN_LABEL])
        self.draft = pn.widgets.RadioButtonGroup(options=DRAFT_OPTIONS,
                                                 value=m.draft, color="primary", variant="outline",
                                                 stylesheets=[theme.BUTTON], margin=(4, 5))
        self.width = pn.widgets.IntSlider(label="", start=1, end=core.MAX_WIDTH, value=m.width, bar_color=theme.ACCENT,
                                          sizing_mode="stretch_width", min_width=150, margin=(4, 10))
        self.k = pn.widgets.RadioButtonGroup(options={str(i): i for i in range(1, MAX_K + 1)}, value=m.k,
                                             color="primary", variant="outline",
                                             stylesheets=[theme.BUTTON], margin=(4, 5))
        self.runs = pn.widgets.Select(label="Runs", options={f"{n:,}": n for n in RUN_CHOICES}, value=m.runs,
                                      sizing_mode="stretch_width", min_width=100, max_width=170, margin=(4, 5),
                                      stylesheets=[HIDDEN_LABEL])
        for name in ("variant", "draft", "width", "k", "runs"):
            getattr(self, name).param.watch(lambda e, name=name: setattr(m, name, e.new), "value")
        m.param.watch(self._sync_controls, ["variant", "draft", "width", "k", "runs"])
        self.rule_text = _html(margin=(6, 5, 0, 5))
        self.controls = pn.Column(
            pn.FlexBox(
                field("Verification rule", "Which test judges the proposals.", self.variant, basis="220px"),
                field("Draft model", "Biased over-proposes A.", self.draft, basis="180px"),
                field("Width", "Tokens drafted per block.", self.width, basis="180px"),
                field("First k tokens", "How much output to compare.", self.k, basis="170px"),
                field("Runs", "Seeded runs to sample.", self.runs, basis="130px"),
                gap="10px 22px", flex_wrap="wrap", sizing_mode="stretch_width", margin=0,
            ),
            self.rule_text,
            sizing_mode="stretch_width", stylesheets=[theme.CARD], margin=(6, 0),
        )

    def _build_result(self):
        m = self.model
        self.reading = pn.pane.HTML("", stylesheets=CSS, sizing_mode="stretch_width", margin=0)
        self.reading_box = pn.Column(self.reading, sizing_mode="stretch_width",
                                     stylesheets=[theme.CAPTION_CARD], margin=(0, 0, 8, 0))
        self.tiles = _html()
        self.progress = pn.indicators.Progress(value=0, max=m.runs, bar_color="primary",
                                               sizing_mode="stretch_width", height=12, margin=(2, 5),
                                               styles={"max-width": "720px"})
        self.status = _html(margin=(0, 5))
        self.again = pn.widgets.Button(label="Draw a new sample", stylesheets=[theme.BUTTON], margin=(4, 5),
                                       description="Run the same settings on the next seeds, to see how much "
                                                   "a sample varies.")
        self.again.on_click(lambda event: m.new_sample())
        self.keys = _html()
        self.chart = DistributionChart()
        self.chart_pane = pn.pane.Bokeh(self.chart.fig, sizing_mode="stretch_width", margin=(0, 0))
        self.show_all = pn.widgets.Toggle(label="Show every start", value=False, color="primary",
                                          variant="outline", stylesheets=[theme.BUTTON], margin=(4, 5),
                                          visible=False)
        self.show_all.param.watch(lambda e: self._sync_exact(), "value")
        self.numbers = _html(margin=(6, 5, 0, 5))
        self.result = pn.Column(
            self.reading_box, self.tiles,
            pn.FlexBox(pn.Column(self.status, self.progress, margin=0,
                                 styles={"flex": "1 1 260px", "min-width": "0"}),
                       self.again, flex_wrap="wrap", align_items="center", sizing_mode="stretch_width", margin=0),
            self.keys, self.chart_pane, self.show_all, self.numbers,
            sizing_mode="stretch_width", stylesheets=[theme.CARD], margin=(6, 0),
        )

    def _build_trace(self):
        self.trace_html = _html()
        self.seed = pn.widgets.IntInput(label="Seed", start=0, end=MAX_SEED, value=self.model.seed, width=140,
                                        margin=(4, 5),
                                        visible=self.model.session_model is None,
                                        description="The seed of the trace compared with ordinary decoding.")
        self.seed.param.watch(lambda e: setattr(self.model, "seed", e.new if e.new is not None else 0), "value")
        self.trace_card = pn.Column(self.trace_html, self.seed, sizing_mode="stretch_width",
                                    stylesheets=[theme.CARD], margin=(6, 0))

    # ---- syncing ------------------------------------------------------------------------

    def _sync_controls(self, *events):
        m = self.model
        for name in ("variant", "draft", "width", "k", "runs"):
            getattr(self, name).value = getattr(m, name)

    def _title(self):
        k = self.model.k
        return "How the first token comes out" if k == 1 else f"How the first {k} tokens come out"

    def _limit(self):
        n = len(self.model.prefixes())
        self.show_all.visible = n > TOP
        self.show_all.label = f"Show all {n} starts (a tall chart)"
        return None if self.show_all.value or n <= TOP else TOP

    def _sync_exact(self, *events):
        m = self.model
        v = m.rule
        self.rule_text.object = (f'<div class="rule-box"><div class="title">{theme.esc(v.title)}'
                                 f'{"" if v.keeps_target else " · a shortcut"}</div>'
                                 f'<p class="small">{theme.esc(v.summary)}</p></div>')
        self.chart.update(m.rows(self._limit()), self._title(), reshape=True)
        self._sync_sample()

    def _sync_sample(self, *events):
        m = self.model
        c = m.comparison
        limit = self._limit()
        self.chart.update(m.rows(limit), self._title(), reshape=False)
        words = m.reading()
        sample = m.sample_reading()
        self.reading.object = ('<div class="reading" role="status" aria-live="polite">'
                               + "".join(f"<p>{theme.esc(t)}</p>" for t in words)
                               + (f'<p>{theme.esc(sample)}</p>' if sample else "") + "</div>")
        keeps = c.distance == 0
        t, r = m.chi_target, m.chi_rule
        tiles = [
            ("good" if keeps else "bad", display.exact_or_dec(c.distance, 4),
             "total-variation distance from the target, exact"),
            ("" if t is None else ("good" if t.p_value >= LEVEL else "bad"),
             p_value_text(None if t is None else t.p_value), "chi-square p-value of the sample vs the target"),
            ("", p_value_text(None if r is None else r.p_value), "p-value vs the rule's own exact distribution"),
            ("", f"{m.done:,}", f"runs sampled ({m.seeds_text()})"),
        ]
        self.tiles.object = '<div class="tiles">' + "".join(
            f'<div class="tile {cls}"><div class="n">{theme.esc(n)}</div><div class="what">{theme.esc(w)}</div></div>'
            for cls, n, w in tiles) + "</div>"
        self.progress.max = m.runs
        self.progress.value = m.done
        if m.sampling:
            status = f"Sampling… {m.done:,} of {m.runs:,} runs"
        else:
            took = "" if m.seconds is None else f" in {m.seconds:.1f} s"
            status = f"Sampled {m.done:,} runs{took}. Run 1 uses seed {m.base_seed:,}, run 2 the next seed, and so on."
        self.status.object = f'<div class="status" role="status">{theme.esc(status)}</div>'
        self.keys.object = (
            '<div class="keys" aria-label="chart key">'
            f'<span class="key">{_swatch("target")} target</span>'
            f'<span class="key">{_swatch("result")} {theme.esc(m.variant)} rule</span>'
            f'<span class="key">{_swatch("sampled")} {theme.esc(m.variant)} rule, sampled ({m.done:,} runs)</span>'
            "</div>"
            f'<p class="muted small">Each row is one way the text can start ({theme.esc(m.draft)} draft, width '
            f'{m.width}); the solid bars are exact probabilities, the hatched bar the share of seeded runs.'
            + (f" Showing the {TOP} most likely of {len(m.prefixes())}." if limit else "") + "</p>")
        self.numbers.object = self._numbers_html(limit)

    def _numbers_html(self, limit):
        m = self.model
        rows = m.rows()
        body = "".join(
            f'<tr><td class="mono">{theme.esc(label(s))}</td><td>{display.dec(t, 4)}</td><td>{display.dec(r, 4)}</td>'
            f'<td>{"—" if share is None else display.dec(share, 4)}</td><td>{n:,}</td></tr>'
            for s, t, r, share, n in rows)
        return ('<details class="numbers"><summary>The numbers behind the chart</summary>'
                '<table class="nums"><thead><tr><th scope="col">first tokens</th><th scope="col">target</th>'
                f'<th scope="col">{theme.esc(m.variant)}</th><th scope="col">sampled share</th>'
                f'<th scope="col">runs</th></tr></thead><tbody>{body}</tbody></table></details>')

    def _sync_trace(self, *events):
        m = self.model
        session = m.trace
        cfg = session.config
        spec, ordinary = session.output, m.ordinary()
        shared = m.shared_start()

        def chips(seq):
            return "".join(theme.chip(t, "sm" + (" same" if i < shared else ""),
                                      title="the same in both" if i < shared else "")
                           for i, t in enumerate(seq))

        if shared == 0:
            agree = "They differ from the very first token."
        elif shared == len(spec):
            agree = "This time they write the same text."
        else:
            agree = (f"They agree on the first {shared} token{'s' if shared > 1 else ''} (ringed), then part "
                     f"ways for good: every later token is drawn after a different history.")
        uses = draw_uses(session)
        rows = []
        for i, (u, what, _) in enumerate(uses[:len(ordinary)]):
            rows.append(f'<tr><td>{i + 1}</td><td class="mono">{display.dec(u, 4)}</td>'
                        f'<td>token {i + 1}: <b>{theme.esc(ordinary[i])}</b></td>'
                        f'<td>{theme.esc(what)}</td></tr>')
        source = ("the trace on the first tab, run to the end (change it there)" if m.session_model is not None
                  else "the trace of the seed below, run to the end")
        self.trace_html.object = (
            '<div class="section-title"><h2>Same distribution, different trace</h2>'
            f'<span class="muted">seed {cfg.seed:,}, {theme.esc(cfg.draft)} draft, width {cfg.width}'
            + (f", lookahead threshold {display.dec(cfg.lookahead)}" if cfg.lookahead is not None else "")
            + '</span></div>'
            f'<p>Exact speculative sampling promises the target\'s <em>distribution</em>, not the same text as '
            f'an ordinary decoder with the same seed. Below: {theme.esc(source)}, beside ordinary decoding with '
            f'the same seed, which draws each token straight from the target.</p>'
            '<div class="outputs">'
            f'<div class="who">Speculative<span class="muted">exact rule</span></div>'
            f'<div class="tokens">{chips(spec)}</div>'
            f'<div class="who">Ordinary<span class="muted">target only</span></div>'
            f'<div class="tokens">{chips(ordinary)}</div></div>'
            f'<p>{theme.esc(agree)}</p>'
            f'<p>Both read the same stream of random draws u, but use them for different things. Ordinary '
            f'decoding spends one draw per token. Speculative decoding spends a draw on each proposal, another '
            f'on each test, and one on the correction or bonus: {len(uses)} draws for these {len(spec)} tokens '
            f'against ordinary decoding\'s {len(ordinary)}. Over many seeds both give the same distribution (the '
            f'chart above); seed by seed, the text differs.</p>'
            '<table class="draws"><caption class="muted small">The first draws of the seed, and what each '
            'decoder does with them</caption><thead><tr><th scope="col">draw</th><th scope="col">u</th>'
            '<th scope="col">ordinary</th><th scope="col">speculative</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>'
        )

    def __panel__(self):
        return self._layout
