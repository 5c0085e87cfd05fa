"""A link's own tables reach every tab (issue 29): exact, payoff, guesses and "What to try".

Each tab is built on the page's StepModel after a link with ``target=`` and
``q=``; its numbers must be ``core``'s called with those tables, and differ
from the authored ones (so a tab left on the authored tables fails here).
"""

import re
from fractions import Fraction as F

import core
from core import exact, passes, payoff, rates, tree_payoff
from core.tables import AUTHORED
from core.tables_text import parse_tables
from core.tree import TreeSession

from app import i18n, urlstate
from app.step.model import StepModel

TARGET, Q = ".6,.3,.1;.2,.2,.6;.1,.8,.1;.3,.3,.4", ".2,.5,.3;.5,.25,.25;1/3,1/3,1/3;.6,.2,.2"
TABLES = parse_tables(TARGET, Q)
# After A the target only writes A: the long run has no single answer (core.tables.check_long_run).
STUCK = ";1,0,0"


def text(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html).replace("&#x27;", "'")).strip()


def page(query=f"?draft=custom&width=3&seed=2&target={TARGET}&q={Q}"):
    m = StepModel()
    m.open_link(urlstate.read(query))
    return m


def test_the_scenario_carries_the_links_tables():
    assert page().session.config.tables == TABLES != AUTHORED


# ---- "Why it is exact" ---------------------------------------------------------------------------


def test_the_exact_tabs_distributions_and_cards_are_core_on_the_links_tables():
    from app.exact.model import CARD_RULES, ExactModel, card

    m = page()
    e = ExactModel(session_model=m, draft="custom", variant="naive-resample", k=2, runs=1_000)
    e.activate()
    want = exact.compare("custom", 3, 2, "naive-resample", tables=TABLES)
    assert e.comparison == want
    assert e.comparison.result != exact.compare("custom", 3, 2, "naive-resample").result
    assert e.done == 1_000 and sum(e.counts.values()) == 1_000
    assert e.cards is not None and len(e.cards) == len(CARD_RULES)
    assert [c.card for c in e.cards] == [card(v, TABLES).card for v in CARD_RULES]
    assert [c.card for c in e.cards] != [card(v).card for v in CARD_RULES]


def test_the_exact_tab_follows_tables_that_arrive_after_it_was_shown():
    from app.exact.model import ExactModel

    m = StepModel(draft="biased")
    e = ExactModel(session_model=m, draft="biased", k=2, runs=1_000)
    e.activate()
    assert e.comparison.target == exact.target_distribution(2)
    m.open_link(urlstate.read(f"?draft=biased&target={TARGET}"))
    tables = m.session.config.tables
    assert e.comparison == exact.compare("biased", 3, 2, tables=tables)
    assert e.comparison.target == exact.target_distribution(2, tables=tables) != exact.target_distribution(2)


def test_the_exact_tabs_words_and_presets_name_the_links_tables():
    from app.exact.views import ExactTab

    tab = ExactTab(session_model=page())
    tab.activate()
    labels = [b.name for b in tab.calculator.presets]
    assert "Your tables at the start" in labels and "Biased draft at the start" not in labels
    own = tab.calculator.presets[labels.index("Your tables at the start")]
    own.clicks += 1  # loads the link's first rows into the calculator
    assert tab.calculator.model.decomposition.p == TABLES.target[""]
    assert tab.calculator.model.decomposition.q == TABLES.q[""]
    assert "this link's own tables" in text(tab.cards.html.object)
    authored = ExactTab(session_model=StepModel())
    authored.activate()
    assert "Biased draft at the start" in [b.name for b in authored.calculator.presets]
    assert "on the toy tables" in text(authored.cards.html.object)


# ---- "When it pays off" --------------------------------------------------------------------------


def test_the_payoff_tabs_curves_are_core_on_the_links_tables():
    from app.payoff.candidates import table as tree_table
    from app.payoff.model import PayoffModel

    m = page()
    p = PayoffModel(session_model=m)
    p.activate()
    assert p.draft == "custom" and p.refused is None
    want = payoff.payoff_table("custom", p.c, tables=TABLES)
    assert p.table == want and p.table != payoff.payoff_table("custom", p.c)
    assert p.heuristic == payoff.heuristic_payoff("custom", p.c, tables=TABLES)
    assert p.rates(2) == rates.rates("custom", 2, tables=TABLES) != rates.rates("custom", 2)
    m.act("run_to_end")
    assert p.trace_passes() == passes.passes("custom", 3, tables=TABLES) != passes.passes("custom", 3)
    p.lookahead = True
    assert p.lookahead_table == payoff.payoff_table("custom", p.c, p.t, tables=TABLES)
    assert tree_table("custom", p.c, p.tables) == tree_payoff.tree_payoff_table("custom", p.c, tables=TABLES)
    assert tree_table("custom", p.c, p.tables) != tree_payoff.tree_payoff_table("custom", p.c)


