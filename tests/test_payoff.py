"""When speculation pays off: exact expectations, the paper's closed form, lookahead."""

import math
from fractions import Fraction as F

import pytest

from core import Counters, payoff, simulate


@pytest.mark.parametrize("width", range(1, 9))
def test_the_aligned_draft_commits_width_plus_one_per_pass(width):
    row = payoff.payoff("aligned", width, 0)
    assert row.tokens_per_pass == width + 1
    assert row.alpha == 1 and row.closed_tokens_per_pass == width + 1


@pytest.mark.parametrize("width", range(1, 8))
def test_the_aligned_draft_first_block_is_width_plus_one_until_the_limit(width):
    first = simulate("aligned", width, 0).blocks[0]
    assert len(first.committed) == width + 1


def test_the_closed_form_matches_the_paper_on_hand_computed_values():
    # alpha = 1/2, gamma = 3: E = (1 - 1/16) / (1/2) = 15/8
    assert payoff.closed_tokens_per_pass(F(1, 2), 3) == F(15, 8)
    # Theorem 3.8 with c = 1/10: time per token = (3/10 + 1) / (15/8) = 52/75
    assert payoff.closed_time_per_token(F(1, 2), 3, F(1, 10)) == F(52, 75)
    # alpha = 0: every proposal rejected, one token per pass
    assert payoff.closed_tokens_per_pass(0, 5) == 1


def test_alpha_is_the_visit_weighted_overlap_of_p_and_q():
    # The target's stationary visits over A, B, C, then sum(min(p, q)) per state.
    assert payoff.alpha("biased") == F(17, 30)
    assert payoff.alpha("aligned") == 1


def test_stationary_distribution_is_exact():
    chain = {"A": {"A": F(1, 2), "B": F(1, 2), "C": 0}, "B": {"A": 0, "B": F(1, 2), "C": F(1, 2)},
             "C": {"A": F(1, 2), "B": 0, "C": F(1, 2)}}
    assert payoff.stationary(chain) == {"A": F(1, 3), "B": F(1, 3), "C": F(1, 3)}


def test_exact_and_closed_form_differ_for_position_dependent_tables_but_stay_close():
    row = payoff.payoff("biased", 3, F(1, 10))
    assert row.tokens_per_pass != row.closed_tokens_per_pass
    assert abs(row.tokens_per_pass - row.closed_tokens_per_pass) < F(1, 10)


def test_the_best_width_shrinks_as_drafting_gets_expensive():
    free = payoff.payoff_table("biased", 0)
    costly = payoff.payoff_table("biased", 1)
    assert free.best_width == 8  # free drafting: longer is never worse
    assert costly.best_width == 1
    middle = payoff.payoff_table("biased", F(1, 10)).best_width
    assert costly.best_width <= middle <= free.best_width
    for table in (free, costly):
        best = next(r for r in table.rows if r.width == table.best_width)
        assert all(best.time_per_token <= r.time_per_token for r in table.rows)


@pytest.mark.parametrize("draft, width", [("biased", 1), ("biased", 3), ("biased", 6), ("aligned", 3)])
def test_expected_passes_agree_with_20000_seeded_traces(draft, width):
    n = 20_000
    expected = payoff.trace_expectation(draft, width)
    passes = [simulate(draft, width, seed).counters.target_passes for seed in range(n)]
    mean = sum(passes) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in passes) / (n - 1))
    assert abs(mean - float(expected.target_passes)) <= 4 * sd / math.sqrt(n) + 1e-12
    pooled = 8 * n / sum(passes)
    assert pooled == pytest.approx(float(expected.tokens_per_pass), rel=0.01)


def test_trace_expectation_for_the_aligned_draft_is_deterministic():
    assert payoff.trace_expectation("aligned", 3).target_passes == 2
    assert payoff.trace_expectation("aligned", 5).target_passes == 2  # 6 tokens, then 2 with no bonus
    assert payoff.trace_expectation("aligned", 3).draft_steps == 6


def test_a_trace_point_is_its_own_counters_priced():
    counters = Counters(target_passes=2, draft_steps=6, proposed=6, accepted=6, committed=8)
    assert payoff.trace_time_per_token(counters, F(1, 10)) == (F(6, 10) + 2) / 8
    assert payoff.trace_speedup(counters, F(1, 10)) == 8 / (F(6, 10) + 2)
    assert payoff.trace_time_per_token(Counters(), 1) is None and payoff.trace_speedup(Counters(), 1) is None


