"""Verification rules, selectable by name, all run by the one block machinery.

Each ``Variant`` says how a block is judged in two equivalent forms:

* the *mechanism*, which consumes draws from the PRNG (used by sessions and
  the many-run sampler), and
* the *branches*, exact Fraction distributions of the same mechanism (used by
  ``exact`` to enumerate output distributions and by the inspector to show
  the acceptance probability and the replacement row).

``exact`` is the paper's rule. The others are here to be compared with it:
two tempting shortcuts that bias the output, one that is exact but wasteful,
and the greedy rule of blockwise parallel decoding, which promises something
else (equality with greedy decoding of the target).

``IN_THE_WILD`` holds rules that real engines shipped or proposed, beside
the classroom ones (issue 28): greedy drafting verified as if the draft had
sampled (wrong), the same drafting verified with q one-hot (exact: vLLM's
fix), and Medusa's typical acceptance (lossy by design). ``ALL_VARIANTS`` is every rule
the engine runs (sessions, ``exact``, the sampler, the CLI); ``VARIANTS``
the ones the app lists today, as ``core.drafts`` has ``ALL_DRAFTS`` beside
the table drafts. Exact-match acceptance (sample y from p, keep the
proposal only if y equals it: ml-explore/mlx-lm#1709) is ``match-keep``.
"""

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from . import rule, typical
from .prng import step
from .rule import pick


@dataclass(frozen=True)
class Variant:
    name: str
    title: str
    summary: str
    keeps_target: bool
    # mechanism: integer rows, one PRNG state threaded through
    propose: Callable
    judge: Callable
    replace: Callable
    bonus: Callable
    # branches: exact Fraction distributions of the mechanism
    propose_dist: Callable
    accept_probability: Callable
    replace_dist: Callable
    bonus_dist: Callable
    replace_source: str


def one_hot(index, size=3):
    return tuple(Fraction(int(i == index)) for i in range(size))


# ---- mechanisms ------------------------------------------------------------

def sample_row(weights, total, rng):
    rng, k = step(rng)
    return rng, pick(weights, total, k), k


propose_sample = sample_row  # a draft token from q: one draw, inverse CDF


def propose_greedy(q_w, q_den, rng):
    return rng, rule.argmax(q_w), None


def judge_ratio(p_w, p_den, q_w, q_den, x, rng):
    rng, k = step(rng)
    return rng, rule.accepts(p_w[x], p_den, q_w[x], q_den, k), k, None


def judge_match(p_w, p_den, q_w, q_den, x, rng):
    rng, y, k = sample_row(p_w, p_den, rng)
    return rng, y == x, k, y


def judge_greedy(p_w, p_den, q_w, q_den, x, rng):
    return rng, rule.argmax(p_w) == x, None, None


def judge_one_hot(p_w, p_den, q_w, q_den, x, rng):
    """``u < p(x)``: the ratio test with q one-hot at the greedy proposal."""
    rng, k = step(rng)
    return rng, rule.accepts(p_w[x], p_den, 1, 1, k), k, None


def judge_typical(p_w, p_den, q_w, q_den, x, rng):
    """Medusa's cut on p alone (``core.typical``): no draw, q is not read."""
    return rng, typical.accepts_weights(p_w, x), None, None


def replace_residual(p_w, p_den, q_w, q_den, x, y, rng):
    weights = rule.residual_weights(p_w, p_den, q_w, q_den)
    return sample_row(weights, sum(weights), rng)


def replace_target(p_w, p_den, q_w, q_den, x, y, rng):
    return sample_row(p_w, p_den, rng)


def replace_keep_y(p_w, p_den, q_w, q_den, x, y, rng):
    return rng, y, None


def replace_without_x(p_w, p_den, q_w, q_den, x, y, rng):
    """The residual when q is one-hot at x: p with x removed, renormalised."""
    weights = tuple(0 if i == x else w for i, w in enumerate(p_w))
    return sample_row(weights, sum(weights), rng)


def replace_greedy(p_w, p_den, q_w, q_den, x, y, rng):
    return rng, rule.argmax(p_w), None


bonus_sample = sample_row  # a bonus token from p: one draw, inverse CDF


def bonus_greedy(p_w, p_den, rng):
    return rng, rule.argmax(p_w), None


# ---- branches --------------------------------------------------------------

def identity(row):
    return row


def greedy_row(row):
    return one_hot(rule.argmax(row), len(row))


def ratio_accept(p, q, x):
    return rule.accept_probability(p[x], q[x])


def match_accept(p, q, x):
    return p[x]


def greedy_accept(p, q, x):
    return Fraction(int(rule.argmax(p) == x))


def one_hot_accept(p, q, x):
    return p[x]


