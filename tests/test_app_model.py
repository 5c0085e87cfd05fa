"""The widget's model and views, driven without a browser (plain pytest).

As in Panel's "test a todo app" tutorial: build the model and the views,
set widget values or click buttons from Python, and read what the page
would show. Numbers written out come from the seed text (000_*.txt) and the
engine issue: the biased draft at the empty prefix has q = [0.80, 0.15, 0.05],
the target p = [0.50, 0.30, 0.20], and the residual is [0, 0.50, 0.50].
"""

import re
from fractions import Fraction as F

import panel as pn
import pytest

import core
from app import urlstate
from app.caption import Caption
from app.embed import snippet
from app.inspector import Inspector
from app.main import link_url
from app.model import LABELS, Model
from app.step_tab import StepView
from app.strip import TokenStrip


def click(button):
    """What a browser click does to a Panel button."""
    button.clicks += 1


def text(html):
    """Visible text of an HTML fragment (tags dropped, entities decoded)."""
    plain = re.sub(r"<[^>]+>", " ", html)
    for entity, char in (("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&#x27;", "'"), ("&amp;", "&")):
        plain = plain.replace(entity, char)
    return re.sub(r"\s+", " ", plain).strip()


@pytest.fixture
def view():
    return StepView(model=Model())


def biased_seed_1():
    return Model(draft="biased", width=3, seed=1)


# ---- defaults and the caption ------------------------------------------------------

def test_defaults_are_aligned_draft_width_3_seed_0_with_nothing_drafted():
    m = Model()
    assert (m.draft, m.width, m.seed) == ("aligned", 3, 0)
    assert m.session.phase == "draft"
    assert m.session.output == ()
    assert m.focus is None


def test_caption_at_start_says_nothing_happened_and_that_draft_comes_next(view):
    caption = text(view.caption.text.object)
    assert "Nothing has happened yet" in caption
    assert "Next: Draft asks the draft model to guess the next three tokens" in caption


def test_caption_after_draft_says_proposals_are_not_output_and_verify_checks_them_in_one_pass(view):
    click(view.actions.buttons["draft"])
    caption = text(view.caption.text.object)
    assert "The draft model proposed three tokens" in caption
    assert "not in the output yet" in caption
    assert "Next: Verify scores all three in one target pass" in caption


def test_only_valid_actions_are_enabled(view):
    buttons = view.actions.buttons
    enabled = {a for a, b in buttons.items() if not b.disabled}
    assert enabled == {"draft", "step", "run_block", "run_to_end"}
    click(buttons["draft"])
    enabled = {a for a, b in buttons.items() if not b.disabled}
    assert enabled == {"verify", "step", "run_block", "run_to_end", "reset"}
    click(buttons["verify"])
    enabled = {a for a, b in buttons.items() if not b.disabled}
    assert enabled == {"commit", "step", "run_block", "run_to_end", "reset"}


def test_buttons_have_exactly_the_names_readers_look_for(view):
    names = [b.label for b in view.actions.buttons.values()]
    assert names == ["Draft", "Verify", "Commit", "Next step", "Run block", "Run to end", "Reset"]


def test_the_button_for_the_next_phase_is_highlighted(view):
    buttons = view.actions.buttons
    assert buttons["draft"].color == "primary"
    assert buttons["verify"].color == "default"
    click(buttons["draft"])
    assert buttons["verify"].color == "primary"
    assert buttons["draft"].color == "default"


# ---- the aligned draft -------------------------------------------------------------

def test_aligned_draft_verify_commit_commits_four_tokens_after_one_target_pass(view):
    m = view.model
    for action in ("draft", "verify", "commit"):
        click(view.actions.buttons[action])
    assert len(m.session.output) == 4
    counters = m.session.counters
    assert counters.target_passes == 1
    assert counters.committed == 4
    assert counters.bonus == 1
    assert "4 of 8 tokens committed" in text(view.strip.output.object)
    shown = text(view.counters.html.object)
    assert "1 target pass used here" in shown
    assert "Ordinary decoding needs one target pass per token: 4 for these 4 tokens. This run used 1" in shown


