"""``parts.Opener``: the hidden input HTML buttons write to, ``K1|K2|KEY@n`` (app/page/page.js).

Quick clicks can reach Python as one value (the built page's loader and Panel's server both keep
only the latest value of a property while Python is busy), so a value carries the latest keys and
the count of clicks, and Python opens each key it has not seen, oldest first, exactly once.
"""

from app.parts import OPEN_RECENT, Opener, open_value, opened_keys


def opener():
    opened = []
    return Opener(opened.append), opened


def test_one_click_opens_its_key_once():
    o, opened = opener()
    o.input.value = "0:1@1"
    assert opened == ["0:1"]


def test_clicks_merged_into_one_value_are_all_opened_in_order():
    """page.js wrote call, chip, call; only the last value reached Python."""
    o, opened = opener()
    o.input.value = "call:0:kept|0:1|call:1:kept@3"
    assert opened == ["call:0:kept", "0:1", "call:1:kept"]


def test_keys_seen_before_are_not_opened_again():
    o, opened = opener()
    o.input.value = "a@1"
    o.input.value = "a|b|c@3"  # the value for click 2 (a|b@2) was merged into this one
    o.input.value = "a|b|c|c@4"  # the same button again is a new click
    assert opened == ["a", "b", "c", "c"]


def test_a_stale_or_foreign_value_opens_nothing():
    o, opened = opener()
    o.input.value = "a|b@2"
    for value in ("a@1", "a|b@2", "", "x", "a@", "a@-1", "a@two"):
        o.input.value = value
    assert opened == ["a", "b"]


def test_more_clicks_merged_than_the_value_holds_opens_what_it_holds():
    o, opened = opener()
    keys = [f"k{i}" for i in range(OPEN_RECENT)]
    o.input.value = open_value(keys, OPEN_RECENT + 5)
    assert opened == keys


def test_click_writes_what_page_js_writes():
    o, opened = opener()
    for key in ("0:0", "moment:3", "0:0"):
        o.click(key)
    assert o.input.value == "0:0|moment:3|0:0@3" and opened == ["0:0", "moment:3", "0:0"]
    for i in range(OPEN_RECENT + 2):
        o.click(f"k{i}")
    keys, n = opened_keys(o.input.value)
    assert n == OPEN_RECENT + 5 and len(keys) == OPEN_RECENT and keys[-1] == f"k{OPEN_RECENT + 1}"


def test_page_js_writes_the_same_format():
    """page.js builds ``recent.join("|")@n`` from ``open_recent`` (the script's argument)."""
    from app.page import script
    js = script.PAGE_JS
    assert 'made.recent.join("|")}@${made.n}' in js and ".slice(-page.openRecent)" in js
    assert script.script().args["open_recent"] == OPEN_RECENT


def test_a_replayed_click_opens_its_key_and_leaves_the_pages_count_alone():
    """The build's recorder and the worker's takeover replay clicks as KEY@replayN (app/step/replay.py)."""
    from app.parts import REPLAYED

    o, opened = opener()
    o.input.value = f"moment:3@{REPLAYED}"
    o.input.value = f"moment:3@{REPLAYED}1"  # each replay is a change of its own
    o.input.value = "0:1@1"  # the page's first click after a takeover still counts
    o.input.value = f"a|b@{REPLAYED}2"  # a replay holds one key; anything else opens nothing
    assert opened == ["moment:3", "moment:3", "0:1"]
