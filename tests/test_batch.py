"""Speculation in a batch (issue 28, item 4): a pass over b*(w+1) positions costs max(1, b*(w+1)/s)."""

from fractions import Fraction as F

import pytest

from core import payoff
from core.batch import batch_payoff, batch_table, pass_time


def test_a_pass_costs_one_until_the_target_is_compute_bound():
    assert pass_time(4, 4, 16) == 1  # 16 positions, s = 16: still one pass
    assert pass_time(8, 4, 16) == 2
    assert pass_time(3, 2, 4) == F(3, 2)


@pytest.mark.parametrize("draft", ["aligned", "biased", "heads"])
@pytest.mark.parametrize("cost", [0, F(1, 10), F(1, 2)])
def test_while_memory_bound_the_speedup_is_todays_payoff_exactly(draft, cost):
    for width in range(1, 9):
        for batch in (1, 2, 3):
            s = batch * (width + 1)  # right at the edge, and everything below it
            row = batch_payoff(draft, width, cost, batch, s)
            assert row.memory_bound
            assert row.speedup == payoff.payoff(draft, width, cost).speedup
            assert row.time_per_token == payoff.payoff(draft, width, cost).time_per_token


def test_the_aligned_draft_by_hand():
    # q = p: every block commits w + 1 = 4 tokens. b = 8, s = 16: the pass checks 32 positions, 2 passes' time;
    # ordinary steps of 8 requests still cost 1. Per request 4 tokens per 2 = speedup 2; the batch 16 per pass.
    r = batch_payoff("aligned", 3, 0, 8, 16)
    assert (r.tokens_per_block, r.block_time, r.ordinary_step_time) == (4, 2, 1)
    assert r.speedup == 2 and r.throughput == 16 and r.ordinary_throughput == 8 and r.target_pass_time == 2
    assert r.capacity == r.ordinary_capacity == 16  # nothing discarded, nothing wasted


def test_the_biased_draft_by_hand():
    e = payoff.long_run("biased", 3)[0]
    assert e == F(708837279, 343864625)  # about 2.061 tokens per block
    r = batch_payoff("biased", 3, F(1, 10), 8, 16)
    assert r.block_time == F(3, 10) + 2
    assert r.speedup == e / F(23, 10) < 1  # slower than ordinary decoding in this batch
    assert r.positions_per_token == 4 / e
    assert r.capacity == 16 * e / 4 < r.ordinary_capacity  # the loaded machine serves fewer


def test_a_request_gets_faster_while_the_loaded_machine_serves_fewer():
    r = batch_payoff("biased", 3, F(1, 10), 4, 16)
    assert r.memory_bound and r.speedup > 1
    assert r.capacity < r.ordinary_capacity


def test_past_the_edge_the_speedup_falls_and_the_best_width_shrinks():
    speedups = [batch_payoff("biased", 3, F(1, 10), b, 16).speedup for b in (4, 5, 6, 8)]
    assert speedups == sorted(speedups, reverse=True) and speedups[0] > speedups[-1]
    best = [batch_table("biased", F(1, 10), b, 16).best_width for b in (1, 2, 4, 8)]
    assert best == [3, 3, 3, 1]
    assert [batch_table("aligned", F(1, 10), b, 16).best_width for b in (1, 2, 4, 8)] == [8, 7, 3, 1]
    assert batch_table("biased", F(1, 10), 1, 16).best_width == payoff.payoff_table("biased", F(1, 10)).best_width


def test_in_a_compute_bound_batch_speculation_does_not_pay():
    t = batch_table("biased", F(1, 10), 16, 16)
    assert not t.pays_off and t.best_width == 1
    assert batch_table("biased", F(1, 10), 4, 16, widths=(2, 3, 4)).best.width == 3
    assert batch_table("biased", F(1, 10), 4, 16).pays_off


@pytest.mark.parametrize("args, message", [
    (("lookup", 3, 0, 1, 16), "full width"), (("biased", 0, 0, 1, 16), "width"),
    (("biased", 3, 0, 0, 16), "batch size b"), (("biased", 3, 0, 1, 0), "compute-bound batch size s"),
    (("biased", 3, -1, 1, 16), "draft cost"), (("biased", 3, 0, True, 16), "batch size b"),
])
def test_bad_arguments_get_one_clear_sentence(args, message):
    with pytest.raises(ValueError, match=message):
        batch_payoff(*args)


def test_the_batch_command_marks_the_best_width_and_the_ceilings(capsys):
    from core import cli
    assert cli.main(["batch", "--draft", "aligned", "--cost", "0", "--batch", "8", "--saturation", "16"]) == 0
    out = capsys.readouterr().out
    assert "ordinary decoding: 8 tokens per pass's time (at most 16)" in out
    row = next(line for line in out.splitlines() if line.strip().startswith("3 "))
    assert row.split()[1:5] == ["2.0000", "2.0000", "16.0000", "16.0000"]  # pass cost, speedup, throughput, ceiling
    assert "<- best" in next(line for line in out.splitlines() if line.strip().startswith("1 "))


def test_the_batch_command_refuses_the_lookup_draft_in_one_line(capsys):
    from core import cli
    assert cli.main(["batch", "--draft", "lookup", "--cost", "0", "--batch", "8", "--saturation", "16"]) == 2
    assert "invalid choice" in capsys.readouterr().err


def test_which_drafts_the_batch_model_takes_is_asked_of_each_kind_not_its_name():
    from core import drafts
    from core.batch import BATCH_DRAFTS
    assert "lookup" not in BATCH_DRAFTS and {"aligned", "biased", "heads"} <= set(BATCH_DRAFTS)
    copier = drafts.register(drafts.DraftKind("copier", "Copier", "copies like lookup", "the text",
                                              drafts.LookupDraft))
    table = drafts.register(drafts.DraftKind("flat", "Flat", "every token alike", "the last committed token",
                                             drafts.TableDraft, drafts.KINDS["aligned"].table))
    try:
        assert "copier" not in BATCH_DRAFTS and "flat" in BATCH_DRAFTS
        with pytest.raises(ValueError, match="drafts the full width"):
            batch_payoff(copier.name, 2, 0, 1, 4)
    finally:
        del drafts.KINDS["copier"], drafts.KINDS["flat"]
