"""A kind of draft is one entry of core.drafts.KINDS: registering one is all it takes to run it."""

from fractions import Fraction as F

import pytest

import core
import toy_tables
from core import drafts, exact
from core.cli import build_parser, main
from core.tree import TREE_DRAFTS, simulate_tree

THIRD = (F(1, 3),) * 3


@pytest.fixture
def uniform():
    """A throwaway table draft that proposes A, B and C alike, registered for one test."""
    kind = drafts.register(drafts.DraftKind("uniform", "Uniform", "every token alike", "the last committed token",
                                            drafts.TableDraft, {key: THIRD for key in drafts.KEYS}))
    yield kind
    del drafts.KINDS["uniform"]


def draft_choices():
    scenario = build_parser()._subparsers._group_actions[0].choices["exact"]
    return next(a.choices for a in scenario._actions if a.dest == "draft")


def test_the_registry_is_the_vocabulary_in_its_order():
    assert tuple(core.ALL_DRAFTS) == tuple(drafts.KINDS) == ("aligned", "biased", "lookup", "heads", "custom")
    assert tuple(core.DRAFTS) == tuple(TREE_DRAFTS) == ("aligned", "biased", "custom")
    assert tuple(toy_tables.drafts) == ("aligned", "biased")  # the custom draft's q is the scenario's (core.tables)
    assert [(k.name, k.label, k.label_key, k.has_table) for k in drafts.KINDS.values()] == [
        ("aligned", "Aligned", "draft.aligned", True), ("biased", "Biased", "draft.biased", True),
        ("lookup", "Lookup", "draft.lookup", False), ("heads", "Heads", "draft.heads", False),
        ("custom", "Custom", "draft.custom", True)]
    assert "lookup" in core.ALL_DRAFTS and "lookup" not in core.DRAFTS and ["aligned"] not in core.ALL_DRAFTS


def test_a_registered_kind_is_in_the_cli_choices_and_runs_exactly(uniform, capsys):
    assert "uniform" in draft_choices() and "uniform" in core.ALL_DRAFTS and "uniform" in TREE_DRAFTS
    result = exact.compare("uniform", 2, 3)
    assert result.distance == 0 and sum(result.result.values()) == 1
    assert main(["exact", "--draft", "uniform", "--width", "2", "--length", "2"]) == 0
    assert "equal: yes" in capsys.readouterr().out
    first = core.simulate("uniform", 3, 1).blocks[0].proposals[0]
    assert first.q == THIRD and core.position("uniform").q == THIRD
    assert simulate_tree("uniform", 2, 1, candidates=2).blocks[0].nodes[0].q == THIRD


def test_an_unregistered_kind_is_refused_in_one_sentence():
    assert "uniform" not in draft_choices()
    with pytest.raises(core.ConfigError, match="unknown draft 'uniform'; choose one of: aligned, biased, lookup, heads"):
        core.Config("uniform")
