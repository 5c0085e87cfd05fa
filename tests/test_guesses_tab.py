"""The "Several guesses at once" tab without a browser: model, words and views.

The model is driven like Panel's "test the todo app" tutorial: set
parameters, call actions, read what the views would show. Every number a
sentence claims is checked against the ``core.tree`` record it describes.
"""

from fractions import Fraction as F

import pytest

from app.guesses import words
from app.payoff import candidates_words
from app.guesses.model import GuessesModel
from app.guesses.tree_chart import layout
from app.guesses.views import GuessesTab, counters_html, inspector_html, legend_html
from core.tree import TreeSession


def test_default_scenario_is_the_biased_draft_two_candidates_depth_two_seed_one():
    m = GuessesModel()
    assert (m.draft, m.candidates, m.width, m.seed) == ("biased", 2, 2, 1)
    assert m.session.phase == "draft" and m.happened == words.START


def test_draft_verify_commit_walk_the_phases_one_update_each():
    m = GuessesModel()
    seen = []
    m.param.watch(lambda *events: seen.append({e.name for e in events}), ["session", "selected", "happened"])
    m.act("draft")
    assert m.session.phase == "verify"
    assert m.happened == words.drafted(m.session.pending)
    assert "6 nodes" in m.happened
    m.act("verify")
    block = m.session.pending
    assert m.happened == words.verified(block)
    assert f"correction {block.correction.token}" in m.happened
    m.act("commit")
    assert m.session.output == block.committed == ("B",)
    assert "output now holds 1 token" in m.happened
    assert len(seen) == 3 and all("session" in names and "happened" in names for names in seen)  # one batch each


def test_an_action_out_of_turn_is_a_notice_not_an_error():
    m = GuessesModel()
    m.act("verify")
    assert m.notice.startswith("Verify is not possible right now.")
    assert m.session.phase == "draft" and m.error_trace == ""


def test_changing_a_control_starts_the_scenario_over():
    m = GuessesModel()
    m.act("run_block")
    m.candidates = 3
    assert m.session.blocks == () and m.session.candidates == 3
    assert "started over" in m.happened and "3 candidates per position" in m.happened
    assert "a tree of 12 nodes" in m.happened


def test_run_to_the_end_then_next_step_is_refused_and_reset_starts_again():
    m = GuessesModel(draft="aligned", candidates=1, width=4)
    while m.session.phase != "done":
        m.act("run_block")
    assert len(m.session.output) == 8
    assert not m.can("step") and not m.can("draft")
    m.act("reset")
    assert m.session.output == () and m.happened == words.RESET


def test_the_inspector_shows_the_selected_node_and_every_candidate_at_its_position():
    m = GuessesModel()
    m.act("draft")
    m.act("verify")
    got = m.inspected()
    assert got.node.id == m.selected == 1  # the last tested node
    assert [s.id for s in got.siblings] == [0, 1]
    assert got.correction is m.session.pending.correction
    text = inspector_html(got, "exact")
    assert "Candidate 1 (A) was tested against r(x) = 0.5 with q(x) = 0.8" in text
    assert "min(1, r(x)/q(x)) = 0.625" in text and "so it was rejected" in text
    assert "Candidate 2 (A) was tested against r(x) = 0 " in text
    assert "correction B was drawn from the last residual" in text
    m.select(3)
    assert m.inspected().node.status == "discarded"
    assert "was never tested" in inspector_html(m.inspected(), "exact")


def test_test_words_say_the_record_numbers():
    node = TreeSession.start("biased", 2, 2, 1).draft().verify().pending.nodes[0]
    assert node.accept_probability == F(5, 8)
    sentence = words.test_words(node)
    assert "0.625" in sentence and "u = 0.6870 ≥ 0.625" in sentence and sentence.endswith("rejected.")


def test_counters_are_the_core_counters():
    m = GuessesModel()
    m.act("run_block")
    m.act("run_block")
    n = m.session.counters
    text = counters_html(m.session)
    assert (n.target_passes, n.draft_steps, n.committed) == (2, 12, 2)
    assert '<div class="n">12</div><div class="what">draft tokens spent</div>' in text
    assert words.per_pass(n) in text and "Tokens per target pass: 1, for 6 draft tokens per pass." in text


