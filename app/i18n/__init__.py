"""The reader's words in English and Simplified Chinese: one catalogue per language.

``t(key, **fields)`` returns the catalogue's template for ``key`` in the page's
language with its named fields filled in (``str.format`` style). Fields are
passed in already formatted (numbers by ``core.display``, token letters as
they are), so a template is a whole sentence for one situation and each
language orders it naturally. The catalogues are plain JSON beside this file
(``en.json``, ``zh.json``), read once with the standard library.

The language belongs to one page (one Bokeh document): ``set_language`` ties
it to the document being built, and ``t`` reads it back from
``pn.state.curdoc`` during any callback of that page, so two readers of one
``panel serve`` in different languages never mix. With no document (plain
Python, the tests) the process default applies, which ``use`` sets for a block.
The glossary of the Chinese terms is in README.md beside this file.
"""

import json
import sys
import weakref
from contextlib import contextmanager
from pathlib import Path

LANGUAGES = ("en", "zh")
DEFAULT = "en"
# What the language switch shows for each language: its own name, in itself.
NAMES = {"en": "English", "zh": "中文"}

_HERE = Path(__file__).resolve().parent


def _load(lang):
    return json.loads((_HERE / f"{lang}.json").read_text(encoding="utf-8"))


CATALOGUES = {lang: _load(lang) for lang in LANGUAGES}

_by_document = weakref.WeakKeyDictionary()
_explicit = weakref.WeakKeyDictionary()
_process = {"lang": DEFAULT}


def _document():
    """The Bokeh document being built or called back, when Panel is loaded and has one."""
    panel = sys.modules.get("panel")
    if panel is None:
        return None
    try:
        return panel.state.curdoc
    except Exception:  # no session at all: plain Python
        return None


def language():
    """The language of the page being built or called back ("en" or "zh")."""
    if _process.get("forced"):
        return _process["lang"]
    doc = _document()
    if doc is not None:
        try:
            return _by_document.get(doc, _process["lang"])
        except TypeError:  # a document proxy that cannot be weakly referenced
            return _process["lang"]
    return _process["lang"]


def set_language(lang, explicit=False):
    """Make ``lang`` the language of the page being built (and of this process when there is no page).

    ``explicit``: the link named it (``?lang=``), so links and embed code keep naming it.
    """
    lang = lang if lang in LANGUAGES else DEFAULT
    if sys.platform == "emscripten":  # the Pyodide worker runs one page: its language is the process's too
        _process.update(lang=lang, explicit=explicit)
    doc = _document()
    if doc is not None:
        try:
            _by_document[doc] = lang
            _explicit[doc] = explicit
            return lang
        except TypeError:
            pass
    _process.update(lang=lang, explicit=explicit)
    return lang


def link_value():
    """The ``lang`` a link or embed code of this page carries: "" for English the link did not ask for."""
    lang = language()
    doc = _document()
    try:
        explicit = _explicit.get(doc, False) if doc is not None else _process.get("explicit", False)
    except TypeError:
        explicit = _process.get("explicit", False)
    return lang if explicit or lang != DEFAULT else ""


@contextmanager
def use(lang):
    """Words in ``lang`` inside the block, whatever page is current (tests, the build's probe)."""
    saved = dict(_process)
    _process.update(lang=lang, forced=True)
    try:
        yield
    finally:
        _process.clear()
        _process.update(saved)


def t(key, **fields):
    """The template for ``key`` in the current language, its named fields filled in."""
    catalogue = CATALOGUES[language()]
    template = catalogue.get(key)
    if template is None:
        template = CATALOGUES[DEFAULT][key]  # a KeyError here is a key missing from the catalogues
    return template.format(**fields) if fields else template


def has(key):
    return key in CATALOGUES[DEFAULT]


def names_in_language(module, table):
    """A words module's ``__getattr__``: ``table`` maps a name to a function of no argument, called each
    time the name is read, so ``words.TITLE`` follows the page's language."""
    def __getattr__(name):
        if name in table:
            return table[name]()
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    return __getattr__


def pick(value):
    """The language a ``?lang=`` value or a browser language tag names ("zh-CN" is zh), or None."""
    tag = (value or "").strip().lower().replace("_", "-")
    for lang in LANGUAGES:
        if tag == lang or tag.startswith(lang + "-"):
            return lang
    return None


def from_accept_language(header):
    """The first of our languages an Accept-Language header names (in its order), or None."""
    for part in (header or "").split(","):
        lang = pick(part.split(";")[0])
        if lang:
            return lang
    return None


def browser_language():
    """The reader's browser language, where Python can see it; None when it cannot.

    In the page's Pyodide worker, ``navigator.language`` (a worker has its own
    navigator); under ``panel serve``, the request's Accept-Language header.
    """
    if sys.platform == "emscripten":
        try:
            import js
            return pick(str(js.navigator.language))
        except Exception:
            return None
    panel = sys.modules.get("panel")
    if panel is None:
        return None
    try:
        headers = panel.state.headers or {}
    except Exception:
        return None
    return from_accept_language(headers.get("Accept-Language") or headers.get("accept-language"))
