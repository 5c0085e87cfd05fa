"""The "Step through a block" model, its words and the URL table, without views or a browser.

Numbers written out come from the seed text (000_*.txt) and the engine issue:
the biased draft at the empty prefix has q = [0.80, 0.15, 0.05], the target
p = [0.50, 0.30, 0.20], and the residual is [0, 0.50, 0.50].
"""

import time
from fractions import Fraction as F

import pytest

import core
from app import urlstate
from app.embed.snippet import snippet
from app.step import words
from app.step.model import StepModel


def biased_seed_1():
    return StepModel(draft="biased", width=3, seed=1)


# ---- defaults and actions ------------------------------------------------------------

def test_defaults_are_aligned_draft_width_3_seed_0_with_nothing_drafted():
    m = StepModel()
    assert (m.draft, m.width, m.seed, m.lookahead) == ("aligned", 3, 0, "off")
    assert m.session.phase == "draft" and m.session.output == ()
    assert m.focus is None
    assert m.happened == words.START


def test_aligned_draft_verify_commit_commits_four_tokens_after_one_target_pass():
    m = StepModel()
    for action in ("draft", "verify", "commit"):
        m.act(action)
    c = m.session.counters
    assert len(m.session.output) == 4
    assert (c.target_passes, c.committed, c.bonus) == (1, 4, 1)


def test_after_verify_the_inspector_lands_on_the_rejection():
    m = biased_seed_1()
    m.act("draft")
    assert m.focus == (0, 0)
    m.act("verify")
    rejected = next(p for p in m.session.pending.proposals if p.status == "rejected")
    assert m.focus == (0, rejected.index)


def test_the_inspected_record_holds_the_empty_prefix_numbers_of_the_biased_draft():
    m = biased_seed_1()
    m.act("draft")
    m.act("verify")
    m.inspect((0, 0))
    it = m.inspected()
    assert it.proposal.prefix == ()
    assert it.proposal.q == (F("0.80"), F("0.15"), F("0.05"))
    assert it.proposal.p == (F("0.50"), F("0.30"), F("0.20"))
    assert it.decomposition.residual == (0, F("0.50"), F("0.50"))


def test_changing_a_scenario_parameter_restarts_the_trace_and_says_why():
    m = StepModel()
    m.act("run_block")
    m.seed = 4
    assert m.session.config.seed == 4 and m.session.blocks == ()
    assert "changed the seed to 4, so the trace started over" in m.happened
    m.width = 5
    assert m.session.config.width == 5 and "set the width to 5" in m.happened


def test_lookahead_is_one_parameter_and_the_threshold_is_remembered_while_it_is_off():
    m = StepModel(draft="biased", width=6, seed=3)
    m.set_early_stop(True)
    assert m.lookahead == "0.50" and m.session.config.lookahead == F(1, 2)
    assert "dynamic lookahead" in m.happened
    m.threshold = "0.30"
    assert m.lookahead == "0.30" and m.session.config.lookahead == F(3, 10)
    m.set_early_stop(False)
    assert m.lookahead == "off" and m.session.config.lookahead is None
    before = m.session
    m.threshold = "0.70"  # lookahead is off: the trace does not change
    assert m.session is before
    m.set_early_stop(True)
    assert m.lookahead == "0.70"
    m.lookahead = "0.20"
    assert m.threshold == "0.20", "the slider follows a lookahead set directly (a link, another tab)"


def test_seed_shift_stays_within_bounds():
    m = StepModel()
    m.shift_seed(-1)
    assert m.seed == 0
    m.shift_seed(+1)
    m.shift_seed(+1)
    assert m.seed == 2


def test_reset_empties_the_output():
    m = StepModel()
    m.act("run_block")
    m.act("reset")
    assert m.session.output == () and m.session.counters.target_passes == 0
    assert m.happened == words.RESET and m.focus is None


def test_every_action_has_a_caption_sentence():
    m = biased_seed_1()
    for action in ("draft", "verify", "commit", "step", "run_block", "run_to_end", "reset"):
        m.act(action)
        assert m.happened and not m.notice, action
    assert set(words.LABELS) == set(core.ACTIONS)


def test_an_action_in_the_wrong_phase_becomes_a_notice_and_changes_nothing():
    m = StepModel()
    before = m.session
    m.act("commit")
    assert m.session is before
    assert m.notice.startswith("Commit is not possible right now.")


def test_an_unexpected_error_shows_a_short_message_and_keeps_the_trace(monkeypatch):
    m = StepModel()
    m.act("draft")
    before = m.session

    def broken(self):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(core.Session, "verify", broken)
    m.act("verify")
    assert m.session is before, "the trace stays as it was"
    assert m.notice == words.BROKEN and "boom" not in m.notice
    assert "ZeroDivisionError: boom" in m.error_trace