def test_aligned_bonus_is_marked_and_opens_in_the_inspector(view):
    m = view.model
    click(view.actions.buttons["draft"])
    click(view.actions.buttons["verify"])
    labels = [chip.label for chip in _chip_buttons(view.strip)]
    assert any(label.endswith("★ bonus") for label in labels)
    assert m.focus == (0, "bonus")
    body = text(view.inspector.body.object)
    bonus = m.session.pending.bonus
    assert f"bonus token {bonus.token}" in body
    assert core.display.dec(bonus.u, 4) in body


# ---- the biased draft, seed 1 ------------------------------------------------------

def _chip_buttons(strip):
    out = []
    for obj in strip.chips.objects:
        if isinstance(obj, pn.widgets.Button):
            out.append(obj)
        elif isinstance(obj, pn.Row):
            out.extend(o for o in obj.objects if isinstance(o, pn.widgets.Button))
    return out


def test_biased_seed_1_first_block_shows_rejection_correction_and_discarded_proposals():
    m = biased_seed_1()
    strip = TokenStrip(model=m)
    m.act("draft")
    assert [c.label.split("\n")[1] for c in _chip_buttons(strip)] == ["proposed"] * 3
    m.act("verify")
    block = m.session.pending
    statuses = [p.status for p in block.proposals]
    rejected_at = statuses.index("rejected")
    assert rejected_at < len(statuses) - 1, "the rejection comes before the last proposal"
    assert set(statuses[rejected_at + 1:]) == {"discarded"}
    labels = [c.label.split("\n")[1] for c in _chip_buttons(strip)]
    assert "✗ rejected" in labels and "correction" in labels and "discarded" in labels
    assert labels.index("correction") == labels.index("✗ rejected") + 1, "the correction sits beside the rejection"
    assert "discarded" in text(strip.note.object) and "rejected" in text(strip.note.object)


def test_inspector_shows_the_empty_prefix_numbers_of_the_biased_draft():
    m = biased_seed_1()
    inspector = Inspector(model=m)
    m.act("draft")
    m.act("verify")
    m.inspect((0, 0))
    it = m.inspected()
    assert it.proposal.prefix == ()
    assert it.proposal.q == (F("0.80"), F("0.15"), F("0.05"))
    assert it.proposal.p == (F("0.50"), F("0.30"), F("0.20"))
    assert it.decomposition.residual == (0, F("0.50"), F("0.50"))
    body = text(inspector.body.object)
    assert "draft q the draft's probabilities 0.80 0.15 0.05" in body
    assert "target p the target's probabilities 0.50 0.30 0.20" in body
    assert "0.00 0.50 0.50" in body
    assert "nothing: this is the start of the text" in body


def test_inspector_on_a_rejection_shows_ratio_acceptance_draw_decision_residual_and_replacement():
    m = biased_seed_1()
    inspector = Inspector(model=m)
    m.act("draft")
    m.act("verify")
    block = m.session.pending
    rejected = next(p for p in block.proposals if p.status == "rejected")
    assert m.focus == (0, rejected.index), "after Verify the inspector lands on the rejection"
    body = text(inspector.body.object)
    dec, exact = core.display.dec, core.display.exact_or_dec
    assert f"p(x) / q(x) {exact(rejected.ratio)}" in body
    assert f"min(1, p(x)/q(x)) {exact(rejected.accept_probability)}" in body
    assert f"draw u {dec(rejected.u, 4)}" in body
    assert "rejected" in body
    assert f"[{core.display.row(block.correction.residual)}]" in body
    assert f"draw for the correction {dec(block.correction.u, 4)}" in body
    assert f"replacement {block.correction.token} drawn from the residual" in body
    assert inspector._residual.visible and inspector._stack.visible


def test_charts_plot_the_records_numbers():
    m = biased_seed_1()
    inspector = Inspector(model=m)
    m.act("draft")
    m.act("verify")
    m.inspect((0, 0))
    pq = inspector.charts.pq_source.data
    q = [v for (t, side), v in zip(pq["x"], pq["value"]) if side == "q"]
    p = [v for (t, side), v in zip(pq["x"], pq["value"]) if side == "p"]
    assert q == [0.8, 0.15, 0.05] and p == [0.5, 0.3, 0.2]
    assert inspector.charts.res_source.data["value"] == [0.0, 0.5, 0.5]
    stack = inspector.charts.stack_source.data
    d = m.inspected().decomposition
    assert stack["accepted"] == [float(x) for x in d.accepted]
    assert stack["final"] == [0.5, 0.3, 0.2], "accepted mass plus corrections reaches p"
    for fig in (inspector.charts.pq, inspector.charts.residual, inspector.charts.stack):
        assert fig.title.text and fig.xaxis[0].axis_label and fig.yaxis[0].axis_label


