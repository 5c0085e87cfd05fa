"""Rules real engines shipped (issue 28): greedy drafting verified as if sampled,
Medusa's typical acceptance, and exact-match acceptance (``match-keep``).

Distances are exact fractions worked out by hand from the toy tables;
seeded runs tell each wrong rule from the target by chi-square, and agree
with the rule's own exact distribution (so the sampler is not the culprit).
"""

from decimal import Decimal, getcontext
from fractions import Fraction as F

import pytest

from core import cli, exact, rates, sampler, simulate, stats, typical
from core.rulecard import SOURCES, rule_card
from core.variants import ALL_VARIANTS, IN_THE_WILD, VARIANTS

N = 20_000


# ---- the registry ------------------------------------------------------------

def test_the_rules_from_the_wild_run_everywhere_but_the_app_lists_only_todays():
    assert set(IN_THE_WILD) == {"greedy-draft", "greedy-one-hot", "typical"}
    assert set(ALL_VARIANTS) == set(VARIANTS) | set(IN_THE_WILD)
    assert not set(VARIANTS) & set(IN_THE_WILD)
    assert [v for v in IN_THE_WILD if ALL_VARIANTS[v].keeps_target] == ["greedy-one-hot"]


# ---- greedy drafting with sampled verification --------------------------------

def test_greedy_drafting_with_the_soft_q_gives_the_first_token_by_hand():
    # After the empty prefix the biased draft's argmax is A (q = 0.80): accepted with
    # min(1, 0.5/0.8) = 5/8, else the residual norm(max(p - q, 0)) = (0, 1/2, 1/2).
    c = exact.compare("biased", 3, 1, "greedy-draft")
    assert c.result == {("A",): F(5, 8), ("B",): F(3, 16), ("C",): F(3, 16)}
    assert c.distance == F(1, 8)  # (|5/8 - 1/2| + |3/16 - 3/10| + |3/16 - 1/5|) / 2


def test_greedy_drafting_is_wrong_even_when_the_draft_is_the_target():
    # q = p: the proposal is always p's argmax A and the ratio is 1, so A always comes first.
    c = exact.compare("aligned", 1, 2, "greedy-draft")
    assert c.result == {("A", "A"): F(1, 5), ("A", "B"): F(3, 5), ("A", "C"): F(1, 5)}
    assert exact.compare("aligned", 1, 1, "greedy-draft").distance == F(1, 2)
    assert exact.compare("aligned", 3, 3, "greedy-draft").distance == F(167, 200)
    assert exact.compare("biased", 3, 3, "greedy-draft").distance == F(4766117, 24276000)


def test_greedy_drafting_proposes_without_a_draw():
    s = simulate("biased", 3, 7, variant="greedy-draft")
    first = s.blocks[0].proposals
    assert [x.token for x in first] == ["A", "A", "A"][: len(first)]
    assert all(x.draft_k is None for x in first)


# ---- the fix: greedy drafting verified with q one-hot ----------------------------

@pytest.mark.parametrize("draft", ["aligned", "biased", "heads"])
@pytest.mark.parametrize("width", [1, 3, 8])
def test_greedy_drafting_is_exact_once_q_is_taken_as_one_hot(draft, width):
    assert exact.compare(draft, width, 6, "greedy-one-hot").distance == 0


def test_the_one_hot_fix_keeps_p_of_the_drafts_argmax():
    card = rule_card("greedy-one-hot", "biased", 3)
    # after the empty prefix the biased draft's argmax is A, and p(A) = 0.5; after A it is A again, p(A) = 0.2
    assert card.kept_after == {"": F(1, 2), "A": F(1, 5), "B": F(11, 20), "C": F(1, 4)}
    assert card.kept_share < card.exact_kept_share


def test_seeded_runs_of_the_one_hot_fix_follow_the_target():
    counts = sampler.sample_prefixes("biased", 3, 3, N, variant="greedy-one-hot")
    assert stats.chi_square(counts, exact.target_distribution(3)).p_value > 0.001


# ---- typical acceptance -------------------------------------------------------

def test_the_paper_parameters_are_vllms_defaults():
    assert typical.PAPER == typical.Parameters(F(9, 100), F(3, 10))


