"""Every sentence of the "Why it is exact" tab, as a pure function of ``core`` values.

Plain text only (the views escape and wrap it), no Panel: each claim a
sentence makes is checked against the engine in ``tests/test_tab_words.py``
over many scenarios. The words are in the catalogues (``app/i18n``, keys
``exact.*``): one whole template per situation, in the page's language.
"""

import re
from fractions import Fraction

from core import DRAFT_KINDS, display, rates, typical

from ..i18n import DEFAULT, has, language, t
from ..parts import draft_name

LEVEL = 0.01  # a p-value below this counts as a detected difference


def label(prefix):
    return " ".join(prefix)


def _n(n):
    return "one" if n == 1 else "other"


def rule_name(variant):
    """A rule's short name in a sentence ("naive-resample", "朴素重抽")."""
    return t(f"variant.{variant}.name") if has(f"variant.{variant}.name") else variant


def rule_title(variant, default):
    return t(f"variant.{variant}.title") if has(f"variant.{variant}.title") else default


def rule_summary(variant, default):
    return t(f"variant.{variant}.summary") if has(f"variant.{variant}.summary") else default


def p_value_text(p):
    """A chi-square p-value for people: tiny values are 'below 0.0001'."""
    if p is None:
        return "—"
    if p < 1e-4:
        return t("exact.p_below")
    return f"{p:.4f}" if p < 0.01 else f"{p:.2f}"


def never_rejected(draft, variant):
    """Whether every proposal this draft can make is kept by the rule's test (core's keep chances).

    ``core.rates`` has keep chances for the table drafts only; lookup and heads are rejected sometimes."""
    kind = DRAFT_KINDS.get(draft)
    if kind is None or not kind.has_table:
        return False
    return all(c.accept == 1 for c in rates.keep_chances(draft, variant))


def starts(k):
    """All k-token starts, in words: "3 possible first tokens", "9 possible two-token starts"."""
    return t(f"exact.starts.{k}" if k in (1, 2, 3, 4) else "exact.starts.n", n=3 ** k, k=k)


# ---- temperature and top-k ---------------------------------------------------------------------

WHERE_VALUES = ("both", "target", "draft")


def where_options():
    """Where temperature and top-k apply (label -> value), in the page's language."""
    return {t(f"exact.where.{value}"): value for value in WHERE_VALUES}


def transformation(transform):
    """The transformation in words: "temperature 1/2 and top-2", "temperature 1/3", "top-1"."""
    temperature, k = transform.temperature, transform.top_k
    if temperature != 1 and k is not None:
        return t("exact.tr.both", temperature=temperature, k=k)
    if temperature != 1:
        return t("exact.tr.temperature", temperature=temperature)
    return t("exact.tr.top_k", k=k)


def transform_reading(comparison, raw_distance, keeps_target):
    """One sentence on where the transformation was applied and what the output follows, or "" without one.

    ``raw_distance``: the exact distance of the output from the untransformed target (``core.exact``);
    ``keeps_target``: whether the verification rule is the exact one (or another rule that keeps p).
    """
    tr = comparison.transform
    if tr is None or tr.identity:
        return ""
    form = "two" if tr.temperature != 1 and tr.top_k is not None else "one"
    fields = dict(what=transformation(tr), d=display.exact_or_dec(comparison.distance, 4),
                  tokens=t(f"step.count.token.{_n(comparison.k)}", n=comparison.k), rule=rule_name(comparison.variant))
    if tr.at == "draft" and comparison.distance and raw_distance == 0:
        case = "wrong_raw"
    elif tr.at == "draft" and comparison.distance:
        case = "wrong"
    elif tr.at == "draft":
        case = "draft_lucky"
    elif comparison.distance == 0 and keeps_target and tr.at == "target":
        case = "target"
    elif comparison.distance == 0 and keeps_target:
        case = "both"
    else:
        case = "rule"
    text = t(f"exact.tr.reading.{case}.{form}", **fields)
    return text[0].upper() + text[1:]  # a sentence that starts with the transformation


