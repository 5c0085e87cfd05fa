"""Every sentence of the "Why it is exact" tab, as a pure function of ``core`` values.

Plain text only (the views escape and wrap it), no Panel: each claim a
sentence makes is checked against the engine in ``tests/test_tab_words.py``
over many scenarios.
"""

from core import DRAFTS, display, rates

LEVEL = 0.01  # a p-value below this counts as a detected difference
NUMBER_WORDS = ("no", "one", "two", "three", "four")

USES = {
    "propose": "block {block}: proposes {token}",
    "test": "tests proposal {index} ({token}): {verdict}",
    "correction": "correction from the residual: {token}",
    "bonus": "bonus token from p: {token}",
    "ordinary": "ordinary step from p (nothing to copy): {token}",
}


def label(prefix):
    return " ".join(prefix)


def plural(n, noun):
    return f"{n} {noun}{'' if n == 1 else 's'}"


def p_value_text(p):
    """A chi-square p-value for people: tiny values are 'below 0.0001'."""
    if p is None:
        return "—"
    if p < 1e-4:
        return "below 0.0001"
    return f"{p:.4f}" if p < 0.01 else f"{p:.2f}"


def never_rejected(draft, variant):
    """Whether every proposal this draft can make is kept by the rule's test (core's keep chances).

    ``core.rates`` has keep chances for the table drafts only; lookup and heads are rejected sometimes."""
    if draft not in DRAFTS:
        return False
    return all(c.accept == 1 for c in rates.keep_chances(draft, variant))


# ---- temperature and top-k ---------------------------------------------------------------------

WHERE = {"Both models": "both", "Target only": "target", "Draft only": "draft"}
HELP = {
    "temperature": "T = 1/n raises each row to the power n and rescales it: lower T, sharper rows.",
    "top_k": "Keep only the k most likely tokens of each row (ties go to A, then B, then C).",
    "transform_at": "Verification must use the rows the output should follow. Applying it to the draft only "
                    "quietly breaks that.",
}

def transformation(transform):
    """The transformation in words: "temperature 1/2 and top-2", "temperature 1/3", "top-1"."""
    t, k = transform.temperature, transform.top_k
    if t != 1 and k is not None:
        return f"temperature {t} and top-{k}"
    if t != 1:
        return f"temperature {t}"
    return f"top-{k}"


def transform_reading(comparison, raw_distance, keeps_target):
    """One sentence on where the transformation was applied and what the output follows, or "" without one.

    ``raw_distance``: the exact distance of the output from the untransformed target (``core.exact``);
    ``keeps_target``: whether the verification rule is the exact one (or another rule that keeps p).
    """
    tr = comparison.transform
    if tr is None or tr.identity:
        return ""
    what = transformation(tr)
    was = "were" if tr.temperature != 1 and tr.top_k is not None else "was"
    d = display.exact_or_dec(comparison.distance, 4)
    if tr.at == "draft" and comparison.distance and raw_distance == 0:
        return (f"What went wrong: {what} {was} applied to the draft only, so verification used the untransformed "
                f"target and the output follows the untransformed target exactly (distance 0 from it), not the "
                f"transformed target you asked for: distance {d}. Apply it to the target as well.")
    if tr.at == "draft" and comparison.distance:
        return (f"What went wrong: {what} {was} applied to the draft only, so verification used the untransformed "
                f"target, and the output misses the transformed target you asked for by {d}.")
    if tr.at == "draft":
        return (f"{what.capitalize()} {was} applied to the draft only, so verification used the untransformed target; "
                f"here the first {plural(comparison.k, 'token')} happen to come out as the transformed target "
                f"would have them (distance 0), but in general they follow the untransformed target.")
    if comparison.distance == 0 and keeps_target and tr.at == "target":
        return (f"{what.capitalize()} {was} applied to the target only, and verification used that transformed "
                f"target: the rule corrects whatever the untransformed draft proposes, so the output follows "
                f"the transformed target exactly (distance 0); only the speed changes.")
    if comparison.distance == 0 and keeps_target:
        return (f"{what.capitalize()} {was} applied to both models, and verification used the transformed target: "
                f"the output follows the transformed target exactly (distance 0).")
    return (f"{what.capitalize()} {was} applied where verification sees it, so the distance of {d} comes from the "
            f"{comparison.variant} rule, not from the transformation.")


