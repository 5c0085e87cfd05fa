"""Start the built app's Python in Pyodide under Node, as the page's worker does.

The page gets numpy, PyYAML, MarkupSafe, nh3 and pyodide-http from the Pyodide
CDN, which no machine here reaches. This runs everything else for real: the
built wheels (slim, byte-compiled to Python 3.13) unpacked into Pyodide 0.29.3,
Panel's Pyodide code paths (init_doc, write_doc, _link_docs_worker), and the
app's code exactly as worker.js runs it (the pieces build.py wrote into
worker.js). The missing compiled packages are replaced by the small stand-ins
in ``standins/`` (a numpy with no arrays, pass-through nh3 and pyodide_http)
and by the pure-Python fallbacks of MarkupSafe and PyYAML copied from the
installed packages. So a pass here means: the page's Python starts and a click
is answered, given a real numpy from the CDN.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
STANDINS = HERE / "standins"


def worker_config(static: Path) -> dict:
    """The CONFIG object build.py wrote into worker.js."""
    text = (static / "worker.js").read_text(encoding="utf-8")
    match = re.search(r"^const CONFIG = (\{.*?^\});$", text, re.S | re.M)
    assert match, "worker.js has no CONFIG object"
    return json.loads(match.group(1))


def pure_python_copies(dest: Path) -> list[Path]:
    """MarkupSafe and PyYAML from site-packages, without their compiled speed-ups."""
    import markupsafe
    import yaml

    folders = []
    for module in (markupsafe, yaml):
        source = Path(module.__file__).parent
        target = dest / source.name
        target.mkdir(parents=True)
        for file in source.glob("*.py"):
            if file.name != "cyaml.py":  # yaml's libyaml binding
                shutil.copyfile(file, target / file.name)
        folders.append(target)
    return folders


SCRIPT = r'''
import asyncio, json, sys, time
from pyodide.code import eval_code_async, run_js

# A worker has XMLHttpRequest; Node does not (panel.io.pyodide imports the name).
run_js("globalThis.XMLHttpRequest = class XMLHttpRequest {}")

CODE = json.loads(sys.argv[1])
LOCATION = sys.argv[2]
CLICK = sys.argv[3]
report = {}

async def main():
    import os
    os.environ["PANEL_CDN_ROOT"] = "http://127.0.0.1:9/panel/"
    app = {"__name__": "__main__"}
    started = time.perf_counter()
    await eval_code_async(CODE["pre"], globals=app)
    from panel.io.state import state
    from panel.util import edit_readonly
    if state.location is not None:
        data = json.loads(LOCATION)
        with edit_readonly(state.location):
            state.location.param.update({k: v for k, v in data.items() if k in state.location.param})
    docs_json, render_items, root_ids = await eval_code_async(
        CODE["source"] + "\n" + CODE["post"], globals=app, filename="app/main.py")
    report["seconds_to_render"] = round(time.perf_counter() - started, 2)
    report["docs_json"] = docs_json
    report["root_ids"] = json.loads(root_ids)

    patches = []
    from panel.io.pyodide import _link_docs_worker
    _link_docs_worker(state.curdoc, lambda patch, buffers, msg_id=None: patches.append(patch), setter="js")

    # The click as BokehJS sends it: a button_click event for the button's model.
    from panel.widgets import Button
    buttons = [b for view in list(state._views.values()) for b in view[0].select(Button)
               if b.name == CLICK and not b.disabled]
    report["buttons_found"] = len(buttons)
    if buttons:
        model_ids = [ref for ref in buttons[0]._models]
        model = buttons[0]._models[model_ids[0]][0]
        patch = {"events": [{"kind": "MessageSent", "msg_type": "bokeh_event", "msg_data": {
            "type": "event", "name": "button_click",
            "values": {"type": "map", "entries": [["model", {"id": model.id}]]}}}]}
        from panel.io.pyodide import _convert_json_patch
        import js
        from pyodide.ffi import to_js
        js_patch = to_js(patch, dict_converter=js.Object.fromEntries)  # what postMessage delivers
        state.curdoc.apply_json_patch(_convert_json_patch(js_patch), setter="js")
        for _ in range(20):
            await asyncio.sleep(0.05)
    def as_json(patch):
        if hasattr(patch, "to_py"):
            patch = patch.to_py()
        return patch if isinstance(patch, str) else json.dumps(patch, default=str)

    report["patches"] = [as_json(p) for p in patches]
    report["python"] = sys.version.split()[0]
    versions = {}
    import importlib.metadata as md
    for name in ("panel", "bokeh", "param"):
        versions[name] = md.version(name)
    report["versions"] = versions
    loaded = sorted({m.split(".")[0] for m in sys.modules})
    report["modules"] = loaded
    print(json.dumps(report))

async def guarded():
    try:
        await main()
    except BaseException:
        import traceback
        print(json.dumps({"error": traceback.format_exc()}))
    finally:
        # Panel leaves timers running; end Node once stdout has drained.
        sys.stdout.flush()
        run_js("setTimeout(() => process.exit(0), 300)")

asyncio.run(main()) if False else None
'''


def run_app_in_pyodide(static: Path, location: dict, click: str = "Draft", timeout: float = 300) -> dict:
    """Run the built app in Pyodide under Node; return what it rendered and the patches a click sent."""
    import sys as _sys

    _sys.path.insert(0, str(HERE.parent))
    from pyodide_runner import run_in_pyodide

    code = worker_config(static)["code"]
    wheels = sorted((static / "wheels").glob("*.whl"))
    with tempfile.TemporaryDirectory(prefix="specstep-standins-") as tmp:
        copies = pure_python_copies(Path(tmp))
        mounts = [str(p) for p in copies] + [str(p) for p in sorted(STANDINS.iterdir()) if p.is_dir()]
        # Top-level await: the runner runs the script with runpy, so drive the loop here.
        script = SCRIPT.replace("asyncio.run(main()) if False else None",
                                "import pyodide.webloop\nloop = asyncio.get_event_loop()\n"
                                "task = loop.create_task(guarded())\n")
        out = run_in_pyodide(script, mounts=mounts, wheels=wheels,
                             args=(json.dumps(code), json.dumps(location), click), timeout=timeout)
    lines = [line for line in out.splitlines() if line.startswith("{")]
    assert lines, f"the app printed no report:\n{out[-2000:]}"
    return json.loads(lines[-1])
