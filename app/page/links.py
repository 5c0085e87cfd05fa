"""What a link says about the page around the scenario: which tabs, which first, locked or not.

``tab=exact`` opens on that tab; ``tabs=step,exact`` keeps only those tabs, in the
registry's order; ``lock=1`` shows the scenario's controls but fixes them. A tab's
name is its factory's in ``app.main.TABS`` without ``_tab`` (``step``, ``exact``,
``payoff``, ``guesses``). Unknown names are left out; a list with no known name keeps every tab.
``theme=dark|light`` is applied by ``page.js``; it is only checked here.
These keys are not ``app/urlstate.py``'s, so its writer carries them along.

As there, a bad value is not silent: it falls back and ``PageLink.notices`` holds a
one-line notice that says the rule (never the link's value).
"""

from dataclasses import dataclass
from urllib.parse import parse_qsl

from .. import urlstate
from ..i18n import t

TRUE = {"1", "true", "yes", "on"}
FALSE = {"0", "false", "no", "off"}
THEMES = ("dark", "light")  # spelt exactly so: page.js applies no other spelling
either = urlstate._either  # ("a", "b", "c") -> "a, b or c", in the page's language: as the URL table's notices say it


@dataclass(frozen=True)
class PageLink:
    shown: tuple  # tab names, in the registry's order
    start: str  # the tab shown first (one of shown)
    locked: bool
    notices: tuple = ()  # one line per bad key, in the page's language


def slug(factory):
    """A tab's name in links: its factory's name without ``_tab`` (``exact_tab`` -> ``exact``)."""
    return factory.__name__.removesuffix("_tab")


def _query(search):
    return dict(parse_qsl((search or "").lstrip("?"), keep_blank_values=True))


def _switch(query, name):
    """``name``'s value in ``query`` as (on, understood): on for 1/true/yes/on; a value outside both sets
    is not understood (and reads as off)."""
    value = query.get(name, "").strip().lower()
    return value in TRUE, name not in query or value in TRUE | FALSE


def locked(search):
    """Whether ``search`` carries ``lock=1`` (or true/yes/on)."""
    return _switch(_query(search), "lock")[0]


def read(search, names):
    """The ``PageLink`` of ``search`` for a page whose tabs are ``names`` (in order)."""
    query = _query(search)
    notices = []
    wanted = {part.strip().lower() for part in query.get("tabs", "").split(",")} - {""}
    shown = tuple(name for name in names if name in wanted) or tuple(names)
    if "tabs" in query and not (wanted and wanted <= set(names)):  # a name unknown, or none at all
        notices.append(t("url.notice.tabs", name="tabs", must=t("url.must.tabs", choices=either(tuple(names))),
                         shown=t("url.sep").join(shown)))
    start = query.get("tab", "").strip().lower()
    if start not in shown:
        if "tab" in query:
            notices.append(t("url.notice", name="tab", must=t("url.must.tab", choices=either(shown)),
                             default=shown[0]))
        start = shown[0]
    lock, understood = _switch(query, "lock")
    if not understood:
        notices.append(t("url.notice.lock", name="lock", must=t("url.must.lock", choices=either(("1", "0")))))
    if "theme" in query and query["theme"] not in THEMES:
        notices.append(t("url.notice.theme", name="theme", must=t("url.must.theme", choices=either(THEMES))))
    return PageLink(shown, start, lock, tuple(notices))


def write(shown, start, locked, names):
    """The query pairs for these choices, each only when it differs from the default."""
    pairs = []
    shown = [name for name in names if name in shown]
    if shown and len(shown) < len(names):
        pairs.append(("tabs", ",".join(shown)))
    if shown and start in shown and start != shown[0]:
        pairs.append(("tab", start))
    if locked:
        pairs.append(("lock", "1"))
    return pairs
