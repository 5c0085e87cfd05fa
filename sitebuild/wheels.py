"""Slim, byte-compiled wheels of the pure-Python packages the page installs, and one of our code.

Each installed distribution is copied minus what the page never reads (the
JS/CSS the page loads separately, tests, type stubs), byte-compiled to Python
3.13 with Pyodide's own Python under Node (``web/compile_pyc.mjs``), and zipped
into a reproducible wheel with a fresh RECORD. Our ``core``, ``toy_tables`` and
``app`` are one more wheel, byte-compiled the same way (their sources are in the
project; a first visit downloads no copy of them).
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import importlib.metadata
import os
import re
import shutil
import zipfile
from pathlib import Path, PurePosixPath

from .lazy_bokeh import defer_unused_imports
from .lazy_panel import defer_unused_parts
from .packages import Plan, canonical
from .project import OUR_PACKAGES, ROOT, BuildError, project
from .pycompile import compile_trees

SITE_PACKAGES_IN_PYODIDE = "/lib/python3.13/site-packages"
ZIP_TIME = (1980, 1, 1, 0, 0, 0)
DIST_INFO_DROP = {"RECORD", "INSTALLER", "REQUESTED", "direct_url.json"}
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

# Modules of the self-hosted packages the page never imports: servers, command lines,
# notebook and framework glue, optional plugins (about 0.75 MB of a first visit). The
# build's probe runs the app as the page does, exercising every control and tab, and the
# build stops if it imported any of them (``check_left_out``). A module here also leaves
# out its submodules and the data files in its folder.
NEVER_IMPORTED = (
    "bokeh.__main__", "bokeh.application.handlers", "bokeh.client", "bokeh.command", "bokeh.driving",
    "bokeh.io.webdriver", "bokeh.sampledata", "bokeh.util.tornado",
    *(f"bokeh.server.{name}" for name in (
        "auth_provider", "callbacks", "connection", "contexts", "protocol_handler", "server", "session",
        "tornado", "urls", "util", "views")),
    "panel.__main__", "panel.auth", "panel.chat.langchain", "panel.command", "panel.compiler",
    "panel.io.admin", "panel.io.application", "panel.io.compile", "panel.io.convert", "panel.io.django",
    "panel.io.fastapi", "panel.io.handlers", "panel.io.ipywidget", "panel.io.jupyter_executor",
    "panel.io.jupyter_server_extension", "panel.io.liveness", "panel.io.reload", "panel.io.rest",
    "panel.io.server", "panel.pane.vtk.synchronizable_deserializer", "panel.pane.vtk.synchronizable_serializer",
    # packaging: Panel and Bokeh compare versions only (packaging.version).
    "packaging._elffile", "packaging._manylinux", "packaging._musllinux", "packaging._parser",
    "packaging._ranges", "packaging._tokenizer", "packaging.dependency_groups", "packaging.direct_url",
    "packaging.licenses", "packaging.markers", "packaging.metadata", "packaging.pylock", "packaging.ranges",
    "packaging.requirements", "packaging.specifiers", "packaging.tags", "packaging.utils",
    # Markdown plugins Panel's parser does not load.
    *(f"mdit_py_plugins.{name}" for name in (
        "admon", "amsmath", "attrs", "colon_fence", "container", "dollarmath", "field_list", "front_matter",
        "gfm", "gfm_autolink", "myst_blocks", "myst_role", "section_ref", "subscript", "substitution",
        "superscript", "texmath", "wordcount")),
    "jinja2.ext", "jinja2.meta", "jinja2.nativetypes", "jinja2.sandbox",
    "param.ipython", "param.mypy_plugin",
    *(f"tqdm.{name}" for name in (
        "__main__", "_main", "_tqdm_gui", "_tqdm_notebook", "autonotebook", "contrib", "dask", "keras",
        "notebook", "rich", "tk")),
)


def module_never_imported(module: str) -> bool:
    """Whether a module (``"bokeh.server.tornado"``) is one of NEVER_IMPORTED or inside one."""
    parts = module.split(".")
    return any(".".join(parts[:i]) in NEVER_IMPORTED for i in range(1, len(parts) + 1))


def never_imported(rel: PurePosixPath) -> bool:
    """Whether a file of site-packages belongs to a module of NEVER_IMPORTED (or to its folder)."""
    parts = rel.with_suffix("").parts if rel.suffix == ".py" else rel.parent.parts
    if parts and parts[-1] == "__init__":
        parts = parts[:-1]
    return bool(parts) and module_never_imported(".".join(parts))


def check_left_out(imported) -> None:
    """Stop the build when the app, run as in the page, imported a module the wheels leave out."""
    found = sorted(name for name in imported if module_never_imported(name))
    if found:
        raise BuildError(f"the app imports {', '.join(found)}, which the slim wheels leave out: "
                         "take it out of sitebuild/wheels.py's NEVER_IMPORTED")


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
        elif any(rule.search(str(rel)) for rule in SLIM_DROP) or never_imported(rel):
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
    meta = project()
    name, version = meta["name"], meta["version"]
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
        f"Summary: {meta.get('description', '')}",
        f"Requires-Python: {meta.get('requires-python', '>=3.11')}",
    ]
    (dest / dist_info / "METADATA").write_text("\n".join(metadata) + "\n")
    (dest / dist_info / "WHEEL").write_text(
        "Wheel-Version: 1.0\nGenerator: specstep build.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
    (dest / dist_info / "top_level.txt").write_text("\n".join(OUR_PACKAGES) + "\n")
    return dist_info


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


def build_wheels(plan: Plan, work: Path, out_dir: Path, also_compile=()) -> list[BuiltWheel]:
    """The slim wheels and ours, in out_dir; ``also_compile`` (trees as compile_trees takes them) in the same run."""
    out_dir.mkdir(parents=True)
    site = work / "site"
    staged, trees = [], []
    for item in plan.self_hosted:
        name = canonical(item.dist)
        tree = site / name
        dist_info, dropped = stage_distribution(item.dist, tree)
        if name == "panel":
            defer_unused_parts(tree, item.version)  # Panel's unused parts imported at first use
        if name == "bokeh":
            defer_unused_imports(tree, item.version)  # Bokeh's unused imports made at first use
        staged.append((item.dist, item.version, tree, dist_info, False, len(dropped)))
        # Without docstrings, as -OO would (these libraries handle __doc__ None): 0.36 MB less to download.
        trees.append({"path": str(tree.relative_to(work)), "sourceless": True, "docstrings": False,
                      "display_prefix": SITE_PACKAGES_IN_PYODIDE})
    ours = site / "specstep"
    dist_info = stage_our_code(ours)
    meta = project()
    staged.append((meta["name"], meta["version"], ours, dist_info, True, 0))
    trees.append({"path": str(ours.relative_to(work)), "sourceless": True,
                  "display_prefix": SITE_PACKAGES_IN_PYODIDE})
    compile_trees(work, [*trees, *also_compile])
    built = []
    for name, version, tree, dist_info, is_ours, dropped in staged:
        path = write_wheel(tree, dist_info, name, version, out_dir)
        built.append(BuiltWheel(name, version, path, is_ours, dropped))
    return built
