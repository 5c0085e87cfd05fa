"""A teacher's own tables (issue 29): read from text, carried by the scenario, exact on every draft.

The exactness checks draw random rational tables (denominators up to 20,
zeros allowed) and compare ``core.exact`` with an enumeration written here,
from the definitions only: the target's own autoregressive distribution, and
for the wrong rules the block written out position by position.
"""

from fractions import Fraction as F

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import core
from core import drafts, exact, payoff, tables_text
from core.cli import main
from core.config import ConfigError
from core.tables import AUTHORED, KEYS, Tables
from core.tables_text import TableTextError, notes, parse_rows, parse_tables, table_text

TOKENS = ("A", "B", "C")
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def rows(draw):
    """One row a/d, b/d, c/d with d from 1 to 20: zeros allowed, summing to exactly 1."""
    d = draw(st.integers(1, 20))
    a = draw(st.integers(0, d))
    b = draw(st.integers(0, d - a))
    return (F(a, d), F(b, d), F(d - a - b, d))


tables = st.builds(Tables, st.tuples(rows(), rows(), rows(), rows()), st.tuples(rows(), rows(), rows(), rows()))


# ---- the enumeration written from the definitions --------------------------------------------


def target_dist(t, k):
    """The target's own distribution of k tokens: a product of its rows along the text."""
    out = {(): F(1)}
    for _ in range(k):
        out = {seq + (x,): pr * p for seq, pr in out.items()
               for x, p in zip(TOKENS, t.target[seq[-1] if seq else ""]) if p}
    return out


def matrix_power_row(t, last, n):
    """Row ``last`` of the target matrix to the power n (n = 1: the target's own row)."""
    row = t.target[last]
    for _ in range(n - 1):
        row = tuple(sum(row[j] * t.target[TOKENS[j]][c] for j in range(3)) for c in range(3))
    return row


def draft_q(t, draft, committed, proposals):
    """What the draft proposes from at the next position, or None when it proposes nothing."""
    text = committed + proposals
    last = text[-1] if text else ""
    if draft in ("aligned", "biased", "custom"):
        return {"aligned": t.target, "biased": drafts.KINDS["biased"].table, "custom": t.q}[draft][last]
    if draft == "heads":
        return matrix_power_row(t, committed[-1] if committed else "", len(proposals) + 1)
    # lookup: copy what followed the most recent earlier occurrence of the last token
    earlier = [j for j in range(len(text) - 1) if text and text[j] == text[-1]]
    if not earlier:
        return None
    copied = text[earlier[-1] + 1]
    return tuple(F(int(c == copied)) for c in TOKENS)


def residual(p, q):
    pos = [max(a - b, 0) for a, b in zip(p, q)]
    total = sum(pos)
    return tuple(x / total for x in pos)


RULES = {  # acceptance chance and the replacement row of each rule, from its definition
    "exact": (lambda p, q, x: min(F(1), p[x] / q[x]), residual),
    "naive-resample": (lambda p, q, x: min(F(1), p[x] / q[x]), lambda p, q: p),
    "match-fresh": (lambda p, q, x: p[x], lambda p, q: p),
}


def block(t, draft, rule, width, committed):
    """``{tokens committed: probability}`` for one block from ``committed`` (room never binds here)."""
    accept, replace = RULES[rule]
    out = {}

    def add(seq, pr):
        out[seq] = out.get(seq, 0) + pr

    def walk(props, pr):
        cur = (committed + props)[-1] if committed + props else ""
        p = t.target[cur]
        q = draft_q(t, draft, committed, props) if len(props) < width else None
        if q is None:  # every proposal accepted (or none made): the bonus, or the ordinary step, from p
            for x, px in zip(TOKENS, p):
                if px:
                    add(props + (x,), pr * px)
            return
        for i, x in enumerate(TOKENS):
            if not q[i]:
                continue
            a = accept(p, q, i)
            if a:
                walk(props + (x,), pr * q[i] * a)
            if a != 1:
                for y, r in zip(TOKENS, replace(p, q)):
                    if r:
                        add(props + (y,), pr * q[i] * (1 - a) * r)

    walk((), F(1))
    return out


def rule_dist(t, draft, rule, width, k):
    done, todo = {}, {(): F(1)}
    while todo:
        seq, pr = todo.popitem()
        for more, pb in block(t, draft, rule, width, seq).items():
            new = seq + more
            bucket = done if len(new) >= k else todo
            key = new[:k] if len(new) >= k else new
            bucket[key] = bucket.get(key, 0) + pr * pb
    return done


