"""Predict first (issue 28): the call buttons after Draft, then each call judged beside what happened.

One HTML pane: its buttons carry ``data-sp-open="call:I:kept"`` and reach the
model through the tab's ``parts.Opener`` (like the token chips), so a call is
one text change and one patch. After a rejection the same pane asks which
tokens the correction can be: a toggle per token (``support:B``) and Confirm
(``support:confirm``); the rest of the tab hides the correction until then
(``StepModel.asking_block``), and the reveal is ``core.predict.check_support``'s. The judging is ``core.predict``'s
(``StepModel.judged``); the words are ``predict_words``'.
"""

import panel as pn
import param

from core.predict import CALLS
from toy_tables import TOKENS

from .. import theme
from ..i18n import t
from ..parts import html, open_attrs, update_changed
from . import predict_words
from .model import StepModel

PREFIX = "call:"  # an Opener key of a call button: "call:INDEX:kept"
SUPPORT = "support:"  # an Opener key of a token toggle ("support:B") or of Confirm ("support:confirm")
CONFIRM = "confirm"


def call_key(index, call):
    return f"{PREFIX}{index}:{call}"


def parse_key(key):
    """(index, call) from a call button's key, or None when ``key`` is not one."""
    if not key.startswith(PREFIX):
        return None
    index, _, call = key[len(PREFIX):].partition(":")
    return (int(index), call) if index.isdigit() and call in CALLS else None


def calls_html(block, calls):
    rows = []
    for proposal, mine in zip(block.proposals, calls):
        position = proposal.index + 1
        buttons = "".join(
            f'<button class="call-button {c}" {open_attrs(call_key(proposal.index, c), predict_words.call_label(position, proposal.token, c))}'
            f' aria-label="{theme.esc(predict_words.call_label(position, proposal.token, c))}"'
            f' aria-pressed="{"true" if mine == c else "false"}">{theme.esc(predict_words.word(c))}</button>'
            for c in CALLS)
        rows.append(f'<div class="predict-row">{theme.chip(proposal.token, "proposed")}{buttons}</div>')
    missing = sum(c is None for c in calls)
    status = predict_words.waiting(missing) if missing else t("step.predict.ready")
    return (f'<p class="muted small">{theme.esc(t("step.predict.lead"))}</p>'
            f'<div class="predict-rows" role="group" aria-label="{theme.esc(t("step.predict.calls_aria"))}">'
            + "".join(rows) + f'</div><p class="predict-status" role="status">{theme.esc(status)}</p>')


def support_key(what):
    return f"{SUPPORT}{what}"


def rejected_of(block):
    return next(p for p in block.proposals if p.status == "rejected")


def question_html(block, marked):
    """The open question: a toggle per token (aria-pressed), Confirm once one is marked, what is marked."""
    esc = theme.esc
    toggles = "".join(
        f'<button class="call-button support-toggle" {open_attrs(support_key(x), predict_words.toggle_aria(x))}'
        f' data-sp-key="{esc(x.lower())}"'  # while the question is open the letter marks the token (page.js)
        f' aria-label="{esc(predict_words.toggle_aria(x))}" aria-pressed="{"true" if x in marked else "false"}">'
        f'{theme.chip(x, "sm")}</button>' for x in TOKENS)
    confirm_name = t("step.predict.support.confirm_aria")
    confirm = (f'<button class="call-button support-confirm" {open_attrs(support_key(CONFIRM), confirm_name)}'
               f' aria-label="{esc(confirm_name)}"{"" if marked else " disabled"}>'
               f'{esc(t("step.predict.support.confirm"))}</button>')
    return (f'<h3 class="small">{esc(t("step.predict.support.title"))}</h3>'
            f'<p class="muted small">{esc(predict_words.support_lead(rejected_of(block)))}</p>'
            f'<p class="small">{esc(predict_words.support_rows(rejected_of(block)))}</p>'
            f'<div class="predict-row" role="group" aria-label="{esc(t("step.predict.support.aria"))}">'
            f'{toggles}{confirm}</div>'
            f'<p class="predict-status" role="status">{esc(predict_words.marked_line(marked))}</p>')


