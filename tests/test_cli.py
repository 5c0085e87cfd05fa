"""``python -m core``: readable output, exact numbers, one-line errors."""

import json
from fractions import Fraction as F
import subprocess
import sys
from pathlib import Path

import pytest

from core.cli import main

ROOT = Path(__file__).resolve().parent.parent


def run(capsys, *argv):
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_trace_prints_the_biased_seed_1_scenario(capsys):
    status, out, _ = run(capsys, "trace", "--draft", "biased", "--width", "3", "--seed", "1")
    assert status == 0
    assert "block 1  prefix []" in out and "rejected" in out and "discarded" in out
    assert "output: A B A B A B C A" in out


def test_trace_json_is_the_trace_to_dict(capsys):
    from core import simulate
    status, out, _ = run(capsys, "trace", "--draft", "biased", "--width", "3", "--seed", "1", "--json")
    assert status == 0 and json.loads(out) == simulate("biased", 3, 1).to_dict()


def test_trace_markdown_is_a_table(capsys):
    status, out, _ = run(capsys, "trace", "--draft", "aligned", "--width", "3", "--seed", "0", "--markdown")
    assert status == 0 and "| block | prefix |" in out


def test_check_reproduces_seed_001_lines(capsys):
    status, out, _ = run(capsys, "check", "--p", "0.6,0.3,0.1", "--q", "0.2,0.5,0.3")
    assert status == 0
    assert out.rstrip().splitlines()[-3:] == [
        "accepted mass: [0.2, 0.3, 0.1]",
        "rejection probability: 0.4",
        "final distribution: [0.6, 0.3, 0.1]",
    ]
    assert "equals p exactly: True" in out


def test_exact_reports_equality_and_distance(capsys):
    status, out, _ = run(capsys, "exact", "--draft", "biased", "--width", "3", "--length", "3")
    assert status == 0 and "total-variation distance: 0" in out and "equal: yes" in out
    status, out, _ = run(capsys, "exact", "--draft", "biased", "--width", "3", "--length", "2",
                         "--variant", "naive-resample")
    assert "equal: no (first differs at k = 1)" in out


def test_payoff_marks_the_best_width(capsys):
    status, out, _ = run(capsys, "payoff", "--draft", "biased", "--cost", "0.1")
    assert status == 0
    best = [line for line in out.splitlines() if "<- best" in line]
    assert len(best) == 1 and best[0].split()[0] == "3"


