"""The table editor (issue 29): a teacher's own target p and draft q, typed into two 4×3 grids.

One part used twice: on the page behind "Your own numbers" (``OwnNumbers(on_page=True)``:
"Use these numbers" opens the scenario on them, exactly as a ``target=``/``q=`` link does)
and in the embed form (``on_page=False``: the code it writes carries the tables).

``TablesDraft`` is the model: the text of every box, and what ``core`` makes of it. Each row
is read by ``core.tables_text.parse_row`` (the link's and the CLI's checks and messages),
"Normalise" is ``core.tables_text.normalise_row`` (exact Fractions), and the preview is the
first block ``core`` runs on the tables. Nothing here adds up a probability.

The grids are built when first opened (``parts.Lazy``): a page that never opens them pays nothing.
"""

import dataclasses

import panel as pn
import param

import core
from core.display import exact_or_dec
from core.tables import AUTHORED, KEYS, Tables
from core.tables_text import MAX_ENTRY, TableTextError, entry_text, normalise_row, notes, parse_row, table_text
from toy_tables import TOKENS

from .. import theme, urlstate
from ..i18n import t
from ..parts import Lazy, html, one_update, update_changed
from . import tables_words as words

WHICH = words.WHICH


def cells_of(tables):
    """The boxes' text for ``tables``: ``{"target": 4 rows of 3 texts, "q": ...}``."""
    return {which: tuple(tuple(entry_text(x) for x in row) for row in getattr(tables, f"{which}_rows"))
            for which in WHICH}


class TablesDraft(param.Parameterized):
    """What the teacher has typed, row by row, and the ``core.Tables`` it makes when every row is valid."""

    base = param.ClassSelector(class_=Tables, default=AUTHORED, instantiate=False, doc="""
        The tables the grids were loaded from (the page's): a q that differs from base's means the custom draft.""")

    cells = param.Dict(default={}, doc="""The text of every box: which -> 4 rows (KEYS order) of 3 texts.""")

    errors = param.Dict(default={}, constant=True, doc="""
        (which, row index) -> the core.tables_text.TableTextError of that row; empty when all are valid.""")

    tables = param.ClassSelector(class_=Tables, allow_None=True, constant=True, doc="""
        The tables the boxes describe, or None while a row is not valid.""")

    def __init__(self, **params):
        super().__init__(**params)
        if not self.cells:
            self.cells = cells_of(self.base)
        self._check()

    def load(self, tables):
        """Show ``tables`` in the boxes (and take them as the base)."""
        self.param.update(base=tables, cells=cells_of(tables))

    def set_cell(self, which, i, j, text):
        rows = [list(row) for row in self.cells[which]]
        if rows[i][j] == text:
            return
        rows[i][j] = text
        self.cells = dict(self.cells, **{which: tuple(tuple(row) for row in rows)})

    def normalise(self, which, i):
        """Row ``i`` of ``which`` divided by its sum (core's exact Fractions); a row that cannot be
        normalised (a negative entry, not a number, all zeros) keeps its text and its message says why."""
        try:
            row = normalise_row(which, KEYS[i], self.cells[which][i])
        except TableTextError as error:
            with param.edit_constant(self):
                self.errors = dict(self.errors, **{_key(which, i): error})
            return
        rows = list(self.cells[which])
        rows[i] = tuple(entry_text(x) for x in row)
        self.cells = dict(self.cells, **{which: tuple(rows)})

    def reset(self):
        """Every box back to the authored rows (the target's, and the biased draft's for q)."""
        self.cells = cells_of(AUTHORED)

    def draft_for(self, draft):
        """The draft a scenario on these tables uses: the custom one once q differs from the base's."""
        if self.tables is not None and self.tables.q_rows != self.base.q_rows:
            return "custom"
        return draft

    def message(self, which, i):
        error = self.errors.get(_key(which, i))
        return "" if error is None else words.problem(error)

    def row_notes(self, which, i):
        """Core's notes for a q row: a token the target can produce that this row never proposes."""
        if which != "q" or self.tables is None:
            return ()
        return tuple(n for n in notes(self.tables) if n.row == KEYS[i])

    @param.depends("cells", watch=True)
    def _check(self):
        errors, rows = {}, {}
        for which in WHICH:
            rows[which] = []
            for i, key in enumerate(KEYS):
                try:
                    rows[which].append(parse_row(which, key, self.cells[which][i]))
                except TableTextError as error:
                    errors[_key(which, i)] = error
        tables = None if errors else Tables(tuple(rows["target"]), tuple(rows["q"]))
        with param.edit_constant(self):
            self.param.update(errors=errors, tables=tables)


def _key(which, i):
    return f"{which}:{i}"


def first_block(config):
    """The first block ``core`` runs for ``config``, drafted and verified (the preview's record)."""
    return core.Session.start(config).draft().verify().pending


