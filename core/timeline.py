"""Every moment of a trace, so the page can scrub it and step back.

A trace is fixed by its scenario (the seed fixes every draw), so the page
need not recompute anything to move through it: ``Timeline.of`` runs the
scenario once, keeping moment ``k`` = the session after ``k`` clicks of Next
step (``Stepping.step``), the very objects ``step()`` returns. A jump is an
index, and Step back from moment ``n`` is moment ``n - 1``. The URL's
``steps=N`` keeps its meaning: N clicks of Next step, which is moment N.

The other buttons land on the same moments. A session's moment is
``3 * blocks + {draft: 0, verify: 1, commit: 2}`` (``done`` after the last
commit counts like ``draft``): Draft, Verify and Commit are one Next step
each; Run block moves to the next block's start (three moments from a
block's start, fewer from mid-block); Run to end moves to the last moment;
Reset to moment 0. ``moment_of`` checks the session really is that moment.

``Mark`` says what each moment did, for the timeline strip: which block, which
phase it reached, each proposal's status, and how the block ended (a
correction, a bonus, an ordinary step, or none at the output limit).
Chains (``core.session``) and trees (``core.tree``) share it; a tree's nodes
are its proposals.
"""

from dataclasses import dataclass
from typing import Optional

from . import prng
from .engine import PhaseError
from .config import Config
from .session import Session

# The phase a Next step leads to, named by what just happened.
REACHED = {"verify": "drafted", "commit": "verified", "draft": "committed", "done": "committed"}
_OFFSET = {"draft": 0, "done": 0, "verify": 1, "commit": 2}


@dataclass(frozen=True)
class Mark:
    """What moment ``index`` shows, for one position of the timeline strip.

    ``block`` is the block the moment belongs to (the one drafted, verified
    or committed by the step that led here; None for moment 0). ``reached``
    is "start", "drafted", "verified" or "committed". ``statuses`` are that
    block's proposals' statuses at this moment ("proposed" until verified).
    ``ending`` is "correction", "bonus", "ordinary" (a block with no proposal)
    or None (not verified yet, or every proposal accepted at the output limit).
    ``passes`` counts target passes made so far (a verified, uncommitted block
    included: its pass has happened); ``tokens`` the committed output's length.
    """

    index: int
    block: Optional[int]
    reached: str
    statuses: tuple
    ending: Optional[str]
    passes: int
    tokens: int


def _ending(b):
    if not b.verified:
        return None
    if b.correction is not None:
        return "correction"
    if b.bonus is not None:
        return "ordinary" if not b.proposals else "bonus"
    return None


def _mark(index, s):
    if index == 0:
        return Mark(0, None, "start", (), None, 0, 0)
    b = s.pending if s.pending is not None else s.blocks[-1]
    passes = len(s.blocks) + (s.pending is not None and s.pending.verified)
    return Mark(index, b.index, REACHED[s.phase], tuple(x.status for x in b.proposals), _ending(b), passes,
                len(s.output))


def start_of(session):
    """The session at moment 0 of ``session``'s trace: same scenario, nothing drafted."""
    if hasattr(session, "candidates"):  # a core.tree.TreeSession (not imported: the chain's page need not load trees)
        return type(session)(session.config, session.candidates, session.rule, prng.seed(session.config.seed), "draft")
    return Session.start(session.config)


def moment_index(session):
    """The number of Next steps that lead from the start to ``session`` (no check that it does)."""
    return 3 * len(session.blocks) + _OFFSET[session.phase]


@dataclass(frozen=True)
class Timeline:
    """Moments ``0 .. last`` of one trace (``sessions``) and what each did (``marks``)."""

    sessions: tuple
    marks: tuple

    @classmethod
    def of(cls, session_or_config):
        """The whole trace of a scenario: a ``Config``, or any session of it (its start is rebuilt)."""
        s = Session.start(session_or_config) if isinstance(session_or_config, Config) else start_of(session_or_config)
        sessions = [s]
        while s.phase != "done":
            s = s.step()
            sessions.append(s)
        return cls(tuple(sessions), tuple(_mark(i, x) for i, x in enumerate(sessions)))

    @property
    def last(self):
        """The last moment: the finished trace (``steps=last`` shows it)."""
        return len(self.sessions) - 1

    def at(self, n):
        """The session after ``n`` Next steps: a jump is an index."""
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= self.last:
            raise PhaseError(f"this trace has moments 0 to {self.last}, got {n!r}")
        return self.sessions[n]

    def for_link(self, steps):
        """The moment a link's ``steps=N`` opens on: N clicks of Next step, stopping at the end
        as replaying them does (a link may ask for more steps than a short trace has)."""
        if isinstance(steps, bool) or not isinstance(steps, int) or steps < 0:
            raise PhaseError(f"steps must be a whole number from 0, got {steps!r}")
        return self.sessions[min(steps, self.last)]

    def moment_of(self, session):
        """Which moment ``session`` is, whichever buttons reached it; a session of another trace is refused."""
        n = moment_index(session)
        if n > self.last or self.sessions[n] != session:
            raise PhaseError("this session is not a moment of this trace (another scenario or seed)")
        return n

    def back(self, session):
        """Step back: the moment before ``session``'s (moment 0 has none)."""
        n = self.moment_of(session)
        if n == 0:
            raise PhaseError("Nothing to undo: this is the start of the trace.")
        return self.sessions[n - 1]

    def to_text(self):
        """One line per moment: what the CLI's ``trace --timeline`` prints."""
        lines = []
        for m in self.marks:
            head = f"moment {m.index:2d}  " + ("start" if m.block is None else f"block {m.block + 1} {m.reached}")
            what = "  ".join(x for x in (" ".join(m.statuses), m.ending) if x)
            lines.append(f"{head:<29}passes {m.passes}  tokens {m.tokens}  {what}".rstrip())
        return "\n".join(lines)

    def groups(self):
        """``(block, first moment, last moment)`` for each block: the strip's groups."""
        return tuple((b, 3 * b + 1, 3 * b + 3) for b in range(self.last // 3))
