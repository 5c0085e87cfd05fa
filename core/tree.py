"""Several candidates per position: a draft tree verified by multi-step speculative sampling.

SpecInfer (Miao et al. 2024, "SpecInfer: Accelerating Large Language Model
Serving with Tree-based Speculative Inference and Verification", Algorithm 2,
multi-step speculative sampling) lets the draft offer ``k`` candidates at a
position instead of one. The draft drafts a tree of depth ``width`` with
``k`` children per node, each child drawn independently from ``q`` given its
path; one target pass scores every node (tree attention). Verification walks
down from the root. At a node, its children are tested in turn against the
current residual ``r``, which starts as ``p``:

* candidate ``x_j`` is accepted when ``u < r(x_j) / q(x_j)`` (the same strict,
  integer-exact test as ``core.rule.accepts``), and the walk moves to it;
* on a rejection ``r`` becomes ``norm(max(r - q, 0))``: the mass the rejected
  candidate could have supplied is taken out, so the next candidate, drawn
  from ``q`` afresh, is judged against what is still missing;
* when every candidate is rejected the token is drawn from the last ``r``
  (the *correction*);
* when the walk reaches a leaf, the bonus token is drawn from ``p``.

Each test is Algorithm 1's own step with target ``r`` and draft ``q``, so
the token leaving a node follows ``r`` = ``p`` exactly, by induction over the
candidates. The tempting wrong rule (``against-p``) tests every candidate
against ``p`` itself and draws the correction from ``norm(max(p - q, 0))``:
a second candidate then gets a second chance at the same mass, and tokens the
draft over-proposes come out too often (``core.tree_exact`` gives its exact
distance). With ``k = 1`` both rules are Algorithm 1 and the trace is the
one ``core.session`` gives, byte for byte.

Order of draws in one block (fixed; a reader can redo a tree by hand):

1. Draft, level by level (breadth first): for each node of depth ``d - 1``
   in draw order (the committed text first), its ``k`` children, one draw
   each, picked from the draft row after that node's token by inverse CDF.
   Node numbers follow this order.
2. Verify from the root: at the current node, one draw per tested child, in
   order, until one is accepted; the walk then moves to it. Children after
   the accepted one, and every node below a node that was not accepted, get
   no test draw (they are *discarded*).
3. Then one draw for the correction from the last residual when a node's
   children are all rejected, or one for the bonus token from ``p`` when a
   leaf is accepted and the output limit leaves room.

With ``k = 1`` this is exactly ``core.block``'s order. Only the draft tables
(aligned, biased) draft trees; width is at most ``MAX_TREE_WIDTH`` when
``k > 1`` (a tree of 3 candidates and width 4 already has 120 nodes).
"""

from dataclasses import dataclass, replace
from fractions import Fraction
from math import lcm
from typing import Optional

from toy_tables import TOKENS

from . import display
from .config import MAX_TOKENS, Config, ConfigError
from .drafts import TABLE_DRAFTS
from .engine import PhaseError, Stepping, Written
from .prng import seed as seeded, step
from .records import Bonus, Correction, Counters, Drafted, Round, _frac, _row
from .rule import accepts, pick, residual
from .tables import AUTHORED
from .variants import VARIANTS

RULES = ("exact", "against-p")
RULE_TITLES = {
    "exact": "each candidate against the current residual (exact)",
    "against-p": "each candidate against p itself (tempting, wrong)",
}
MAX_CANDIDATES = 3
MAX_TREE_WIDTH = 4
STATUSES = ("proposed", "accepted", "rejected", "discarded")
# Trees need a draft *table* to draw k independent candidates from; lookup and heads have none.
TREE_DRAFTS = TABLE_DRAFTS


def tree_size(candidates, width):
    """Nodes in a full tree: ``k + k**2 + ... + k**width``, every one a drafted token."""
    return sum(candidates ** d for d in range(1, width + 1))