def preview_html(config):
    """The first block on the edited tables: each proposal's q(x), p(x), chance of being kept and outcome."""
    block = first_block(config)
    head = "".join(f"<th scope=\"col\">{theme.esc(t(f'tables.preview.{c}'))}</th>"
                   for c in ("position", "proposed", "q", "p", "chance", "outcome"))
    body = []
    for x in block.proposals:
        body.append(f"<tr><td>{x.index + 1}</td><td>{x.token}</td><td class=\"num\">{exact_or_dec(x.q_x)}</td>"
                    f"<td class=\"num\">{exact_or_dec(x.p_x)}</td>"
                    f"<td class=\"num\">{exact_or_dec(x.accept_probability)}</td>"
                    f"<td>{theme.esc(t(f'step.status.{x.status}'))}</td></tr>")
    if block.correction is not None:
        end = t("tables.preview.correction", token=block.correction.token)
    elif block.bonus is not None:
        end = t("tables.preview.bonus", token=block.bonus.token)
    else:
        end = ""
    title = t("tables.preview.title", draft=t(f"step.draft_name.{config.draft}"), width=block.width,
              seed=config.seed)
    writes = t("tables.preview.writes", tokens=" ".join(block.committed))
    return (f'<p class="preview-title">{theme.esc(title)}</p>'
            f'<table class="preview"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'
            f'<p class="muted small">{theme.esc(" ".join(filter(None, (end, writes))))}</p>')


class TablesEditor(pn.viewable.Viewer):
    """Two grids (target p, draft q) over a ``TablesDraft``, a reset, an optional "Use these numbers"
    and the first block's preview. ``config`` gives the scenario the tables go into (the page's)."""

    draft = param.ClassSelector(class_=TablesDraft)

    config = param.Callable(doc="No argument: the core.Config the edited tables replace the tables of.")

    apply = param.Callable(default=None, allow_None=True, doc="Called by \"Use these numbers\"; None: no such button.")

    def __init__(self, **params):
        super().__init__(**params)
        d = self.draft
        self.boxes, self.errors, grids = {}, {}, []
        for which in WHICH:
            lines = [html(f'<div class="table-title">{theme.esc(words.TITLE[which])}</div>'
                          f'<div class="grid-head" aria-hidden="true"><span class="row-name"></span>'
                          + "".join(f"<span>{tok}</span>" for tok in TOKENS) + "</div>",
                          theme.TABLES_EDITOR, margin=(0, 2))]
            for i, key in enumerate(KEYS):
                boxes = []
                for j, token in enumerate(TOKENS):
                    text = d.cells[which][i][j]
                    box = pn.widgets.TextInput(label=words.cell_name(which, key, token), value=text,
                                               value_input=text, width=54, margin=(2, 2),
                                               max_length=4 * MAX_ENTRY,  # a paste stays short; core says why
                                               stylesheets=[theme.TABLE_CELL])
                    box.param.watch(lambda event, w=which, i=i, j=j: self._typed(w, i, j, event.new), "value_input")
                    boxes.append(box)
                self.boxes[which, i] = boxes
                norm = pn.widgets.Button(label=words.NORMALISE, margin=(2, 2),
                                         stylesheets=[theme.BUTTON, theme.SMALL_BUTTON],
                                         css_classes=[words.css(which, i)])
                norm.on_click(lambda event, w=which, i=i: self._normalise(w, i))
                label = html(f'<div class="row-name">{theme.esc(words.row_name(key))}</div>', theme.TABLES_EDITOR,
                             sizing_mode=None, width=72, margin=(2, 2))
                self.errors[which, i] = html("", theme.TABLES_EDITOR, margin=(0, 2), visible=False)
                lines.append(pn.FlexBox(label, *boxes, norm, flex_wrap="wrap", align_items="center",
                                        sizing_mode="stretch_width", margin=0))
                lines.append(self.errors[which, i])
            grids.append(pn.Column(*lines, margin=0, styles={"flex": "1 1 300px", "min-width": "0"}))
        self.state = html("", theme.TABLES_EDITOR, margin=(4, 2))
        self.reset = pn.widgets.Button(label=words.RESET, margin=(4, 2), stylesheets=[theme.BUTTON])
        self.reset.on_click(lambda event: self._reset())
        buttons = [self.reset]
        if self.apply is not None:
            self.use = pn.widgets.Button(label=words.APPLY, color="primary", margin=(4, 2),
                                         stylesheets=[theme.BUTTON])
            self.use.on_click(lambda event: self._use())
            buttons.insert(0, self.use)
        self.preview = html("", theme.TABLES_EDITOR, margin=(4, 2))
        self._layout = pn.Column(
            pn.FlexBox(*grids, gap="4px 24px", flex_wrap="wrap", sizing_mode="stretch_width", margin=0),
            self.state, pn.FlexBox(*buttons, flex_wrap="wrap", margin=0), self.preview,
            sizing_mode="stretch_width", margin=0)
        d.param.watch(self._show_cells, "cells")
        d.param.watch(self._render, ["errors", "tables", "base"])
        self._render()

    def _typed(self, which, i, j, text):
        with one_update():
            self.draft.set_cell(which, i, j, text or "")

    def _normalise(self, which, i):
        with one_update():
            self.draft.normalise(which, i)

    def _reset(self):
        with one_update():
            self.draft.reset()

    def _use(self):
        if self.draft.tables is not None and self.apply is not None:
            self.apply(self.draft.tables)

    def _show_cells(self, *events):
        """Boxes whose text the model changed (normalise, reset, load) show it; the one being typed in is left."""
        for which in WHICH:
            for i in range(len(KEYS)):
                for j, box in enumerate(self.boxes[which, i]):
                    text = self.draft.cells[which][i][j]
                    if box.value_input != text:
                        box.param.update(value=text, value_input=text)

    def scenario_config(self):
        """The scenario on the edited tables (None while a row is not valid)."""
        d = self.draft
        if d.tables is None:
            return None
        config = self.config()
        return dataclasses.replace(config, tables=d.tables, draft=d.draft_for(config.draft))

    def _render(self, *events):
        d = self.draft
        for which in WHICH:
            for i in range(len(KEYS)):
                message = d.message(which, i)
                text = (f'<p class="row-error">{theme.esc(message)}</p>' if message else
                        "".join(f'<p class="row-note">{theme.esc(words.note(n))}</p>' for n in d.row_notes(which, i)))
                update_changed(self.errors[which, i], object=text, visible=bool(text))
        ok = d.tables is not None
        same = ok and self.apply is not None and d.tables == d.base  # nothing to use: the page runs on them
        state = (words.UNCHANGED if same else words.OK if ok else
                 words.INVALID if self.apply is not None else words.BUILDER_INVALID)
        update_changed(self.state, object=f'<p role="status" class="{"state-ok" if ok else "state-bad"}">'
                                          f'{theme.esc(state)}</p>')
        if self.apply is not None:
            update_changed(self.use, disabled=not ok or same)
        config = self.scenario_config()
        update_changed(self.preview, object=preview_html(config) if config is not None else "")

    def __panel__(self):
        return self._layout


