"""When speculation pays off: tokens per target pass and time per token.

Two answers side by side:

* **exact**, from the toy tables: the long-run average over many blocks,
  by renewal reward. A block starts after a token s in {A, B, C}; which
  token ends it is a Markov chain; its stationary distribution weights each
  start's exact expected tokens and draft steps (``exact.block_outcomes``).
* **closed form**, from the paper (Leviathan et al. 2023, Eq. 1 and
  Theorem 3.8): ``E = (1 - a**(g+1)) / (1 - a)`` tokens per target pass and
  ``(g*c + 1) * (1 - a) / (1 - a**(g+1))`` time per token relative to
  ordinary decoding, with ``a`` the average acceptance rate
  ``sum(min(p, q))`` over the positions the target visits, and ``c`` the
  cost of one draft step relative to one target pass.

The closed form assumes every position accepts with the same chance ``a``,
independently. Here the chance depends on the previous token, and a
block's later positions follow tokens the draft favours, so the two differ.
Both are algorithmic expectations: no batching, memory or concurrency.

The long run is a Markov chain over block starts: the draft's state (the
last token; for lookup also what followed each token's latest occurrence)
times the width the block uses. A fixed width keeps the width; the
heuristic schedule (``core.schedule``) moves it, and the chain finds its
long-run mix exactly (``compare_schedules``). Every proposal counts as one
draft step of cost ``c``, the lookup draft's copies included (a real
lookup costs almost nothing: read its rows at c = 0).
"""

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Optional

from toy_tables import TOKENS

from . import drafts, markov
from .config import MAX_TOKENS, MAX_WIDTH, Config
from .exact import block_branches
from .numbers import parse_fraction
from .schedule import next_width
from .tables import AUTHORED
from .transform import NONE
from .variants import ALL_VARIANTS


def stationary(chain, nodes=TOKENS):
    """Stationary distribution of ``chain[s][t]`` over ``nodes``, exactly.

    The chain must have one closed class over ``nodes``; states it leaves for
    good get 0 (the aligned draft's heuristic chain starts at width 1 and
    never comes back). Solved by p-adic lifting (``core.markov``): the lookup
    draft's heuristic chain at T = 1/4 (216 states, answers with 2,092-digit
    denominators) takes 0.4 s on CPython where state reduction over the
    rationals took 3.7 s, with the same exact numbers (``tests/test_markov.py``
    keeps that elimination to compare).
    """
    return markov.stationary(chain, nodes)


@lru_cache(maxsize=None)
def alpha(draft, tables=AUTHORED):
    """Average acceptance rate: sum(min(p, q)) weighted by how often the target visits each state."""
    tables.check_long_run()
    target = tables.target
    visits = stationary({s: dict(zip(TOKENS, target[s])) for s in TOKENS})
    q = drafts.KINDS[draft].table_in(tables)  # a table kind's rows in this scenario (core.drafts)
    return sum(visits[s] * sum(min(a, b) for a, b in zip(target[s], q[s])) for s in TOKENS)


def _drafted(variant, drafter, width, state, lookahead):
    """Expected proposals in one block: ``width``, or fewer when lookahead stops early
    or the lookup draft runs out of text to copy."""
    if drafter.copies:
        return Fraction(len(drafter.chain(state)[:width]))
    if lookahead is None:
        return Fraction(width)  # a sampling draft always drafts the full width without lookahead
    propose = ALL_VARIANTS[variant].propose_dist

    def walk(i, cur):
        q = drafter.row_at(state, i, cur) if i < width else None
        if q is None:
            return Fraction(0)
        total = Fraction(1)
        for x, qx in enumerate(propose(q.fracs)):
            if qx and not (lookahead is not None and q.fracs[x] < lookahead):
                total += qx * walk(i + 1, TOKENS[x])
        return total

    return walk(0, drafter.last(state))


def _recurrent_start(drafter):
    """A block start inside the long run's one closed class of draft states."""
    return drafter.recurrent_start()


@dataclass(frozen=True)
class Payoff:
    """Long-run figures for one draft, width and draft cost ``c``.

    With ``schedule="heuristic"``, ``width`` is None (the long run forgets
    where the schedule started) and ``mean_width`` is the average width a
    block uses; the closed forms, which assume a fixed width, are None.
    """

    draft: str
    width: int
    cost: Fraction
    lookahead: Optional[Fraction]
    alpha: Fraction
    tokens_per_pass: Fraction
    draft_steps_per_pass: Fraction
    time_per_token: Fraction
    closed_tokens_per_pass: Optional[Fraction]
    closed_time_per_token: Optional[Fraction]
    schedule: str = "fixed"
    mean_width: Optional[Fraction] = None

    @property
    def speedup(self):
        """Ordinary decoding's time per token over speculation's (above 1 pays off)."""
        return 1 / self.time_per_token

    @property
    def closed_speedup(self):
        return None if self.closed_time_per_token is None else 1 / self.closed_time_per_token


