"""How the page's web worker runs the app: the one copy of that Python.

``web/worker.js`` imports this module (it is in our wheel) and makes one-line
calls into it; the build's import probe (``sitebuild/probe.py``) and the tests
run the same functions. In the worker, in order:

1. ``missing_packages(wanted)``: after installing, which listed packages are not there;
2. ``await start(location_json, cdn_root)``: a fresh Bokeh document with the page's
   URL already in ``pn.state.location`` (as under ``panel serve``), the app module run
   as ``__main__``, and the rendered document as JSON for the page, with whether it is
   the pre-render the page shows (``expect``: then the page keeps its drawn widget);
3. ``link(send_patch)``: once the page has rendered it, changes in Python go to the page;
4. ``apply_patch(patch)``: a change the reader made (a click) comes back into Python;
5. ``set_location(location_json)``: the page's URL, again after it rendered.

It mirrors ``panel convert``'s own worker (``panel.io.convert.PRE``/``POST`` and
``panel/_templates/pyodide_worker.js``) with two changes: the app runs in a module
namespace of its own, so an app global can never clash with the protocol's names;
and the changes of one callback go to the page as one patch message, not one per
Bokeh event (Panel's ``_link_docs_worker`` sends each event alone: 20 to 40
messages per click, each one re-rendered by the page).
"""

from __future__ import annotations

import asyncio
import functools
import gc
import hashlib
import json
import os
import re
import runpy
import sys

# The setter id of changes that came from the page: they are not sent back.
FROM_PAGE = "js"
ENTRY = "app.main"
# The first render's models are numbered p10001, p10002, ... in the order the app makes them, in the
# build (whose render is the page's pre-render) as in the worker: so the worker's document can be the
# one the page has drawn already (issue 27). Importing Panel makes a few models first (p1001 on).
ID_BASE = 10_000
# What differs between two renders of one page that show the same, none of it read by the page:
# Panel tags a link's CustomJS with the Python id() of its source (a memory address; tags are Python's
# data), a model is named after its Panel object, which param names after a count of the objects the
# process has made (Column00316: Pyodide's lazy imports make a few more), and the document's own id.
_ADDRESS_TAG = re.compile(r'("tags":\s*\[\[)-?\d+,')
_COUNTED_NAME = re.compile(r'"name": "([A-Za-z_][A-Za-z0-9_]*?)\d{5,}"')
_DOC_ID = re.compile(r'^\{"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"')


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def missing_packages(wanted) -> str:
    """Which of ``wanted`` ((name, version) pairs) are not installed at that version, as one line.

    Read from the names of the ``NAME-VERSION.dist-info`` folders on sys.path (the first wins, as for
    ``importlib.metadata.version``), which every installer writes: ``importlib.metadata`` would read and
    parse every distribution's METADATA as an e-mail: about 0.07 s more of the page's start-up in Pyodide."""
    installed = {}
    for folder in sys.path:
        try:
            names = sorted(os.listdir(folder or "."))
        except OSError:
            continue
        for entry in names:
            if entry.endswith(".dist-info") and "-" in entry:
                name, version = entry[: -len(".dist-info")].rsplit("-", 1)
                installed.setdefault(_canonical(name), version)
    missing = []
    for name, version in wanted:
        have = installed.get(_canonical(name))
        if have != version:
            missing.append(f"{name} {version} (found {have})")
    return ", ".join(missing)


def set_location(location_json: str) -> None:
    """Copy the page's ``window.location`` (as ``JSON.stringify`` gives it) into ``pn.state.location``."""
    from panel.io.state import state
    from panel.util import edit_readonly

    if state.location is None:
        return
    data = json.loads(location_json)
    with edit_readonly(state.location):
        state.location.param.update({k: v for k, v in data.items() if k in state.location.param})


def without_address(location_json: str) -> str:
    """The location with only its query and hash: what the build renders a pre-render with (a page's
    address is filled in after the first render, as ``set_location`` sets it)."""
    data = json.loads(location_json)
    search, hash_ = str(data.get("search") or ""), str(data.get("hash") or "")
    return json.dumps({"href": search + hash_, "origin": "", "protocol": "", "host": "", "hostname": "",
                       "port": "", "pathname": "", "search": search, "hash": hash_})


