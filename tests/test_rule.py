"""The acceptance rule and the residual, exactly as the seeds write them."""

from fractions import Fraction as F

import pytest

import toy_tables
from core import InputError, decompose, display, parse_distribution
from core import rule


def fr(*xs):
    return tuple(F(x) for x in xs)


def test_seed_001_example_comes_out_as_written():
    d = decompose(fr("0.6", "0.3", "0.1"), fr("0.2", "0.5", "0.3"))
    assert d.accepted == fr("0.2", "0.3", "0.1")
    assert d.rejection == F("0.4")
    assert d.positive_part == fr("0.4", "0", "0")
    assert d.residual == fr(1, 0, 0)
    assert d.final == fr("0.6", "0.3", "0.1")
    assert display.seed_lines(d) == [
        "accepted mass: [0.2, 0.3, 0.1]",
        "rejection probability: 0.4",
        "final distribution: [0.6, 0.3, 0.1]",
    ]


def test_equal_p_and_q_never_reject_and_never_divide_by_zero():
    p = fr("0.6", "0.3", "0.1")
    d = decompose(p, p)
    assert d.rejection == 0
    assert d.residual == fr(0, 0, 0)
    assert d.final == p


def test_disjoint_supports_reject_everything_and_the_residual_is_p():
    d = decompose(fr(1, 0), fr(0, 1))
    assert d.accepted == fr(0, 0)
    assert d.rejection == 1
    assert d.residual == fr(1, 0)
    assert d.final == fr(1, 0)


def test_seed_000_empty_prefix_biased_case():
    p = toy_tables.target.rows[""]
    q = toy_tables.drafts["biased"].rows[""]
    assert q == fr("0.80", "0.15", "0.05") and p == fr("0.50", "0.30", "0.20")
    d = decompose(p, q)
    assert d.residual == fr("0", "0.50", "0.50")  # it cannot select A after a rejection
    assert rule.accept_probability(p[0], q[0]) == F(5, 8)


@pytest.mark.parametrize("p_x, q_x, expected", [("0.5", "0.8", F(5, 8)), ("0.3", "0.15", 1), ("0.2", "0.2", 1)])
def test_acceptance_probability_is_min_one_ratio(p_x, q_x, expected):
    assert rule.accept_probability(F(p_x), F(q_x)) == expected


def test_integer_acceptance_is_strictly_u_below_the_ratio():
    # p/q = 5/8 exactly at k = 5/8 * 2**32: the boundary draw rejects, the one below accepts.
    boundary = 5 * 2**32 // 8
    assert not rule.accepts(5, 10, 8, 10, boundary)
    assert rule.accepts(5, 10, 8, 10, boundary - 1)
    # a ratio of 1 or more accepts every draw
    assert rule.accepts(3, 20, 3, 20, 2**32 - 1)


def test_inverse_cdf_pick_uses_exact_cumulative_boundaries():
    weights, total = (10, 6, 4), 20  # [0.5, 0.3, 0.2]
    half = 2**31
    assert rule.pick(weights, total, half - 1) == 0
    assert rule.pick(weights, total, half) == 1  # u = 0.5 is not below 0.5
    assert rule.pick(weights, total, 2**32 - 1) == 2
    assert rule.pick((0, 0, 5), 5, 0) == 2  # zero-mass tokens are never picked


def test_residual_weights_match_the_fraction_residual():
    for key in ("", "A", "B", "C"):
        p, q = toy_tables.target.rows[key], toy_tables.drafts["biased"].rows[key]
        w = rule.residual_weights(toy_tables.target.weights[key], 20, toy_tables.drafts["biased"].weights[key], 20)
        assert tuple(F(x, sum(w)) for x in w) == rule.residual(p, q)


@pytest.mark.parametrize(
    "text, message",
    [
        ("0.6,0.3", "give 3 numbers"),
        ("0.6,abc,0.1", "the value for B, 'abc', is not a number"),
        ("one, 0, 0", "the value for A, 'one', is not a number"),  # an "e", but no exponent
        ("0.6,-0.3,0.7", "the value for B is negative"),
        ("0.6,,0.4", "the value for B is empty"),
        ("0.6,0.4,1/0", "the value for C, '1/0', divides by zero"),
        ("0.6,0.4,٠", "the value for C, '٠', is not one of the digits 0-9"),
        ("0.6,0.4,٠٠", "the value for C, '٠٠', uses '٠', which is not one of the digits 0-9"),
        ("0.6,0.3,0.2", "the numbers sum to 1.1, not exactly 1: 0.1 over 1"),
        ("0.5,0.3,0.1", "the numbers sum to 0.9, not exactly 1: 0.1 short of 1"),
        ("1/3,1/3,0.3333333", "the numbers sum to 29999999/30000000 ≈ 0.9999999667, not exactly 1: "
                              "1/30000000 ≈ 0.0000000333 short of 1"),
    ],
)
def test_parse_distribution_explains_bad_input(text, message):
    with pytest.raises(ValueError) as err:
        parse_distribution(text)
    assert message in str(err.value)


def test_parse_distribution_is_exact():
    assert parse_distribution(" 0.6, 0.3 ,0.1") == fr("0.6", "0.3", "0.1")
    assert parse_distribution("1/3,1/3,1/3") == fr("1/3", "1/3", "1/3")


@pytest.mark.parametrize("text, message", [("1e10000000,0,0", "the value for A, '1e10000000', uses an exponent (e)"),
                                           ("1e400,0,0", "the value for A, '1e400', uses an exponent (e)"),
                                           ("0.5,0.5E1,0",
                                            "the value for B, '0.5E1', uses an exponent (e): write it out as 5"),
                                           ("1" * 200, "too long"),
                                           ("0." + "1" * 50 + ",0,0", "the value for A is too long (52 characters")])
def test_parse_distribution_refuses_input_that_would_hang_or_overflow(text, message):
    # Fraction("1e10000000") builds a ten-million-digit number: refused before parsing.
    with pytest.raises(InputError) as err:
        parse_distribution(text)
    assert message in str(err.value)
