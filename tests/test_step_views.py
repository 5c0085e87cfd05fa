"""The views of "Step through a block" and the page's wiring, driven from Python (no browser).

As in Panel's "test a todo app" tutorial: build the model and the views,
click buttons or set widget values from Python, and read what the page
would show. The views are also rendered into a Bokeh ``Document`` (as the
Pyodide worker renders them) to count what one click sends to the page and
to check that clicking never adds Bokeh models.
"""

import re
import threading
from collections import Counter

import panel as pn
import pytest
from bokeh.document import Document
from panel.io.state import set_curdoc, state

import core
from app import main, theme, urlstate
from app.step import words
from app.step.model import StepModel
from app.parts import NEXT
from html_support import buttons as html_buttons, contrast
from app.step.views import StepView, chips


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
    return StepView(model=StepModel())


def biased_view():
    return StepView(model=StepModel(draft="biased", width=3, seed=1))


def chip_buttons(view):
    return html_buttons(view.strip.chips.object)


def chip_labels(view):
    """Each chip's state, its second line ("✓ accepted")."""
    return [b.text.split(" ", 1)[1] for b in chip_buttons(view)]


# ---- caption and buttons ------------------------------------------------------------------

def test_caption_at_start_says_nothing_happened_and_that_draft_comes_next(view):
    caption = text(view.caption.text.object)
    assert "Nothing has happened yet" in caption
    assert "Next: Draft asks the draft model to guess the next three tokens" in caption


def test_caption_after_draft_says_proposals_are_not_output_and_verify_checks_them_in_one_pass(view):
    click(view.actions.buttons["draft"])
    caption = text(view.caption.text.object)
    assert "The draft model proposed three tokens" in caption and "not in the output yet" in caption
    assert "Next: Verify scores all three in one target pass" in caption


def test_only_valid_actions_are_enabled_and_the_next_phase_is_highlighted(view):
    buttons = view.actions.buttons
    assert {a for a, b in buttons.items() if not b.disabled} == {"draft", "step", "run_block", "run_to_end"}
    highlighted = lambda: {a for a, b in buttons.items() if b.styles.get(NEXT) == "1"}  # noqa: E731
    assert highlighted() == {"draft"}
    click(buttons["draft"])
    assert {a for a, b in buttons.items() if not b.disabled} == {"verify", "step", "run_block", "run_to_end",
                                                                   "reset"}
    assert highlighted() == {"verify"}
    click(buttons["verify"])
    assert {a for a, b in buttons.items() if not b.disabled} == {"commit", "step", "run_block", "run_to_end",
                                                                   "reset"}


def test_buttons_have_exactly_the_names_readers_look_for(view):
    assert [b.label for b in view.actions.buttons.values()] == [
        "Draft", "Verify", "Commit", "Next step", "Run block", "Run to end", "Reset"]


def test_aligned_draft_verify_commit_shows_four_tokens_after_one_target_pass(view):
    for action in ("draft", "verify", "commit"):
        click(view.actions.buttons[action])
    assert "4 of 8 tokens committed" in text(view.strip.output.object)
    shown = text(view.counters.html.object)
    assert "1 target pass used here" in shown
    assert "Ordinary decoding needs one target pass per token: 4 for these 4 tokens. This run used 1" in shown


def test_after_verify_counters_say_the_pending_block_is_not_counted_yet(view):
    click(view.actions.buttons["draft"])
    click(view.actions.buttons["verify"])
    assert "0 target passes used here" in text(view.counters.html.object)
    assert words.PENDING_NOT_COUNTED in text(view.counters.html.object)
    assert "until then the output and the counters leave this block out" in text(view.caption.text.object)


def test_run_to_end_disables_every_step_and_says_the_limit_is_reached(view):
    click(view.actions.buttons["run_to_end"])
    for action in ("draft", "verify", "commit", "step", "run_block", "run_to_end"):
        assert view.actions.buttons[action].disabled, action
    assert not view.actions.buttons["reset"].disabled
    caption = text(view.caption.text.object)
    assert "limit of this toy" in caption and "no end-of-sequence token" in caption


