"""The views of "Several guesses at once"; each renders from one ``GuessesModel``.

Same shape as ``app/step/views.py``: widgets from the model's parameters
(``from_param``), panes bound to the model (``pn.bind``) with sentences from
``words``, the tree a Bokeh plot refilled in place (``TreeChart``). Reading
order: intro, controls, caption, actions, tree and legend, inspector, counters.
"""

import panel as pn
import param

import core
from core.display import dec, exact_or_dec
from core.tree import TREE_DRAFTS

from .. import theme, urlstate
from ..i18n import t
from ..parts import ActionButtons, draft_objects, draft_options, field, hold, html, lock_line, slider_title
from . import words
from .model import ACTIONS, BACK, GuessesModel
from .tree_chart import LOOK, TreeChart

TOKENS = ("A", "B", "C")


def stylesheet():
    return theme.stylesheet("guesses")


def pane(text, **params):
    return html(text, theme.CHIPS, theme.CAPTION, theme.INSPECTOR, theme.COUNTERS, stylesheet(), **params)


def card(*objects, **params):
    params.setdefault("margin", (6, 0))
    return pn.Column(*objects, sizing_mode="stretch_width", stylesheets=[theme.CARD], **params)


def tree_options():
    """The drafts a tree can be drawn with (``core.tree.TREE_DRAFTS``, read now), labelled as every tab labels them."""
    return draft_options({label: draft for label, draft in draft_objects().items() if draft in TREE_DRAFTS})


def draft_help():
    """The draft field's help: what each offered draft does, and why the other drafts are not offered."""
    names = [t(f"draft.{d}") for d in core.ALL_DRAFTS if d not in TREE_DRAFTS]
    text = t("guesses.help.draft")
    if "custom" in TREE_DRAFTS:  # a teacher's own q (issue 29) is a table draft, so it is offered here
        text += t("step.space") + t("guesses.help.draft.custom")
    if names:
        drafts = names[0] if len(names) == 1 else t("guesses.help.and", rest=t("url.sep").join(names[:-1]),
                                                     last=names[-1])
        text += t("step.space") + t("guesses.help.no_tree", drafts=drafts)
    return text


class Controls(pn.viewable.Viewer):
    """Draft, candidates per position, depth and seed: the settings that fix a trace."""

    model = param.ClassSelector(class_=GuessesModel)

    def __init__(self, **params):
        super().__init__(**params)
        m = self.model
        self.draft_help = draft_help()
        self.draft = pn.widgets.RadioButtonGroup.from_param(
            m.param.draft, options=tree_options(), name="", description=None, color="primary", variant="outline",
            stylesheets=[theme.BUTTON], margin=(4, 5), sizing_mode="stretch_width", max_width=420)  # shrinks to its field
        self.candidates = pn.widgets.IntSlider.from_param(m.param.candidates, name=slider_title("guesses.field.candidates"),
                                                          sizing_mode="stretch_width",
                                                          min_width=140, margin=(4, 10))
        self.width = pn.widgets.IntSlider.from_param(m.param.width, name=slider_title("guesses.field.width"),
                                                     sizing_mode="stretch_width", min_width=140,
                                                     margin=(4, 10))
        # Named for screen readers like the first tab's seed box (its label takes no room; the arrow keys step it).
        self.seed = pn.widgets.IntInput.from_param(m.param.seed, name=t("step.field.seed"), description=None,
                                                   width=130, margin=(4, 5), css_classes=["sp-seed-input"],
                                                   stylesheets=[theme.SEED_INPUT])
        self.lock_line = lock_line(m.locked)
        self._layout = pn.FlexBox(
            self.lock_line,
            field(t("step.field.draft"), self.draft_help, self.draft, basis="340px"),
            field(t("guesses.field.candidates"), t("guesses.help.candidates"), self.candidates),
            field(t("guesses.field.width"), t("guesses.help.width"), self.width),
            field(t("step.field.seed"), t("guesses.help.seed"), self.seed, basis="160px"),
            gap="12px 24px", flex_wrap="wrap", sizing_mode="stretch_width", stylesheets=[theme.CARD], margin=(6, 0))
        self._enable()

    def controls(self):
        """Every widget that changes the scenario (the stepping buttons walk it: they stay free)."""
        return (self.draft, self.candidates, self.width, self.seed)

    @param.depends("model.locked", watch=True)
    def _enable(self):
        """Under a link's lock=1, as the step tab's scenario (``parts.hold``)."""
        hold(self.controls(), self.lock_line, self.model.locked)

    def __panel__(self):
        return self._layout