def test_before_verify_the_chart_shows_only_the_drafts_q_and_a_bonus_only_the_targets_p():
    m = Model()
    inspector = Inspector(model=m)
    m.act("draft")
    assert {side for _, side in inspector.charts.pq_source.data["x"]} == {"q"}
    assert "p comes with Verify" in inspector.charts.pq.title.text
    m.act("verify")
    assert m.focus == (0, "bonus")
    assert {side for _, side in inspector.charts.pq_source.data["x"]} == {"p"}
    assert inspector.charts.pq_source.data["value"] == [float(x) for x in m.session.pending.bonus.p]


def test_picking_a_position_from_the_list_opens_it():
    m = biased_seed_1()
    inspector = Inspector(model=m)
    m.act("draft")
    labels = list(inspector.picker.options)
    label = next(k for k, v in inspector.picker.options.items() if v == (0, 2))
    inspector.picker.value = inspector.picker.options[label]
    assert m.focus == (0, 2)
    assert "position 3" in text(inspector.body.object)
    assert len(labels) == 3


def test_clicking_a_chip_opens_its_position_in_the_inspector():
    m = biased_seed_1()
    strip = TokenStrip(model=m)
    m.act("draft")
    click(_chip_buttons(strip)[1])
    assert m.focus == (0, 1)


# ---- scenario controls --------------------------------------------------------------

def test_changing_the_seed_resets_the_trace_and_the_caption_says_so(view):
    m = view.model
    click(view.actions.buttons["run_block"])
    assert m.session.output
    view.scenario.seed.value = 4
    assert m.seed == 4
    assert m.session.output == () and m.session.blocks == ()
    assert "changed the seed to 4, so the trace started over" in text(view.caption.text.object)


def test_seed_minus_and_plus_walk_through_seeds(view):
    m = view.model
    assert view.scenario.seed_down.disabled, "there is no seed below 0"
    click(view.scenario.seed_up)
    click(view.scenario.seed_up)
    assert m.seed == 2 and view.scenario.seed.value == 2
    click(view.scenario.seed_down)
    assert m.seed == 1


def test_draft_and_width_widgets_drive_the_model_and_reset(view):
    m = view.model
    click(view.actions.buttons["draft"])
    view.scenario.draft.value = "biased"
    assert m.draft == "biased" and m.session.config.draft == "biased" and m.session.pending is None
    view.scenario.width.value = 5
    assert m.session.config.width == 5
    assert "set the width to 5" in m.happened


def test_reset_empties_the_output(view):
    m = view.model
    click(view.actions.buttons["run_block"])
    click(view.actions.buttons["reset"])
    assert m.session.output == () and m.session.counters.target_passes == 0
    assert view.actions.buttons["reset"].disabled


def test_run_to_end_stops_at_8_tokens_and_says_the_limit_is_reached(view):
    m = view.model
    click(view.actions.buttons["run_to_end"])
    assert len(m.session.output) == 8
    for action in ("draft", "verify", "commit", "step", "run_block", "run_to_end"):
        assert view.actions.buttons[action].disabled, action
    assert not view.actions.buttons["reset"].disabled
    caption = text(view.caption.text.object)
    assert "limit of this toy" in caption and "no end-of-sequence token" in caption


def test_counters_are_labelled_as_algorithmic_counts_not_latency(view):
    click(view.actions.buttons["run_to_end"])
    shown = text(view.counters.html.object)
    assert "Algorithmic counts" in shown and "not measured time" in shown
    c = view.model.session.counters
    assert f"{c.ordinary_passes} target passes ordinary decoding would need" in shown
    assert "tokens per target pass" in shown
    assert core.display.dec(c.tokens_per_pass) in shown


def test_history_has_one_line_per_finished_block_and_a_click_opens_it(view):
    m = view.model
    click(view.actions.buttons["run_to_end"])
    lines = view.history.lines.objects
    assert len(lines) == len(m.session.blocks)
    assert lines[0].label.startswith("Block 1: drafted")
    click(lines[0])
    assert m.focus[0] == 0


# ---- errors never reach the page as a traceback ---------------------------------------

