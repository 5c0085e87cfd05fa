"""What a link says about the page around the scenario: which tabs, which first, locked or not.

``tab=exact`` opens on that tab; ``tabs=step,exact`` keeps only those tabs, in the
registry's order; ``lock=1`` shows the scenario's controls but fixes them. A tab's
name is its factory's in ``app.main.TABS`` without ``_tab`` (``step``, ``exact``,
``payoff``). Unknown names are ignored; a list with no known name keeps every tab.
These keys are not ``app/urlstate.py``'s, so its writer carries them along.
"""

from dataclasses import dataclass
from urllib.parse import parse_qsl

TRUE = {"1", "true", "yes", "on"}


@dataclass(frozen=True)
class PageLink:
    shown: tuple  # tab names, in the registry's order
    start: str  # the tab shown first (one of shown)
    locked: bool


def slug(factory):
    """A tab's name in links: its factory's name without ``_tab`` (``exact_tab`` -> ``exact``)."""
    return factory.__name__.removesuffix("_tab")


def locked(search):
    """Whether ``search`` carries ``lock=1`` (or true/yes/on)."""
    query = dict(parse_qsl((search or "").lstrip("?"), keep_blank_values=True))
    return query.get("lock", "").strip().lower() in TRUE


def read(search, names):
    """The ``PageLink`` of ``search`` for a page whose tabs are ``names`` (in order)."""
    query = dict(parse_qsl((search or "").lstrip("?"), keep_blank_values=True))
    wanted = {part.strip().lower() for part in query.get("tabs", "").split(",")}
    shown = tuple(name for name in names if name in wanted) or tuple(names)
    start = query.get("tab", "").strip().lower()
    if start not in shown:
        start = shown[0]
    return PageLink(shown, start, locked(search))


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
