"""The output folder: everything the page needs, written into a staging folder, checked, then swapped in.

Besides the page (``page.py``), the wheels (``wheels.py``) and the bundle the page
downloads instead of them (``bundle.py``, with part of ``stdlib.py``): ``worker.js`` and
``loader.js`` from ``web/`` with their configuration, ``packages.json`` (exactly
what the page installs), a service worker and a manifest (a second visit starts
from cache), ``embed.html`` and ``build-info.json`` (versions, and every file the
build wrote with its size and sha256). A rebuild replaces the build's own files
and keeps anything else in the folder (a teacher's copy of Pyodide beside the page).
"""

from __future__ import annotations

import dataclasses
import hashlib
import html as html_lib
import json
import os
import re
import shutil
import tempfile
import time
import zipfile
from pathlib import Path

from . import npm_pyodide, release_pycs, stdlib
from .bundle import BUNDLE, write_bundle
from .packages import plan_packages
from .page import (URL_RE, Assets, check_panel_worker, drop_unused_bokeh, page_references, page_resources,
                   rewrite_page, run_convert, share_page_stylesheets, share_stylesheets)
from .loader_config import all_words, url_table
from . import record
from .prerender import Scenario, default_scenario
from .prerender import render as render_scenarios
from .probe import NOT_IN_PAGE, run_probe
from .pycompile import startup_modules
from .project import ENTRY, EXAMPLE_QUERY, OUR_PACKAGES, ROOT, WEB, BuildError, panel_version, pyodide_version
from .wheels import SITE_PACKAGES_IN_PYODIDE, BuiltWheel, build_wheels, check_left_out

DEFAULT_LOAD_TIMEOUT = 30.0
PWA_ICONS = ("favicon.ico", "icon-vector.svg", "icon-32x32.png", "icon-192x192.png",
             "icon-512x512.png", "apple-touch-icon.png")
BUILD_INFO = "build-info.json"
# Staging folders (in the build's temporary folder) of the standard library's moved files.
STDLIB_COMPILED, STDLIB_SOURCE = "stdlib-compiled", "stdlib-source"


def build(out: Path, pyodide_url: str, load_timeout: float = DEFAULT_LOAD_TIMEOUT, log=print,
          prerender: list[Scenario] = ()) -> dict:
    """Build the site into ``out`` (with a pre-render of each of ``prerender``); return build-info.json's content."""
    started = time.perf_counter()
    if not ENTRY.is_file():
        raise BuildError(f"{ENTRY.relative_to(ROOT)} does not exist (the app's entry module)")
    stage = prepare_output(out)
    try:
        with tempfile.TemporaryDirectory(prefix="specstep-build-") as tmp:
            work = Path(tmp)
            log("build.py: finding what the app imports (running it once as the page's worker would)")
            probe = run_probe()
            if "error" in probe:
                raise BuildError("the app failed when run as in the page (Panel's Pyodide code paths, "
                                 f"without {', '.join(NOT_IN_PAGE)}): {probe['error']}")
            check_left_out(probe["imported"])
            stdlib.check_left_out(probe["imported"])
            plan = plan_packages(probe["modules"], npm_pyodide.lock())
            log(f"build.py: from Pyodide {pyodide_version()}: "
                + ", ".join(f"{p.name} {p.version}" for p in plan.from_pyodide))
            log("build.py: slim wheels: " + ", ".join(f"{s.dist} {s.version}" for s in plan.self_hosted))
            moved, compile_moved = move_stdlib(work, probe["imported"])
            release_tree, release_summary = release_pycs.stage(plan.from_pyodide, probe["imported"], work, log)
            wheels = build_wheels(plan, work, stage / "wheels",
                                  also_compile=[compile_moved, *([release_tree] if release_tree else [])])
            if release_tree:
                release_pycs.caches_only(work / release_tree["path"])
            log("build.py: converting app/main.py with panel convert (pre-rendering its first state)")
            if prerender:
                log("build.py: pre-rendering " + ", ".join(s.query for s in prerender))
            site = write_site(stage, work, pyodide_url, load_timeout, plan, wheels, moved, prerender)
            site["release_pycs"] = release_summary
            check_site(stage)
        seconds = time.perf_counter() - started
        info = build_info(stage, pyodide_url, wheels, site, probe, seconds)
        (stage / BUILD_INFO).write_text(json.dumps(info, indent=2) + "\n")
        kept = replace_output(stage, out)
        if kept:
            log(f"build.py: kept what the build did not write: {', '.join(kept)}")
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    return info


