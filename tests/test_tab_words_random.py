"""The sentence claims of ``test_tab_words.py``, swept over 50 random rational tables (issue 29).

A link can carry any tables, so a sentence may not lean on the authored
numbers. The tables come from a seeded generator (rows a/d, b/d, c/d with d
up to 20, zeros allowed: both the target and the custom draft's q); each
claim is checked by the same independent route as in ``test_tab_words.py``,
on fewer scenarios per table so the sweep stays well under 20 seconds.
"""

import random
from fractions import Fraction as F
from functools import lru_cache

import pytest

import core
from core import display, exact, passes, payoff, rates, sampler
from core.tables import Tables

from app.exact import words as exact_words
from app.payoff import words as payoff_words

N_TABLES = 50


def row(rng):
    d = rng.randint(1, 20)
    a = rng.randint(0, d)
    b = rng.randint(0, d - a)
    return (F(a, d), F(b, d), F(d - a - b, d))


def random_tables(n=N_TABLES, seed=29):
    rng = random.Random(seed)
    return [Tables(tuple(row(rng) for _ in range(4)), tuple(row(rng) for _ in range(4))) for _ in range(n)]


TABLES = random_tables()
# The payoff tab's claims need a long run (the tab shows a notice instead: test_custom_tables_tabs.py).
LONG_RUN = [t for t in TABLES if t.unreachable() is None]
DRAFTS = ("aligned", "biased", "custom")


def test_the_sweep_meets_tables_with_and_without_a_long_run():
    assert len(TABLES) == N_TABLES and 25 <= len(LONG_RUN) < N_TABLES


@lru_cache(maxsize=None)
def ordinary(seed, tables):
    return sampler.ordinary_output(seed, tables=tables)


def traces(tables, seeds=range(4), widths=(1, 3), lookaheads=(None, F(3, 10))):
    for draft in DRAFTS:
        for width in widths:
            for lookahead in lookaheads:
                for seed in seeds:
                    yield core.Session.start(core.Config(draft, width, seed, lookahead=lookahead,
                                                         tables=tables)).run_to_end()


# ---- "Why it is exact": same distribution, different trace ----------------------------------------


def test_part_ways_and_the_draw_count_hold_on_random_tables():
    said = {"same": 0, "for good": 0, "again": 0}
    for tables in TABLES:
        for session in traces(tables):
            spec, ords = session.output, ordinary(session.config.seed, tables)
            sentence = exact_words.agreement(spec, ords)
            differ = [i for i in range(len(spec)) if spec[i] != ords[i]]
            if not differ:
                assert sentence == "This time they write the same text."
                said["same"] += 1
            else:
                later = [i for i in range(differ[0] + 1, len(spec)) if spec[i] == ords[i]]
                never = "for good" in sentence or "never agree again" in sentence
                assert never == (not later), (tables, session.config, sentence)
                if later:
                    assert exact_words.positions_text(later) + " match" in sentence
                said["again" if later else "for good"] += 1
            c = session.counters
            uses = exact_words.draw_uses(session)
            assert len(uses) == c.proposed + c.accepted + c.rejected + c.corrections + c.bonus
            words = exact_words.draws_sentence(len(uses), spec, ords)
            assert f"{len(uses)} draws for these {len(spec)} tokens against ordinary decoding's {len(ords)}" in words
    assert all(said.values()), said


# ---- "Why it is exact": the exact result ----------------------------------------------------------


@pytest.mark.parametrize("variant", core.VARIANTS)
def test_the_reading_names_the_largest_gap_on_random_tables(variant):
    for tables in TABLES[::2]:
        for draft in DRAFTS:
            for width, k in ((1, 2), (2, 2)):
                c = exact.compare(draft, width, k, variant, tables=tables)
                greedy = exact.greedy_target(k, tables=tables)
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
                                   .counters.rejected == 0 for s in range(10))
                    continue
                worst = max(prefixes, key=lambda s: abs(gaps[s]))
                assert f"starts the text with {' '.join(worst)} with probability" in text
                assert ("too often" in text) == (gaps[worst] > 0)
                departs = next(j for j in range(1, k + 1)
                               if exact.marginal(c.result, j) != exact.marginal(c.target, j))
                assert f"part ways already at token {departs}." in text


