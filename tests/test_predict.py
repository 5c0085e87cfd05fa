"""Predict first (issue 28, item 1): calls judged with the exact chance of what happened.

The worked block: biased draft, width 3, seed 1. Proposals A, A, B. After
the empty prefix A is kept with min(1, 0.5/0.8) = 5/8 (it was); after A the
second A is kept with min(1, 0.2/0.7) = 2/7 (it was rejected); B after AA
was discarded, never judged. The correction after A is drawn from
norm(max(p - q, 0)) = norm((0, 0.35, 0.15)) = (0, 7/10, 3/10): B or C.
"""

from fractions import Fraction as F

import pytest

from core import Session, simulate
from core.predict import KEPT, REJECTED, Tally, check_support, judge_calls, likelier, tally


def verified(draft="biased", width=3, seed=1, variant="exact"):
    return Session.start(draft=draft, width=width, seed=seed, variant=variant).draft().verify().pending


def test_the_worked_block_is_what_the_docstring_says():
    b = verified()
    assert [(x.token, x.status) for x in b.proposals] == [("A", "accepted"), ("A", "rejected"), ("B", "discarded")]
    assert b.correction.residual == (0, F(7, 10), F(3, 10))


def test_each_call_carries_the_exact_chance_of_what_happened():
    r = judge_calls(verified(), (KEPT, KEPT, KEPT))
    first, second, third = r.calls
    assert (first.outcome, first.accept_probability, first.outcome_probability, first.right) == (
        KEPT, F(5, 8), F(5, 8), True)
    assert (second.outcome, second.accept_probability, second.outcome_probability, second.right) == (
        REJECTED, F(2, 7), F(5, 7), False)
    assert (second.likelier, second.likelier_chance) == (REJECTED, F(5, 7))


def test_a_call_on_a_discarded_proposal_is_untested_and_counts_neither_way():
    r = judge_calls(verified(), (KEPT, REJECTED, REJECTED))
    third = r.calls[2]
    assert not third.tested and third.outcome is None and third.right is None
    assert third.accept_probability == 1  # B after A: p = 0.6 > q = 0.25, had it been judged
    assert (r.right, r.scored, r.untested, r.skipped) == (2, 2, 1, 0)


def test_the_always_likelier_benchmark_counts_the_same_scored_calls():
    r = judge_calls(verified(), (KEPT, KEPT, KEPT))
    assert r.expected_right == F(5, 8) + F(5, 7) == F(75, 56)
    # before Verify: 5/8 + (5/8)(5/7) + (5/8)(2/7)(1), each call weighted by the chance it is tested
    assert r.expected_before_verify == F(5, 4)
    skipped = judge_calls(verified(), (None, KEPT, None))
    assert (skipped.scored, skipped.skipped, skipped.expected_right) == (1, 2, F(5, 7))


def test_likelier_calls_kept_on_a_tie():
    assert likelier(F(1, 2)) == KEPT and likelier(F(49, 100)) == REJECTED


def test_the_correction_support_check():
    b = verified()
    right = check_support(b, "CB")
    assert right.right and right.support == ("B", "C") and right.covered == 1 and right.token == "B"
    short = check_support(b, ("B",))
    assert not short.right and short.missing == ("C",) and short.covered == F(7, 10)
    wide = check_support(b, "AB")
    assert wide.extra == ("A",) and wide.missing == ("C",) and wide.covered == F(7, 10)
    assert judge_calls(b, (KEPT,) * 3, support="BC").support == right


def test_no_correction_to_predict_after_a_full_acceptance():
    b = verified(width=3, seed=3)
    assert b.correction is None
    assert judge_calls(b, (KEPT,) * len(b.proposals)).support is None
    with pytest.raises(ValueError, match="nothing was rejected"):
        check_support(b, "A")


def test_the_tally_adds_blocks():
    one = judge_calls(verified(), (KEPT, KEPT, KEPT), support="BC")
    two = judge_calls(verified(), (KEPT, REJECTED, KEPT), support="B")
    t = tally([one, two])
    assert t == Tally(2, 4, 3, F(75, 28), 2, 2, 1)
    assert t.ahead == 3 - F(75, 28)
    assert Tally().add(one).add(two) == t


def test_a_rule_that_never_draws_gives_certain_outcomes():
    # greedy blockwise decoding keeps a proposal exactly when it is the target's argmax: chance 0 or 1
    b = verified(variant="greedy", seed=3)
    r = judge_calls(b, [KEPT] * len(b.proposals), variant="greedy")
    assert all(c.likelier_chance == 1 for c in r.calls)
    assert r.expected_right == r.scored


def test_over_many_blocks_the_likelier_student_matches_the_benchmark():
    # The benchmark is unbiased: calling the likelier outcome every time scores its expectation on average.
    right = expected = before = 0
    blocks = 0
    for seed in range(1500):
        for block in simulate("biased", 4, seed, max_tokens=8).blocks:
            chances = [x.accept_probability for x in block.proposals if x.accept_probability is not None]
            calls = [likelier(a) for a in chances] + [KEPT] * (len(block.proposals) - len(chances))
            r = judge_calls(block, calls)
            right, expected, blocks = right + r.right, expected + r.expected_right, blocks + 1
            before += r.expected_before_verify
    assert abs(right - float(expected)) < 3 * (blocks ** 0.5)
    assert abs(right - float(before)) < 3 * (blocks ** 0.5)


@pytest.mark.parametrize("calls, message", [
    ((KEPT,), "one call per proposal"), ((KEPT, "maybe", KEPT), "'kept' or 'rejected'"),
])
def test_bad_calls_get_one_clear_sentence(calls, message):
    with pytest.raises(ValueError, match=message):
        judge_calls(verified(), calls)


def test_calls_wait_for_verify():
    pending = Session.start(draft="biased", width=3, seed=1).draft().pending
    with pytest.raises(ValueError, match="after Verify"):
        judge_calls(pending, (KEPT,) * 3)


def test_a_support_guess_names_real_tokens():
    with pytest.raises(ValueError, match="not one of them"):
        check_support(verified(), "BZ")


def test_a_support_check_carries_the_rows_it_was_judged_on():
    b = verified()
    check = check_support(b, "B")
    c = b.correction
    assert (check.residual, check.p, check.q) == (c.residual, c.p, c.q)
    assert check.p == (F(1, 5), F(3, 5), F(1, 5)) and check.q == (F(7, 10), F(1, 4), F(1, 20))
    # The support is exactly where p > q: B and C here, never A.
    assert check.support == tuple(t for t, p, q in zip("ABC", check.p, check.q) if p > q) == ("B", "C")
