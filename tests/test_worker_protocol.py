"""app/worker_protocol.py on CPython: the parts that need no browser.

Its start/link/apply_patch run in real Pyodide in test_build_output.py (under Node)
and test_real_page.py (in Chromium); the build's probe runs them under stand-ins.
"""

from pathlib import Path

import panel

from app import worker_protocol

ROOT = Path(__file__).resolve().parent.parent


def test_missing_packages_names_what_is_absent_or_at_another_version():
    assert worker_protocol.missing_packages([("panel", panel.__version__)]) == ""
    assert worker_protocol.missing_packages([("panel", "0.0.1"), ("no-such-dist", "1.0")]) == \
        f"panel 0.0.1 (found {panel.__version__}), no-such-dist 1.0 (found None)"


def test_missing_packages_finds_a_distribution_however_its_name_is_spelled():
    # packages.json spells them as their wheels do (Jinja2, linkify-it-py); the one pass over the
    # installed distributions compares canonical names, as importlib.metadata.version does.
    import importlib.metadata
    spellings = [("Jinja2", "jinja2"), ("JINJA2", "jinja2"), ("linkify_it_py", "linkify-it-py"),
                 ("Linkify.It-Py", "linkify-it-py"), ("Markdown", "markdown")]
    wanted = [(asked, importlib.metadata.version(name)) for asked, name in spellings]
    assert worker_protocol.missing_packages(wanted) == ""
    assert worker_protocol.missing_packages([("jinja2", "0.0.0")]) == \
        f"jinja2 0.0.0 (found {importlib.metadata.version('jinja2')})"


class _CPythonWorkerApi:
    """Panel's worker encoding (``panel.io.pyodide._process_document_events``) without the JS objects."""

    def encode(self, doc, events):
        from bokeh.core.serialization import Serializer

        serializer = Serializer(references=doc.models.synced_references)
        patch = {"events": serializer.encode(events)}
        doc.models.flush_synced(lambda model: not serializer.has_ref(model))
        return patch, {}

    def decode(self, patch):
        return patch

    def ready(self, doc):
        pass


