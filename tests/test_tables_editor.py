"""The table editor (issue 29 item 2), driven through its widgets without a browser.

Every message is core's own (``core.tables_text``), "Normalise" gives core's exact Fractions,
the reset brings back the authored rows, the preview is the first block core runs, and the
embed code's link, read back by ``urlstate``, is the scenario the editor describes.
"""

import re
from fractions import Fraction as F
from html import unescape

import pytest

from app import i18n, urlstate
from app.embed.builder import EmbedBuilder
from app.embed.tables_editor import TablesDraft, cells_of, first_block
from app.embed import tables_words
from app.step.model import StepModel, scenario_config
from core.tables import AUTHORED, KEYS
from core.tables_text import TableTextError, compact_text, normalise_row, parse_row, parse_rows, parse_tables


def opened(model=None, page=False):
    """An embed form (or the page's "Your own numbers") with its editor open."""
    model = model or StepModel(draft="biased", width=2, seed=1)
    if page:
        from app.embed.tables_editor import OwnNumbers
        own = OwnNumbers(model=model)
        own.toggle.value = True
        return model, own, own.editor
    builder = EmbedBuilder(model=model, base="https://notes.example/widget/")
    builder.open()
    builder.own.toggle.value = True
    return model, builder, builder.own.editor


def type_row(editor, which, i, texts):
    for box, text in zip(editor.boxes[which, i], texts):
        box.value_input = text


def message(editor, which, i):
    return unescape(re.sub(r"<[^>]+>", "", editor.errors[which, i].object))


def core_message(which, i, texts):
    with pytest.raises(TableTextError) as caught:
        parse_row(which, KEYS[i], texts)
    return str(caught.value)


def link_of(builder):
    src = re.search(r'src="([^"]+)"', builder.area.value)[1]
    return "?" + src.split("?", 1)[1]


# ---- core's functions ---------------------------------------------------------------------

def test_a_row_typed_box_by_box_is_read_as_the_same_row_of_a_text():
    assert parse_row("target", "A", ("1/3", ".5", "1/6")) == (F(1, 3), F(1, 2), F(1, 6))
    assert parse_rows(";1/3,.5,1/6")[1] == (F(1, 3), F(1, 2), F(1, 6))
    assert core_message("target", 1, ("0.3", "0.3", "0.3")) == \
        "the target table's row after A: the entries sum to 9/10, not exactly 1 (1/10 short)"


def test_normalising_a_row_is_exact():
    assert normalise_row("q", "B", ("1", "1", "2")) == (F(1, 4), F(1, 4), F(1, 2))
    assert normalise_row("q", "", (".1", ".1", ".1")) == (F(1, 3), F(1, 3), F(1, 3))
    with pytest.raises(TableTextError, match="every entry is 0"):
        normalise_row("target", "C", ("0", "0", "0"))
    with pytest.raises(TableTextError, match="negative"):
        normalise_row("target", "C", ("-1", "1", "1"))


def test_the_compact_text_keeps_only_rows_that_moved():
    rows = list(AUTHORED.target_rows)
    assert compact_text(rows, "target") == ""
    rows[2] = (F(1, 3), F(1, 3), F(1, 3))
    assert compact_text(rows, "target") == ";;1/3,1/3,1/3"
    assert parse_rows(compact_text(rows, "target")) == tuple(rows)


# ---- the editor's messages are core's ------------------------------------------------------

BAD_ROWS = [
    ("target", 0, ("0.6", "0.3", "0.2")),  # 1/10 too much
    ("target", 3, ("0.2", "0.2", "0.2")),  # 2/5 short
    ("q", 1, ("abc", "0.5", "0.5")),  # not a number
    ("q", 2, ("0,5", "0.25", "0.25")),  # a decimal comma
    ("target", 2, ("-0.5", "1", "0.5")),  # negative
    ("target", 1, ("0", "0", "0")),  # a target row of zeros
    ("q", 3, ("0.1234567890123", "0.5", "0.5")),  # too many digits
    ("q", 0, ("", "0.5", "0.5")),  # an emptied box
]


