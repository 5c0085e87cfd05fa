"""Every sentence of Predict first (issue 28): the calls, the reveal beside each one, the tally.

Whole sentences in the catalogues (``app/i18n``, keys ``step.predict.*``). The
numbers are fields of ``core.predict`` records, written by ``core.display``;
nothing here counts a chance.
"""

from core.display import dec, exactly, frac
from core.predict import KEPT

from ..i18n import t


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
