"""The catalogues of the reader's words (issue 15): complete, used, and alike in both languages.

Every key is in both ``app/i18n/en.json`` and ``zh.json`` with the same named
fields; every key is used by the app's sources (a literal key, or an f-string
key such as ``f"step.label.{action}"`` whose pattern matches it); the Chinese
keeps the glossary's terms (app/i18n/README.md). Then the language choice:
``?lang=``, the Accept-Language header, the links it writes.
"""

import json
import re
import string
from pathlib import Path

import pytest

import core
from app import i18n, urlstate
from app.embed.snippet import snippet as embed_snippet
from app.i18n import t
from app.step import words

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app"
CATALOGUES = {lang: json.loads((APP / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
              for lang in i18n.LANGUAGES}


def fields(template):
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def test_every_key_is_in_both_languages():
    en, zh = set(CATALOGUES["en"]), set(CATALOGUES["zh"])
    assert en - zh == set(), "missing in zh.json"
    assert zh - en == set(), "missing in en.json"
    assert len(en) > 400


@pytest.mark.parametrize("key", sorted(CATALOGUES["en"]))
def test_both_languages_fill_the_same_named_fields(key):
    en, zh = CATALOGUES["en"][key], CATALOGUES["zh"][key]
    assert fields(en) == fields(zh), key
    assert all(name.isidentifier() for name in fields(en)), f"{key}: only named fields, no positional ones"
    sample = {name: "X" for name in fields(en)}
    en.format(**sample), zh.format(**sample)  # no stray brace in either
    assert zh.strip() or not en.strip(), f"{key} is empty in Chinese"


# ---- every key is used -----------------------------------------------------------------

SOURCES = [p for p in APP.rglob("*") if p.suffix in (".py", ".js") and "i18n" not in p.parts]
SOURCES.append(ROOT / "sitebuild" / "loader_config.py")  # the loader.* keys, written into the page by the build
LITERAL = re.compile(r"""(?P<f>f?)(?P<q>["'])(?P<body>[a-z_]+\.[A-Za-z0-9_.{}()\[\]"' -]*?)(?P=q)""")


def key_patterns():
    """Every string literal of the app's sources that looks like a key, as a regular expression."""
    patterns = set()
    for path in SOURCES:
        for m in LITERAL.finditer(path.read_text(encoding="utf-8")):
            body = m.group("body")
            if m.group("f") and "{" in body:
                parts = re.split(r"\{[^{}]*\}", body)
                patterns.add(r"[\w.-]+".join(re.escape(p) for p in parts))
            else:
                patterns.add(re.escape(body))
    return [re.compile(p) for p in patterns]


PATTERNS = key_patterns()


def used(key):
    return any(p.fullmatch(key) for p in PATTERNS)


def test_the_usage_scan_can_tell_an_unused_key():
    assert used("step.label.draft") and used("page.title")
    assert not used("step.no_such_key_anywhere") and not used("zz.unused")


def test_no_key_is_unused():
    unused = sorted(key for key in CATALOGUES["en"] if not used(key))
    assert unused == []


# ---- the Chinese keeps its terms ---------------------------------------------------------

GLOSSARY = {  # the term the catalogue uses -> words it must not use for the same idea
    "额外 token": ("奖励", "红利"),
    "残差分布": ("剩余分布", "残余分布"),
    "草稿模型": ("草案模型", "起草模型"),
    "目标前向": ("目标传递", "目标遍"),
    "候选": ("提案", "提议"),
    "预测头": ("多头",),  # 多头 reads as multi-head attention
}


def test_the_chinese_uses_one_term_per_idea():
    text = "\n".join(CATALOGUES["zh"].values())
    for term, others in GLOSSARY.items():
        assert term in text, term
        for other in others:
            assert other not in text, (term, other)
    readme = (APP / "i18n" / "README.md").read_text(encoding="utf-8")
    for term in GLOSSARY:
        assert term in readme, f"the glossary names {term}"


def test_the_chinese_catalogue_holds_no_english_sentence():
    # Latin letters in Chinese templates: symbols, token letters, field names and a few names only.
    allowed = {"token", "min", "max", "norm", "sum", "Leviathan", "off", "en", "zh", "width", "seed", "reset",
               "counters", "history", "intro", "lang", "iframe", "Hugging", "Face", "Tab", "top", "Top",
               "Ctrl", "Mac", "Esc",  # the copy key and the computer it is named on; the key that leaves present mode
               "Python", "Medusa", "Chen",  # names: the float script's language, the heads, an author
               "argmax", "exp", "vLLM", "MLX", "LM", "Cai"}  # the rule cards' engines, paper and maths
    allowed |= {"Pyodide", "MB", "Web", "Worker", "WebAssembly", "Firefox", "Chrome", "Edge", "Safari",
                "sandbox", "allow", "scripts", "same", "origin", "pyodide", "url"}  # the loader's names of things
    found = {}
    for key, text in CATALOGUES["zh"].items():
        text = re.sub(r"\{\w+\}", "", text)
        words_ = set(re.findall(r"[A-Za-z][A-Za-z]+", text)) - allowed
        if words_:
            found[key] = words_
    assert found == {}


# ---- the language of the words --------------------------------------------------------------

def test_the_same_function_speaks_either_language():
    session = core.Session.start(core.Config("biased", 3, 1)).draft()
    english = words.happened("draft", core.Session.start(core.Config("biased", 3, 1)), session)
    with i18n.use("zh"):
        chinese = words.happened("draft", core.Session.start(core.Config("biased", 3, 1)), session)
        assert words.label("draft") == "起草" and words.START == t("step.start")
    assert english.startswith("The draft model proposed three tokens: ")
    assert chinese.startswith("草稿模型提出了 3 个 token：")
    assert english.split(": ")[1][:5] == chinese.split("：")[1][:5]  # the same tokens, A B A...


def test_a_language_tag_names_one_of_ours_or_none():
    assert i18n.pick("zh") == i18n.pick("zh-CN") == i18n.pick("ZH_hans") == "zh"
    assert i18n.pick("en-GB") == "en"
    assert i18n.pick("fr") is None and i18n.pick("") is None and i18n.pick("zhx") is None
    assert i18n.from_accept_language("fr-FR,fr;q=0.9,zh-CN;q=0.8,en;q=0.7") == "zh"
    assert i18n.from_accept_language("en-US,en;q=0.9") == "en"
    assert i18n.from_accept_language("de") is None and i18n.from_accept_language(None) is None


def test_the_link_names_the_language_and_a_bad_one_says_so_in_the_page_language():
    url = urlstate.read("?draft=biased&lang=zh")
    assert url.lang == "zh" and "lang" not in url.values and url.notices == ()
    assert urlstate.language("?lang=zh-CN&seed=2") == "zh" and urlstate.language("?seed=2") is None
    with i18n.use("zh"):
        bad = urlstate.read("?lang=klingon&width=99")
    assert bad.lang == "" and "lang" in bad.given
    assert bad.notices == ("链接中的 lang 无效（它必须是 en 或 zh），所以使用浏览器的语言。",
                           "链接中的 width 无效（它必须是从 1 到 8 的整数），所以使用默认值 3。")
    english = urlstate.read("?width=99").notice
    assert english == "The link's width is not valid (it must be a whole number from 1 to 8), so the default 3 is used."


def test_links_and_embed_code_carry_the_language_only_when_chosen():
    values = {"draft": "biased", "width": 3, "seed": 1}
    assert "lang" not in urlstate.write(values)
    assert urlstate.write(dict(values, lang="zh")).endswith("&lang=zh")
    assert urlstate.read(urlstate.write(dict(values, lang="zh"), search="?lang=en&utm=1")).lang == "zh"
    with i18n.use("zh"):
        snippet = embed_snippet("https://x.example/s/index.html" + urlstate.write(dict(values, lang="zh")))
    assert 'title="推测解码：逐块演示"' in snippet and "lang=zh" in snippet


def test_an_explicit_or_chinese_page_writes_its_language_into_links():
    saved = dict(i18n._process)
    try:
        i18n.set_language("en")
        assert i18n.link_value() == ""
        i18n.set_language("en", explicit=True)
        assert i18n.link_value() == "en"
        i18n.set_language("zh")
        assert i18n.link_value() == "zh"
        i18n.set_language("xx")
        assert i18n.language() == "en"
    finally:
        i18n._process.clear()
        i18n._process.update(saved)