def test_an_action_in_the_wrong_phase_becomes_a_notice_and_changes_nothing():
    m = Model()
    before = m.session
    m.act("commit")
    assert m.session is before
    assert m.notice.startswith("Commit is not possible right now.")


def test_an_unexpected_error_shows_a_short_message_and_keeps_the_trace(monkeypatch):
    m = Model()
    caption = Caption(model=m)
    m.act("draft")
    before = m.session

    def broken(self):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(core.Session, "verify", broken)
    m.act("verify")
    assert m.session is before, "the trace stays as it was"
    assert "Something went wrong" in m.notice
    assert "ZeroDivisionError: boom" in m.error_trace
    shown = text(caption.notice_pane.object)
    assert "Something went wrong" in shown and "Traceback" not in shown and "boom" not in shown


# ---- the URL --------------------------------------------------------------------------------

def test_url_read_accepts_the_scenario_from_the_issue():
    url = urlstate.read("?draft=biased&width=3&seed=1")
    assert url.values == {"draft": "biased", "width": 3, "seed": 1, "lookahead": "off", "steps": 0}
    assert url.notices == ()


@pytest.mark.parametrize("text, value", [("0.5", "0.50"), ("0.50", "0.50"), ("1/5", "0.20"), ("off", "off")])
def test_url_lookahead_takes_a_threshold_in_any_exact_spelling(text, value):
    url = urlstate.read(f"?draft=biased&lookahead={text}")
    assert url.values["lookahead"] == value and url.notices == ()


@pytest.mark.parametrize("query, name", [
    ("?width=12", "width"), ("?width=0", "width"), ("?width=three", "width"),
    ("?draft=huge", "draft"), ("?seed=-1", "seed"), ("?seed=1e3", "seed"), ("?steps=999", "steps"),
    ("?lookahead=0.55", "lookahead"), ("?lookahead=2", "lookahead"), ("?lookahead=maybe", "lookahead"),
])
def test_url_bad_values_fall_back_to_defaults_with_a_notice(query, name):
    url = urlstate.read(query)
    assert url.values[name] == urlstate.DEFAULTS[name]
    assert len(url.notices) == 1 and f"The link's {name} is not valid" in url.notice


def test_url_notice_never_repeats_what_the_link_carried():
    url = urlstate.read("?draft=%3Cscript%3Ealert(1)%3C/script%3E")
    assert url.values["draft"] == "aligned"
    assert "<" not in url.notice and "script" not in url.notice


def test_url_unknown_keys_are_ignored_and_kept_when_writing():
    url = urlstate.read("?tab=exact&seed=5")
    assert url.values["seed"] == 5 and url.notices == ()
    assert urlstate.write({"draft": "biased", "width": 2, "seed": 7}, search="?tab=exact&seed=5") == \
        "?draft=biased&width=2&seed=7&tab=exact"


def test_url_write_then_read_round_trips_with_hidden_controls():
    values = {"draft": "biased", "width": 8, "seed": 123456789, "lookahead": "0.30", "steps": 4}
    search = urlstate.write(values, hidden={"draft", "counters"})
    url = urlstate.read(search)
    assert url.values == values
    assert url.hidden == {"draft", "counters"}


def test_name_hide_hides_that_control(view):
    view.model.open_link(urlstate.read("?draft=biased&draft_hide=1&reset_hide=true"))
    assert view.model.draft == "biased"
    assert not view.scenario._draft_box.visible
    assert view.scenario._seed_box.visible
    assert not view.actions.buttons["reset"].visible


def test_steps_in_a_link_replay_that_many_clicks_of_next_step():
    m = Model()
    m.open_link(urlstate.read("?draft=biased&width=3&seed=1&steps=2"))
    assert m.session.phase == "commit"
    assert m.focus == (0, 1), "the inspector opens on the rejection"
    assert m.steps_done() == 2


def test_link_url_reads_on_load_and_writes_on_control_changes():
    from panel.io.location import Location
    location = Location(search="?draft=biased&width=3&seed=1")
    m = Model()
    link_url(m, location)
    assert (m.draft, m.width, m.seed) == ("biased", 3, 1)
    m.seed = 2
    assert urlstate.read(location.search).values["seed"] == 2
    m.draft = "aligned"
    assert location.search == "?draft=aligned&width=3&seed=2"


