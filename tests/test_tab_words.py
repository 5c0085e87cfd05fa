"""The tabs' sentences, checked against the engine over many scenarios (issue 11).

A sentence about what is on screen may say only what ``core``'s numbers
make true. Each test sweeps scenarios (both drafts, widths 1 to 8, seeds 0
to 199, with and without lookahead, costs and thresholds on the sliders),
lets the words function speak, and checks its claim by an independent route:
the raw outputs, a run without the output limit, the counters of many
seeds, the rows of the payoff tables.
"""

from fractions import Fraction as F
from functools import lru_cache

import pytest

import core
from core import display, exact, passes, payoff, rates, sampler

from app.exact import words as exact_words
from app.payoff import words as payoff_words

SEEDS = range(200)
WIDTHS = range(1, 9)
LOOKAHEADS = (None, F(3, 10))


@lru_cache(maxsize=None)
def ordinary(seed):
    return sampler.ordinary_output(seed)


def traces(max_tokens=core.MAX_TOKENS):
    for draft in core.DRAFTS:
        for width in WIDTHS:
            for lookahead in LOOKAHEADS:
                for seed in SEEDS:
                    config = core.Config(draft, width, seed, max_tokens, lookahead=lookahead)
                    yield core.Session.start(config).run_to_end()


# ---- "Why it is exact": same distribution, different trace ----------------------------------

def test_part_ways_for_good_only_when_the_outputs_never_agree_again():
    said = {"same": 0, "for good": 0, "again": 0}
    for session in traces():
        spec, ords = session.output, ordinary(session.config.seed)
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


def test_the_draw_count_is_every_draw_the_trace_consumed():
    for session in traces():
        c = session.counters
        uses = exact_words.draw_uses(session)
        assert len(uses) == c.proposed + c.accepted + c.rejected + c.corrections + c.bonus
        sentence = exact_words.draws_sentence(len(uses), session.output, ordinary(session.config.seed))
        assert f"{len(uses)} draws for these {len(session.output)} tokens against ordinary decoding's 8" in sentence


def test_positions_are_written_as_runs():
    assert exact_words.positions_text([3, 4]) == "positions 4–5"
    assert exact_words.positions_text([2]) == "position 3"
    assert exact_words.positions_text([1, 3, 4, 7]) == "positions 2, 4–5 and 8"


# ---- "Why it is exact": the exact result ----------------------------------------------------

@pytest.mark.parametrize("variant", core.VARIANTS)
def test_the_reading_names_the_largest_gap_its_direction_and_where_the_rule_departs(variant):
    for draft in core.DRAFTS:
        for width in (1, 2, 3, 5, 8):
            for k in (1, 2, 3):
                c = exact.compare(draft, width, k, variant)
                text = " ".join(exact_words.rule_reading(c, core.variants.VARIANTS[variant],
                                                         exact.greedy_target(k)))
                prefixes = sorted(set(c.result) | set(c.target))
                gaps = {s: c.result.get(s, 0) - c.target.get(s, 0) for s in prefixes}
                if variant == "greedy":
                    assert ("it holds" in text) == (c.result == {exact.greedy_target(k): 1})
                    continue
                if not any(gaps.values()):
                    assert "distance 0" in text and "too often" not in text and "too rarely" not in text
                    if "never rejected" in text:
                        assert all(core.Session.start(core.Config(draft, width, s)).run_to_end()
                                   .counters.rejected == 0 for s in range(50))
                    continue
                worst = max(prefixes, key=lambda s: abs(gaps[s]))
                assert f"starts the text with {' '.join(worst)} with probability" in text
                assert ("too often" in text) == (gaps[worst] > 0)
                departs = next(j for j in range(1, k + 1)
                               if exact.marginal(c.result, j) != exact.marginal(c.target, j))
                assert f"part ways already at token {departs}." in text


# ---- "When it pays off": the reading --------------------------------------------------------

@pytest.mark.parametrize("draft", core.DRAFTS)
def test_best_width_is_the_argmax_and_the_slower_widths_are_the_slower_ones(draft):
    for step in range(0, 101):
        cost = F(step, 100)
        table = payoff.payoff_table(draft, cost)
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


def test_the_alpha_tile_is_the_papers_alpha_and_the_kept_tile_the_counters_share():
    for draft in core.DRAFTS:
        value, what = payoff_words.alpha_tile(payoff.alpha(draft))
        assert value == display.exact_or_dec(payoff.alpha(draft), 3) and "α of the closed form" in what
        for width in WIDTHS:
            r = rates.rates(draft, width)
            assert rates.kept_share(draft, width) == r.kept_share  # two routes, one number
            value, what = payoff_words.kept_tile(rates.kept_share(draft, width), width)
            assert value == display.dec(r.kept_share, 4) and f"at width {width}" in what


