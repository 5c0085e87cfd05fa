"""Predict first after a rejection (issue 28, item 1): the reader names the tokens the correction can be
before it is shown. Driven from Python: the masking, the reveal (core's residual, its support, the verdict),
the tally, and what Commit, the runs and the timeline do while the question is open.

The worked block of tests/test_predict.py: biased draft, width 3, seed 1, proposals A, A, B; the second
A rejected; p = (1/5, 3/5, 1/5), q = (7/10, 1/4, 1/20) there, so the residual is (0, 7/10, 3/10): the
correction can be B or C (p > q), never A (p ≤ q). It is B.
"""

import html as markup
import re
from fractions import Fraction as F

import pytest
from panel.io.state import set_curdoc

from app import i18n
from app.step import predict_words
from app.step.model import StepModel
from app.step.predict_view import call_key, support_key
from app.step.views import StepView
from core import Session
from core.predict import KEPT, REJECTED, check_support
from test_step_views import Page, changed, click


def text(html):
    return markup.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip())


def asked(seed=1, calls=(KEPT, REJECTED, KEPT)):
    """The view with Predict first on, block 1 drafted, called and verified: the question is open."""
    view = StepView(model=StepModel(draft="biased", width=3, seed=seed))
    view.actions.predict.value = True
    click(view.actions.buttons["draft"])
    for i, c in enumerate(calls[:len(view.model.session.pending.proposals)]):
        view.opener.click(call_key(i, c))
    click(view.actions.buttons["verify"])
    return view


def answer(view, tokens):
    for token in tokens:
        view.opener.click(support_key(token))
    view.opener.click(support_key("confirm"))


def panes(view):
    """Every place the correction could show, as the reader reads it."""
    m = view.model
    return {"chips": view.strip.chips.object, "output": view.strip.output.object, "caption": view.caption.text.object,
            "inspector": view.inspector.body.object, "lanes": view.lanes.pane.object,
            "timeline": view.player.strip.object, "history": view.history.lines.object}


def rejecting_seeds(n=6):
    """Seeds whose first block rejects, with the proposals' count (the worked seed among them)."""
    out = []
    for seed in range(40):
        block = Session.start(draft="biased", width=3, seed=seed).draft().verify().pending
        if block.correction is not None and block.proposals:
            out.append(seed)
        if len(out) == n:
            break
    return out


def test_the_worked_block_asks_before_the_correction_is_shown():
    m = asked().model
    assert m.asking == 0 and m.asking_block() is m.session.pending
    assert m.session.pending.correction.token == "B"


@pytest.mark.parametrize("seed", rejecting_seeds())
def test_the_correction_is_masked_everywhere_until_answered(seed):
    view = asked(seed)
    m = view.model
    block = m.session.pending
    token = block.correction.token
    before = panes(view)
    # The strip: the correction's chip is a "?", and no chip button is that token as a correction.
    assert f"tok-{token} correction" not in before["chips"] and "tok-mask correction" in before["chips"]
    # The caption: neither the sentence of what happened nor the next step names the correction.
    verified_now = text(before["caption"])
    with_it = Session.start(draft="biased", width=3, seed=seed).draft().verify().pending
    assert f"the correction {token} was drawn" not in verified_now
    assert "Commit appends" in verified_now and f"Commit appends {' '.join(with_it.committed)}" not in verified_now
    # The inspector, on the rejected position (where Verify lands): no residual, no draw, no replacement chip.
    assert m.focus[1] == next(p.index for p in block.proposals if p.status == "rejected")
    shown = text(before["inspector"])
    assert "Drawn after you mark which tokens it can be" in shown
    assert "residual [" not in shown and "drawn from the residual; it goes into the output" not in shown
    assert not {"residual", "stack"} & set(view.inspector.charts.shown)
    # The output card, empty before the first Commit, says how many tokens Commit appends, not which.
    if not m.session.blocks:
        assert f"Commit appends block 1's {len(with_it.committed)}" not in text(before["output"])
        assert "once you have answered" in text(before["output"])
    # The lanes, the timeline and the history never show a verified block's tokens before Commit.
    assert "↺" not in before["timeline"]
    answer(view, "ABC")
    after = panes(view)
    assert f"tok-{token} correction" in after["chips"]
    assert f"the correction {token} was drawn" in text(after["caption"])
    assert "drawn from the residual; it goes into the output" in text(after["inspector"])
    assert "residual" in view.inspector.charts.shown
    if not m.session.blocks:
        assert " ".join(with_it.committed) in text(after["output"])
    fresh = panes(StepView(model=m))  # drawn anew from the model: the watchers left nothing stale
    assert fresh == after
    for part in ("lanes", "timeline", "history"):  # these had nothing to hide: unchanged by the answer
        assert after[part] == before[part], part


def test_the_reveal_shows_cores_residual_its_support_and_why():
    view = asked()
    answer(view, "BC")
    m = view.model
    block = m.session.pending
    check = m.judged[0].support
    assert check == check_support(block, "BC")  # the model's record is core's, on the same block and guess
    assert check.residual == block.correction.residual == (0, F(7, 10), F(3, 10))
    shown = text(view.predict.html.object)
    lines = predict_words.support_reveal(check, block.proposals[1])
    assert all(text(line) in shown for line in lines)
    assert "norm(max(p − q, 0)) = A 0, B 7/10 = 0.7, C 3/10 = 0.3." in shown
    assert ("Its support, the tokens the correction can be, is B, C: exactly the tokens where the target gives "
            "more than the draft, p > q (B: p = 3/5 = 0.6 > q = 1/4 = 0.25, C: p = 1/5 = 0.2 > q = 1/20 = 0.05). "
            "Where p ≤ q the residual is 0 (A: p = 1/5 = 0.2 ≤ q = 7/10 = 0.7).") in shown
    assert "You marked B, C: exactly the support. Right." in shown and "The correction drawn: B." in shown