@pytest.mark.parametrize(
    "argv, message",
    [
        (["trace", "--draft", "greedy", "--width", "3", "--seed", "1"], "invalid choice: 'greedy'"),
        (["trace", "--draft", "biased", "--width", "9", "--seed", "1"], "--width must be from 1 to 8, got '9'"),
        (["trace", "--draft", "biased", "--width", "x", "--seed", "1"], "--width, 'x', is not a number"),
        (["trace", "--draft", "biased", "--width", "2.5", "--seed", "1"], "--width, '2.5', is not a whole number"),
        (["trace", "--draft", "biased", "--width", "3", "--seed", "-1"], "--seed must be from 0 to"),
        (["trace", "--draft", "biased", "--width", "3", "--seed", str(2**64)],
         "--seed must be from 0 to 18446744073709551615"),
        (["trace", "--draft", "biased", "--width", "3", "--seed", "1", "--max-tokens", "65"],
         "--max-tokens must be from 1 to 64"),
        (["trace", "--draft", "biased", "--width", "3", "--seed", "1", "--lookahead", "3/2"],
         "--lookahead must be from 0 to 1, got '3/2'"),
        (["check", "--p", "0.6,0.3", "--q", "1,0,0"], "--p: give 3 numbers"),
        (["check", "--p", "0.6,0.3,0.1", "--q", "one,0,0"], "--q: the value for A, 'one', is not a number"),
        (["exact", "--draft", "biased", "--width", "3", "--length", "12"], "--length must be from 1 to 8, got '12'"),
        (["payoff", "--draft", "biased", "--cost", "-1"], "--cost must be from 0 to 10, got '-1'"),
        (["payoff", "--draft", "biased", "--cost", "11"], "--cost must be from 0 to 10, got '11'"),
        ([], "required: command"),
    ],
)
def test_bad_arguments_give_one_line_and_status_2(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err
    assert "Traceback" not in err


# Each of these used to hang (Fraction builds 10**999999999 digit by digit) or end
# in an OverflowError traceback (issue 11). Run as real programs, with a time limit.
HOSTILE = [
    (["payoff", "--draft", "biased", "--cost", "1e999999999"], "--cost, '1e999999999', uses an exponent (e)"),
    (["trace", "--draft", "biased", "--width", "3", "--seed", "1", "--lookahead", "1e-999999999"],
     "--lookahead, '1e-999999999', uses an exponent (e)"),
    (["exact", "--draft", "biased", "--width", "3", "--length", "3", "--lookahead", "1e999999999"],
     "--lookahead, '1e999999999', uses an exponent (e)"),
    (["payoff", "--draft", "biased", "--cost", "1e400"], "--cost, '1e400', uses an exponent (e)"),
    (["payoff", "--draft", "biased", "--cost", "9" * 400], "--cost is too long (400 characters, at most 40)"),
    (["payoff", "--draft", "biased", "--cost", "9" * 39], "--cost must be from 0 to 10, got '9999999999999999999…'"),
    (["trace", "--draft", "biased", "--width", "3", "--seed", "9" * 5000], "--seed is too long (5,000 characters"),
    (["trace", "--draft", "biased", "--width", "3", "--seed", "1e3"], "--seed, '1e3', uses an exponent (e)"),
    (["check", "--p", "1/0,0,0", "--q", "0.2,0.5,0.3"], "--p: the value for A, '1/0', divides by zero"),
    (["check", "--p", "nan,0,0", "--q", "0.2,0.5,0.3"], "--p: the value for A, 'nan', is not a finite number"),
]


@pytest.mark.parametrize("argv, message", HOSTILE)
def test_hostile_numbers_end_at_once_with_one_line_and_status_2(argv, message):
    done = subprocess.run([sys.executable, "-m", "core", *argv], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"python -m core: error: {message}")
    assert "Traceback" not in done.stderr


def test_check_says_exactly_what_an_almost_one_row_sums_to(capsys):
    status, _, err = run(capsys, "check", "--p", "1/3,1/3,0.3333333", "--q", "0.2,0.5,0.3")
    assert status == 2
    # 1/3 + 1/3 + 3333333/10000000 = 29999999/30000000, which is 1/30000000 short of 1
    assert "the numbers sum to 29999999/30000000 ≈ 0.9999999667, not exactly 1" in err
    assert "1/30000000 ≈ 0.0000000333 short of 1" in err


def test_check_reads_fractions_exactly(capsys):
    status, out, _ = run(capsys, "check", "--p", "1/3,1/3,1/3", "--q", " 0.5 , .25, 1/4")
    assert status == 0
    assert "equals p exactly: True" in out and "rejection 1 - sum      1/6" in out


def test_payoff_takes_the_largest_cost_it_documents(capsys):
    status, out, _ = run(capsys, "payoff", "--draft", "biased", "--cost", "10")
    assert status == 0 and "c = 10;" in out
    best = [line for line in out.splitlines() if "<- best" in line]
    assert len(best) == 1 and best[0].split()[0] == "1"


def test_help_documents_the_range_of_every_number(capsys):
    for command, ranges in [("payoff", ["from 0 to 10", "from 0 to 1 "]), ("trace", ["1 to 8", "1 to 64", "2**64 - 1"]),
                            ("exact", ["K, 1 to 8"])]:
        with pytest.raises(SystemExit):
            main([command, "--help"])
        out = " ".join(capsys.readouterr().out.split())
        for words in ranges:
            assert words in out, (command, words)


def test_python_dash_m_core_runs_as_a_program():
    bad = subprocess.run([sys.executable, "-m", "core", "trace", "--draft", "nope", "--width", "3", "--seed", "1"],
                         cwd=ROOT, capture_output=True, text=True)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and "Traceback" not in bad.stderr
    good = subprocess.run([sys.executable, "-m", "core", "trace", "--draft", "biased", "--width", "3", "--seed", "1"],
                          cwd=ROOT, capture_output=True, text=True)
    assert good.returncode == 0 and "output:" in good.stdout


@pytest.mark.parametrize("cost, says", [(-1, "got -1"), (F(21, 2), "got 21/2"), (10**5000, "got more than 10"),
                                        (-F(1, 10**5000), "got a negative number"), (float("inf"), "got inf"),
                                        ("1e999999999", "uses an exponent (e)")],
                         ids=["-1", "21/2", "10**5000", "-1/10**5000", "inf", "text 1e999999999"])
def test_payoff_refuses_a_cost_outside_0_to_10_and_never_prints_a_huge_one(cost, says):
    from core import payoff
    with pytest.raises(ValueError) as err:
        payoff.payoff("biased", 3, cost)
    assert str(err.value).startswith("the draft cost c") and says in str(err.value)


# Issue 24 item 4: an option a command accepts must change what it prints, or be refused in
# one line; never taken and silently dropped (payoff --variant used to print the same table).
TRACE = ["trace", "--draft", "biased", "--width", "3", "--seed", "1"]
EXACT = ["exact", "--draft", "biased", "--width", "3", "--length", "3"]
PAYOFF = ["payoff", "--draft", "biased", "--cost", "0.1"]
OPTIONS = [["--variant", "naive-resample"], ["--variant", "greedy"], ["--lookahead", "0.5"],
           ["--temperature", "1/2"], ["--top-k", "2"], ["--transform-at", "draft"], ["--transform-at", "target"],
           ["--transform-at", "both"], ["--schedule", "heuristic"], ["--candidates", "2"]]


def scenario(base, draft):
    return [draft if word == "biased" else word for word in base]


@pytest.mark.parametrize("draft", ["biased", "lookup", "heads"])
@pytest.mark.parametrize("base", [TRACE, EXACT, PAYOFF], ids=["trace", "exact", "payoff"])
@pytest.mark.parametrize("option", OPTIONS, ids=" ".join)
def test_an_accepted_option_changes_the_output_or_is_refused_in_one_line(capsys, base, draft, option):
    status, before, _ = run(capsys, *scenario(base, draft))
    assert status == 0
    status, after, err = run(capsys, *scenario(base, draft), *option)
    if status == 0:
        assert after != before, f"{' '.join(option)} was accepted and changed nothing"
    else:
        assert status == 2 and after == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize("argv, message", [
    (PAYOFF + ["--variant", "naive-resample"], "payoff's figures are for the exact rule: --variant naive-resample"),
    (PAYOFF + ["--variant", "against-p"], "payoff's figures are for the exact rule: --variant against-p"),
    (PAYOFF + ["--schedule", "heuristic", "--lookahead", "0.5"],
     "--schedule heuristic does not combine with --lookahead in payoff"),
    (PAYOFF + ["--schedule", "heuristic", "--lookahead", "0"],
     "--schedule heuristic does not combine with --lookahead in payoff"),
    (TRACE + ["--transform-at", "draft"], "--transform-at says where --temperature and --top-k apply"),
    (EXACT + ["--transform-at", "target"], "--transform-at says where --temperature and --top-k apply"),
    (PAYOFF + ["--transform-at", "both"], "--transform-at says where --temperature and --top-k apply"),
])
def test_options_that_would_not_apply_are_refused(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err


def test_the_options_that_apply_still_work(capsys):
    status, out, _ = run(capsys, *PAYOFF, "--variant", "exact")
    assert status == 0 and "<- best" in out
    status, out, _ = run(capsys, *PAYOFF, "--lookahead", "1/2")
    assert status == 0 and out.startswith("biased draft, lookahead 1/2, draft step cost c = 1/10;")
    status, out, _ = run(capsys, *PAYOFF, "--temperature", "1/2", "--transform-at", "target")
    assert status == 0 and "<- best" in out
    status, out, _ = run(capsys, *EXACT, "--lookahead", "1/2")
    assert status == 0 and out.startswith("first 3 tokens, biased draft, width 3, variant exact, lookahead 1/2")


LONG_COST = "1/" + "9" * 37


def test_a_payoff_request_solves_each_chain_once_and_another_cost_solves_none(capsys, monkeypatch):
    """Issue 24 item 8: the long run's chain does not depend on c. One request solves the
    chain of each width and of the heuristic schedule once; a second cost reuses them all,
    however many digits it has (the time is the chain's: bench/bench_payoff.py)."""
    from core import payoff
    solved = []
    real = payoff.stationary
    monkeypatch.setattr(payoff, "stationary", lambda chain, nodes: solved.append(len(nodes)) or real(chain, nodes))
    payoff.chain.cache_clear()
    payoff.long_run.cache_clear()
    argv = ["payoff", "--draft", "biased", "--schedule", "heuristic", "--temperature", "1/4"]
    status, out, _ = run(capsys, *argv, "--cost", LONG_COST)
    assert status == 0 and "heuristic schedule" in out and f"c = {LONG_COST};" in out
    assert len(solved) == 9  # widths 1 to 8 and the heuristic schedule, each once
    status, again, _ = run(capsys, *argv, "--cost", "1/9")
    assert status == 0 and again != out and len(solved) == 9