def rule_reading(comparison, rule, greedy_target):
    """What the exact result says (plain sentences): distance, the worst prefix, where the two part."""
    c, k = comparison, comparison.k
    what = starts(k)
    name = rule_name(rule.name)
    if c.variant == "greedy":
        return [t("exact.greedy.equal" if c.greedy_equal else "exact.greedy.differ", tokens=label(greedy_target),
                  starts=what, distance=display.exact_or_dec(c.distance, 3))]
    if c.distance == 0:
        if rule.keeps_target:
            out = [t("exact.keeps", rule=name, starts=what)]
            if c.variant == "match-keep":
                out.append(t("exact.match_keep"))
            return out
        if never_rejected(c.draft, c.variant):
            return [t("exact.never_rejected", draft=draft_name(c.draft), rule=name)]
        return [t(f"exact.happens.{_n(k)}", draft=draft_name(c.draft), width=c.width, rule=name, k=k)]
    worst, difference = c.largest_gap()
    kind = "token" if len(worst) == 1 else "start"
    how = "often" if difference > 0 else "rarely"
    fields = dict(rule=name, tokens=label(worst), p_rule=display.dec(c.result.get(worst, 0)),
                  p_target=display.dec(c.target.get(worst, 0)), at=c.first_departure)
    first = t(f"exact.gap.{kind}.{how}" + (".departs" if c.first_departure else ""), **fields)
    return [first, t(f"exact.distance.{_n(k)}", distance=display.exact_or_dec(c.distance, 4), k=k)]


def sample_reading(done, sampling, chi_target, chi_rule, distance):
    """What the sample says, or "" before it has any runs."""
    if chi_target is None:
        return ""
    runs = t("exact.runs.so_far" if sampling else "exact.runs", n=f"{done:,}")
    p_target = p_value_text(chi_target.p_value)
    if chi_target.p_value >= LEVEL:
        text = t("exact.sample.agree", runs=runs, p=p_target)
        if distance:
            text += t("exact.sample.small_bias")
    else:
        text = t("exact.sample.differ", runs=runs, p=p_target, level=LEVEL)
        if not distance:
            text += t("exact.sample.unlucky")
    if chi_rule.p_value >= LEVEL:
        text += t("exact.sample.own", p=p_value_text(chi_rule.p_value))
    return text


def seeds_text(base_seed, runs):
    return t("exact.seeds", first=f"{base_seed:,}", last=f"{base_seed + runs - 1:,}")


def status_text(sampling, done, runs, seconds, base_seed):
    if sampling:
        return t("exact.status.sampling", done=f"{done:,}", runs=f"{runs:,}")
    if seconds is None:
        return t("exact.status.done", done=f"{done:,}", seed=f"{base_seed:,}")
    return t("exact.status.done_in", done=f"{done:,}", seconds=f"{seconds:.1f}", seed=f"{base_seed:,}")


# ---- same distribution, different trace ------------------------------------------------------

def matches(spec, ordinary):
    """0-based positions where the two outputs hold the same token."""
    return [i for i, (a, b) in enumerate(zip(spec, ordinary)) if a == b]


def shared_start(spec, ordinary):
    """How many leading tokens the two outputs share."""
    n = 0
    for a, b in zip(spec, ordinary):
        if a != b:
            break
        n += 1
    return n


def positions_text(indices):
    """1-based positions in words, runs joined: ``[3, 4, 6] -> "positions 4–5 and 7"``."""
    runs = []
    for i in indices:
        if runs and runs[-1][1] == i - 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    parts = [f"{a + 1}" if a == b else f"{a + 1}–{b + 1}" for a, b in runs]
    if len(parts) == 1:
        joined = parts[0]
    else:
        joined = t("exact.positions.and", rest=t("exact.positions.sep").join(parts[:-1]), last=parts[-1])
    return t(f"exact.positions.{_n(len(indices))}", positions=joined)


