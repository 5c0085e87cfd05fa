"""State of the "Why it is exact" tab: settings, and what ``core`` makes of them.

The seeds' central claim (``000_*.txt``, ``001_*.txt``, ``002_*.txt``): the
acceptance test plus the residual keep the target's distribution exactly,
the tempting shortcuts do not, and "same distribution" does not mean "same
text for the same seed". The model holds, for a rule, a draft, a width and
k, the exact distributions (``core.exact.compare``), N seeded runs
(``core.sampler``) with their chi-square tests (``core.stats``), and the
trace of the first tab beside ordinary decoding.

Building a model computes nothing: ``activate()`` (called when the tab is
first shown) computes the comparison and the trace and starts the sample;
until then a changed setting or a new trace on the first tab costs nothing.
The rules-in-the-wild cards (``core.rulecard``, one per rule on a fixed
scenario) follow in turns of their own, and are remembered for every page.

Sampling runs in chunks from a coroutine that yields to the event loop
between chunks, so the page stays usable and shows progress under ``panel
serve`` and in the Pyodide worker alike (no threads: Pyodide has none).
Without an event loop (plain pytest) the coroutine runs to the end before
the call returns.
"""

import asyncio
import time
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Optional

import panel as pn
import param

import core
from core import exact, sampler, stats
from core.rulecard import SOURCES, RuleCard, rule_card
from core.tables import AUTHORED
from core.transform import NONE, Transform
from core.variants import ALL_VARIANTS

from app.urlstate import SEED_MAX  # seeds a browser number field holds exactly

CHUNK = 2_500  # runs per chunk: ~50 ms on CPython, a few times that in Pyodide
RUN_CHOICES = (1_000, 5_000, 20_000, 50_000, 100_000)
MAX_K = 4


# Button labels -> parameter values. T = 1/n keeps every row exact.
TEMPERATURES = {"T = 1": "1", "T = 1/2": "1/2", "T = 1/3": "1/3", "T = 1/4": "1/4"}
TOP_KS = {"all": "off", "top-1": "1", "top-2": "2", "top-3": "3"}


@lru_cache(maxsize=512)
def chunk(draft, width, k, n, base_seed, variant, transform=NONE, tables=AUTHORED):
    """``sampler.sample_prefixes`` for one chunk, remembered: the same seeds always give the same counts."""
    return sampler.sample_prefixes(draft, width, k, n, base_seed=base_seed, variant=variant,
                                   temperature=transform.temperature, top_k=transform.top_k,
                                   transform_at=transform.at, tables=tables)


def connected():
    """Whether the page is still open (always, outside ``panel serve``): a closed page needs no more chunks."""
    context = getattr(pn.state.curdoc, "session_context", None)
    session = getattr(context, "session", None)
    return session is None or session.connection_count > 0


class CalculatorModel(param.Parameterized):
    """The one-position calculator of ``001_*.txt``: the text of p and q, and what ``core`` makes of it.

    Parsing and every number are ``core``'s (``core.parse_distribution``,
    ``core.decompose``); a value that does not parse becomes a message,
    never an exception. One position is cheap: it is computed as typed.
    """

    p_text = param.String(default="0.6, 0.3, 0.1", doc="""
        The target's probabilities for A, B, C, as typed (decimals or fractions, comma separated).""")

    q_text = param.String(default="0.2, 0.5, 0.3", doc="""
        The draft's probabilities for A, B, C, as typed.""")

    p_error = param.String(default="", constant=True, doc="Why p_text is not a distribution; '' when it is.")

    q_error = param.String(default="", constant=True, doc="Why q_text is not a distribution; '' when it is.")

    decomposition = param.ClassSelector(class_=core.Decomposition, allow_None=True, constant=True, doc="""
        core.decompose(p, q) for the current text, or None while either field is invalid.""")

    def __init__(self, **params):
        super().__init__(**params)
        self._update()

    @staticmethod
    def _parse(text):
        try:
            return core.parse_distribution(text or ""), ""
        except ValueError as error:
            return None, str(error)
        except Exception:  # anything else the parser meets is still just bad input
            return None, "these cannot be read as three probabilities"

    @param.depends("p_text", "q_text", watch=True)
    def _update(self):
        p, p_error = self._parse(self.p_text)
        q, q_error = self._parse(self.q_text)
        d = core.decompose(p, q) if p is not None and q is not None else None
        with param.edit_constant(self):
            self.param.update(p_error=p_error, q_error=q_error, decomposition=d)

    def load(self, p_text, q_text):
        self.param.update(p_text=p_text, q_text=q_text)