def test_on_three_tokens_the_entropy_term_never_undercuts_epsilon():
    # exp(-H) >= 1/3 on three tokens, so 0.3 * exp(-H) >= 0.1 > 0.09: epsilon binds.
    for p in [(F(1, 3),) * 3, (F("0.5"), F("0.3"), F("0.2")), (F(1), F(0), F(0)), (F("0.55"), F("0.15"), F("0.30"))]:
        assert typical.threshold_holds_at(p) == "epsilon"
    # With delta = 1/4 the uniform row's entropy term (1/4 * 1/3) falls below 0.09.
    assert typical.threshold_holds_at((F(1, 3),) * 3, typical.Parameters(F(9, 100), F(1, 4))) == "entropy"


def test_with_the_paper_parameters_typical_keeps_what_p_gives_more_than_009():
    assert typical.accepts((F("0.91"), F("0.09"), F(0)), 0)
    assert not typical.accepts((F("0.91"), F("0.09"), F(0)), 1)  # strict >: exactly 0.09 is cut
    assert not typical.accepts((F("0.91"), F("0.09"), F(0)), 2)
    assert typical.accepts((F("0.90"), F("0.10"), F(0)), 1)


def exp_minus_entropy(p, digits=60):
    getcontext().prec = digits
    row = [Decimal(x.numerator) / Decimal(x.denominator) for x in p]
    return (sum(x * x.ln() for x in row if x)).exp()


def test_the_entropy_term_is_decided_exactly_where_floats_cannot():
    # p = (0.5, 0.3, 0.2): exp(-H) = 0.35713085845748345705...; a delta within 1e-30 of
    # 0.3 / exp(-H) puts the bar for B a hair above or below 0.3, far past float precision.
    p = (F("0.5"), F("0.3"), F("0.2"))
    edge = Decimal("0.3") / exp_minus_entropy(p)
    below = typical.Parameters(F(1), F(str(edge.quantize(Decimal("1e-40"), "ROUND_DOWN"))))
    above = typical.Parameters(F(1), F(str(edge.quantize(Decimal("1e-40"), "ROUND_UP"))))
    assert float(below.delta) == float(above.delta)  # floats see one number
    assert typical.accepts(p, 1, below)
    assert not typical.accepts(p, 1, above)
    assert typical.accepts(p, 0, above) and not typical.accepts(p, 2, below)


def test_typical_acceptance_keeps_every_toy_proposal_so_the_biased_output_follows_the_draft():
    c = exact.compare("biased", 3, 1, "typical")
    assert c.result == {("A",): F("0.80"), ("B",): F("0.15"), ("C",): F("0.05")}
    assert c.distance == F(3, 10)
    assert exact.compare("biased", 3, 3, "typical").distance == F(1069, 2000)
    assert exact.compare("aligned", 3, 8, "typical").distance == 0  # q = p: accepting all is harmless


def test_typical_acceptance_keeps_more_than_the_exact_rule():
    card = rule_card("typical", "biased", 3)
    assert card.kept_share == 1 and card.tokens_per_pass == 4
    assert card.exact_kept_share == F(364972654, 1031593875)  # about 0.354
    assert card.kept_after == {"": 1, "A": 1, "B": 1, "C": 1}
    assert card.exact_kept_after == {"": F(7, 10), "A": F(1, 2), "B": F(4, 5), "C": F(2, 5)}


def test_a_sharper_target_makes_typical_reject():
    # Temperature 1/4 makes the empty prefix's row (625, 81, 16)/722: C at 16/722 < 0.09 is cut.
    from core.transform import Transform
    c = exact.compare("biased", 1, 1, "typical", transform=Transform(F(1, 4)))
    assert c.distance > 0
    assert not typical.accepts((F(625, 722), F(81, 722), F(16, 722)), 2)
    assert typical.accepts((F(625, 722), F(81, 722), F(16, 722)), 1)


# ---- exact-match acceptance ---------------------------------------------------

