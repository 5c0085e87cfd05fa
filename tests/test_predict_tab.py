"""Predict first in the step tab (issue 28, item 1), driven from Python: calls, Verify, the reveal, the tally.

The worked block of tests/test_predict.py: biased draft, width 3, seed 1,
proposals A, A, B; the first A kept with probability 5/8, the second
rejected (kept with 2/7), B discarded.
"""

import json
import re
from pathlib import Path

import pytest
from panel.io.state import set_curdoc

from app import i18n, urlstate
from app.step.model import StepModel
from app.step.predict_view import call_key, predict_html, support_key
from app.step.views import StepView
from core import Session
from core.display import dec, frac
from core.predict import KEPT, REJECTED, judge_calls, tally
from test_step_views import Page, changed, click

I18N = Path(__file__).resolve().parents[1] / "app" / "i18n"


def text(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def predicting(draft="biased", width=3, seed=1):
    view = StepView(model=StepModel(draft=draft, width=width, seed=seed))
    view.actions.predict.value = True  # the toggle, as a click sets it
    return view


def test_verify_waits_for_every_call_then_is_enabled():
    view = predicting()
    m, verify = view.model, view.actions.buttons["verify"]
    click(view.actions.buttons["draft"])
    assert verify.disabled and view.actions.buttons["step"].disabled
    assert "3 proposals still need one" in text(view.caption.text.object)
    view.opener.click(call_key(0, KEPT))
    view.opener.click(call_key(1, REJECTED))
    assert verify.disabled and "1 proposal still needs one" in text(view.caption.text.object)
    assert 'aria-pressed="true"' in view.predict.html.object
    view.opener.click(call_key(2, KEPT))
    assert not verify.disabled and m.calls == (0, (KEPT, REJECTED, KEPT))
    assert "still need" not in text(view.caption.text.object)


def test_verify_out_of_turn_says_why_and_changes_nothing():
    view = predicting()
    m = view.model
    click(view.actions.buttons["draft"])
    before = m.session
    m.act("verify")
    assert m.session is before and "Verify waits for your calls" in m.notice


def test_without_predict_verify_is_enabled_after_draft():
    view = StepView(model=StepModel(draft="biased", width=3, seed=1))
    click(view.actions.buttons["draft"])
    assert not view.actions.buttons["verify"].disabled and not view.predict._layout.visible


def test_verify_reveals_each_call_beside_the_exact_chance():
    view = predicting()
    click(view.actions.buttons["draft"])
    for i, c in enumerate((REJECTED, KEPT, KEPT)):
        view.opener.click(call_key(i, c))
    click(view.actions.buttons["verify"])
    shown = text(view.predict.html.object)
    assert "Position 1 (A): you said rejected; it was kept with probability 5/8 = 0.625: a lucky call" not in shown
    assert "Position 1 (A): you said rejected; it was kept with probability 5/8 = 0.625: an unlikely call." in shown
    assert "Position 2 (A): you said kept; it was rejected with probability 5/7 ≈ 0.714: an unlikely call." in shown
    assert "Position 3 (B): you said kept; it was never tested" in shown
    # 0 right of 2; the always-likelier student expects 5/8 + 5/7 = 75/56 on the same calls.
    assert "Tally: 0 right of 2 tested calls." in shown and "expects 1.34 (= 75/56) right" in shown


def play(view, picks, blocks, support="ABC"):
    """Draft, call each proposal by ``picks(i)``, Verify, mark ``support`` after a rejection, Commit:
    ``blocks`` times."""
    m = view.model
    for _ in range(blocks):
        if m.session.phase == "done":
            break
        click(view.actions.buttons["draft"])
        block = m.session.pending
        for p in block.proposals:
            view.opener.click(call_key(p.index, picks(p.index)))
        click(view.actions.buttons["verify"])
        if m.asking_block() is not None:
            for token in support:
                view.opener.click(support_key(token))
            view.opener.click(support_key("confirm"))
        click(view.actions.buttons["commit"])


@pytest.mark.parametrize("seed", [0, 1, 2, 5])
def test_the_tally_is_cores_over_the_same_blocks(seed):
    picks = lambda i: KEPT if i % 2 == 0 else REJECTED
    view = predicting(seed=seed)
    play(view, picks, 4)
    session = view.model.session
    expected = tally(judge_calls(b, [picks(p.index) for p in b.proposals], support="ABC" if b.correction else None)
                     for b in session.blocks if b.proposals)
    assert view.model.tally() == expected and expected.scored > 0
    e = expected.expected_right
    assert f"Tally: {expected.right} right of {expected.scored} tested calls." in text(view.predict.html.object)
    assert (dec(e) if e.denominator == 1 else f"{dec(e)} (= {frac(e)})") in text(view.predict.html.object)


def test_a_block_verified_again_after_step_back_is_counted_once():
    view = predicting()
    m = view.model
    play(view, lambda i: KEPT, 1)
    once = m.tally()
    m.back(); m.back()  # back before Verify: the outcome is known now, so it is not called again
    assert not view.actions.buttons["verify"].disabled and m.calling() is None
    assert "You have already seen what Verify does with block 1" in text(view.predict.html.object)
    click(view.actions.buttons["verify"])
    assert m.tally() == once and m.asking is None  # the first calls stand; no second question either
    assert "Your calls, judged" in text(view.predict.html.object)


def test_calls_made_knowing_the_outcome_never_reach_the_tally():
    view = predicting()
    m = view.model
    play(view, lambda i: KEPT, 1)  # position 2 was rejected: "kept" there was wrong
    once = m.tally()
    m.jump(1)  # the drafted moment of block 1, from the timeline
    assert m.calling() is None
    m.call(1, REJECTED)  # a call now would be made knowing the answer
    assert "nothing to call" in m.notice
    click(view.actions.buttons["verify"])
    assert m.tally() == once


def test_a_call_is_one_patch_and_no_class_change():
    page = Page(predicting())
    page.click("draft")
    page.events.clear()
    with set_curdoc(page.doc):
        page.view.opener.click(call_key(0, KEPT))
    attrs = changed(page.events)
    assert attrs and max(attrs.values()) == 1
    assert not [a for _, a in attrs if a in ("css_classes", "visible")]


def test_every_sentence_in_both_languages():
    en, zh = (json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8")) for lang in ("en", "zh"))
    keys = [k for k in en if k.startswith("step.predict.")]
    assert len(keys) > 15 and all(k in zh and zh[k] != en[k] for k in keys)
    assert "url.must.predict" in zh
    for lang, word in (("en", "likelier"), ("zh", "更可能")):
        with i18n.use(lang):
            view = predicting()
            click(view.actions.buttons["draft"])
            for i in range(3):
                view.opener.click(call_key(i, KEPT))
            calls = text(predict_html(view.model))
            click(view.actions.buttons["verify"])
            shown = text(predict_html(view.model))
        assert word in shown and "5/8 = 0.625" in shown
        if lang == "zh":
            # No English left in the Chinese page ("token" and the formula norm(max(p − q, 0)) are the glossary's).
            left = re.sub(r"token|norm\(max", "", calls + shown)
            assert not re.search(r"[a-z]{4,}", left), (calls, shown)


def test_predict_is_in_the_url_when_on_and_the_calls_never_are():
    assert urlstate.read("?draft=biased&predict=1").predict
    assert not urlstate.read("?draft=biased").predict
    bad = urlstate.read("?predict=maybe")
    assert not bad.predict and bad.notice
    assert "predict=1" in urlstate.write({"draft": "biased", "predict": "1"})
    assert "predict" not in urlstate.write({"draft": "biased", "predict": "0"})
    view = predicting()
    click(view.actions.buttons["draft"])
    view.opener.click(call_key(0, REJECTED))
    assert set(view.model.scenario()) <= set(urlstate.BY_NAME)  # a scenario of URL keys only: no calls


def test_the_page_opens_with_predict_on_from_the_link():
    from app import main

    class Location:
        search = "?draft=biased&width=3&seed=1&predict=1"
        param = None

    model = StepModel()
    present = main.present_switch()
    loc = type("L", (), {})()
    loc.search = Location.search
    loc.param = type("P", (), {"watch": lambda *a, **k: None})()
    writer = main.link_url(model, loc, present)
    assert model.predict and "predict=1" in writer.value
    model.set_predict(False)
    assert "predict" not in writer.value


def test_the_embed_builder_writes_predict_1_when_ticked_and_follows_the_toggle():
    view = StepView(model=StepModel(draft="biased", width=3, seed=1))
    embed = view.embed
    embed.open()
    assert "predict=" not in embed.area.value and not embed.predict.value
    embed.predict.value = True
    assert "predict=1" in embed.area.value
    embed.predict.value = False
    view.actions.predict.value = True  # the page's toggle: the code copied from here opens the same way
    assert embed.predict.value and "predict=1" in embed.area.value


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_while_the_tokens_are_asked_the_keys_line_says_a_b_c_mark_them_and_b_is_no_step_back(lang):
    from app.page import words as page_words
    from app.step import predict_words
    from app.step import words as step_words

    with i18n.use(lang):
        view = predicting()
        labels = step_words.SHORTCUT_LABELS
        normal, marking = page_words.shortcuts_line(labels), predict_words.marking_keys_line(labels)
        keys = lambda: text(view.actions.keys.object)  # noqa: E731
        assert keys() == normal
        click(view.actions.buttons["draft"])
        for i, call in enumerate((KEPT, REJECTED, KEPT)):
            view.opener.click(call_key(i, call))
        click(view.actions.buttons["verify"])
        assert view.model.asking_block() is not None and keys() == marking
        # The toggles claim their letters (app/page/page.js); Commit's C and Step back's B are left out.
        assert all(f'data-sp-key="{x}"' in view.predict.html.object for x in "abc")
        assert f"C {labels['commit']}" not in marking and f"B {labels['back']}" not in marking
        assert f"R {labels['reset']}" in marking and labels["back"] in marking
        view.opener.click(support_key("B"))
        view.opener.click(support_key("confirm"))
        assert view.model.asking_block() is None and keys() == normal
        assert "data-sp-key" not in view.predict.html.object