def test_an_error_notice_is_shown_as_plain_text(view, monkeypatch):
    def broken(self):
        raise ZeroDivisionError("<b>boom</b>")

    monkeypatch.setattr(core.Session, "draft", broken)
    assert not view.caption.notice_pane.visible
    click(view.actions.buttons["draft"])
    assert view.caption.notice_pane.visible
    shown = view.caption.notice_pane.object
    assert "Something went wrong" in shown and "boom" not in shown and "Traceback" not in shown


# ---- the token strip ------------------------------------------------------------------------

def test_biased_seed_1_first_block_shows_rejection_correction_and_discarded_chips():
    view = biased_view()
    click(view.actions.buttons["draft"])
    assert chip_labels(view) == ["proposed"] * 3
    click(view.actions.buttons["verify"])
    labels = chip_labels(view)
    assert labels == ["✓ accepted", "✗ rejected", "correction", "discarded"]
    assert "discarded" in text(view.strip.note.object) and "rejected" in text(view.strip.note.object)
    # The correction sits right after the rejected chip, joined by an arrow.
    assert [b.text[0] for b in chip_buttons(view)] == [t for t, *_ in chips(view.model.session.pending)]
    assert view.strip.chips.object.count("→") == 1 and "+" not in view.strip.chips.object


def test_a_chip_is_styled_by_its_classes_and_the_selected_one_is_marked():
    view = biased_view()
    click(view.actions.buttons["draft"])
    click(view.actions.buttons["verify"])
    placed = chip_buttons(view)
    rejected, correction = placed[1:3]
    assert {"chip-button", "tok-A", "rejected", "selected"} <= rejected.classes and rejected.current
    assert {"correction", "selected"} <= correction.classes and correction.key == rejected.key == "0:1"
    assert [b for b in placed if b.current] == [rejected, correction]
    assert all(b.title == "Open this position in the inspector" for b in placed)


def test_clicking_a_chip_opens_its_position_in_the_inspector():
    view = biased_view()
    click(view.actions.buttons["draft"])
    view.opener.click(chip_buttons(view)[1].key)
    assert view.model.focus == (0, 1)
    assert "position 2" in text(view.inspector.body.object)


def test_a_key_that_names_no_position_of_the_trace_opens_nothing():
    """Only our own HTML writes keys, but a stale or odd one (a block not drafted yet) changes nothing."""
    view = biased_view()
    click(view.actions.buttons["draft"])
    before = view.model.focus
    for key in ("9:1", "0:7", "0:bonus", "x", "", "0:1:2", "<b>"):
        view.opener.click(key)
        assert view.model.focus == before, key
    assert view.model.notice == "" and view.model.error_trace == ""
    view.opener.click("0:2")
    assert view.model.focus == (0, 2)


def test_aligned_bonus_is_marked_and_opens_in_the_inspector(view):
    click(view.actions.buttons["draft"])
    click(view.actions.buttons["verify"])
    assert chip_labels(view)[-1] == "★ bonus"
    assert view.model.focus == (0, "bonus")
    bonus = view.model.session.pending.bonus
    body = text(view.inspector.body.object)
    assert f"bonus token {bonus.token}" in body and core.display.dec(bonus.u, 4) in body


# ---- the inspector ------------------------------------------------------------------------------

def test_inspector_shows_the_empty_prefix_numbers_of_the_biased_draft():
    view = biased_view()
    click(view.actions.buttons["draft"])
    click(view.actions.buttons["verify"])
    view.model.inspect((0, 0))
    body = text(view.inspector.body.object)
    assert "draft q the draft's probabilities 0.80 0.15 0.05" in body
    assert "target p the target's probabilities 0.50 0.30 0.20" in body
    assert "0.00 0.50 0.50" in body
    assert "nothing: this is the start of the text" in body
    assert "min(p, q) chance the draft proposes the token here and the target keeps it" in body


