"""The tabs' sentences, checked against the engine over many scenarios (issues 11 and 29).

A sentence about what is on screen may say only what ``core``'s numbers make
true. Each claim test lets the words function speak and checks its claim by an
independent route (the raw outputs, a run without the output limit, the counters
of many seeds, the rows of the payoff tables), once per sweep:

- ``authored``: the authored tables, densely (every draft, widths 1 to 8, seeds 0
  to 199, with and without lookahead, costs and thresholds on the sliders);
- ``random``: 50 random rational tables from a seeded generator (rows a/d, b/d, c/d
  with d up to 20, zeros allowed: both the target and the custom draft's q), since a
  link can carry any tables and a sentence may not lean on the authored numbers;
  fewer scenarios per table, so that sweep takes about 20 seconds.
"""

import random
from dataclasses import dataclass
from fractions import Fraction as F
from functools import lru_cache

import pytest

import core
from core import display, exact, passes, payoff, rates, sampler
from core.tables import AUTHORED, Tables

from app.exact import words as exact_words
from app.payoff import words as payoff_words

DRAFTS = tuple(core.DRAFTS)
N_TABLES = 50


def row(rng):
    d = rng.randint(1, 20)
    a = rng.randint(0, d)
    b = rng.randint(0, d - a)
    return (F(a, d), F(b, d), F(d - a - b, d))


def random_tables(n=N_TABLES, seed=29):
    rng = random.Random(seed)
    return tuple(Tables(tuple(row(rng) for _ in range(4)), tuple(row(rng) for _ in range(4))) for _ in range(n))


TABLES = random_tables()
# The payoff tab's claims need a long run (the tab shows a notice instead: test_custom_tables_tabs.py).
LONG_RUN = tuple(t for t in TABLES if t.unreachable() is None)


@dataclass(frozen=True)
class Traces:
    """Runs to the end: every table, draft, width, lookahead and seed."""

    tables: tuple
    seeds: range
    widths: tuple
    lookaheads: tuple = (None, F(3, 10))

    def __iter__(self):
        for tables in self.tables:
            for draft in DRAFTS:
                for width in self.widths:
                    for lookahead in self.lookaheads:
                        for seed in self.seeds:
                            yield core.Session.start(core.Config(draft, width, seed, lookahead=lookahead,
                                                                 tables=tables)).run_to_end()


@dataclass(frozen=True)
class Sweep:
    """Where the claims are checked and how densely (see the module's docstring)."""

    name: str
    traces: Traces  # the exact tab's claims on traces
    payoff_traces: Traces  # the payoff tab's trace sentence (tables with a long run)
    exact: tuple  # (tables, width, k): the exact tab's reading, for every draft
    never_rejected_seeds: int  # runs that check "never rejected"
    payoff: tuple  # (tables, draft): the payoff tab's reading, tiles and gap
    costs: tuple  # the reading's costs
    tile_widths: tuple  # the kept tile's and the gap's widths
    lookahead: tuple  # (tables, draft, threshold)
    lookahead_costs: tuple
    least_checked: int  # the last-block claim met at least this often with an earlier history alike