def test_the_payoff_tab_recomputes_when_the_links_tables_change():
    from app.payoff.model import PayoffModel

    m = StepModel(draft="biased")
    p = PayoffModel(session_model=m)
    p.activate()
    assert p.table == payoff.payoff_table("biased", p.c)
    m.open_link(urlstate.read(f"?draft=biased&target={TARGET}"))
    assert p.table == payoff.payoff_table("biased", p.c, tables=m.session.config.tables)
    assert p.table != payoff.payoff_table("biased", p.c)


def test_tables_with_no_long_run_get_a_notice_in_both_languages_not_a_traceback():
    from app.payoff import PayoffTab

    m = page(f"?draft=biased&target={STUCK}")
    assert m.session.config.tables.unreachable() == ("A", "B")
    tab = PayoffTab(session_model=m)
    tab.activate()
    assert tab.model.refused == ("A", "B") and tab.model.table is None and tab.model.heuristic is None
    notice = text(tab.notice.object)
    assert "after A the target's text never reaches B" in notice and tab.notice_box.visible
    with i18n.use("zh"):
        from app.payoff.views import refused_html
        assert "在 A 之后目标模型的文本永远到不了 B" in text(refused_html(tab.model.refused))
    tab.model.cost = 0.2  # a slider moved: still the notice, no exception
    assert tab.model.table is None
    m.open_link(urlstate.read("?draft=biased"))  # back to tables with a long run: the curves return
    assert tab.model.refused is None and tab.model.table == payoff.payoff_table("biased", tab.model.c)
    assert not tab.notice_box.visible


# ---- "Several guesses at once" and "What to try" --------------------------------------------------


def test_the_guesses_tab_draws_its_tree_on_the_links_tables():
    from app.guesses.views import GuessesTab

    m = page()
    g = GuessesTab(session_model=m)
    gm = g.model
    assert gm.tables == TABLES and gm.session.config.tables == TABLES
    gm.draft = "custom"
    gm.act("draft")
    want = TreeSession.start("custom", gm.candidates, gm.width, gm.seed, tables=TABLES).draft()
    assert gm.session == want
    root = want.pending.nodes[0]
    assert root.q == TABLES.q[""] and root.q != AUTHORED.q[""]
    m.open_link(urlstate.read("?draft=biased"))  # the page back on the authored tables: the tree follows
    assert gm.session.config.tables == AUTHORED


def test_what_to_try_says_its_moments_are_the_authored_ones_under_a_links_tables():
    from app.step.guide import Guide

    m = page()
    guide = Guide(model=m)
    assert guide.own.visible and "authored tables" in text(guide.own.object)
    m.open_link(urlstate.read("?draft=biased"))
    assert not guide.own.visible and guide.own.object == ""
    assert F(1) == sum(TABLES.q[""])  # the fixture's rows are distributions


def test_the_calculators_presets_are_rebuilt_only_when_the_tables_change():
    from app.exact.views import ExactTab

    m = StepModel()
    tab = ExactTab(session_model=m)
    tab.activate()
    before = tab.calculator.presets
    tab.model.k = 3  # a new comparison, the same tables
    assert tab.calculator.presets is before
    m.open_link(urlstate.read(f"?draft=biased&target={TARGET}&q={Q}"))
    assert tab.calculator.presets is not before
    assert "Your tables at the start" in [b.name for b in tab.calculator.presets]


def test_the_exact_tab_starts_on_the_links_own_draft():
    from app.exact.model import ExactModel

    e = ExactModel(session_model=page(), k=2, runs=1_000)
    assert e.draft == "custom"
    e.activate()
    assert e.comparison == exact.compare("custom", 3, 2, tables=TABLES)
    m = StepModel()
    later = ExactModel(session_model=m, k=2, runs=1_000)
    later.activate()
    assert later.draft == "biased"
    m.open_link(urlstate.read(f"?draft=custom&target={TARGET}&q={Q}"))  # the link reaches the page later
    assert later.draft == "custom" and later.comparison == exact.compare("custom", 3, 2, tables=TABLES)
    assert ExactModel(session_model=StepModel(draft="custom"), k=2).draft == "biased"  # authored q: its own default
