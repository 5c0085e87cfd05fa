"""Build the widget as a static site whose Python runs in the reader's browser.

    python build.py [--out static] [--pyodide-url URL] [--load-timeout S] [--serve [--port N]]

``static/`` is a folder any static host serves as is (GitHub Pages, a course
site). Its ``index.html`` is ``panel convert``'s pyodide-worker page for
``app/main.py`` (the app's first state pre-rendered, so the widget shows
before Python has loaded), with these changes (issue 4, DESIGN.md):

- BokehJS and Panel's JS/CSS are copied from the installed packages, so the
  page depends on no CDN but Pyodide's own.
- The worker (``worker.js``, from ``web/``) installs exactly the packages in
  ``packages.json``, which this build writes: the distributions the app was
  seen to import (found by running it under a stand-in for Pyodide, see
  ``probe_imports``), compiled ones from the Pyodide release by name, the
  pure-Python ones as slim wheels in ``wheels/``, byte-compiled to Python 3.13
  with Pyodide's own Python under Node; our ``core``, ``toy_tables`` and
  ``app`` are one more wheel. Nothing is resolved from package metadata, so
  neither pandas nor panel-material-ui is fetched.
- ``loader.js`` says what is loading (runtime, packages, app) and, if the
  runtime cannot load within ``--load-timeout`` seconds or anything fails,
  says so in plain words; the pre-rendered widget stays on screen.
- A service worker and a manifest, so a second visit starts from cache.
- ``embed.html`` (an iframe example and the snippet), ``build-info.json``.

``--serve`` then serves ``static/`` on 127.0.0.1 (file:// cannot run
Pyodide) and prints the URL.
"""

from __future__ import annotations

import argparse
import base64
import dataclasses
import hashlib
import http.server
import importlib.metadata
import json
import multiprocessing
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
import zipfile
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent
WEB = ROOT / "web"
ENTRY = ROOT / "app" / "main.py"
OUR_PACKAGES = ("core", "toy_tables", "app")
PYODIDE_NPM = ROOT / "sitebuild" / "npm" / "node_modules" / "pyodide"
SITE_PACKAGES_IN_PYODIDE = "/lib/python3.13/site-packages"
DEFAULT_LOAD_TIMEOUT = 30.0
# The scenario the embed example and the docs use (issue 4).
EXAMPLE_QUERY = "?draft=biased&width=3&seed=1"

# Importable here but never installed in the page. tornado: Bokeh does not
# require it on emscripten, and Panel's Location falls back when it is
# missing. pandas (well over 4 MB) and panel-material-ui: Panel's metadata
# pulls them in, but Panel runs without them when the app does not use them.
NOT_IN_PAGE = {
    "tornado": "Bokeh does not install it on emscripten (Pyodide)",
    "pandas": "a WebAssembly package of well over 4 MB that the page must not fetch",
    "panel_material_ui": "not needed by the app; Panel runs without it in Pyodide",
}
# Needed in the page although the app never imports it: panel.io.pyodide
# imports pandas when pyodide_http is missing. From the Pyodide release.
ALWAYS_FROM_PYODIDE = ("pyodide-http",)

# What the page never reads from the slim wheels (DESIGN.md: the JS/CSS is
# served separately; in Pyodide Panel reads only _templates/, layout/*.html,
# package.json and theme/css/ besides its Python; Bokeh its core/_templates
# and _sri/). Paths are relative to site-packages.
SLIM_DROP = (
    re.compile(r"^panel/dist/"),
    re.compile(r"^panel/tests/"),
    re.compile(r"^panel/styles/"),  # .less sources of dist/css
    re.compile(r"^panel/(package-lock\.json|eslint\.config\.js|tsconfig\.json|index\.ts)$"),
    re.compile(r"^panel/.*\.ts$"),  # TypeScript sources of panel.min.js
    re.compile(r"^bokeh/server/static/"),  # BokehJS, served from bokeh/ instead
    re.compile(r"^bokeh/sphinxext/"),
    re.compile(r"\.d\.ts$|\.tsbuildinfo$"),
    re.compile(r"^pyviz_comms/labextension/static/"),  # JupyterLab only
    re.compile(r"^typings/"),
    re.compile(r"\.pyi$|/py\.typed$"),
)
DIST_INFO_DROP = {"RECORD", "INSTALLER", "REQUESTED", "direct_url.json"}
# Folders of Panel's dist/ the page may need at run time besides what the
# pre-rendered page references: widget CSS, the spinners it points at, themes.
PANEL_DIST_DIRS = ("css", "assets", "bundled/theme")
PWA_ICONS = ("favicon.ico", "icon-vector.svg", "icon-32x32.png", "icon-192x192.png",
             "icon-512x512.png", "apple-touch-icon.png")
ZIP_TIME = (1980, 1, 1, 0, 0, 0)


class BuildError(Exception):
    """A problem the user can fix; printed as one line."""


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------

class _Parser(argparse.ArgumentParser):
    def error(self, message):
        sys.stderr.write(f"build.py: {message} (see python build.py --help)\n")
        raise SystemExit(2)


