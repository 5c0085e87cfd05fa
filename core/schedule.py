"""How wide the next block is: a fixed width, or Hugging Face's heuristic.

``heuristic`` is the rule of Hugging Face's assisted generation
(``num_assistant_tokens_schedule="heuristic"``): after a block whose every
drafted proposal was accepted the width grows by 2, otherwise it shrinks by
1, never below 1. We cap it at ``MAX_WIDTH`` (8). A block with no proposal
at all (the lookup draft found nothing to copy) tested nothing, so the
width stays. The first block uses the configured width.

The width depends only on earlier blocks' outcomes, never on the block it
applies to, so the output stays exact (``core.exact`` checks it).
"""

SCHEDULES = ("fixed", "heuristic")
MAX_WIDTH = 8

# What a verified block tells the schedule.
ALL_ACCEPTED, REJECTED, NOTHING = "all accepted", "rejected", "nothing proposed"


def verdict(proposed, accepted):
    """The schedule's reading of a block with ``proposed`` proposals, ``accepted`` of them kept."""
    if not proposed:
        return NOTHING
    return ALL_ACCEPTED if accepted == proposed else REJECTED


def next_width(schedule, width, outcome):
    """The width after a block that used ``width`` and ended with ``outcome`` (a ``verdict``)."""
    if schedule == "fixed" or outcome == NOTHING:
        return width
    if outcome == ALL_ACCEPTED:
        return min(width + 2, MAX_WIDTH)
    return max(width - 1, 1)