def test_inspector_on_a_rejection_shows_ratio_acceptance_draw_decision_residual_and_replacement():
    view = biased_view()
    click(view.actions.buttons["draft"])
    click(view.actions.buttons["verify"])
    block = view.model.session.pending
    r = next(p for p in block.proposals if p.status == "rejected")
    body = text(view.inspector.body.object)
    dec, exact = core.display.dec, core.display.exact_or_dec
    assert f"p(x) / q(x) {exact(r.ratio)}" in body
    assert f"min(1, p(x)/q(x)) {exact(r.accept_probability)} once {r.token} is proposed here" in body
    assert f"draw u {dec(r.u, 4)}" in body
    assert f"rejection chance of this position {dec(block.correction.rejection)}" in body
    assert f"[{core.display.row(block.correction.residual)}]" in body
    assert f"draw for the correction {dec(block.correction.u, 4)}" in body
    assert f"replacement {block.correction.token} drawn from the residual" in body
    assert {"residual", "stack"} <= set(view.inspector.charts.shown)


def values(chart, under=None):
    return [bar.solid + bar.hatched for bar in chart.bars if under is None or bar.under == under]


def test_charts_plot_the_records_numbers():
    view = biased_view()
    click(view.actions.buttons["draft"])
    click(view.actions.buttons["verify"])
    view.model.inspect((0, 0))
    charts = view.inspector.charts
    pq, residual, stack = (charts.shown[key] for key in ("pq", "residual", "stack"))
    assert values(pq, "q") == [0.8, 0.15, 0.05]
    assert values(pq, "p") == [0.5, 0.3, 0.2]
    assert [b.label for b in pq.bars if b.under == "p"] == ["0.50", "0.30", "0.20"], "labels are core.display's"
    assert values(residual) == [0.0, 0.5, 0.5]
    d = view.model.inspected().decomposition
    assert [b.solid for b in stack.bars] == [float(x) for x in d.accepted]
    assert [b.hatched for b in stack.bars] == [float(x) for x in d.corrected]
    assert [b.label for b in stack.bars] == ["p = 0.50", "p = 0.30", "p = 0.20"], "accepted mass plus corrections reaches p"
    shown = charts.pane.object
    for chart in (pq, residual, stack):
        assert chart.x_name and chart.y_name
        assert f'<p class="chart-title">{chart.title}</p>' in shown, "each chart's title is text above it"
        # A screen reader reads each chart as one image named by every bar.
        assert all(bar.name in shown for bar in chart.bars)


def test_a_bars_height_is_its_probability_on_the_axis_and_a_hidden_chart_is_not_in_the_text():
    from app.step import bars
    chart = bars.Chart("x", "T", (bars.Bar("A", 0.54, "0.54", "q(A) = 0.54"), bars.Bar("B", 0.0, "0", "q(B) = 0")),
                       "next token", "probability")
    html = bars.chart_html(chart)
    assert 'style="height:50%"' in html, "0.54 of an axis that runs to 1.08"
    assert 'style="height:0%"' in html
    assert 'role="img" aria-label="T: q(A) = 0.54; q(B) = 0"' in html
    view = biased_view()
    assert set(view.inspector.charts.shown) == {"pq", "residual", "stack"}
    view = StepView(model=StepModel(draft="aligned", width=3, seed=1))  # q = p: every guess is kept, then a bonus
    click(view.actions.buttons["draft"])
    click(view.actions.buttons["verify"])
    view.model.inspect((0, "bonus"))
    assert view.model.inspected().bonus is not None
    assert set(view.inspector.charts.shown) == {"pq"}
    assert view.inspector.charts.pane.object.count("bars-chart") == 1, "charts not shown are left out of the text"


def test_before_verify_the_chart_shows_only_the_drafts_q_and_a_bonus_only_the_targets_p(view):
    charts = view.inspector.charts
    click(view.actions.buttons["draft"])
    assert {bar.under for bar in charts.shown["pq"].bars} == {"q"}
    assert "p comes with Verify" in charts.shown["pq"].title
    click(view.actions.buttons["verify"])
    assert {bar.under for bar in charts.shown["pq"].bars} == {"p"}
    assert values(charts.shown["pq"]) == [float(x) for x in view.model.session.pending.bonus.p]