@pytest.mark.parametrize("which, i, texts", BAD_ROWS)
def test_a_bad_row_gets_cores_message_word_for_word(which, i, texts):
    _, _, editor = opened()
    type_row(editor, which, i, texts)
    assert message(editor, which, i) == core_message(which, i, texts)
    assert editor.draft.tables is None
    assert "not a distribution yet" in editor.state.object


@pytest.mark.parametrize("which, i, texts", BAD_ROWS)
def test_the_chinese_page_says_each_problem_in_chinese(which, i, texts):
    with pytest.raises(TableTextError) as caught:
        parse_row(which, KEYS[i], texts)
    with i18n.use("zh"):
        said = tables_words.problem(caught.value)
    assert said != str(caught.value)
    assert not re.search(r"\b(table|row|entries|number|negative)\b", said), said


def test_a_huge_paste_is_refused_at_once_with_cores_message():
    _, _, editor = opened()
    type_row(editor, "target", 0, ("9" * 5000, "0", "0"))
    assert message(editor, "target", 0).startswith("the target table's first row (the empty prefix), entry 1 (A): "
                                                   "too many digits (5000 characters, at most 12)")


def test_a_draft_row_that_never_proposes_a_possible_token_is_allowed_and_explained():
    _, _, editor = opened()
    type_row(editor, "q", 1, ("0", "0.5", "0.5"))
    assert editor.draft.tables is not None
    assert message(editor, "q", 1) == ("the q table's row after A: q(A) = 0 where the target gives it a "
                                       "positive chance, so A is only reachable there through corrections")
    assert "sums to exactly 1" in editor.state.object


def test_normalise_fixes_a_row_with_cores_exact_fractions():
    _, _, editor = opened()
    type_row(editor, "target", 0, ("1", "1", "1"))
    assert editor.draft.tables is None
    editor._normalise("target", 0)
    assert [box.value for box in editor.boxes["target", 0]] == ["1/3", "1/3", "1/3"]
    assert editor.draft.tables.target_rows[0] == (F(1, 3),) * 3
    assert editor.errors["target", 0].visible is False


def test_normalise_on_a_row_it_cannot_fix_says_why_and_keeps_the_text():
    _, _, editor = opened()
    type_row(editor, "q", 2, ("0", "0", "0"))
    editor._normalise("q", 2)
    assert [box.value_input for box in editor.boxes["q", 2]] == ["0", "0", "0"]
    assert message(editor, "q", 2) == "the q table's row after B: every entry is 0, but the row must give some " \
                                      "token a positive chance"


def test_reset_brings_back_the_authored_rows():
    _, _, editor = opened(StepModel(draft="custom", target=".6,.3,.1", q=".2,.5,.3"))
    assert editor.draft.cells["target"][0] == ("0.6", "0.3", "0.1")
    type_row(editor, "q", 3, ("x", "y", "z"))
    editor._reset()
    assert editor.draft.cells == cells_of(AUTHORED)
    assert [box.value for box in editor.boxes["q", 3]] == ["0.85", "0.05", "0.1"]
    assert editor.draft.tables == AUTHORED


# ---- the preview is core's first block -------------------------------------------------------

def test_the_preview_is_the_first_block_core_runs_on_the_edited_tables():
    model, _, editor = opened()
    type_row(editor, "q", 0, ("0.2", "0.5", "0.3"))
    config = scenario_config("custom", 2, 1, "off", q="0.2,0.5,0.3")
    block = first_block(config)
    text = unescape(re.sub(r"<[^>]+>", " ", editor.preview.object))
    assert "custom draft, width 2, seed 1" in text
    for x in block.proposals:
        assert x.token in text
    assert f"The block writes {' '.join(block.committed)}." in text
    assert model.draft == "biased"  # the embed form changes nothing on the page


# ---- the embed code carries the tables --------------------------------------------------------