def test_a_link_sets_the_scenario_and_the_trace_in_one_update():
    m = StepModel()
    seen = []
    m.param.watch(lambda *events: seen.append(sorted(e.name for e in events)),
                  ["draft", "seed", "session", "focus", "happened", "hidden"])
    m.open_link(urlstate.read("?draft=biased&width=3&seed=1&steps=2&draft_hide=1"))
    assert seen == [["draft", "focus", "happened", "hidden", "seed", "session"]], "one batch of changes"
    assert m.session.config == core.Config("biased", 3, 1)
    assert m.session.phase == "commit" and m.steps_done() == 2
    assert m.focus == (0, 1), "the inspector opens on the rejection"
    assert m.hidden == {"draft"}
    assert m.happened == "Opened the scenario from the link: the biased draft, width 3, seed 1. It replayed two steps."


def test_a_click_changes_the_model_once():
    m = StepModel()
    batches = []
    m.param.watch(lambda *events: batches.append(len(events)), ["session", "focus", "happened", "notice"])
    m.act("step")
    assert len(batches) == 1


# ---- words: each sentence agrees with the records it describes ------------------------------

def test_caption_at_start_says_draft_comes_next_for_three_tokens():
    s = core.Session.start(core.Config("aligned", 3, 0))
    assert words.next_words(s).startswith("Draft asks the draft model to guess the next three tokens")


def test_between_verify_and_commit_the_caption_agrees_with_the_counters_and_the_output():
    before = core.Session.start(core.Config("aligned", 3, 0)).draft()
    after = before.verify()
    said = words.happened("verify", before, after)
    block = after.pending
    assert after.counters.target_passes == 0 and after.output == (), "nothing is counted or output yet"
    assert f"Commit adds {words.tokens(block.committed)} to the output" in said
    assert "until then the output and the counters leave this block out" in said
    assert f"That is {words.count(len(block.committed), 'token')} from one target pass" in said


def test_verify_words_never_say_every_proposal_is_judged():
    assert "accepts or rejects each" not in words.TOOLTIPS["verify"]
    assert "discarded untested" in words.TOOLTIPS["verify"]
    s = core.Session.start(core.Config("biased", 3, 1)).draft()
    assert "until one is rejected" in words.next_words(s)


def test_the_kept_row_is_the_chance_of_proposing_and_keeping_not_of_keeping_once_proposed():
    label, description = words.ROW_KEPT
    assert label == "min(p, q)"
    assert "proposes" in description and "keeps" in description
    # At the start, the biased draft proposes A with q = 0.80; once proposed, A is kept with 5/8:
    x = core.Session.start(core.Config("biased", 3, 1)).draft().verify().pending.proposals[0]
    assert x.token == "A" and x.accept_probability == F(5, 8)
    d = core.decompose(x.p, x.q)
    assert d.accepted[0] == F(1, 2) != x.accept_probability, "min(p, q) is not the chance of keeping A"
    assert "kept this often" in words.keep_chance(x)


def test_the_position_rejection_chance_is_named_apart_from_the_proposals_own():
    label, what = words.POSITION_REJECTS
    assert "position" in label and "1 − Σ min(p, q)" in what and "before anything is drafted" in what


def test_a_rejection_decision_names_the_draw_and_the_acceptance_probability():
    block = core.Session.start(core.Config("biased", 3, 1)).draft().verify().pending
    r = next(p for p in block.proposals if p.status == "rejected")
    said = words.decision(r)
    assert core.display.dec(r.u, 4) in said and core.display.exact_or_dec(r.accept_probability) in said
    assert said.endswith(f"so {r.token} is replaced.")


def test_history_line_names_what_a_block_drafted_and_committed():
    block = core.simulate("biased", 3, 1).blocks[0]
    line = words.history_line(block)
    assert line.startswith(f"Block 1: drafted {words.tokens(p.token for p in block.proposals)}")
    assert f"committed {words.tokens(block.committed)}" in line
    assert f"{block.count('accepted')} accepted" in line


def test_counters_compare_line_uses_the_counters_fields():
    c = core.simulate("aligned", 3, 0).counters
    said = words.compare(c)
    assert f"{c.ordinary_passes} for these {c.committed} tokens. This run used {c.target_passes}" in said
    assert words.compare(core.Counters()) == ""


def test_limit_words_only_when_the_output_is_full():
    s = core.Session.start(core.Config("aligned", 3, 0))
    assert words.limit_words(s) == ""
    assert "limit of this toy" in words.limit_words(s.run_to_end())