class ExactModel(param.Parameterized):
    """State of the "Why it is exact" tab; every number comes from ``core``."""

    variant = param.Selector(default="exact", objects=list(ALL_VARIANTS), doc="""
        The verification rule: the exact one (Algorithm 1), one of the shortcuts it is compared with, or one
        of the rules real engines shipped (core.variants.IN_THE_WILD), so each card's rule can be sampled.""")

    draft = param.Selector(default="biased", objects=core.ALL_DRAFTS, doc="""
        Which draft proposes tokens. The biased draft over-proposes A, so rejections happen.""")

    temperature = param.Selector(default="1", objects=list(TEMPERATURES.values()), doc="""
        Temperature T = 1/n: each row is raised to the power n and renormalised (core.transform).""")

    top_k = param.Selector(default="off", objects=list(TOP_KS.values()), doc="""
        Keep only the k most likely tokens of each row ("off" keeps all; ties go to A, then B, then C).""")

    transform_at = param.Selector(default="both", objects=list(core.TRANSFORM_AT), doc="""
        Where temperature and top-k are applied: to both models, to the target only, or to the draft only
        (then verification uses the untransformed target, and the output quietly follows it).""")

    width = param.Integer(default=3, bounds=(1, core.MAX_WIDTH), doc="""
        Tokens the draft proposes per block.""")

    k = param.Selector(default=2, objects=list(range(1, MAX_K + 1)), doc="""
        How many output tokens are compared: the distribution of the first k tokens.""")

    runs = param.Selector(default=20_000, objects={f"{n:,}": n for n in RUN_CHOICES}, doc="""
        How many seeded runs the sample has.""")

    base_seed = param.Integer(default=0, bounds=(0, None), doc="""
        Run i uses seed base_seed + i, so any run can be replayed on the first tab.""")

    seed = param.Integer(default=0, bounds=(0, SEED_MAX), doc="""
        The seed compared with ordinary decoding when no first tab is linked.""")

    session_model = param.Parameter(default=None, doc="""
        The first tab's model (params session, draft, width, seed, lookahead), when this tab is part of
        the page: its trace, run to the end, is the one compared with ordinary decoding.""")

    active = param.Boolean(default=False, constant=True, doc="""
        Whether the tab has been shown: nothing is computed before.""")

    comparison = param.ClassSelector(class_=exact.Comparison, constant=True, doc="""
        core.exact.compare for the current rule, draft, width, k and transformation (None before activation).
        Its target is the transformed target: the distribution the settings ask for.""")

    raw_distance = param.Parameter(default=None, constant=True, doc="""
        The exact distance of the rule's output from the *untransformed* target
        (core.exact.total_variation), when a transformation is set; None otherwise.""")

    counts = param.ClassSelector(class_=Counter, default=Counter(), constant=True, doc="""
        Counts of the first k tokens over the runs sampled so far.""")

    done = param.Integer(default=0, constant=True, doc="Runs sampled so far.")

    sampling = param.Boolean(default=False, constant=True, doc="Whether a sample is being drawn right now.")

    seconds = param.Number(default=None, allow_None=True, constant=True, doc="""
        How long the finished sample took.""")

    chi_target = param.Parameter(default=None, constant=True, doc="""
        core.stats.chi_square of the sample against the target, or None before any run.""")

    chi_rule = param.Parameter(default=None, constant=True, doc="""
        The same test against the rule's own exact distribution.""")

    trace = param.ClassSelector(class_=core.Session, constant=True, doc="""
        The finished trace compared with ordinary decoding (the first tab's scenario, run to the end).""")

    cards = param.Parameter(default=None, constant=True, doc="""
        One ``Card`` per rule other than the exact one (``CARD_RULES``), in a turn of its own after the
        tab is shown; None until then.""")

    def __init__(self, **params):
        super().__init__(**params)
        self._token = 0
        self._started = None
        self._tables_seen = self.tables
        self._take_custom_draft()
        if self.session_model is not None:
            self.session_model.param.watch(self._follow_trace, ["session"])
            self.session_model.param.watch(self._follow_tables, ["session"])

    def _set(self, **values):
        with param.edit_constant(self):
            self.param.update(**values)

    def activate(self):
        """Compute what the tab shows and start the first sample; later calls do nothing."""
        if self.active:
            return
        self._set(active=True, sampling=True)
        self._compare()
        self._follow_trace()
        # Once the page is connected (at once when it already is, or outside a server):
        # a sample started while the page is still being built would see no reader and stop.
        pn.state.onload(self.start_sampling)
        pn.state.onload(lambda: pn.state.execute(self._fill_cards))

    # ---- exact distributions ----------------------------------------------------------

    @property
    def tables(self):
        """The scenario's tables (``core.tables.Tables``): the first tab's, when one is linked."""
        if self.session_model is not None and self.session_model.session is not None:
            return self.session_model.session.config.tables
        return AUTHORED

    def _take_custom_draft(self):
        """A link's own draft (``draft=custom`` with its tables) is the one this tab starts on: its own
        example is what the teacher linked. The tab's draft is its own after that. True when it changed
        (then ``_on_settings`` has computed everything again)."""
        sm = self.session_model
        if sm is not None and sm.draft == "custom" and not self.tables.authored and self.draft != "custom":
            self.draft = "custom"
            return True
        return False

    def _follow_tables(self, *events):
        """A link with other tables: the distributions, the sample and the cards are computed again."""
        tables = self.tables
        if tables == self._tables_seen:
            return
        self._tables_seen = tables
        if self.active:
            with pn.io.hold():
                if not self._take_custom_draft():
                    self._compare()
                    self.start_sampling()
        else:
            self._take_custom_draft()
        if self.cards is not None:
            self._set(cards=None)
            pn.state.execute(self._fill_cards)

    @property
    def transform(self):
        """The ``core.Transform`` the three controls describe."""
        top_k = None if self.top_k == "off" else int(self.top_k)
        return Transform(Fraction(self.temperature), top_k, self.transform_at)

    def _compare(self):
        tr = self.transform
        tables = self.tables
        comparison = exact.compare(self.draft, self.width, self.k, self.variant, transform=tr, tables=tables)
        raw = None if tr.identity else exact.total_variation(comparison.result,
                                                             exact.target_distribution(self.k, tables=tables))
        self._set(comparison=comparison, raw_distance=raw)

    @param.depends("variant", "draft", "width", "k", "temperature", "top_k", "transform_at", watch=True)
    def _on_settings(self):
        if self.active:
            with pn.io.hold():
                self._compare()
                self.start_sampling()

    @param.depends("runs", "base_seed", watch=True)
    def _on_runs(self):
        if self.active:
            self.start_sampling()

    @property
    def rule(self):
        return ALL_VARIANTS[self.variant]

    def prefixes(self):
        """Every k-token prefix either distribution gives weight, most likely first (target, then rule)."""
        c = self.comparison
        keys = set(c.target) | set(c.result)
        return sorted(keys, key=lambda s: (-max(c.target.get(s, 0), c.result.get(s, 0)), s))

    def rows(self, limit=None):
        """``(prefix, target, rule, sampled share or None, count)`` for the chart and the table."""
        c = self.comparison
        shares = sampler.frequencies(self.counts) if self.done else {}
        return [(s, c.target.get(s, Fraction(0)), c.result.get(s, Fraction(0)),
                 shares.get(s, Fraction(0)) if self.done else None, self.counts.get(s, 0))
                for s in self.prefixes()[:limit]]

    # ---- sampling, in chunks ----------------------------------------------------------

    def start_sampling(self):
        """Start a fresh sample for the current settings (an unfinished one is abandoned)."""
        self._token += 1
        self._started = time.perf_counter()
        self._set(counts=Counter(), done=0, sampling=True, seconds=None, chi_target=None, chi_rule=None)
        token, settings = self._token, (self.draft, self.width, self.k, self.runs, self.base_seed, self.variant,
                                        self.transform, self.tables)

        async def run():
            await self._sample(token, settings)

        pn.state.execute(run)

    def new_sample(self):
        """Draw the next N runs: new seeds, same settings."""
        self.base_seed = self.base_seed + self.runs

    async def _sample(self, token, settings):
        """Draw the sample chunk by chunk, giving the event loop a turn after each."""
        draft, width, k, runs, base_seed, variant, transform, tables = settings
        counts, done = Counter(), 0
        while done < runs:
            n = min(CHUNK, runs - done)
            counts = counts + chunk(draft, width, k, n, base_seed + done, variant, transform, tables)
            done += n
            # The loop handles clicks (which may start another sample) and notices a closed page.
            await asyncio.sleep(0.005)
            if token != self._token or not connected():
                return
            self._apply(token, counts, done)

    def _apply(self, token, counts, done):
        if token != self._token:
            return
        finished = done >= self.runs
        c = self.comparison
        with pn.io.hold():
            self._set(counts=counts, done=done, sampling=not finished,
                      chi_target=stats.chi_square(counts, c.target), chi_rule=stats.chi_square(counts, c.result),
                      seconds=time.perf_counter() - self._started if finished else None)

    # ---- same distribution, different trace ---------------------------------------------

    def _config(self):
        if self.session_model is not None:
            return self.session_model.session.config
        return core.Config(self.draft, self.width, self.seed)

    def _follow_trace(self, *events):
        if not self.active:
            return
        config = self._config()
        # Draft, Verify and Commit on the first tab keep the scenario: nothing to redo.
        if self.trace is None or self.trace.config != config:
            self._set(trace=core.Session.start(config).run_to_end())

    @param.depends("seed", "draft", "width", watch=True)
    def _on_scenario(self):
        if self.session_model is None:
            self._follow_trace()

    def ordinary(self):
        """What ordinary decoding writes with the trace's seed."""
        config = self.trace.config
        return sampler.ordinary_output(config.seed, config.max_tokens, config.tables)

    # ---- the rules in the wild ------------------------------------------------------------

    async def _fill_cards(self):
        """Every card (module ``card``), one rule per turn of the event loop: a click meanwhile is
        answered at once, and the distribution above reaches the page first."""
        if self.cards is not None:
            return
        tables, out = self.tables, []
        for variant in CARD_RULES:
            await asyncio.sleep(0.005)
            if self.tables != tables:
                return  # other tables since: their own turn fills the cards
            out.append(card(variant, tables))
        self._set(cards=tuple(out))