def test_link_url_applies_a_query_that_arrives_after_the_first_render():
    """In the Pyodide worker the browser's location reaches Python only after rendering."""
    from panel.io.location import Location
    location = Location()
    m = Model()
    link_url(m, location)
    assert m.draft == "aligned"
    location.search = "?draft=biased&width=2&seed=9&width_hide=1"
    assert (m.draft, m.width, m.seed) == ("biased", 2, 9)
    assert m.hidden == {"width"}


def test_link_url_leaves_the_trace_alone_when_the_query_is_not_ours():
    from panel.io.location import Location
    m = Model()
    m.act("draft")
    before = m.session
    location = Location(search="?tab=exact")
    link_url(m, location)
    assert m.session is before
    location.search = "?tab=payoff"
    assert m.session is before and not m.notice
    assert urlstate.read("?tab=exact").given == frozenset()
    assert urlstate.read("?seed=2&draft_hide=1&tab=x").given == {"seed", "draft_hide"}


def test_link_url_shows_a_notice_for_a_bad_value(view):
    from panel.io.location import Location
    link_url(view.model, Location(search="?width=12"))
    assert view.model.width == 3
    assert "The link's width is not valid" in text(view.caption.notice_pane.object)


def test_embed_code_is_an_iframe_for_the_scenario_on_screen(view):
    view.embed.base = "http://127.0.0.1:5006/main"
    view.scenario.draft.value = "biased"
    click(view.actions.buttons["draft"])
    code = view.embed.area.value
    assert code.startswith('<iframe src="http://127.0.0.1:5006/main?draft=biased&width=3&seed=0&steps=1"')
    assert "</iframe>" in code and 'title="' in code
    assert snippet("x", '?a="b"').count('"') == snippet("x", "?a=b").count('"'), "quotes in a URL are encoded"


# ---- the model's words -------------------------------------------------------------------

def test_every_action_has_a_caption_sentence():
    m = Model(draft="biased", width=3, seed=1)
    for action in ("draft", "verify", "commit", "step", "run_block", "run_to_end", "reset"):
        m.act(action)
        assert m.happened and not m.notice, action
    assert set(LABELS) == set(core.ACTIONS)


# ---- colours --------------------------------------------------------------------------------

def _contrast(a, b):
    """WCAG 2 contrast ratio of two #rrggbb colours."""
    def luminance(colour):
        channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_text_colours_meet_wcag_aa_contrast():
    from app import theme
    pairs = [(theme.INK, "#ffffff"), (theme.INK, theme.PAGE), (theme.MUTED, "#ffffff"), (theme.MUTED, "#f7f9fb"),
             ("#ffffff", theme.ACCENT), (theme.REJECT, "#fdecea"), (theme.ACCEPT, "#e6f4ea")]
    for token, (fill, on_fill, tint, ink) in theme.TOKEN_COLOURS.items():
        pairs += [(on_fill, fill), (ink, tint), (ink, "#ffffff")]
    for text_colour, background in pairs:
        assert _contrast(text_colour, background) >= 4.5, (text_colour, background)


def test_each_token_has_its_own_colour_and_its_letter_on_every_chip():
    from app import theme
    fills = [theme.fill(t) for t in core.TOKENS]
    assert len(set(fills)) == 3
    for token in core.TOKENS:
        assert f">{token}</span>" in theme.chip(token)


def test_the_lookahead_toggle_restarts_the_trace_and_the_counters_show_early_stops(view):
    m = view.model
    view.scenario.draft.value = "biased"
    view.scenario.width.value = 6
    click(view.actions.buttons["run_to_end"])
    assert m.session.counters.early_stops == 0
    view.scenario.threshold.value = "0.50"
    view.scenario.lookahead_on.value = True
    assert m.lookahead == "0.50" and m.session.blocks == ()
    assert "dynamic lookahead" in m.happened
    click(view.actions.buttons["run_to_end"])
    early = m.session.counters
    stopped = [b for b in m.session.blocks if b.stopped_early]
    assert early.early_stops == len(stopped) > 0
    assert all(len(b.proposals) < 6 for b in stopped)
    assert "early stops" in view.counters.html.object
    assert "lookahead=0.50" in urlstate.write(m.scenario(), m.hidden)
    view.scenario.lookahead_on.value = False
    assert m.lookahead == "off" and view.scenario.threshold.disabled
