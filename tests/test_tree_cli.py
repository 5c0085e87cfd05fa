"""`python -m core trace|exact --candidates K`."""

import json

import pytest

from core.cli import main


def run(capsys, *argv):
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.mark.parametrize("form", [(), ("--json",), ("--markdown",)])
def test_one_candidate_prints_todays_trace_byte_for_byte(capsys, form):
    base = ("trace", "--draft", "biased", "--width", "3", "--seed", "1") + form
    assert run(capsys, *base, "--candidates", "1") == run(capsys, *base)


def test_the_tree_engine_with_one_candidate_under_the_wrong_rule_is_algorithm_1_renamed(capsys):
    base = ("trace", "--draft", "biased", "--width", "3", "--seed", "1", "--json")
    _, ours, _ = run(capsys, *base, "--candidates", "1", "--variant", "against-p")
    _, today, _ = run(capsys, *base)
    assert ours == today.replace('"variant": "exact"', '"variant": "against-p"')


def test_a_tree_trace_in_json_carries_its_nodes(capsys):
    status, out, _ = run(capsys, "trace", "--draft", "biased", "--width", "2", "--seed", "1", "--candidates", "3",
                         "--json")
    data = json.loads(out)
    assert status == 0 and data["candidates"] == 3
    first = data["blocks"][0]["proposals"]
    assert len(first) == 3 + 9
    assert [n["parent"] for n in first[:3]] == [None] * 3


def test_exact_reports_distance_zero_for_the_rule_and_the_exact_distance_for_the_wrong_one(capsys):
    base = ("exact", "--draft", "biased", "--width", "2", "--length", "3", "--candidates", "2")
    _, out, _ = run(capsys, *base)
    assert "total-variation distance: 0\n" in out
    _, out, _ = run(capsys, *base, "--variant", "against-p")
    assert "total-variation distance: 2583/16000" in out


@pytest.mark.parametrize("extra, words", [
    (("--candidates", "4"), "--candidates must be"),
    (("--candidates", "2", "--variant", "naive-resample"), "works with --variant exact or against-p"),
    (("--variant", "against-p"), "give --candidates"),
    (("--candidates", "2", "--lookahead", "0.5"), "does not combine with --lookahead"),
    (("--candidates", "2", "--width", "6"), "width is at most 4"),
])
def test_bad_tree_arguments_get_one_line_and_status_2(capsys, extra, words):
    argv = ["trace", "--draft", "biased", "--seed", "1"] + (["--width", "2"] if "--width" not in extra else []) + list(extra)
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert words in err and err.count("\n") == 1