def fingerprint(docs_json: str) -> str:
    """What a first render shows, as one line: a digest equal for two renders of the same document with
    the same model ids (the build's in CPython, the worker's in Pyodide, whatever their CDN root), then
    the data-model classes it defines. Those are every class the process has imported (Bokeh writes them
    all), so they are compared apart: a page that knows them all can take any document of the worker."""
    from panel.io.resources import CDN_ROOT

    body = next(iter(json.loads(docs_json).values()))
    defs = body.get("defs", None)
    text = docs_json if defs is None else docs_json.replace(', "defs": ' + json.dumps(defs), "", 1)
    defs = defs or []
    text = text.replace(json.dumps(CDN_ROOT)[1:-1], "@cdn/")
    text = _COUNTED_NAME.sub(r'"name": "\g<1>#"', _ADDRESS_TAG.sub(r"\g<1>0,", text))
    text = _DOC_ID.sub('{"@doc"', text, count=1)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return " ".join([digest, *sorted(d["name"] for d in defs)])


def same_render(found: str, expected: str) -> bool:
    """``found`` (this render's fingerprint) shows what ``expected`` (the pre-render's) shows, and the page
    drawn from the pre-render defines every data-model class this render uses."""
    digest, *defs = found.split(" ")
    want, *known = expected.split(" ")
    return digest == want and set(defs) <= set(known)


def _numbered(doc) -> bool:
    """Number the models made from now on from ID_BASE (Bokeh's simple ids), the document's config too.
    Only the first document of a process (the worker has one; ids must never repeat in a process) and
    only with Bokeh's counter there: else False, and ids stay Panel's UUIDs (no render is then taken
    for a pre-render)."""
    import bokeh.util.serialization as serialization
    from bokeh.document.config import DocumentConfig
    from bokeh.settings import settings

    if not isinstance(getattr(serialization, "_simple_id", None), int) or serialization._simple_id >= ID_BASE:
        return False
    settings.simple_ids.set_value(True)  # panel.io.pyodide.init_doc set UUIDs (for notebooks' many documents)
    serialization._simple_id = ID_BASE
    doc._config = DocumentConfig()  # made by Document() under UUIDs; nothing has set it yet
    return True


async def start(location_json: str, cdn_root: str | None = None, entry: str = ENTRY,
                replay_json: str | None = None, expect: str | None = None) -> tuple[str, str, str, bool]:
    """Run the app in a fresh document; return (docs_json, render_items, root_ids, same) for the page.

    ``cdn_root`` is where the page serves Panel's JS/CSS (Panel reads it at import).
    ``replay_json``: the clicks a live preview answered before Python was up (issue 27), which
    the entry module's ``replay(doc, clicks)`` makes before this first render, so the page
    opens on what it showed; a replay that fails is left out (the page then shows the link's moment).
    ``expect``: the fingerprint of the pre-render the page shows. Without a replay the app then runs
    at the address-less location the build rendered it with, and ``same`` says whether this render
    is that pre-render, model for model and id for id: the page then keeps what it has drawn.
    """
    # Start-up makes some 180,000 objects that live as long as the page, and almost no garbage (about
    # 0.25 MB): every collection Python runs meanwhile walks them all for nothing. So none runs until the
    # first render is made, then they are frozen (gc.freeze: no later collection, after a click, walks
    # them again) and collecting resumes.
    gc.disable()
    try:
        return await _start(location_json, cdn_root, entry, replay_json, expect)
    finally:
        gc.freeze()
        gc.enable()


async def _start(location_json, cdn_root, entry, replay_json, expect):
    if cdn_root:
        os.environ["PANEL_CDN_ROOT"] = cdn_root
    # Bokeh's "expensive error diagnostics" (its setting's own words): every on_change checks its
    # callback's signature, 460 of them in the first render, 9% of building it. The page has no one
    # to read a diagnosis; panel serve keeps them.
    os.environ["BOKEH_PERFORM_ERROR_DIAGNOSTICS"] = "false"
    from app.fast_import import bokeh_without_signatures, templates_when_used

    with bokeh_without_signatures(), templates_when_used():
        from panel.io.pyodide import init_doc, write_doc

    from panel.io.state import state

    init_doc()
    numbered = _numbered(state.curdoc)
    from app import urlstate
    urlstate.tolerate_long_query_values()  # before Panel parses the link's query
    adopting = bool(expect) and not replay_json and numbered
    set_location(without_address(location_json) if adopting else location_json)
    namespace = runpy.run_module(entry, run_name="__main__")
    if replay_json and callable(namespace.get("replay")):
        # As once linked (write_doc drops the session, link releases the hold): init_doc's mock
        # session makes Panel wait for a server's timer, and its hold keeps the clicks' callbacks.
        doc = state.curdoc
        session, doc._session_context = doc._session_context, None
        doc.unhold()
        try:
            for click in json.loads(replay_json):
                namespace["replay"](doc, [click])
                for _ in range(3):  # Panel runs a button's callback in a task of its own
                    await asyncio.sleep(0)
        except Exception as exc:  # the link's own moment is still right, only its caption differs
            print(f"[specstep] the preview's clicks were not replayed: {type(exc).__name__}: {exc}")
        doc.hold()
        doc._session_context = session
    docs_json, render_items, root_ids = await write_doc()
    return docs_json, render_items, root_ids, adopting and same_render(fingerprint(docs_json), expect)


