"""core.rates and core.passes: the numbers the tabs' sentences quote.

Each is checked against an independent route: the long-run tables of
``core.payoff`` (renewal reward), the paper's α, and the counters of many
seeded traces.
"""

from fractions import Fraction as F

import pytest

import core
from core import passes, payoff, rates

LOOKAHEADS = (None, F(1, 10), F(3, 10), F(1, 2))


@pytest.mark.parametrize("draft", core.DRAFTS)
def test_alpha_is_the_keep_chance_averaged_over_the_targets_own_visits(draft):
    after = rates.kept_after(draft)
    visits = rates.visits()
    assert sum(visits.values()) == 1
    assert sum(visits[s] * after[s] for s in core.TOKENS) == payoff.alpha(draft)


def test_the_biased_draft_keeps_half_after_a_four_fifths_after_b_two_fifths_after_c():
    assert rates.kept_after("biased") == {"": F(7, 10), "A": F(1, 2), "B": F(4, 5), "C": F(2, 5)}
    assert rates.visits() == {"A": F(1, 3), "B": F(1, 3), "C": F(1, 3)}
    assert payoff.alpha("biased") == F(17, 30)


@pytest.mark.parametrize("draft", core.DRAFTS)
@pytest.mark.parametrize("width", range(1, 9))
@pytest.mark.parametrize("lookahead", LOOKAHEADS)
def test_rates_give_back_the_long_run_tokens_and_draft_steps_per_pass(draft, width, lookahead):
    r = rates.rates(draft, width, lookahead)
    tokens, steps = payoff.long_run(draft, width, lookahead)
    assert r.tokens_per_pass == tokens
    assert r.proposals_per_block == steps
    assert sum(r.block_starts.values()) == 1
    assert all(0 <= r.kept[i] <= r.reached[i] for i in range(width))
    assert r.reached[0] == 1
    assert rates.kept_share(draft, width, lookahead) == r.kept_share


def test_at_width_1_the_kept_share_is_0_5775_not_alpha():
    r = rates.rates("biased", 1)
    assert f"{float(r.kept_share):.4f}" == "0.5775"
    assert r.kept_share != r.alpha
    assert r.kept_share == sum(r.block_starts[s] * rates.kept_after("biased")[s] for s in core.TOKENS)


def test_the_kept_share_is_what_the_counters_approach_over_many_blocks():
    accepted = proposed = 0
    for seed in range(400):
        c = core.Session.start(core.Config("biased", 2, seed, max_tokens=64)).run_to_end().counters
        accepted, proposed = accepted + c.accepted, proposed + c.proposed
    assert abs(accepted / proposed - float(rates.rates("biased", 2).kept_share)) < 0.02


def test_keep_chances_name_every_proposal_with_its_q_and_acceptance():
    chances = rates.keep_chances("biased")
    a_after_empty = next(c for c in chances if (c.last, c.token) == ("", "A"))
    assert (a_after_empty.q, a_after_empty.p, a_after_empty.accept) == (F(4, 5), F(1, 2), F(5, 8))
    assert all(c.accept == 1 for c in rates.keep_chances("aligned"))


@pytest.mark.parametrize("draft", core.DRAFTS)
@pytest.mark.parametrize("width", (1, 3, 8))
@pytest.mark.parametrize("lookahead", (None, F(3, 10)))
def test_pass_distribution_has_the_expected_passes_of_payoff(draft, width, lookahead):
    p = passes.passes(draft, width, lookahead=lookahead)
    assert sum(p.distribution.values()) == 1
    expect = payoff.trace_expectation(draft, width, lookahead=lookahead)
    assert p.mean_passes == expect.target_passes
    assert p.pooled_tokens_per_pass == expect.tokens_per_pass
    assert p.mean_tokens_per_pass >= p.pooled_tokens_per_pass  # Jensen


def test_aligned_width_3_always_takes_two_passes():
    assert passes.passes("aligned", 3).distribution == {2: 1}


@pytest.mark.parametrize("draft, width", [("biased", 3), ("biased", 1), ("aligned", 2)])
def test_the_counter_of_many_seeds_averages_mean_tokens_per_pass(draft, width):
    seeds = range(1_500)
    counters = [core.Session.start(core.Config(draft, width, s)).run_to_end().counters for s in seeds]
    average = sum(c.tokens_per_pass for c in counters) / len(counters)
    histogram = {}
    for c in counters:
        histogram[c.target_passes] = histogram.get(c.target_passes, 0) + 1
    p = passes.passes(draft, width)
    assert set(histogram) <= set(p.distribution)
    assert abs(float(average - p.mean_tokens_per_pass)) < 0.05
