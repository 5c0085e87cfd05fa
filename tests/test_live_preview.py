"""The live preview's recorded moments are what Python shows (issue 27 item 1), and they are small.

The build records, on the pre-render's own document, the patch the worker sends for every
enabled button of the step tab at every moment (``sitebuild/record.py``). Here a copy of that
document, driven only by recorded patches chosen as ``web/live.js`` chooses them, must equal
Python's own document after the same clicks, property by property, for a long walk over every
button and the timeline; and one scenario's recording must stay within 60 KB gzip.
"""

from __future__ import annotations

import random

import pytest

from build_support.live_check import check
from sitebuild.record import MAX_GZIP

BUTTONS = ["step", "draft", "verify", "commit", "run_block", "run_to_end", "reset", "back"]


def walk(seed, length, last):
    """Clicks a curious reader makes: mostly Next step and Step back, every other button, and jumps."""
    rng = random.Random(seed)
    clicks = ["step", "step", "back", "step", "step", "step", "run_block", "back", "reset", "run_to_end",
              "back", "back", ("moment", 2), "run_block", "step", ("moment", 0), "run_to_end", ("moment", last)]
    while len(clicks) < length:
        clicks.append(("moment", rng.randint(0, last)) if rng.random() < 0.25 else rng.choice(BUTTONS))
    return clicks


@pytest.fixture(scope="module")
def default():
    return check("", walk(1, 60, 6))


def test_the_recorded_screen_equals_pythons_after_every_click(default):
    assert default["last"] == 6
    assert default["problems"] == []


def test_the_recording_makes_no_model_python_does_not_have(default):
    assert default["new_models"] == 0


def test_one_scenarios_recording_is_within_60_kb_gzip(default):
    assert default["gzip"] <= MAX_GZIP, default
    print(f"recorded moments: {default['bytes']} bytes, {default['gzip']} gzip")


def test_a_prerendered_scenario_opened_on_its_link_sentence_equals_python_too():
    result = check("?draft=biased&width=3&seed=1", walk(2, 50, 12))
    assert result["problems"] == []
    assert result["gzip"] <= MAX_GZIP


@pytest.mark.parametrize("clicks", [
    ["step", "step", "step", "back"],
    ["run_block"],
    ["step", "run_to_end"],
    ["run_block", "step", "reset"],
    [("moment", 5), "back"],
], ids=["steps-and-back", "run-block", "run-to-end", "reset", "timeline"])
def test_the_workers_first_render_with_the_replay_is_the_preview(clicks):
    from build_support.live_check import check_takeover
    result = check_takeover("", clicks)
    assert result["same"], result