def test_early_stop_words_quote_the_guess_and_the_threshold():
    config = core.Config("biased", 6, 3, lookahead=F(1, 2))
    trace = core.simulate("biased", 6, 3, lookahead=F(1, 2))
    block = next(b for b in trace.blocks if b.stopped_early)
    said = words.early_stop(block, config)
    assert f"q = {core.display.dec(block.proposals[-1].q_x)}" in said and "below the threshold 0.50" in said


# ---- the URL ------------------------------------------------------------------------------

def test_url_read_accepts_the_scenario_from_the_issue():
    url = urlstate.read("?draft=biased&width=3&seed=1")
    assert url.values == {"draft": "biased", "width": 3, "seed": 1, "lookahead": "off", "schedule": "fixed", "steps": 0,
                          "target": "", "q": ""}
    assert url.notices == ()


@pytest.mark.parametrize("text, value", [("0.5", "0.50"), ("0.50", "0.50"), ("1/5", "0.20"), ("off", "off")])
def test_url_lookahead_takes_a_threshold_in_any_exact_spelling(text, value):
    url = urlstate.read(f"?draft=biased&lookahead={text}")
    assert url.values["lookahead"] == value and url.notices == ()


@pytest.mark.parametrize("query, name", [
    ("?width=12", "width"), ("?width=0", "width"), ("?width=three", "width"), ("?width=3.0", "width"),
    ("?draft=huge", "draft"), ("?seed=-1", "seed"), ("?seed=1e3", "seed"), ("?steps=999", "steps"),
    ("?lookahead=0.55", "lookahead"), ("?lookahead=2", "lookahead"), ("?lookahead=maybe", "lookahead"),
    ("?lookahead=1/0", "lookahead"), ("?seed=" + "9" * 4301, "seed"),
])
def test_url_bad_values_fall_back_to_defaults_with_a_notice(query, name):
    url = urlstate.read(query)
    assert url.values[name] == urlstate.DEFAULTS[name]
    assert len(url.notices) == 1 and f"The link's {name} is not valid" in url.notice


def test_url_numbers_with_exponents_or_long_text_are_refused_at_once():
    started = time.perf_counter()
    for text in ("1e999999999", "1E9", "0." + "5" * 100, "9" * 5000):
        url = urlstate.read(f"?lookahead={text}")
        assert url.values["lookahead"] == "off" and url.notices
    assert time.perf_counter() - started < 1.0, "no huge number is ever built"


def test_url_notice_never_repeats_what_the_link_carried():
    url = urlstate.read("?draft=%3Cscript%3Ealert(1)%3C/script%3E")
    assert url.values["draft"] == "aligned"
    assert "<" not in url.notice and "script" not in url.notice


def test_url_unknown_keys_are_ignored_and_kept_when_writing():
    url = urlstate.read("?tab=exact&seed=5")
    assert url.values["seed"] == 5 and url.notices == ()
    assert urlstate.write({"draft": "biased", "width": 2, "seed": 7}, search="?tab=exact&seed=5") == \
        "?draft=biased&width=2&seed=7&tab=exact"
    assert urlstate.read("?tab=exact").given == frozenset()
    assert urlstate.read("?seed=2&draft_hide=1&tab=x").given == {"seed", "draft_hide"}


def test_url_write_then_read_round_trips_with_hidden_controls():
    values = {"draft": "biased", "width": 8, "seed": 123456789, "lookahead": "0.30", "schedule": "heuristic",
              "steps": 4, "target": "", "q": ""}
    search = urlstate.write(values, hidden={"draft", "counters"})
    url = urlstate.read(search)
    assert url.values == values
    assert url.hidden == {"draft", "counters"}


def test_panels_own_query_parsing_survives_a_4301_digit_value():
    from panel.io.location import Location
    urlstate.tolerate_long_query_values()
    search = "?utm_id=" + "7" * 4301 + "&seed=2"
    location = Location(search=search)
    assert location.query_params["utm_id"] == "7" * 4301
    assert urlstate.read(location.search).values["seed"] == 2


def test_embed_snippet_escapes_quotes_in_the_address():
    code = snippet("http://127.0.0.1:5006/main" + "?draft=biased&width=3&seed=0&steps=1")
    assert code.startswith('<iframe src="http://127.0.0.1:5006/main?draft=biased&width=3&seed=0&steps=1"')
    assert "</iframe>" in code and 'title="' in code
    assert snippet("x" + '?a="b"').count('"') == snippet("x" + "?a=b").count('"')
