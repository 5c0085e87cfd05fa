"""When several candidates per position pay off: exact long-run figures."""

from fractions import Fraction as F

import pytest

from core import payoff, tree_payoff
from core.tree import tree_size


@pytest.mark.parametrize("draft", ["aligned", "biased"])
@pytest.mark.parametrize("width", range(1, 9))
def test_one_candidate_gives_the_single_draft_long_run(draft, width):
    assert tree_payoff.tokens_per_pass(draft, 1, width) == payoff.long_run(draft, width)[0]


def test_the_aligned_draft_is_always_accepted_so_a_block_gives_width_plus_one():
    for k in (1, 2, 3):
        assert tree_payoff.tokens_per_pass("aligned", k, 4) == 5


def test_more_candidates_give_more_tokens_per_pass_for_the_biased_draft():
    for width in range(1, 9):
        e = [tree_payoff.tokens_per_pass("biased", k, width) for k in (1, 2, 3)]
        assert e[0] < e[1] < e[2] <= width + 1


def test_width_one_by_hand_after_a_fixed_token_is_one_plus_the_chance_of_acceptance():
    """Width 1: a block commits 2 tokens when a candidate is accepted, else 1 (the correction)."""
    from core.tree_exact import position
    for k in (1, 2, 3):
        ends = tree_payoff._ends("exact", "biased", k, 1, "A")
        accepted, _ = position("exact", "biased", k, "A")
        assert sum(n * pe for (n, _), pe in ends.items()) == 1 + sum(accepted)


def test_draft_cost_counts_every_node_of_the_tree():
    r = tree_payoff.tree_payoff("biased", 3, 2, "1/10")
    assert r.draft_tokens == tree_size(3, 2) == 12
    assert r.time_per_token == (1 + F(12, 10)) / r.tokens_per_pass
    assert r.speedup == 1 / r.time_per_token


def test_a_free_draft_prefers_three_candidates_and_the_widest_tree():
    best = tree_payoff.tree_payoff_table("biased", 0).best
    assert (best.candidates, best.width) == (3, 8)


@pytest.mark.parametrize("cost", ["0.1", "0.5"])
def test_a_costly_draft_prefers_one_candidate(cost):
    t = tree_payoff.tree_payoff_table("biased", cost)
    assert t.best.candidates == 1
    assert t.best.time_per_token == payoff.payoff("biased", t.best.width, cost).time_per_token


def test_bad_input_is_refused_in_a_sentence():
    with pytest.raises(ValueError, match="draft cost"):
        tree_payoff.tree_payoff_table("biased", "-1")
    with pytest.raises(ValueError, match="width"):
        tree_payoff.tokens_per_pass("biased", 2, 9)
    with pytest.raises(ValueError, match="draft table"):
        tree_payoff.tokens_per_pass("heads", 2, 2)