def test_the_picker_says_there_is_nothing_to_inspect_before_draft(view):
    assert view.inspector.picker.value == "Nothing to inspect yet" and view.inspector.picker.disabled
    click(view.actions.buttons["draft"])
    view.model.inspect(None)
    assert view.inspector.picker.value == "Pick a position" and not view.inspector.picker.disabled


def test_picking_a_position_from_the_list_opens_it():
    view = biased_view()
    click(view.actions.buttons["draft"])
    picker = view.inspector.picker
    assert len([v for v in picker.options.values() if isinstance(v, tuple)]) == 3
    picker.value = (0, 2)
    assert view.model.focus == (0, 2)
    assert "position 3" in text(view.inspector.body.object)


def test_the_charts_do_not_import_bokeh_plotting():
    import subprocess
    import sys
    code = "import sys; import app.step.views; print('bokeh.plotting' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ---- scenario controls -----------------------------------------------------------------------------

def test_scenario_widgets_come_from_the_models_parameters(view):
    s, m = view.scenario, view.model
    assert s.width.name == "Tokens per block" and s.width.value == 3
    assert list(s.draft.options.values()) == list(core.ALL_DRAFTS)
    s.draft.value = "biased"
    s.width.value = 5
    assert m.session.config == core.Config("biased", 5, 0)
    assert "set the width to 5" in m.happened
    m.seed = 4
    assert s.seed.value == 4, "a model change shows in the widget"
    assert "changed the seed to 4, so the trace started over" in text(view.caption.text.object)


def test_seed_minus_and_plus_walk_through_seeds(view):
    s = view.scenario
    assert s.seed_down.disabled, "there is no seed below 0"
    click(s.seed_up)
    click(s.seed_up)
    assert view.model.seed == 2 and s.seed.value == 2 and not s.seed_down.disabled
    click(s.seed_down)
    assert view.model.seed == 1


def test_the_lookahead_toggle_restarts_the_trace_and_the_counters_show_early_stops(view):
    s, m = view.scenario, view.model
    s.draft.value = "biased"
    s.width.value = 6
    assert s.threshold.disabled
    click(view.actions.buttons["run_to_end"])
    assert "early stops" not in view.counters.html.object
    s.lookahead_on.value = True
    assert not s.threshold.disabled
    assert m.lookahead == "0.50" and m.session.blocks == () and "dynamic lookahead" in m.happened
    click(view.actions.buttons["run_to_end"])
    assert m.session.counters.early_stops > 0
    assert "early stops" in view.counters.html.object
    assert "lookahead=0.50" in urlstate.write(m.scenario(), m.hidden)


def test_history_has_one_line_per_finished_block_and_a_click_opens_it(view):
    click(view.actions.buttons["run_to_end"])
    lines = html_buttons(view.history.lines.object)
    assert len(lines) == len(view.model.session.blocks)
    assert lines[0].text.startswith("Block 1: drafted")
    view.opener.click(lines[0].key)
    assert view.model.focus[0] == 0
    lines = html_buttons(view.history.lines.object)
    assert "selected" in lines[0].classes and lines[0].current and "selected" not in lines[1].classes
    click(view.actions.buttons["reset"])
    assert html_buttons(view.history.lines.object) == [] and "empty-note" in view.history.lines.object


def test_name_hide_hides_those_parts(view):
    view.model.open_link(urlstate.read("?draft=biased&draft_hide=1&reset_hide=true&embed_hide=1"))
    assert view.model.draft == "biased"
    assert not view.scenario._draft_box.visible and view.scenario._seed_box.visible
    assert not view.actions.buttons["reset"].visible
    assert not view.embed._layout.visible and view.counters._layout.visible


def test_embed_code_is_an_iframe_for_the_scenario_on_screen(view):
    assert view.embed.area is None  # nothing of the form is made before a teacher opens it
    view.embed.base = "http://127.0.0.1:5006/main"
    view.embed.open()
    view.scenario.draft.value = "biased"
    click(view.actions.buttons["draft"])
    assert view.embed.area.value.startswith(
        '<iframe src="http://127.0.0.1:5006/main?draft=biased&width=3&seed=0&steps=1"')