def closed_tokens_per_pass(a, width):
    """The paper's Eq. 1: ``(1 - a**(width+1)) / (1 - a)``, and ``width + 1`` when a = 1."""
    a = Fraction(a)
    return Fraction(width + 1) if a == 1 else (1 - a ** (width + 1)) / (1 - a)


def closed_time_per_token(a, width, cost):
    """Theorem 3.8 inverted: ``(width*c + 1) / E`` relative to ordinary decoding."""
    return (width * Fraction(cost) + 1) / closed_tokens_per_pass(a, width)


@lru_cache(maxsize=None)
def chain(draft, width, lookahead=None, variant="exact", schedule="fixed", transform=NONE, tables=AUTHORED):
    """The long run's block chain: ``(nodes, weights, tokens, steps)`` with nodes
    ``(draft state, width)``, ``weights`` their stationary probabilities, and the
    exact expected tokens and draft steps of a block started at each node."""
    tables.check_long_run()
    setup = drafts.setup(draft, transform, tables)
    drafter = setup.drafter
    moves, tokens, steps = {}, {}, {}
    todo = [(_recurrent_start(drafter), width)]
    while todo:
        node = todo.pop()
        if node in moves:
            continue
        state, w = node
        out = {}
        total = Fraction(0)
        for seq, verdict, prob in block_branches(variant, draft, w, state, w + 1, lookahead, transform, tables):
            nxt = (drafts.after(drafter, state, seq), next_width(schedule, w, verdict))
            out[nxt] = out.get(nxt, 0) + prob
            total += prob * len(seq)
        moves[node], tokens[node] = out, total
        steps[node] = _drafted(variant, drafter, w, state, lookahead)
        todo.extend(n for n in out if n not in moves)
    nodes = tuple(sorted(moves, key=repr))
    return nodes, stationary(moves, nodes), tokens, steps


@lru_cache(maxsize=None)
def long_run(draft, width, lookahead=None, variant="exact", schedule="fixed", transform=NONE, tables=AUTHORED):
    """``(tokens_per_pass, draft_steps_per_pass)`` in the long run: the part of
    ``payoff`` that does not depend on the draft cost, computed once."""
    nodes, weights, tokens, steps = chain(draft, width, lookahead, variant, schedule, transform, tables)
    return sum(weights[n] * tokens[n] for n in nodes), sum(weights[n] * steps[n] for n in nodes)


def mean_width(draft, width, lookahead=None, variant="exact", schedule="fixed", transform=NONE, tables=AUTHORED):
    """The average width a block uses in the long run."""
    nodes, weights, _, _ = chain(draft, width, lookahead, variant, schedule, transform, tables)
    return sum(weights[n] * n[1] for n in nodes)


# c is one draft step's cost in target passes: 0 is a free draft, 1 a draft as
# slow as the target. Past 1 every width only loses more; 10 leaves room to show
# that, and keeps every figure a finite float for display.
MAX_COST = 10


def check_cost(cost):
    """``cost`` as a Fraction from 0 to ``MAX_COST``, else a ValueError that says so.

    Text is read by ``core.numbers`` (``Fraction("1e999999999")`` would never return).
    """
    if isinstance(cost, str):
        return parse_fraction(cost, name="the draft cost c", low=0, high=MAX_COST)
    if isinstance(cost, float) and not math.isfinite(cost):
        raise ValueError(f"the draft cost c must be from 0 to {MAX_COST}, got {cost}")
    cost = Fraction(cost)
    if not 0 <= cost <= MAX_COST:
        small = abs(cost.numerator) < 10**12 and cost.denominator < 10**12  # never print a 4,000-digit number
        got = cost if small else ("a negative number" if cost < 0 else f"more than {MAX_COST}")
        raise ValueError(f"the draft cost c must be from 0 to {MAX_COST}, got {got}")
    return cost


def payoff(draft, width, cost, lookahead=None, variant="exact", transform=NONE, tables=AUTHORED):
    """Exact long-run tokens per pass and time per token, beside the closed form."""
    Config(draft, width, 0, MAX_TOKENS, variant, lookahead, "fixed", transform.temperature, transform.top_k,
           transform.at, tables)
    cost = check_cost(cost)
    lookahead = None if lookahead is None else Fraction(lookahead)
    per_pass, draft_steps = long_run(draft, width, lookahead, variant, "fixed", transform, tables)
    # The closed form needs one acceptance rate per table row, from the untransformed tables.
    a = alpha(draft, tables) if draft in drafts.TABLE_DRAFTS and transform.identity else None
    closed = closed_tokens_per_pass(a, width) if lookahead is None and a is not None else None
    closed_time = closed_time_per_token(a, width, cost) if lookahead is None and a is not None else None
    return Payoff(draft, width, cost, lookahead, a, per_pass, draft_steps, (cost * draft_steps + 1) / per_pass,
                  closed, closed_time)