class _Link:
    """The page's end of the document: Bokeh events gathered, then sent as one patch."""

    def __init__(self, doc, send_patch):
        self.doc = doc
        self.send_patch = send_patch
        self.pending = []

    def on_change(self, event):
        if getattr(event, "setter", None) == FROM_PAGE:
            return  # the page made this change: it has it already
        self.pending.append(event)
        if len(self.pending) == 1:
            asyncio.get_event_loop().call_soon(self.flush)

    def flush(self):
        if self.pending:
            events = self.pending[:]
            self.pending.clear()
            self.send_patch(*_panel_worker_api().encode(self.doc, events))


_link: _Link | None = None


def link(send_patch) -> None:
    """Send the document's changes to the page: ``send_patch(patch, buffers)``, one call per batch.

    Events that arrive together (one callback, one held block) are gathered and
    sent once the running code yields, or at the end of ``apply_patch``.
    """
    global _link
    from panel.io.state import state

    _link = _Link(state.curdoc, send_patch)
    state.curdoc.on_change(_link.on_change)
    _panel_worker_api().ready(state.curdoc)


def apply_patch(patch) -> None:
    """Apply a change from the page (a JS patch object), then send what it changed at once.

    Changes still waiting to be sent go first: ``apply_json_patch`` marks every
    model already in the document as known to the page, so a model added since
    the last flush (a tab built in a task of its own) would otherwise be sent
    as a bare reference the page cannot resolve.
    """
    apply_page_patch(_panel_worker_api().decode(patch))


def apply_page_patch(serialized) -> None:
    """``apply_patch`` after decoding: a Bokeh ``Serialized`` patch, as from the page (the build's
    recorder and a replay make theirs with ``app/step/replay.py``)."""
    from panel.io.state import state

    if _link is not None:
        _link.flush()
    state.curdoc.apply_json_patch(serialized, setter=FROM_PAGE)
    if _link is not None:
        _link.flush()


class _PanelWorkerApi:
    """What this protocol needs from ``panel.io.pyodide`` beyond its public functions.

    Panel has no public API for a worker that links a document by hand: its own
    worker calls the private ``_link_docs_worker`` and ``_convert_json_patch``. We
    need the same pieces (to batch events), so they are read here and only here;
    ``_panel_worker_api()`` fails with a clear message when a Panel upgrade moves them.
    """

    NEEDED = ("_process_document_events", "_dict_converter", "_convert_json_patch")

    def __init__(self):
        import panel
        from panel.io import pyodide as panel_pyodide
        from panel.io.state import state

        absent = [f"panel.io.pyodide.{name}" for name in self.NEEDED if not hasattr(panel_pyodide, name)]
        absent += [] if hasattr(state, "_schedule_on_load") else ["pn.state._schedule_on_load"]
        if absent:
            raise RuntimeError(f"panel {panel.__version__} has no {', '.join(absent)}: "
                               "app/worker_protocol.py needs updating for this Panel")
        self.module = panel_pyodide

    def encode(self, doc, events):
        """A JS patch object and a JS Map of buffers for these Bokeh events (as _link_docs_worker makes)."""
        import js
        import pyodide.ffi

        patch, buffers = self.module._process_document_events(doc, events)
        # Through JSON text, not to_js: to_js makes a BigInt of an int as large as a
        # seed box's bound (2**53 - 1), and BokehJS cannot read a BigInt in a patch.
        patch = js.JSON.parse(json.dumps(patch))
        return patch, js.Map.new(js.Object.entries(pyodide.ffi.to_js(buffers)))

    def decode(self, patch):
        return self.module._convert_json_patch(patch)

    def ready(self, doc):
        """What _link_docs_worker does after subscribing: release the held document, fire document_ready."""
        from bokeh.events import DocumentReady
        from panel.io.state import state

        doc.unhold()
        doc.on_event("document_ready", functools.partial(state._schedule_on_load, doc))
        doc.callbacks.trigger_event(DocumentReady())


@functools.cache
def _panel_worker_api() -> _PanelWorkerApi:
    return _PanelWorkerApi()
