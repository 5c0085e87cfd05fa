"""The authored tables: exact, complete, and loudly rejected when malformed."""

from fractions import Fraction as F

import pytest

import toy_tables
from toy_tables import TableError, load_table


def test_target_rows_are_the_seed_numbers_exactly():
    t = toy_tables.target.rows
    assert t[""] == (F("0.50"), F("0.30"), F("0.20"))
    assert t["A"] == (F("0.20"), F("0.60"), F("0.20"))
    assert t["B"] == (F("0.55"), F("0.15"), F("0.30"))
    assert t["C"] == (F("0.25"), F("0.25"), F("0.50"))


def test_aligned_draft_equals_the_target():
    assert toy_tables.drafts["aligned"].rows == toy_tables.target.rows


def test_biased_draft_starts_at_the_seed_row_and_always_favours_a():
    rows = toy_tables.drafts["biased"].rows
    assert rows[""] == (F("0.80"), F("0.15"), F("0.05"))
    for key, row in rows.items():
        assert row[0] >= F("0.70"), key
        assert row[0] == max(row)


def test_integer_weights_are_the_same_rows_over_one_denominator():
    for table in (toy_tables.target, *toy_tables.drafts.values()):
        for key, row in table.rows.items():
            assert tuple(F(w, table.denominator) for w in table.weights[key]) == row
            assert sum(table.weights[key]) == table.denominator


GOOD = {"": ("0.5", "0.5", "0"), "A": ("1", "0", "0"), "B": ("0", "1", "0"), "C": ("1/3", "1/3", "1/3")}


def broken(**rows):
    raw = dict(GOOD)
    raw.update(rows)
    return raw


@pytest.mark.parametrize(
    "raw, message",
    [
        ({k: v for k, v in GOOD.items() if k != "B"}, "table 'toy': missing row after B"),
        (broken(A=("0.5", "0.6", "-0.1")), "table 'toy', row after A, entry 3: -0.1 is negative"),
        (broken(C=("0.3", "0.3", "0.3")), "table 'toy', row after C: entries sum to 9/10, not exactly 1"),
        (broken(**{"": ("0.5", "0.5")}), "table 'toy', row empty prefix: expected 3 entries"),
        (broken(B=("x", "0.5", "0.5")), "table 'toy', row after B, entry 1: 'x' is not a number"),
        (broken(B=(0.1, 0.2, 0.7)), "must be an exact decimal string or fraction, not a float"),
        ({**GOOD, "D": ("1", "0", "0")}, "unknown row 'D'"),
        ("not a table", "expected a mapping"),
    ],
)
def test_a_malformed_table_names_the_table_the_row_and_the_problem(raw, message):
    with pytest.raises(TableError) as err:
        load_table("toy", raw)
    assert message in str(err.value)


def test_a_valid_table_loads_exactly():
    table = load_table("toy", GOOD)
    assert table.rows["C"] == (F(1, 3), F(1, 3), F(1, 3))
    assert table.denominator == 6


def test_loaded_tables_are_read_only():
    with pytest.raises(TypeError):
        toy_tables.target.rows["A"] = (F(1), F(0), F(0))
