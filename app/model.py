"""The widget's state: a ``param.Parameterized`` wrapping ``core.Session``.

The HoloViz way (Panel's "build a todo app" and "structure a data store"
tutorials): annotated, documented parameters; actions as methods; derived
values as methods that views bind to. Views never touch ``core.Session``
directly, and nothing here does probability math: every number a view shows
is a field of a ``core`` record (``core.decompose`` included).

Errors never escape an action: a wrong-phase click (``core.PhaseError``) or a
bad scenario (``core.ConfigError``) becomes a one-line ``notice``; anything
unexpected becomes a short notice too, the trace stays as it was, and the
traceback is kept in ``error_trace`` (and printed for the server log or the
browser console) instead of reaching the page.
"""

import sys
import traceback
from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

import param

import core
from core.display import dec

from . import urlstate

LABELS = {
    "draft": "Draft",
    "verify": "Verify",
    "commit": "Commit",
    "step": "Next step",
    "run_block": "Run block",
    "run_to_end": "Run to end",
    "reset": "Reset",
}
ACTIONS = tuple(LABELS)

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")

# Phases performed so far in a block, for the "steps" a link can replay.
_PHASES_DONE = {"draft": 0, "verify": 1, "commit": 2, "done": 0}


def count(n, noun, plural=None):
    """``count(1, "token") == "one token"``; ``count(3, "token") == "three tokens"``."""
    word = NUMBERS[n] if 0 <= n < len(NUMBERS) else str(n)
    return f"{word} {noun if n == 1 else (plural or noun + 's')}"


def ordinal(i):
    """Ordinal for a 0-based position: ``ordinal(0) == "first"``."""
    return ORDINALS[i] if 0 <= i < len(ORDINALS) else f"#{i + 1}"


def tokens(seq):
    return " ".join(seq) if seq else "nothing"


@dataclass(frozen=True)
class Inspected:
    """One position of one block, resolved for the inspector.

    ``item`` is a proposal index or ``"bonus"``. ``decomposition`` is
    ``core.decompose(p, q)`` for a proposal the target has scored.
    """

    block: core.Block
    item: object
    pending: bool
    proposal: Optional[core.Proposal] = None
    bonus: Optional[core.Bonus] = None
    correction: Optional[core.Correction] = None
    decomposition: Optional[core.Decomposition] = None


def interesting_item(block):
    """Where the inspector should land on ``block``: the rejection, else the bonus, else the last proposal."""
    for proposal in block.proposals:
        if proposal.status == "rejected":
            return proposal.index
    if block.bonus is not None:
        return "bonus"
    return block.proposals[-1].index if block.proposals else 0


