"""Frozen records of a trace: everything the inspector and the JSON show.

Records are built by ``session`` from the raw output of ``block``; they are
never mutated. Draws are stored as the 32-bit integer ``k`` and exposed as
the exact rational ``u = k / 2**32`` so a reader can check every decision.
"""

from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

from .prng import as_u


def _u(k):
    return None if k is None else as_u(k)


def _frac(x):
    return None if x is None else str(x)


def _row(row):
    return None if row is None else [str(x) for x in row]


class Drafted:
    """A drafted token, the draws that picked and judged it, and its JSON: shared
    by a chain's ``Proposal`` and a tree's ``core.tree.Node`` (whose JSON is a
    proposal's with fields added)."""

    @property
    def u_draft(self):
        """The draw that picked this token from ``q``."""
        return _u(self.draft_k)

    @property
    def u(self):
        """The draw that judged this proposal."""
        return _u(self.k)

    def to_dict(self):
        return {
            "token": self.token,
            "q": _row(self.q),
            "p": _row(self.p),
            "q_x": str(self.q_x),
            "p_x": _frac(self.p_x),
            "ratio": _frac(self.ratio),
            "accept_probability": _frac(self.accept_probability),
            "u_draft": _frac(self.u_draft),
            "u": _frac(self.u),
            "y": self.y,
            "status": self.status,
        }


class Round:
    """One draft → verify → commit round and its JSON: shared by a chain's
    ``Block`` and a tree's ``core.tree.TreeBlock``."""

    @property
    def ordinary_step(self):
        """True for a verified block that had nothing to propose: an ordinary decoding step."""
        return self.verified and not self.proposals

    def count(self, status):
        return sum(1 for x in self.proposals if x.status == status)

    def _proposals_json(self):
        return [x.to_dict() for x in self.proposals]

    def to_dict(self):
        return {
            "prefix": list(self.prefix),
            "proposals": self._proposals_json(),
            "correction": None if self.correction is None else self.correction.to_dict(),
            "bonus": None if self.bonus is None else self.bonus.to_dict(),
            "committed": list(self.committed),
            "stopped_early": self.stopped_early,
            "width": self.width,
            "ordinary_step": self.ordinary_step,
        }


@dataclass(frozen=True)
class Proposal(Drafted):
    """One drafted token at one position of a block.

    ``p``, ``p_x``, ``ratio`` and ``accept_probability`` are None until the
    target pass has scored the block. A discarded proposal was scored (the
    pass covers every position) but never judged: its prefix contains a
    rejected token, so it has no ``u`` and no acceptance probability.
    """

    index: int
    prefix: tuple
    token: str
    q: tuple
    q_x: Fraction
    draft_k: Optional[int]
    status: str = "proposed"
    p: Optional[tuple] = None
    p_x: Optional[Fraction] = None
    ratio: Optional[Fraction] = None
    accept_probability: Optional[Fraction] = None
    k: Optional[int] = None
    y: Optional[str] = None

    def __init__(self, index, prefix, token, q, q_x, draft_k, status="proposed", p=None, p_x=None, ratio=None,
                 accept_probability=None, k=None, y=None):
        # Written out because a frozen dataclass's generated __init__ costs a
        # call per field, and proposals are the engine's most built record;
        # filling __dict__ directly keeps the record frozen to every caller.
        d = self.__dict__
        d["index"], d["prefix"], d["token"], d["q"], d["q_x"], d["draft_k"], d["status"] = (
            index, prefix, token, q, q_x, draft_k, status)
        d["p"], d["p_x"], d["ratio"], d["accept_probability"], d["k"], d["y"] = p, p_x, ratio, accept_probability, k, y


@dataclass(frozen=True)
class Correction:
    """The replacement for the first rejected proposal.

    ``residual`` is the row it was drawn from: ``norm(max(p - q, 0))`` under
    the exact rule; other variants draw from elsewhere (``source``).
    ``rejection`` is ``1 - sum(min(p, q))``, the chance this position rejects.
    """

    prefix: tuple
    p: tuple
    q: tuple
    residual: tuple
    rejection: Fraction
    source: str
    k: Optional[int]
    token: str

    def __init__(self, prefix, p, q, residual, rejection, source, k, token):
        # Written out for speed, like Proposal's.
        self.__dict__.update(prefix=prefix, p=p, q=q, residual=residual, rejection=rejection, source=source, k=k,
                             token=token)

    @property
    def u(self):
        return _u(self.k)

    def to_dict(self):
        return {
            "residual": _row(self.residual),
            "u": _frac(self.u),
            "token": self.token,
            "p": _row(self.p),
            "q": _row(self.q),
            "rejection": str(self.rejection),
            "source": self.source,
        }


