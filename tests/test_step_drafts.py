"""The step tab with every draft (aligned, biased, lookup, heads) and the width schedule.

Issue 12: the draft choice offers all four drafts of ``core.ALL_DRAFTS``; a
link accepts ``draft=lookup|heads`` and ``schedule=heuristic``; a lookup
block with nothing to copy is an ordinary target step; the inspector shows
lookup's one-hot q and a head's q beside the p it is tested against; the
width each block used is shown in the counters and the history.
"""

import re

import pytest

import core
from app import urlstate
from app.step import words
from app.step.model import StepModel
from app.step.views import StepView, chips
from html_support import buttons as html_buttons


def text(html):
    plain = re.sub(r"<[^>]+>", " ", html)
    for entity, char in (("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&#x27;", "'"), ("&amp;", "&")):
        plain = plain.replace(entity, char)
    return re.sub(r"\s+", " ", plain).strip()


def first_copy(seed_range=range(200), width=3):
    """A lookup model whose pending block, after Draft and Verify, holds a copied proposal."""
    for seed in seed_range:
        m = StepModel(draft="lookup", width=width, seed=seed)
        for _ in range(8):
            if m.session.phase == "done":
                break
            m.act("run_block")
            if m.session.phase == "draft" and core.drafts.next_q("lookup", m.session.output) is not None:
                m.act("draft")
                m.act("verify")
                return m
    raise AssertionError("no lookup copy found")


# ---- the draft choice and the URL ---------------------------------------------------------------

def test_the_draft_choice_offers_every_draft_core_runs():
    view = StepView(model=StepModel())
    assert list(view.scenario.draft.options.values()) == list(core.ALL_DRAFTS)
    view.scenario.draft.value = "heads"
    assert view.model.session.config.draft == "heads"
    assert "switched to the heads draft" in view.model.happened


@pytest.mark.parametrize("draft", ["lookup", "heads"])
def test_a_link_opens_the_lookup_and_heads_drafts(draft):
    m = StepModel()
    m.open_link(urlstate.read(f"?draft={draft}&width=4&seed=2"))
    assert m.session.config == core.Config(draft, 4, 2)
    assert m.notice == ""


def test_an_unknown_draft_in_a_link_gets_a_notice_naming_the_five_drafts():
    url = urlstate.read("?draft=medusa&seed=3")
    assert url.values["draft"] == "aligned"
    assert url.notice == ("The link's draft is not valid (it must be one of aligned, biased, lookup, heads or custom), "
                          "so the default aligned is used.")
    m = StepModel()
    m.open_link(url)
    assert m.notice == url.notice and m.session.config.seed == 3


def test_schedule_is_read_from_a_link_and_written_only_when_heuristic():
    url = urlstate.read("?draft=biased&schedule=heuristic")
    assert url.values["schedule"] == "heuristic" and url.notices == ()
    assert "schedule=heuristic" in urlstate.write(url.values)
    assert "schedule" not in urlstate.write(urlstate.read("?draft=biased").values)
    bad = urlstate.read("?schedule=adaptive")
    assert bad.values["schedule"] == "fixed" and "schedule is not valid" in bad.notice
    m = StepModel()
    m.open_link(url)
    assert m.schedule == "heuristic" and m.session.config.schedule == "heuristic"
    assert m.scenario()["schedule"] == "heuristic"
    assert "heuristic schedule starting at width 3" in m.happened


# ---- lookup: the ordinary step -------------------------------------------------------------------