# ---- one click, one update ---------------------------------------------------------------------------

class Page:
    """The view rendered into a Bokeh document the way the Pyodide worker holds it (same thread, linked)."""

    def __init__(self, view):
        self.view = view
        self.doc = Document()
        state._connected[self.doc] = True
        with set_curdoc(self.doc):
            state._thread_id = threading.get_ident()
            pn.panel(view).server_doc(self.doc)
        self.events = []
        self.doc.on_change(self.events.append)

    def click(self, action):
        self.events.clear()
        with set_curdoc(self.doc):
            click(self.view.actions.buttons[action])
        return list(self.events)

    def model_ids(self):
        return {m.id for m in self.doc.models}


def changed(events):
    return Counter((getattr(e, "model", None).id, getattr(e, "attr", None)) for e in events
                   if getattr(e, "model", None) is not None)


def test_a_click_changes_each_property_at_most_once_and_nothing_unchanged():
    page = Page(biased_view())
    for _ in range(9):
        events = page.click("step")
        assert events, "a click changes the page"
        assert max(changed(events).values()) == 1, "no property is sent twice in one click"
        kinds = {type(e).__name__ for e in events}
        assert kinds <= {"ModelChangedEvent", "ColumnDataChangedEvent"}, kinds


def test_inspecting_the_same_position_again_sends_nothing():
    page = Page(biased_view())
    page.click("draft")
    page.events.clear()
    with set_curdoc(page.doc):
        page.view.model.inspect(page.view.model.focus)
    assert page.events == []


def test_clicking_never_adds_bokeh_models():
    page = Page(biased_view())
    before = page.model_ids()
    for _ in range(20):
        action = "reset" if page.view.model.session.phase == "done" else "step"
        page.click(action)
    page.click("run_to_end")
    page.click("reset")
    assert page.model_ids() == before


@pytest.mark.parametrize("draft", ["aligned", "biased"])
def test_clicks_change_no_css_class_and_show_or_hide_only_the_inspectors_charts(draft):
    """In the page, BokehJS lays the whole page out again when a class or a visibility changes (~60 ms):
    the charts are one HTML pane, so only that whole pane is ever shown or hidden (before a block is drafted)."""
    page = Page(StepView(model=StepModel(draft=draft, width=3, seed=1)))
    charts = {model.id for model, _ in page.view.inspector._charts._models.values()}
    seen = Counter()
    for _ in range(16):
        action = "reset" if page.view.model.session.phase == "done" else "step"
        attrs = changed(page.click(action))
        seen.update(attr for _, attr in attrs)
        assert not [attr for _, attr in attrs if attr == "css_classes"]
        assert {model for model, attr in attrs if attr == "visible"} <= charts
    assert seen["text"] > 0 and seen["disabled"] > 0, seen  # the test saw the clicks change the page


def test_a_next_step_click_touches_only_a_few_models():
    page = Page(biased_view())
    counts = [len({m for m, _ in changed(page.click("step"))}) for _ in range(6)]
    assert max(counts) <= 23, counts  # 20, and since issue 26 the two lanes' text, the timeline's pane and Step back's button


# ---- the page: URL and tabs ------------------------------------------------------------------------------

def test_link_url_reads_on_load_and_writes_the_address_on_scenario_changes():
    from panel.io.location import Location
    location = Location(search="?draft=biased&width=3&seed=1&utm_source=notes")
    m = StepModel()
    writer = main.link_url(m, location)
    assert (m.draft, m.width, m.seed) == ("biased", 3, 1)
    m.seed = 2
    assert writer.value == "?draft=biased&width=3&seed=2&utm_source=notes", "keys not ours are kept"
    m.act("draft")
    # The moment on screen is in the address (issue 26): a link copied now opens on it.
    assert writer.value == "?draft=biased&width=3&seed=2&steps=1&utm_source=notes"
    m.act("back")
    assert writer.value == "?draft=biased&width=3&seed=2&utm_source=notes"
    assert location.search == "?draft=biased&width=3&seed=1&utm_source=notes", "Panel's location is never written"
    assert "replaceState" in main.REPLACE_URL_JS and "pushState" not in main.REPLACE_URL_JS
    assert writer.visible is False


