"""web/loader.js speaks only app/i18n's words and reads a link only by urlstate.PROPS (issue 25 item 2).

The build writes both into the loader's CONFIG (sitebuild/loader_config.py). Here: every word
the loader uses is there in both languages, the URL table says what PROPS says, and
loader.js itself holds no reader-facing sentence in either language. Then, on the stand-in
page of test_loader.py, a ``?schedule=`` link (once missing from the loader's own list of
scenario keys) hides the default pre-render behind the calm placeholder, and bad values
are named as before.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app import i18n, urlstate
from build_support.servers import LocalServer
from sitebuild.loader_config import all_words, url_table, words
from test_loader import DEFAULT_NUMBERS, Visit, chrome, make_site, visible_text, wait_step  # noqa: F401

ROOT = Path(__file__).resolve().parents[1]
LOADER = (ROOT / "web" / "loader.js").read_text(encoding="utf-8")


def loader_code() -> str:
    """loader.js without its comments (they may quote what the page says)."""
    text = re.sub(r"/\*.*?\*/", "", LOADER, flags=re.S)
    return "\n".join(re.sub(r"(^|\s)//.*$", "", line) for line in text.splitlines())


# ---- the words -----------------------------------------------------------------------

def test_every_word_the_loader_uses_is_written_in_both_languages():
    used = set(re.findall(r"\bW\.(\w+)", loader_code()))
    assert {"steps", "preview", "problems", "scenario", "poster", "loading"} <= used, used
    for lang in i18n.LANGUAGES:
        for host in ("127.0.0.1", None):
            written = words(lang, host)
            assert used - set(written) == set(), f"{lang}: the loader uses words the build does not write"
            assert set(written) - used == set(), f"{lang}: the build writes words the loader does not use"
    en, zh = words("en", None), words("zh", None)
    assert set(en["problems"]) == set(zh["problems"]) and set(en["scenario"]) == set(zh["scenario"])
    # Every problem kind the loader names in its code has its words.
    named = set(re.findall(r'problem\("([a-z-]+)"', loader_code())) | set(re.findall(r'"(slow-[a-z]+|timeout)"',
                                                                                         loader_code()))
    assert named and named <= set(en["problems"]), named


def test_the_words_are_the_catalogues_sentences():
    en, zh = words("en", "127.0.0.1"), words("zh", None)
    assert en["preview"] == i18n.CATALOGUES["en"]["loader.preview"]
    assert zh["poster"]["start"] == i18n.CATALOGUES["zh"]["loader.poster.start"]
    assert "from 127.0.0.1" in en["steps"][0] and "来自本站" in zh["steps"][0]
    # What the build knows is filled in; what the page knows stays a {field} the loader fills.
    assert en["problems"]["timeout"]["todo"].startswith(i18n.CATALOGUES["en"]["loader.still_trying"] + " If")
    assert zh["problems"]["timeout"]["todo"].startswith(i18n.CATALOGUES["zh"]["loader.still_trying"] + "如果")
    assert "{seconds}" in en["problems"]["slow-app"]["what"]
    assert zh["scenario"]["draft"]["names"]["biased"] == i18n.CATALOGUES["zh"]["step.draft_name.biased"]
    assert zh["scenario"]["schedule"]["names"]["heuristic"] == "启发式"


def test_a_setting_without_its_own_phrase_is_named_by_its_name(monkeypatch):
    extra = urlstate.Prop("gsteps", "int", 0, low=0, high=9)
    monkeypatch.setattr(urlstate, "PROPS", urlstate.PROPS + (extra,))
    assert words("en", None)["scenario"]["gsteps"] == {"text": "gsteps {value}"}


def test_loader_js_holds_no_sentence_of_its_own():
    code = loader_code()
    assert re.findall(r"[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]", LOADER) == [], "Chinese in loader.js"
    for lang in i18n.LANGUAGES:
        for key, text in i18n.CATALOGUES[lang].items():
            if key.startswith("loader."):
                for part in re.split(r"\{\w+\}", text):
                    part = part.strip(" .,…:;")
                    if len(part) > 12:
                        assert part not in LOADER, f"{key} is written out in loader.js"
    # String literals with English words in them are for the console only.
    for literal in re.findall(r'"([^"\n]*)"|`([^`\n]*)`', code):
        text = "".join(literal)
        if re.search(r"[A-Za-z]{2,} [A-Za-z]{2,} [A-Za-z]{2,}", text):
            assert text.startswith("[specstep]"), f"a sentence in loader.js: {text!r}"
    for sentence in ("Reload the page", "What to do", "`Step ", "\"Loading ", "`Loading ", "草稿模型", "preview:"):
        assert sentence not in code, sentence


# ---- the URL table ------------------------------------------------------------------------

def test_the_url_table_says_what_urlstate_props_says():
    table = url_table()
    assert [row["name"] for row in table["props"]] == [p.name for p in urlstate.PROPS]
    assert table["maxChars"] == urlstate.MAX_CHARS and table["languages"] == list(i18n.LANGUAGES)
    for row, prop in zip(table["props"], urlstate.PROPS):
        assert row["kind"] == prop.kind and row["default"] == prop.format(prop.default), prop.name
        assert row["scenario"] == (prop.name in urlstate.SCENARIO_KEYS), prop.name
        if prop.kind == "int":
            assert (row["low"], row["high"]) == (prop.low, prop.high), prop.name
        else:
            assert set(row["spellings"].values()) == set(prop.choices), prop.name
            for spelling, value in row["spellings"].items():
                assert prop.format(prop.parse(spelling)) == value, (prop.name, spelling)


def test_every_scenario_key_of_props_is_a_scenario_key_for_the_loader():
    scenario = {row["name"] for row in url_table()["props"] if row["scenario"]}
    assert set(urlstate.SCENARIO_KEYS) == {p.name for p in urlstate.PROPS}
    assert set(urlstate.SCENARIO_KEYS) - scenario == set()
    assert "schedule" in scenario


def test_the_table_follows_props_when_a_setting_is_added(monkeypatch):
    extra = urlstate.Prop("gsteps", "int", 0, low=0, high=9)
    monkeypatch.setattr(urlstate, "PROPS", urlstate.PROPS + (extra,))
    monkeypatch.setattr(urlstate, "SCENARIO_KEYS", urlstate.SCENARIO_KEYS + ("gsteps",))
    row = url_table()["props"][-1]
    assert row == {"name": "gsteps", "kind": "int", "default": "0", "scenario": True, "low": 0, "high": 9}


# ---- the stand-in page ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = make_site(tmp_path_factory.mktemp("loader_words") / "site")
    with LocalServer(folder) as server:
        yield server


def placeholder_text(visit) -> str | None:
    wait_step(visit, 1)
    visit.page.wait_for_timeout(200)
    found = visit.page.locator(".specstep-placeholder-text")
    return found.inner_text() if found.count() else None


@pytest.mark.browser
@pytest.mark.parametrize("query, text", [
    ("schedule=heuristic", "Loading the scenario of this link with the heuristic schedule…"),
    ("schedule=HEURISTIC&seed=2", "Loading seed 2 with the HEURISTIC schedule…"),
    ("draft=biased&width=3&seed=1&schedule=heuristic",
     "Loading seed 1 with the biased draft, width 3 and the heuristic schedule…"),
    ("lang=zh&schedule=heuristic", "正在加载这个链接的场景（启发式调度）…"),
])
def test_a_schedule_link_hides_the_fixed_width_preview(chrome, site, query, text):  # noqa: F811
    with Visit(chrome) as visit:
        visit.page.goto(site.url + "index.html?plan=runtime:hang&" + query)
        assert placeholder_text(visit) == text
        assert DEFAULT_NUMBERS not in visible_text(visit.page)


@pytest.mark.browser
@pytest.mark.parametrize("query, text", [
    # What the loader said before its words moved to app/i18n, word for word.
    ("draft=nonsense&seed=abc", "Loading seed abc with the nonsense draft…"),
    ("width=99", "Loading the scenario of this link with width 99…"),
    ("seed=1&draft=biased&width=3&lookahead=0.5&steps=2",
     "Loading seed 1 with the biased draft, width 3, lookahead 0.5 and 2 steps in…"),
    ("lang=zh&seed=1&draft=biased", "正在加载种子 1（有偏的草稿模型）…"),
    ("lang=zh&draft=xyz&width=2", "正在加载这个链接的场景（xyz 草稿模型和宽度 2）…"),
    ("lang=zh", "正在加载中文版小部件…"),
    ("schedule=fixed&draft=aligned", None),  # the pre-rendered scenario, spelled out: its preview
    ("lookahead=OFF&width=3", None),
])
def test_bad_and_good_values_are_named_as_before(chrome, site, query, text):  # noqa: F811
    with Visit(chrome) as visit:
        visit.page.goto(site.url + "index.html?plan=runtime:hang&" + query)
        assert placeholder_text(visit) == text
        assert (DEFAULT_NUMBERS in visible_text(visit.page)) == (text is None)
