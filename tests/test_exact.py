"""Exactness by enumeration: the rule's branches give the target's distribution.

Each test enumerates every branch of the algorithm with Fractions (no PRNG)
and compares with the target's own autoregressive distribution.
"""

from fractions import Fraction as F

import pytest

from core import exact

WIDTHS = range(1, 9)
DRAFTS = ("aligned", "biased")


def test_the_target_distribution_is_the_product_of_its_rows():
    dist = exact.target_distribution(2)
    assert dist[("A", "B")] == F("0.50") * F("0.60")
    assert dist[("C", "C")] == F("0.20") * F("0.50")
    assert sum(dist.values()) == 1 and len(dist) == 9


@pytest.mark.parametrize("draft", DRAFTS)
@pytest.mark.parametrize("width", WIDTHS)
def test_the_exact_rule_reproduces_the_target_for_8_tokens(draft, width):
    result = exact.output_distribution(draft, width, 8)
    assert sum(result.values()) == 1
    assert result == exact.target_distribution(8)


@pytest.mark.parametrize("draft", DRAFTS)
@pytest.mark.parametrize("width", WIDTHS)
def test_match_keep_is_exact_too(draft, width):
    assert exact.compare(draft, width, 8, "match-keep").distance == 0


@pytest.mark.parametrize("variant", ["naive-resample", "match-fresh"])
@pytest.mark.parametrize("width", WIDTHS)
def test_the_shortcuts_depart_from_the_target_with_the_biased_draft(variant, width):
    c = exact.compare("biased", width, 4, variant)
    assert c.distance > 0
    assert c.first_departure == 1  # already the first token is wrong
    assert sum(c.result.values()) == 1


def test_naive_resample_over_weights_the_token_the_draft_over_proposes():
    c = exact.compare("biased", 3, 1, "naive-resample")
    # the biased draft over-proposes A; resampling from p after a rejection adds p(A) on top
    assert c.result[("A",)] > c.target[("A",)] == F("0.5")
    assert c.result[("A",)] == F("0.5") + F(3, 8) * F("0.8") * F("0.5")
    assert c.distance == c.result[("A",)] - F("0.5")


def test_naive_resample_is_harmless_with_the_aligned_draft_since_it_never_rejects():
    assert exact.compare("aligned", 3, 4, "naive-resample").distance == 0


def test_match_fresh_departs_even_with_the_aligned_draft():
    assert exact.compare("aligned", 3, 2, "match-fresh").distance > 0


@pytest.mark.parametrize("draft", DRAFTS)
@pytest.mark.parametrize("width", WIDTHS)
def test_greedy_equals_greedy_decoding_of_the_target(draft, width):
    c = exact.compare(draft, width, 8, "greedy")
    assert c.greedy_equal
    assert c.result == {exact.greedy_target(8): 1}
    assert c.distance > 0  # a different promise: it is not sampling from p


def test_greedy_target_follows_the_most_likely_token():
    assert exact.greedy_target(4) == ("A", "B", "A", "B")


@pytest.mark.parametrize("draft", DRAFTS)
@pytest.mark.parametrize("threshold", [F(0), F(1, 10), F(1, 2), F(3, 4), F(1)])
@pytest.mark.parametrize("width", [2, 3, 5, 8])
def test_dynamic_lookahead_keeps_the_output_exact(draft, threshold, width):
    assert exact.output_distribution(draft, width, 6, lookahead=threshold) == exact.target_distribution(6)


def test_marginals_and_total_variation():
    a = {("A", "B"): F(1, 2), ("B", "A"): F(1, 2)}
    b = {("A", "A"): F(1, 4), ("A", "B"): F(1, 4), ("B", "A"): F(1, 2)}
    assert exact.marginal(a, 1) == {("A",): F(1, 2), ("B",): F(1, 2)}
    assert exact.total_variation(a, b) == F(1, 4)
    assert exact.total_variation(a, a) == 0


def test_k_outside_the_output_limit_is_refused():
    with pytest.raises(ValueError, match="k must be from 1 to max_tokens"):
        exact.output_distribution("biased", 3, 9)


def test_largest_gap_names_where_a_shortcut_is_most_wrong():
    c = exact.compare("biased", 3, 1, "naive-resample")
    assert c.largest_gap() == (("A",), c.result[("A",)] - F("0.5"))
    assert exact.compare("biased", 3, 2).largest_gap()[1] == 0
