"""``python -m core``: readable output, exact numbers, one-line errors."""

import json
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
        (["trace", "--draft", "biased", "--width", "9", "--seed", "1"], "width must be from 1 to 8"),
        (["trace", "--draft", "biased", "--width", "x", "--seed", "1"], "invalid int value: 'x'"),
        (["check", "--p", "0.6,0.3", "--q", "1,0,0"], "give 3 numbers"),
        (["exact", "--draft", "biased", "--width", "3", "--length", "12"], "k must be from 1"),
        (["payoff", "--draft", "biased", "--cost", "-1"], "the draft cost c must be 0 or more"),
        ([], "required: command"),
    ],
)
def test_bad_arguments_give_one_line_and_status_2(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err
    assert "Traceback" not in err


def test_python_dash_m_core_runs_as_a_program():
    bad = subprocess.run([sys.executable, "-m", "core", "trace", "--draft", "nope", "--width", "3", "--seed", "1"],
                         cwd=ROOT, capture_output=True, text=True)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and "Traceback" not in bad.stderr
    good = subprocess.run([sys.executable, "-m", "core", "trace", "--draft", "biased", "--width", "3", "--seed", "1"],
                          cwd=ROOT, capture_output=True, text=True)
    assert good.returncode == 0 and "output:" in good.stdout