def agreement(spec, ordinary):
    """Where the speculative and the ordinary outputs agree: "for good" only when they never agree again."""
    same = matches(spec, ordinary)
    shared = shared_start(spec, ordinary)
    if shared == len(spec) == len(ordinary):
        return t("exact.agree.same")
    later = [i for i in same if i > shared]
    start = "first" if shared == 0 else f"shared.{_n(shared)}"
    if later:
        return t(f"exact.agree.{start}.again.{_n(len(later))}", n=shared, positions=positions_text(later))
    return t(f"exact.agree.{start}.never", n=shared)


def draw_uses(session):
    """Every draw a finished trace consumed, in order (``core.Trace.draws``), as ``[(u, what, token), ...]``."""
    def what(d):
        key = f"exact.use.{d.use}"
        if not has(key):
            return f"{d.use}: {d.token}"
        return t(key, block=d.block + 1, token=d.token, index=None if d.index is None else d.index + 1,
                 verdict=t("exact.use.kept" if d.status == "accepted" else "exact.use.rejected"))

    return [(d.u, what(d), d.token) for d in session.trace().draws()]


def draws_sentence(draws, spec, ordinary):
    return t("exact.draws", draws=draws, tokens=len(spec), ordinary=len(ordinary))


# ---- the one-position calculator ------------------------------------------------------------

def either(tokens, word=None):
    """``["B", "C"] -> "B or C"`` (in the page's language)."""
    if len(tokens) == 1:
        return tokens[0]
    return t("exact.either", rest=t("exact.positions.sep").join(tokens[:-1]), last=tokens[-1])


def residual_sentence(d, tokens):
    """What a rejection is replaced by, read off the residual of ``core.decompose``."""
    if d.rejection == 0:
        return t("exact.residual.none")
    can = [x for x, r in zip(tokens, d.residual) if r]
    cannot = [x for x, r in zip(tokens, d.residual) if not r]
    if not cannot:
        return t("exact.residual.any", can=either(can))
    return t(f"exact.residual.never.{_n(len(cannot))}", can=either(can), cannot=either(cannot))


# core's parse errors are English sentences; other languages say the same from a pattern of them.
_ERRORS = (
    (re.compile(r"the numbers sum to (?P<total>\S+), not exactly 1: (?P<gap>\S+) (?P<side>short of|over) 1$"),
     "exact.error.sum"),
    (re.compile(r"give (?P<size>\d+) numbers separated by commas"), "exact.error.count"),
    (re.compile(r"that is too long"), "exact.error.long"),
    (re.compile(r"the value for (?P<name>[ABC]) is negative"), "exact.error.negative"),
    (re.compile(r"the value for (?P<name>[ABC]) is empty"), "exact.error.empty"),
    (re.compile(r"the value for (?P<name>[ABC]),"), "exact.error.value"),
)


def field_message(error):
    """The line beside a calculator field: its parse error as a sentence, or "" when it reads fine."""
    if not error:
        return ""
    if language() != DEFAULT:
        for pattern, key in _ERRORS:
            found = pattern.search(error)
            if found:
                fields = found.groupdict()
                if "side" in fields:
                    fields["side"] = t("exact.error.short" if fields["side"] == "short of" else "exact.error.over")
                return t(key, **fields)
        return t("exact.error.other")
    return error[0].upper() + error[1:] + "."


# ---- the rules in the wild: one card per rule (core.rulecard) --------------------------------

def fraction_and_decimal(x, places=4):
    """An exact value and its decimal: ``1069/2000 = 0.5345``, ``4766117/24276000 ≈ 0.1963``, ``0``."""
    x = Fraction(x)
    if x.denominator == 1:
        return str(x)
    needed = display.decimal_places(x)
    if needed is not None and needed <= places:
        return f"{x} = {display.dec(x, needed)}"
    return f"{x} ≈ {display.dec(x, places)}"