def parse_args(argv, resolve_url=True):
    """Parse the options; ``resolve_url=False`` checks them without importing Panel (before bootstrap)."""
    parser = _Parser(
        prog="python build.py",
        description="Build the widget into a static site that runs Python in the browser (Pyodide).",
    )
    parser.add_argument("--out", default="static", help="output folder, replaced completely (default: static)")
    parser.add_argument("--pyodide-url", default=None, metavar="URL",
                        help="where the page loads Pyodide 0.29.3 from: the URL of pyodide.js or of its "
                             "folder (default: the public release Panel uses)")
    parser.add_argument("--load-timeout", type=float, default=DEFAULT_LOAD_TIMEOUT, metavar="S",
                        help="seconds the runtime may take before the page says it could not load (default: 30)")
    parser.add_argument("--serve", action="store_true", help="serve the folder on 127.0.0.1 after building")
    parser.add_argument("--port", type=int, default=None, help="port for --serve (default: 8000; 0 picks a free one)")
    args = parser.parse_args(argv)
    if args.port is not None and not args.serve:
        parser.error("--port only makes sense with --serve")
    args.port = 8000 if args.port is None else args.port
    if not 0 <= args.port <= 65535:
        parser.error(f"--port {args.port} is not a port number")
    if not 1 <= args.load_timeout <= 600:
        parser.error("--load-timeout must be between 1 and 600 seconds")
    if args.pyodide_url is not None or resolve_url:
        try:
            args.pyodide_url = pyodide_script_url(args.pyodide_url)
        except BuildError as exc:
            parser.error(str(exc))
    return args


def default_pyodide_url() -> str:
    """The pinned Pyodide release that ``panel convert`` itself loads."""
    from panel.io.convert import PYODIDE_URL
    return PYODIDE_URL


def pyodide_script_url(url: str | None) -> str:
    """Normalise ``--pyodide-url`` to the URL of ``pyodide.js`` (absolute http(s), or relative to the page)."""
    if url is None:
        return default_pyodide_url()
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", url) and not re.match(r"^https?://[^/\s]+", url):
        raise BuildError(f"--pyodide-url {url!r} must be an http(s) URL or a path relative to the page")
    if any(ch in url for ch in "\"'<>`\\ \n"):
        raise BuildError(f"--pyodide-url {url!r} contains characters a URL cannot have")
    if url.endswith("/"):
        url += "pyodide.js"
    if not url.endswith("/pyodide.js") and url != "pyodide.js":
        raise BuildError(f"--pyodide-url {url!r} must end in pyodide.js or / (the folder of pyodide.js)")
    return url


# ---------------------------------------------------------------------------
# What the app imports in the page
# ---------------------------------------------------------------------------