def caption_html(session, happened, notice):
    pills = []
    if session.phase == "done":
        pills.append(f'<span class="phase done">{theme.esc(t("step.phases.finished"))}</span>')
    else:
        reached = words.PHASES.index(session.phase)
        for i, name in enumerate(words.PHASES):
            status = "now" if i == reached else ("done" if i < reached else "")
            aria = ' aria-current="step"' if i == reached else ""
            pills.append(f'<span class="phase {status}"{aria}>{"✓ " if i < reached else ""}{i + 1}. '
                         f'{theme.esc(t(f"step.label.{name}"))}</span>')
    out = (f'<div class="phases">{"".join(pills)}</div><div class="caption" role="status" aria-live="polite">'
           f'<div class="happened">{theme.esc(happened)}</div>'
           f'<div class="next">{theme.esc(words.next_words(session.phase))}</div></div>')
    if notice:
        out += f'<div class="notice" role="alert">{theme.esc(notice)}</div>'
    return out


class Actions(pn.viewable.Viewer):
    """Draft, Verify, Commit, the two shortcuts and Reset; the next phase highlighted."""

    model = param.ClassSelector(class_=GuessesModel)

    def __init__(self, **params):
        super().__init__(**params)
        m = self.model
        # Step back before Next step, as in the first tab (the model's BACK: a moment of core.timeline).
        order = ACTIONS[:ACTIONS.index("step")] + (BACK,) + ACTIONS[ACTIONS.index("step"):]
        self.buttons = {
            action: pn.widgets.Button(
                label=t(f"step.label.{action}"), description=t(f"guesses.tooltip.{action}"), stylesheets=[theme.BUTTON],
                margin=(4, 20, 4, 4) if action in ("commit", "run_block") else (4, 4))
            for action in order}
        self.actions = ActionButtons(m, self.buttons, lambda a: (m.can(a), m.session.phase == a))
        self._layout = pn.FlexBox(*self.buttons.values(), flex_wrap="wrap", align_items="center",
                                  sizing_mode="stretch_width", margin=(4, 0))

    def __panel__(self):
        return self._layout


def legend_html():
    shapes = {"square": '<rect x="3" y="3" width="14" height="14"', "circle": '<circle cx="10" cy="10" r="8"',
              "diamond": '<polygon points="10,1 19,10 10,19 1,10"',
              "hex": '<polygon points="5,2 15,2 19,10 15,18 5,18 1,10"'}
    items = []
    for status, (mark, name, meaning) in words.STATUS.items():
        marker, fill, line, _ = LOOK[status]
        svg = (f'<svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true">{shapes[marker]} '
               f'fill="{fill}" stroke="{line}" stroke-width="2"/></svg>')
        items.append(f'<li>{svg}<span><b class="mark">{mark}</b> <b>{theme.esc(name)}</b>: {theme.esc(meaning)}</span></li>')
    return f'<ul class="tree-legend" aria-label="{theme.esc(t("guesses.legend.aria"))}">{"".join(items)}</ul>'


def output_html(session):
    chips = ("".join(theme.chip(token, "sm") for token in session.output)
             or f'<span class="muted">{theme.esc(t("guesses.output.empty"))}</span>')
    return (f'<div class="output-line"><b>{theme.esc(t("step.output.title"))}</b> <span class="muted">'
            f'{theme.esc(t("guesses.output.count", n=len(session.output), max=session.config.max_tokens))}</span> '
            f'{chips}</div>')


