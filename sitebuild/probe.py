"""What the app imports in the page: run it as the page's worker does, and watch.

The worker starts the app with ``app/worker_protocol.py``; so does this probe, in
a fresh (spawned) interpreter where ``js``, ``pyodide`` and ``_pyodide`` are
stand-ins, so Panel takes its Pyodide code paths (it checks ``'_pyodide' in
sys.modules``) in its worker mode (no ``js.document``), and the modules the page
never installs (``NOT_IN_PAGE``) raise ImportError as they would there. After the
first render every button is clicked, every option chosen and every tab opened a
few times, to catch imports that a callback makes later.
"""

from __future__ import annotations

import json
import multiprocessing
import sys
import types
from pathlib import Path

from .project import ENTRY, EXAMPLE_QUERY, ROOT

# Importable here but never installed in the page. tornado: Bokeh does not
# require it on emscripten, and Panel's Location falls back when it is
# missing. pandas (well over 4 MB) and panel-material-ui: Panel's metadata
# pulls them in, but Panel runs without them when the app does not use them.
NOT_IN_PAGE = {
    "tornado": "Bokeh does not install it on emscripten (Pyodide)",
    "pandas": "a WebAssembly package of well over 4 MB that the page must not fetch",
    "panel_material_ui": "not needed by the app; Panel runs without it in Pyodide",
    "tqdm": "only Panel's Tqdm indicator uses it (panel.widgets.indicators runs without it), and importing it "
            "reads its version from its METADATA",
}


def example_location() -> dict:
    """window.location of the page opened with the example scenario, as JSON.stringify gives it."""
    return {"href": "http://127.0.0.1/index.html" + EXAMPLE_QUERY, "origin": "http://127.0.0.1",
            "protocol": "http:", "host": "127.0.0.1", "hostname": "127.0.0.1", "port": "",
            "pathname": "/index.html", "search": EXAMPLE_QUERY, "hash": ""}


class _Stub(types.ModuleType):
    """Any attribute, call or iteration: enough of ``js``/``pyodide`` for Panel's Pyodide paths."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Stub(name)

    def __call__(self, *args, **kwargs):
        return _Stub("call")

    def __iter__(self):
        return iter(())


class _JS(_Stub):
    def __getattr__(self, name):
        if name == "document":  # a worker has no DOM
            raise AttributeError(name)
        return super().__getattr__(name)


class _Hiding:
    """Wraps an import finder so the NOT_IN_PAGE modules look not installed (find_spec gives None)."""

    def __init__(self, finder):
        self.finder = finder

    def find_spec(self, name, path=None, target=None):
        find = getattr(self.finder, "find_spec", None)
        if name.split(".")[0] in NOT_IN_PAGE or find is None:
            return None
        return find(name, path, target)

    def __getattr__(self, name):
        return getattr(self.finder, name)


def pretend_pyodide(root: str) -> dict:
    """Make this interpreter look like the page's worker to Panel; return the stand-in modules.

    For a spawned interpreter only: it changes sys.modules and the import hooks for good.
    """
    stubs = {"_pyodide": _Stub("_pyodide"), "js": _JS("js"), "pyodide": _Stub("pyodide"),
             "pyodide.ffi": _Stub("pyodide.ffi"), "pyodide.http": _Stub("pyodide.http"),
             "pyodide_http": _Stub("pyodide_http")}
    sys.modules.update(stubs)
    sys.meta_path[:] = [_Hiding(finder) for finder in sys.meta_path]
    sys.path.insert(0, root)
    return stubs


def probe_imports(root: str, location_json: str) -> dict:
    """Run the app as the worker would; return the top-level modules imported and what went wrong
    while exercising it (reported, not fatal), or {"error": ...} when it cannot start."""
    import asyncio

    baseline = {name.split(".")[0] for name in sys.modules}  # interpreter start-up, .pth hooks
    stubs = pretend_pyodide(root)

    from panel.viewable import ServableMixin

    from app import worker_protocol

    # What the app marks .servable(): the roots whose widgets the probe exercises.
    servables = []
    servable = ServableMixin.servable

    def recording(self, *args, **kwargs):
        servables.append(self)
        return servable(self, *args, **kwargs)

    ServableMixin.servable = recording
    entry = str(Path(root) / ENTRY.relative_to(ROOT))

    async def run():
        await worker_protocol.start(location_json)
        worker_protocol.link(lambda *args: None)
        return await exercise_widgets(servables)

    try:
        actions, problems = asyncio.run(run())
    except Exception as exc:
        import traceback
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == entry]
        where = f" (app/main.py line {frames[-1].lineno})" if frames else ""
        return {"error": f"{type(exc).__name__}: {exc}{where}"}

    import sysconfig
    stdlib_dirs = tuple({sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib")})
    modules = {}
    for name in sorted({name.split(".")[0] for name in sys.modules} - set(stubs) - baseline):
        origin = getattr(sys.modules.get(name), "__file__", None) or ""
        # Some packages register stdlib copies under new names (markdown's "htmlparser").
        modules[name] = "stdlib" if origin.startswith(stdlib_dirs) and "site-packages" not in origin else origin
    # Every module, submodules too (the slim wheels leave out some that must stay unused).
    imported = sorted(name for name in sys.modules if name.split(".")[0] not in stubs)
    return {"modules": modules, "imported": imported, "actions": actions, "problems": problems}


async def exercise_widgets(roots) -> tuple[int, list[str]]:
    """Click, choose and open everything under ``roots`` a few times; return how many actions ran, and what failed."""
    import asyncio

    import panel as pn

    problems = []
    done = []
    pending = []

    def attempt(what, action):
        try:
            action()
            done.append(what)
        except Exception as exc:  # a callback refusing an action is fine here
            problems.append(f"{what}: {type(exc).__name__}: {exc}")
        pending.append(what)

    def everything():
        seen, found = set(), []
        for root in roots:
            for obj in root.select():
                if id(obj) not in seen:
                    seen.add(id(obj))
                    found.append(obj)
        return found

    for _round in range(3):
        for obj in everything():
            if getattr(obj, "disabled", False) or not getattr(obj, "visible", True):
                continue
            if isinstance(obj, pn.widgets.Button):
                attempt(f"click {obj.name!r}", lambda o=obj: setattr(o, "clicks", o.clicks + 1))
            elif isinstance(obj, pn.layout.Tabs):
                for i in range(len(obj)):
                    attempt(f"open tab {i}", lambda o=obj, i=i: setattr(o, "active", i))
            elif isinstance(obj, pn.widgets.Widget) and "options" in obj.param:
                options = obj.options
                values = list(options.values()) if isinstance(options, dict) else list(options)
                for value in values:
                    setter = (lambda o=obj, v=value: setattr(o, "value", [v])) \
                        if isinstance(obj.value, list) else (lambda o=obj, v=value: setattr(o, "value", v))
                    attempt(f"choose {value!r} in {obj.name!r}", setter)
            elif isinstance(obj, pn.widgets.Widget) and "start" in obj.param and "end" in obj.param:
                for bound in (obj.end, obj.start):
                    if bound is not None:
                        attempt(f"set {obj.name!r} to {bound!r}", lambda o=obj, b=bound: setattr(o, "value", b))
            if pending:
                pending.clear()
                await asyncio.sleep(0)  # let work the action scheduled run (and import what it needs)
    return len(done), problems


def run_probe() -> dict:
    """probe_imports in a spawned interpreter (it changes sys.modules and import hooks for good)."""
    location = json.dumps(example_location())
    context = multiprocessing.get_context("spawn")
    with context.Pool(1) as pool:
        return pool.apply(probe_imports, (str(ROOT), location))
