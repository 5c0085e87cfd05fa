"""The rules in the wild on the "Why it is exact" tab (issue 28, item 3), driven without a browser.

One card per rule other than the exact one, each built from its ``core.rulecard`` record: what
the rule does, where it was shipped or proposed (repository#number), its exact distance as a
fraction and decimal, and its kept share beside the exact rule's. Every number checked here is
core's; the words' claims (more/less, exact/wrong) are checked against core's fractions over
several scenarios.
"""

import re
from fractions import Fraction as F

import pytest

from core import display, exact, typical
from core.rulecard import SOURCES, rule_card
from core.variants import ALL_VARIANTS, IN_THE_WILD

from app import i18n
from app.exact import ExactTab, words
from app.exact.model import CARD_DRAFT, CARD_K, CARD_RULES, CARD_WIDTH, ExactModel, card
from app.exact.views import RuleCards


def text(html):
    plain = re.sub(r"<[^>]+>", " ", html)
    for entity, char in (("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&#x27;", "'"), ("&amp;", "&")):
        plain = plain.replace(entity, char)
    return re.sub(r"\s+", " ", plain).strip()


def card_text(variant):
    return text(RuleCards._card(card(variant)))


def test_the_cards_are_computed_only_once_the_tab_is_shown():
    tab = ExactTab()
    assert tab.model.cards is None and tab.body is None
    tab.activate()
    cards = tab.model.cards
    assert sorted(c.card.variant for c in cards) == sorted(v for v in ALL_VARIANTS if v != "exact")
    cited = [bool(c.card.sources) for c in cards]
    assert cited == sorted(cited, reverse=True)  # the rules found in the wild first
    assert set(IN_THE_WILD) <= set(CARD_RULES)
    for c in cards:
        assert c.card == rule_card(c.card.variant, CARD_DRAFT, CARD_WIDTH, CARD_K)
    shown = text(tab.cards.html.object)
    assert shown.count("What it does") == len(CARD_RULES)
    assert "the biased draft, width 3, the first 3 tokens" in shown


def test_before_the_cards_are_in_the_section_says_so():
    m = ExactModel()
    assert "Computing the cards" in text(RuleCards(model=m).html.object)


@pytest.mark.parametrize("variant", CARD_RULES)
def test_each_card_shows_cores_distance_kept_share_and_sources(variant):
    c = rule_card(variant, CARD_DRAFT, CARD_WIDTH, CARD_K)
    shown = card_text(variant)
    if c.distance:
        found = re.search(re.escape(str(c.distance)) + r" ([=≈]) (\d\.\d+) from the target", shown)
        assert found, shown
        assert abs(float(found.group(2)) - c.distance) <= (0 if found.group(1) == "=" else F(1, 20000))
    else:
        assert "0 over the first 3 tokens, exactly" in shown
    assert display.percent(c.kept_share) in shown and display.percent(c.exact_kept_share) in shown
    assert display.dec(c.tokens_per_pass, 3) in shown and display.dec(c.exact_tokens_per_pass, 3) in shown
    for repo, number in SOURCES.get(variant, ()):
        assert f"{repo}#{number}" in shown
    if not SOURCES.get(variant):
        assert "no public engine is cited" in shown


def test_the_wild_rules_cite_the_threads_core_names():
    assert "jaymody/speculative-sampling#3" in card_text("greedy-draft")
    assert "vllm-project/vllm#40651" in card_text("greedy-one-hot")
    assert "ml-explore/mlx-lm#1709" in card_text("match-keep")
    assert "lablup/mlxcel#902" in card_text("greedy")


def test_typical_acceptance_shows_its_parameters_and_that_it_keeps_everything():
    shown = card_text("typical")
    c = card("typical").card
    assert c.distance == F(1069, 2000) and "1069/2000 = 0.5345" in shown
    assert typical.PAPER == typical.Parameters(F(9, 100), F(3, 10))
    assert "ε = 0.09 and δ = 0.3" in shown
    assert "lossy by design" in shown
    assert c.kept_share == 1 and "100.0% of proposals in the long run, more than the exact rule's 35.4%" in shown
    assert "every proposal is kept" in shown


def test_exact_match_shows_sum_p_squared_against_one_when_q_equals_p():
    shown = card_text("match-keep")
    aligned = rule_card("match-keep", "aligned", CARD_WIDTH, CARD_K)
    assert aligned.kept_after[""] == F(19, 50) and aligned.exact_kept_after[""] == 1
    assert "Σp² = 19/50 = 0.38, where the exact rule keeps it with chance 1" in shown
    assert display.percent(aligned.kept_share) in shown
    assert "exact" in card_text("match-keep").split("What it does")[0]


@pytest.mark.parametrize("draft", ["aligned", "biased"])
@pytest.mark.parametrize("width", [1, 2, 3])
@pytest.mark.parametrize("variant", CARD_RULES)
def test_the_cards_claims_follow_cores_fractions(draft, width, variant):
    c = rule_card(variant, draft, width, 2)
    kind, _ = words.card_verdict(c)
    assert (kind == "exact") == (c.distance == 0 and c.keeps_target)
    assert (kind == "wrong") == (c.distance > 0 and variant not in ("typical", "greedy"))
    assert (kind == "harmless") == (c.distance == 0 and not c.keeps_target and variant not in ("typical", "greedy"))
    kept = words.card_kept(c)
    if c.kept_share > c.exact_kept_share:
        assert "more than" in kept
    elif c.kept_share < c.exact_kept_share:
        assert "less than" in kept
    else:
        assert "as many as the exact rule" in kept
    distance = words.card_distance(c)
    assert ("exactly: the output follows the target" in distance) == (c.distance == 0)
    notes = " ".join(words.card_notes(c))
    if variant == "typical":
        assert ("every proposal is kept" in notes) == all(v == 1 for v in c.kept_after.values())


def test_a_fraction_and_its_decimal():
    assert words.fraction_and_decimal(F(1069, 2000)) == "1069/2000 = 0.5345"
    assert words.fraction_and_decimal(F(4766117, 24276000)) == "4766117/24276000 ≈ 0.1963"
    assert words.fraction_and_decimal(F(1, 3)) == "1/3 ≈ 0.3333"
    assert words.fraction_and_decimal(F(0)) == "0"


def test_the_cards_read_in_chinese():
    with i18n.use("zh"):
        shown = card_text("typical") + card_text("match-keep") + card_text("naive-resample")
        assert "有意为之的有损" in shown and "典型接受" in shown
        assert "1069/2000 = 0.5345" in shown and "ε = 0.09" in shown
        assert "Σp² = 19/50 = 0.38" in shown
        assert "What it does" not in shown and "of proposals" not in shown


def test_the_rule_picker_lists_the_rules_in_the_wild_and_compares_them():
    tab = ExactTab()
    tab.activate()
    assert set(tab.controls.variant.options.values()) == set(ALL_VARIANTS)
    tab.controls.variant.value = "typical"
    m = tab.model
    assert m.comparison == exact.compare(m.draft, m.width, m.k, "typical")
    assert "Typical acceptance (Medusa)" in text(tab.controls.rule_text.object)
    assert "· a shortcut" in text(tab.controls.rule_text.object)
    tab.controls.variant.value = "greedy-one-hot"
    assert m.comparison.distance == 0
    assert "keeps the target's distribution" in " ".join(words.rule_reading(m.comparison, m.rule, None))
