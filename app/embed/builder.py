"""The embed builder: a small form that writes the code a teacher pastes into course notes.

It replaces the plain "Copy embed code" box. The code opens the scenario on screen
(``urlstate.write``), with the parts the teacher hides, a locked scenario, the first
tab and the tabs kept (``links``), a colour theme, a unique iframe title and an
optional caption, plus the few lines of script that size the frame (``snippet``).
Inside an iframe the title, the introduction and this form are hidden by default
(``app/page/page.js``, ``app/page/script.FRAME_HIDDEN``), so their boxes start ticked and cost
nothing in the link.
"""

from pathlib import Path
from urllib.parse import urlencode

import panel as pn
import param

from .. import theme, urlstate
from core.tables_text import compact_text

from ..i18n import link_value, t
from ..parts import Lazy, html, one_update, update_changed
from ..page import links
from ..page.script import FRAME_HIDDEN
from . import snippet, words
from .tables_editor import OwnNumbers

COPY_JS = (Path(__file__).resolve().parent / "copy.js").read_text(encoding="utf-8")
HIDDEN_IN_FRAMES = ("intro", "embed", "tables")  # hidden inside an iframe unless the link says NAME_hide=0


def query(scenario, parts, locked, start, shown, colours, names):
    """The embed's query string: the scenario, then the form's choices that differ from an embed's defaults."""
    text = urlstate.write(scenario, set(parts) - set(HIDDEN_IN_FRAMES))
    extra = [(f"{part}{urlstate.HIDE_SUFFIX}", "0") for part in HIDDEN_IN_FRAMES if part not in parts]
    extra += links.write(shown, start, locked, names)
    if colours != "auto":
        extra.append(("theme", colours))
    text += "&" + urlencode(extra) if extra else ""
    return "&".join(map(readable_table, text.split("&")))


def readable_table(pair):
    """A table's , ; and / as typed (legal in a query): ``target=.6,.3,.1;;1/3,1/3,1/3`` stays readable."""
    if pair.lstrip("?").startswith(("target=", "q=")):
        return pair.replace("%2C", ",").replace("%3B", ";").replace("%2F", "/")
    return pair


def embed_tables(model, own):
    """The scenario's tables for the code, in the link's compact form (only the rows that differ
    from the authored ones): the editor's when it holds valid tables, else the page's. Other
    tables than the page's start a trace of their own (steps 0), with the custom draft when q moved."""
    page = model.session.config.tables
    tables = own.tables if own.tables is not None else page
    values = {"target": compact_text(tables.target_rows, "target"), "q": compact_text(tables.q_rows, "q")}
    if tables != page:
        values.update(steps=0, draft=own.draft.draft_for(model.draft))
    return values


