"""Issue 26: the trace you can scrub. Moment k is the session after k Next steps;
Step back from moment n is moment n - 1; every other button lands on a moment.

Specifications with the numbers written out (biased draft, width 3, seed 1:
the first block accepts one proposal, rejects the second and discards the
third), then the sweep of 200 traces the issue names.
"""

from fractions import Fraction as F

import pytest

import core
from core import Config, PhaseError, Session
from core.timeline import Mark, Timeline, moment_index
from core.tree import TreeSession


def _replay(start, n):
    """n clicks of Next step from a fresh start: what ``steps=n`` means in the URL today."""
    s = start
    for _ in range(n):
        s = s.step()
    return s


# ---- the numbers of one trace -------------------------------------------------

def test_biased_width_3_seed_1_marks_each_moment():
    t = Timeline.of(Config("biased", 3, 1))
    assert t.last == 12  # four blocks, three Next steps each
    assert t.marks[0] == Mark(0, None, "start", (), None, 0, 0)
    assert t.marks[1] == Mark(1, 0, "drafted", ("proposed",) * 3, None, 0, 0)
    # The rejection and the discard happen at Verify (moment 2); the correction's tokens land at Commit.
    assert t.marks[2] == Mark(2, 0, "verified", ("accepted", "rejected", "discarded"), "correction", 1, 0)
    assert t.marks[3] == Mark(3, 0, "committed", ("accepted", "rejected", "discarded"), "correction", 1, 2)
    assert t.marks[5] == Mark(5, 1, "verified", ("accepted",) * 3, "bonus", 2, 2)
    assert t.marks[6].tokens == 6
    assert t.marks[8] == Mark(8, 2, "verified", ("rejected", "discarded"), "correction", 3, 6)
    # The 8-token end: the last block drafts the one token left; accepted at the limit, no bonus.
    assert t.marks[11] == Mark(11, 3, "verified", ("accepted",), None, 4, 7)
    assert t.marks[12] == Mark(12, 3, "committed", ("accepted",), None, 4, 8)
    assert t.sessions[-1].phase == "done"
    assert t.groups() == ((0, 1, 3), (1, 4, 6), (2, 7, 9), (3, 10, 12))


def test_the_last_moment_is_the_finished_trace_and_its_counters():
    t = Timeline.of(Config("biased", 3, 1))
    end = Session.start(Config("biased", 3, 1)).run_to_end()
    assert t.at(t.last) == end
    assert t.at(t.last).trace().to_json() == core.simulate("biased", 3, 1).to_json()
    assert t.marks[-1].passes == end.counters.target_passes == 4


def test_a_lookup_block_with_nothing_to_copy_is_marked_ordinary():
    t = Timeline.of(Config("lookup", 3, 0))
    first = t.marks[2]
    assert (first.block, first.reached, first.statuses, first.ending) == (0, "verified", (), "ordinary")


def test_step_back_from_moment_n_is_moment_n_minus_1_and_refuses_the_start():
    t = Timeline.of(Config("biased", 3, 1))
    for n in range(1, t.last + 1):
        assert t.back(t.at(n)) is t.at(n - 1)
    with pytest.raises(PhaseError, match="start of the trace"):
        t.back(t.at(0))


def test_a_jump_outside_the_trace_says_so_in_one_sentence():
    t = Timeline.of(Config("biased", 3, 1))
    for bad in (-1, 13, True, "3"):
        with pytest.raises(PhaseError, match="moments 0 to 12"):
            t.at(bad)


def test_a_links_steps_stop_at_the_end_as_replaying_them_does():
    for config in (Config("aligned", 8, 0), Config("lookup", 3, 0), Config("biased", 3, 1)):
        t = Timeline.of(config)
        for n in range(3 * core.MAX_TOKENS + 1):
            s = Session.start(config)
            for _ in range(n):  # today's replay of steps=n (app.step.model.open_link)
                if s.phase == "done":
                    break
                s = s.step()
            assert t.for_link(n) == s
    assert Timeline.of(Config("aligned", 8, 0)).last == 3  # one block writes all 8: steps=24 shows moment 3
    with pytest.raises(PhaseError, match="whole number"):
        t.for_link(-1)


def test_a_session_of_another_trace_is_no_moment_of_this_one():
    t = Timeline.of(Config("biased", 3, 1))
    with pytest.raises(PhaseError, match="not a moment"):
        t.moment_of(Session.start(Config("biased", 3, 2)).draft())


# ---- buttons map to moments -----------------------------------------------------

def test_draft_verify_commit_are_one_next_step_each():
    t = Timeline.of(Config("biased", 3, 1))
    s = t.at(0)
    for n, action in enumerate(("draft", "verify", "commit") * 4, start=1):
        s = getattr(s, action)()
        assert t.moment_of(s) == n and s == t.at(n)


