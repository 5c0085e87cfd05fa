"""The guided start: "What to try" buttons that open seed-000 moments, each with a question.

Presets come from ``presets.py`` (found in ``core`` traces); a click opens
the preset's link in the model, as a pasted link would. The table of every
authored row is static HTML in a ``<details>`` element: shown on demand, built once.
"""

import panel as pn
import param

import core
from core.display import dec

from .. import theme, urlstate
from ..i18n import t
from ..parts import html, update_changed, wrap
from . import guide_words as words
from . import presets
from . import words as step_words


def question_html(preset, locked=False):
    if preset is None:
        # Locked: the buttons are disabled, and the scenario card says why.
        return "" if locked else f'<p class="muted small">{theme.esc(words.GUIDE_PICK)}</p>'
    return (f'<p class="question"><b>{theme.esc(words.guide_lead(preset.title))}</b> {theme.esc(preset.question)}</p>'
            f'<details><summary>{theme.esc(words.GUIDE_CHECK)}</summary><p>{theme.esc(preset.answer)}</p></details>')


def own_tables_html(session):
    """On a link's own tables: the presets below open the authored tables' moments, not this link's."""
    if session is None or session.config.tables.authored:
        return ""
    return f'<p class="muted small" role="note">{theme.esc(t("step.guide.own_tables"))}</p>'


def rows_html(rows, drafts):
    head = "".join(f"<th scope='col'>{theme.esc(h)}</th>" for h in
                   (words.ROWS_AFTER, words.ROWS_TARGET, *(words.rows_draft(d) for d in drafts)))
    body = ""
    for after, p, qs in rows:
        cells = "".join(f'<td class="mono">{" ".join(dec(x) for x in qs[d])}</td>' for d in drafts)
        body += (f"<tr><th scope='row'>{theme.esc(after or words.ROWS_START)}</th>"
                 f'<td class="mono">{" ".join(dec(x) for x in p)}</td>{cells}</tr>')
    return (f'<details class="rows"><summary>{theme.esc(words.ROWS_SUMMARY)}</summary>'
            f'<p class="muted small">{theme.esc(words.ROWS_NOTE)}</p>'
            f'<table class="rows"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></details>')


class Guide(pn.viewable.Viewer):
    """Three preset buttons, the picked preset's question, and the authored rows on demand."""

    model = param.Parameter(doc="The page's StepModel.")

    picked = param.Parameter(default=None, doc="The Preset last opened, or None.")

    def __init__(self, **params):
        super().__init__(**params)
        m = self.model
        self.presets = presets.presets()
        self.buttons = []
        for preset in self.presets:
            button = pn.widgets.Button(label=preset.title, stylesheets=[theme.BUTTON], margin=(4, 4))
            button.on_click(lambda event, preset=preset: self.open(preset))
            self.buttons.append(button)
        self._lock()
        self.question = html(pn.bind(question_html, self.param.picked, m.param.locked), theme.GUIDE, margin=(4, 4))
        # The presets are authored moments: on a link's own tables, say they open the authored ones.
        self.own = html(pn.bind(own_tables_html, m.param.session), theme.GUIDE, margin=(0, 4),
                        visible=pn.bind(lambda s: s is not None and not s.config.tables.authored, m.param.session))
        authored = [d for d in core.DRAFTS if core.DRAFT_KINDS[d].source != "q"]  # the custom q is the link's
        self.rows = html(rows_html(presets.rows(), authored), theme.GUIDE, theme.INSPECTOR, margin=(4, 4))
        self._layout = pn.Column(
            html(f'<div class="section-title"><h2>{theme.esc(words.GUIDE_TITLE)}</h2></div>'
                 f'<p class="muted small">{theme.esc(words.GUIDE_HELP)}</p>'),
            self.own, wrap(*self.buttons, margin=0),
            self.question, self.rows, sizing_mode="stretch_width", stylesheets=[theme.CARD], margin=(6, 0),
            visible=pn.bind(lambda hidden: "guide" not in hidden, m.param.hidden))

    @param.depends("model.locked", watch=True)
    def _lock(self):
        """A locked scenario (``lock=1``) takes no preset: each would change it."""
        for button in self.buttons:
            update_changed(button, disabled=self.model.locked)

    def open(self, preset):
        """Open the preset's moment (the link keeps the page's hidden parts) and show its question.

        The caption names the preset, not a link: the reader pressed a button. A
        locked scenario is left as it is.
        """
        if self.model.locked:
            return
        link = urlstate.read(preset.query)
        values = link.values
        happened = words.opened_preset(preset.title, step_words.draft_name(values["draft"]), values["width"],
                                       values["seed"], step_words.count(values["steps"], "step"))
        self.model.open_link(urlstate.UrlState(link.values, self.model.hidden, link.notices, link.given), happened)
        self.picked = preset

    def __panel__(self):
        return self._layout
