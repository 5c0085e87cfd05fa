"""How often proposals are kept, and where they are made, in the long run.

The paper's α (Leviathan et al. 2023, Definition 3.1) is ``sum(min(p, q))``
averaged over the positions the target's own text visits, its stationary
distribution; Eq. 1 then treats every proposal of a block as kept with that
same chance α, independently of the others. A run of Algorithm 1 proposes
elsewhere: a block starts after the token that ended the previous block (a
correction or a bonus), and a block's i-th proposal is judged only when the
ones before it were kept, so it follows a kept token. ``rates`` gives,
exactly, the chances the closed form replaces by α, so the page can say
where the exact and closed-form curves part and by how much.

Long run means the average over many blocks with no output limit, as in
``payoff.long_run`` (renewal reward over the chain of block starts).
"""

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Optional

from toy_tables import TOKENS

from . import drafts
from .config import Config
from .exact import block_outcomes
from .payoff import _drafted, alpha, long_run, stationary
from .tables import AUTHORED
from .variants import ALL_VARIANTS


@lru_cache(maxsize=None)
def visits(tables=AUTHORED):
    """The target's stationary distribution over TOKENS: how often its own text is after each token."""
    tables.check_long_run()
    target = tables.target
    return stationary({s: dict(zip(TOKENS, target[s])) for s in TOKENS})


@dataclass(frozen=True)
class KeepChance:
    """One proposal the draft can make: after ``last`` (``""`` = empty prefix), token ``token``.

    ``q`` is its draft probability (what dynamic lookahead compares with the
    threshold), ``proposed`` the chance the rule's drafting proposes it (q
    itself, except for greedy drafting) and ``accept`` the chance the rule
    keeps it once proposed.
    """

    last: str
    token: str
    p: Fraction
    q: Fraction
    proposed: Fraction
    accept: Fraction


@lru_cache(maxsize=None)
def keep_chances(draft, variant="exact", tables=AUTHORED):
    """Every proposal the draft can make, after every last token, with its chance of being kept."""
    v = ALL_VARIANTS[variant]
    out = []
    table = drafts.KINDS[draft].table_in(tables)
    for last, p in tables.target.items():
        q = table[last]
        for x, proposed in enumerate(v.propose_dist(q)):
            if proposed:
                out.append(KeepChance(last, TOKENS[x], p[x], q[x], proposed, v.accept_probability(p, q, x)))
    return tuple(out)


@lru_cache(maxsize=None)
def kept_after(draft, variant="exact", tables=AUTHORED):
    """``{last: chance a proposal after last is kept}``: ``sum(min(p, q))`` for the exact rule."""
    out = {last: Fraction(0) for last in tables.target}
    for c in keep_chances(draft, variant, tables):
        out[c.last] += c.proposed * c.accept
    return out


@dataclass(frozen=True)
class Rates:
    """Long-run acceptance for one draft, width and lookahead threshold.

    ``block_starts``: how often a block starts after each token.
    ``reached[i]``: chance per block that proposal i + 1 is drafted and judged
    (every proposal before it was kept). ``kept[i]``: chance per block that
    proposals 1 to i + 1 are all kept. ``kept_share``: kept proposals over all
    proposals (discarded ones included), what the counters accepted / proposed
    approach over many blocks.
    """

    draft: str
    width: int
    lookahead: Optional[Fraction]
    alpha: Fraction
    visits: dict
    block_starts: dict
    reached: tuple
    kept: tuple
    proposals_per_block: Fraction

    def kept_given_reached(self, i):
        """The chance proposal i + 1 is kept once it is judged: what Eq. 1 takes to be α at every i."""
        return self.kept[i] / self.reached[i] if self.reached[i] else None

    @property
    def kept_share(self):
        return sum(self.kept) / self.proposals_per_block

    @property
    def tokens_per_pass(self):
        """1 + expected kept proposals: every block adds one correction or bonus token."""
        return 1 + sum(self.kept)


def kept_share(draft, width, lookahead=None, variant="exact", tables=AUTHORED):
    """Kept proposals over all proposals in the long run, from ``payoff.long_run`` (already computed
    for the payoff table): every block adds one token beyond its kept proposals."""
    tokens, steps = long_run(draft, width, None if lookahead is None else Fraction(lookahead), variant,
                             tables=tables)
    return (tokens - 1) / steps


@lru_cache(maxsize=None)
def block_starts(draft, width, lookahead=None, variant="exact", tables=AUTHORED):
    """How often a block starts after each token, in the long run (the chain of block ends)."""
    tables.check_long_run()
    chain = {}
    for s in TOKENS:
        outcomes = block_outcomes(variant, draft, width, s, width + 1, lookahead, tables=tables)
        chain[s] = {t: sum(prob for seq, prob in outcomes if seq[-1] == t) for t in TOKENS}
    return stationary(chain)


@lru_cache(maxsize=None)
def rates(draft, width, lookahead=None, variant="exact", tables=AUTHORED):
    """Exact long-run acceptance by position in a block, beside the paper's α."""
    Config(draft, width, 0, variant=variant, lookahead=lookahead, tables=tables)
    lookahead = None if lookahead is None else Fraction(lookahead)
    starts = block_starts(draft, width, lookahead, variant, tables)
    # ``at[s]``: chance per block that the next proposal is judged right after token s.
    at = dict(starts)
    reached, kept = [], []
    for _ in range(width):
        reached.append(sum(at.values(), Fraction(0)))
        nxt = {t: Fraction(0) for t in TOKENS}
        kept_here = Fraction(0)
        for c in keep_chances(draft, variant, tables):
            if c.last not in at:
                continue  # the empty prefix starts the text, never a block in the long run
            mass = at[c.last] * c.proposed * c.accept
            kept_here += mass
            # Dynamic lookahead drafts nothing after a proposal with q(x) below the threshold.
            if lookahead is None or not c.q < lookahead:
                nxt[c.token] += mass
        kept.append(kept_here)
        at = nxt
    drafter = drafts.setup(draft, tables=tables).drafter
    steps = sum(starts[s] * _drafted(variant, drafter, width, s, lookahead) for s in TOKENS)
    return Rates(draft, width, lookahead, alpha(draft, tables), visits(tables), starts, tuple(reached), tuple(kept),
                 steps)