class Model(param.Parameterized):
    """State of the "Step through a block" view."""

    draft = param.Selector(default="aligned", objects=list(core.DRAFTS), doc="""
        Which draft model proposes tokens: "aligned" uses exactly the target's
        table (everything is accepted), "biased" strongly favours A.""")

    width = param.Integer(default=3, bounds=(1, core.MAX_WIDTH), doc="""
        How many tokens the draft proposes per block (gamma in the paper).""")

    seed = param.Integer(default=0, bounds=(0, urlstate.SEED_MAX), doc="""
        Seed of the random draws: the same seed gives the same trace.""")

    lookahead = param.Selector(default=urlstate.LOOKAHEAD_OFF, objects=list(urlstate.LOOKAHEADS), doc="""
        Dynamic lookahead: "off" drafts the full width every block; a threshold
        such as "0.50" stops drafting after a guess whose own draft probability
        q(x) is below it (the draft is unsure, so later guesses are likely wasted).""")

    session = param.ClassSelector(class_=core.Session, doc="""
        The current trace: a frozen core.Session record, replaced by every action.""")

    focus = param.Tuple(default=None, allow_None=True, length=2, doc="""
        The position the inspector shows: (block index, proposal index or "bonus").
        The pending block has index len(session.blocks).""")

    happened = param.String(default="", doc="""
        One sentence: what the last click did. The caption adds what comes next.""")

    notice = param.String(default="", doc="""
        A one-line notice in plain text (a bad link value, an unexpected error); "" for none.""")

    error_trace = param.String(default="", doc="""
        Traceback of the last unexpected error, kept for debugging; never shown on the page.""")

    hidden = param.ClassSelector(class_=frozenset, default=frozenset(), doc="""
        Parts of the page a link hid with NAME_hide=1 (see urlstate.HIDEABLE).""")

    def __init__(self, **params):
        super().__init__(**params)
        if self.session is None:
            self.session = core.Session.start(self._config())
        if not self.happened:
            self.happened = "Nothing has happened yet: the output is empty and no block has been drafted."
        self._restarting = False

    # ---- the scenario ---------------------------------------------------------

    def _config(self):
        lookahead = None if self.lookahead == urlstate.LOOKAHEAD_OFF else Fraction(self.lookahead)
        return core.Config(draft=self.draft, width=self.width, seed=self.seed, lookahead=lookahead)

    @param.depends("draft", "width", "seed", "lookahead", watch=True)
    def _on_scenario(self):
        if self._restarting:
            return
        self._guard(self._restart_after_change)

    def _restart_after_change(self):
        old = self.session.config
        changes = []
        if self.draft != old.draft:
            changes.append(f"switched to the {self.draft} draft")
        if self.width != old.width:
            changes.append(f"set the width to {self.width}")
        if self.seed != old.seed:
            changes.append(f"changed the seed to {self.seed}")
        new_lookahead = self._config().lookahead
        if new_lookahead != old.lookahead:
            changes.append("turned dynamic lookahead off" if new_lookahead is None else
                           f"set dynamic lookahead to stop after a guess with q(x) below {self.lookahead}")
        session = core.Session.start(self._config())
        what = " and ".join(changes) if changes else "changed the scenario"
        self.param.update(
            session=session, focus=None, notice="",
            happened=f"You {what}, so the trace started over: the output is empty and the counters are zero.",
        )

    def open_link(self, url):
        """Apply a ``urlstate.UrlState``: scenario, hidden parts, steps to replay, notice."""
        def apply():
            values = url.values
            self._restarting = True
            try:
                self.param.update(draft=values["draft"], width=values["width"], seed=values["seed"],
                                  lookahead=values["lookahead"])
            finally:
                self._restarting = False
            session = core.Session.start(self._config())
            for _ in range(values.get("steps", 0)):
                if session.phase == "done":
                    break
                session = session.step()
            focus = None
            block = session.pending or (session.blocks[-1] if session.blocks else None)
            if block is not None:
                focus = (block.index, interesting_item(block) if block.verified else 0)
            self.param.update(
                session=session, focus=focus, hidden=frozenset(url.hidden), notice=url.notice,
                happened=(f"Opened the scenario from the link: the {self.draft} draft, width {self.width}, "
                          f"seed {self.seed}."
                          + (f" It replayed {count(values['steps'], 'step')}." if values.get("steps") else "")),
            )
        self._guard(apply)

    def scenario(self):
        """The values a link needs to reopen what is on screen (see ``urlstate.PROPS``)."""
        return {"draft": self.draft, "width": self.width, "seed": self.seed, "lookahead": self.lookahead,
                "steps": self.steps_done()}

    def steps_done(self):
        """Clicks of "Next step" that lead from a fresh trace to the current one."""
        s = self.session
        return 3 * len(s.blocks) + _PHASES_DONE[s.phase]

    # ---- actions -------------------------------------------------------------

    def can(self, action):
        """Whether the button for ``action`` should be enabled."""
        try:
            return bool(self.session.can(action))
        except Exception:
            return False

    def act(self, action):
        """Perform ``action`` (one of ``ACTIONS``) and describe it; never raises."""
        self._guard(lambda: self._act(action))

    def _act(self, action):
        before = self.session
        if action == "reset":
            after = before.reset()
            self.param.update(
                session=after, focus=None, notice="",
                happened="The trace was reset: the output is empty and the counters are zero.",
            )
            return
        try:
            after = getattr(before, action)()
        except core.PhaseError as error:
            self.notice = f"{LABELS[action]} is not possible right now. {error}"
            return
        self.param.update(session=after, focus=self._focus_after(after), notice="",
                          happened=self._describe(action, before, after))

    def next_step(self):
        self.act("step")

    def _guard(self, fn):
        try:
            fn()
        except core.ConfigError as error:
            self.notice = f"That scenario cannot run: {error}."
        except Exception:
            self.report_error()

    def report_error(self, exc=None):
        """Keep the trace for debugging, show a short message, leave the session as it was."""
        self.error_trace = traceback.format_exc() if exc is None else "".join(
            traceback.format_exception(type(exc), exc, exc.__traceback__))
        print(self.error_trace, file=sys.stderr)
        self.notice = ("Something went wrong inside the widget, so that click was ignored and the trace "
                       "was left as it was. Reset or reload the page to continue.")

    # ---- focus (what the inspector shows) ---------------------------------------

    @staticmethod
    def _focus_after(session):
        if session.pending is not None:
            block = session.pending
            return (block.index, interesting_item(block) if block.verified else 0)
        if session.blocks:
            block = session.blocks[-1]
            return (block.index, interesting_item(block))
        return None

    def blocks_in_view(self):
        """Finished blocks, then the pending one (if any)."""
        s = self.session
        return s.blocks + ((s.pending,) if s.pending is not None else ())

    def positions(self):
        """Every position the inspector can show, as (label, focus) pairs."""
        out = []
        for block in self.blocks_in_view():
            pending = block is self.session.pending
            name = f"Block {block.index + 1}" + (" (current)" if pending else "")
            for proposal in block.proposals:
                out.append((f"{name} · position {proposal.index + 1}: {proposal.token}, {proposal.status}",
                            (block.index, proposal.index)))
            if block.bonus is not None:
                out.append((f"{name} · bonus: {block.bonus.token}", (block.index, "bonus")))
        return out

    def inspected(self):
        """The ``Inspected`` record for ``focus``, or None when nothing is selected."""
        if self.focus is None:
            return None
        index, item = self.focus
        block = next((b for b in self.blocks_in_view() if b.index == index), None)
        if block is None:
            return None
        pending = block is self.session.pending
        if item == "bonus":
            if block.bonus is None:
                return None
            return Inspected(block, item, pending, bonus=block.bonus)
        if not isinstance(item, int) or not 0 <= item < len(block.proposals):
            return None
        proposal = block.proposals[item]
        correction = block.correction if proposal.status == "rejected" else None
        decomposition = core.decompose(proposal.p, proposal.q) if proposal.p is not None else None
        return Inspected(block, item, pending, proposal=proposal, correction=correction,
                         decomposition=decomposition)

    def inspect(self, focus):
        """Show ``focus`` in the inspector (a click on a chip, the picker or the history)."""
        self.focus = tuple(focus) if focus is not None else None

    # ---- words -------------------------------------------------------------------

    def _describe(self, action, before, after):
        """What ``action`` did, in one or two sentences a student can follow."""
        if action == "step":
            action = before.next_action
        if action == "draft":
            return self._said_draft(after.pending, after)
        if action == "verify":
            return self._said_verify(after.pending)
        if action == "commit":
            return self._said_commit(after.blocks[-1], after)
        if action == "run_block":
            block = after.blocks[-1]
            early = self._said_early_stop(block) + " " if block.stopped_early else ""
            return (f"Block {block.index + 1} ran through Draft, Verify and Commit in one go. " + early
                    + self._said_verify(block, past=True) + " " + self._said_commit(block, after, lead=False))
        if action == "run_to_end":
            c = after.counters
            ran = len(after.blocks) - len(before.blocks)
            return (f"Ran {count(ran, 'more block')} to the end. The output is {tokens(after.output)}: "
                    f"{count(c.committed, 'token')} from {count(c.target_passes, 'target pass', 'target passes')}.")
        return f"{LABELS.get(action, action)} done."

    def _said_draft(self, block, session):
        n = len(block.proposals)
        text = (f"The draft model proposed {count(n, 'token')}: {tokens(p.token for p in block.proposals)}. "
                f"{'It is' if n == 1 else 'They are'} not in the output yet.")
        if block.stopped_early:
            text += " " + self._said_early_stop(block)
        elif n < self.width:
            text += f" (Only {NUMBERS[n] if n < len(NUMBERS) else n}: the output has room for no more.)"
        return text

    def _said_early_stop(self, block):
        last = block.proposals[-1]
        return (f"Dynamic lookahead stopped drafting after {count(len(block.proposals), 'guess', 'guesses')}: the "
                f"draft gave its own guess {last.token} only q = {dec(last.q_x)}, below the threshold "
                f"{self.lookahead}.")

    def _said_verify(self, block, past=False):
        n = len(block.proposals)
        accepted = block.count("accepted")
        rejected = [p for p in block.proposals if p.status == "rejected"]
        discarded = block.count("discarded")
        if not rejected:
            text = (f"One target pass checked {'the proposal' if n == 1 else f'all {NUMBERS[n]}'}: "
                    f"{'it was' if n == 1 else 'every one was'} accepted")
            if block.bonus is not None:
                text += (f", and the same pass gave a bonus token, {block.bonus.token}, drawn from the target's "
                         f"own probabilities. That is {count(n + 1, 'token')} from one target pass.")
            else:
                text += ". There is no bonus token: it would not fit in the output."
            return text
        r = rejected[0]
        text = "One target pass "
        if accepted:
            text += f"accepted {count(accepted, 'proposal')}, then "
        text += (f"rejected the {ordinal(r.index)} proposal ({r.token}); the correction "
                 f"{block.correction.token} was drawn from the residual in its place.")
        if discarded:
            text += (f" The {count(discarded, 'proposal')} after it {'was' if discarded == 1 else 'were'} "
                     f"discarded without a test: {'it was' if discarded == 1 else 'they were'} drafted "
                     f"after the rejected token.")
        return text

    def _said_commit(self, block, session, lead=True):
        text = (f"Block {block.index + 1} committed {tokens(block.committed)}. " if lead
                else f"It committed {tokens(block.committed)}. ")
        text += f"The output now holds {len(session.output)} of {session.config.max_tokens} tokens."
        return text

    def next_words(self):
        """What the next click will do (starts with the button's name), or "" when the trace is finished."""
        s = self.session
        if s.phase == "draft":
            n = min(s.config.width, s.left)  # a count of tokens, not a probability
            after = "" if not s.output else f" after {tokens(s.output)}"
            return (f"Draft asks the draft model to guess the next {count(n, 'token')}{after}, one at a time; "
                    f"each is drawn from the draft's probabilities q.")
        if s.phase == "verify":
            n = len(s.pending.proposals)
            them = "it" if n == 1 else f"all {NUMBERS[n]}"
            return (f"Verify scores {them} in one target pass, then tests each proposal left to right "
                    f"with the target's probabilities p.")
        if s.phase == "commit":
            block = s.pending
            return (f"Commit appends {tokens(block.committed)} to the output; the next block is drafted "
                    f"from there.")
        return ""

    def limit_words(self):
        """The limit message when the output is full, else ""."""
        s = self.session
        if s.phase != "done":
            return ""
        return (f"The output holds {len(s.output)} tokens, the limit of this toy: it has no end-of-sequence "
                f"token, so it simply stops. Press Reset or change the seed to start again.")

    def phase_label(self):
        s = self.session
        block = len(s.blocks) + (1 if s.phase != "done" else 0)
        return block, s.phase