def test_the_layout_draws_every_node_once_plus_the_text_and_the_last_token():
    block = TreeSession.start("biased", 3, 2, 5).draft().verify().pending
    items, rows = layout(block, ())
    keys = [i[0] for i in items]
    assert sorted(k for k in keys if isinstance(k, int)) == list(range(12))
    extra = "correction" if block.correction else "bonus"
    assert keys.count("text") == 1 and keys.count(extra) == 1
    assert rows == 9 + (block.correction is not None)
    statuses = {i[3] for i in items}
    assert statuses <= set(words.STATUS)


def test_the_legend_names_each_status_with_a_mark_and_a_shape():
    text = legend_html()
    for mark, name, meaning in words.STATUS.values():
        assert f"<b class=\"mark\">{mark}</b> <b>{name}</b>" in text
    assert text.count("<svg") == len(words.STATUS)


def test_the_tab_builds_and_redraws_the_tree_in_place():
    tab = GuessesTab()
    fig = tab.tree.chart.fig
    sources = dict(tab.tree.chart.nodes)
    tab.model.act("draft")
    assert tab.tree.chart.fig is fig and tab.tree.chart.nodes == sources
    assert len(sources["proposed"].data["x"]) == 6 and sources["proposed"].data["mark"] == ["?"] * 6
    tab.model.act("verify")
    assert len(sources["rejected"].data["x"]) == 2 and len(sources["correction"].data["x"]) == 1
    assert tab.tree.picker.value == tab.model.selected == 1
    tab.tree.picker.value = 0
    assert tab.model.selected == 0


@pytest.mark.parametrize("fn, args", [
    (words.scenario, ("biased", 3, 4, 0)),
    (candidates_words.payoff_row, ()),
])
def test_sentences_are_whole_sentences(fn, args):
    if fn is candidates_words.payoff_row:
        from core import tree_payoff
        text = fn(tree_payoff.tree_payoff("biased", 2, 2, "0.1"))
        assert text.startswith("2 candidates, width 2:")
        return
    text = fn(*args)
    assert text[0].isupper() and text.endswith(".") and "120 nodes" in text


def test_payoff_section_draws_three_curves_and_rings_the_best():
    from app.payoff.candidates import CandidatesView
    from app.payoff.model import PayoffModel

    m = PayoffModel()
    m._set(active=True)
    m._compute()
    view = CandidatesView(model=m)
    assert [len(view.sources[k].data["x"]) for k in (1, 2, 3)] == [8, 8, 8]
    assert view.best.data["x"] == [3]  # biased, c = 0.1: one candidate, width 3
    assert "the best is 1 candidate per position at width 3" in view.text.object
    m.cost = 0.0
    assert view.best.data["x"] == [8] and "3 candidates per position at width 8" in view.text.object


# ---- issue 23, item 7: only the drafts that can run a tree -------------------------------------

def test_the_tab_offers_exactly_the_drafts_core_can_run_a_tree_with():
    """Lookup and Heads were offered; a click showed a developer's error and kept the old tree."""
    from core.tree import TREE_DRAFTS
    tab = GuessesTab()
    offered = list(tab.controls.draft.options.values())
    assert sorted(offered) == sorted(TREE_DRAFTS)
    for draft in offered:
        tab.controls.draft.value = draft
        assert tab.model.notice == "" and tab.model.session.config.draft == draft


def test_a_draft_that_cannot_run_a_tree_is_not_a_value_of_the_model():
    m = GuessesModel()
    before = m.session
    with pytest.raises(ValueError):
        m.draft = "lookup"  # refused by the parameter, not turned into a developer's notice
    assert m.draft == "biased" and m.session is before and m.notice == ""


def test_the_help_says_in_one_plain_sentence_why_the_other_drafts_are_missing():
    import core
    from app.i18n import t
    from core.tree import TREE_DRAFTS
    tab = GuessesTab()
    help_text = tab.controls.draft_help
    left_out = [t(f"draft.{d}") for d in core.ALL_DRAFTS if d not in TREE_DRAFTS]
    assert left_out and all(name in help_text for name in left_out)
    assert "ConfigError" not in help_text and "need a draft table" not in help_text
