"""Speculation in a batch: when checking more positions stops being free.

``core.payoff`` prices a target pass at 1 whatever it checks: the seed's
premise that a memory-bound target reads its weights once per pass, so
scoring ``width + 1`` positions costs about as much as one. A server runs
``b`` requests in one batch, and past some number ``s`` of positions per
pass the target becomes compute-bound. The toy cost model (issue 28):

* one target pass over ``width + 1`` positions for each of ``b`` requests
  takes ``max(1, b * (width + 1) / s)`` passes' time;
* a batch of ``b`` ordinary decoding steps (one position each) takes
  ``max(1, b / s)``;
* a draft step costs ``c`` passes' time, as in ``core.payoff`` (a small
  draft stays memory-bound at these batch sizes).

The batch runs in lockstep, every request with the same width. With ``E``
the exact long-run tokens a block commits (``payoff.long_run``, discarded
proposals and all), a request's time per token is
``(c * width + max(1, b * (width + 1) / s)) / E`` against ordinary
decoding's ``max(1, b / s)``. While ``b * (width + 1) <= s`` both max terms
are 1 and the speedup is ``core.payoff``'s exactly; past it the pass grows
with the width, the speedup falls and the best width shrinks.

System throughput is committed tokens per unit of time (in target passes)
for the whole batch: ``b * E`` per block. At one batch size it moves with
the per-request speedup; what differs is the ceiling. Ordinary decoding
serves at most ``s`` tokens per pass's time (once ``b >= s``); speculation
at most ``s * E / (width + 1)`` however large the batch, because every
discarded proposal's position is computed too. So a request can get faster
while the loaded machine serves fewer: ``capacity`` says how many.

Algorithmic expectations from the toy tables, not measured latency.
"""

from dataclasses import dataclass
from fractions import Fraction

from .config import MAX_WIDTH
from .drafts import Names
from .payoff import check_cost, long_run
from .tables import AUTHORED

MAX_BATCH = 256
MAX_SATURATION = 4096
# A drafter that copies from the text stops when the copy runs out, so its proposals per
# block vary and a lockstep batch's pass would cover the longest: not this simple model.
# Every other kind drafts exactly ``width`` per block without lookahead. Asked of each
# kind (``DraftKind.drafter.copies``), live: a kind registered later is judged the same.
BATCH_DRAFTS = Names(lambda kind: not kind.drafter.copies)


def _whole(name, value, low, high):
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name} must be a whole number from {low} to {high}, got {value!r}")
    return value


def pass_time(batch, positions, saturation):
    """Time of one target pass over ``positions`` per request for ``batch`` requests: ``max(1, b * n / s)``."""
    return max(Fraction(1), Fraction(batch * positions, saturation))


@dataclass(frozen=True)
class BatchPayoff:
    """One width in a batch of ``batch`` requests, with the target compute-bound past ``saturation`` positions.

    ``tokens_per_block`` is ``E`` (per request), ``block_time`` the time of
    one block for the whole batch (draft steps and the target pass), and
    ``ordinary_step_time`` that of one batched ordinary step.
    """

    draft: str
    width: int
    cost: Fraction
    batch: int
    saturation: int
    tokens_per_block: Fraction
    block_time: Fraction
    ordinary_step_time: Fraction

    @property
    def target_pass_time(self):
        """The verifying pass alone: ``max(1, b * (width + 1) / s)``."""
        return pass_time(self.batch, self.width + 1, self.saturation)

    @property
    def memory_bound(self):
        """True while the verifying pass still costs one pass: ``b * (width + 1) <= s``."""
        return self.batch * (self.width + 1) <= self.saturation

    @property
    def time_per_token(self):
        """A request's time per committed token, in target passes."""
        return self.block_time / self.tokens_per_block

    @property
    def speedup(self):
        """Per request: ordinary decoding's time per token over speculation's, in the same batch."""
        return self.ordinary_step_time / self.time_per_token

    @property
    def throughput(self):
        """Committed tokens per pass's time for the whole batch."""
        return self.batch * self.tokens_per_block / self.block_time

    @property
    def ordinary_throughput(self):
        return self.batch / self.ordinary_step_time

    @property
    def positions_per_token(self):
        """Target positions computed per committed token (ordinary decoding: 1): discarded work included."""
        return (self.width + 1) / self.tokens_per_block

    @property
    def capacity(self):
        """The most tokens per pass's time speculation at this width serves at any batch size: ``s * E / (width + 1)``."""
        return self.saturation / self.positions_per_token

    @property
    def ordinary_capacity(self):
        """Ordinary decoding's ceiling: ``s`` tokens per pass's time."""
        return Fraction(self.saturation)


def batch_payoff(draft, width, cost, batch, saturation, tables=AUTHORED):
    """Exact per-request and whole-batch figures for one width (``BatchPayoff``)."""
    if draft not in BATCH_DRAFTS:
        raise ValueError(f"the batch model needs a draft that drafts the full width ({', '.join(BATCH_DRAFTS)}), "
                         f"got {draft!r}")
    _whole("width", width, 1, MAX_WIDTH)
    _whole("the batch size b", batch, 1, MAX_BATCH)
    _whole("the compute-bound batch size s", saturation, 1, MAX_SATURATION)
    cost = check_cost(cost)
    tokens, steps = long_run(draft, width, tables=tables)
    block = cost * steps + pass_time(batch, width + 1, saturation)
    return BatchPayoff(draft, width, cost, batch, saturation, tokens, block, pass_time(batch, 1, saturation))


@dataclass(frozen=True)
class BatchTable:
    """Every width at one batch size. ``best_width`` has the highest per-request speedup (ties: the
    shorter), which in a lockstep batch is also the highest throughput."""

    rows: tuple
    best_width: int

    @property
    def best(self):
        return next(r for r in self.rows if r.width == self.best_width)

    @property
    def pays_off(self):
        """False when even the best width is slower than ordinary decoding in this batch."""
        return self.best.speedup > 1


def batch_table(draft, cost, batch, saturation, widths=range(1, MAX_WIDTH + 1), tables=AUTHORED):
    rows = tuple(batch_payoff(draft, w, cost, batch, saturation, tables) for w in widths)
    best = min(rows, key=lambda r: (-r.speedup, r.width)).width
    return BatchTable(rows, best)