def check(draft, candidates, width, rule="exact"):
    """Refuse a tree scenario the engine does not run, in one readable sentence."""
    if draft not in TREE_DRAFTS:
        raise ConfigError(f"several candidates per position need a draft table ({', '.join(TREE_DRAFTS)}); "
                          f"got {draft!r}")
    if isinstance(candidates, bool) or not isinstance(candidates, int) or not 1 <= candidates <= MAX_CANDIDATES:
        raise ConfigError(f"candidates must be a whole number from 1 to {MAX_CANDIDATES}, got {candidates!r}")
    if rule not in RULES:
        raise ConfigError(f"unknown tree rule {rule!r}; choose one of: {', '.join(RULES)}")
    if candidates > 1 and not (isinstance(width, int) and width <= MAX_TREE_WIDTH):
        raise ConfigError(f"with {candidates} candidates the width is at most {MAX_TREE_WIDTH} "
                          f"(a tree of {MAX_CANDIDATES} candidates and width {MAX_TREE_WIDTH} already has "
                          f"{tree_size(MAX_CANDIDATES, MAX_TREE_WIDTH)} nodes), got {width}")


def _weights(row):
    """A Fraction row as integers over a common denominator, for ``rule.pick``."""
    den = lcm(*(x.denominator for x in row))
    return tuple(int(x * den) for x in row), den


@dataclass(frozen=True)
class Node(Drafted):
    """One drafted candidate: a node of the tree.

    ``parent`` is the node this one continues (None: the committed text);
    ``slot`` its place among its siblings (0 is tested first). After the
    target pass, ``p`` is the target's row at its position and, when it was
    tested, ``residual`` the row ``r`` it was tested against, ``ratio`` =
    r(x)/q(x) and ``accept_probability`` = min(1, ratio). A node never tested
    keeps ``ratio`` = p(x)/q(x) (as a discarded proposal of ``core.records``).
    """

    id: int
    parent: Optional[int]
    depth: int
    slot: int
    prefix: tuple
    token: str
    q: tuple
    q_x: Fraction
    draft_k: int
    status: str = "proposed"
    p: Optional[tuple] = None
    p_x: Optional[Fraction] = None
    residual: Optional[tuple] = None
    r_x: Optional[Fraction] = None
    ratio: Optional[Fraction] = None
    accept_probability: Optional[Fraction] = None
    k: Optional[int] = None

    y = None  # a tree's test has no matching draw (core.variants' match rules)

    @property
    def tested(self):
        return self.k is not None

    def to_dict(self, tree=True):
        """The JSON of ``core.records.Proposal`` (``y`` always null here); with ``tree``,
        the node's place in the tree and the residual it was tested against, added."""
        out = Drafted.to_dict(self)
        if tree:
            out.update(node=self.id, parent=self.parent, depth=self.depth, residual=_row(self.residual),
                       r_x=_frac(self.r_x))
        return out


@dataclass(frozen=True)
class TreeBlock(Round):
    """One draft → verify → commit round over a tree: one target pass.

    ``nodes`` are in draw order. ``depth`` is how deep the tree was drafted:
    ``min(width, tokens left)``. ``path`` (node ids from the top) is the
    accepted branch. A ``core.records.Round`` like ``Block`` (its nodes are its
    ``proposals``), so its JSON is a block's and ``Counters.of`` counts a
    tree's nodes as proposals.
    """

    index: int
    prefix: tuple
    candidates: int
    width: int
    depth: int
    nodes: tuple
    correction: Optional[Correction] = None
    bonus: Optional[Bonus] = None
    committed: tuple = ()
    verified: bool = False
    path: tuple = ()
    stopped_early: bool = False

    @property
    def proposals(self):
        return self.nodes

    def children(self, parent):
        """The candidates offered after ``parent`` (None: after the committed text), in test order."""
        return tuple(n for n in self.nodes if n.parent == parent)

    def _proposals_json(self):
        tree = self.candidates > 1
        return [n.to_dict(tree) for n in self.nodes]