def support_html(block, check):
    """The reveal of a confirmed guess: the residual, its support and why, the verdict, the draw."""
    residual, why, verdict, drawn = predict_words.support_reveal(check, rejected_of(block))
    css = "right" if check.right else "wrong"
    # Confirm is gone once pressed: its keyboard focus lands here (app/page/page.js, data-sp-after), where
    # a screen reader reads the reveal on; C or N then commits from anywhere.
    return (f'<h3 class="small" tabindex="-1" data-sp-after="{theme.esc(support_key(CONFIRM))}">'
            f'{theme.esc(t("step.predict.support.revealed"))}</h3><ul class="predict-verdicts">'
            f'<li>{theme.esc(residual)}</li><li>{theme.esc(why)}</li>'
            f'<li class="{css}">{theme.esc(verdict)}</li><li>{theme.esc(drawn)}</li></ul>')


def verdicts_html(judged):
    items = []
    for c in judged.calls:
        css = "" if c.right is None else (' class="right"' if c.right else ' class="wrong"')
        items.append(f"<li{css}>{theme.esc(predict_words.verdict(c))}</li>")
    return (f'<h3 class="small">{theme.esc(t("step.predict.reveal_title"))}</h3>'
            f'<ul class="predict-verdicts">' + "".join(items) + "</ul>")


def predict_html(model):
    """What the pane shows now: the calls to make, the judged calls of the block on the strip, or the next step."""
    if not model.predict:
        return ""
    head = f'<div class="section-title"><h2>{theme.esc(t("step.predict.title"))}</h2></div>'
    block = model.calling()
    judged = model.judged_in_view()
    if block is not None:
        body = calls_html(block, model.current_calls())
    elif model.seen_again() is not None:
        body = f'<p class="muted small">{theme.esc(predict_words.seen_again(model.seen_again()))}</p>'
    elif judged is not None:
        body = verdicts_html(judged)
        asked = model.asking_block()
        shown = model.block_in_view()
        if asked is not None:
            body += question_html(asked, model.marked)
        elif judged.support is not None:
            body += support_html(shown, judged.support)
    else:
        body = f'<p class="muted small">{theme.esc(t("step.predict.idle"))}</p>'
    totals = model.tally()
    support = predict_words.support_tally(totals)
    tally = (f'<p class="predict-tally">{theme.esc(predict_words.tally_line(totals))}'
             + (f'{theme.esc(t("step.space"))}{theme.esc(support)}' if support else "") + "</p>")
    return head + body + tally


class PredictPane(pn.viewable.Viewer):
    """The Predict first card: shown while the toggle is on."""

    model = param.ClassSelector(class_=StepModel)

    def __init__(self, **params):
        super().__init__(**params)
        m = self.model
        self.html = html(predict_html(m), theme.CHIPS, theme.PREDICT)
        self._layout = pn.Column(self.html, sizing_mode="stretch_width", stylesheets=[theme.CARD], margin=(6, 0),
                                 visible=m.predict, css_classes=["sp-predict"])

    @param.depends("model.session", "model.calls", "model.predict", "model.judged", "model.asking", "model.marked",
                   watch=True)
    def _render(self):
        update_changed(self.html, object=predict_html(self.model))
        update_changed(self._layout, visible=self.model.predict)

    def open(self, key):
        """A call button's click: True when ``key`` was one (the tab's Opener asks every part in turn)."""
        if key.startswith(SUPPORT):
            what = key[len(SUPPORT):]
            if what == CONFIRM:
                self.model.confirm_support()
            else:
                self.model.mark(what)
            return True
        parsed = parse_key(key)
        if parsed is None:
            return False
        self.model.call(*parsed)
        return True

    def __panel__(self):
        return self._layout