def test_run_block_jumps_to_the_next_blocks_start_and_run_to_end_to_the_last_moment():
    t = Timeline.of(Config("biased", 3, 1))
    for n in range(t.last):
        s = t.at(n)
        assert t.moment_of(s.run_block()) == 3 * (n // 3 + 1)  # from a start: 3 moments; mid-block: 2 or 1
        assert t.moment_of(s.run_to_end()) == t.last
    assert t.moment_of(t.at(7).reset()) == 0


def test_a_timeline_of_a_mid_trace_session_is_its_whole_trace():
    s = Session.start(Config("heads", 4, 9)).run_block().draft()
    t = Timeline.of(s)
    assert t.moment_of(s) == moment_index(s) == 4
    assert t.at(0) == Session.start(Config("heads", 4, 9))


def test_a_tree_timeline_specification_biased_two_candidates_width_2_seed_0():
    t = Timeline.of(TreeSession.start("biased", 2, 2, 0))
    assert t.last == 9
    assert t.marks[2].statuses == ("accepted", "discarded", "accepted", "discarded", "discarded", "discarded")
    assert t.marks[2].ending == "bonus"
    assert t.marks[5].statuses == ("rejected", "accepted", "discarded", "discarded", "rejected", "rejected")
    assert t.marks[5].ending == "correction"
    assert t.at(t.last).output == ("A", "A", "A", "B", "C", "A", "B", "B")
    assert t.back(t.at(5)) == TreeSession.start("biased", 2, 2, 0).run_block().draft()


# ---- the sweep: 200 traces ----------------------------------------------------------

def _starts():
    # The custom draft with the authored tables proposes as the biased one: no new trace.
    chain = [Session.start(Config(draft, width, seed, lookahead=ahead, schedule=plan))
             for seed, (draft, width, plan, ahead) in enumerate(
                 (d, w, p, a) for d in core.ALL_DRAFTS if d != "custom" for w in range(1, 9) for p in ("fixed", "heuristic")
                 for a in (None, F(1, 2)))]
    trees = [TreeSession.start(draft, k, width, seed)
             for draft in ("aligned", "biased") for k in (1, 2, 3) for width in range(1, 5) for seed in range(3)]
    return chain + trees


STARTS = _starts()


def test_the_sweep_has_200_traces():
    assert len(STARTS) == 200


@pytest.mark.parametrize("start", STARTS, ids=lambda s: f"{type(s).__name__}-{s.config.draft}-w{s.config.width}"
                         f"-{s.config.schedule}-{s.config.lookahead}-k{getattr(s, 'candidates', 1)}-s{s.config.seed}")
def test_step_back_equals_moment_n_minus_1_for_every_n(start):
    t = Timeline.of(start)
    assert t.at(t.last).phase == "done" and t.last % 3 == 0
    for n in range(1, t.last + 1):
        before = _replay(start, n - 1)  # steps=n-1, replayed from a fresh start
        assert t.back(t.at(n)) == before
        assert t.moment_of(before) == n - 1
        assert t.marks[n].passes == len(t.at(n).blocks) + (t.at(n).phase == "commit")
    # Run block from each block's start is the same three moments as Next steps.
    s = start
    while s.phase != "done":
        s = s.run_block()
        assert s == t.at(t.moment_of(s))


# ---- the CLI's view: python -m core trace --timeline ----------------------------------

def _cli(capsys, *argv):
    from core.cli import main
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_trace_timeline_prints_every_moment_and_both_lanes(capsys):
    status, out, _ = _cli(capsys, "trace", "--draft", "biased", "--width", "3", "--seed", "1", "--timeline",
                          "--cost", "1/10")
    lines = out.splitlines()
    assert status == 0
    assert lines[2] == "moment  2  block 1 verified  passes 1  tokens 0  accepted rejected discarded  correction"
    assert lines[12] == "moment 12  block 4 committed passes 4  tokens 8  accepted"
    assert lines[13].startswith("ordinary decoding, same seed: B A C C C A B C")
    assert lines[15].split() == "after pass 1: speculative 2 tokens at time 13/10 ordinary 1 tokens at time 1".split()


def test_trace_timeline_of_a_tree(capsys):
    status, out, _ = _cli(capsys, "trace", "--draft", "biased", "--width", "2", "--seed", "0", "--candidates", "2",
                          "--timeline")
    assert status == 0
    assert out.splitlines()[5] == ("moment  5  block 2 verified  passes 2  tokens 3  "
                                   "rejected accepted discarded discarded rejected rejected  correction")


@pytest.mark.parametrize("argv, message", [
    (("--cost", "1"), "--cost goes with --timeline"),
    (("--timeline", "--cost", "11"), "--cost must be from 0 to 10"),
    (("--timeline", "--json"), "not allowed with argument"),
])
def test_trace_timeline_refuses_bad_input_in_one_line(capsys, argv, message):
    status, _, err = _cli(capsys, "trace", "--draft", "biased", "--width", "3", "--seed", "1", *argv)
    lines = err.strip().splitlines()
    assert status != 0 and len(lines) == 1 and message in lines[0]


def test_every_rule_and_transformation_has_the_same_moments():
    from core.variants import ALL_VARIANTS
    configs = [Config(d, 3, s, variant=v) for v in ALL_VARIANTS for d in ("biased", "lookup") for s in range(3)]
    configs += [Config("biased", 2, s, temperature=F(1, 2), top_k=2, transform_at=at)
                for at in ("both", "target", "draft") for s in range(3)]
    for config in configs:
        t = Timeline.of(config)
        assert t.at(t.last).trace().to_json() == Session.start(config).run_to_end().trace().to_json()
        for n in range(1, t.last + 1):
            assert t.back(t.at(n)) == _replay(Session.start(config), n - 1)
