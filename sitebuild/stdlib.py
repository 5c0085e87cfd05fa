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
"""

from __future__ import annotations

import zipfile
from pathlib import Path, PurePosixPath

from .project import BuildError

STDLIB_ZIP = "python_stdlib.zip"

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


def left_out(name: str) -> bool:
    """Whether a file of the standard library zip (``"xml/dom/minidom.pyc"``) is left out: its module's."""
    path = PurePosixPath(name)
    return module_left_out(".".join((*path.parent.parts, path.name.split(".")[0])))


def check_left_out(imported) -> None:
    """Stop the build when the app, run as in the page, imported a module this standard library leaves out."""
    found = sorted(name for name in imported if module_left_out(name))
    if found:
        raise BuildError(f"the app imports {', '.join(found)}, which the site's standard library leaves out: "
                         "take it out of sitebuild/stdlib.py's LEFT_OUT")


def write_stdlib(source: Path, target: Path) -> dict:
    """Copy Pyodide's standard library zip without what is left out; return a summary."""
    kept = dropped = 0
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zout:
        for info in zin.infolist():
            if left_out(info.filename):
                dropped += 1
                continue
            zout.writestr(info, zin.read(info.filename))
            kept += 1
    return {"file": STDLIB_ZIP, "entries_kept": kept, "entries_left_out": dropped,
            "bytes": target.stat().st_size, "from_bytes": source.stat().st_size}