def test_a_wrong_set_says_what_was_missing_and_what_cannot_be():
    view = asked()
    answer(view, "AB")
    check = view.model.judged[0].support
    assert not check.right and check.missing == ("C",) and check.extra == ("A",) and check.covered == F(7, 10)
    shown = text(view.predict.html.object)
    assert "You marked A, B: not the support." in shown
    assert "You left out C, which the correction can be." in shown
    assert "You named A, which it cannot be (there p ≤ q)." in shown
    assert "Your set holds 7/10 = 0.7 of the residual's probability." in shown


def test_the_tally_counts_the_support_apart_from_the_calls():
    view = asked()
    calls_only = view.model.tally()
    answer(view, "BC")
    t = view.model.tally()
    assert (t.right, t.scored, t.expected_right) == (calls_only.right, calls_only.scored, calls_only.expected_right)
    assert (t.support_guesses, t.support_right) == (1, 1)
    assert "Correction tokens: 1 of 1 sets exactly right." in text(view.predict.html.object)


def test_a_mark_toggles_and_confirm_needs_one():
    view = asked()
    m = view.model
    view.opener.click(support_key("C"))
    view.opener.click(support_key("B"))
    assert m.marked == ("B", "C")  # table order, whatever the order of the clicks
    view.opener.click(support_key("C"))
    assert m.marked == ("B",)
    assert 'aria-label="B can be the correction" aria-pressed="true"' in view.predict.html.object
    view.opener.click(support_key("B"))
    view.opener.click(support_key("confirm"))
    assert m.asking == 0 and "Mark at least one token" in m.notice
    view.opener.click(support_key("Z"))
    assert m.marked == () and m.notice  # not a token: a sentence, never a traceback


def test_commit_and_the_runs_wait_for_the_answer_and_say_why():
    view = asked()
    m = view.model
    session = m.session
    for action in ("commit", "step", "run_block", "run_to_end"):
        assert view.actions.buttons[action].disabled, action
        m.act(action)
        assert m.session is session, action
    assert "Commit waits for your answer" in m.notice or "wait until you answer" in m.notice
    caption = text(view.caption.text.object)
    assert "Commit waits for your answer: mark every token the correction can be, then press Confirm." in caption
    assert "Run block, Run to end and the timeline's later moments wait until you answer" in caption
    answer(view, "BC")
    assert not view.actions.buttons["commit"].disabled and not view.actions.buttons["run_to_end"].disabled


def test_a_jump_ahead_waits_and_a_jump_back_ends_the_question_unanswered():
    view = asked()
    m = view.model
    now = m.steps_done()
    session = m.session
    view.player.open(f"moment:{now + 1}")  # the timeline's next moment: it would show the correction
    assert m.session is session and m.asking == 0 and "jumping there would show the outcome first" in m.notice
    m.back()  # back to the drafted block: the question ends, nothing of it is counted
    assert m.asking is None and m.asking_block() is None and m.tally().support_guesses == 0
    assert not view.actions.buttons["run_block"].disabled  # nothing waits: this block's outcome was seen


def test_while_calling_the_runs_and_a_jump_ahead_wait_too():
    view = StepView(model=StepModel(draft="biased", width=3, seed=1))
    view.actions.predict.value = True
    m = view.model
    click(view.actions.buttons["draft"])
    for i in range(3):
        view.opener.click(call_key(i, KEPT))
    assert not view.actions.buttons["verify"].disabled  # every call made: Verify, not a run, reveals them
    assert view.actions.buttons["run_block"].disabled and view.actions.buttons["run_to_end"].disabled
    session = m.session
    m.jump(m.steps_done() + 1)
    assert m.session is session and m.notice


def test_switching_predict_off_shows_the_correction_and_counts_nothing():
    view = asked()
    m = view.model
    view.actions.predict.value = False
    assert m.asking is None and "tok-B correction" in view.strip.chips.object
    assert not view.actions.buttons["commit"].disabled and m.tally().support_guesses == 0


def test_without_a_rejection_nothing_is_asked():
    for seed in range(40):
        block = Session.start(draft="biased", width=3, seed=seed).draft().verify().pending
        if block.correction is None and block.proposals:
            break
    view = asked(seed, calls=(KEPT, KEPT, KEPT))
    assert view.model.asking is None and not view.actions.buttons["commit"].disabled
    assert "Which tokens can the correction be?" not in text(view.predict.html.object)


def test_a_mark_and_the_confirm_are_one_patch_each():
    page = Page(asked())
    for key in ("B", "confirm"):
        page.events.clear()
        with set_curdoc(page.doc):
            page.view.opener.click(support_key(key))
        attrs = changed(page.events)
        assert attrs and max(attrs.values()) == 1, (key, attrs)
        assert not [a for _, a in attrs if a in ("css_classes",)], key


def test_the_question_and_the_reveal_in_chinese():
    with i18n.use("zh"):
        view = asked()
        question = text(view.predict.html.object) + text(view.caption.text.object)
        answer(view, "AB")
        reveal = text(view.predict.html.object)
    assert "校正 token 可能是哪些？" in question and "你漏掉了 C" in reveal and "7/10 = 0.7" in reveal
    left = re.sub(r"token|norm\(max", "", question + reveal)
    assert not re.search(r"[a-z]{4,}", left), left


def test_the_question_shows_the_rows_it_is_answered_from():
    shown = text(asked().predict.html.object)
    assert "There p = A 1/5 = 0.2, B 3/5 = 0.6, C 1/5 = 0.2 and q = A 7/10 = 0.7, B 1/4 = 0.25, C 1/20 = 0.05" in shown
