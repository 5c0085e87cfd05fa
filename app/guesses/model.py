"""The state of "Several guesses at once": a ``param.Parameterized`` around ``core.tree.TreeSession``.

Same shape as ``app/step/model.py``: annotated parameters, actions as
methods that end in one ``param.update`` (one document change per click),
derived values as methods the views bind to. No probability math here:
every number the views show is a field of a ``core.tree`` record.
"""

from dataclasses import dataclass
from typing import Optional

import param

import core
from core.tables import AUTHORED
from core.timeline import Timeline, moment_index
from core.tree import MAX_CANDIDATES, MAX_TREE_WIDTH, TREE_DRAFTS, Node, TreeBlock, TreeSession

from ..i18n import t
from ..parts import BACK, TimelineModel
from . import words

SEED_MAX = 2**32 - 1
ACTIONS = words.ACTIONS


@dataclass(frozen=True)
class Inspected:
    """One node of the tree in view, with the other candidates at its position and their outcome.

    ``siblings`` are the candidates offered at the node's position, in test
    order (the node among them); ``correction`` is the block's correction when
    it was drawn at this position (every sibling rejected).
    """

    block: TreeBlock
    node: Node
    siblings: tuple
    correction: Optional[core.Correction]


def focus_after(session):
    """The node the inspector lands on after an action: the last tested node, else the first."""
    block = session.pending or (session.blocks[-1] if session.blocks else None)
    if block is None or not block.nodes:
        return None
    tested = [n for n in block.nodes if n.tested]
    return (tested[-1] if tested else block.nodes[0]).id


class GuessesModel(TimelineModel):
    """State of the "Several guesses at once" tab."""

    words = words  # notices in this tab's words (TabModel)

    # Only the drafts core can draft a tree with (the others have no table to draw k candidates from):
    # core's live list, so a table kind registered after this import is a choice too.
    draft = param.Selector(default="biased", objects=TREE_DRAFTS, label="Draft model", doc="""
        Which draft offers the candidates: "aligned" equals the target, "biased" strongly favours A.""")

    candidates = param.Integer(default=2, bounds=(1, MAX_CANDIDATES), label="Candidates per position", doc="""
        k: how many candidates the draft offers after each node, each drawn independently from q.""")

    width = param.Integer(default=2, bounds=(1, MAX_TREE_WIDTH), label="Tree depth", doc="""
        How many positions deep the tree goes (the width of a block).""")

    seed = param.Integer(default=1, bounds=(0, SEED_MAX), label="Seed", doc="""
        Seed of the random draws: the same seed gives the same tree.""")

    tables = param.Parameter(default=AUTHORED, doc="""
        The tables the tree is drawn and verified on (core.tables.Tables): the page's scenario's, so a link's
        own target and q reach this tab too.""")

    session = param.ClassSelector(class_=TreeSession, doc="""
        The current trace: a frozen core.tree.TreeSession, replaced by every action.""")

    selected = param.Integer(default=None, allow_None=True, doc="""
        The node the inspector shows (its id in the tree in view), or None.""")

    happened = param.String(default="", doc="""
        One sentence: what the last click did.""")

    def __init__(self, **params):
        params.setdefault("happened", words.START)  # in the page's language, so set per model
        super().__init__(**params)
        if self.session is None:
            self.session = self._start()

    def _start(self):
        return TreeSession.start(self.draft, self.candidates, self.width, self.seed, tables=self.tables)

    @param.depends("draft", "candidates", "width", "seed", "tables", watch=True)
    def _restart(self):
        def restart():
            s = self.session
            if (s.config.draft, s.candidates, s.config.width, s.config.seed, s.config.tables) == (
                    self.draft, self.candidates, self.width, self.seed, self.tables):
                return
            self._publish(session=self._start(), selected=None, notice="",
                          happened=words.scenario_changed(self.draft, self.candidates, self.width, self.seed))
        self._guard(restart)

    # ---- actions -------------------------------------------------------------

    def can(self, action):
        s = self.session
        if action == BACK:
            return self.steps_done() > 0
        if action == "reset":
            return bool(s.blocks or s.pending)
        if action in ("step", "run_block"):
            return s.phase != "done"
        return s.phase == action

    def next_action(self):
        return None if self.session.phase == "done" else self.session.phase

    def _act(self, action):
        before = self.session
        if action == "step":
            action = before.phase if before.phase != "done" else "step"
        try:
            if action == "reset":
                after = self._start()
            elif action == "step":
                raise core.PhaseError("Nothing to do: the output has reached its limit.")
            else:
                after = getattr(before, action)()
        except core.PhaseError as error:
            self._publish(notice=words.not_possible(action, error))
            return
        self._publish(session=after, selected=None if action == "reset" else focus_after(after), notice="",
                      happened=self._happened(action, before, after))

    @staticmethod
    def _happened(action, before, after):
        if action == "reset":
            return words.RESET
        if action == "draft":
            return words.drafted(after.pending)
        if action == "verify":
            return words.verified(after.pending)
        block = after.blocks[-1]
        if action == "run_block":
            return words.verified(block) + t("step.space") + words.committed(block, len(after.output), after.config.max_tokens)
        return words.committed(block, len(after.output), after.config.max_tokens)

    # ---- the moments of the trace: Step back, a link's gsteps ------------------------

    def open_link(self, url):
        """Apply the guesses' part of a link (``urlstate.read_guesses``): its scenario and moment, in one update."""
        def apply():
            v = url.values
            line = Timeline.of(TreeSession.start(v["gdraft"], v["gk"], v["gwidth"], v["gseed"], tables=self.tables))
            session = line.for_link(v["gsteps"])
            n = moment_index(session)
            self._publish(draft=v["gdraft"], candidates=v["gk"], width=v["gwidth"], seed=v["gseed"], session=session,
                          selected=focus_after(session) if n else None, notice=url.notice,
                          happened=self.moment_words(n, line))
        self._guard(apply)

    def link_values(self):
        """What a link needs to reopen this tab as it is (``urlstate.GUESS_DEFAULTS``' keys)."""
        s = self.session
        return {"gdraft": s.config.draft, "gk": s.candidates, "gwidth": s.config.width, "gseed": s.config.seed,
                "gsteps": self.steps_done()}

    def _scenario(self, session):
        return session.config, session.candidates, session.rule  # a tree's trace has more than its config

    def _landing(self, session):
        return {"selected": focus_after(session)}

    def moment_words(self, n, line=None):
        """The caption's sentence at moment ``n`` of ``line`` (by default the trace on screen): what its
        last Next step said (moment 0: the start's)."""
        if n == 0:
            return words.START
        line = line or self.timeline()
        before = line.at(n - 1)
        return self._happened(before.phase, before, line.at(n))

    def select(self, node_id):
        """Show ``node_id`` in the inspector (a click on a node or the picker)."""
        self._guard(lambda: self._publish(selected=node_id))

    # ---- derived values the views read ---------------------------------------------

    def block_in_view(self):
        """The tree on screen: the pending one, else the last committed one, else None."""
        s = self.session
        return s.pending or (s.blocks[-1] if s.blocks else None)

    def inspected(self):
        block = self.block_in_view()
        if block is None or self.selected is None or not 0 <= self.selected < len(block.nodes):
            return None
        node = block.nodes[self.selected]
        siblings = block.children(node.parent)
        correction = None
        if block.correction is not None and all(n.status == "rejected" for n in siblings):
            correction = block.correction
        return Inspected(block, node, siblings, correction)
