"""Pyodide's standard library as the site hosts it: without what the page never imports.

Pyodide loads its Python standard library as one zip (``python_stdlib.zip``,
2.4 MB) from the folder of ``pyodide.js`` unless told otherwise
(``loadPyodide({stdLibURL})``). The page needs about half of it: this writes,
from the npm package of the same release, a zip without modules a widget in a
web worker never imports (codec tables for legacy code pages, the REPL,
debuggers, mail and XML tools); the page loads it from the site. Everything
else still comes from ``--pyodide-url``. (The lock file stays Pyodide's own:
its hashes are the ones the packages at that URL are checked against.)

The build's probe runs the app as the page does; the build stops if it imported
a module left out here (``check_left_out``).

Python compiles a module of the zip from its source each time the page opens (the
zip holds .py files only): about 0.7 s of the worker's start for the 130 modules
the app imports. So those modules leave the zip (``split``): the build
byte-compiles them, and the page gets them as .pyc in its code bundle
(``bundle.py``), unpacked to /lib/python3.13, a folder on ``sys.path`` after the
zip. What Python imports before the bundle is unpacked (Pyodide's start-up and a
.tar.gz unpack, as measured by ``web/compile_pyc.mjs``) stays in the zip, and a
package moves whole or not at all (its submodules that the app does not import
move as source), so every module is in exactly one place.
"""

from __future__ import annotations

import dataclasses
import zipfile
from pathlib import Path, PurePosixPath

from . import npm_pyodide
from .project import BuildError

STDLIB_ZIP = "python_stdlib.zip"
# Where the moved modules go in Pyodide's file system (on sys.path, after the zip).
MOVED_TO = "/lib/python3.13"

# Top-level modules and packages of the standard library left out.
LEFT_OUT = (
    "_pyrepl", "antigravity", "bdb", "doctest", "ftplib", "imaplib", "mailbox", "modulefinder", "pdb",
    "pickletools", "poplib", "pyclbr", "pydoc", "pydoc_data", "smtplib", "tabnanny", "this", "timeit",
    "trace", "turtle", "turtledemo", "wave", "wsgiref", "xml", "xmlrpc", "zipapp", "__hello__", "__phello__",
    # No command lines or INI files in the widget; _pyio is the pure-Python io that the C io
    # module replaces. (The app imports multiprocessing, ipaddress and zoneinfo, and Pyodide's
    # package loader imports tarfile: all four stay.)
    "optparse", "configparser", "_pyio",
)
# The codecs kept: Unicode, ASCII/Latin-1, cp437 (zip file names: unpacking a wheel needs it),
# the escapes, IDNA and the byte transforms.
# The others are tables for legacy code pages, looked up only by name when asked for.
ENCODINGS_KEPT = (
    "__init__", "aliases", "ascii", "base64_codec", "bz2_codec", "charmap", "cp437", "cp1252", "hex_codec", "idna",
    "latin_1", "mbcs", "oem", "punycode", "quopri_codec", "raw_unicode_escape", "rot_13", "undefined",
    "unicode_escape", "utf_16", "utf_16_be", "utf_16_le", "utf_32", "utf_32_be", "utf_32_le", "utf_7", "utf_8",
    "utf_8_sig", "uu_codec", "zlib_codec",
)


def module_left_out(module: str) -> bool:
    """Whether a module of the standard library (``"xml.dom.minidom"``) is left out."""
    parts = module.split(".")
    if parts[0] in LEFT_OUT:
        return True
    return parts[0] == "encodings" and len(parts) == 2 and parts[1] not in ENCODINGS_KEPT


def module_of(name: str) -> str:
    """The module of a file: ``"email/utils.py"`` -> ``"email.utils"``, a package's __init__ its package."""
    parts = list(PurePosixPath(name).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def left_out(name: str) -> bool:
    """Whether a file of the standard library zip (``"xml/dom/minidom.pyc"``) is left out: its module's."""
    return module_left_out(module_of(name))


def check_left_out(imported) -> None:
    """Stop the build when the app, run as in the page, imported a module this standard library leaves out."""
    found = sorted(name for name in imported if module_left_out(name))
    if found:
        raise BuildError(f"the app imports {', '.join(found)}, which the site's standard library leaves out: "
                         "take it out of sitebuild/stdlib.py's LEFT_OUT")


@dataclasses.dataclass(frozen=True)
class Split:
    """The standard library's entries: the zip's, and those moved to the bundle (compiled, or as source)."""
    zipped: tuple[str, ...]
    compiled: tuple[str, ...]
    source: tuple[str, ...]


def split(names, imported, startup) -> Split:
    """Which entries of the zip (``names``) move to the bundle.

    A top-level module or package moves when the app imports it (``imported``, the
    probe's modules) and Python has not imported it at start-up (``startup``). Of a
    moved package, the modules the app imports are compiled; its other files move as
    they are. Folder entries stay (the bundle makes folders as it needs them).
    """
    imported, startup = set(imported), set(startup)
    if "sysconfig" in imported:  # its data module is named after the platform: Pyodide's is not the probe's
        imported |= {PurePosixPath(name).stem for name in names if name.startswith("_sysconfigdata_")}
    zipped, compiled, source = [], [], []
    for name in names:
        if left_out(name):
            continue
        top = PurePosixPath(name).parts[0]
        top = top[:-3] if top.endswith(".py") else top
        if name.endswith("/") or top not in imported or top in startup:
            zipped.append(name)
        elif name.endswith(".py") and module_of(name) in imported:
            compiled.append(name)
        else:
            source.append(name)
    return Split(tuple(zipped), tuple(compiled), tuple(source))


def release_zip() -> Path:
    """Pyodide's own standard library zip, from the npm package of the release."""
    return npm_pyodide.pyodide_dir() / STDLIB_ZIP


def write_stdlib(source: Path, target: Path, moved: Split) -> dict:
    """Copy Pyodide's standard library zip without what is left out or moved; return a summary."""
    keep = set(moved.zipped)
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zout:
        infos = zin.infolist()
        for info in infos:
            if info.filename in keep:
                zout.writestr(info, zin.read(info.filename))
    return {"file": STDLIB_ZIP, "entries_kept": len(keep),
            "entries_left_out": len(infos) - len(keep) - len(moved.compiled) - len(moved.source),
            "entries_moved_compiled": len(moved.compiled), "entries_moved_source": len(moved.source),
            "bytes": target.stat().st_size, "from_bytes": source.stat().st_size}


def stage_moved(source: Path, names, dest: Path) -> None:
    """Extract entries of the zip into dest (to be compiled, or bundled as they are)."""
    with zipfile.ZipFile(source) as zin:
        for name in names:
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(zin.read(name))