def move_stdlib(work: Path, imported) -> tuple[stdlib.Split, dict]:
    """Split the standard library (zip or bundle), stage the moved files; return the split and the tree to compile."""
    release = stdlib.release_zip()
    with zipfile.ZipFile(release) as zin:
        names = zin.namelist()
    moved = stdlib.split(names, imported, startup_modules(work))
    stdlib.stage_moved(release, moved.compiled, work / STDLIB_COMPILED)
    stdlib.stage_moved(release, moved.source, work / STDLIB_SOURCE)
    return moved, {"path": STDLIB_COMPILED, "sourceless": True, "docstrings": False, "display_prefix": stdlib.MOVED_TO}


def write_site(stage: Path, work: Path, pyodide_url: str, load_timeout: float, plan, wheels: list[BuiltWheel],
               moved: stdlib.Split, prerender: list[Scenario] = ()) -> dict:
    html, panel_worker = run_convert(ENTRY, work / "convert")
    check_panel_worker(panel_worker)
    html, dropped_bokeh = drop_unused_bokeh(html)
    title = page_title(html)
    assets = Assets(stage)
    page = share_page_stylesheets(rewrite_page(html, assets, title))
    assets.copy_panel_dirs()
    # The worker's own render of index.html's scenario replaces panel convert's: the recorded moments
    # (sitebuild/record.py, issue 27) name its models, made in the same run.
    default = default_scenario()
    rendered = render_scenarios([default, *prerender])
    page, rename = record.page_document(page, rendered[default.query], assets.local)
    (stage / "index.html").write_text(page, encoding="utf-8")
    extras = write_prerenders(stage, assets, prerender, page.count("data-root-id="), rendered)
    moments = record.write_all(stage, [default, *prerender], rendered, rename)
    for extra in extras:
        extra["moments"] = moments[extra["query"]]["file"]

    index_url = pyodide_url[: pyodide_url.rfind("/") + 1] or "./"
    packages = {
        "comment": "Exactly what the page installs, with no dependency resolution: "
                   "from_pyodide by name from the Pyodide release, wheels from this folder.",
        "pyodide": {"version": pyodide_version(), "url": pyodide_url},
        "from_pyodide": [dataclasses.asdict(p) for p in plan.from_pyodide],
        "wheels": [{"name": w.name, "version": w.version, "file": f"wheels/{w.path.name}",
                    "bytes": w.path.stat().st_size, "sha256": sha256(w.path)} for w in wheels],
    }
    # The page downloads the wheels' files in one bundle, with the moved standard library.
    bundle_info = write_bundle(stage / BUNDLE, [w.path for w in wheels], [
        (work / STDLIB_COMPILED, stdlib.MOVED_TO), (work / STDLIB_SOURCE, stdlib.MOVED_TO),
        (work / release_pycs.STAGED, SITE_PACKAGES_IN_PYODIDE)])
    packages["bundle"] = {**bundle_info, "sha256": sha256(stage / BUNDLE)}
    (stage / "packages.json").write_text(json.dumps(packages, indent=2) + "\n")

    stdlib_info = stdlib.write_stdlib(stdlib.release_zip(), stage / stdlib.STDLIB_ZIP, moved)
    worker_config = {
        "pyodideURL": pyodide_url,
        "pyodideIndexURL": index_url,
        "stdLibURL": stdlib.STDLIB_ZIP,
        "packages": {"from_pyodide": packages["from_pyodide"],
                     "wheels": [{k: w[k] for k in ("name", "version")} for w in packages["wheels"]],
                     "bundle": BUNDLE},
        "panelCdnRoot": "panel/",
    }
    (stage / "worker.js").write_text(fill((WEB / "worker.js").read_text(), {"CONFIG": js_json(worker_config)}))
    host = re.match(r"^https?://([^/]+)/", pyodide_url)
    loader_config = {
        "worker": "worker.js",
        "loadTimeoutMs": int(load_timeout * 1000),
        "pyodideHost": host.group(1) if host else None,
        "serviceWorker": "serviceWorker.js",
        "prerendered": prerendered_scenario(),
        "url": url_table(),
        "words": all_words(host.group(1) if host else None),
        "prerenders": extras,
        "moments": moments[default.query]["file"],
        # The worker whose first render has it keeps index.html's drawn pre-render (issue 27).
        "fingerprint": rendered[default.query]["fingerprint"],
        **frame_heights(),
    }
    (stage / "loader.js").write_text(fill((WEB / "loader.js").read_text(), {"CONFIG": js_json(loader_config),
                                                                        "LIVE": (WEB / "live.js").read_text()}))
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
    snippet = embed_snippet()
    (stage / "embed.html").write_text(fill((WEB / "embed.html").read_text(encoding="utf-8"), {
        "TITLE": html_lib.escape(title), "SNIPPET_ESCAPED": html_lib.escape(snippet),
        "SNIPPET_JSON": js_json(snippet), "IFRAME": snippet.replace("<iframe ", '<iframe id="example" ', 1),
    }), encoding="utf-8")

    # The service worker last: its cache name is a hash of every file. It precaches the
    # page's shell (index.html once: not "./" as well); the page sends it the rest.
    files = site_files(stage)
    build_id = hashlib.sha256("".join(f"{f['path']}:{f['sha256']}" for f in files).encode()).hexdigest()[:16]
    precache = sorted({"index.html", "embed.html", "loader.js", "loader.css", "worker.js", "packages.json",
                       stdlib.STDLIB_ZIP,
                       "site.webmanifest", *(f"images/{name}" for name in PWA_ICONS),
                       *page_references(stage / "index.html"), BUNDLE,
                       *([moments[default.query]["file"]] if moments[default.query]["file"] else [])})
    pyodide_origin = re.match(r"^(https?://[^/]+)/", pyodide_url)
    # The service worker's template takes some of these: the build id and the precache
    # list always; the files with their hashes, and where Pyodide comes from, as it needs.
    (stage / "serviceWorker.js").write_text(fill((WEB / "serviceWorker.js").read_text(), {
        "BUILD_ID": json.dumps(build_id),
        "PRECACHE": js_json(precache),
        "FILES": js_json({f["path"]: f["sha256"] for f in files}),
        "PYODIDE_INDEX": json.dumps(index_url),
        "PYODIDE_ORIGIN": json.dumps(pyodide_origin.group(1) if pyodide_origin else None),
    }, required={"BUILD_ID", "PRECACHE"}))
    return {"title": title, "build_id": build_id, "packages": packages, "dropped_bokeh": dropped_bokeh,
            "prerenders": extras, "stdlib": stdlib_info, "moments": moments}