class Tree(pn.viewable.Viewer):
    """The tree in view, drawn; the picker for the inspector; the legend."""

    model = param.ClassSelector(class_=GuessesModel)

    def __init__(self, **params):
        super().__init__(**params)
        m = self.model
        self.chart = TreeChart(on_pick=m.select)
        self.title = pane(pn.bind(self._title, m.param.session))
        self.picker = pn.widgets.Select(label=t("guesses.picker.label"), options=self._options(), value=m.selected,
                                        sizing_mode="stretch_width", max_width=520, margin=(4, 0))
        self.picker.param.watch(self._picked, "value")
        self.legend = pane(legend_html(), margin=(6, 0, 0, 0))
        self._layout = card(self.title, self.chart.pane, self.picker, self.legend)
        self._draw()

    def _title(self, session):
        block = self.model.block_in_view()
        state = t("guesses.no_tree") if block is None else words.block_state(block, block is session.pending)
        return (f'<div class="section-title"><h2>{theme.esc(t("guesses.tree.title"))}</h2>'
                f'<span class="muted">{theme.esc(state)}</span></div>' + output_html(session))

    def _options(self):
        block = self.model.block_in_view()
        options = {t("step.picker.nothing") if block is None else t("guesses.picker.pick"): -1}
        if block is not None:
            options.update({words.node_label(n): n.id for n in block.nodes})
        return options

    def _picked(self, event):
        if event.new is not None and event.new >= 0 and event.new != self.model.selected:
            self.model.select(event.new)

    @param.depends("model.session", "model.selected", watch=True)
    def _draw(self):
        m = self.model
        self.chart.update(m.block_in_view(), m.session.output, m.selected, m.session.config.width)
        options = self._options()
        value = m.selected if m.selected is not None else -1
        if self.picker.options != options or self.picker.value != value:
            self.picker.param.update(options=options, value=value)

    def __panel__(self):
        return self._layout


def _row_cells(values, picked):
    return "".join(f'<td class="mono{" picked" if token == picked else ""}">{dec(v)}</td>' if v is not None
                   else '<td class="muted">—</td>' for token, v in zip(TOKENS, values))


def inspector_html(inspected, rule):
    if inspected is None:
        return (f'<div class="section-title"><h2>{theme.esc(t("step.inspector.title"))}</h2></div>'
                f'<p class="muted">{theme.esc(words.NO_NODE)}</p>')
    node, siblings = inspected.node, inspected.siblings
    mark, name, _ = words.STATUS[node.status]
    head = "".join(f'<th scope="col">{theme.chip(token, "sm")}</th>' for token in TOKENS)
    rows = [(t("guesses.row.q"), node.q)]
    if node.p is not None:
        rows.append((t("guesses.row.p"), node.p))
    if node.residual is not None:
        rows.append((t("guesses.row.r"), node.residual))
    if inspected.correction is not None:
        rows.append((t("guesses.row.last"), inspected.correction.residual))
    body = "".join(f'<tr><th scope="row">{theme.esc(label)}</th>{_row_cells(values, node.token)}</tr>'
                   for label, values in rows)
    tests = "".join(
        f'<li class="{"this" if s.id == node.id else ""} {s.status}"><span class="mark">{words.STATUS[s.status][0]}</span> '
        f'{theme.esc(words.test_words(s))}</li>' for s in siblings)
    out = (f'<div class="section-title"><h2>{theme.esc(t("guesses.inspector.node", id=node.id + 1))}</h2>'
           f'<span class="verdict {node.status}">{mark} {theme.esc(name)}</span></div>'
           f'<p>{theme.esc(words.position_words(node, siblings))}</p>'
           f'<table class="rows"><thead><tr><th scope="col">{theme.esc(t("guesses.row"))}</th>{head}</tr></thead>'
           f'<tbody>{body}</tbody></table>'
           f'<h3>{theme.esc(t("guesses.inspector.order"))}</h3><ol class="tests">{tests}</ol>')
    if inspected.correction is not None:
        c = inspected.correction
        out += f'<p>{theme.esc(words.correction_words(c))}</p>'
    if any(s.tested for s in siblings):
        out += f'<p class="muted small">{theme.esc(words.residual_note(rule))}</p>'
    return out


