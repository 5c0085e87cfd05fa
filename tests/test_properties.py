"""Properties of every trace, over drafts, widths, seeds, rules and lookahead."""

from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st

from core import ALL_DRAFTS, VARIANTS, Config, Counters, Session, simulate
from core.sampler import speculative_prefix
from core import prng

drafts = st.sampled_from(ALL_DRAFTS)
widths = st.integers(1, 8)
seeds = st.integers(0, 2**64 - 1)
limits = st.integers(1, 12)
lookaheads = st.none() | st.sampled_from([F(0), F(1, 10), F(1, 2), F(3, 4), F(1)])
schedules = st.sampled_from(["fixed", "heuristic"])
transforms = st.tuples(st.sampled_from([1, F(1, 2), F(1, 3), F(1, 4)]), st.none() | st.integers(1, 3),
                       st.sampled_from(["both", "target", "draft"]))


@settings(max_examples=300, deadline=None)
@given(drafts, widths, seeds, limits, st.sampled_from(VARIANTS), lookaheads, schedules, transforms)
def test_every_block_obeys_the_algorithm(draft, width, seed, limit, variant, lookahead, schedule, transform):
    trace = simulate(draft, width, seed, limit, variant, lookahead, schedule, *transform)
    assert len(trace.output) == limit
    output = ()
    for i, block in enumerate(trace.blocks):
        assert block.index == i and block.prefix == output
        statuses = [x.status for x in block.proposals]
        n = len(statuses)
        assert (0 if draft == "lookup" else 1) <= n <= min(block.width, limit - len(output))
        assert block.ordinary_step == (n == 0)
        assert 1 <= len(block.committed) <= block.width + 1
        if schedule == "fixed":
            assert block.width == width
        assert statuses.count("accepted") + statuses.count("rejected") + statuses.count("discarded") == n
        # discarded only after a rejection; at most one rejection, and nothing judged after it
        if "rejected" in statuses:
            r = statuses.index("rejected")
            assert statuses == ["accepted"] * r + ["rejected"] + ["discarded"] * (n - r - 1)
            assert block.correction is not None and block.bonus is None
        else:
            assert statuses == ["accepted"] * n and block.correction is None
            # a bonus only after a full acceptance and below the limit
            assert (block.bonus is not None) == (len(output) + n < limit)
        if lookahead is None:
            assert not block.stopped_early
        if block.stopped_early:
            stop = block.proposals[-1]
            assert stop.q_x < lookahead and n < min(block.width, limit - len(output))
        assert block.committed == tuple(x.token for x in block.proposals if x.status == "accepted") + (
            (block.correction.token,) if block.correction else (block.bonus.token,) if block.bonus else ())
        output += block.committed
    assert output == trace.output


@settings(max_examples=200, deadline=None)
@given(drafts, widths, seeds, st.sampled_from(VARIANTS), lookaheads, schedules)
def test_counters_agree_with_the_blocks(draft, width, seed, variant, lookahead, schedule):
    trace = simulate(draft, width, seed, variant=variant, lookahead=lookahead, schedule=schedule)
    n = trace.counters
    blocks = trace.blocks
    assert n.target_passes == len(blocks)
    assert n.proposed == n.draft_steps == sum(len(b.proposals) for b in blocks)
    assert n.accepted + n.rejected + n.discarded == n.proposed
    assert n.rejected == n.corrections == sum(b.correction is not None for b in blocks)
    assert n.bonus == sum(b.bonus is not None and not b.ordinary_step for b in blocks)
    assert n.ordinary_steps == sum(b.ordinary_step for b in blocks)
    assert n.accepted + n.corrections + n.bonus + n.ordinary_steps == n.committed
    assert n.committed == len(trace.output) == n.ordinary_passes
    assert n.tokens_per_pass == F(n.committed, n.target_passes)
    assert n.early_stops == sum(b.stopped_early for b in blocks) and (lookahead or not n.early_stops)
    assert n == Counters.of(blocks)


@settings(max_examples=100, deadline=None)
@given(drafts, widths, seeds, st.sampled_from(VARIANTS), lookaheads, schedules, transforms)
def test_same_seed_same_trace_and_every_path_agrees(draft, width, seed, variant, lookahead, schedule, transform):
    a = simulate(draft, width, seed, 8, variant, lookahead, schedule, *transform)
    assert a == simulate(draft, width, seed, 8, variant, lookahead, schedule, *transform)
    assert a.to_json() == simulate(draft, width, seed, 8, variant, lookahead, schedule, *transform).to_json()
    stepped = Session.start(Config(draft, width, seed, 8, variant, lookahead, schedule, *transform))
    while stepped.phase != "done":
        stepped = stepped.step()
    assert stepped.trace() == a
    # the many-run sampler runs the same machinery
    config = Config(draft, width, seed, 8, variant, lookahead, schedule, *transform)
    fast = speculative_prefix(config, 8, prng.seed(seed))
    assert tuple("ABC"[x] for x in fast) == a.output


@settings(max_examples=100, deadline=None)
@given(seeds, widths)
def test_the_aligned_draft_never_rejects(seed, width):
    trace = simulate("aligned", width, seed)
    assert trace.counters.rejected == 0 and trace.counters.discarded == 0


@settings(max_examples=100, deadline=None)
@given(drafts, widths, seeds, schedules, transforms)
def test_every_decision_is_the_exact_comparison_of_u_with_the_ratio(draft, width, seed, schedule, transform):
    for block in simulate(draft, width, seed, 8, "exact", None, schedule, *transform).blocks:
        for x in block.proposals:
            if x.status in ("accepted", "rejected"):
                assert x.accept_probability == min(1, x.p_x / x.q_x)
                assert (x.u < x.ratio) == (x.status == "accepted")