class EmbedBuilder(pn.viewable.Viewer):
    """The form, the code it writes, and a copy button that works inside an iframe too."""

    model = param.Parameter(doc="The page's StepModel.")

    base = param.String(default="", allow_refs=True, doc="The page's address without query or fragment.")

    tab_choices = param.List(default=[], doc="(name, title) of every tab the page has, in order.")

    def __init__(self, **params):
        super().__init__(**params)
        m = self.model
        head = html(f'<div class="section-title"><h2>{theme.esc(words.BUILDER_TITLE)}</h2></div>'
                    f'<p class="muted small">{theme.esc(words.BUILDER_HELP)}</p>')
        # The form, its widgets and its code are made once a teacher asks for them (a disclosure, as "Your own
        # numbers" is): the page's first render holds 4 models here, not 25, Python makes none of the form's
        # ten widgets (and none of their classes' first instances) before the page answers, and a student's
        # click computes no code for a box nobody opened. Opened, the code follows the page from then on.
        self.toggle = pn.widgets.Toggle(label=words.TOGGLE, margin=(4, 2), stylesheets=[theme.BUTTON],
                                        css_classes=["sp-disclosure", "sp-embed-toggle"])
        self.area = None  # the code's box, and every widget of the form, once opened (_build)
        self._form = Lazy(self._build)
        self._form.layout.visible = False
        self._form.layout.css_classes = ["sp-disclosed"]
        self.toggle.param.watch(self._show_form, "value")
        self._layout = pn.Column(head, self.toggle, self._form.layout, sizing_mode="stretch_width",
                                 stylesheets=[theme.CARD], margin=(6, 0), css_classes=[FRAME_HIDDEN["embed"]],
                                 visible=pn.bind(lambda hidden: "embed" not in hidden, m.param.hidden))
        m.param.watch(self._render, ["session", "hidden"])
        # Code copied from a locked page stays locked; the teacher may still untick the box.
        m.param.watch(lambda event: event.new and self.area is not None and setattr(self.lock, "value", True), "locked")
        if "predict" in m.param:
            m.param.watch(lambda event: self.area is not None and setattr(self.predict, "value", event.new), "predict")

    def _build(self):
        """The form's widgets, the code and the copy button, as the page is now."""
        m = self.model
        self.parts = pn.widgets.CheckBoxGroup(
            label=words.PARTS_LABEL, options={label: part for part, label in words.PARTS.items()},
            value=list(HIDDEN_IN_FRAMES), inline=True, margin=(2, 5), stylesheets=[theme.CHECK_GROUP])
        self.lock = pn.widgets.Checkbox(label=words.LOCK_LABEL, value=bool(m.locked), margin=(6, 5),
                                        css_classes=["sp-lock"])
        # Predict first for the embed's readers (issue 28): follows the page's toggle, may be changed here.
        self.predict = pn.widgets.Checkbox(label=words.PREDICT_LABEL, value=bool(getattr(m, "predict", False)),
                                           margin=(6, 5), css_classes=["sp-embed-predict"])
        self.start = pn.widgets.Select(label=words.START_LABEL, options={}, width=220, margin=(4, 5))
        self.shown = pn.widgets.CheckBoxGroup(label=words.TABS_SHOWN_LABEL, options={}, inline=True, margin=(2, 5),
                                               stylesheets=[theme.CHECK_GROUP])
        self.colours = pn.widgets.Select(label=words.THEME_LABEL, options=words.THEMES, width=220, margin=(4, 5))
        self.frame_title = pn.widgets.TextInput(label=words.FRAME_TITLE_LABEL, value=t("embed.iframe_title"),
                                                sizing_mode="stretch_width", margin=(4, 5))
        self.caption = pn.widgets.TextInput(label=words.CAPTION_LABEL, sizing_mode="stretch_width", margin=(4, 5))
        self.area = pn.widgets.TextAreaInput(
            label=words.AREA_LABEL, rows=6, sizing_mode="stretch_width", stylesheets=[theme.MONO_INPUT], margin=(4, 0))
        self.copy = pn.widgets.Button(label=words.COPY_LABEL, stylesheets=[theme.BUTTON], margin=(4, 0),
                                      description=words.COPY_TIP)
        self.copy.js_on_click(args={"area": self.area, "label": words.COPY_LABEL, "said": words.COPY_SAID},
                              code=COPY_JS)
        self.note = html("", margin=(2, 5), visible=False)
        # The embed's own tables (issue 29): the page's until the teacher edits them here.
        self.own = OwnNumbers(model=m, on_page=False)
        self.own.param.watch(self._render, "tables")
        parts_box = pn.Column(html(f'<div class="field-title">{theme.esc(words.PARTS_LABEL)}</div>', margin=(0, 5)),
                              self.parts, margin=0)
        tabs_box = pn.Column(html(f'<div class="field-title">{theme.esc(words.TABS_SHOWN_LABEL)}</div>',
                                  margin=(0, 5)), self.shown, self.note, margin=0)
        form = pn.FlexBox(parts_box, tabs_box, self.start, self.colours, self.lock, self.predict, self.frame_title,
                          self.caption, gap="8px 20px", flex_wrap="wrap", sizing_mode="stretch_width", margin=0)
        for widget in (self.parts, self.lock, self.predict, self.start, self.shown, self.colours, self.frame_title,
                       self.caption):
            widget.param.watch(self._render, "value")
        self._choices()
        return pn.Column(form, self.own, self.area, self.copy, sizing_mode="stretch_width", margin=0)

    def open(self):
        """Open the form (as the toggle does), made now; for Python callers and tests."""
        self.toggle.value = True

    def _show_form(self, event):
        with one_update():
            if event.new:
                self._form.open(now=True)
            self._form.layout.visible = event.new

    @param.depends("tab_choices", watch=True)
    def _choices(self):
        if self.area is None:
            return
        options = {title: name for name, title in self.tab_choices}
        self.start.param.update(options=options, value=next(iter(options.values()), None))
        self.shown.param.update(options=options, value=list(options.values()))
        self._render()

    # Set by watchers rather than bound: the copy button's JS callback keeps the text box
    # for as long as the button lives (Panel's callback registry), so the box must not hold
    # this view or the model, or no session would be freed.
    @param.depends("base", watch=True)
    def _render(self, *events):
        if self.area is None:
            return  # not opened yet: the code is written when it is
        names = [name for name, _ in self.tab_choices]
        shown = self.shown.value or names
        update_changed(self.note, object=f'<p class="field-error">{theme.esc(words.NO_TABS)}</p>',
                       visible=bool(names) and not self.shown.value)
        scenario = dict(self.model.scenario(), lang=link_value(), predict="1" if self.predict.value else "0")
        scenario.update(embed_tables(self.model, self.own))
        text = query(scenario, self.parts.value, self.lock.value, self.start.value or "", shown,
                     self.colours.value, names)
        code = snippet.snippet((self.base or "") + text, self.frame_title.value.strip(), self.caption.value)
        if self.area.value != code:
            self.area.value = code

    def __panel__(self):
        return self._layout
