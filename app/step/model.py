"""The state of "Step through a block": a ``param.Parameterized`` around ``core.Session``.

The HoloViz way (Panel's "build a todo app" and "structure a data store"
tutorials): annotated, documented parameters; actions as methods; derived
values as methods that views bind to. Views never touch ``core.Session``
directly, and nothing here does probability math: every number a view shows
is a field of a ``core`` record (``core.decompose`` included).

One click, one update: every action ends in a single ``_publish`` (one
``param.update`` inside ``parts.one_update()``), so the views' re-renders reach
the page as one document change. The scenario parameters (draft, width,
seed, lookahead) restart the trace when a control changes them;
that restart is idempotent (a session already on that scenario is kept), so
a link can set them and the session together without a re-entry guard.

Errors never escape an action: a wrong-phase click (``core.PhaseError``) or a
bad scenario (``core.ConfigError``) becomes a one-line ``notice``; anything
unexpected becomes a short notice too, the trace stays as it was, and the
traceback is kept in ``error_trace`` (and printed for the server log or the
browser console) instead of reaching the page.
"""

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Optional

import param

import core
from core.tables import AUTHORED
from core.predict import CALLS, check_support, judge_calls, tally
from toy_tables import TOKENS
from core.tables_text import parse_tables

from .. import urlstate
from ..i18n import t
from ..parts import BACK, DRAFT_OPTIONS, TimelineModel, draft_objects, one_update
from . import predict_words, words

ACTIONS = words.ACTION_NAMES
# Actions that would verify the block a Predict-first reader is still calling.
REVEALS = ("verify", "step", "run_block", "run_to_end")
# Actions that would draw past a question Predict first still waits on: they wait for the answer, so a
# reader never sees an outcome before calling it (Run block and Run to end would verify and commit at once).
RUNS = ("run_block", "run_to_end")
COMMITS = ("commit", "step")  # after Verify: the correction joins the output, so it waits for the support answer


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
    masked: bool = False  # the rejected position while Predict first asks for the correction's tokens


def interesting_item(block):
    """Where the inspector should land on ``block``: the rejection, else the bonus, else the last proposal."""
    for proposal in block.proposals:
        if proposal.status == "rejected":
            return proposal.index
    if block.bonus is not None:
        return "bonus"
    return block.proposals[-1].index if block.proposals else 0


def focus_after(session):
    """Where the inspector lands after an action: the pending block's first or most telling position."""
    if session.pending is not None:
        block = session.pending
        return (block.index, interesting_item(block) if block.verified else 0)
    if session.blocks:
        block = session.blocks[-1]
        return (block.index, interesting_item(block))
    return None


def scenario_config(draft, width, seed, lookahead, schedule="fixed", target="", q=""):
    """The ``core.Config`` of a scenario as the URL spells it (lookahead "off" or "0.50"; tables in
    ``core.tables_text``'s form, "" for the authored ones)."""
    exact = None if lookahead == urlstate.LOOKAHEAD_OFF else Fraction(lookahead)
    tables = parse_tables(target or None, q or None) if target or q else AUTHORED
    return core.Config(draft=draft, width=width, seed=seed, lookahead=exact, schedule=schedule, tables=tables)