def heuristic_payoff(draft, cost, variant="exact", transform=NONE, tables=AUTHORED):
    """The heuristic schedule's long-run figures (``Payoff`` with ``width`` None and ``mean_width`` set).

    The long run forgets the starting width, so there is one answer per draft
    and cost. Exact, from the chain over (draft state, width).
    """
    cost = check_cost(cost)
    per_pass, draft_steps = long_run(draft, 1, None, variant, "heuristic", transform, tables)
    a = alpha(draft, tables) if draft in drafts.TABLE_DRAFTS and transform.identity else None
    return Payoff(draft, None, cost, None, a, per_pass,
                  draft_steps, (cost * draft_steps + 1) / per_pass, None, None, "heuristic",
                  mean_width(draft, 1, None, variant, "heuristic", transform, tables))


@dataclass(frozen=True)
class ScheduleComparison:
    """The heuristic schedule beside every fixed width and dynamic lookahead, for one draft and cost.

    ``fixed`` and ``lookahead`` are ``PayoffTable``s (widths 1-8; lookahead at
    ``threshold``); ``heuristic`` is one ``Payoff``. ``best`` names the
    least time per token among the three: "fixed", "lookahead" or "heuristic"
    (ties go to that order), and ``best_time_per_token`` is its figure.
    """

    draft: str
    cost: Fraction
    threshold: Fraction
    fixed: "PayoffTable"
    lookahead: "PayoffTable"
    heuristic: Payoff
    best: str
    best_time_per_token: Fraction


def compare_schedules(draft, cost, threshold=Fraction(1, 2), tables=AUTHORED):
    """Fixed widths, dynamic lookahead and the heuristic schedule, exactly (``core.payoff``'s chains).

    The lookup draft's heuristic chain has 216 states and answers with
    668-digit fractions (about a second on CPython): compute it once and keep it
    (``long_run`` and ``chain`` are cached, so another cost is quick).
    """
    cost = check_cost(cost)
    threshold = Fraction(threshold)
    fixed = payoff_table(draft, cost, tables=tables)
    ahead = payoff_table(draft, cost, threshold, tables=tables)
    heuristic = heuristic_payoff(draft, cost, tables=tables)
    times = (("fixed", fixed.rows[fixed.best_width - 1].time_per_token),
             ("lookahead", ahead.rows[ahead.best_width - 1].time_per_token),
             ("heuristic", heuristic.time_per_token))
    best, best_time = min(times, key=lambda t: t[1])
    return ScheduleComparison(draft, cost, threshold, fixed, ahead, heuristic, best, best_time)


@dataclass(frozen=True)
class PayoffTable:
    rows: tuple
    best_width: int
    closed_best_width: Optional[int]


def payoff_table(draft, cost, lookahead=None, widths=range(1, MAX_WIDTH + 1), transform=NONE, tables=AUTHORED):
    """``payoff`` for every width, and the width with the least time per token (ties: the shorter)."""
    rows = tuple(payoff(draft, w, cost, lookahead, transform=transform, tables=tables) for w in widths)
    best = min(rows, key=lambda r: (r.time_per_token, r.width)).width
    closed_best = None
    if lookahead is None:
        closed_best = min(rows, key=lambda r: (r.closed_time_per_token, r.width)).width
    return PayoffTable(rows, best, closed_best)


def trace_time_per_token(counters, cost):
    """What a finished trace's counters say: ``(c * draft steps + passes) / committed``."""
    if not counters.committed:
        return None
    return (Fraction(cost) * counters.draft_steps + counters.target_passes) / counters.committed


def trace_speedup(counters, cost):
    """The same trace as a speedup over ordinary decoding (above 1 pays off)."""
    time = trace_time_per_token(counters, cost)
    return None if time is None else 1 / time


@dataclass(frozen=True)
class TraceExpectation:
    """Exact expectations for one whole trace to ``max_tokens`` (what the counters show)."""

    target_passes: Fraction
    draft_steps: Fraction
    tokens_per_pass: Fraction


def trace_expectation(draft, width, max_tokens=MAX_TOKENS, lookahead=None, variant="exact", schedule="fixed",
                      transform=NONE, tables=AUTHORED):
    """Expected target passes and draft steps of a full trace, by enumeration.

    ``tokens_per_pass`` is ``max_tokens / E[passes]``: the pooled ratio that
    the counters of many traces converge to.
    """
    Config(draft, width, 0, max_tokens, variant, lookahead, schedule, transform.temperature, transform.top_k,
           transform.at, tables)
    lookahead = None if lookahead is None else Fraction(lookahead)
    drafter = drafts.setup(draft, transform, tables).drafter

    @lru_cache(maxsize=None)
    def expect(state, w, length):
        if length >= max_tokens:
            return Fraction(0), Fraction(0)
        room = max_tokens - length
        n = min(w, room)
        passes, steps = Fraction(1), _drafted(variant, drafter, n, state, lookahead)
        for seq, verdict, prob in block_branches(variant, draft, n, state, room, lookahead, transform, tables):
            more_passes, more_steps = expect(drafts.after(drafter, state, seq), next_width(schedule, w, verdict),
                                             length + len(seq))
            passes += prob * more_passes
            steps += prob * more_steps
        return passes, steps

    passes, steps = expect(drafter.start, width, 0)
    return TraceExpectation(passes, steps, max_tokens / passes)