def write_prerenders(stage: Path, assets: Assets, scenarios: list[Scenario], roots: int,
                     rendered: dict | None = None) -> list[dict]:
    """prerender/*.json, one per scenario (the worker's first render, with local JS/CSS); the loader's list."""
    extras = []
    rendered = render_scenarios(scenarios) if rendered is None else rendered
    for scenario in scenarios:
        payload = dict(rendered[scenario.query])
        # Compact JSON (as index.html's own document is), with Panel's and Bokeh's files local.
        docs_json = json.dumps(share_stylesheets(json.loads(payload["docs_json"])), separators=(",", ":"))
        docs_json = URL_RE.sub(lambda m: assets.local(m.group(0)) or m.group(0), docs_json)
        root_ids = json.loads(payload["root_ids"])
        if len(root_ids) != roots:
            raise BuildError(f"the pre-render of {scenario.query} has {len(root_ids)} roots where index.html has {roots}")
        for url in page_resources(f'<script type="application/json" id="x">{docs_json}</script>'):
            if re.match(r"^[a-z]+:|^//", url) or not (stage / url.split("?")[0]).is_file():
                raise BuildError(f"the pre-render of {scenario.query} loads {url}, which is not in the build")
        target = stage / scenario.file
        target.parent.mkdir(parents=True, exist_ok=True)
        # The loader draws it as it draws the worker's first render (whose fields are JSON text).
        target.write_text('{"query":%s,"docs_json":%s,"render_items":%s,"root_ids":%s}' % (
            json.dumps(scenario.query), docs_json, json.dumps(json.loads(payload["render_items"]), separators=(",", ":")),
            json.dumps(root_ids, separators=(",", ":"))), encoding="utf-8")
        extras.append({"query": scenario.query, "values": scenario.values, "file": scenario.file,
                       "fingerprint": payload.get("fingerprint")})
    return extras