def test_exact_match_is_exact_but_keeps_sum_p_squared_when_q_equals_p():
    card = rule_card("match-keep", "aligned", 3)
    assert card.distance == 0
    assert card.kept_after[""] == F("0.5") ** 2 + F("0.3") ** 2 + F("0.2") ** 2 == F(19, 50)
    assert card.exact_kept_after[""] == 1 and card.exact_kept_share == 1
    assert card.kept_share == F(780319084, 3620054373)  # about 0.216 of proposals kept, against 1
    assert card.kept_ratio == card.kept_share


def test_exact_match_keeps_sum_q_p_with_the_biased_draft():
    card = rule_card("match-keep", "biased", 3)
    assert card.kept_after[""] == F("0.8") * F("0.5") + F("0.15") * F("0.3") + F("0.05") * F("0.2") == F(91, 200)
    assert card.kept_after[""] < card.exact_kept_after[""] == F(7, 10)
    assert card.kept_share < card.exact_kept_share


def test_cards_name_where_each_wild_rule_was_shipped():
    assert SOURCES["greedy-draft"] == (("jaymody/speculative-sampling", 3),)
    assert ("ml-explore/mlx-lm", 1709) in SOURCES["match-keep"]
    assert rule_card("greedy-draft").sources == SOURCES["greedy-draft"]


@pytest.mark.parametrize("args, message", [
    (("nope",), "unknown variant"), (("exact", "lookup"), "table draft"), (("exact", "biased", 9), "width"),
    (("exact", "biased", 3, 0), "k must be"),
])
def test_a_bad_card_request_says_what_is_wrong(args, message):
    with pytest.raises(ValueError, match=message):
        rule_card(*args)


# ---- seeded runs: chi-square tells each wrong rule from the target ------------

@pytest.mark.parametrize("variant, draft", [("greedy-draft", "biased"), ("greedy-draft", "aligned"),
                                            ("typical", "biased")])
def test_seeded_runs_tell_the_wrong_rule_from_the_target(variant, draft):
    counts = sampler.sample_prefixes(draft, 3, 3, N, variant=variant)
    assert stats.chi_square(counts, exact.target_distribution(3)).p_value < 1e-12
    own = stats.chi_square(counts, exact.output_distribution(draft, 3, 3, variant))
    assert own.p_value > 0.001, own


def test_seeded_runs_of_exact_match_follow_the_target():
    counts = sampler.sample_prefixes("biased", 3, 3, N, variant="match-keep")
    assert stats.chi_square(counts, exact.target_distribution(3)).p_value > 0.001


def test_the_counters_of_many_runs_approach_the_exact_keep_share():
    kept = proposed = 0
    for seed in range(400):
        c = simulate("biased", 3, seed, max_tokens=64, variant="match-keep").counters
        kept, proposed = kept + c.accepted, proposed + c.proposed
    assert abs(kept / proposed - float(rates.kept_share("biased", 3, None, "match-keep"))) < 0.02


# ---- the command line ----------------------------------------------------------

@pytest.mark.parametrize("variant, distance", [("greedy-draft", "1/8"), ("typical", "3/10")])
def test_the_cli_prints_each_wild_rules_distance(capsys, variant, distance):
    assert cli.main(["exact", "--draft", "biased", "--width", "3", "--length", "1", "--variant", variant]) == 0
    assert f"total-variation distance: {distance}" in capsys.readouterr().out


def test_the_card_command_sets_the_rule_beside_the_exact_one(capsys):
    assert cli.main(["card", "--variant", "match-keep", "--draft", "aligned"]) == 0
    out = capsys.readouterr().out
    assert "total-variation distance from the target: 0\n" in out
    assert "empty prefix 19/50 (exact 1)" in out
    assert "ml-explore/mlx-lm#1709" in out


def test_the_card_command_names_typical_acceptances_parameters(capsys):
    assert cli.main(["card", "--variant", "typical"]) == 0
    out = capsys.readouterr().out
    assert "1069/2000" in out and "epsilon 9/100, delta 3/10" in out


def test_a_bad_card_argument_is_one_line(capsys):
    assert cli.main(["card", "--variant", "typical", "--length", "9"]) == 2
    assert capsys.readouterr().err.strip().count("\n") == 0