class StepModel(TimelineModel):
    """State of the "Step through a block" view."""

    words = words  # notices in this tab's words (TabModel)

    draft = param.Selector(default="aligned", objects=DRAFT_OPTIONS, label="Draft model", doc="""
        Which draft proposes tokens (core.ALL_DRAFTS): "aligned" uses exactly the
        target's table (everything is accepted), "biased" strongly favours A,
        "lookup" copies from the text, "heads" guesses several steps ahead.""")

    width = param.Integer(default=3, bounds=(1, core.MAX_WIDTH), label="Tokens per block", doc="""
        How many tokens the draft proposes per block (gamma in the paper); with the
        heuristic schedule, the first block's width.""")

    schedule = param.Selector(default="fixed", objects=list(core.SCHEDULES), doc="""
        "fixed": every block drafts ``width`` tokens; "heuristic": Hugging Face's
        assisted-generation rule (core.schedule), +2 after a block whose every
        proposal was accepted, else -1, within 1..8.""")

    seed = param.Integer(default=0, bounds=(0, urlstate.SEED_MAX), label="Seed", doc="""
        Seed of the random draws: the same seed gives the same trace.""")

    target = param.String(default="", doc="""
        The link's target table (core.tables_text's text form), "" for the authored one.""")

    q = param.String(default="", doc="""
        The link's table for the custom draft (core.tables_text's text form), "" for the authored one.""")

    lookahead = param.Selector(default=urlstate.LOOKAHEAD_OFF, objects=list(urlstate.LOOKAHEADS), doc="""
        Dynamic lookahead: "off" drafts the full width every block; a threshold
        such as "0.50" stops drafting after a guess whose own draft probability
        q(x) is below it (the draft is unsure, so later guesses are likely wasted).""")

    threshold = param.Selector(default="0.50", objects=list(urlstate.THRESHOLDS),
                               label="Stop after a guess with q(x) below", doc="""
        The threshold the lookahead slider shows: it is ``lookahead`` while
        lookahead is on, and is remembered while it is off, so switching
        lookahead back on restores it.""")

    session = param.ClassSelector(class_=core.Session, doc="""
        The current trace: a frozen core.Session record, replaced by every action.""")

    focus = param.Tuple(default=None, allow_None=True, length=2, doc="""
        The position the inspector shows: (block index, proposal index or "bonus").
        The pending block has index len(session.blocks).""")

    happened = param.String(default="", doc="""
        One sentence: what the last click did. The caption adds what comes next.""")

    hidden = param.ClassSelector(class_=frozenset, default=frozenset(), doc="""
        Parts of the page a link hid with NAME_hide=1 (see urlstate.HIDEABLE).""")

    guesses = param.Dict(default=None, allow_None=True, doc="""
        The "Several guesses at once" tab's scenario and moment for the URL (urlstate.GUESS_DEFAULTS' keys),
        once that tab is built; None before (the link's own keys stay as they were).""")

    predict = param.Boolean(default=False, label="Predict first", doc="""
        Predict first (issue 28): after Draft the reader calls each proposal kept or
        rejected, and Verify waits for every call. A link's predict=1; not part of the scenario.""")

    calls = param.Tuple(default=(None, ()), length=2, doc="""
        The reader's calls on the pending block: (its index, one "kept", "rejected" or None per
        proposal). Theirs, not the scenario's: never in the URL.""")

    judged = param.Dict(default={}, doc="""
        Each judged block's ``core.predict.BlockCalls`` by block index, for this trace; a block
        verified again (after Step back) replaces its entry, so the tally never counts it twice.""")

    seen = param.ClassSelector(class_=frozenset, default=frozenset(), doc="""
        Indices of the blocks whose Verify the reader has seen in this trace (a step, a run, a jump or a
        link showed it). Predict first judges a block once: after Step back its outcome is known, so it
        is not called again and the first calls stay in the tally.""")

    asking = param.Integer(default=None, allow_None=True, doc="""
        Predict first, after a rejection: the index of the verified block whose correction the reader
        is asked about (which tokens it can be) before it is shown; None when no question is open.""")

    marked = param.ClassSelector(class_=tuple, default=(), doc="""
        The tokens the reader has marked as possible corrections so far, in table order (while ``asking``).""")

    def __init__(self, **params):
        if params.get("lookahead", urlstate.LOOKAHEAD_OFF) != urlstate.LOOKAHEAD_OFF:
            params.setdefault("threshold", params["lookahead"])
        params.setdefault("happened", words.START)  # in the page's language, so set per model
        kinds = draft_objects()
        if dict(StepModel.param.draft.names or {}) != kinds:  # a kind registered (or removed) since the import
            StepModel.param.draft.objects = kinds
        super().__init__(**params)
        if self.session is None:
            self.session = core.Session.start(self.config())

    # ---- the scenario ---------------------------------------------------------

    def set_early_stop(self, on):
        """Switch dynamic lookahead on (at ``threshold``) or off; already on (or off) stays as it is."""
        if on != (self.lookahead != urlstate.LOOKAHEAD_OFF):
            self.lookahead = self.threshold if on else urlstate.LOOKAHEAD_OFF

    @param.depends("threshold", watch=True)
    def _move_threshold(self):
        if self.lookahead != urlstate.LOOKAHEAD_OFF:
            self.lookahead = self.threshold

    @param.depends("lookahead", watch=True)
    def _show_threshold(self):
        if self.lookahead != urlstate.LOOKAHEAD_OFF:
            self.threshold = self.lookahead

    def config(self):
        """The ``core.Config`` the scenario parameters describe."""
        return scenario_config(self.draft, self.width, self.seed, self.lookahead, self.schedule, self.target, self.q)

    @param.depends("draft", "width", "seed", "lookahead", "schedule", watch=True)
    def _restart(self):
        """A control changed the scenario: start its trace (unless the session already runs it)."""
        def restart():
            old = self.session.config
            new = self.config()
            if new == old:
                return
            self._publish(session=core.Session.start(new), focus=None, notice="", calls=(None, ()), judged={},
                          asking=None, marked=(), seen=frozenset(), happened=words.scenario_changed(old, new))
        self._guard(restart)

    def open_link(self, url, happened=None):
        """Apply a ``urlstate.UrlState``: scenario, hidden parts, steps to replay, notice; one update.

        ``happened`` is the sentence for the caption when something other than the
        page's link opened it (a preset names itself); by default, the link's.
        """
        def apply():
            values = url.values
            scenario = dict(draft=values["draft"], width=values["width"], seed=values["seed"],
                            lookahead=values["lookahead"], schedule=values["schedule"],
                            target=values.get("target", ""), q=values.get("q", ""))
            if values["lookahead"] != urlstate.LOOKAHEAD_OFF:
                scenario["threshold"] = values["lookahead"]
            config = scenario_config(values["draft"], values["width"], values["seed"], values["lookahead"],
                                     values["schedule"], scenario["target"], scenario["q"])
            steps = values.get("steps", 0)
            session = self._timeline_of(core.Session.start(config)).for_link(steps)
            self._publish(**scenario, session=session, focus=focus_after(session),
                          hidden=frozenset(url.hidden), notice=url.notice, calls=(None, ()), judged={},
                          asking=None, marked=(), seen=frozenset(),
                          happened=happened or words.opened_link(config, steps))
        self._guard(apply)

    def scenario(self):
        """The values a link needs to reopen what is on screen (see ``urlstate.PROPS``)."""
        return {"draft": self.draft, "width": self.width, "seed": self.seed, "lookahead": self.lookahead,
                "schedule": self.schedule, "steps": self.steps_done(), "target": self.target, "q": self.q}

    # ---- the timeline: every moment of this trace (parts.TimelineModel) --------------

    def _landing(self, session):
        # Back (or here): an open Predict-first question ends unanswered, so nothing of it is counted.
        return {"focus": focus_after(session), "asking": None, "marked": (), "calls": (None, ())}

    def _refused_jump(self, n):
        if n > self.steps_done() and self.holding():
            return predict_words.held_jump()
        return None

    def moment_words(self, n):
        """The caption's sentence at moment ``n``: the one its last Next step said (moment 0: the start's)."""
        if n == 0:
            return words.START
        line = self.timeline()
        return words.happened("step", line.at(n - 1), line.at(n))

    def shift_seed(self, delta):
        """The previous (-1) or next (+1) seed, within bounds."""
        seed = self.seed + delta
        low, high = self.param.seed.bounds
        if low <= seed <= high:
            with one_update():
                self.seed = seed

    def type_seed(self, seed):
        """A seed typed in the box; True when taken.

        An emptied box sends None (and the seed is never None): the seed stays as it
        was and a notice says so, rather than a parameter error in the log.
        """
        low, high = self.param.seed.bounds
        if isinstance(seed, int) and low <= seed <= high:
            with one_update():
                self.seed = seed
            return True
        self._publish(notice=t("step.seed.empty", seed=self.seed))
        return False

    # ---- actions -------------------------------------------------------------

    def can(self, action):
        """Whether the button for ``action`` should be enabled."""
        if action == BACK:
            return self.steps_done() > 0
        if action in REVEALS and self.calls_missing():
            return False
        if action in RUNS and self.holding():
            return False
        if action in COMMITS and self.asking_block() is not None:
            return False
        return bool(self.session.can(action))

    def _act(self, action):
        before = self.session
        if action in REVEALS and self.calls_missing():
            self._publish(notice=words.not_possible(action, predict_words.waiting(self.calls_missing())))
            return
        if action in RUNS and self.holding():
            self._publish(notice=words.not_possible(action, predict_words.held()))
            return
        if action in COMMITS and self.asking_block() is not None:
            self._publish(notice=words.not_possible(action, predict_words.support_waiting()))
            return
        try:
            after = before.reset() if action == "reset" else getattr(before, action)()
        except core.PhaseError as error:
            self._publish(notice=words.not_possible(action, error))
            return
        focus = None if action == "reset" else focus_after(after)
        extra = ({"judged": {}, "calls": (None, ()), "asking": None, "marked": (), "seen": frozenset()}
                 if action == "reset"
                 else self._judge(before, after))
        if extra.get("asking") is not None:  # the correction waits for the reader's answer: a sentence without it
            said = words.verified(after.pending, draft=after.config.draft, masked=True)
        else:
            said = words.happened(action, before, after)
        self._publish(session=after, focus=focus, notice="", happened=said, **extra)

    def _publish(self, **changes):
        """``TabModel._publish``, and a session shown makes its verified blocks ``seen`` (in the same update)."""
        session = changes.get("session")
        if session is not None:
            shown = {b.index for b in session.blocks}
            if session.pending is not None and session.pending.verified:
                shown.add(session.pending.index)
            changes["seen"] = changes.get("seen", self.seen) | shown
        super()._publish(**changes)

    # ---- Predict first (core.predict judges; nothing here counts chances) -------------

    def set_predict(self, on):
        """Switch Predict first on or off; the calls made so far and the tally stay.

        Off while the correction's question is open: the question ends unanswered (not counted) and
        the correction shows, as it does without Predict first."""
        def go():
            extra = {} if on else {"asking": None, "marked": ()}
            self._publish(predict=bool(on), notice="", **extra)
        self._guard(go)

    def calling(self):
        """The block the reader calls now: the pending block, drafted and not verified, while Predict is on."""
        block = self.session.pending
        if not self.predict or block is None or block.verified or not block.proposals or block.index in self.seen:
            return None
        return block

    def seen_again(self):
        """The drafted block on the strip, with Predict first on, whose Verify was seen before (Step back); else None."""
        block = self.session.pending
        if not self.predict or block is None or block.verified or block.index not in self.seen:
            return None
        return block

    def current_calls(self):
        """One call per proposal of the block being called (None for none yet); () when nothing is called."""
        block = self.calling()
        if block is None:
            return ()
        index, calls = self.calls
        return calls if index == block.index and len(calls) == len(block.proposals) else (None,) * len(block.proposals)

    def calls_missing(self):
        """How many proposals still wait for a call before Verify (0 when Predict is off)."""
        return sum(c is None for c in self.current_calls())

    def call(self, index, verdict):
        """The reader calls proposal ``index`` kept or rejected (a click on a call button)."""
        def go():
            block = self.calling()
            if block is None or verdict not in CALLS or not isinstance(index, int) \
                    or not 0 <= index < len(block.proposals):
                self._publish(notice=predict_words.no_call())
                return
            calls = list(self.current_calls())
            calls[index] = verdict
            self._publish(calls=(block.index, tuple(calls)), notice="")
        self._guard(go)

    def _judge(self, before, after):
        """The calls on the block ``before`` was about to verify, judged by core once ``after`` has verified it."""
        block = before.pending
        if not self.predict or block is None or block.verified or not block.proposals or block.index in self.seen:
            return {}
        index, calls = self.calls
        if index != block.index or len(calls) != len(block.proposals):
            return {}
        done = next((b for b in after.blocks + ((after.pending,) if after.pending else ())
                     if b.index == block.index and b.verified), None)
        if done is None:
            return {}
        judged = dict(self.judged)
        judged[block.index] = judge_calls(done, calls, after.config.variant)
        # A rejection, and the block still on the strip: ask which tokens its correction can be before showing it.
        ask = done.index if done.correction is not None and after.pending is done else None
        return {"judged": judged, "calls": (None, ()), "asking": ask, "marked": ()}

    # ---- Predict first, after a rejection: which tokens can the correction be? ----------

    def asking_block(self):
        """The verified block whose correction is hidden until the reader names its possible tokens; else None."""
        block = self.session.pending
        if (not self.predict or self.asking is None or block is None or block.index != self.asking
                or not block.verified or block.correction is None):
            return None
        return block

    def holding(self):
        """What Predict first waits for on the block on the strip ("calls" before Verify, "support" after
        a rejection), or None. Run block, Run to end and a jump ahead wait too: they would show the answer."""
        if self.asking_block() is not None:
            return "support"
        return "calls" if self.calling() is not None else None

    def mark(self, token):
        """Mark ``token`` as a possible correction, or unmark it (a click on a token's toggle)."""
        def go():
            if self.asking_block() is None or token not in TOKENS:
                self._publish(notice=predict_words.no_support_question())
                return
            marked = set(self.marked) ^ {token}
            self._publish(marked=tuple(x for x in TOKENS if x in marked), notice="")
        self._guard(go)

    def confirm_support(self):
        """The reader's set is final: core judges it (``check_support``), then the correction is shown."""
        def go():
            block = self.asking_block()
            if block is None:
                self._publish(notice=predict_words.no_support_question())
                return
            if not self.marked:
                self._publish(notice=predict_words.mark_first())
                return
            judged = dict(self.judged)
            calls = judged.get(block.index)
            if calls is not None:
                judged[block.index] = replace(calls, support=check_support(block, self.marked))
            self._publish(judged=judged, asking=None, marked=(), notice="",
                          happened=words.verified(block, draft=self.session.config.draft))
        self._guard(go)

    def judged_in_view(self):
        """The ``BlockCalls`` of the block the strip shows, when the reader called it; else None."""
        block = self.block_in_view()
        return None if block is None or not block.verified else self.judged.get(block.index)

    def waiting_words(self):
        """Why Verify (or Commit) is disabled while Predict first waits, and why the runs wait too; "" otherwise."""
        held = self.holding()
        if held is None:
            return ""
        missing = self.calls_missing()
        first = (predict_words.support_waiting() if held == "support"
                 else predict_words.waiting(missing) if missing else "")
        return (first + t("step.space") if first else "") + predict_words.held()

    def tally(self):
        """The running tally of this trace's judged blocks, in order (``core.predict.tally``)."""
        return tally(self.judged[i] for i in sorted(self.judged))

    def inspect(self, focus):
        """Show ``focus`` in the inspector (a click on a chip, the picker or the history)."""
        self._guard(lambda: self._publish(focus=tuple(focus) if focus is not None else None))

    # ---- what the inspector shows -------------------------------------------------

    def blocks_in_view(self):
        """Finished blocks, then the pending one (if any)."""
        s = self.session
        return s.blocks + ((s.pending,) if s.pending is not None else ())

    def block_in_view(self):
        """The block the strip shows: the pending one, else the last committed one, else None."""
        s = self.session
        if s.pending is not None:
            return s.pending
        return s.blocks[-1] if s.blocks else None

    def positions(self):
        """Every position the inspector can show, as (label, focus) pairs."""
        out = []
        for block in self.blocks_in_view():
            pending = block is self.session.pending
            name = t("step.picker.current" if pending else "step.picker.block", block=block.index + 1)
            for proposal in block.proposals:
                out.append((t("step.picker.position", name=name, position=proposal.index + 1,
                              token=proposal.token, status=words.status_word(proposal.status)),
                            (block.index, proposal.index)))
            if block.bonus is not None:
                out.append((words.extra_label(name, block), (block.index, "bonus")))
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
        if proposal.status == "rejected" and block is self.asking_block():
            # Its residual and draw are the answer to the open question: p and q stay, the rest waits.
            return Inspected(block, item, pending, proposal=proposal, masked=True)
        correction = block.correction if proposal.status == "rejected" else None
        decomposition = core.decompose(proposal.p, proposal.q) if proposal.p is not None else None
        return Inspected(block, item, pending, proposal=proposal, correction=correction,
                         decomposition=decomposition)
