"""A step-wise session: draft → verify → commit, one block at a time.

A ``Session`` is a frozen record. Each action returns a new session, so the
app can keep the previous one (undo is free) and nothing shared is mutated.
The phases follow Algorithm 1 of Leviathan et al. (2023):

* ``draft()`` proposes ``min(width, tokens left)`` tokens from the draft
  table. They are not in the output yet.
* ``verify()`` is one target pass: it scores every proposal, judges them
  left to right, discards everything after the first rejection, and draws
  the correction from the residual, or, after a full acceptance when the
  limit allows, a bonus token from the target.
* ``commit()`` appends the accepted prefix plus the correction or bonus.

Draws are consumed in the order documented in ``core.block``.
"""

from dataclasses import dataclass
from typing import Optional

from toy_tables import TOKENS

INDEX = {t: i for i, t in enumerate(TOKENS)}

from . import prng
from . import drafts, schedule
from .rule import decompose
from .block import committed, draft_block, verify_block
from .config import Config
from .engine import PhaseError, Stepping
from .pairs import numbers_of
from .records import Block, Bonus, Correction, Proposal
from .tables import AUTHORED
from .trace import Trace
from .variants import ALL_VARIANTS

ACTIONS = ("draft", "verify", "commit", "step", "run_block", "run_to_end", "reset")


_NEEDS = {
    "draft": "Draft starts a new block, but {why}.",
    "verify": "Verify scores a drafted block, but {why}.",
    "commit": "Commit appends a verified block, but {why}.",
}
_WHY = {
    "draft": "no block is drafted yet: the next step is Draft",
    "verify": "a block is drafted and waits for Verify",
    "commit": "a verified block waits for Commit",
    "done": "the output has reached its limit (this toy has no end-of-sequence token)",
}


def _key(prefix):
    return prefix[-1] if prefix else ""


def position(draft, prefix=(), tables=AUTHORED):
    """p and q after ``prefix``, decomposed: what the inspector shows for a
    position before (or without) a draw, on the scenario's ``tables``. The tables look only at the last token.

    For ``lookup`` and ``heads``, ``prefix`` is the committed text and q is the
    first proposal's (one-hot on the copy; head 1); None when lookup has
    nothing to copy (the next block is an ordinary step)."""
    key = _key(tuple(prefix))
    kind = drafts.KINDS.get(draft)
    if kind is not None and kind.has_table:
        return decompose(tables.target[key], kind.table_in(tables)[key])
    q = drafts.next_q(draft, tuple(prefix), tables=tables)
    return None if q is None else decompose(tables.target[key], q)


def _setup(config):
    return config.setup


