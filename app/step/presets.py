"""A guided start: "What to try" moments from seed 000, each with a question to predict first.

Each preset is a link (draft, width, seed and ``steps``, the clicks of Next step
that lead to the moment) found by asking ``core`` for the first seed that shows
the moment, never a number copied by hand; its question and its answer are
sentences built from that trace's records (catalogue keys ``step.preset.*``, in
the page's language), so they name the numbers the reader is about to see. ``rows`` gives every authored row of the toy tables (through
``core.position``) for the table shown on demand.
"""

from dataclasses import dataclass

import core
from core.display import dec, exact_or_dec

from ..i18n import t
from . import words

SEEDS = range(200)  # where to look for a moment; every preset below is found well inside it
AFTER_DRAFT = 1  # clicks of Next step: Draft done, Verify next


@dataclass(frozen=True)
class Preset:
    key: str
    title: str
    query: str  # the link of the moment ("?draft=...&steps=1")
    question: str  # what to predict before clicking
    answer: str  # what the next click shows


def first_seed(draft, width, wanted):
    """The first seed whose first block satisfies ``wanted(block)``."""
    for seed in SEEDS:
        block = core.simulate(draft, width, seed=seed).blocks[0]
        if wanted(block):
            return seed, block
    raise LookupError(f"no seed below {SEEDS.stop} shows this moment for {draft} width {width}")


def query(draft, width, seed, steps=AFTER_DRAFT):
    return f"?draft={draft}&width={width}&seed={seed}&steps={steps}"


def statuses(block):
    return [p.status for p in block.proposals]


def numbers(values):
    return ", ".join(dec(v) for v in values)


def all_accepted():
    width = 3
    seed, block = first_seed("aligned", width, lambda b: b.bonus is not None and set(statuses(b)) == {"accepted"})
    n = len(block.committed)
    return Preset(
        "aligned-bonus", t("step.preset.aligned.title"), query("aligned", width, seed),
        t("step.preset.aligned.question", tokens=words.count(width, "token")),
        t("step.preset.aligned.answer", n=words.number(width), tokens=words.count(n, "token")))


def empty_prefix_residual():
    width = 3
    seed, block = first_seed("biased", width, lambda b: statuses(b)[0] == "rejected")
    first = block.proposals[0]
    return Preset(
        "biased-residual", t("step.preset.residual.title", token=first.token), query("biased", width, seed),
        t("step.preset.residual.question", token=first.token, q=dec(first.q_x), p=dec(first.p_x)),
        t("step.preset.residual.answer", chance=exact_or_dec(first.accept_probability, 3),
          residual=numbers(block.correction.residual), token=first.token))


def discard():
    width = 3
    seed, block = first_seed("biased", width, lambda b: "accepted" in statuses(b) and "discarded" in statuses(b))
    rejected = next(p for p in block.proposals if p.status == "rejected")
    later = [p for p in block.proposals if p.index > rejected.index]
    return Preset(
        "biased-discard", t("step.preset.discard.title"), query("biased", width, seed),
        t("step.preset.discard.question", ordinal=words.ordinal(rejected.index),
          proposals=words.count(len(later), "proposal")),
        t("step.preset.discard.answer", tokens=words.count(len(block.committed), "token")))


def presets():
    """The presets, in the order a student should try them."""
    return (all_accepted(), empty_prefix_residual(), discard())


def rows():
    """Every authored row: (after, target p, {draft: q}) with the tables' exact values, keyed by the last token."""
    out = []
    for after in ((),) + tuple((t,) for t in core.TOKENS):
        p = core.position(core.DRAFTS[0], after).p
        out.append((after[0] if after else "", p, {d: core.position(d, after).q for d in core.DRAFTS}))
    return out
