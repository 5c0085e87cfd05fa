"""Issue 26 item 3: ordinary decoding beside the speculative trace, on one clock.

Ordinary decoding makes one target pass per token, one draw per token from p;
its tokens are a different sample of the same distribution, not the same trace.
Numbers written out for the biased draft, width 3, seed 1.
"""

from collections import Counter
from fractions import Fraction as F

import pytest

import core
from core import Config, Session
from core import prng
from core.ordinary import OrdinaryStep, OrdinaryTrace, Point, lanes
from core.exact import target_distribution
from core.payoff import trace_time_per_token
from core.sampler import ordinary_output, ordinary_prefix, sample_target
from core.timeline import Timeline
from core.tree import TreeSession
from core.transform import Transform

P = (F(1, 2), F(3, 10), F(1, 5))  # the target's row for the empty prefix


def test_ordinary_decoding_biased_seed_1_draw_by_draw():
    o = OrdinaryTrace.of(Config("biased", 3, 1))
    assert o.steps[0] == OrdinaryStep(0, (), P, 2607537577, "B")  # u = 0.607...: past 1/2, below 4/5
    assert o.steps[0].u == F(2607537577, 2**32)
    assert o.steps[1] == OrdinaryStep(1, ("B",), (F(11, 20), F(3, 20), F(3, 10)), 204602440, "A")
    assert o.output == ("B", "A", "C", "C", "C", "A", "B", "C")
    assert o.target_passes == 8


def test_ordinary_tokens_are_the_samplers_ordinary_tokens():
    """One notion of ordinary decoding: the histograms' (core.sampler) and the lane's draw the same tokens."""
    for seed in range(60):
        assert OrdinaryTrace.of(Config(seed=seed)).output == ordinary_output(seed)
        for t, k in ((F(1, 2), None), (F(1), 2), (F(1, 4), 1)):
            c = Config("aligned", 3, seed, temperature=t, top_k=k)
            want = tuple(core.TOKENS[x] for x in ordinary_prefix(8, prng.seed(seed), Transform(t, k)))
            assert OrdinaryTrace.of(c).output == want


def test_a_transformed_target_draws_from_the_transformed_rows():
    o = OrdinaryTrace.of(Config("biased", 3, 1, temperature=F(1, 4), top_k=2))
    assert o.steps[0].p == (F(625, 706), F(81, 706), F(0))  # p**4 renormalised, top 2 kept
    assert "C" not in o.output[:1]


def test_with_the_transformation_on_the_draft_only_the_lanes_follow_different_targets():
    """Ordinary decoding is of the target the user asked for (T = 1/2 here); verifying with the raw
    target, the speculative trace quietly follows the raw one (core.transform): the lanes then differ
    in distribution too, which is what that setting teaches."""
    c = Config("biased", 3, 1, temperature=F(1, 2), transform_at="draft")
    assert OrdinaryTrace.of(c).steps[0].p == (F(25, 38), F(9, 38), F(2, 19))  # p**2 renormalised
    assert Session.start(c).run_block().blocks[0].proposals[0].p == P  # the raw target verifies


def test_same_distribution_not_the_same_trace():
    spec = Counter(core.simulate("biased", 3, seed).output[:2] for seed in range(2000))
    plain = Counter(OrdinaryTrace.of(Config(seed=seed)).output[:2] for seed in range(2000))
    assert plain == sample_target(2, 2000)
    differ = sum(core.simulate("biased", 3, s).output != OrdinaryTrace.of(Config(seed=s)).output for s in range(50))
    assert differ > 25  # the same seed spends its draws differently
    # Both near the target's own two-token distribution (a loose check; core.exact proves the speculative side).
    exact = target_distribution(2)
    for seq, prob in exact.items():
        assert abs(spec[seq] / 2000 - prob) < 0.04 and abs(plain[seq] / 2000 - prob) < 0.04


def test_two_lanes_biased_width_3_seed_1():
    L = lanes(Timeline.of(Config("biased", 3, 1)), F(1, 10))
    assert L.speculative == (Point(0, 0, F(0), 0), Point(1, 2, F(13, 10), 2), Point(2, 6, F(13, 5), 5),
                             Point(3, 7, F(19, 5), 8), Point(4, 8, F(49, 10), 11))
    assert L.ordinary == tuple(Point(n, n, F(n), None) for n in range(9))
    assert L.passes_saved == 4
    assert L.tokens_after("speculative", 2) == 6 and L.tokens_after("ordinary", 2) == 2
    assert L.tokens_after("speculative", 1) == 2 and L.tokens_after("ordinary", 0) == 0


def test_without_a_cost_there_is_no_time_axis_and_bad_costs_say_so():
    t = Timeline.of(Config("biased", 3, 1))
    assert all(p.time is None for p in lanes(t).speculative + lanes(t).ordinary)
    with pytest.raises(ValueError, match="draft cost c must be from 0 to 10"):
        lanes(t, 11)


@pytest.mark.parametrize("start", [Session.start(Config(d, w, s, schedule=plan, lookahead=ahead))
                                   for d in core.ALL_DRAFTS for w in (1, 3, 8) for s in range(3)
                                   for plan, ahead in (("fixed", None), ("heuristic", None), ("fixed", F(1, 2)))]
                         + [TreeSession.start("biased", k, 2, s) for k in (1, 2, 3) for s in range(3)])
def test_the_lanes_numbers_are_the_counters_numbers(start):
    t = Timeline.of(start)
    end = t.at(t.last)
    n = end.counters
    for cost in (F(0), F(1, 10), F(3, 2)):
        L = lanes(t, cost)
        last = L.speculative[-1]
        assert (last.passes, last.tokens) == (n.target_passes, n.committed)
        assert L.ordinary[-1].passes == n.ordinary_passes == end.config.max_tokens
        assert last.time / last.tokens == trace_time_per_token(n, cost)
        # The pass of each point is made at its moment's Verify, as the timeline's marks count it.
        for p in L.speculative[1:]:
            assert t.marks[p.moment].reached == "verified" and t.marks[p.moment].passes == p.passes
            assert t.marks[p.moment + 1].tokens == p.tokens
