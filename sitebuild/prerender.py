"""Pre-rendered pages for the scenarios a teacher's notes link to (``build.py --prerender QUERY``).

``index.html`` pre-renders the default scenario. A link to another scenario
must never show those numbers, so until Python is up the loader hides them
behind a calm placeholder ("Loading seed 1 with the biased draft..."). For
each ``--prerender`` query the build runs the app as the page's worker would
(``app/worker_protocol.py``, in a spawned interpreter where Panel takes its
Pyodide paths, as ``probe.py`` does) with that query in the URL, and writes
what the worker would send for its first render to ``prerender/<name>.json``.

The loader fetches such a file only when a link's scenario is that one, read
the way ``app/urlstate.py`` reads it (every ``PROPS`` value parsed, hide flags
and keys of others aside; the build hands the loader the table), and shows it,
inert, until the worker renders. So ``index.html`` stays small, a visit
downloads at most one extra file, and the service worker keeps it for the build.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import multiprocessing
import re
from dataclasses import dataclass
from urllib.parse import parse_qsl

from .project import ROOT, BuildError

FOLDER = "prerender"
MAX_QUERY = 300  # characters; a scenario is a few short values
MAX_SLUG = 120  # characters of a pre-render's file name


@dataclass(frozen=True)
class Scenario:
    """One ``--prerender`` query, read as the app reads a link."""

    query: str  # urlstate's canonical form: "?draft=biased&width=3&seed=1"
    values: dict  # every PROPS value, formatted as the URL writes it
    file: str  # where the build writes its render, relative to the site

    @property
    def location(self) -> dict:
        """window.location as the worker gets it (JSON.stringify), with no address: like index.html's own
        pre-render, the embed code then names no site (the worker fills in the page's address)."""
        from app.worker_protocol import without_address  # the worker's own: its render must match this one
        return json.loads(without_address(json.dumps({"search": self.query})))


def read_query(text: str) -> Scenario:
    """The scenario of one ``--prerender`` value; BuildError naming what is wrong with it."""
    from app import urlstate

    where = f"--prerender {text[:60]!r}"
    query = text[1:] if text.startswith("?") else text
    if not query.strip():
        raise BuildError(f"{where}: give a scenario such as 'draft=biased&width=3&seed=1'")
    if len(query) > MAX_QUERY:
        raise BuildError(f"{where}: a scenario is a few short values; this one is {len(query)} characters")
    values, seen = dict(urlstate.DEFAULTS), set()
    for key, value in parse_qsl(query, keep_blank_values=True):
        prop = urlstate.BY_NAME.get(key)
        if key in seen:
            raise BuildError(f"{where}: {key} is given twice")
        seen.add(key)
        if prop is not None:
            try:
                values[key] = prop.parse(value)
            except ValueError as error:
                why = f" ({error})" if prop.kind == "table" else ""  # core.tables_text names the row and entry
                raise BuildError(f"{where}: {key}={value[:40]!r} is not valid{why}: it must be {prop.what}") from None
        elif not (key.endswith(urlstate.HIDE_SUFFIX) and key[: -len(urlstate.HIDE_SUFFIX)] in urlstate.HIDEABLE):
            known = ", ".join(prop.name for prop in urlstate.PROPS)
            raise BuildError(f"{where}: {key[:40]!r} is not a setting of the widget (its settings: {known})")
    canonical = urlstate.write(values)
    slug = re.sub(r"[^a-z0-9._-]+", "-", canonical[1:].replace("&", "_").replace("=", "-").lower())
    if len(slug) > MAX_SLUG:  # a teacher's tables (target=, q=) make long names: keep a file name short and unique
        slug = f"{slug[:MAX_SLUG - 17]}-{hashlib.sha256(canonical.encode()).hexdigest()[:16]}"
    return Scenario(canonical, {prop.name: prop.format(values[prop.name]) for prop in urlstate.PROPS},
                    f"{FOLDER}/{slug}.json")


def read_queries(texts) -> tuple[list[Scenario], list[str]]:
    """The scenarios to pre-render, each once, and notes on what was left out (the default, repeats)."""
    from app import urlstate

    default = urlstate.write(urlstate.DEFAULTS)
    scenarios, notes = {}, []
    for text in texts:
        scenario = read_query(text)
        if scenario.query == default:
            notes.append(f"--prerender {text!r} is the default scenario, which index.html shows already")
        elif scenario.query in scenarios:
            notes.append(f"--prerender {text!r} is {scenario.query}, given already")
        else:
            scenarios[scenario.query] = scenario
    return list(scenarios.values()), notes


def _render_one(root: str, query: str, location_json: str) -> dict:
    """In a spawned interpreter of its own: the worker's first render of one scenario and the step
    tab's recorded moments on that same document (``record.py``), or an error. A process of its own,
    as the worker is: its render is numbered as the worker's is (``worker_protocol.ID_BASE``)."""
    from .probe import pretend_pyodide

    pretend_pyodide(root)
    from .record import render_and_record

    try:
        return asyncio.run(render_and_record(location_json))
    except Exception as exc:
        return {"error": f"{query}: {type(exc).__name__}: {exc}"}


def default_scenario() -> Scenario:
    """index.html's own scenario, at the address panel convert's pre-render has: none (the query "")."""
    from app import urlstate
    return Scenario("", {prop.name: prop.format(urlstate.DEFAULTS[prop.name]) for prop in urlstate.PROPS}, "")


def render(scenarios: list[Scenario]) -> dict[str, dict]:
    """What the page's worker sends for its first render, for each scenario (keyed by its query), with
    its recorded moments ("moments")."""
    if not scenarios:
        return {}
    # Two at a time (the build machine's cores), each in a fresh interpreter.
    with multiprocessing.get_context("spawn").Pool(min(2, len(scenarios)), maxtasksperchild=1) as pool:
        pending = {s.query: pool.apply_async(_render_one, (str(ROOT), s.query, json.dumps(s.location)))
                   for s in scenarios}
        rendered = {query: result.get() for query, result in pending.items()}
    for result in rendered.values():
        if "error" in result:
            raise BuildError(f"the app failed to pre-render {result['error']}")
    return rendered