@dataclass(frozen=True)
class Session(Stepping):
    config: Config
    rng: int
    phase: str = "draft"
    output: tuple = ()
    blocks: tuple = ()
    pending: Optional[Block] = None

    DONE = _WHY["done"]

    def __init__(self, config, rng, phase="draft", output=(), blocks=(), pending=None):
        # Written out for speed, like Proposal's: a trace builds one per block.
        self.__dict__.update(config=config, rng=rng, phase=phase, output=output, blocks=blocks, pending=pending)

    @classmethod
    def start(cls, config=None, **fields):
        """A fresh session; ``fields`` build a ``Config`` when none is given."""
        config = config if config is not None else Config(**fields)
        return cls(config, prng.seed(config.seed))

    # ---- what may happen next ---------------------------------------------

    @property
    def next_action(self):
        return None if self.phase == "done" else self.phase

    def can(self, action):
        if action == "reset":
            return bool(self.blocks or self.pending)
        if action in ("step", "run_block", "run_to_end"):
            return self.phase != "done"
        if action in _NEEDS:
            return self.phase == action
        raise ValueError(f"unknown action {action!r}; actions are {', '.join(ACTIONS)}")

    def _require(self, action):
        if self.phase != action:
            raise PhaseError(_NEEDS[action].format(why=_WHY[self.phase]))

    # ---- the three phases -------------------------------------------------

    def draft(self):
        self._require("draft")
        width = self.width
        rng, raw, stopped, qs = self._draft_raw(width)
        prefix = self.output
        proposals = []
        for i, ((x, k), q) in enumerate(zip(raw, qs)):
            proposals.append(Proposal(i, prefix, TOKENS[x], q.fracs, q.fracs[x], k))
            prefix = prefix + (TOKENS[x],)
        block = Block(len(self.blocks), self.output, tuple(proposals), stopped_early=stopped, width=width)
        return Session(self.config, rng, "verify", self.output, self.blocks, block)

    def verify(self):
        self._require("verify")
        block = self.pending
        raw = tuple((INDEX[x.token], x.draft_k) for x in block.proposals)
        setup = _setup(self.config)
        state = setup.drafter.state_of(self.output)
        last, qs = setup.drafter.last(state), []
        for x, _ in raw:  # the rows drafting used: a function of the state and the proposals
            qs.append(setup.drafter.row_at(state, len(qs), last))
            last = TOKENS[x]
        rng, block = self._verified(raw, tuple(qs), block.stopped_early, self.rng, block.width)
        return Session(self.config, rng, "commit", self.output, self.blocks, block)

    def commit(self):
        self._require("commit")
        return self._commit(self.pending, self.rng)

    # ---- the machinery behind them ------------------------------------------

    @property
    def width(self):
        """The width the next block may use: the configured one, or the schedule's after the last block."""
        if not self.blocks or self.config.schedule == "fixed":
            return self.config.width
        b = self.blocks[-1]
        return schedule.next_width(self.config.schedule, b.width,
                                   schedule.verdict(len(b.proposals), b.count("accepted")))

    def _draft_raw(self, width):
        c = self.config
        drafter = c.setup.drafter
        output = self.output
        state = drafts.state_of(drafter, output) if drafter.copies else (output[-1] if output else "")
        return draft_block(ALL_VARIANTS[c.variant], drafter, state, min(width, self.left), c.lookahead, self.rng)

    def _verified(self, raw, qs, stopped, rng, width):
        """Run the target pass on drafted ``raw`` proposals (from rows ``qs``) and build the verified block."""
        c = self.config
        target, variant = c.setup.target, ALL_VARIANTS[c.variant]
        numbers, bonus_rows = c.numbers
        output = self.output
        last = output[-1] if output else ""
        rng, judged, outcome = verify_block(variant, target, last, raw, qs, c.max_tokens - len(output), rng)
        prefix = output
        proposals = []
        n_judged = len(judged)
        correction = bonus = None
        for i, ((x, draft_k), q) in enumerate(zip(raw, qs)):
            pf, qf, q_x, p_x, ratio, accept, residual, rejection = (
                numbers.get(q) or numbers_of(variant, numbers, target, q))[last][x]
            token = TOKENS[x]
            if i < n_judged:
                accepted, k, y = judged[i]
                proposals.append(Proposal(i, prefix, token, qf, q_x, draft_k,
                                          "accepted" if accepted else "rejected", pf, p_x, ratio, accept,
                                          k, None if y is None else TOKENS[y]))
                if not accepted:  # the replacement (verify_block's outcome) comes from this position's residual
                    correction = Correction(prefix, pf, qf, residual, rejection, variant.replace_source, outcome[3],
                                            TOKENS[outcome[2]])
            else:
                proposals.append(Proposal(i, prefix, token, qf, q_x, draft_k, "discarded", pf, p_x, ratio))
            prefix += (token,)
            last = token
        tokens = tuple([TOKENS[x] for x in committed(raw, judged, outcome)])
        if outcome is not None and correction is None:
            _, at_last, token, k = outcome
            bonus = Bonus(output + tokens[:-1], bonus_rows[at_last], k, TOKENS[token])
        block = Block(len(self.blocks), output, tuple(proposals), correction, bonus, tokens, stopped, True, width)
        return rng, block

    def _commit(self, block, rng):
        output = self.output + block.committed
        phase = "done" if len(output) >= self.config.max_tokens else "draft"
        return Session(self.config, rng, phase, output, self.blocks + (block,))

    # ---- conveniences -----------------------------------------------------

    def run_block(self):
        """Finish the current block, from whatever phase it is in."""
        if self.phase == "draft":
            # Same draws and records as draft → verify → commit, without the
            # intermediate "proposed" records nobody will look at.
            c = self.config
            width = c.width if not self.blocks or c.schedule == "fixed" else self.width
            drafter, output = c.setup.drafter, self.output
            state = drafts.state_of(drafter, output) if drafter.copies else (output[-1] if output else "")
            rng, raw, stopped, qs = draft_block(ALL_VARIANTS[c.variant], drafter, state, min(width, c.max_tokens - len(output)),
                                                c.lookahead, self.rng)
            rng, block = self._verified(raw, qs, stopped, rng, width)
            return self._commit(block, rng)
        return Stepping.run_block(self)

    def reset(self):
        return Session.start(self.config)

    def reconfigure(self, **changes):
        """A fresh session with some settings changed: a new draft, width or seed starts a new trace."""
        return Session.start(self.config.replace(**changes))

    def trace(self):
        return Trace(self.config, self.output, self.blocks, self.counters)


def simulate(draft, width, seed, max_tokens=8, variant="exact", lookahead=None, schedule="fixed",
             temperature=1, top_k=None, transform_at="both", tables=AUTHORED):
    """Run one scenario to its output limit and return the finished ``Trace``."""
    config = Config(draft, width, seed, max_tokens, variant, lookahead, schedule, temperature, top_k, transform_at,
                    tables)
    return Session.start(config).run_to_end().trace()
