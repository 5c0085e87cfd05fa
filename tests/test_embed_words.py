"""Words that agree (issue 14 item 6): caption, counters and Output card at every phase.

Between Verify and Commit the caption says how many tokens one target pass gave; the
counters (finished blocks only) still show the committed work, and now say which block is
pending and what it gives; the Output card says what Commit will append instead of
"nothing is committed until a block is verified". Swept over both drafts, widths 1-8 and
seeds 0-39, every phase of every block. No browser: the views' HTML from Python.
"""

import re

import pytest

import core
from app.step import words
from app.step.views import counters_html, output_html

WORD_NUMBERS = {w: i for i, w in enumerate(words.NUMBERS)}


def text(html):
    plain = re.sub(r"<[^>]+>", " ", html).replace("&#x27;", "'")
    return re.sub(r"\s+", " ", plain).strip()


def said_tokens(sentence, pattern):
    match = re.search(pattern, sentence)
    assert match, (pattern, sentence)
    return WORD_NUMBERS[match.group(1)]


def phases(draft, width, seed):
    """Every session of a whole trace, one per click of Next step."""
    s = core.Session.start(core.Config(draft, width, seed))
    yield s
    while s.next_action is not None and s.phase != "done":
        s = s.step()
        yield s


@pytest.mark.parametrize("draft", core.DRAFTS)
@pytest.mark.parametrize("width", range(1, 9))
def test_caption_counters_and_output_card_agree_at_every_phase(draft, width):
    for seed in range(40):
        for s in phases(draft, width, seed):
            counters, output = text(counters_html(s)), text(output_html(s))
            passes = int(re.search(r"(\d+) target pass(es)? used here", counters).group(1))
            assert passes == s.counters.target_passes == len(s.blocks)  # finished blocks only
            block = s.pending
            if block is not None and block.verified:
                n = len(block.committed)
                assert said_tokens(counters, r"one target pass that gives (\w+) tokens?") == n
                assert words.PENDING_NOT_COUNTED in counters
                if not s.output:
                    assert "until a block is verified" not in output
                    assert said_tokens(output, r"Commit appends block \d+'s (\w+) tokens?") == n
                    assert words.tokens(block.committed) in output
            elif block is not None:
                assert f"{words.count(len(block.proposals), 'proposal')}, not checked yet" in counters
            else:
                assert "Pending" not in counters


def test_after_verify_the_counters_name_the_pending_block_the_caption_describes():
    s = core.Session.start(core.Config("aligned", 3, 0)).draft().verify()
    happened = words.happened("verify", s, s)  # the caption's sentence for this Verify
    n = len(s.pending.committed)
    assert f"{words.count(n, 'token')} from one target pass" in happened
    counters = text(counters_html(s))
    assert "0 target passes used here" in counters
    assert f"Pending, block 1: one target pass that gives {words.count(n, 'token')}." in counters
    assert f"Commit appends block 1's {words.count(n, 'token')}" in text(output_html(s))
