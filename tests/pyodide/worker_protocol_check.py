"""Run in Pyodide under Node: start the built app with app/worker_protocol.py, as web/worker.js does.

    argv: LOCATION_JSON BUTTON_LABEL

Starts the app, links the document, clicks the button (a button_click event, as
BokehJS sends it, applied with apply_patch) and prints one JSON report: what
start() rendered, and every patch the app sent for the click.
"""

import asyncio
import json
import sys
import time

import js
from pyodide.code import run_js
from pyodide.ffi import to_js

# A worker has XMLHttpRequest; Node does not (panel.io.pyodide imports the name).
run_js("globalThis.XMLHttpRequest = class XMLHttpRequest {}")

LOCATION, LABEL = sys.argv[1], sys.argv[2]


def button_id(docs_json: str, label: str) -> str | None:
    """The id of the Button model with this label in the rendered document."""
    found = []

    def walk(node):
        if isinstance(node, dict):
            if node.get("name") == "panel.models.widgets.Button" and \
                    node.get("attributes", {}).get("label") == label:
                found.append(node["id"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(json.loads(docs_json))
    return found[0] if found else None


async def main():
    from app import worker_protocol

    report = {}
    started = time.perf_counter()
    report["missing"] = worker_protocol.missing_packages([("numpy", "0.0"), ("no-such-dist", "1.0")])
    docs_json, render_items, root_ids, _ = await worker_protocol.start(LOCATION, "http://127.0.0.1:9/panel/")
    report["seconds_to_render"] = round(time.perf_counter() - started, 2)
    # What the page's start-up leaves for first use (sitebuild/lazy_bokeh.py) or never ships (probe.NOT_IN_PAGE).
    report["imported"] = sorted(m for m in ("yaml", "gzip", "tqdm") if m in sys.modules)
    report["root_ids"] = json.loads(root_ids)
    patches = []
    worker_protocol.link(lambda patch, buffers: patches.append(js.JSON.stringify(patch)))
    await asyncio.sleep(0.5)
    patches.clear()  # what linking itself sent
    model = button_id(docs_json, LABEL)
    report["button_found"] = model is not None
    if model:
        click = {"events": [{"kind": "MessageSent", "msg_type": "bokeh_event", "msg_data": {
            "type": "event", "name": "button_click",
            "values": {"type": "map", "entries": [["model", {"id": model}]]}}}]}
        worker_protocol.apply_patch(to_js(click, dict_converter=js.Object.fromEntries))
        report["patches_before_idle"] = len(patches)
        await asyncio.sleep(1.0)
    report["patches"] = patches
    report["python"] = sys.version.split()[0]
    import importlib.metadata as md
    report["versions"] = {name: md.version(name) for name in ("panel", "bokeh", "numpy")}
    import numpy
    report["numpy_works"] = int(numpy.arange(4).sum())
    print(json.dumps(report))


async def guarded():
    try:
        await main()
    except BaseException:
        import traceback
        print(json.dumps({"error": traceback.format_exc()}))
    finally:
        sys.stdout.flush()
        # Panel leaves timers running; end Node once stdout has drained.
        run_js("setTimeout(() => process.exit(0), 300)")


task = asyncio.get_event_loop().create_task(guarded())