def distance(a, b):
    return sum(abs(a.get(s, 0) - b.get(s, 0)) for s in set(a) | set(b)) / 2


# ---- exactness on random tables --------------------------------------------------------------


@FAST
@given(tables)
def test_the_exact_rule_keeps_any_rational_target_for_every_draft_width_and_length(t):
    for draft in core.ALL_DRAFTS:
        for width in range(1, 5):
            c = exact.compare(draft, width, 3, tables=t)
            assert c.distance == 0, (draft, width)
            assert c.target == target_dist(t, 3)  # core's target is the one written here
            for k in (1, 2):
                assert exact.marginal(c.result, k) == target_dist(t, k)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables, st.sampled_from(tuple(core.ALL_DRAFTS)), st.sampled_from(tuple(RULES)), st.integers(1, 4),
       st.integers(1, 3))
def test_every_rules_distribution_equals_the_enumeration_written_here(t, draft, rule, width, k):
    c = exact.compare(draft, width, k, rule, tables=t)
    mine = rule_dist(t, draft, rule, width, k)
    assert c.result == mine
    assert c.distance == distance(mine, target_dist(t, k))


def test_a_wrong_rule_is_visibly_wrong_on_a_teachers_table():
    t = parse_tables("0.6,0.3,0.1", "0.2,0.5,0.3")
    c = exact.compare("custom", 1, 1, "naive-resample", tables=t)
    assert c.distance == distance(rule_dist(t, "custom", "naive-resample", 1, 1), target_dist(t, 1)) > 0


def test_the_authored_tables_are_the_default_and_change_no_number():
    assert core.Config().tables is AUTHORED and AUTHORED.target == {k: tuple(v) for k, v in
                                                                    drafts.KINDS["aligned"].table.items()}
    assert exact.compare("biased", 3, 3, "naive-resample", tables=AUTHORED) == exact.compare("biased", 3, 3,
                                                                                            "naive-resample")
    assert core.simulate("biased", 3, 1).to_json() == core.simulate("biased", 3, 1, tables=parse_tables(";")).to_json()
    assert "target" not in core.simulate("biased", 3, 1).to_dict()


def test_a_custom_scenario_runs_on_its_tables_everywhere_it_reads_them():
    t = parse_tables(".6,.3,.1;.1,.8,.1;;", ".2,.5,.3")
    s = core.Session.start(core.Config("custom", 2, 1, tables=t)).draft()
    assert s.pending.proposals[0].q == (F(1, 5), F(1, 2), F(3, 10))
    assert core.position("custom", (), t).p == (F(3, 5), F(3, 10), F(1, 10))
    assert core.position("aligned", ("A",), t).q == (F(1, 10), F(4, 5), F(1, 10))  # aligned is this target
    assert drafts.next_q("heads", (), ("A",), tables=t) == matrix_power_row(t, "", 2)
    trace = core.simulate("custom", 2, 1, tables=t).to_dict()
    assert trace["q"] == "0.2,0.5,0.3;0.7,0.25,0.05;0.75,0.15,0.1;0.85,0.05,0.1"
    assert trace["target"] == "0.6,0.3,0.1;0.1,0.8,0.1;0.55,0.15,0.3;0.25,0.25,0.5"
    # payoff: the closed form's alpha from these rows, and the long run from the same chain
    p = payoff.payoff("custom", 1, 0, tables=t)
    visits = payoff.stationary({s: dict(zip(TOKENS, t.target[s])) for s in TOKENS})
    assert p.alpha == sum(visits[s] * sum(min(a, b) for a, b in zip(t.target[s], t.q[s])) for s in TOKENS)
    assert p.alpha != payoff.alpha("custom")


def test_the_long_run_says_why_when_the_target_never_leaves_a_token():
    t = parse_tables(";1,0,0")  # after A, always A
    with pytest.raises(ValueError, match="after A the target's text never reaches B"):
        payoff.payoff("biased", 2, F(1, 10), tables=t)
    assert exact.compare("biased", 2, 3, tables=t).distance == 0  # short texts are still exact


# ---- the text form ---------------------------------------------------------------------------


def test_the_issues_text_reads_as_the_authored_target():
    assert parse_rows(".5,.3,.2;.2,.6,.2;.55,.15,.3;.25,.25,.5") == AUTHORED.target_rows
    assert parse_rows("1/3, 1/3 ,1/3")[0] == (F(1, 3),) * 3


