"""Every sentence of Predict first (issue 28): the calls, the reveal beside each one, the tally.

Whole sentences in the catalogues (``app/i18n``, keys ``step.predict.*``). The
numbers are fields of ``core.predict`` records, written by ``core.display``;
nothing here counts a chance.
"""

from core.display import dec, exactly, frac
from core.predict import KEPT
from toy_tables import TOKENS

from ..i18n import t
from ..page import words as page_words


def toggle_label():
    return t("step.predict.toggle")


def word(call):
    """ "kept" or "rejected" in the page's language."""
    return t("step.predict.kept" if call == KEPT else "step.predict.rejected")


def chance(x):
    """An exact probability: 5/8 = 0.625, 2/7 ≈ 0.286, 1."""
    shown = exactly(x, max_places=4)
    return shown if x.denominator == 1 or "/" in shown else f"{frac(x)} = {shown}"


def waiting(missing):
    return t("step.predict.waiting.one" if missing == 1 else "step.predict.waiting.other", missing=missing)


def no_call():
    return t("step.predict.no_call")


def call_label(position, token, call):
    """A call button's accessible name: "Call position 2 (A) rejected"."""
    return t("step.predict.call_aria", position=position, token=token, call=word(call))


def verdict(c):
    """One judged call (``core.predict.Call``) as a sentence: what was said, what happened, how likely."""
    head = t("step.predict.position", position=c.index + 1, token=c.token)
    if c.call is None:
        return head + t("step.predict.skipped")
    if not c.tested:
        return head + t("step.predict.untested", call=word(c.call))
    if c.right:
        kind = "sound" if c.call == c.likelier else "lucky"
    else:
        kind = "unlucky" if c.call == c.likelier else "unlikely"
    return head + t("step.predict.judged", call=word(c.call), outcome=word(c.outcome),
                    chance=chance(c.outcome_probability), kind=t(f"step.predict.kind.{kind}"))


def tally_line(tally):
    """The running tally (``core.predict.Tally``): right calls against the always-likelier student's expectation."""
    if tally.scored == 0:
        return t("step.predict.tally.none")
    expected = tally.expected_right
    shown = dec(expected) if expected.denominator == 1 else f"{dec(expected)} (= {frac(expected)})"
    return t("step.predict.tally", right=tally.right, scored=tally.scored, expected=shown)


# ---- after a rejection: which tokens can the correction be? (core.predict.SupportCheck) ----

def seen_again(block):
    """Why a block drafted again after Step back is not called: its outcome has been shown."""
    return t("step.predict.seen", block=block.index + 1)


def held():
    """Why Run block, Run to end and a later moment wait while Predict first waits (calls or the support)."""
    return t("step.predict.held")


def held_jump():
    return t("step.predict.held_jump")


def support_waiting():
    return t("step.predict.support.waiting")


def no_support_question():
    return t("step.predict.support.none")


def mark_first():
    return t("step.predict.support.mark_first")


def marking_keys_line(labels):
    """The keys' line while the question is open: A, B, C mark the tokens (page.js: the toggles' data-sp-key),
    so B is no Step back then; the other keys as ever. ``labels`` maps an action to its button's label."""
    marks = tuple(x.lower() for x in TOKENS)
    back_key = next(key for key, action in page_words.SHORTCUTS if action == "back")
    return t("step.predict.support.keys", tokens=_tokens(TOKENS), back_key=back_key.upper(), back=labels["back"],
             keys=page_words.shortcut_keys(labels, leave_out=marks))


def toggle_aria(token):
    """A token toggle's accessible name: "B can be the correction" (aria-pressed says whether it is marked)."""
    return t("step.predict.support.toggle_aria", token=token)


def _tokens(seq):
    return t("step.list_sep").join(seq)


def marked_line(marked):
    return t("step.predict.support.marked", tokens=_tokens(marked)) if marked else t("step.predict.support.marked_none")


def support_lead(proposal):
    return t("step.predict.support.lead", position=proposal.index + 1, token=proposal.token)


def _row(values):
    return t("step.list_sep").join(t("step.predict.support.entry", token=x, value=chance(v))
                                   for x, v in zip(TOKENS, values))


def support_rows(proposal):
    """The rejected position's p and q (core's rows): what the reader reasons from."""
    return t("step.predict.support.rows", p=_row(proposal.p), q=_row(proposal.q))


def support_reveal(check, proposal):
    """The reveal, sentence by sentence: the residual exactly, its support and why (p > q), the verdict, the draw.

    Every number is a field of ``check`` (``core.predict.SupportCheck``); which tokens are in the
    support is core's ``check.support``, never compared here.
    """
    lines = [t("step.predict.support.residual", position=proposal.index + 1, token=proposal.token,
               row=_row(check.residual))]
    entries = {x: (p, q) for x, p, q in zip(TOKENS, check.p, check.q)}
    inside = _tokens(t("step.predict.support.in", token=x, p=chance(entries[x][0]), q=chance(entries[x][1]))
                     for x in check.support)
    rest = [x for x in TOKENS if x not in check.support]
    if rest:
        outside = _tokens(t("step.predict.support.out", token=x, p=chance(entries[x][0]), q=chance(entries[x][1]))
                          for x in rest)
        lines.append(t("step.predict.support.why", support=_tokens(check.support), inside=inside, outside=outside))
    else:
        lines.append(t("step.predict.support.why_all", support=_tokens(check.support), inside=inside))
    verdict = [t("step.predict.support.right" if check.right else "step.predict.support.wrong",
                 marked=_tokens(check.predicted))]
    if check.missing:
        verdict.append(t("step.predict.support.missing", missing=_tokens(check.missing)))
    if check.extra:
        verdict.append(t("step.predict.support.extra", extra=_tokens(check.extra)))
    if not check.right:
        verdict.append(t("step.predict.support.covered", covered=chance(check.covered)))
    lines.append(t("step.space").join(verdict))
    lines.append(t("step.predict.support.drawn", token=check.token))
    return lines


def support_tally(tally):
    """The support guesses of the tally, apart from the kept/rejected calls; "" before any."""
    if not tally.support_guesses:
        return ""
    return t("step.predict.support.tally", right=tally.support_right, guesses=tally.support_guesses)