def test_a_lookup_block_with_nothing_to_copy_is_an_ordinary_target_step():
    view = StepView(model=StepModel(draft="lookup", width=3, seed=1))
    m = view.model
    assert "Draft finds nothing to copy" in text(view.caption.text.object)
    m.act("draft")
    assert m.session.pending.proposals == ()
    assert m.happened == words.nothing_to_copy(())
    assert "ordinary target step" in m.happened
    m.act("verify")
    token = m.session.pending.bonus.token
    assert m.happened.startswith(f"One target pass drew {token} from the target's own probabilities p: an "
                                 f"ordinary decoding step")
    assert [b.text for b in html_buttons(view.strip.chips.object)] == [f"{token} ● from p"]
    assert "joiner" not in view.strip.chips.object, "no '+' joins an ordinary step to proposals it does not have"
    assert "ordinary step" in text(view.inspector.body.object)
    m.act("commit")
    block = m.session.blocks[0]
    assert block.ordinary_step and m.session.counters.ordinary_steps == 1 and m.session.counters.bonus == 0
    assert html_buttons(view.history.lines.object)[0].text == (
        f"Block 1: nothing to copy · ordinary step, {token} from p · committed {token}")
    counters = text(view.counters.html.object)
    assert "1 ordinary steps" in counters and "0 bonus tokens" in counters
    assert words.origins(block) == ["ordinary"]


def test_the_preview_before_an_ordinary_step_shows_only_p():
    view = StepView(model=StepModel(draft="lookup", width=3, seed=1))
    assert words.NOTHING_TO_COPY_PREVIEW in text(view.inspector.body.object)
    bars = view.inspector.charts.shown["pq"].bars
    assert [bar.under for bar in bars] == ["p", "p", "p"]
    assert [bar.solid for bar in bars] == [float(x) for x in core.position("aligned").p]


# ---- lookup: the one-hot q -----------------------------------------------------------------------

def test_the_inspector_shows_lookups_one_hot_q_and_explains_it_in_one_sentence():
    m = first_copy()
    view = StepView(model=m)
    block = m.session.pending
    x = block.proposals[0]
    m.inspect((block.index, 0))
    body = text(view.inspector.body.object)
    assert x.q == tuple(int(t == x.token) for t in core.TOKENS), "q is one-hot on the copy"
    assert "one-hot" in body and "no draw: q is one-hot" in body
    assert x.accept_probability == x.p_x, "a copy is accepted with probability exactly p(x)"
    sentence = words.lookup_explain(x)
    assert sentence in text(view.inspector.body.object)
    assert f"accepted with probability exactly p({x.token})" in sentence
    assert f"the residual is p without {x.token}, renormalised" in sentence
    assert sentence.count(". ") == 0, "one sentence"
    match = core.drafts.lookup_match(x.prefix)
    assert x.token == x.prefix[match + 1], "the copy is what followed the most recent earlier occurrence"
    assert f"token {match + 1} of the text" in words.copied_from(x)
    q_bars = [bar.solid for bar in view.inspector.charts.shown["pq"].bars if bar.under == "q"]
    assert q_bars == [float(v) for v in x.q]


def test_a_rejected_copys_residual_is_p_without_the_copy_renormalised():
    for seed in range(300):
        s = core.Session.start(core.Config("lookup", 3, seed)).run_to_end()
        rejected = [(b, x) for b in s.blocks for x in b.proposals if x.status == "rejected"]
        if rejected:
            break
    block, x = rejected[0]
    i = core.TOKENS.index(x.token)
    rest = sum(v for j, v in enumerate(x.p) if j != i)
    assert block.correction.residual == tuple(0 if j == i else v / rest for j, v in enumerate(x.p))


# ---- heads -------------------------------------------------------------------------------------

def test_the_inspector_shows_a_heads_q_beside_the_p_it_is_tested_against():
    m = StepModel(draft="heads", width=4, seed=3)
    m.act("draft")
    m.act("verify")
    view = StepView(model=m)
    block = m.session.pending
    last = block.proposals[-1] if block.proposals[-1].p is not None else block.proposals[0]
    m.inspect((block.index, last.index))
    body = text(view.inspector.body.object)
    assert "head's q" in body
    sentence = words.heads_explain(last)
    assert sentence in body
    assert f"Head {last.index + 1} predicts" in sentence and "without seeing the earlier proposals" in sentence
    bars = view.inspector.charts.shown["pq"].bars
    assert [bar.solid for bar in bars if bar.under == "q"] == [float(v) for v in last.q]
    assert [bar.solid for bar in bars if bar.under == "p"] == [float(v) for v in last.p]


