"""Many seeded runs at once: how often each k-token prefix comes out.

Runs use the same block machinery as sessions (``core.block``) but keep
only output tokens, so 100,000 short runs take about a second. Run ``i``
uses seed ``base_seed + i``, so any single run can be replayed in the
widget with that seed.
"""

from collections import Counter
from fractions import Fraction

from toy_tables import TOKENS

from . import drafts, prng
from .block import committed, draft_block, verify_block
from .config import MAX_SEED, MAX_TOKENS, Config
from .rule import pick
from .schedule import next_width, verdict
from .tables import AUTHORED
from .transform import NONE
from .variants import ALL_VARIANTS

MAX_RUNS = 100_000


def _check_runs(n, k, max_tokens, base_seed):
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_RUNS:
        raise ValueError(f"the number of runs must be from 1 to {MAX_RUNS:,}, got {n!r}")
    if not 1 <= k <= max_tokens:
        raise ValueError(f"k must be from 1 to {max_tokens}, got {k!r}")
    # Past 2**64 - 1 the generator's seed would wrap to 0, 1, ...: runs that
    # could not be replayed in the widget with the seed they claim.
    if base_seed + n - 1 > MAX_SEED:
        raise ValueError(f"{n:,} runs from seed {base_seed} would pass the largest seed, 2**64 - 1; "
                         f"start from seed {MAX_SEED - n + 1} or lower")


def speculative_prefix(config, k, rng):
    """The first ``k`` output tokens of one run (as a tuple of indices)."""
    variant = ALL_VARIANTS[config.variant]
    setup = config.setup
    drafter, target = setup.drafter, setup.target
    advance, last_of = drafter.advance, drafter.last
    plan, width, threshold = config.schedule, config.width, config.lookahead
    out = ()
    state = drafter.start
    while len(out) < k:
        room = config.max_tokens - len(out)
        rng, raw, _, qs = draft_block(variant, drafter, state, min(width, room), threshold, rng)
        rng, judged, outcome = verify_block(variant, target, last_of(state), raw, qs, room, rng)
        new = committed(raw, judged, outcome)
        out += new
        state = advance(state, new)
        if plan != "fixed":
            width = next_width(plan, width, verdict(len(raw), sum(1 for a, _, _ in judged if a)))
    return out[:k]


def sample_prefixes(draft, width, k, n, base_seed=0, variant="exact", max_tokens=MAX_TOKENS, lookahead=None,
                    schedule="fixed", temperature=1, top_k=None, transform_at="both", tables=AUTHORED):
    """Counts of the first ``k`` tokens over ``n`` runs: ``Counter({("A", "B"): 812, ...})``."""
    config = Config(draft, width, base_seed, max_tokens, variant, lookahead, schedule, temperature, top_k,
                    transform_at, tables)
    _check_runs(n, k, max_tokens, base_seed)
    counts = Counter(speculative_prefix(config, k, prng.seed(base_seed + i)) for i in range(n))
    return Counter({tuple(TOKENS[x] for x in seq): c for seq, c in counts.items()})


def frequencies(counts):
    """Each outcome's share of the runs, exactly: ``{outcome: count / runs}``."""
    runs = sum(counts.values())
    return {outcome: Fraction(n, runs) for outcome, n in counts.items()} if runs else {}


def ordinary_prefix(k, rng, transform=NONE, tables=AUTHORED):
    """Ordinary decoding: one draw per token straight from the target's row
    (the transformed target's, when a transformation is given)."""
    rows = drafts.setup("aligned", transform, tables).reference
    out = ()
    last = ""
    for _ in range(k):
        rng, u = prng.step(rng)
        row = rows[last]
        x = pick(row.weights, row.den, u)
        out += (x,)
        last = TOKENS[x]
    return out


def sample_target(k, n, base_seed=0, transform=NONE, tables=AUTHORED):
    """The same ``n`` seeds through ordinary target-only decoding (of the transformed target, if given)."""
    Config(seed=base_seed)
    _check_runs(n, k, MAX_TOKENS, base_seed)
    counts = Counter(ordinary_prefix(k, prng.seed(base_seed + i), transform, tables) for i in range(n))
    return Counter({tuple(TOKENS[x] for x in seq): c for seq, c in counts.items()})


def ordinary_output(seed, k=MAX_TOKENS, tables=AUTHORED):
    """What ordinary decoding writes with ``seed``: same distribution, different draws."""
    Config(seed=seed)
    return tuple(TOKENS[x] for x in ordinary_prefix(k, prng.seed(seed), tables=tables))
