"""app/worker_protocol.py on CPython: the parts that need no browser.

Its start/link/apply_patch run in real Pyodide in test_build_output.py (under Node)
and test_real_page.py (in Chromium); the build's probe runs them under stand-ins.
"""

import panel

from app import worker_protocol


def test_missing_packages_names_what_is_absent_or_at_another_version():
    assert worker_protocol.missing_packages([("panel", panel.__version__)]) == ""
    assert worker_protocol.missing_packages([("panel", "0.0.1"), ("no-such-dist", "1.0")]) == \
        f"panel 0.0.1 (found {panel.__version__}), no-such-dist 1.0 (found None)"


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