# ---- the rules in the wild: one card per rule -------------------------------------------------

# The cards' fixed scenario: the biased draft rejects, so every rule's figures differ from the
# exact rule's; width 3 and the first 3 tokens are core.rulecard's defaults (a second or less).
CARD_DRAFT, CARD_WIDTH, CARD_K = "biased", 3, 3
# The rules an engine or tutorial shipped or proposed first, then the classroom shortcuts.
CARD_RULES = tuple(sorted((v for v in ALL_VARIANTS if v != "exact"), key=lambda v: not SOURCES.get(v)))


@dataclass(frozen=True)
class Card:
    """A rule's ``core.rulecard`` record on the cards' scenario; for match-keep also the aligned draft's
    (q = p: where the exact rule keeps every proposal and match-keep keeps sum(p ** 2))."""

    card: RuleCard
    aligned: Optional[RuleCard] = None


@lru_cache(maxsize=64)
def card(variant, tables=AUTHORED):
    """The card of one rule on ``tables``, remembered: equal tables give the same card."""
    aligned = rule_card(variant, "aligned", CARD_WIDTH, CARD_K, tables=tables) if variant == "match-keep" else None
    return Card(rule_card(variant, CARD_DRAFT, CARD_WIDTH, CARD_K, tables=tables), aligned)
