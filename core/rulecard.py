"""One rule beside the exact one: how far its output is from the target, and how much it keeps.

A wrong rule is tempting because it keeps more, or because it looks like
the exact one; an exact but wasteful rule is tempting because it is simple.
A card answers both questions with exact numbers from the toy tables:

* ``distance``: the total-variation distance between the rule's first
  ``k`` output tokens and the target's (``core.exact.compare``); 0 for an
  exact rule;
* ``kept_share``: kept proposals over all proposals in the long run
  (``core.rates.kept_share``), beside the exact rule's for the same draft
  and width; and ``kept_after``: the chance one proposal is kept, after
  each last token, beside ``sum(min(p, q))``.

For exact-match acceptance (``match-keep``: draw y from p, keep the
proposal only if y equals it) the chance a proposal after ``last`` is kept
is ``sum(q * p)``; with the aligned draft (q = p) that is ``sum(p ** 2)``,
0.38 after the empty prefix, where the exact rule keeps everything.

``SOURCES`` names, for each rule found in the wild, a public thread that
shipped or proposed it (repository, issue or pull-request number).
"""

from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

from . import exact, rates
from .payoff import long_run
from .config import DRAFTS, MAX_TOKENS, MAX_WIDTH
from .tables import AUTHORED
from .variants import ALL_VARIANTS

# Threads read before being cited (issue 28's report quotes each); the app's cards word them.
SOURCES = {
    "greedy-draft": (("jaymody/speculative-sampling", 3),),
    "greedy-one-hot": (("vllm-project/vllm", 40651),),
    "typical": (("vllm-project/vllm", 5015), ("vllm-project/vllm", 5131)),
    "match-keep": (("ml-explore/mlx-lm", 1709), ("foundation-model-stack/fms-extras", 12)),
    "greedy": (("lablup/mlxcel", 902),),
}


@dataclass(frozen=True)
class RuleCard:
    """``variant`` on ``draft`` at ``width``, over the first ``k`` tokens, beside the exact rule.

    ``kept_after`` and ``exact_kept_after`` map the last token ("" = empty
    prefix) to the chance one proposal there is kept. ``tokens_per_pass``
    counts the correction or bonus every block adds.
    """

    variant: str
    draft: str
    width: int
    k: int
    keeps_target: bool
    distance: Fraction
    first_departure: Optional[int]
    kept_share: Fraction
    exact_kept_share: Fraction
    tokens_per_pass: Fraction
    exact_tokens_per_pass: Fraction
    kept_after: dict
    exact_kept_after: dict
    sources: tuple

    @property
    def kept_ratio(self):
        """This rule's kept share over the exact rule's (below 1: it keeps less)."""
        return self.kept_share / self.exact_kept_share if self.exact_kept_share else None


def rule_card(variant, draft="biased", width=3, k=3, tables=AUTHORED):
    """The exact figures of one rule's card (``RuleCard``); a ValueError names a bad argument."""
    if variant not in ALL_VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; choose one of: {', '.join(ALL_VARIANTS)}")
    if draft not in DRAFTS:
        raise ValueError(f"a rule card needs a table draft ({' or '.join(DRAFTS)}), got {draft!r}")
    if isinstance(width, bool) or not isinstance(width, int) or not 1 <= width <= MAX_WIDTH:
        raise ValueError(f"width must be a whole number from 1 to {MAX_WIDTH}, got {width!r}")
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_TOKENS:
        raise ValueError(f"k must be a whole number from 1 to {MAX_TOKENS}, got {k!r}")
    c = exact.compare(draft, width, k, variant, tables=tables)
    kept = rates.kept_share(draft, width, None, variant, tables)
    exact_kept = rates.kept_share(draft, width, None, "exact", tables)
    per_pass = long_run(draft, width, None, variant, tables=tables)[0]
    exact_per_pass = long_run(draft, width, None, "exact", tables=tables)[0]
    return RuleCard(variant, draft, width, k, ALL_VARIANTS[variant].keeps_target, c.distance, c.first_departure,
                    kept, exact_kept, per_pass, exact_per_pass, dict(rates.kept_after(draft, variant, tables)),
                    dict(rates.kept_after(draft, "exact", tables)), SOURCES.get(variant, ()))