def _defined_ids(node):
    """Ids of the models a patch defines in full (a bare {"id": ...} is only a reference)."""
    if isinstance(node, dict):
        found = {node["id"]} if "id" in node and "attributes" in node else set()
        return found.union(*(_defined_ids(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(_defined_ids(v) for v in node))
    return set()


def test_a_model_added_just_before_a_change_from_the_page_reaches_the_page_in_full(monkeypatch):
    # A tab built in a task of its own adds models; a change from the page arrives before
    # they are sent. Bokeh's apply_json_patch marks every model in the document as known to
    # the page, so they must go first, or the page gets a reference it has never seen.
    import asyncio

    from bokeh.document import Document
    from bokeh.models import Column, Div
    from panel.io.state import set_curdoc

    monkeypatch.setattr(worker_protocol, "_panel_worker_api", _CPythonWorkerApi)
    monkeypatch.setattr(worker_protocol, "_link", None)
    field, tab = Div(text="typed here"), Column(children=[])
    doc = Document()
    doc.add_root(Column(children=[field, tab]))
    doc.to_json()  # what the page rendered: every model so far is known to it
    sent = []

    async def reader_opens_a_tab_then_types():
        worker_protocol.link(lambda patch, buffers: sent.append(patch))
        built = Div(text="the new tab")
        tab.children = [built]
        worker_protocol.apply_patch({"events": [
            {"kind": "ModelChanged", "model": {"id": field.id}, "attr": "text", "new": "typed"}]})
        await asyncio.sleep(0)
        return built

    with set_curdoc(doc):
        built = asyncio.run(reader_opens_a_tab_then_types())
    assert field.text == "typed"
    assert any(e.get("attr") == "children" for p in sent for e in p["events"]), sent
    assert built.id in _defined_ids(sent), sent


# ---- the worker keeps the drawn pre-render (issue 27) ---------------------------------------------

def _fresh_render(location: dict, cdn_root: str | None, expect: str | None = None) -> tuple:
    """In a spawned interpreter, as the build and the worker each start one: (fingerprint, same, root ids)."""
    import asyncio
    import json
    import sys

    sys.path.insert(0, str(ROOT))
    from sitebuild.probe import pretend_pyodide

    pretend_pyodide(str(ROOT))
    from app import worker_protocol as protocol

    docs_json, _, root_ids, same = asyncio.run(protocol.start(json.dumps(location), cdn_root, expect=expect))
    return protocol.fingerprint(docs_json), same, json.loads(root_ids)


def _spawned(*args):
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(1, maxtasksperchild=1) as pool:
        return pool.apply(_fresh_render, args)


def test_a_worker_at_the_pages_address_renders_the_pre_render_id_for_id_and_another_scenario_does_not():
    from sitebuild.prerender import default_scenario

    build_fingerprint, _, build_roots = _spawned(default_scenario().location, None)
    assert build_roots[0].startswith("p") and int(build_roots[0][1:]) > worker_protocol.ID_BASE
    page = {"href": "http://127.0.0.1:8000/index.html", "origin": "http://127.0.0.1:8000", "protocol": "http:",
            "host": "127.0.0.1:8000", "hostname": "127.0.0.1", "port": "8000", "pathname": "/index.html",
            "search": "", "hash": ""}
    # Its own CDN root and address (filled in later), the same document: the page keeps what it drew.
    fingerprint, same, roots = _spawned(page, "http://127.0.0.1:8000/panel/", build_fingerprint)
    assert same and roots == build_roots and worker_protocol.same_render(fingerprint, build_fingerprint)
    other = {**page, "href": page["href"] + "?seed=1", "search": "?seed=1"}
    assert _spawned(other, "http://127.0.0.1:8000/panel/", build_fingerprint)[1] is False


def test_a_fingerprint_ignores_only_what_the_page_never_reads():
    import json

    from panel.io.resources import CDN_ROOT

    def docs(text="A", tag=140578788042192, name="Column00316", url=CDN_ROOT, defs=("FlexBox1",)):
        body = {"version": "3.9.2", "title": "t", "roots": [{"type": "object", "name": "Div", "id": "p10117",
                "attributes": {"name": name, "text": text, "tags": [[tag, [None, "value"]]],
                               "stylesheets": [f"{url}1.9.4/dist/css/button.css"]}}],
                "defs": [{"type": "model", "name": n} for n in defs], "callbacks": {"type": "map"}}
        return json.dumps({"21ac8100-921b-4e57-8372-e00a66dd26bb": body})

    base = worker_protocol.fingerprint(docs())
    alike = [docs(tag=9), docs(name="Column00222"), docs(url="http://127.0.0.1:8000/panel/"),
             docs().replace("21ac8100", "99999999")]
    assert [worker_protocol.fingerprint(d).split()[0] for d in alike[:1] + alike[1:2] + alike[3:]] == \
        [base.split()[0]] * 3
    # Another CDN root is the same only in the process whose root it is (the worker's).
    assert worker_protocol.fingerprint(alike[2]) != base
    for different in (docs(text="B"), docs(name="Row00316"), docs().replace('"p10117"', '"p10118"')):
        assert not worker_protocol.same_render(worker_protocol.fingerprint(different), base)
    # The page may know more data-model classes than the worker uses, never fewer.
    assert worker_protocol.same_render(worker_protocol.fingerprint(docs(defs=())), base)
    assert not worker_protocol.same_render(worker_protocol.fingerprint(docs(defs=("FlexBox1", "click1"))), base)


def _collections_during_start() -> dict:
    """In a spawned interpreter: how many collections Python ran while start() built the page, and the
    collector's state after it."""
    import asyncio
    import gc
    import json
    import sys

    sys.path.insert(0, str(ROOT))
    from sitebuild.probe import pretend_pyodide

    pretend_pyodide(str(ROOT))
    from app import worker_protocol as protocol
    from sitebuild.prerender import default_scenario

    location = json.dumps(default_scenario().location)  # its imports are not start()'s
    ran = []
    gc.callbacks.append(lambda phase, info: ran.append(info["generation"]) if phase == "start" else None)

    async def run():
        await protocol.start(location)
        return len(ran)  # before the tasks the page's callbacks left run

    during = asyncio.run(run())
    return {"during": during, "enabled": gc.isenabled(), "frozen": gc.get_freeze_count()}


def test_no_collection_walks_the_start_ups_objects_and_collecting_resumes_after_it():
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(1, maxtasksperchild=1) as pool:
        got = pool.apply(_collections_during_start)
    assert got["during"] == 0, got
    assert got["enabled"], got
    assert got["frozen"] > 50_000, got  # the page's objects, out of every later collection