@pytest.mark.parametrize("width", [1, 3, 8])
@pytest.mark.parametrize("seed", range(30))
def test_lookahead_zero_behaves_exactly_like_the_fixed_width(width, seed):
    assert simulate("biased", width, seed, lookahead=F(0)).blocks == simulate("biased", width, seed).blocks


def test_lookahead_stops_drafting_early_and_changes_the_counters():
    fixed = [simulate("biased", 6, s).counters for s in range(200)]
    early = [simulate("biased", 6, s, lookahead=F(1, 2)) for s in range(200)]
    assert any(b.stopped_early for t in early for b in t.blocks)
    assert sum(t.counters.draft_steps for t in early) < sum(c.draft_steps for c in fixed)
    assert payoff.payoff("biased", 6, 0, lookahead=F(1, 2)).draft_steps_per_pass < 6
    assert payoff.payoff("biased", 6, 0, lookahead=F(1, 2)).closed_tokens_per_pass is None


def test_expected_draft_steps_with_lookahead_agree_with_seeded_traces():
    n = 20_000
    expected = payoff.trace_expectation("biased", 5, lookahead=F(1, 2))
    steps = [simulate("biased", 5, s, lookahead=F(1, 2)).counters.draft_steps for s in range(n)]
    mean = sum(steps) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in steps) / (n - 1))
    assert abs(mean - float(expected.draft_steps)) <= 4 * sd / math.sqrt(n)


def test_the_lookup_drafts_heuristic_chain_at_temperature_one_quarter_costs_bounded_work(monkeypatch):
    """Issue 24 item 8: ``payoff --draft lookup --schedule heuristic --temperature 1/4`` took
    ~15 s, then 3.8 s, whatever the cost c (the chain never sees c): state reduction over the
    rationals carried numbers of 13,000 bits. ``core.markov`` eliminates once modulo
    2**521 - 1, where no number is longer than the modulus, then solves once per 521-bit digit
    of the answer: its 2,092-digit denominator needs 27, and the schedule that tries to read
    the answer back may lift a few more, never half as many again (bench/bench_payoff.py
    prints the time: about 0.6 s of CPU for the whole request)."""
    from core import markov
    from core.transform import Transform

    solves, longest = [0], [0]
    real_solve, real_factor = markov._solve, markov._factor

    def solve(*args):
        solves[0] += 1
        return real_solve(*args)

    def factor(*args):
        steps = real_factor(*args)
        longest[0] = max(x.bit_length() for _, inv, exits, sources in steps
                         for x in (inv, *exits.values(), *sources.values()))
        return steps

    monkeypatch.setattr(markov, "_solve", solve)
    monkeypatch.setattr(markov, "_factor", factor)
    payoff.chain.cache_clear()
    payoff.long_run.cache_clear()
    per_pass, steps = payoff.long_run("lookup", 1, None, "exact", "heuristic", Transform(F(1, 4), None, "both"))
    payoff.chain.cache_clear()
    payoff.long_run.cache_clear()
    assert float(per_pass) == pytest.approx(4.3943, abs=5e-5)
    assert len(str(per_pass.denominator)) > 1000  # still exact, every digit
    assert longest[0] <= 521
    assert 27 <= solves[0] <= 40, f"{solves[0]} lifting steps"


@pytest.mark.parametrize("wild, drafts_like", [("greedy-draft", "greedy"), ("greedy-one-hot", "greedy"),
                                               ("typical", "exact")])
def test_a_rule_from_the_wild_with_lookahead_drafts_as_many_proposals_as_the_rule_it_drafts_like(wild, drafts_like):
    """Issue 24: ``_drafted`` looked the rule up among the app's rules only, so payoff, rates and
    trace_expectation with lookahead and greedy-draft, greedy-one-hot or typical raised KeyError.
    Greedy drafting proposes argmax q as ``greedy`` does; typical acceptance samples from q as the
    exact rule does: the same expected proposals per block, from every state, at every width."""
    from core import drafts, rates
    drafter = drafts.setup("biased").drafter
    for width in (1, 2, 5):
        for state in ("A", "B", "C"):
            expected = payoff._drafted(drafts_like, drafter, width, state, F(1, 2))
            assert payoff._drafted(wild, drafter, width, state, F(1, 2)) == expected
    row = payoff.payoff("biased", 3, F(1, 10), lookahead=F(1, 2), variant=wild)
    assert 1 <= row.draft_steps_per_pass <= 3 and row.tokens_per_pass > 1
    assert payoff.trace_expectation("biased", 3, 6, lookahead=F(1, 2), variant=wild).draft_steps > 0
    assert rates.rates("biased", 3, F(1, 2), wild).proposals_per_block <= 3