def test_the_embed_codes_link_reproduces_the_edited_scenario():
    model, builder, editor = opened()
    type_row(editor, "target", 0, ("0.6", "0.3", "0.1"))
    type_row(editor, "q", 2, ("1/3", "1/3", "1/3"))
    link = link_of(builder)
    assert "target=0.6,0.3,0.1&" in link and "q=;;1/3,1/3,1/3" in link  # only the rows that moved, readable
    url = urlstate.read(link)
    assert url.notices == ()
    values = url.values
    assert values["draft"] == "custom"  # q was edited
    config = scenario_config(values["draft"], values["width"], values["seed"], values["lookahead"],
                             values["schedule"], values["target"], values["q"])
    assert config.tables == editor.draft.tables
    assert config.tables == parse_tables(".6,.3,.1", ";;1/3,1/3,1/3")
    assert (config.width, config.seed) == (model.width, model.seed)


def test_an_edited_target_alone_keeps_the_pages_draft():
    _, builder, editor = opened()
    type_row(editor, "target", 3, ("0.5", "0.25", "0.25"))
    values = urlstate.read(link_of(builder)).values
    assert values["draft"] == "biased"
    assert values["target"] and not values["q"]


def test_while_a_row_is_bad_the_code_keeps_the_pages_tables():
    model, builder, editor = opened(StepModel(draft="custom", q=".2,.5,.3"))
    type_row(editor, "target", 0, ("0.6", "0.6", "0.6"))
    values = urlstate.read(link_of(builder)).values
    assert values["target"] == ""
    assert parse_tables(None, values["q"]) == model.session.config.tables == parse_tables(None, ".2,.5,.3")
    assert "the code keeps the page's tables" in unescape(editor.state.object)


# ---- "Your own numbers" on the page ------------------------------------------------------------

def test_use_these_numbers_opens_the_page_on_them_as_a_link_would():
    model, _, editor = opened(page=True)
    type_row(editor, "q", 0, ("0.2", "0.5", "0.3"))
    type_row(editor, "target", 0, ("0.6", "0.3", "0.1"))
    editor._use()
    assert model.draft == "custom"
    assert model.session.config.tables == parse_tables(".6,.3,.1", ".2,.5,.3")
    assert model.steps_done() == 0
    assert "your own numbers" in model.happened
    same = urlstate.read(urlstate.write(model.scenario()))
    assert scenario_config(same.values["draft"], 2, 1, "off", target=same.values["target"],
                           q=same.values["q"]) == model.session.config


def test_use_waits_for_numbers_other_than_the_pages():
    _, _, editor = opened(page=True)
    assert editor.use.disabled
    assert "the numbers the page runs on" in editor.state.object
    type_row(editor, "target", 2, ("0.5", "0.25", "0.25"))
    assert not editor.use.disabled
    editor._reset()
    assert editor.use.disabled


def test_use_is_refused_while_a_row_is_bad():
    model, _, editor = opened(page=True)
    type_row(editor, "target", 1, ("1", "1", "1"))
    assert editor.use.disabled
    before = model.session
    editor._use()
    assert model.session is before


def test_the_grids_follow_a_link_opened_later():
    model, _, editor = opened(page=True)
    model.open_link(urlstate.read("?draft=custom&width=2&seed=1&q=.2,.5,.3"))
    assert editor.draft.cells["q"][0] == ("0.2", "0.5", "0.3")


def test_every_box_and_button_has_a_name_in_both_languages():
    _, _, editor = opened()
    assert editor.boxes["target", 1][2].label == "p(C) after A"
    assert editor.boxes["q", 0][0].label == "q(A) at the start"
    assert tables_words.names()["sp-normalise-q-2"] == "Normalise the q table's row after B"
    with i18n.use("zh"):
        assert tables_words.cell_name("q", "B", "A") == "q(A)，在 B 之后"


def test_the_guesses_tab_says_what_the_custom_draft_is():
    from app.guesses.views import draft_help
    assert "Custom: your own draft table q" in draft_help()
    with i18n.use("zh"):
        assert "自定义" in draft_help()