def rule_reading(comparison, rule, greedy_target):
    """What the exact result says (plain sentences): distance, the worst prefix, where the two part."""
    c, k = comparison, comparison.k
    what = f"{3 ** k} possible " + ("first tokens" if k == 1 else f"{NUMBER_WORDS[k]}-token starts")
    if c.variant == "greedy":
        return [f"The greedy rule always writes {label(greedy_target)}, and so does greedy decoding of the target"
                + (": that equality is its promise, and it holds." if c.greedy_equal else
                   ", yet here the two differ.")
                + f" But it is no sample from the target: it puts all its probability on one of the {what}, "
                  f"so its distance from the target's distribution is {display.exact_or_dec(c.distance, 3)}."]
    if c.distance == 0:
        if rule.keeps_target:
            out = [f"The {rule.name} rule keeps the target's distribution: each of the {what} comes out "
                   f"exactly as often as under the target (distance 0)."]
            if c.variant == "match-keep":
                out.append("It is exact, but it keeps a proposal only when an independent draw from p lands "
                           "on the same token, so most of the draft's work is thrown away.")
            return out
        if never_rejected(c.draft, c.variant):
            return [f"With the {c.draft} draft the {rule.name} rule happens to give the target's distribution "
                    f"(distance 0): its mistake only shows after a rejection, and this draft is never rejected. "
                    f"Switch to the biased draft."]
        return [f"With the {c.draft} draft and width {c.width} the {rule.name} rule happens to give the target's "
                f"distribution of the first {plural(k, 'token')} (distance 0)."]
    worst, difference = c.largest_gap()
    one = len(worst) == 1
    return [
        f"The {rule.name} rule starts the text with {label(worst)} with probability "
        f"{display.dec(c.result.get(worst, 0))}; the target does so with probability "
        f"{display.dec(c.target.get(worst, 0))}. That {'token' if one else 'start'} comes out "
        f"{'too often' if difference > 0 else 'too rarely'}"
        + (f", and the two part ways already at token {c.first_departure}." if c.first_departure else "."),
        f"Total-variation distance from the target: {display.exact_or_dec(c.distance, 4)}, the most by which the "
        f"two disagree on the chance of anything you could ask about the first "
        f"{'token' if k == 1 else f'{k} tokens'}.",
    ]


def sample_reading(done, sampling, chi_target, chi_rule, distance):
    """What the sample says, or "" before it has any runs."""
    if chi_target is None:
        return ""
    runs = f"{done:,} runs" + (" so far" if sampling else "")
    if chi_target.p_value >= LEVEL:
        text = (f"The {runs} agree with the target (chi-square p-value {p_value_text(chi_target.p_value)}: "
                f"no detectable difference).")
        if distance:
            text += " The bias is real but small; more runs would expose it."
    else:
        text = (f"The {runs} clearly differ from the target (chi-square p-value "
                f"{p_value_text(chi_target.p_value)}, far below {LEVEL}).")
        if not distance:
            text += " The exact distributions are equal, so this is one of the rare unlucky samples."
    if chi_rule.p_value >= LEVEL:
        text += (f" They match the rule's own exact distribution (p-value {p_value_text(chi_rule.p_value)}): "
                 f"the enumeration and the seeded runs tell the same story.")
    return text


def seeds_text(base_seed, runs):
    return f"seeds {base_seed:,} to {base_seed + runs - 1:,}"


def status_text(sampling, done, runs, seconds, base_seed):
    if sampling:
        return f"Sampling… {done:,} of {runs:,} runs"
    took = "" if seconds is None else f" in {seconds:.1f} s"
    return f"Sampled {done:,} runs{took}. Run 1 uses seed {base_seed:,}, run 2 the next seed, and so on."


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
    many = len(indices) > 1
    joined = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"position{'s' if many else ''} {joined}"


def agreement(spec, ordinary):
    """Where the speculative and the ordinary outputs agree: "for good" only when they never agree again."""
    same = matches(spec, ordinary)
    shared = shared_start(spec, ordinary)
    if shared == len(spec) == len(ordinary):
        return "This time they write the same text."
    later = [i for i in same if i > shared]
    if shared == 0:
        text = "They differ from the very first token"
    else:
        first = "first token" if shared == 1 else f"first {shared} tokens"
        text = f"They agree on the {first} (ringed), then part ways"
    if later:
        again = "" if shared == 0 else " again"
        return (text + f"; {positions_text(later)} match{'' if len(later) > 1 else 'es'}{again} (ringed), by "
                       f"chance: from the first difference on, each output is drawn after a different history.")
    return (text + (" and never agree again" if shared == 0 else " for good")
            + ": every later token is drawn after a different history, and none matches.")


def draw_uses(session):
    """Every draw a finished trace consumed, in order (``core.Trace.draws``), as ``[(u, what, token), ...]``."""
    return [(d.u, USES[d.use].format(block=d.block + 1, token=d.token,
                                     index=None if d.index is None else d.index + 1,
                                     verdict="kept" if d.status == "accepted" else "rejected"), d.token)
            for d in session.trace().draws()]


def draws_sentence(draws, spec, ordinary):
    return (f"Both read the same stream of random draws u, but use them for different things. Ordinary decoding "
            f"spends one draw per token. Speculative decoding spends a draw on each proposal, another on each "
            f"proposal it tests, and one on the correction or bonus: {draws} draws for these {len(spec)} tokens "
            f"against ordinary decoding's {len(ordinary)}. Over many seeds both give the same distribution (the "
            f"chart above); seed by seed, the text differs.")


# ---- the one-position calculator ------------------------------------------------------------

def either(tokens, word="or"):
    if len(tokens) == 1:
        return tokens[0]
    return ", ".join(tokens[:-1]) + f" {word} " + tokens[-1]


def residual_sentence(d, tokens):
    """What a rejection is replaced by, read off the residual of ``core.decompose``."""
    if d.rejection == 0:
        return ("Nothing is ever rejected (p and q agree wherever q proposes), so there is no residual to "
                "sample: the kept mass is already p.")
    can = [t for t, r in zip(tokens, d.residual) if r]
    cannot = [t for t, r in zip(tokens, d.residual) if not r]
    return (f"After a rejection the replacement is {either(can)}"
            + (f"; it can never be {either(cannot)}, the token{'s' if len(cannot) > 1 else ''} "
               f"the draft already supplies enough of" if cannot else "")
            + ".")


def field_message(error):
    """The line beside a calculator field: its parse error as a sentence, or "" when it reads fine."""
    return "" if not error else error[0].upper() + error[1:] + "."
