"""The guided start (issue 14 item 8): presets that open seed-000 moments, found in core traces.

Each preset's link must open the moment it promises, and its question and answer must
name the numbers of that very trace (core records, not copied numbers). No browser.
"""

import re
from fractions import Fraction

import pytest

import core
from app import urlstate
from app.embed import words as embed_words
from app.page import words as page_words
from app.step import guide_words
from app.step.guide import Guide, rows_html
from app.i18n import use
from app.step import presets
from app.step.model import StepModel
from core.display import dec


def opened(preset):
    """The session a reader sees after opening the preset, and after the Verify it asks for."""
    values = urlstate.read(preset.query).values
    session = core.Session.start(core.Config(values["draft"], values["width"], values["seed"]))
    for _ in range(values["steps"]):
        session = session.step()
    return session, session.verify()


def by_key():
    return {p.key: p for p in presets.presets()}


def test_every_preset_opens_before_verify_with_a_question_to_predict():
    for preset in presets.presets():
        before, _ = opened(preset)
        assert before.next_action == "verify", preset.key
        assert "Before you click Verify" in preset.question and preset.answer


def test_the_aligned_preset_keeps_every_guess_and_draws_a_bonus():
    preset = by_key()["aligned-bonus"]
    _, after = opened(preset)
    block = after.pending
    assert {p.status for p in block.proposals} == {"accepted"} and block.bonus is not None
    assert f"{len(block.committed)} tokens for one target pass" in preset.answer.replace("four", "4")


def test_the_residual_preset_rejects_the_first_guess_and_uses_the_empty_prefix_residual():
    preset = by_key()["biased-residual"]
    _, after = opened(preset)
    block = after.pending
    first = block.proposals[0]
    assert block.index == 0 and first.status == "rejected"
    residual = core.position("biased", ()).residual
    assert block.correction.residual == residual == (0, Fraction(1, 2), Fraction(1, 2))  # seed 000's numbers
    assert f"q({first.token}) = {dec(first.q_x)}" in preset.question and f"p({first.token}) = {dec(first.p_x)}" in preset.question
    assert "[" + ", ".join(dec(x) for x in residual) + "]" in preset.answer


def test_the_discard_preset_discards_the_proposals_after_its_rejection():
    _, after = opened(by_key()["biased-discard"])
    statuses = [p.status for p in after.pending.proposals]
    assert "accepted" in statuses and statuses[statuses.index("rejected") + 1:] == ["discarded"] * (
        len(statuses) - statuses.index("rejected") - 1) and "discarded" in statuses


def test_a_preset_is_the_first_seed_that_shows_its_moment():
    seed, block = presets.first_seed("biased", 3, lambda b: b.proposals[0].status == "rejected")
    for earlier in range(seed):
        assert core.simulate("biased", 3, seed=earlier).blocks[0].proposals[0].status != "rejected"
    with pytest.raises(LookupError):
        presets.first_seed("aligned", 3, lambda b: b.proposals[0].status == "rejected")  # aligned never rejects


def test_the_rows_table_holds_every_authored_row_exactly():
    rows = presets.rows()
    assert [after for after, _, _ in rows] == ["", *core.TOKENS]
    for after, p, qs in rows:
        prefix = (after,) if after else ()
        assert p == core.position("biased", prefix).p and sum(p) == 1
        for draft in core.DRAFTS:
            assert qs[draft] == core.position(draft, prefix).q
    table = rows_html(rows, core.DRAFTS)
    assert table.startswith("<details") and table.count("<tr>") == 1 + len(rows)
    assert "0.80 0.15 0.05" in table  # the biased empty-prefix row of seed 000


def test_opening_a_preset_loads_its_moment_and_keeps_the_hidden_parts():
    model = StepModel()
    model.open_link(urlstate.read("?seed_hide=1"))
    guide = Guide(model=model)
    preset = by_key()["biased-discard"]
    guide.open(preset)
    values = urlstate.read(preset.query).values
    assert (model.draft, model.width, model.seed) == (values["draft"], values["width"], values["seed"])
    assert model.session.next_action == "verify" and "seed" in model.hidden
    assert preset.question in guide.question.object.replace("&#x27;", "'")


def latin_words(text):
    """Latin words of ``text`` beyond the formula names, token letters and 'token' itself."""
    return set(re.findall(r"[A-Za-z][A-Za-z]+", text)) - {"token", "min", "max", "norm"}


def test_in_chinese_the_presets_and_the_rows_table_are_chinese_with_the_same_numbers():
    with use("en"):
        english = presets.presets()
    with use("zh"):
        chinese = presets.presets()
        table = rows_html(presets.rows(), core.DRAFTS)
        lead = guide_words.guide_lead(chinese[0].title)
    assert [p.query for p in chinese] == [p.query for p in english]
    for en, zh in zip(english, chinese):
        for text in (zh.title, zh.question, zh.answer):
            assert latin_words(text) == set(), text
        for en_text, zh_text in ((en.question, zh.question), (en.answer, zh.answer)):  # the same probabilities
            assert re.findall(r"\d+\.\d+|\d+/\d+", zh_text) == re.findall(r"\d+\.\d+|\d+/\d+", en_text)
    assert "有偏的草稿 q" in table and "目标 p" in table and latin_words(re.sub(r"<[^>]+>", " ", table)) == set()
    assert lead.endswith("：")


def test_in_chinese_the_embed_builder_names_every_part_and_theme_in_chinese():
    with use("zh"):
        names = list(embed_words.PARTS.values()) + list(embed_words.THEMES) + [
            embed_words.BUILDER_TITLE, embed_words.BUILDER_HELP, embed_words.PARTS_LABEL, embed_words.LOCK_LABEL,
            embed_words.NO_TABS, guide_words.GUIDE_HELP, guide_words.ROWS_NOTE, page_words.JUMP_LABEL]
        themes = set(embed_words.THEMES.values())
    assert themes == {"auto", "light", "dark"}
    for name in names:
        assert latin_words(re.sub(r"\b[ABC]\b", "", name)) == set(), name
    with use("en"):
        assert embed_words.PARTS["guide"] == "What to try" and embed_words.THEMES["Light"] == "light"
