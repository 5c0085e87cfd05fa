"""Several candidates per position (SpecInfer's multi-step speculative sampling): the engine.

Specifications, with the seed-table numbers written out: biased draft, empty
prefix, p = [1/2, 3/10, 1/5] and q = [4/5, 3/20, 1/20].
"""

from collections import Counter
from fractions import Fraction as F

import pytest
from hypothesis import given, settings, strategies as st

import core
from core import stats, tree, tree_exact
from core.config import ConfigError
from core.exact import target_distribution
from core.session import PhaseError
from core.tree import TreeSession, simulate_tree

P = (F(1, 2), F(3, 10), F(1, 5))
Q = (F(4, 5), F(3, 20), F(1, 20))


# ---- k = 1 is Algorithm 1, byte for byte ------------------------------------

@pytest.mark.parametrize("draft", ["aligned", "biased"])
@pytest.mark.parametrize("width", range(1, 9))
def test_one_candidate_gives_todays_trace_byte_for_byte(draft, width):
    for seed in range(40):
        assert simulate_tree(draft, width, seed, candidates=1).to_json() == core.simulate(draft, width, seed).to_json()


def test_one_candidate_json_has_no_tree_fields_and_more_candidates_add_them_without_renaming():
    one = simulate_tree("biased", 2, 1, candidates=1).to_dict()
    two = simulate_tree("biased", 2, 1, candidates=2).to_dict()
    assert "candidates" not in one and "node" not in one["blocks"][0]["proposals"][0]
    assert two["candidates"] == 2
    assert set(one) < set(two)
    assert set(one["blocks"][0]["proposals"][0]) < set(two["blocks"][0]["proposals"][0])
    assert {"node", "parent", "depth", "residual", "r_x"} == (set(two["blocks"][0]["proposals"][0])
                                                             - set(one["blocks"][0]["proposals"][0]))


# ---- the tree and its draw order ---------------------------------------------

def test_a_tree_of_k_candidates_and_width_w_drafts_every_node_breadth_first():
    s = TreeSession.start("biased", 3, 2, seed=4).draft()
    nodes = s.pending.nodes
    assert len(nodes) == tree.tree_size(3, 2) == 3 + 9
    assert [n.id for n in nodes] == list(range(12))
    assert [n.parent for n in nodes] == [None] * 3 + [0] * 3 + [1] * 3 + [2] * 3
    assert [n.depth for n in nodes] == [1] * 3 + [2] * 9
    assert all(n.status == "proposed" for n in nodes)
    # each child is drawn from q after its parent's token
    for n in nodes[3:]:
        assert n.q == tuple(core.position("biased", (nodes[n.parent].token,)).q)


def test_first_seed_one_block_rejects_both_candidates_and_corrects_from_the_twice_updated_residual():
    b = TreeSession.start("biased", 2, 2, seed=1).draft().verify().pending
    first, second = b.children(None)
    assert (first.token, first.status, first.residual, first.accept_probability) == ("A", "rejected", P, F(5, 8))
    # after rejecting A, r = norm(max(p - q, 0)) = [0, 1/2, 1/2]: a second A can no longer be accepted
    assert (second.token, second.status, second.residual, second.accept_probability) == (
        "A", "rejected", (0, F(1, 2), F(1, 2)), 0)
    # r again: norm(max([0, 1/2, 1/2] - q, 0)) = [0, 7/16, 9/16]
    assert b.correction.residual == (0, F(7, 16), F(9, 16))
    assert b.correction.rejection == F(3, 10) * (1 - (0 + F(3, 20) + F(1, 20)))
    assert b.committed == (b.correction.token,) == ("B",)
    assert {n.status for n in b.nodes[2:]} == {"discarded"}


def test_the_wrong_rule_tests_every_candidate_against_p():
    b = TreeSession.start("biased", 2, 2, seed=1, rule="against-p").draft().verify().pending
    first, second = b.children(None)
    assert first.residual == second.residual == P
    assert second.accept_probability == F(5, 8)


def test_the_draws_follow_the_documented_order():
    """Drafting uses draws 1..n in node order; then one test draw per tested node down the
    accepted path; then the correction or bonus."""
    s = TreeSession.start("biased", 2, 2, seed=7)
    state, ks = s.rng, []
    for _ in range(40):
        state, k = core.prng.step(state)
        ks.append(k)
    b = s.draft().verify().pending
    assert [n.draft_k for n in b.nodes] == ks[:6]
    tested = []
    parent = None
    while True:
        kids = b.children(parent)
        if not kids:
            break
        for kid in kids:
            if kid.tested:
                tested.append(kid)
            if kid.status == "accepted":
                break
        if kid.status != "accepted":
            break
        parent = kid.id
    assert [n.k for n in tested] == ks[6:6 + len(tested)]
    extra = b.correction or b.bonus
    assert extra.k == ks[6 + len(tested)]


def test_actions_out_of_turn_say_what_comes_next():
    s = TreeSession.start("aligned", 2, 2, seed=0)
    with pytest.raises(PhaseError, match="Draft"):
        s.verify()
    with pytest.raises(PhaseError, match="Verify"):
        s.draft().commit()