def test_empty_and_left_off_rows_keep_the_authored_ones():
    rows = parse_rows(";;1/3,1/3,1/3")
    assert rows[2] == (F(1, 3),) * 3 and rows[:2] == AUTHORED.target_rows[:2] and rows[3] == AUTHORED.target_rows[3]
    assert parse_rows(".5,.5,0", "q")[1:] == AUTHORED.q_rows[1:]  # q's authored rows are the biased draft's
    assert parse_rows(".5,.5,0\n\n0,0,1")[2] == (0, 0, 1)  # a line break separates rows too


def test_text_round_trips_through_its_canonical_form():
    rows = parse_rows("1/3,2/3,0;.125,.875,0;1,0,0;0,0,1")
    assert table_text(rows) == "1/3,2/3,0;0.125,0.875,0;1,0,0;0,0,1"
    assert parse_rows(table_text(rows)) == rows


@pytest.mark.parametrize("text, message", [
    (".5,.3,.1", "the target table's first row (the empty prefix): the entries sum to 9/10, not exactly 1 "
                 "(1/10 short)"),
    (";.5,.5,1/3", "the target table's row after A: the entries sum to 4/3, not exactly 1 (1/3 too much)"),
    (";;0,0,0", "the target table's row after B: every entry is 0, but the row must give some token a positive "
                "chance"),
    ("-.5,1,.5", "the target table's first row (the empty prefix), entry 1 (A): -.5 is negative"),
    (".5,x,.5", "entry 2 (B): it, 'x', is not a number"),
    (".5,1e-1,.4", "uses an exponent (e)"),
    ("0.1234567890123,0,1", "entry 1 (A): too many digits (15 characters, at most 12)"),
    ("1" * 5000, "the target table is too long (5,000 characters, at most 400)"),
    (".5,.5", "it has 2 entries, a row needs 3 (for A, B, C) separated by commas"),
    ("1,0,0;1,0,0;1,0,0;1,0,0;1,0,0", "the target table has 5 rows, at most 4"),
    ("", "the target table is empty"),
])
def test_a_bad_table_is_refused_with_a_sentence_that_names_where(text, message):
    with pytest.raises(TableTextError) as e:
        parse_rows(text)
    assert message in str(e.value) and isinstance(e.value, ConfigError)
    assert e.value.which == "target"


def test_a_draft_that_never_proposes_a_possible_token_gets_a_note_not_a_refusal():
    t = parse_tables(q="1,0,0")
    assert [(n.row, n.token) for n in notes(t)] == [("", "B"), ("", "C")]
    assert notes(t)[0].message == ("the q table's first row (the empty prefix): q(B) = 0 where the target gives it "
                                   "a positive chance, so B is only reachable there through corrections")
    assert exact.compare("custom", 3, 2, tables=t).distance == 0  # and it is still exact
    assert notes(AUTHORED) == ()


# ---- the command line ------------------------------------------------------------------------


