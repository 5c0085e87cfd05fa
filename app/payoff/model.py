"""State of the "When it pays off" tab: the draft cost, the draft, lookahead, and core's tables.

The seeds insist that a longer draft is not always faster and that counts
are not latency (``000_*.txt`` "Where the speedup can disappear",
``001_*.txt``, ``002_*.txt`` "The economics of acceptance"). The model holds
the cost c of one draft step (in target passes), the draft, and the
expected speedup and tokens per target pass for widths 1 to 8: exact values
from the toy tables beside the paper's closed form (``core.payoff``), with
and without dynamic lookahead, and the trace of the first tab as a point.

Building a model computes nothing: the tables (about a second in the
browser the first time) are computed by ``activate()``, called when the tab
is first shown, after the page has had a moment to show "computing…".
Sliders are read as the exact numbers they show (``Fraction("0.05")``).
The batch part (b requests, the target compute-bound past s positions:
``core.batch``) reuses the tables' long runs, so moving b or s is arithmetic
on eight rows.
"""

import asyncio
from fractions import Fraction
from functools import lru_cache

import panel as pn
import param

import core
from core import batch, passes, payoff, rates
from core.tables import AUTHORED

WIDTHS = tuple(range(1, core.MAX_WIDTH + 1))
MAX_BATCH, MAX_SATURATION = 64, 128  # the sliders' ends (core.batch takes up to 256 and 4096)


def fraction(value):
    """A slider value as the exact number it shows (the sliders step by 0.01 or 0.05)."""
    return Fraction(f"{value:.2f}")


@lru_cache(maxsize=512)
def table(draft, cost, lookahead=None, tables=AUTHORED):
    """``core.payoff.payoff_table``, remembered: equal tables (``core.tables.Tables``) give the same answer."""
    return payoff.payoff_table(draft, cost, lookahead, tables=tables)


@lru_cache(maxsize=512)
def batch_table(draft, cost, b, s, tables=AUTHORED):
    """``core.batch.batch_table``, remembered like ``table``."""
    return batch.batch_table(draft, cost, b, s, tables=tables)


@lru_cache(maxsize=512)
def heuristic(draft, cost, tables=AUTHORED):
    """``core.payoff.heuristic_payoff``: the heuristic schedule's long run (core keeps the chain, so a new
    cost is quick; the first one for the lookup draft takes about a second on CPython)."""
    return payoff.heuristic_payoff(draft, cost, tables=tables)