@pytest.mark.parametrize("args, words", [
    (("lookup", 2, 2), "draft table"),
    (("biased", 4, 2), "candidates must be"),
    (("biased", 2, 5), "width is at most 4"),
])
def test_bad_scenarios_are_refused_in_a_sentence(args, words):
    with pytest.raises(ConfigError, match=words):
        TreeSession.start(*args)


# ---- properties ------------------------------------------------------------

@settings(max_examples=120, deadline=None)
@given(draft=st.sampled_from(["aligned", "biased"]), k=st.integers(1, 3), width=st.integers(1, 4),
       seed=st.integers(0, 2**64 - 1), max_tokens=st.integers(1, 8), rule=st.sampled_from(tree.RULES))
def test_every_pass_commits_a_token_and_the_counts_agree_with_the_tree(draft, k, width, seed, max_tokens, rule):
    t = simulate_tree(draft, width, seed, k, max_tokens, rule)
    assert len(t.output) == max_tokens
    for b in t.blocks:
        assert len(b.committed) >= 1
        assert len(b.nodes) == tree.tree_size(k, b.depth)
        assert b.count("accepted") + b.count("rejected") + b.count("discarded") == len(b.nodes)
        assert b.count("accepted") == len(b.path)
        # the accepted nodes form one branch from the root
        for i, node_id in enumerate(b.path):
            assert b.nodes[node_id].depth == i + 1
            assert b.nodes[node_id].parent == (b.path[i - 1] if i else None)
        # a node is tested only on the accepted branch, and at most one sibling is accepted
        for parent in (None,) + b.path:
            kids = b.children(parent)
            assert sum(n.status == "accepted" for n in kids) <= 1
        assert (b.correction is None) == (len(b.path) == b.depth)
        assert b.committed == tuple(b.nodes[i].token for i in b.path) + tuple(
            x.token for x in (b.correction, b.bonus) if x)
    n = t.counters
    assert n.target_passes == len(t.blocks)
    assert n.draft_steps == sum(len(b.nodes) for b in t.blocks)
    assert n.accepted + n.rejected + n.discarded == n.draft_steps
    assert n.committed == n.accepted + n.corrections + n.bonus == len(t.output)


# ---- exactness ---------------------------------------------------------------

@pytest.mark.parametrize("draft", ["aligned", "biased"])
@pytest.mark.parametrize("k", [1, 2, 3])
@pytest.mark.parametrize("width", [1, 2, 3, 4])
@pytest.mark.parametrize("length", [1, 2, 3])
def test_the_exact_tree_rule_keeps_the_target_distribution(draft, k, width, length):
    c = tree_exact.compare(draft, width, length, k)
    assert c.distance == 0
    assert c.result == target_distribution(length)


def test_one_node_verification_with_two_candidates_by_hand():
    accepted, corrected = tree_exact.position("exact", "biased", 2, "")
    # stage 1: min(p, q) = [1/2, 3/20, 1/20]; rejected with 3/10, r = [0, 1/2, 1/2]
    # stage 2: 3/10 * q * min(1, r/q) = 3/10 * [0, 3/20, 1/20]; rejected with 3/10 * 4/5, r = [0, 7/16, 9/16]
    assert accepted == (F(1, 2), F(3, 20) + F(9, 200), F(1, 20) + F(3, 200))
    assert corrected == (0, F(6, 25) * F(7, 16), F(6, 25) * F(9, 16))
    assert tuple(a + c for a, c in zip(accepted, corrected)) == P


def test_the_wrong_rule_gives_a_second_candidate_a_second_chance_at_the_same_mass():
    accepted, corrected = tree_exact.position("against-p", "biased", 2, "")
    # against p twice: A is accepted with 1/2 + 3/10 * 1/2 = 13/20, not p(A) = 1/2
    assert accepted[0] + corrected[0] == F(13, 20)
    assert tree_exact.compare("biased", 1, 1, 2, "against-p").distance == F(3, 20)
    assert tree_exact.compare("biased", 2, 3, 2, "against-p").distance == F(2583, 16000)


@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("width", [1, 2, 3, 4])
def test_the_wrong_rule_is_biased_for_the_biased_draft_and_harmless_when_q_equals_p(k, width):
    assert tree_exact.compare("biased", width, 2, k, "against-p").distance > 0
    assert tree_exact.compare("aligned", width, 2, k, "against-p").distance == 0  # the first candidate always passes


def test_one_candidate_and_the_wrong_rule_are_algorithm_1():
    assert tree_exact.compare("biased", 3, 3, 1, "against-p").distance == 0


# ---- seeded runs against the exact distribution ------------------------------

def sample(draft, width, k, length, seeds, rule="exact"):
    return Counter(simulate_tree(draft, width, s, k, length, rule).output for s in seeds)


@pytest.mark.parametrize("k, width", [(2, 2), (3, 1)])
def test_seeded_trees_follow_the_target_chi_square(k, width):
    counts = sample("biased", width, k, 2, range(3000))
    result = stats.chi_square(counts, target_distribution(2))
    assert result.p_value > 1e-4, result


def test_seeded_wrong_rule_fails_the_same_test_decisively():
    counts = sample("biased", 1, 3, 1, range(3000), "against-p")
    result = stats.chi_square(counts, target_distribution(1))
    assert result.p_value < 1e-9, result
    # ...and agrees with its own exact distribution
    own = tree_exact.output_distribution("biased", 1, 1, 3, "against-p")
    assert stats.chi_square(counts, own).p_value > 1e-4