def test_cli_runs_on_the_given_tables_and_reads_a_file(tmp_path, capsys):
    assert main(["exact", "--draft", "custom", "--width", "2", "--length", "1", "--target", ".6,.3,.1",
                 "--q", ".2,.5,.3"]) == 0
    out = capsys.readouterr().out
    assert "A                        3/5                      3/5" in out and "distance: 0" in out
    f = tmp_path / "target.txt"
    f.write_text("# my lecture's target\n.6,.3,.1  # the start\n\n")
    assert main(["trace", "--draft", "aligned", "--width", "2", "--seed", "1", "--target", str(f), "--json"]) == 0
    assert '"target": "0.6,0.3,0.1;0.2,0.6,0.2;0.55,0.15,0.3;0.25,0.25,0.5"' in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["exact", "--draft", "custom", "--width", "2", "--length", "1", "--q", ".5,.3,.1"],
     "the q table's first row (the empty prefix): the entries sum to 9/10, not exactly 1 (1/10 short)"),
    (["trace", "--draft", "biased", "--width", "2", "--seed", "1", "--target", "a,b,c"], "is not a number"),
    (["payoff", "--draft", "biased", "--cost", "0.1", "--target", ";1,0,0"], "never reaches B"),
    (["card", "--variant", "naive-resample", "--target", "1" * 600], "too long"),
    (["batch", "--draft", "biased", "--cost", "0.1", "--batch", "2", "--saturation", "4", "--q=-1,1,1"],
     "negative"),
])
def test_cli_refuses_a_bad_table_with_exit_2_and_one_line(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.count("\n") == 1


def test_cli_notes_a_token_only_corrections_reach(capsys):
    assert main(["exact", "--draft", "custom", "--width", "1", "--length", "1", "--q", "1,0,0"]) == 0
    err = capsys.readouterr().err
    assert "note: the q table's first row (the empty prefix): q(B) = 0" in err


# ---- the link ---------------------------------------------------------------------------------


def test_a_link_carries_the_tables_and_the_step_tab_runs_on_them():
    from app import urlstate
    from app.step.model import StepModel

    url = urlstate.read("?draft=custom&width=2&seed=1&target=.6,.3,.1&q=.2,.5,.3")
    assert not url.notices and url.values["q"].startswith("0.2,0.5,0.3;")
    m = StepModel()
    m.open_link(url)
    assert m.session.config.tables == parse_tables(".6,.3,.1", ".2,.5,.3") and not m.notice
    m.act("draft")
    assert m.session.pending.proposals[0].q == (F(1, 5), F(1, 2), F(3, 10))
    again = urlstate.read(urlstate.write(m.scenario()))
    assert again.values["target"] == url.values["target"] and again.values["q"] == url.values["q"]
    assert "target=" not in urlstate.write(urlstate.read("?draft=biased&target=;").values)  # authored: left out


def test_a_malformed_table_in_a_link_gets_a_notice_and_the_rest_of_the_link_is_kept():
    from app import i18n, urlstate
    from app.step.model import StepModel

    url = urlstate.read("?draft=biased&width=2&seed=5&target=.5,.3,.1&q=.2,.5,.3")
    assert url.values["target"] == "" and url.values["seed"] == 5 and url.values["q"]
    assert url.notice.startswith("The link's target table is not valid (it must be four rows")
    assert ".5,.3,.1" not in url.notice  # a notice names the setting, never the link's text
    m = StepModel()
    m.open_link(url)
    assert m.session.config.tables.target == AUTHORED.target and m.session.config.seed == 5 and m.notice
    with i18n.use("zh"):
        assert "链接中的 q 表无效" in urlstate.read("?q=x").notice


# ---- the build's pre-renders ----------------------------------------------------------------------


def test_a_prerender_query_with_tables_is_read_into_its_canonical_form_and_a_short_file_name():
    from sitebuild.prerender import read_query
    from sitebuild.project import BuildError

    s = read_query("draft=custom&target=.6,.3,.1&q=1/3,1/3,1/3;;;1/7,2/7,4/7")
    assert s.values["target"] == "0.6,0.3,0.1;0.2,0.6,0.2;0.55,0.15,0.3;0.25,0.25,0.5"
    assert s.values["q"] == "1/3,1/3,1/3;0.7,0.25,0.05;0.75,0.15,0.1;1/7,2/7,4/7"
    assert read_query(s.query).file == s.file and len(s.file) < 150
    assert read_query("draft=custom&q=1/3,1/3,1/3").file != read_query("draft=custom&q=1/3,2/3,0").file
    with pytest.raises(BuildError, match=r"target='.6,.3,.2' is not valid \(the target table's first row .*"
                                         r"sum to 11/10, not exactly 1 \(1/10 too much\)\)"):
        read_query("draft=custom&target=.6,.3,.2")


def test_a_link_whose_draft_never_proposes_a_possible_token_gets_a_note_and_runs():
    from app import i18n, urlstate
    from app.step.model import StepModel

    url = urlstate.read("?draft=custom&q=1,0,0;;0,1,0")
    assert url.values["q"] and url.notice == (
        "With the link's tables the custom draft never proposes B at the start, C at the start, A after B or C after "
        "B, where the target can: those tokens appear there only as corrections.")
    m = StepModel()
    m.open_link(url)
    assert m.session.config.tables.q[""] == (1, 0, 0) and m.notice == url.notice
    assert urlstate.read("?draft=biased&q=1,0,0").notices == ()  # the biased draft does not read q
    with i18n.use("zh"):
        assert "只会作为校正出现" in urlstate.read("?draft=custom&q=1,0,0").notice


def test_the_exact_tabs_ordinary_decoding_beside_the_trace_uses_the_links_target():
    from app import urlstate
    from app.exact.model import ExactModel
    from app.step.model import StepModel

    m = StepModel()
    m.open_link(urlstate.read("?draft=aligned&seed=3&target=0,0,1;0,0,1;0,0,1;0,0,1"))
    exact_model = ExactModel(session_model=m)
    exact_model._set(trace=core.Session.start(exact_model._config()).run_to_end())  # what activate() shows
    assert exact_model.ordinary() == ("C",) * 8  # this target only ever writes C