SWEEPS = {
    "authored": Sweep(
        "authored", Traces((AUTHORED,), range(200), tuple(range(1, 9))),
        Traces((AUTHORED,), range(200), tuple(range(1, 9))),
        tuple((AUTHORED, w, k) for w in (1, 2, 3, 5, 8) for k in (1, 2, 3)), 50,
        tuple((AUTHORED, d) for d in DRAFTS), tuple(F(step, 100) for step in range(101)), tuple(range(1, 9)),
        tuple((AUTHORED, d, th) for d in DRAFTS for th in (F(1, 20), F(1, 10), F(3, 10), F(1, 2), F(9, 10))),
        (F(0), F(1, 10), F(1, 2), F(1)), 3_000),
    # One draft per table in turn (a payoff table is about 0.3 s on new tables): every table, every draft.
    # The lookahead: the same drafts on two tables of three (their fixed-width long runs are core's cache
    # by then), one threshold each in turn.
    "random": Sweep(
        "random", Traces(TABLES, range(4), (1, 3)), Traces(LONG_RUN[::3], range(2), (1, 3), (None,)),
        tuple((t, w, k) for t in TABLES[::2] for w, k in ((1, 2), (2, 2))), 10,
        tuple((t, DRAFTS[(2 - i) % 3]) for i, t in enumerate(LONG_RUN)), (F(0), F(1, 10), F(1, 2), F(1)), (1, 3),
        tuple((t, DRAFTS[(2 - i % 3) % 3], (F(1, 10), F(3, 10), F(1, 2))[(i // 2) % 3])
              for i, t in enumerate(LONG_RUN) if i % 3 != 2),
        (F(1, 10), F(1, 2)), 20),
}
sweeps = pytest.mark.parametrize("sweep", SWEEPS.values(), ids=SWEEPS)


def test_the_random_sweep_meets_tables_with_and_without_a_long_run():
    assert len(TABLES) == N_TABLES and 25 <= len(LONG_RUN) < N_TABLES
    assert {d for _, d in SWEEPS["random"].payoff} == set(DRAFTS)


@lru_cache(maxsize=None)
def ordinary(seed, tables):
    return sampler.ordinary_output(seed, tables=tables)


# ---- "Why it is exact": same distribution, different trace ----------------------------------

@sweeps
def test_part_ways_for_good_only_when_the_outputs_never_agree_again(sweep):
    said = {"same": 0, "for good": 0, "again": 0}
    for session in sweep.traces:
        spec, ords = session.output, ordinary(session.config.seed, session.config.tables)
        sentence = exact_words.agreement(spec, ords)
        differ = [i for i in range(len(spec)) if spec[i] != ords[i]]
        if not differ:
            assert sentence == "This time they write the same text."
            said["same"] += 1
            continue
        later = [i for i in range(differ[0] + 1, len(spec)) if spec[i] == ords[i]]
        never = "for good" in sentence or "never agree again" in sentence
        assert never == (not later), (session.config, sentence)
        if later:
            assert exact_words.positions_text(later) + " match" in sentence
            said["again"] += 1
        else:
            said["for good"] += 1
        if differ[0]:
            first = "first token" if differ[0] == 1 else f"first {differ[0]} tokens"
            assert f"agree on the {first}" in sentence
        else:
            assert "differ from the very first token" in sentence
    assert all(said.values()), said  # every kind of sentence was met


@sweeps
def test_the_draw_count_is_every_draw_the_trace_consumed(sweep):
    for session in sweep.traces:
        c = session.counters
        uses = exact_words.draw_uses(session)
        assert len(uses) == c.proposed + c.accepted + c.rejected + c.corrections + c.bonus
        ords = ordinary(session.config.seed, session.config.tables)
        sentence = exact_words.draws_sentence(len(uses), session.output, ords)
        assert f"{len(uses)} draws for these {len(session.output)} tokens against ordinary decoding's {len(ords)}" \
            in sentence


def test_positions_are_written_as_runs():
    assert exact_words.positions_text([3, 4]) == "positions 4–5"
    assert exact_words.positions_text([2]) == "position 3"
    assert exact_words.positions_text([1, 3, 4, 7]) == "positions 2, 4–5 and 8"


# ---- "Why it is exact": the exact result ----------------------------------------------------

@sweeps
@pytest.mark.parametrize("variant", core.VARIANTS)
def test_the_reading_names_the_largest_gap_its_direction_and_where_the_rule_departs(sweep, variant):
    for tables, width, k in sweep.exact:
        greedy = exact.greedy_target(k, tables=tables)
        for draft in DRAFTS:
            c = exact.compare(draft, width, k, variant, tables=tables)
            text = " ".join(exact_words.rule_reading(c, core.variants.VARIANTS[variant], greedy))
            prefixes = sorted(set(c.result) | set(c.target))
            gaps = {s: c.result.get(s, 0) - c.target.get(s, 0) for s in prefixes}
            if variant == "greedy":
                assert ("it holds" in text) == (c.result == {greedy: 1})
                continue
            if not any(gaps.values()):
                assert "distance 0" in text and "too often" not in text and "too rarely" not in text
                if "never rejected" in text:
                    assert all(core.Session.start(core.Config(draft, width, s, tables=tables)).run_to_end()
                               .counters.rejected == 0 for s in range(sweep.never_rejected_seeds))
                continue
            worst = max(prefixes, key=lambda s: abs(gaps[s]))
            assert f"starts the text with {' '.join(worst)} with probability" in text
            assert ("too often" in text) == (gaps[worst] > 0)
            departs = next(j for j in range(1, k + 1)
                           if exact.marginal(c.result, j) != exact.marginal(c.target, j))
            assert f"part ways already at token {departs}." in text


# ---- "When it pays off": the reading --------------------------------------------------------

@sweeps
def test_best_width_is_the_argmax_and_the_slower_widths_are_the_slower_ones(sweep):
    for tables, draft in sweep.payoff:
        for cost in sweep.costs:
            table = payoff.payoff_table(draft, cost, tables=tables)
            text = payoff_words.reading(table, draft, cost)
            speedups = [r.speedup for r in table.rows]
            best = 1 + max(range(8), key=lambda i: (speedups[i], -i))
            closed = 1 + max(range(8), key=lambda i: (table.rows[i].closed_speedup, -i))
            if speedups[best - 1] <= 1:
                assert f"no width pays off: even the best, width {best}," in text
            else:
                assert f"width {best} is best" in text
            assert ("The paper's closed form agrees" in text) == (closed == best)
            slower = [i + 1 for i, s in enumerate(speedups) if s < 1]
            if "From width" in text:
                start = int(text.split("From width ")[1].split()[0])
                assert slower == list(range(start, 9))
            if "are slower than ordinary decoding" in text:
                assert slower and slower != list(range(slower[0], 9))
            if "the widest block wins" in text:
                assert best == 8 and all(s > 1 for s in speedups)


@sweeps
def test_the_alpha_tile_is_the_papers_alpha_and_the_kept_tile_the_counters_share(sweep):
    for tables, draft in sweep.payoff:
        a = payoff.alpha(draft, tables=tables)
        value, what = payoff_words.alpha_tile(a)
        assert value == display.exact_or_dec(a, 3) and "α of the closed form" in what
        for width in sweep.tile_widths:
            r = rates.rates(draft, width, tables=tables)
            assert rates.kept_share(draft, width, tables=tables) == r.kept_share  # two routes, one number
            value, what = payoff_words.kept_tile(r.kept_share, width)
            assert value == display.dec(r.kept_share, 4) and f"at width {width}" in what


@sweeps
def test_the_gap_at_width_1_comes_only_from_where_blocks_start(sweep):
    """The note's claim, as identities: at width 1 exact = 1 + Σ starts·kept, closed = 1 + Σ visits·kept."""
    for tables, draft in sweep.payoff:
        r1 = rates.rates(draft, 1, tables=tables)
        kept = rates.kept_after(draft, tables=tables)
        row1 = payoff.payoff(draft, 1, F(1, 10), tables=tables)
        assert row1.tokens_per_pass == 1 + sum(r1.block_starts[s] * kept[s] for s in core.TOKENS)
        assert row1.closed_tokens_per_pass == 1 + sum(r1.visits[s] * kept[s] for s in core.TOKENS)
        for width in sweep.tile_widths:
            rw = rates.rates(draft, width, tables=tables)
            roww = payoff.payoff(draft, width, F(1, 10), tables=tables)
            text = " ".join(payoff_words.gap(row1, r1, roww, rw, kept))
            if r1.alpha == 1:
                assert "coincide" in text and roww.tokens_per_pass == roww.closed_tokens_per_pass == width + 1
                continue
            # "the chance depends on the token before" only when it does.
            assert ("depends on the token before" in text) == (len(set(kept.values())) > 1), (tables, draft)
            assert f"{display.dec(row1.tokens_per_pass, 3)} tokens per pass exact" in text
            assert f"kept with chance {display.dec(r1.kept_share, 4)}" in text
            if width > 1:
                chances = [rw.kept[i] / rw.reached[i] for i in range(width) if rw.reached[i]]
                assert ", ".join(display.dec(x, 3) for x in chances[:-1]) in text
                assert f"{display.dec(roww.tokens_per_pass, 3)} tokens per pass exact" in text


def test_the_gap_says_the_chance_depends_on_the_token_before_only_when_it_does():
    """Rows equal after every token: the chance is the same everywhere, and the note says so."""
    tables = Tables(((F(1, 2), F(1, 4), F(1, 4)),) * 4, ((F(1, 4), F(1, 2), F(1, 4)),) * 4)
    kept = rates.kept_after("custom", tables=tables)
    assert len(set(kept.values())) == 1
    r1, r3 = rates.rates("custom", 1, tables=tables), rates.rates("custom", 3, tables=tables)
    row1, row3 = (payoff.payoff("custom", w, F(1, 10), tables=tables) for w in (1, 3))
    text = " ".join(payoff_words.gap(row1, r1, row3, r3, kept))
    assert "depends on the token before" not in text and "the same after every token" in text


@sweeps
def test_lookahead_backfires_only_when_it_is_slower_and_never_stops_only_when_the_curves_agree(sweep):
    seen = set()
    for tables, draft, threshold in sweep.lookahead:
        chances = rates.keep_chances(draft, tables=tables)
        for cost in sweep.lookahead_costs:
            fixed_table = payoff.payoff_table(draft, cost, tables=tables)
            dyn_table = payoff.payoff_table(draft, cost, threshold, tables=tables)
            fixed = fixed_table.rows[fixed_table.best_width - 1]
            dyn = dyn_table.rows[dyn_table.best_width - 1]
            text = payoff_words.lookahead(draft, threshold, fixed, dyn, chances)
            if "never stops early" in text:
                assert [r.speedup for r in dyn_table.rows] == [r.speedup for r in fixed_table.rows]
                seen.add("never")
                continue
            assert ("backfires" in text) == (dyn.speedup < fixed.speedup)
            assert ("makes no difference" in text) == (dyn.speedup == fixed.speedup)
            assert ("helps" in text) == (dyn.speedup > fixed.speedup)
            seen.add("stops")
            if "target keeps every one of those" in text:
                assert all(c.accept == 1 for c in chances if c.q < threshold and c.last)
    assert seen == {"never", "stops"}, seen  # both kinds of sentence were met


# ---- "When it pays off": the trace ----------------------------------------------------------

def test_the_counter_average_quoted_is_what_the_counters_of_many_seeds_average():
    """On the authored tables: the exact average of ``core.passes`` is what 200 seeds' counters average."""
    for draft in DRAFTS:
        for width in range(1, 9):
            for lookahead in (None, F(3, 10)):
                counters = [core.Session.start(core.Config(draft, width, s, lookahead=lookahead))
                            .run_to_end().counters for s in range(200)]
                expect = passes.passes(draft, width, lookahead=lookahead)
                average = sum(c.tokens_per_pass for c in counters) / len(counters)
                assert abs(float(average - expect.mean_tokens_per_pass)) < 0.15, (draft, width, lookahead)


@sweeps
def test_the_trace_quotes_the_average_and_says_the_last_block_cut_only_when_a_free_run_goes_differently(sweep):
    checked = cut = 0
    for session in sweep.payoff_traces:
        cfg = session.config
        expect = passes.passes(cfg.draft, cfg.width, lookahead=cfg.lookahead, tables=cfg.tables)
        text = payoff_words.trace(session, F(1, 10), expect, cfg.draft, cfg.lookahead)
        assert f"counter averages {display.dec(expect.mean_tokens_per_pass)}." in text
        said = "cut its last block short" in text
        assert said == payoff_words.last_block_cut(session)
        free = core.Session.start(cfg.replace(max_tokens=64)).run_to_end()
        blocks, last = session.blocks, len(session.blocks) - 1
        if any(blocks[i].committed != free.blocks[i].committed or len(blocks[i].proposals) !=
               len(free.blocks[i].proposals) for i in range(last)):
            continue  # an earlier block was already cut: the free run has another history
        b, f = blocks[last], free.blocks[last]
        differs = (len(b.proposals), b.committed) != (len(f.proposals), f.committed)
        assert said == differs, (cfg, said)
        checked += 1
        cut += said
    assert checked > sweep.least_checked and 0 < cut < checked
