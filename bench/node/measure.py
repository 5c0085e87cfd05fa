# Run in Pyodide by start.mjs: the worker's Python start-up (app/worker_protocol.py), stage by stage, in ms.
# Importing numpy, Bokeh and Panel is done here first, under worker_protocol.start's own settings, so start()
# itself is running the app and writing the document.
import json
import os
import time

t0 = time.perf_counter()
import app.worker_protocol as worker_protocol  # noqa: E402

missing = worker_protocol.missing_packages(json.loads(WANTED))  # noqa: F821 (set by start.mjs)
t1 = time.perf_counter()
os.environ["BOKEH_PERFORM_ERROR_DIAGNOSTICS"] = "false"
from app.fast_import import bokeh_without_signatures, templates_when_used  # noqa: E402

with bokeh_without_signatures(), templates_when_used():
    import panel.io.pyodide as pyodide_io
t2 = time.perf_counter()
write_doc, written = pyodide_io.write_doc, {}


async def timed_write_doc(*args, **kwargs):
    start = time.perf_counter()
    result = await write_doc(*args, **kwargs)
    written["ms"] = (time.perf_counter() - start) * 1000
    return result

pyodide_io.write_doc = timed_write_doc
await worker_protocol.start(LOCATION, "http://127.0.0.1/panel/")  # noqa: F704, F821
t3 = time.perf_counter()
print(json.dumps({"missing": missing, "packages check": (t1 - t0) * 1000, "imports": (t2 - t1) * 1000,
                  "app": (t3 - t2) * 1000 - written["ms"], "write document": written["ms"]}))