# ---- "When it pays off" ---------------------------------------------------------------------------


def test_best_width_alpha_kept_and_gap_hold_on_random_tables():
    # One draft per table, in turn (a payoff table is about 0.3 s on new tables): every table, every draft.
    for i, tables in enumerate(LONG_RUN):
        for draft in (("custom", "biased", "aligned")[i % 3],):
            for cost in (F(0), F(1, 10), F(1, 2), F(1)):
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
            a = payoff.alpha(draft, tables=tables)
            value, what = payoff_words.alpha_tile(a)
            assert value == display.exact_or_dec(a, 3) and "α of the closed form" in what
            r1 = rates.rates(draft, 1, tables=tables)
            kept = rates.kept_after(draft, tables=tables)
            row1 = payoff.payoff(draft, 1, F(1, 10), tables=tables)
            assert row1.tokens_per_pass == 1 + sum(r1.block_starts[s] * kept[s] for s in core.TOKENS)
            assert row1.closed_tokens_per_pass == 1 + sum(r1.visits[s] * kept[s] for s in core.TOKENS)
            for width in (1, 3):
                rw = rates.rates(draft, width, tables=tables)
                assert rates.kept_share(draft, width, tables=tables) == rw.kept_share
                value, what = payoff_words.kept_tile(rw.kept_share, width)
                assert value == display.dec(rw.kept_share, 4) and f"at width {width}" in what
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


def test_lookahead_sentences_hold_on_random_tables():
    # The drafts of the test above on the same tables (their fixed-width long runs are core's cache by
    # now), every such table, one threshold each in turn: only the lookahead chain is new.
    seen = set()
    for i, tables in enumerate(LONG_RUN):
        if i % 3 == 2:
            continue
        draft, threshold = ("custom", "biased")[i % 3], (F(1, 10), F(3, 10), F(1, 2))[(i // 2) % 3]
        chances = rates.keep_chances(draft, tables=tables)
        for cost in (F(1, 10), F(1, 2)):
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
    assert seen == {"never", "stops"}, seen


def test_the_trace_sentences_hold_on_random_tables():
    checked = 0
    for tables in LONG_RUN[::3]:
        for session in traces(tables, seeds=range(2), lookaheads=(None,)):
            cfg = session.config
            expect = passes.passes(cfg.draft, cfg.width, lookahead=cfg.lookahead, tables=tables)
            text = payoff_words.trace(session, F(1, 10), expect, cfg.draft, cfg.lookahead)
            assert f"counter averages {display.dec(expect.mean_tokens_per_pass)}." in text
            said = "cut its last block short" in text
            assert said == payoff_words.last_block_cut(session)
            free = core.Session.start(cfg.replace(max_tokens=64)).run_to_end()
            blocks, last = session.blocks, len(session.blocks) - 1
            if any(blocks[i].committed != free.blocks[i].committed
                   or len(blocks[i].proposals) != len(free.blocks[i].proposals) for i in range(last)):
                continue
            b, f = blocks[last], free.blocks[last]
            assert said == ((len(b.proposals), b.committed) != (len(f.proposals), f.committed)), cfg
            checked += 1
    assert checked > 20


def test_the_gap_says_the_chance_depends_on_the_token_before_only_when_it_does():
    """Rows equal after every token: the chance is the same everywhere, and the note says so."""
    tables = Tables(((F(1, 2), F(1, 4), F(1, 4)),) * 4, ((F(1, 4), F(1, 2), F(1, 4)),) * 4)
    kept = rates.kept_after("custom", tables=tables)
    assert len(set(kept.values())) == 1
    r1, r3 = rates.rates("custom", 1, tables=tables), rates.rates("custom", 3, tables=tables)
    row1, row3 = (payoff.payoff("custom", w, F(1, 10), tables=tables) for w in (1, 3))
    text = " ".join(payoff_words.gap(row1, r1, row3, r3, kept))
    assert "depends on the token before" not in text and "the same after every token" in text