@pytest.mark.parametrize("draft", core.DRAFTS)
def test_the_gap_at_width_1_comes_only_from_where_blocks_start(draft):
    """The note's claim, as identities: at width 1 exact = 1 + Σ starts·kept, closed = 1 + Σ visits·kept."""
    r1 = rates.rates(draft, 1)
    kept = rates.kept_after(draft)
    row1 = payoff.payoff(draft, 1, F(1, 10))
    assert row1.tokens_per_pass == 1 + sum(r1.block_starts[s] * kept[s] for s in core.TOKENS)
    assert row1.closed_tokens_per_pass == 1 + sum(r1.visits[s] * kept[s] for s in core.TOKENS)
    for width in WIDTHS:
        rw = rates.rates(draft, width)
        roww = payoff.payoff(draft, width, F(1, 10))
        text = " ".join(payoff_words.gap(row1, r1, roww, rw, kept))
        if r1.alpha == 1:
            assert "coincide" in text and roww.tokens_per_pass == roww.closed_tokens_per_pass == width + 1
            continue
        assert f"{display.dec(row1.tokens_per_pass, 3)} tokens per pass exact" in text
        assert f"kept with chance {display.dec(r1.kept_share, 4)}" in text
        if width > 1:
            chances = [rw.kept[i] / rw.reached[i] for i in range(width)]
            assert ", ".join(display.dec(x, 3) for x in chances[:-1]) in text
            assert f"{display.dec(roww.tokens_per_pass, 3)} tokens per pass exact" in text


@pytest.mark.parametrize("draft", core.DRAFTS)
def test_lookahead_backfires_only_when_it_is_slower_and_never_stops_only_when_the_curves_agree(draft):
    for threshold in (F(1, 20), F(1, 10), F(3, 10), F(1, 2), F(9, 10)):
        for cost in (F(0), F(1, 10), F(1, 2), F(1)):
            fixed_table = payoff.payoff_table(draft, cost)
            dyn_table = payoff.payoff_table(draft, cost, threshold)
            fixed = fixed_table.rows[fixed_table.best_width - 1]
            dyn = dyn_table.rows[dyn_table.best_width - 1]
            text = payoff_words.lookahead(draft, threshold, fixed, dyn, rates.keep_chances(draft))
            if "never stops early" in text:
                assert [r.speedup for r in dyn_table.rows] == [r.speedup for r in fixed_table.rows]
                continue
            assert ("backfires" in text) == (dyn.speedup < fixed.speedup)
            assert ("makes no difference" in text) == (dyn.speedup == fixed.speedup)
            assert ("helps" in text) == (dyn.speedup > fixed.speedup)
            if "target keeps every one of those" in text:
                assert all(c.accept == 1 for c in rates.keep_chances(draft) if c.q < threshold and c.last)


# ---- "When it pays off": the trace ----------------------------------------------------------

def test_the_counter_average_quoted_is_what_the_counters_of_many_seeds_average():
    for draft in core.DRAFTS:
        for width in WIDTHS:
            for lookahead in LOOKAHEADS:
                counters = [core.Session.start(core.Config(draft, width, s, lookahead=lookahead))
                            .run_to_end().counters for s in SEEDS]
                expect = passes.passes(draft, width, lookahead=lookahead)
                average = sum(c.tokens_per_pass for c in counters) / len(counters)
                assert abs(float(average - expect.mean_tokens_per_pass)) < 0.15, (draft, width, lookahead)
                session = core.Session.start(core.Config(draft, width, 0, lookahead=lookahead)).run_to_end()
                text = payoff_words.trace(session, F(1, 10), expect, draft, lookahead)
                assert f"counter averages {display.dec(expect.mean_tokens_per_pass)}." in text


def test_the_last_block_is_said_cut_only_when_a_run_without_the_limit_goes_differently_there():
    checked = cut = 0
    for session in traces():
        cfg = session.config
        free = core.Session.start(cfg.replace(max_tokens=64)).run_to_end()
        blocks, last = session.blocks, len(session.blocks) - 1
        text = payoff_words.trace(session, F(1, 10), passes.passes(cfg.draft, cfg.width, lookahead=cfg.lookahead),
                                  cfg.draft, cfg.lookahead)
        said = "cut its last block short" in text
        assert said == payoff_words.last_block_cut(session)
        if any(blocks[i].committed != free.blocks[i].committed or len(blocks[i].proposals) !=
               len(free.blocks[i].proposals) for i in range(last)):
            continue  # an earlier block was already cut: the free run has another history
        b, f = blocks[last], free.blocks[last]
        differs = (len(b.proposals), b.committed) != (len(f.proposals), f.committed)
        assert said == differs, (cfg, said)
        checked += 1
        cut += said
    assert checked > 3_000 and 0 < cut < checked