class PayoffModel(param.Parameterized):
    """State of the "When it pays off" tab."""

    draft = param.Selector(default="biased", objects=core.ALL_DRAFTS, doc="""
        Which draft proposes tokens (follows the first tab's draft when one is linked).""")

    cost = param.Number(default=0.1, bounds=(0, 1), step=0.01, doc="""
        c: the cost of one draft step, measured in target passes.""")

    lookahead = param.Boolean(default=False, doc="""
        Whether to add the curves with dynamic lookahead.""")

    threshold = param.Number(default=0.3, bounds=(0.05, 0.95), step=0.05, doc="""
        Dynamic lookahead: drafting stops after a proposal whose own draft probability is below this.
        Moving it switches the lookahead curves on.""")

    batch = param.Integer(default=1, bounds=(1, MAX_BATCH), doc="""
        b: requests verified together in one target pass (the batch model; 1 gives the curves above).""")

    saturation = param.Integer(default=16, bounds=(1, MAX_SATURATION), doc="""
        s: positions per target pass past which the target is compute-bound (the batch model).""")

    session_model = param.Parameter(default=None, doc="""
        The first tab's model (params session, draft, ...): its draft is followed and its trace shown
        as a point.""")

    active = param.Boolean(default=False, constant=True, doc="""
        Whether the tab has been shown: nothing is computed before.""")

    table = param.Parameter(default=None, constant=True, doc="""
        core.payoff.PayoffTable for the draft and cost, fixed width (None until computed).""")

    lookahead_table = param.Parameter(default=None, constant=True, doc="""
        The same with dynamic lookahead, or None when the lookahead curves are off.""")

    heuristic = param.Parameter(default=None, constant=True, doc="""
        core.payoff.heuristic_payoff for the draft and cost: the heuristic width schedule's long run
        (None until computed; it follows the tables, in a turn of its own).""")

    batch_table = param.Parameter(default=None, constant=True, doc="""
        core.batch.batch_table for the draft, cost, b and s (None until computed, and for the lookup
        draft, which core.batch refuses).""")

    refused = param.Parameter(default=None, constant=True, doc="""
        ``(a, b)`` when the scenario's tables have no long run (``core.tables.Tables.unreachable``: after a the
        target never reaches b), so nothing of this tab is computed; None otherwise.""")

    session = param.ClassSelector(class_=core.Session, default=None, constant=True, doc="""
        The first tab's trace when it has finished blocks, else None (a commit or a new scenario
        moves it; Draft and Verify do not).""")

    def __init__(self, **params):
        super().__init__(**params)
        sm = self.session_model
        if sm is not None:
            self.draft = sm.draft
            sm.param.watch(self._follow_draft, "draft")
            sm.param.watch(self._follow_session, "session")
            self._follow_session()
        self._tables_seen = self.tables
        if sm is not None:
            sm.param.watch(self._follow_tables, "session")

    def _set(self, **values):
        with param.edit_constant(self):
            self.param.update(**values)

    def activate(self):
        """Compute the tables, after giving the page a turn to show that they are coming; once."""
        if self.active:
            return
        self._set(active=True)

        async def first():
            await asyncio.sleep(0.01)
            self._tables()
            await self._heuristic_later()

        pn.state.onload(lambda: pn.state.execute(first))

    def _follow_draft(self, event):
        """Take the first tab's draft; once the tab is shown, after that tab's click has been answered
        (a new draft's tables take a moment the first time)."""
        if not self.active:
            self.draft = event.new
            return

        async def follow():
            await asyncio.sleep(0.01)
            self.draft = event.new

        pn.state.execute(follow)

    @property
    def tables(self):
        """The scenario's tables (``core.tables.Tables``): the first tab's, when one is linked."""
        sm = self.session_model
        if sm is not None and sm.session is not None:
            return sm.session.config.tables
        return AUTHORED

    def _follow_tables(self, *events):
        """A link with other tables: every curve is computed again on them."""
        if self.tables != self._tables_seen:
            self._tables_seen = self.tables
            self._compute()

    @property
    def c(self):
        return fraction(self.cost)

    @property
    def t(self):
        return fraction(self.threshold)

    @param.depends("threshold", watch=True)
    def _show_lookahead(self):
        self.lookahead = True

    @param.depends("draft", "cost", "lookahead", "threshold", watch=True)
    def _compute(self):
        if not self.active:
            return
        self._tables()
        pn.state.execute(self._heuristic_later)

    def _tables(self):
        tables = self.tables
        refused = tables.unreachable()  # core.tables' own test: check_long_run() raises exactly when it holds
        with pn.io.hold():
            if refused is not None:
                self._set(refused=refused, table=None, lookahead_table=None, batch_table=None, heuristic=None)
                return
            self._set(refused=None, table=table(self.draft, self.c, tables=tables),
                      lookahead_table=table(self.draft, self.c, self.t, tables) if self.lookahead else None,
                      batch_table=self._batch_table())

    # ---- speculation in a batch (core.batch) -----------------------------------------

    @property
    def batched(self):
        """Whether core.batch prices this draft (every draft but lookup, whose blocks vary in width)."""
        return self.draft in batch.BATCH_DRAFTS

    def _batch_table(self):
        # After table(): core.payoff.long_run is cached, so this is arithmetic on eight rows.
        return batch_table(self.draft, self.c, self.batch, self.saturation, self.tables) if self.batched else None

    @param.depends("batch", "saturation", watch=True)
    def _on_batch(self):
        if self.active and self.table is not None:
            with pn.io.hold():  # the reading, tiles, chart and numbers reach the page as one message
                self._set(batch_table=self._batch_table())

    async def _heuristic_later(self):
        """The heuristic schedule's point, in a turn of its own: the tables reach the page first
        (the lookup draft's chain takes about a second on CPython the first time)."""
        wanted = (self.draft, self.c, self.tables)
        if self.refused is not None:
            return
        if self.heuristic is not None and self._heuristic_for == wanted:
            return
        self._set(heuristic=None)
        await asyncio.sleep(0.01)
        if (self.draft, self.c, self.tables) == wanted and self.refused is None:
            self._heuristic_for = wanted
            self._set(heuristic=heuristic(*wanted))

    _heuristic_for = None  # (draft, cost, tables) of the heuristic on screen

    def best(self, which="exact"):
        """The best row of a table: ``exact`` (fixed width), ``closed`` or ``lookahead``."""
        if which == "lookahead":
            tab = self.lookahead_table
            return None if tab is None else tab.rows[tab.best_width - 1]
        width = self.table.best_width if which == "exact" else self.table.closed_best_width
        return self.table.rows[width - 1]

    @property
    def has_table_draft(self):
        """Whether the draft is a table (aligned, biased): only those have the paper's α, its closed form
        and core.rates' per-position chances; lookup and heads have exact curves only."""
        return self.draft in core.DRAFTS

    def rates(self, width):
        """core.rates.rates for the draft at ``width``, fixed width."""
        return rates.rates(self.draft, width, tables=self.tables)

    def kept_share(self, width):
        """core.rates.kept_share for the draft at ``width`` on the scenario's tables."""
        return rates.kept_share(self.draft, width, tables=self.tables)

    # ---- the trace on the first tab ---------------------------------------------------

    def _follow_session(self, *events):
        s = self.session_model.session
        if s is None or not s.counters.target_passes:
            s = None
        old = self.session
        if (s is None) != (old is None) or (s is not None and (s.config, s.counters) != (old.config, old.counters)):
            self._set(session=s)

    def trace_point(self):
        """``(width, tokens per pass, speedup or None)`` of the trace on the first tab, or None."""
        s = self.session
        if s is None:
            return None
        counters = s.counters
        width = s.config.width
        if s.config.schedule == "heuristic":  # plotted at the average width its blocks used
            width = Fraction(sum(b.width for b in s.blocks), len(s.blocks))
        return width, counters.tokens_per_pass, payoff.trace_speedup(counters, self.c)

    def trace_passes(self):
        """core.passes.passes for the trace's scenario: what its counter averages over many seeds."""
        cfg = self.session.config
        if cfg.draft not in core.DRAFTS or cfg.schedule != "fixed":
            return None  # core.passes enumerates table drafts at a fixed width
        return passes.passes(cfg.draft, cfg.width, cfg.max_tokens, cfg.lookahead, tables=cfg.tables)
