"""A kind of draft registered in core, with its two catalogue keys, is a choice everywhere in the app.

Issue 25 item 1: a new table draft touches its core entry and its words in the
catalogues, nothing else; the step tab's per-kind sentences live in
``app/step/draft_words.py``, so ``step/words.py``, the inspector and the views never
test a draft's name.
"""

import re
from fractions import Fraction as F
from pathlib import Path

import pytest

import core
from app import i18n, urlstate
from app.exact import words as exact_words
from app.guesses.model import GuessesModel  # imported before the kind is registered, as in the page
from app.guesses.views import Controls as GuessesControls
from app.step import words
from app.step.model import StepModel
from app.step.views import StepView
from core import drafts

THIRD = (F(1, 3),) * 3
ROOT = Path(__file__).resolve().parent.parent
KEYS = {"en": {"draft.uniform": "Uniform", "step.draft_name.uniform": "uniform"},
        "zh": {"draft.uniform": "均匀", "step.draft_name.uniform": "均匀"}}


@pytest.fixture
def uniform(monkeypatch):
    """A throwaway table draft registered in core, its two catalogue keys in both catalogues."""
    kind = drafts.register(drafts.DraftKind("uniform", "Uniform", "every token alike", "the last committed token",
                                            drafts.TableDraft, {key: THIRD for key in drafts.KEYS}))
    for lang, keys in KEYS.items():
        for key, text in keys.items():
            monkeypatch.setitem(i18n.CATALOGUES[lang], key, text)
    yield kind
    del drafts.KINDS["uniform"]
    StepModel()  # the step model's choices follow the registry again


def click(button):
    button.clicks += 1


OTHER_WORDS = ("lookup", "copied", "copy", "head", "KeyError", "Traceback", "{")


def test_a_link_to_the_kind_opens_it_without_a_notice(uniform):
    url = urlstate.read("?draft=uniform&width=2&seed=1")
    assert url.values["draft"] == "uniform" and not url.notices
    assert "uniform" in urlstate.read("?draft=nope").notice  # the choices the notice names are the live ones


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_step_tab_offers_the_kind_and_steps_it_in_plain_words(uniform, lang):
    with i18n.use(lang):
        view = StepView(model=StepModel())
        options = view.scenario.draft.options
        assert options[KEYS[lang]["draft.uniform"]] == "uniform"
        view.model.open_link(urlstate.read("?draft=uniform&width=2&seed=1"))
        assert view.model.draft == "uniform" and not view.model.notice
        said = [view.model.happened]
        for action in ("draft", "verify", "commit"):
            click(view.actions.buttons[action])
            assert not view.model.notice and not view.model.error_trace
            said.append(view.model.happened)
        session = view.model.session
        said.append(words.next_words(session))
        x = session.blocks[0].proposals[0]
        said += [words.where_rows("uniform", x), " ".join(words.q_row_label("uniform"))]
        assert x.q == THIRD and words.draft_lead("uniform", x) is None
    assert KEYS[lang]["step.draft_name.uniform"] in said[0]
    for sentence in said:
        assert sentence and not any(w in sentence for w in OTHER_WORDS), sentence


def test_the_kind_has_an_exact_distribution_and_the_exact_tab_reads_its_table(uniform):
    result = core.exact.compare("uniform", 2, 3)
    assert result.distance == 0 and sum(result.result.values()) == 1
    assert exact_words.never_rejected("uniform", "exact") is False  # a uniform q over-proposes somewhere


def test_the_step_tab_never_tests_a_draft_name():
    compare = re.compile(r"""(==|!=|\bin)\s*\(?\s*["'](lookup|heads|aligned|biased)["']|"""
                         r"""["'](lookup|heads|aligned|biased)["']\s*(==|!=|\bin\b)|\{\s*["'](lookup|heads)["']\s*:""")
    for name in ("words.py", "inspector.py", "views.py"):
        source = (ROOT / "app" / "step" / name).read_text(encoding="utf-8")
        assert not compare.findall(source), name


def test_the_cli_help_and_the_payoff_tab_read_the_registry(uniform, capsys):
    from app.payoff import words as payoff_words
    from core.cli import main
    with pytest.raises(SystemExit):
        main(["exact", "--help"])
    assert "uniform (every token alike)" in re.sub(r"\s+", " ", capsys.readouterr().out)
    assert set(payoff_words.NO_CLOSED_FORM) == {"lookup", "heads"}  # a table kind has the closed forms


def test_the_exact_and_payoff_tabs_built_after_the_kind_offer_it_and_take_it(uniform):
    """Their choices are read from the registry when the view is built, not when app.parts was imported."""
    from app.exact.views import Controls as ExactControls
    from app.exact.model import ExactModel
    from app.payoff.views import Controls as PayoffControls
    from app.payoff.model import PayoffModel
    for controls, model in ((ExactControls, ExactModel), (PayoffControls, PayoffModel)):
        view = controls(model=model())
        assert view.draft.options["Uniform"] == "uniform", controls
        view.draft.value = "uniform"
        assert view.model.draft == "uniform"


def test_the_guesses_tab_built_after_a_table_kind_offers_it_and_draws_its_tree(uniform):
    """Its choices (the table drafts: a tree needs k draws from q) are read from the registry when asked."""
    view = GuessesControls(model=GuessesModel())
    assert view.draft.options["Uniform"] == "uniform"
    view.draft.value = "uniform"
    assert view.model.draft == "uniform" and view.model.session.config.draft == "uniform"
    assert not view.model.notice
    assert urlstate.read_guesses("?gdraft=uniform").values["gdraft"] == "uniform"