def draft_tree(table, prefix, candidates, depth, rng):
    """Draft a full tree breadth first from the draft ``table``; returns ``(rng, nodes)``."""
    nodes, level = [], [None]
    for d in range(1, depth + 1):
        below = []
        for parent in level:
            at = prefix if parent is None else parent.prefix + (parent.token,)
            q = table[at[-1] if at else ""]
            for slot in range(candidates):
                rng, k = step(rng)
                x = pick(q.weights, q.den, k)
                node = Node(len(nodes), None if parent is None else parent.id, d, slot, at, TOKENS[x], q.fracs,
                            q.fracs[x], k)
                nodes.append(node)
                below.append(node)
        level = below
    return rng, tuple(nodes)


def verify_tree(target, rule, nodes, prefix, room, rng):
    """Walk down from the root (see the module's order of draws); returns
    ``(rng, nodes, path, correction, bonus)`` with every node's status set."""
    done = {}  # node id -> the node with its test (accepted or rejected)
    path, parent, last = [], None, prefix[-1] if prefix else ""
    correction = bonus = None
    kids = [n for n in nodes if n.parent is None]
    while True:
        p = target[last].fracs
        if not kids:  # a leaf was accepted
            if len(path) < room:
                rng, k = step(rng)
                bonus = Bonus(prefix + tuple(nodes[i].token for i in path), p, k, TOKENS[pick(*_weights(p), k)])
            break
        r, rejection, chosen = p, Fraction(1), None
        for child in kids:
            rng, k = step(rng)
            x = TOKENS.index(child.token)
            r_x, q_x = r[x], child.q_x
            ok = accepts(r_x.numerator, r_x.denominator, q_x.numerator, q_x.denominator, k)
            ratio = r_x / q_x
            done[child.id] = replace(child, status="accepted" if ok else "rejected", p=p, p_x=p[x], residual=r,
                                     r_x=r_x, ratio=ratio, accept_probability=min(Fraction(1), ratio), k=k)
            if ok:
                chosen = child
                break
            rejection *= 1 - sum(min(a, b) for a, b in zip(r, child.q))
            r = residual(r, child.q) if rule == "exact" else p
        if chosen is None:
            rng, k = step(rng)
            q = kids[0].q
            r = r if rule == "exact" else residual(p, q)
            correction = Correction(prefix + tuple(nodes[i].token for i in path), p, q, r, rejection,
                                    VARIANTS["exact"].replace_source, k, TOKENS[pick(*_weights(r), k)])
            break
        path.append(chosen.id)
        parent, last = chosen.id, chosen.token
        kids = [n for n in nodes if n.parent == parent]
    out = []
    for n in nodes:
        if n.id in done:
            out.append(done[n.id])
        else:
            p = target[n.prefix[-1] if n.prefix else ""].fracs
            x = TOKENS.index(n.token)
            out.append(replace(n, status="discarded", p=p, p_x=p[x], ratio=p[x] / n.q_x))
    return rng, tuple(out), tuple(path), correction, bonus