def test_head_1_is_always_accepted_and_says_it_guessed_from_the_committed_text():
    for seed in range(40):
        s = core.Session.start(core.Config("heads", 3, seed)).run_to_end()
        assert all(b.proposals[0].status == "accepted" for b in s.blocks)
    m = StepModel(draft="heads", width=3, seed=0)
    m.act("draft")
    assert "Three heads each guessed one token" in m.happened
    assert "without seeing the other heads' guesses" in m.happened


# ---- the width schedule --------------------------------------------------------------------------

def test_the_schedule_control_restarts_the_trace_with_the_heuristic():
    view = StepView(model=StepModel(draft="biased", seed=1))
    assert list(view.scenario.schedule.options.values()) == list(core.SCHEDULES)
    view.scenario.schedule.value = "heuristic"
    m = view.model
    assert m.session.config.schedule == "heuristic"
    assert "switched to the heuristic schedule" in m.happened
    view.scenario.schedule.value = "fixed"
    assert "switched to a fixed width" in m.happened


@pytest.mark.parametrize("draft", core.ALL_DRAFTS)
def test_history_and_counters_show_the_width_each_block_used(draft):
    for seed in range(12):
        view = StepView(model=StepModel(draft=draft, width=2, seed=seed, schedule="heuristic"))
        m = view.model
        m.act("run_block")
        m.act("run_block")
        blocks = m.session.blocks
        lines = [line.text for line in html_buttons(view.history.lines.object)]
        assert [re.match(r"Block \d+ \(width (\d+)\)", line).group(1) for line in lines] == \
            [str(b.width) for b in blocks]
        counters = text(view.counters.html.object)
        used = " → ".join(str(b.width) for b in blocks)
        if m.session.phase != "done":
            assert f"Widths the heuristic schedule gave the blocks: {used}; the next block may draft " \
                   f"{m.session.width}." in counters
        assert blocks[0].width == 2
        for before, after in zip(blocks, blocks[1:]):
            verdict = core.schedule.verdict(len(before.proposals), before.count("accepted"))
            assert after.width == core.schedule.next_width("heuristic", before.width, verdict)


def test_a_fixed_width_shows_no_widths_line_and_no_width_in_the_history():
    view = StepView(model=StepModel(draft="biased", seed=1))
    view.model.act("run_block")
    assert "Widths" not in text(view.counters.html.object)
    assert html_buttons(view.history.lines.object)[0].text.startswith("Block 1: drafted")


def test_the_next_step_counts_the_schedules_width_not_the_configured_one():
    m = StepModel(draft="aligned", width=2, seed=0, schedule="heuristic")
    m.act("run_block")
    assert m.session.width == 4, "aligned: every proposal is accepted, so +2"
    assert words.next_words(m.session).startswith("Draft asks the draft model to guess the next four tokens")


# ---- every sentence against its records ---------------------------------------------------------

@pytest.mark.parametrize("draft", core.ALL_DRAFTS)
@pytest.mark.parametrize("schedule", core.SCHEDULES)
def test_sentences_say_ordinary_step_exactly_when_a_block_has_no_proposal(draft, schedule):
    for seed in range(25):
        s = core.Session.start(core.Config(draft, 3, seed, schedule=schedule))
        while s.phase != "done":
            s = s.draft()
            said = words.drafted(s.pending, s.config)
            assert ("nothing to copy" in said) == (not s.pending.proposals)
            s = s.verify()
            said = words.verified(s.pending)
            assert ("ordinary decoding step" in said) == (not s.pending.proposals)
            s = s.commit()
            block = s.blocks[-1]
            line = words.history_line(block, schedule)
            assert ("ordinary step" in line) == block.ordinary_step
            assert (f"(width {block.width})" in line) == (schedule == "heuristic")
            assert ("ordinary" in [c[1] for c in chips(block)]) == block.ordinary_step
        assert s.counters.ordinary_steps == sum(b.ordinary_step for b in s.blocks)