def card_verdict(card):
    """``(kind, words)``: exact, wrong (or wrong but harmless on this draft), lossy by design (typical) or
    another promise (greedy)."""
    if card.variant == "typical":
        kind = "lossy"
    elif card.variant == "greedy":
        kind = "greedy"
    elif card.keeps_target:
        kind = "exact"
    else:  # a wrong rule can do no harm where nothing is rejected (q = p)
        kind = "wrong" if card.distance else "harmless"
    return kind, t(f"exact.card.verdict.{kind}")


def card_lead(draft, width, k, authored=True):
    """The cards' lead; ``authored`` False: the figures are on the link's own tables, not the toy ones."""
    return t("exact.cards.lead" if authored else "exact.cards.lead.custom", draft=draft_name(draft), width=width, k=k)


def draft_help(authored=True):
    """The draft field's help: "over-proposes A" is a claim about the authored target only."""
    return t("exact.field.draft.help" if authored else "exact.field.draft.help.custom")


def card_where(card):
    """Where the rule was shipped or proposed, one sentence per thread (``core.rulecard.SOURCES``)."""
    if not card.sources:
        return [t("exact.card.where.none")]
    out = []
    for i, (repo, number) in enumerate(card.sources):
        fields = dict(ref=f"{repo}#{number}")
        if card.variant == "typical":  # vLLM's own parameter names, as its API spells them
            fields.update(epsilon=display.exactly(typical.PAPER.epsilon), delta=display.exactly(typical.PAPER.delta),
                          threshold_name="posterior_threshold", alpha_name="posterior_alpha")
        out.append(t(f"exact.card.where.{card.variant}.{i}", **fields))
    return out


def card_distance(card):
    """The exact distance of the rule's first k tokens from the target's."""
    if card.distance == 0:
        return t("exact.card.distance.zero", k=card.k)
    return t("exact.card.distance", k=card.k, distance=fraction_and_decimal(card.distance))


def card_kept(card):
    """The share of proposals kept in the long run, beside the exact rule's, and tokens per pass."""
    share, exact_share = card.kept_share, card.exact_kept_share
    how = "more" if share > exact_share else "less" if share < exact_share else "same"
    return t(f"exact.card.kept.{how}", share=display.percent(share), exact=display.percent(exact_share),
             per_pass=display.dec(card.tokens_per_pass, 3), exact_per_pass=display.dec(card.exact_tokens_per_pass, 3))


def card_notes(card, aligned=None):
    """What one rule's card adds: match-keep with q = p, typical acceptance's parameters."""
    out = []
    if aligned is not None:
        out.append(t("exact.card.match_keep.aligned", kept=fraction_and_decimal(aligned.kept_after[""]),
                     exact=fraction_and_decimal(aligned.exact_kept_after[""]),
                     share=display.percent(aligned.kept_share), exact_share=display.percent(aligned.exact_kept_share)))
    if card.variant == "typical":
        fields = dict(epsilon=display.exactly(typical.PAPER.epsilon), delta=display.exactly(typical.PAPER.delta))
        # The uniform row has the most entropy: if epsilon binds there, it binds on every three-token row.
        if typical.threshold_holds_at((Fraction(1, 3),) * 3) == "epsilon":
            out.append(t("exact.card.typical.params.epsilon", **fields))
        else:
            out.append(t("exact.card.typical.params", **fields))
        if all(v == 1 for v in card.kept_after.values()):
            out.append(t("exact.card.typical.all_kept", draft=draft_name(card.draft)))
    return out


_CONSTANTS = {
    "WHERE": where_options,
    "HELP": lambda: {name: t(f"exact.help.{name}") for name in ("temperature", "top_k", "transform_at")},
}


def __getattr__(name):
    """The module's word constants, in the page's language (``words.WHERE``, ``words.HELP``)."""
    if name in _CONSTANTS:
        return _CONSTANTS[name]()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