@dataclass(frozen=True)
class Bonus:
    """The extra target token after a fully accepted block (Algorithm 1's last step)."""

    prefix: tuple
    p: tuple
    k: Optional[int]
    token: str

    def __init__(self, prefix, p, k, token):
        # Written out for speed, like Proposal's.
        self.__dict__.update(prefix=prefix, p=p, k=k, token=token)

    @property
    def u(self):
        return _u(self.k)

    def to_dict(self):
        return {"p": _row(self.p), "u": _frac(self.u), "token": self.token}


@dataclass(frozen=True)
class Block(Round):
    """One draft → verify → commit round: at most one target pass.

    ``width`` is the width the block was allowed (the schedule's choice; it
    drafts ``min(width, tokens left)`` proposals, fewer when lookahead stops
    early or lookup runs out of text to copy). A block with no proposal is an
    *ordinary step* (``ordinary_step``): one target pass and one token drawn
    from ``p``, recorded in ``bonus`` (Algorithm 1 with zero proposals: the
    final draw from ``p`` is all that is left) but counted apart from bonuses.
    """

    index: int
    prefix: tuple
    proposals: tuple
    correction: Optional[Correction] = None
    bonus: Optional[Bonus] = None
    committed: tuple = ()
    stopped_early: bool = False
    verified: bool = False
    width: Optional[int] = None

    def __init__(self, index, prefix, proposals, correction=None, bonus=None, committed=(), stopped_early=False,
                 verified=False, width=None):
        # Written out for speed, like Proposal's.
        self.__dict__.update(index=index, prefix=prefix, proposals=proposals, correction=correction, bonus=bonus,
                             committed=committed, stopped_early=stopped_early, verified=verified, width=width)


@dataclass(frozen=True)
class Counters:
    """Algorithmic counts, not measured latency.

    ``ordinary_passes`` is what ordinary decoding would need for the same
    output: one target pass per committed token. ``early_stops`` counts
    blocks whose drafting dynamic lookahead cut short. ``ordinary_steps``
    counts blocks with no proposal (lookup found nothing to copy): their one
    token from ``p`` is not a bonus. So ``committed == accepted + corrections
    + bonus + ordinary_steps`` always.
    """

    target_passes: int = 0
    draft_steps: int = 0
    proposed: int = 0
    accepted: int = 0
    rejected: int = 0
    discarded: int = 0
    corrections: int = 0
    bonus: int = 0
    committed: int = 0
    early_stops: int = 0
    ordinary_steps: int = 0

    @property
    def tokens_per_pass(self):
        return Fraction(self.committed, self.target_passes) if self.target_passes else None

    @property
    def draft_tokens_per_pass(self):
        return Fraction(self.draft_steps, self.target_passes) if self.target_passes else None

    @property
    def ordinary_passes(self):
        return self.committed

    @classmethod
    def of(cls, blocks):
        tally = {"accepted": 0, "rejected": 0, "discarded": 0, "proposed": 0}
        proposed = corrections = bonus = committed = early_stops = ordinary = 0
        for b in blocks:
            for x in b.proposals:
                tally[x.status] += 1
            proposed += len(b.proposals)
            corrections += b.correction is not None
            bonus += b.bonus is not None
            ordinary += not b.proposals  # a committed block with no proposal: its bonus is the ordinary step
            committed += len(b.committed)
            early_stops += b.stopped_early
        return cls(len(blocks), proposed, proposed, tally["accepted"], tally["rejected"], tally["discarded"],
                   corrections, bonus - ordinary, committed, early_stops, ordinary)

    def to_dict(self):
        return {
            "target_passes": self.target_passes,
            "draft_steps": self.draft_steps,
            "proposed": self.proposed,
            "accepted": self.accepted,
            "rejected": self.rejected,
            "discarded": self.discarded,
            "corrections": self.corrections,
            "bonus": self.bonus,
            "committed": self.committed,
            "early_stops": self.early_stops,
            "ordinary_steps": self.ordinary_steps,
            "tokens_per_pass": _frac(self.tokens_per_pass),
            "ordinary_passes": self.ordinary_passes,
        }