def frame_heights() -> dict:
    """Each tab's measured height in a frame at common widths (app/embed/heights.json, the tabs in the
    app's order, the pre-rendered one first) and the message type that reports a height: the loader
    reserves the widget's height for the frame until it is drawn, and posts it again when a host script
    says hello."""
    from app.page.script import HEIGHT_TYPE, HELLO_TYPE
    table = json.loads((ROOT / "app" / "embed" / "heights.json").read_text(encoding="utf-8"))
    # The loader's config is written with sorted keys: the tabs' order goes as a list of its own.
    return {"heights": table["tabs"], "tabOrder": list(table["tabs"]), "heightType": HEIGHT_TYPE,
            "helloType": HELLO_TYPE}


def prerendered_scenario() -> dict:
    """The scenario the pre-rendered page shows, as URL values (the loader compares a link's with it)."""
    from app.urlstate import PROPS
    return {prop.name: prop.format(prop.default) for prop in PROPS}


def fill(template: str, values: dict, required=None) -> str:
    """Replace @@NAME@@ markers; every marker must be known, and every value (or each of ``required``) used."""
    used = set()

    def sub(match):
        name = match.group(1)
        if name not in values:
            raise BuildError(f"template marker @@{name}@@ has no value")
        used.add(name)
        return values[name]

    text = re.sub(r"@@([A-Z_]+)@@", sub, template)
    unused = (set(values) if required is None else set(required)) - used
    if unused:
        raise BuildError(f"template does not use {sorted(unused)}")
    return text


def embed_snippet() -> str:
    """The embed code for the example scenario, as the widget's own embed form writes it."""
    from app.embed.snippet import snippet
    return snippet("index.html" + EXAMPLE_QUERY)


def js_json(value) -> str:
    """JSON safe inside a <script> element and a JS file."""
    return json.dumps(value, indent=2, sort_keys=True).replace("</", "<\\/")


def page_title(html: str) -> str:
    match = re.search(r"<title>(.*?)</title>", html, re.S)
    return match.group(1).strip() if match else "specstep"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def site_files(folder: Path) -> list[dict]:
    return [{"path": p.relative_to(folder).as_posix(), "bytes": p.stat().st_size, "sha256": sha256(p)}
            for p in sorted(folder.rglob("*")) if p.is_file()]


def check_site(stage: Path):
    """Every script and stylesheet the page loads is a file here (Pyodide is the worker's business)."""
    from urllib.parse import unquote
    html = (stage / "index.html").read_text(encoding="utf-8")
    for url in page_resources(html):
        if re.match(r"^[a-z]+:|^//", url):
            raise BuildError(f"index.html loads {url} from another site")
        if not (stage / unquote(url.split("?")[0].split("#")[0])).is_file():
            raise BuildError(f"index.html loads {url}, which is not in the build")


