"""Predict first: a student calls each proposal kept or rejected before Verify, and is judged fairly.

A call is scored against what the target pass then did, with the exact
chance of that outcome beside it, so a right call on a 1-in-10 outcome and a
wrong call on a 9-in-10 one both read as what they are. The benchmark is a
student who always calls the likelier outcome ("kept" when the acceptance
probability ``a`` is at least 1/2, ties included): at a tested proposal
that student is right with chance ``max(a, 1 - a)``.

Which proposals are tested is itself chance: verification stops at the
first rejection, and the proposals after it are discarded, never judged.
A call on a discarded proposal is *untested*: it counts neither as right nor
as wrong, and the benchmark counts nothing there either. Whether proposal
``i`` is tested depends only on the draws before its own, so summing
``max(a, 1 - a)`` over the tested calls gives the benchmark's expected right
calls on exactly those calls: the same calls the student is scored on
(``BlockCalls.expected_right``). ``expected_before_verify`` is the other
reading, before anything is drawn: each proposal weighted by the chance it
is tested at all, the product of the earlier acceptance probabilities.

After a rejection the correction is drawn from the replacement row
(``norm(max(p - q, 0))`` under the exact rule); the student may name the
tokens it can be, and ``SupportCheck`` compares that with the row's support.

Works for every rule in ``core.variants``: the acceptance probability is the
one the block records (``Proposal.accept_probability``), and for untested
proposals the rule's own ``accept_probability`` on the scored rows.
"""

from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

from toy_tables import TOKENS

from .variants import ALL_VARIANTS

KEPT, REJECTED = "kept", "rejected"
CALLS = (KEPT, REJECTED)
_INDEX = {t: i for i, t in enumerate(TOKENS)}
_HALF = Fraction(1, 2)


def likelier(a):
    """The likelier outcome when a proposal is kept with chance ``a``: "kept" on a tie."""
    return KEPT if a >= _HALF else REJECTED


@dataclass(frozen=True)
class Call:
    """One proposal's call and verdict.

    ``call`` is the student's ("kept", "rejected" or None for no call).
    ``tested`` says whether the target judged this proposal; when it did,
    ``outcome`` is what happened, ``accept_probability`` the exact chance it
    is kept, ``outcome_probability`` the chance of what happened, and
    ``right`` whether the call matched (None with no call). Untested:
    ``outcome`` and ``right`` are None; ``accept_probability`` is still the
    chance it would have had, had the proposals before it all been kept.
    """

    index: int
    token: str
    call: Optional[str]
    tested: bool
    outcome: Optional[str]
    accept_probability: Fraction
    outcome_probability: Optional[Fraction]
    likelier: str
    likelier_chance: Fraction
    right: Optional[bool]


@dataclass(frozen=True)
class SupportCheck:
    """The student's guess of the tokens the correction can be, against the replacement row's support.

    ``right`` when the two sets are equal; ``missing`` the possible tokens
    left out, ``extra`` the impossible ones named; ``covered`` the chance
    the correction falls in the named set; ``token`` the correction drawn.
    ``residual``, ``p`` and ``q`` are the rows at the rejected position (the
    correction's own), so a reveal can say why each token is in the support
    (under the exact rule, where p > q) from this one record.
    """

    support: tuple
    predicted: tuple
    right: bool
    missing: tuple
    extra: tuple
    covered: Fraction
    token: str
    residual: tuple = ()
    p: tuple = ()
    q: tuple = ()


@dataclass(frozen=True)
class BlockCalls:
    """Every call of one verified block.

    ``right`` and ``scored`` count the tested calls (``scored`` is how many
    of the student's calls were tested), ``untested`` the calls on discarded
    proposals, ``skipped`` the proposals with no call. ``expected_right``:
    the always-likelier student's expected right calls on the same scored
    calls. ``support`` is None when nothing was rejected or no guess given.
    """

    calls: tuple
    right: int
    scored: int
    untested: int
    skipped: int
    expected_right: Fraction
    expected_before_verify: Fraction
    support: Optional[SupportCheck]


def _check_block(block):
    if not getattr(block, "verified", False):
        raise ValueError("calls are judged after Verify: this block is not verified yet")