@dataclass(frozen=True)
class TreeSession(Stepping):
    """Step-wise tree speculation, immutable like ``core.session.Session``: each action returns a new one."""

    config: Config
    candidates: int
    rule: str
    rng: int
    phase: str
    output: tuple = ()
    blocks: tuple = ()
    pending: Optional[TreeBlock] = None

    @classmethod
    def start(cls, draft="biased", candidates=2, width=2, seed=0, max_tokens=MAX_TOKENS, rule="exact",
              tables=AUTHORED):
        check(draft, candidates, width, rule)
        config = Config(draft, width, seed, max_tokens, tables=tables)
        return cls(config, candidates, rule, seeded(seed), "draft")

    def _require(self, action):
        if self.phase != action:
            why = {"draft": "the next step is Draft", "verify": "a tree is drafted and waits for Verify",
                   "commit": "a verified tree waits for Commit",
                   "done": "the output has reached its limit"}[self.phase]
            raise PhaseError(f"{action.capitalize()} is not the next step: {why}.")

    def draft(self):
        self._require("draft")
        c = self.config
        depth = min(c.width, self.left)
        rng, nodes = draft_tree(c.setup.drafter.table, self.output, self.candidates, depth, self.rng)
        block = TreeBlock(len(self.blocks), self.output, self.candidates, c.width, depth, nodes)
        return replace(self, rng=rng, phase="verify", pending=block)

    def verify(self):
        self._require("verify")
        b = self.pending
        rng, nodes, path, correction, bonus = verify_tree(self.config.setup.target, self.rule, b.nodes, self.output,
                                                          self.left, self.rng)
        committed = tuple(nodes[i].token for i in path) + tuple(x.token for x in (correction, bonus) if x)
        block = replace(b, nodes=nodes, path=path, correction=correction, bonus=bonus, committed=committed,
                        verified=True)
        return replace(self, rng=rng, phase="commit", pending=block)

    def commit(self):
        self._require("commit")
        output = self.output + self.pending.committed
        phase = "done" if len(output) >= self.config.max_tokens else "draft"
        return replace(self, phase=phase, output=output, blocks=self.blocks + (self.pending,), pending=None)

    def trace(self):
        return TreeTrace(self.config, self.candidates, self.rule, self.output, self.blocks, self.counters)


@dataclass(frozen=True)
class TreeTrace(Written):
    """A finished tree trace. Its JSON is ``core.trace.Trace``'s with fields added
    (``candidates`` at the top, each node's place in the tree) when ``k > 1``,
    and ``variant`` naming the tree rule; with ``k = 1`` it is the very same text."""

    config: Config
    candidates: int
    rule: str
    output: tuple
    blocks: tuple
    counters: Counters

    def _json_head(self):
        out = {} if self.rule == "exact" else {"variant": self.rule}
        if self.candidates > 1:
            out["candidates"] = self.candidates
        return out

    def _text_head(self):
        c = self.config
        return (f"draft={c.draft} width={c.width} seed={c.seed} max_tokens={c.max_tokens} candidates={self.candidates}"
                f" rule={self.rule}" + "".join(f" {k}={v}" for k, v in c._tables_dict().items()))

    def _text_note(self, b):
        return f"  {len(b.nodes)} nodes"

    def _text_blocks(self, lines):
        for b in self._each_block(lines):
            for n in b.nodes:
                where = "root" if n.parent is None else f"after node {n.parent}"
                u = display.versus(n.u, n.accept_probability)[0] if n.tested else None  # visibly on its side
                test = "" if not n.tested else (f" against r=[{', '.join(map(str, n.residual))}]"
                                                f" accept={n.accept_probability} u={u}")
                lines.append(f"  node {n.id} ({where}, depth {n.depth})  {n.token}  q={n.q_x}{test}  {n.status}")
            if b.correction:
                lines.append(f"  correction {b.correction.token} from the last residual "
                             f"[{', '.join(map(str, b.correction.residual))}] u={display.draw(b.correction.u)}")
            if b.bonus:
                lines.append(f"  bonus {b.bonus.token} from p [{', '.join(map(str, b.bonus.p))}] u={display.draw(b.bonus.u)}")

    @staticmethod
    def _text_counts(n):
        return (f"target passes {n.target_passes} (ordinary decoding: {n.ordinary_passes}), draft tokens "
                f"{n.draft_steps}, accepted {n.accepted}, rejected {n.rejected}, discarded {n.discarded}, "
                f"corrections {n.corrections}, bonus {n.bonus}")

def simulate_tree(draft, width, seed, candidates=2, max_tokens=MAX_TOKENS, rule="exact", tables=AUTHORED):
    """Run one tree scenario to its output limit and return the finished ``TreeTrace``."""
    return TreeSession.start(draft, candidates, width, seed, max_tokens, rule, tables).run_to_end().trace()