def build_info(stage: Path, pyodide_url: str, wheels: list[BuiltWheel], site: dict, probe: dict,
               seconds: float) -> dict:
    import bokeh
    import sys
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
        "bokeh_extensions_left_out": site["dropped_bokeh"],
        "python_stdlib": site["stdlib"],
        "release_pycs": site["release_pycs"],
        "prerendered": [{"query": e["query"], "file": e["file"]} for e in site["prerenders"]],
        "moments": site["moments"],
        "from_pyodide": site["packages"]["from_pyodide"],
        "wheels": site["packages"]["wheels"],
        "probe": {"actions": probe["actions"], "problems": probe["problems"],
                  "modules": sorted(m for m, origin in probe["modules"].items()
                                    if origin != "stdlib" and m not in sys.stdlib_module_names
                                    and not m.startswith("_") and m != "cython_runtime")},
        "total_bytes": sum(f["bytes"] for f in files),
        "files": files,
    }


# ---- the output folder -------------------------------------------------------------

def prepare_output(out: Path) -> Path:
    """Check the output can be (re)built; return a fresh staging folder beside it."""
    if out.exists() and not out.is_dir():
        raise BuildError(f"cannot write the output folder {out}: it is a file")
    if out.is_dir() and any(out.iterdir()) and not (out / BUILD_INFO).is_file():
        raise BuildError(f"{out} is not empty and not an earlier build (no {BUILD_INFO}); "
                         "refusing to write into it")
    if out.resolve() in (ROOT, *ROOT.parents) or ROOT in out.resolve().parents and \
            out.resolve().relative_to(ROOT).parts[0] in (*OUR_PACKAGES, "tests", "web", "bench", "sitebuild"):
        raise BuildError(f"refusing to build into {out}: it holds the project's own files")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        return Path(tempfile.mkdtemp(prefix=f".{out.name}.building-", dir=out.parent))
    except OSError as exc:
        raise BuildError(f"cannot write the output folder {out}: {exc.strerror or exc}") from None


def written_by_build(out: Path) -> set[str]:
    """The paths an earlier build in ``out`` wrote (its build-info.json), build-info.json included."""
    try:
        info = json.loads((out / BUILD_INFO).read_text())
    except (OSError, ValueError):
        return {BUILD_INFO}
    return {f["path"] for f in info.get("files", []) if isinstance(f, dict) and "path" in f} | {BUILD_INFO}


def not_ours(out: Path) -> list[str]:
    """What is in ``out`` that the earlier build did not write: whole folders where it wrote nothing inside."""
    ours = written_by_build(out)
    folders = {str(Path(p).parent.as_posix()) for p in ours}
    folders = {f for p in folders for f in _parents(p)}
    found = []

    def walk(folder: Path, rel: str):
        for entry in sorted(folder.iterdir()):
            path = f"{rel}{entry.name}"
            if path in ours:
                continue
            if entry.is_dir() and not entry.is_symlink() and path in folders:
                walk(entry, path + "/")
            else:
                found.append(path)

    walk(out, "")
    return found


def _parents(path: str) -> list[str]:
    parts = [] if path in ("", ".") else path.split("/")
    return ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]


def replace_output(stage: Path, out: Path) -> list[str]:
    """Swap the staged build in for ``out``, moving what the old build did not write into it; return that."""
    if not out.exists():
        stage.rename(out)
        return []
    kept = not_ours(out)
    clash = [path for path in kept if (stage / path).exists()]
    if clash:
        raise BuildError(f"{out} holds {', '.join(clash)}, which the build did not write before but writes now; "
                         "move it away and build again")
    for path in kept:
        (stage / path).parent.mkdir(parents=True, exist_ok=True)
        os.rename(out / path, stage / path)
    old = out.parent / f".{out.name}.old-{os.getpid()}"
    out.rename(old)
    stage.rename(out)
    shutil.rmtree(old)
    return kept