def _accept_chances(block, variant):
    """Each proposal's chance of being kept if judged: recorded for tested ones, the rule's own for the rest."""
    v = ALL_VARIANTS[variant]
    out = []
    for x in block.proposals:
        if x.accept_probability is not None:
            out.append(x.accept_probability)
        else:
            out.append(v.accept_probability(x.p, x.q, _INDEX[x.token]))
    return out


def check_support(block, predicted):
    """Compare ``predicted`` (tokens, e.g. ("B", "C") or "BC") with the support of the block's correction row."""
    _check_block(block)
    c = block.correction
    if c is None:
        raise ValueError("nothing was rejected in this block, so there is no correction to predict")
    guess = tuple(predicted)
    unknown = [t for t in guess if t not in _INDEX]
    if unknown:
        raise ValueError(f"the tokens are {', '.join(TOKENS)}; {unknown[0]!r} is not one of them")
    named = set(guess)
    support = tuple(t for t, r in zip(TOKENS, c.residual) if r)
    missing = tuple(t for t in support if t not in named)
    extra = tuple(t for t in TOKENS if t in named and t not in support)
    covered = sum((r for t, r in zip(TOKENS, c.residual) if t in named), Fraction(0))
    return SupportCheck(support, tuple(t for t in TOKENS if t in named), named == set(support), missing, extra,
                        covered, c.token, tuple(c.residual), tuple(c.p), tuple(c.q))


def judge_calls(block, calls, variant="exact", support=None):
    """Score ``calls`` (one per proposal: "kept", "rejected" or None) on a verified ``block``.

    ``support``, when given, is the student's guess of the correction's
    possible tokens (``check_support``). A ValueError says what is wrong
    with the arguments in one sentence.
    """
    _check_block(block)
    if variant not in ALL_VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; choose one of: {', '.join(ALL_VARIANTS)}")
    calls = tuple(calls)
    if len(calls) != len(block.proposals):
        raise ValueError(f"give one call per proposal: the block has {len(block.proposals)}, got {len(calls)}")
    for c in calls:
        if c is not None and c not in CALLS:
            raise ValueError(f"a call is 'kept' or 'rejected' (or None for no call), got {c!r}")
    chances = _accept_chances(block, variant)
    out, right, scored, untested, skipped = [], 0, 0, 0, 0
    expected, before, reach = Fraction(0), Fraction(0), Fraction(1)
    for x, call, a in zip(block.proposals, calls, chances):
        best = max(a, 1 - a)
        before += reach * best
        reach *= a
        tested = x.status in ("accepted", "rejected")
        outcome = (KEPT if x.status == "accepted" else REJECTED) if tested else None
        hit = None
        if call is None:
            skipped += 1
        elif tested:
            hit = call == outcome
            right += hit
            scored += 1
            expected += best
        else:
            untested += 1
        out.append(Call(x.index, x.token, call, tested, outcome, a,
                        None if not tested else (a if outcome == KEPT else 1 - a), likelier(a), best, hit))
    guess = None if support is None else check_support(block, support)
    return BlockCalls(tuple(out), right, scored, untested, skipped, expected, before, guess)


@dataclass(frozen=True)
class Tally:
    """The running tally over blocks: what the page shows beside the calls.

    ``expected_right`` is the always-likelier student's expected right calls
    on the same scored calls, so ``right - expected_right`` is how far the
    student is ahead of (or behind) calling the likelier outcome every time.
    """

    blocks: int = 0
    scored: int = 0
    right: int = 0
    expected_right: Fraction = Fraction(0)
    untested: int = 0
    support_guesses: int = 0
    support_right: int = 0

    def add(self, result):
        """The tally with one more block's ``BlockCalls``."""
        s = result.support
        return Tally(self.blocks + 1, self.scored + result.scored, self.right + result.right,
                     self.expected_right + result.expected_right, self.untested + result.untested,
                     self.support_guesses + (s is not None), self.support_right + (s is not None and s.right))

    @property
    def ahead(self):
        return self.right - self.expected_right


def tally(results):
    """The tally of several blocks' ``BlockCalls``, in order."""
    out = Tally()
    for r in results:
        out = out.add(r)
    return out