def probe_imports(entry: str, root: str, location_json: str) -> dict:
    """Run the entry module as Panel's worker would, and list what it imported.

    Runs in a fresh (spawned) interpreter. ``js``, ``pyodide`` and
    ``_pyodide`` are stand-ins, so Panel takes its Pyodide code paths (it
    checks ``'_pyodide' in sys.modules``) in its worker mode (no
    ``js.document``); ``NOT_IN_PAGE`` modules raise ImportError as they would
    in the page. After the first render every button is clicked, every
    option chosen and every tab opened a few times, to catch imports that a
    callback makes later. Returns the top-level modules imported and what
    went wrong while exercising (reported, not fatal).
    """
    import asyncio
    import types

    baseline = {name.split(".")[0] for name in sys.modules}  # interpreter start-up, .pth hooks

    class Stub(types.ModuleType):
        def __getattr__(self, name):
            if name.startswith("__"):
                raise AttributeError(name)
            return Stub(name)

        def __call__(self, *args, **kwargs):
            return Stub("call")

        def __iter__(self):
            return iter(())

    class JS(Stub):
        def __getattr__(self, name):
            if name == "document":  # a worker has no DOM
                raise AttributeError(name)
            return super().__getattr__(name)

    stubs = {"_pyodide": Stub("_pyodide"), "js": JS("js"), "pyodide": Stub("pyodide"),
             "pyodide.ffi": Stub("pyodide.ffi"), "pyodide.http": Stub("pyodide.http"),
             "pyodide_http": Stub("pyodide_http")}
    sys.modules.update(stubs)

    class Hiding:
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

    sys.meta_path[:] = [Hiding(finder) for finder in sys.meta_path]
    sys.path.insert(0, root)

    from panel.io.convert import POST, PRE
    source = Path(entry).read_text(encoding="utf-8")
    namespace = {"__name__": "__main__", "__file__": entry}

    async def run():
        exec(compile(PRE, "<panel PRE>", "exec"), namespace)
        apply_location(location_json)
        code = compile(source + "\n" + POST.replace("await ", "__result = "), entry, "exec",
                       flags=0)
        exec(code, namespace)
        return await namespace["__result"]

    def apply_location(data_json):
        from panel.io.state import state
        from panel.util import edit_readonly
        loc = state.location
        if loc is not None:
            data = json.loads(data_json)
            with edit_readonly(loc):
                loc.param.update({k: v for k, v in data.items() if k in loc.param})

    try:
        asyncio.run(run())
    except Exception as exc:
        import traceback
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == entry]
        where = f" (app/main.py line {frames[-1].lineno})" if frames else ""
        return {"error": f"{type(exc).__name__}: {exc}{where}"}

    async def exercise():
        # Inside a running loop, as in the page: callbacks that schedule work
        # with pn.state.execute (Panel's Pyodide path) need one.
        from panel.io.pyodide import _link_docs_worker
        from panel.io.state import state as panel_state
        _link_docs_worker(panel_state.curdoc, lambda *args: None, setter="js")
        return await exercise_widgets(panel_state)

    actions, problems = asyncio.run(exercise())

    import sysconfig
    stdlib_dirs = tuple({sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib")})
    modules = {}
    for name in sorted({name.split(".")[0] for name in sys.modules} - set(stubs) - baseline):
        origin = getattr(sys.modules.get(name), "__file__", None) or ""
        # Some packages register stdlib copies under new names (markdown's "htmlparser").
        modules[name] = "stdlib" if origin.startswith(stdlib_dirs) and "site-packages" not in origin else origin
    return {"modules": modules, "actions": actions, "problems": problems}


async def exercise_widgets(panel_state) -> tuple[int, list[str]]:
    """Click, choose and open everything on the page a few times; return how many actions ran, and what failed."""
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
        for view in list(panel_state._views.values()):
            for obj in view[0].select():
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


def run_probe(entry: Path) -> dict:
    location = json.dumps(example_location())
    context = multiprocessing.get_context("spawn")
    with context.Pool(1) as pool:
        return pool.apply(probe_imports, (str(entry), str(ROOT), location))


def example_location() -> dict:
    """window.location of the page opened with the example scenario, as JSON.stringify gives it."""
    return {"href": "http://127.0.0.1/index.html" + EXAMPLE_QUERY, "origin": "http://127.0.0.1",
            "protocol": "http:", "host": "127.0.0.1", "hostname": "127.0.0.1", "port": "",
            "pathname": "/index.html", "search": EXAMPLE_QUERY, "hash": ""}


@dataclasses.dataclass(frozen=True)
class PyodidePackage:
    name: str
    version: str
    file_name: str


@dataclasses.dataclass(frozen=True)
class SelfHosted:
    dist: str  # distribution name as installed
    version: str


@dataclasses.dataclass(frozen=True)
class Plan:
    from_pyodide: tuple[PyodidePackage, ...]
    self_hosted: tuple[SelfHosted, ...]


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pyodide_lock() -> dict:
    lock_path = PYODIDE_NPM / "pyodide-lock.json"
    package_json = PYODIDE_NPM / "package.json"
    if not lock_path.is_file():
        raise BuildError(f"the npm package pyodide is not installed in {PYODIDE_NPM.parent.parent.relative_to(ROOT)}/ "
                         "(run `npm ci` there, or `bash tests/run.sh`, which does)")
    want = pyodide_version()
    have = json.loads(package_json.read_text())["version"]
    if have != want:
        raise BuildError(f"sitebuild/npm has pyodide {have}, but Panel {panel_version()} pins {want} (run `npm ci` there)")
    return json.loads(lock_path.read_text())


def pyodide_version() -> str:
    from panel.io.convert import PYODIDE_VERSION
    return PYODIDE_VERSION.lstrip("v")


def panel_version() -> str:
    return importlib.metadata.version("panel")


def plan_packages(modules: dict[str, str], lock: dict) -> Plan:
    """Split the imported modules' distributions into Pyodide's compiled ones and pure-Python ones we ship.

    ``modules`` maps each imported top-level module to its file ("stdlib" for the standard library).
    """
    owners = importlib.metadata.packages_distributions()
    stdlib = set(sys.stdlib_module_names)
    dists, unknown = set(), []
    for module, origin in sorted(modules.items()):
        if module in stdlib or origin == "stdlib" or module in OUR_PACKAGES \
                or module.startswith("_") and module[1:] in stdlib:
            continue
        if module in NOT_IN_PAGE:
            raise BuildError(f"the app imports {module}, which the page cannot install: {NOT_IN_PAGE[module]}")
        names = owners.get(module)
        if names:
            dists.update(names)
        elif module.startswith("_") or module in {"cython_runtime", "sitecustomize", "usercustomize", "__mp_main__"}:
            continue  # extension-module helpers and interpreter internals
        else:
            unknown.append(module)
    if unknown:
        raise BuildError(f"cannot tell which package provides the imported module(s) {', '.join(sorted(unknown))}")
    dists.discard("specstep")
    packages = lock["packages"]
    from_pyodide, self_hosted = {}, []

    def add_from_pyodide(name):
        entry = packages[name]
        if name not in from_pyodide:
            from_pyodide[name] = PyodidePackage(name, entry["version"], entry["file_name"])
            for dep in entry.get("depends", []):
                add_from_pyodide(canonical(dep))

    for dist_name in sorted(dists, key=canonical):
        dist = importlib.metadata.distribution(dist_name)
        compiled = any(str(f).endswith((".so", ".pyd")) for f in dist.files or ())
        if compiled:
            key = canonical(dist_name)
            if key not in packages:
                raise BuildError(f"{dist_name} has compiled code and is not in the Pyodide {pyodide_version()} release")
            add_from_pyodide(key)
        else:
            self_hosted.append(SelfHosted(dist.metadata["Name"], dist.version))
    for name in ALWAYS_FROM_PYODIDE:
        add_from_pyodide(name)
    clash = {canonical(s.dist) for s in self_hosted} & set(from_pyodide)
    self_hosted = [s for s in self_hosted if canonical(s.dist) not in clash]
    return Plan(tuple(sorted(from_pyodide.values(), key=lambda p: p.name)),
                tuple(sorted(self_hosted, key=lambda s: canonical(s.dist))))


# ---------------------------------------------------------------------------
# Wheels
# ---------------------------------------------------------------------------

def stage_distribution(dist_name: str, dest: Path) -> tuple[Path, list[str]]:
    """Copy an installed pure-Python distribution into dest, minus what the page never reads.

    Returns the dist-info folder (relative) and the dropped paths.
    """
    dist = importlib.metadata.distribution(dist_name)
    dist_info = None
    dropped = []
    for file in dist.files or ():
        rel = PurePosixPath(str(file).replace(os.sep, "/"))
        if rel.parts[0] == ".." or "__pycache__" in rel.parts or rel.suffix == ".pyc":
            continue
        if rel.parts[0].endswith(".dist-info"):
            dist_info = rel.parts[0]
            if rel.name in DIST_INFO_DROP:
                continue
        elif any(rule.search(str(rel)) for rule in SLIM_DROP):
            dropped.append(str(rel))
            continue
        source = Path(dist.locate_file(file))
        if not source.is_file():
            continue
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
    if dist_info is None:
        raise BuildError(f"{dist_name}: no .dist-info folder among its installed files")
    return Path(dist_info), dropped


def stage_our_code(dest: Path) -> Path:
    """Our packages plus a dist-info written from pyproject.toml."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    name, version = project["name"], project["version"]
    for package in OUR_PACKAGES:
        source_dir = ROOT / package
        if not (source_dir / "__init__.py").is_file():
            raise BuildError(f"{package}/ is not a Python package (no __init__.py)")
        for source in sorted(source_dir.rglob("*")):
            rel = source.relative_to(ROOT)
            if not source.is_file() or "__pycache__" in rel.parts or source.suffix == ".pyc" \
                    or any(part.startswith(".") for part in rel.parts):
                continue
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
    dist_info = Path(f"{name}-{version}.dist-info")
    (dest / dist_info).mkdir()
    metadata = [
        "Metadata-Version: 2.1",
        f"Name: {name}",
        f"Version: {version}",
        f"Summary: {project.get('description', '')}",
        f"Requires-Python: {project.get('requires-python', '>=3.11')}",
    ]
    (dest / dist_info / "METADATA").write_text("\n".join(metadata) + "\n")
    (dest / dist_info / "WHEEL").write_text(
        "Wheel-Version: 1.0\nGenerator: specstep build.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
    (dest / dist_info / "top_level.txt").write_text("\n".join(OUR_PACKAGES) + "\n")
    return dist_info


def compile_trees(root: Path, trees: list[dict]) -> dict:
    """Byte-compile staged trees to Python 3.13 with Pyodide's Python under Node (web/compile_pyc.mjs)."""
    if shutil.which("node") is None:
        raise BuildError("node is not on PATH (Node 20 compiles the wheels with Pyodide's Python 3.13)")
    pyodide_lock()  # checks the npm package is there, at the pinned version
    job = root / "compile-job.json"
    job.write_text(json.dumps({"root": str(root), "trees": trees}))
    result = subprocess.run(["node", str(WEB / "compile_pyc.mjs"), str(PYODIDE_NPM), str(job)],
                            capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=600)
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise BuildError(f"byte-compiling with Pyodide failed: {last}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def wheel_tag(dist_info_dir: Path) -> str:
    wheel_file = dist_info_dir / "WHEEL"
    tags = [line.split(":", 1)[1].strip() for line in wheel_file.read_text().splitlines()
            if line.startswith("Tag:")] if wheel_file.is_file() else []
    pure = [t for t in tags if t.endswith("-none-any")]
    if len(pure) != len(tags) or not tags:
        return "py3-none-any"
    # One tag in the file name: py2.py3-none-any and the like keep their python part.
    return ".".join(sorted({t.split("-")[0] for t in pure})) + "-none-any"


def write_wheel(tree: Path, dist_info: Path, name: str, version: str, out_dir: Path) -> Path:
    """Zip a staged tree into a reproducible wheel with a fresh RECORD."""
    file_name = f"{re.sub(r'[-_.]+', '_', name).lower()}-{version}-{wheel_tag(tree / dist_info)}.whl"
    files = sorted(p for p in tree.rglob("*") if p.is_file())
    record_name = f"{dist_info.as_posix()}/RECORD"
    rows = []
    path = out_dir / file_name
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as whl:
        entries = [f for f in files if f.relative_to(tree).parts[0] != dist_info.name] + \
                  [f for f in files if f.relative_to(tree).parts[0] == dist_info.name]
        for file in entries:
            arcname = file.relative_to(tree).as_posix()
            data = file.read_bytes()
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            rows.append(f"{arcname},sha256={digest},{len(data)}")
            info = zipfile.ZipInfo(arcname, ZIP_TIME)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            whl.writestr(info, data)
        rows.append(f"{record_name},,")
        info = zipfile.ZipInfo(record_name, ZIP_TIME)
        info.external_attr = 0o644 << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        whl.writestr(info, "\n".join(rows) + "\n")
    return path


@dataclasses.dataclass(frozen=True)
class BuiltWheel:
    name: str
    version: str
    path: Path
    ours: bool
    dropped: int


def build_wheels(plan: Plan, work: Path, out_dir: Path) -> list[BuiltWheel]:
    out_dir.mkdir(parents=True)
    site = work / "site"
    staged, trees = [], []
    for item in plan.self_hosted:
        tree = site / canonical(item.dist)
        dist_info, dropped = stage_distribution(item.dist, tree)
        staged.append((item.dist, item.version, tree, dist_info, False, len(dropped)))
        trees.append({"path": str(tree.relative_to(work)), "sourceless": True,
                      "display_prefix": SITE_PACKAGES_IN_PYODIDE})
    ours = site / "specstep"
    dist_info = stage_our_code(ours)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    staged.append((project["name"], project["version"], ours, dist_info, True, 0))
    # Our code keeps its sources (readers may want to read them) beside the .pyc.
    trees.append({"path": str(ours.relative_to(work)), "sourceless": False,
                  "display_prefix": SITE_PACKAGES_IN_PYODIDE})
    compile_trees(work, trees)
    built = []
    for name, version, tree, dist_info, is_ours, dropped in staged:
        path = write_wheel(tree, dist_info, name, version, out_dir)
        built.append(BuiltWheel(name, version, path, is_ours, dropped))
    return built


# ---------------------------------------------------------------------------
# The page
# ---------------------------------------------------------------------------

def run_convert(entry: Path, dest: Path) -> tuple[str, str]:
    """``panel convert`` (its Python API) to a pyodide-worker page; returns (html, worker js)."""
    from panel.io.convert import convert_apps

    dest.mkdir(parents=True)
    convert_apps([str(entry)], dest_path=str(dest), runtime="pyodide-worker", requirements=[],
                 prerender=True, build_index=False, build_pwa=False, max_workers=1,
                 http_patch=False, inline=False, compiled=False, verbose=False)
    stem = entry.stem
    html, worker = dest / f"{stem}.html", dest / f"{stem}.js"
    if not html.is_file() or not worker.is_file():
        raise BuildError(f"panel convert could not convert {entry.relative_to(ROOT)} (its message is above)")
    return html.read_text(encoding="utf-8"), worker.read_text(encoding="utf-8")


def panel_escaped(code: str) -> str:
    """How panel.io.convert.script_to_html escapes the code it puts in its worker."""
    code = code.replace("${", "&#36;{")
    return code.encode("unicode_escape").decode("utf-8").replace("`", r"\`")


def worker_code(entry: Path, panel_worker_js: str) -> dict:
    """The Python the worker runs, in the pieces Panel's worker runs as one, checked against Panel's output."""
    from panel.io.application import build_single_handler_application
    from panel.io.convert import POST, PRE

    app = build_single_handler_application(str(entry))
    source = app._handlers[0]._runner.source
    if panel_escaped("\n".join([PRE, source, POST])) not in panel_worker_js:
        raise BuildError("panel convert's worker code is not PRE + app source + POST; build.py needs updating "
                         f"for panel {panel_version()}")
    return {"pre": PRE, "source": source, "post": POST}


class _Assets:
    """Maps the CDN URLs in the converted page to files copied into the output."""

    def __init__(self, out: Path):
        import bokeh
        from bokeh.resources import Resources
        from bokeh.util.paths import bokehjs_path
        from panel.io.resources import CDN_DIST, DIST_DIR

        self.out = out
        self.panel_cdn = CDN_DIST
        self.panel_dist = Path(DIST_DIR)
        main_js = f"/bokeh-{bokeh.__version__}.min.js"
        cdn_files = [url for url in Resources(mode="cdn").js_files if url.endswith(main_js)]
        if len(cdn_files) != 1:
            raise BuildError(f"cannot find BokehJS's CDN URL among {Resources(mode='cdn').js_files}")
        self.bokeh_cdn = cdn_files[0][: -len(main_js)] + "/"
        self.bokeh_js = Path(bokehjs_path()) / "js"
        self.bokeh_version = bokeh.__version__
        # Local folder for Panel's files mirrors the CDN below its root, as
        # PANEL_CDN_ROOT=<site>/panel/ makes Panel write them in the worker.
        root = CDN_DIST.split(f"{panel_version()}/dist/")[0]
        self.panel_local = "panel/" + CDN_DIST[len(root):]
        self.copied = {}

    def local(self, url: str) -> str | None:
        """Relative path for a CDN URL we can serve ourselves (copying the file), else None."""
        clean = url.split("?")[0].split("#")[0]
        if clean.startswith(self.panel_cdn):
            rel = clean[len(self.panel_cdn):]
            self.copy(self.panel_dist / rel, self.panel_local + rel)
            return self.panel_local + rel + url[len(clean):]
        if clean.startswith(self.bokeh_cdn):
            name = clean[len(self.bokeh_cdn):]
            source = self.bokeh_js / name.replace(f"-{self.bokeh_version}", "")
            self.copy(source, "bokeh/" + name)
            return "bokeh/" + name + url[len(clean):]
        return None

    def copy(self, source: Path, rel: str):
        from urllib.parse import unquote
        source = Path(unquote(str(source)))
        if not source.is_file():
            raise BuildError(f"the page references {rel}, but {source} is not installed")
        target = self.out / unquote(rel)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        self.copied[unquote(rel)] = source

    def copy_panel_dirs(self):
        for folder in PANEL_DIST_DIRS:
            for source in sorted((self.panel_dist / folder).rglob("*")):
                if source.is_file():
                    self.copy(source, self.panel_local + source.relative_to(self.panel_dist).as_posix())


URL_RE = re.compile(r"https?://[^\s\"'<>()\\]+")


def rewrite_page(html: str, assets: _Assets, title: str) -> str:
    """Panel's converted page with local JS/CSS, our loader in place of Panel's worker handler."""
    handler = re.compile(r'<script[^>]*>(?:(?!</script>).)*?new Worker\("\./[^"]+\.js"\)'
                         r"(?:(?!</script>).)*?</script>", re.S)
    found = handler.findall(html)
    if len(found) != 1:
        raise BuildError(f"expected one worker handler script in panel convert's page, found {len(found)}")
    html = handler.sub(lambda m: '<script type="text/javascript" src="loader.js"></script>', html)

    body = re.compile(r'<body class="pn-loading[^"]*">')
    if len(body.findall(html)) != 1:
        raise BuildError("expected panel convert's <body class=\"pn-loading ...\"> once")
    status = (WEB / "status.html").read_text(encoding="utf-8").strip()
    html = body.sub(lambda m: "<body>\n" + status, html)

    def replace(match):
        # Panel's and Bokeh's CDN files become local copies; other URLs (links in the
        # app's own text) stay, and check_site makes sure no script or style is among them.
        url = match.group(0)
        local = assets.local(url)
        return url if local is None else local

    html = URL_RE.sub(replace, html)
    head = (
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'    <meta name="description" content="{title}: an interactive widget that runs Python in your browser.">\n'
        '    <meta name="theme-color" content="#0072B5">\n'
        '    <link rel="manifest" href="site.webmanifest">\n'
        '    <link rel="icon" href="images/favicon.ico">\n'
        '    <link rel="apple-touch-icon" href="images/apple-touch-icon.png">\n'
        '    <link rel="stylesheet" href="loader.css">\n'
    )
    if html.count("<meta charset=\"utf-8\">") != 1:
        raise BuildError("expected one <meta charset=\"utf-8\"> in panel convert's page")
    return html.replace('<meta charset="utf-8">', '<meta charset="utf-8">\n    ' + head, 1)


def fill(template: str, values: dict) -> str:
    """Replace @@NAME@@ markers; every marker must be known and used."""
    used = set()

    def sub(match):
        name = match.group(1)
        if name not in values:
            raise BuildError(f"template marker @@{name}@@ has no value")
        used.add(name)
        return values[name]

    text = re.sub(r"@@([A-Z_]+)@@", sub, template)
    if used != set(values):
        raise BuildError(f"template does not use {sorted(set(values) - used)}")
    return text


def embed_snippet(title: str) -> str:
    """The iframe snippet for the example scenario, as the widget's own "Copy embed code" writes it."""
    try:
        from app.embed import snippet
        return snippet("index.html", EXAMPLE_QUERY)
    except (ImportError, AttributeError, TypeError):
        return (f'<iframe src="index.html{EXAMPLE_QUERY}" title="{html_escape(title)}" width="100%" '
                'height="1900" style="border:0;max-width:1200px" loading="lazy"></iframe>')


def html_escape(text: str) -> str:
    import html
    return html.escape(text, quote=True)


def js_json(value) -> str:
    """JSON safe inside a <script> element and a JS file."""
    return json.dumps(value, indent=2, sort_keys=True).replace("</", "<\\/")


def page_title(html: str) -> str:
    match = re.search(r"<title>(.*?)</title>", html, re.S)
    return match.group(1).strip() if match else "specstep"


def write_site(stage: Path, work: Path, pyodide_url: str, load_timeout: float, plan: Plan,
               wheels: list[BuiltWheel]) -> dict:
    html, panel_worker = run_convert(ENTRY, work / "convert")
    code = worker_code(ENTRY, panel_worker)
    title = page_title(html)
    assets = _Assets(stage)
    page = rewrite_page(html, assets, title)
    assets.copy_panel_dirs()
    (stage / "index.html").write_text(page, encoding="utf-8")

    index_url = pyodide_url[: pyodide_url.rfind("/") + 1] or "./"
    packages = {
        "comment": "Exactly what the page installs, with no dependency resolution: "
                   "from_pyodide by name from the Pyodide release, wheels from this folder.",
        "pyodide": {"version": pyodide_version(), "url": pyodide_url},
        "from_pyodide": [dataclasses.asdict(p) for p in plan.from_pyodide],
        "wheels": [{"name": w.name, "version": w.version, "file": f"wheels/{w.path.name}",
                    "bytes": w.path.stat().st_size, "sha256": sha256(w.path)} for w in wheels],
    }
    (stage / "packages.json").write_text(json.dumps(packages, indent=2) + "\n")

    worker_config = {
        "pyodideURL": pyodide_url,
        "pyodideIndexURL": index_url,
        "packagesList": "packages.json",
        "panelCdnRoot": "panel/",
        "code": code,
        "entry": f"app/{ENTRY.name}",
    }
    (stage / "worker.js").write_text(fill((WEB / "worker.js").read_text(), {"CONFIG": js_json(worker_config)}))
    host = re.match(r"^https?://([^/]+)/", pyodide_url)
    loader_config = {
        "worker": "worker.js",
        "loadTimeoutMs": int(load_timeout * 1000),
        "pyodideHost": host.group(1) if host else None,
        "serviceWorker": "serviceWorker.js",
    }
    (stage / "loader.js").write_text(fill((WEB / "loader.js").read_text(), {"CONFIG": js_json(loader_config)}))
    shutil.copyfile(WEB / "loader.css", stage / "loader.css")

    images = stage / "images"
    images.mkdir()
    for name in PWA_ICONS:
        shutil.copyfile(assets.panel_dist / "images" / name, images / name)
    manifest = {
        "name": title, "short_name": "specstep", "description": "Speculative decoding, one block at a time.",
        "start_url": "./index.html", "scope": "./", "display": "standalone",
        "background_color": "#ffffff", "theme_color": "#0072B5",
        "icons": [
            {"src": "images/icon-vector.svg", "type": "image/svg+xml", "sizes": "512x512"},
            {"src": "images/icon-32x32.png", "type": "image/png", "sizes": "32x32"},
            {"src": "images/icon-192x192.png", "type": "image/png", "sizes": "192x192"},
            {"src": "images/icon-512x512.png", "type": "image/png", "sizes": "512x512"},
        ],
    }
    (stage / "site.webmanifest").write_text(json.dumps(manifest, indent=2) + "\n")
    snippet = embed_snippet(title)
    (stage / "embed.html").write_text(fill((WEB / "embed.html").read_text(encoding="utf-8"), {
        "TITLE": html_escape(title), "SNIPPET_ESCAPED": html_escape(snippet),
        "SNIPPET_JSON": js_json(snippet), "IFRAME": snippet.replace("<iframe ", '<iframe id="example" ', 1),
    }), encoding="utf-8")

    # The service worker last: its cache name is a hash of every file. It precaches the
    # page's shell; the page sends it the rest of what it fetched (wheels, Pyodide, CSS).
    files = site_files(stage)
    build_id = hashlib.sha256("".join(f"{f['path']}:{f['sha256']}" for f in files).encode()).hexdigest()[:16]
    precache = sorted({"index.html", "embed.html", "loader.js", "loader.css", "worker.js", "packages.json",
                       "site.webmanifest", *(f"images/{name}" for name in PWA_ICONS),
                       *page_references(stage / "index.html")})
    pyodide_origin = re.match(r"^(https?://[^/]+)/", pyodide_url)
    (stage / "serviceWorker.js").write_text(fill((WEB / "serviceWorker.js").read_text(), {
        "BUILD_ID": json.dumps(build_id),
        "PRECACHE": js_json(["./"] + precache),
        "PYODIDE_ORIGIN": json.dumps(pyodide_origin.group(1) if pyodide_origin else None),
    }))
    return {"title": title, "build_id": build_id, "code_pieces": code, "packages": packages}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def site_files(folder: Path) -> list[dict]:
    return [{"path": p.relative_to(folder).as_posix(), "bytes": p.stat().st_size, "sha256": sha256(p)}
            for p in sorted(folder.rglob("*")) if p.is_file()]


def page_resources(html: str) -> list[str]:
    """What a page loads: script src, link href, and the stylesheets of a pre-rendered Bokeh document."""
    urls = re.findall(r'<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]+)"', html)
    for document in re.findall(r'<script type="application/json" id="[^"]+">(.*?)</script>', html, re.S):
        urls += re.findall(r'"name":"ImportedStyleSheet","id":"[^"]+","attributes":\{"url":"([^"]+)"', document)
    return urls


def page_references(page: Path) -> list[str]:
    """The files of this site a page loads, without query or fragment."""
    return sorted({url.split("?")[0].split("#")[0] for url in page_resources(page.read_text(encoding="utf-8"))
                   if not re.match(r"^[a-z]+:|^//", url)})


def check_site(stage: Path):
    """Every script and stylesheet the page loads is a file here (Pyodide is the worker's business)."""
    from urllib.parse import unquote
    html = (stage / "index.html").read_text(encoding="utf-8")
    for url in page_resources(html):
        if re.match(r"^[a-z]+:|^//", url):
            raise BuildError(f"index.html loads {url} from another site")
        if not (stage / unquote(url.split("?")[0].split("#")[0])).is_file():
            raise BuildError(f"index.html loads {url}, which is not in the build")


# ---------------------------------------------------------------------------
# Build
# ---------------------------------------------------------------------------

def prepare_output(out: Path) -> Path:
    """Check the output can be replaced; return a fresh staging folder beside it."""
    if out.exists() and not out.is_dir():
        raise BuildError(f"cannot write the output folder {out}: it is a file")
    if out.is_dir() and any(out.iterdir()) and not (out / "build-info.json").is_file():
        raise BuildError(f"{out} is not empty and not an earlier build (no build-info.json); "
                         "refusing to replace it")
    if out.resolve() in (ROOT, *ROOT.parents) or ROOT in out.resolve().parents and \
            out.resolve().relative_to(ROOT).parts[0] in (*OUR_PACKAGES, "tests", "web", "bench"):
        raise BuildError(f"refusing to build into {out}: it holds the project's own files")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        return Path(tempfile.mkdtemp(prefix=f".{out.name}.building-", dir=out.parent))
    except OSError as exc:
        raise BuildError(f"cannot write the output folder {out}: {exc.strerror or exc}") from None


def replace_output(stage: Path, out: Path):
    old = None
    if out.exists():
        old = out.parent / f".{out.name}.old-{os.getpid()}"
        out.rename(old)
    stage.rename(out)
    if old is not None:
        shutil.rmtree(old)


def build(out: Path, pyodide_url: str, load_timeout: float = DEFAULT_LOAD_TIMEOUT, log=print) -> dict:
    started = time.perf_counter()
    if not ENTRY.is_file():
        raise BuildError(f"{ENTRY.relative_to(ROOT)} does not exist (the app's entry module)")
    stage = prepare_output(out)
    try:
        with tempfile.TemporaryDirectory(prefix="specstep-build-") as tmp:
            work = Path(tmp)
            log("build.py: finding what the app imports (running it once under a stand-in for Pyodide)")
            probe = run_probe(ENTRY)
            if "error" in probe:
                raise BuildError("the app failed when run as in the page (Panel's Pyodide code paths, "
                                 f"without {', '.join(NOT_IN_PAGE)}): {probe['error']}")
            plan = plan_packages(probe["modules"], pyodide_lock())
            log(f"build.py: from Pyodide {pyodide_version()}: "
                + ", ".join(f"{p.name} {p.version}" for p in plan.from_pyodide))
            log("build.py: slim wheels: " + ", ".join(f"{s.dist} {s.version}" for s in plan.self_hosted))
            wheels = build_wheels(plan, work, stage / "wheels")
            log("build.py: converting app/main.py with panel convert (pre-rendering its first state)")
            site = write_site(stage, work, pyodide_url, load_timeout, plan, wheels)
            check_site(stage)
        seconds = time.perf_counter() - started
        info = build_info(stage, pyodide_url, wheels, site, probe, seconds)
        (stage / "build-info.json").write_text(json.dumps(info, indent=2) + "\n")
        replace_output(stage, out)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    return info


def build_info(stage: Path, pyodide_url: str, wheels: list[BuiltWheel], site: dict, probe: dict,
               seconds: float) -> dict:
    import bokeh
    ours = next(w for w in wheels if w.ours)
    files = site_files(stage)
    return {
        "pyodide": {"version": pyodide_version(), "url": pyodide_url},
        "panel": panel_version(),
        "bokeh": bokeh.__version__,
        "specstep": {"version": ours.version, "wheel": f"wheels/{ours.path.name}"},
        "title": site["title"],
        "build_id": site["build_id"],
        "build_seconds": round(seconds, 1),
        "from_pyodide": site["packages"]["from_pyodide"],
        "wheels": site["packages"]["wheels"],
        "probe": {"actions": probe["actions"], "problems": probe["problems"],
                  "modules": sorted(m for m, origin in probe["modules"].items()
                                    if origin != "stdlib" and m not in sys.stdlib_module_names
                                    and not m.startswith("_") and m != "cython_runtime")},
        "total_bytes": sum(f["bytes"] for f in files),
        "files": files,
    }


# ---------------------------------------------------------------------------
# Serve
# ---------------------------------------------------------------------------

class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
                      ".webmanifest": "application/manifest+json", ".whl": "application/zip",
                      ".json": "application/json"}

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")  # revalidate: a rebuild shows at once
        super().end_headers()

    def log_message(self, format, *args):
        pass


def serve(folder: Path, port: int):
    import functools
    handler = functools.partial(_Handler, directory=str(folder))
    try:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as exc:
        raise BuildError(f"cannot serve on 127.0.0.1:{port}: {exc.strerror or exc}") from None
    url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
    print(f"Serving {folder} at {url}  (embed example: {url.rsplit('/', 1)[0]}/embed.html; Ctrl+C stops)",
          flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def main(argv=None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    out = Path(args.out)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))  # `import app` for panel convert and the probe
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    try:
        info = build(out, args.pyodide_url, args.load_timeout)
        mb = info["total_bytes"] / 1e6
        print(f"build.py: built {out} in {info['build_seconds']} s: {len(info['files'])} files, {mb:.1f} MB "
              f"(Pyodide {info['pyodide']['version']} from {info['pyodide']['url']})", flush=True)
        if args.serve:
            serve(out, args.port)
    except BuildError as exc:
        sys.stderr.write(f"build.py: {exc}\n")
        return 1
    return 0


def bootstrap(argv):
    """Make ``python3 build.py`` work on a fresh machine (only Python, Node and npm).

    Without Panel importable, create ``.venv``, install the project into it and
    rerun this script there; without the npm package pyodide (the build
    byte-compiles with Pyodide's own Python), install it from the lock file.
    """
    venv = ROOT / ".venv"
    try:
        import panel  # noqa: F401
    except ImportError:
        if Path(sys.prefix).resolve() == venv.resolve():
            raise BuildError("panel is not installed in .venv: run .venv/bin/pip install -e .") from None
        python = venv / "bin" / "python"
        if not python.exists():
            print("build.py: first run: creating .venv", flush=True)
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        print("build.py: installing specstep and Panel into .venv", flush=True)
        install = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                                  "-e", str(ROOT)], capture_output=True, text=True)
        if install.returncode:
            sys.stderr.write(install.stdout + install.stderr)
            raise BuildError("pip install -e . failed (its output is above)")
        os.execv(str(python), [str(python), str(Path(__file__).resolve()), *argv])
    if not (PYODIDE_NPM / "package.json").exists():
        if not shutil.which("npm"):
            raise BuildError("needs Node 20 and npm, to byte-compile with Pyodide's own Python")
        print("build.py: installing the npm package pyodide into sitebuild/npm/", flush=True)
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=PYODIDE_NPM.parent.parent,
                       check=True, stdout=subprocess.DEVNULL)


if __name__ == "__main__":
    parse_args(sys.argv[1:], resolve_url=False)  # bad options fail fast, before any install
    try:
        bootstrap(sys.argv[1:])
    except (BuildError, subprocess.CalledProcessError) as exc:
        sys.stderr.write(f"build.py: {exc}\n")
        sys.exit(1)
    sys.exit(main())