class OwnNumbers(pn.viewable.Viewer):
    """"Your own numbers": a toggle that opens the editor (built then) over the page's ``StepModel``.

    ``on_page``: "Use these numbers" applies the tables to the page, as a link would; otherwise (the
    embed form) ``tables`` is what the grids hold, for the code, and nothing on the page changes."""

    model = param.Parameter(doc="The page's StepModel.")

    on_page = param.Boolean(default=True)

    tables = param.ClassSelector(class_=Tables, allow_None=True, doc="""
        The edited tables when the editor is open and every row is valid; else None.""")

    def __init__(self, **params):
        super().__init__(**params)
        # A disclosure, not a pressed state: page.js gives it aria-expanded and aria-controls (the sp-disclosed parts).
        self.toggle = pn.widgets.Toggle(label=words.TOGGLE if self.on_page else words.BUILDER_TOGGLE, margin=(4, 2),
                                        stylesheets=[theme.BUTTON], css_classes=["sp-disclosure"])
        self.draft = None
        self.editor = None
        self._lazy = Lazy(self._build)
        self._lazy.layout.visible = False
        self._lazy.layout.css_classes = ["sp-disclosed"]
        help_text = words.HELP if self.on_page else words.BUILDER_HELP
        self.help = html(f'<p class="muted small">{theme.esc(help_text)}</p>', margin=(0, 2), visible=False,
                         css_classes=["sp-disclosed"])
        self.toggle.param.watch(self._open, "value")
        self._layout = pn.Column(self.toggle, self.help, self._lazy.layout, sizing_mode="stretch_width", margin=0,
                                 css_classes=["sp-own-page" if self.on_page else "sp-own-embed"])

    def _open(self, event):
        with one_update():
            if event.new:
                self._lazy.open(now=True)
            self.help.visible = event.new
            self._lazy.layout.visible = event.new

    def _build(self):
        m = self.model
        self.draft = TablesDraft(base=m.session.config.tables)
        self.editor = TablesEditor(draft=self.draft, config=lambda: self.model.session.config,
                                   apply=self._apply if self.on_page else None)
        self.draft.param.watch(lambda event: setattr(self, "tables", event.new), "tables")
        m.param.watch(self._follow, "session")
        self.tables = self.draft.tables
        return self.editor

    def _follow(self, event):
        """The page's tables changed (a link, a preset, "Use these numbers"): the grids show them."""
        tables = event.new.config.tables
        if tables != self.draft.base:
            self.draft.load(tables)
        elif event.old is None or event.old.config != event.new.config:
            self.editor._render()  # another draft, width or seed: the preview follows

    def _apply(self, tables):
        """Open the page on ``tables``, exactly as a link with ``target=``/``q=`` opens it."""
        m = self.model
        draft = self.draft.draft_for(m.draft)
        values = dict(m.scenario(), draft=draft, steps=0, target=table_text(tables.target_rows),
                      q=table_text(tables.q_rows))
        url = urlstate.read(urlstate.write(values, m.hidden))
        m.open_link(url, happened=t("tables.applied", draft=t(f"step.draft_name.{draft}")))

    def __panel__(self):
        return self._layout