def typical_accept(p, q, x):
    return Fraction(int(typical.accepts(p, x)))


def residual_dist(p, q, x):
    return rule.residual(p, q)


def target_dist(p, q, x):
    return p


def target_without_x(p, q, x):
    """``p`` given that the draw y was not x: what match-keep commits on a mismatch."""
    rest = 1 - p[x]
    if rest == 0:
        return tuple(Fraction(0) for _ in p)
    return tuple(Fraction(0) if i == x else v / rest for i, v in enumerate(p))


def greedy_dist(p, q, x):
    return greedy_row(p)


VARIANTS = {
    v.name: v
    for v in (
        Variant(
            "exact", "Exact rule (Algorithm 1)",
            "Accept x when u < p(x)/q(x); on rejection sample the residual norm(max(p - q, 0)). "
            "The output follows the target distribution exactly.",
            True, propose_sample, judge_ratio, replace_residual, bonus_sample,
            identity, ratio_accept, residual_dist, identity, "residual",
        ),
        Variant(
            "naive-resample", "Resample from p on rejection",
            "Same acceptance test, but a rejected position is refilled from p itself. The mass that "
            "accepted proposals already supplied is counted twice, so tokens the draft over-proposes "
            "come out too often.",
            False, propose_sample, judge_ratio, replace_target, bonus_sample,
            identity, ratio_accept, target_dist, identity, "target",
        ),
        Variant(
            "match-fresh", "Keep only matching draws, then redraw",
            "Draw y from p and keep the proposal only if y equals it; on a mismatch commit a fresh "
            "draw from p. A kept proposal has probability q(x)p(x), a redraw adds (1 - sum q*p)p(x): "
            "the result leans towards what the draft proposes.",
            False, propose_sample, judge_match, replace_target, bonus_sample,
            identity, match_accept, target_dist, identity, "target",
        ),
        Variant(
            "match-keep", "Keep only matching draws, else keep the target's draw",
            "Draw y from p; keep the proposal if y equals it, otherwise commit y. The output is exactly "
            "p, since y was drawn from p either way, but a proposal survives only with probability "
            "sum q*p: exact, yet it wastes most of the draft.",
            True, propose_sample, judge_match, replace_keep_y, bonus_sample,
            identity, match_accept, target_without_x, identity, "match",
        ),
        Variant(
            "greedy", "Greedy blockwise decoding",
            "The draft proposes its most likely tokens; the target keeps the prefix that matches its own "
            "most likely tokens and replaces the first mismatch with its own choice. The output equals "
            "greedy decoding of the target, a different promise from sampling.",
            False, propose_greedy, judge_greedy, replace_greedy, bonus_greedy,
            greedy_row, greedy_accept, greedy_dist, greedy_row, "greedy",
        ),
    )
}


IN_THE_WILD = {
    v.name: v
    for v in (
        Variant(
            "greedy-draft", "Greedy drafting, sampled verification",
            "The draft proposes its most likely token, but verification still accepts with min(1, p(x)/q(x)) "
            "and corrects from norm(max(p - q, 0)) using the draft's soft q, as if x had been drawn from q. "
            "It was not: the rule's proof needs the proposal to follow q, so the output leans towards the "
            "draft's favourites (jaymody/speculative-sampling#3).",
            False, propose_greedy, judge_ratio, replace_residual, bonus_sample,
            greedy_row, ratio_accept, residual_dist, identity, "residual",
        ),
        Variant(
            "greedy-one-hot", "Greedy drafting, verified as one-hot",
            "The draft proposes its most likely token and verification treats q as one-hot there, as it is: "
            "accept with chance p(x), else draw from p without x, renormalised (the residual of a one-hot q). "
            "Exact, and the fix for greedy-draft; it keeps a proposal with chance p(argmax q) "
            "(vllm-project/vllm#40651).",
            True, propose_greedy, judge_one_hot, replace_without_x, bonus_sample,
            greedy_row, one_hot_accept, target_without_x, identity, "residual",
        ),
        Variant(
            "typical", "Typical acceptance (Medusa)",
            "Keep a proposal x when p(x) > min(0.09, 0.3 * exp(-H(p))), the target's own entropy setting the bar; "
            "no draw, q is not read. After a rejection commit a fresh draw from p, after a full acceptance a "
            "bonus from p. It keeps more than the exact rule, and the output follows the draft wherever the "
            "bar lets its proposals through: lossy by design (Cai et al. 2024; vLLM's typical acceptance "
            "sampler, with its default parameters).",
            False, propose_sample, judge_typical, replace_target, bonus_sample,
            identity, typical_accept, target_dist, identity, "target",
        ),
    )
}

ALL_VARIANTS = {**VARIANTS, **IN_THE_WILD}