def test_link_url_applies_a_query_that_arrives_after_the_first_render():
    """In the Pyodide worker the browser's location can reach Python only after rendering."""
    from panel.io.location import Location
    location = Location()
    m = StepModel()
    main.link_url(m, location)
    location.search = "?draft=biased&width=2&seed=9&width_hide=1"
    assert (m.draft, m.width, m.seed) == ("biased", 2, 9)
    assert m.hidden == {"width"}


def test_link_url_leaves_the_trace_alone_when_the_query_is_not_ours():
    from panel.io.location import Location
    m = StepModel()
    m.act("draft")
    before = m.session
    location = Location(search="?tab=exact")
    main.link_url(m, location)
    location.search = "?tab=payoff"
    assert m.session is before and not m.notice


def test_link_url_shows_a_notice_for_a_bad_value():
    from panel.io.location import Location
    m = StepModel()
    main.link_url(m, Location(search="?width=12"))
    assert m.width == 3 and "The link's width is not valid" in m.notice


def test_other_tabs_are_built_only_when_first_opened(monkeypatch):
    built = []

    def factory(name):
        def make(model):
            built.append(name)
            return pn.pane.Markdown(f"{name} for seed {model.seed}")
        return make

    monkeypatch.setattr(main, "TABS", (main.TABS[0], ("Two", factory("two")), ("Three", factory("three"))))
    page = main.build_page()
    doc = Document()
    with set_curdoc(doc):
        page.server_doc(doc)
    assert built == [], "nothing of the other tabs is built for the first render"
    tabs = next(obj for obj in page.select(pn.Tabs))
    with set_curdoc(doc):
        tabs.active = 2
    assert built == ["three"]
    assert "three for seed 0" in str(tabs[2].objects[0].object), "the placeholder gave way to the tab"
    with set_curdoc(doc):
        tabs.active = 0
        tabs.active = 2
    assert built == ["three"], "built once"


def test_stylesheets_are_read_from_css_files_without_comments():
    assert theme.BASE and "/*" not in theme.BASE and "\n" not in theme.BASE
    assert ".muted{color:var(--sp-muted,#4b5563);}" in theme.BASE  # light value, dark palette in page.css


def test_stylesheets_live_in_css_files_and_name_the_same_token_colours():
    sheet = (theme.STYLES / "chips.css").read_text()
    for token, (fill, on_fill, tint, ink) in theme.TOKEN_COLOURS.items():
        t = token.lower()
        rule = (f"--fill: var(--sp-tok-{t}, {fill}); --on-fill: var(--sp-tok-{t}-on, {on_fill}); "
                f"--tint: var(--sp-tok-{t}-tint, {tint}); --ink: var(--sp-tok-{t}-ink, {ink});")
        assert sheet.count(rule) == 1, token


def test_text_colours_meet_wcag_aa_contrast():
    pairs = [(theme.INK, "#ffffff"), (theme.INK, theme.PAGE), (theme.MUTED, "#ffffff"), (theme.MUTED, "#f7f9fb"),
             ("#ffffff", theme.ACCENT), (theme.REJECT, "#fdecea"), (theme.ACCEPT, "#e6f4ea")]
    for fill, on_fill, tint, ink in theme.TOKEN_COLOURS.values():
        pairs += [(on_fill, fill), (ink, tint), (ink, "#ffffff")]
    for text_colour, background in pairs:
        assert contrast(text_colour, background) >= 4.5, (text_colour, background)


def test_each_token_has_its_own_colour_and_its_letter_on_every_chip():
    assert len({theme.fill(t) for t in core.TOKENS}) == 3
    for token in core.TOKENS:
        assert f">{token}</span>" in theme.chip(token)