def counters_html(session):
    n = session.counters
    cells = "".join(f'<div class="counter" title="{theme.esc(tip)}"><div class="n">{getattr(n, key)}</div>'
                    f'<div class="what">{theme.esc(label)}</div></div>' for key, label, tip in words.COUNTER_NAMES)
    return (f'<div class="section-title"><h2>{theme.esc(t("guesses.counters.title"))}</h2>'
            f'<span class="muted">{theme.esc(t("guesses.counters.lead"))}</span></div>'
            f'<div class="counters tree">{cells}</div><p>{theme.esc(words.per_pass(n))}</p>')


class GuessesTab(pn.viewable.Viewer):
    """The "Several guesses at once" tab. ``GuessesTab(session_model=...)`` ignores the first tab's model:
    its scenario (several candidates) is its own."""

    model = param.ClassSelector(class_=GuessesModel)

    def __init__(self, session_model=None, **params):
        if params.get("model") is None:
            params["model"] = GuessesModel()
        super().__init__(**params)
        m = self.model
        self._link(session_model)
        self.controls = Controls(model=m)
        self.caption = pane(pn.bind(caption_html, m.param.session, m.param.happened, m.param.notice),
                            margin=(6, 0))
        self.actions = Actions(model=m)
        self.tree = Tree(model=m)
        self.inspector = pane(pn.bind(lambda s, sel: inspector_html(m.inspected(), s.rule), m.param.session,
                                      m.param.selected))
        self.counters = pane(pn.bind(counters_html, m.param.session))
        intro = pane(f'<div class="section-title"><h2>{theme.esc(words.TITLE)}</h2></div>'
                     f'<p>{theme.esc(words.INTRO)}</p><p class="muted small">{theme.esc(words.SAME_AS_ONE)}</p>',
                     margin=(8, 0, 4, 0))
        self._layout = pn.Column(
            intro, self.controls, card(self.caption, self.actions), self.tree, card(self.inspector),
            card(self.counters), sizing_mode="stretch_width", margin=(4, 0), css_classes=["guesses-tab"])

    def _link(self, page_model):
        """The tab's scenario and moment in the page's URL (``gdraft``, ``gk``, ``gwidth``, ``gseed``, ``gsteps``):
        read from the link when the tab is built, then handed to the page's model, whose URL writer
        (``app/main.link_url``) writes them with the rest."""
        if page_model is not None and "session" in page_model.param:
            # The page's tables (a link's target= and q=): the tree is drawn and verified on them too.
            follow = lambda *events: setattr(self.model, "tables", page_model.session.config.tables)  # noqa: E731
            follow()
            page_model.param.watch(follow, "session")
        if page_model is not None and "locked" in page_model.param:
            # The page's lock=1, read (and re-read when the location reaches the worker late) by
            # app/main.link_url into the page's model: this tab's scenario is the author's too.
            self.model.locked = page_model.locked
            page_model.param.watch(lambda event: setattr(self.model, "locked", event.new), "locked")
        location = pn.state.location
        url = urlstate.read_guesses(location.search if location is not None else "")
        if url.given:
            self.model.open_link(url)
        if page_model is not None and "guesses" in page_model.param:
            publish = lambda *events: setattr(page_model, "guesses", self.model.link_values())  # noqa: E731
            self.model.param.watch(publish, "session")
            publish()

    def __panel__(self):
        return self._layout
