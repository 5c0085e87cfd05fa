"""Panel's parts the page never shows, imported when first used instead of with Panel.

``import panel`` executes every widget, pane and template module Panel has; in
Pyodide that is about 0.08 s of the page's start-up for parts this page never
draws (the chat components, the templates, speech, the debugger, the code and
text editors). The slim Panel wheel rewrites a few ``from .x import ...`` lines
of Panel's package ``__init__`` files into a module ``__getattr__`` (PEP 562):
``pn.chat``, ``pn.template.FastListTemplate``, ``pn.widgets.TextEditor`` and
``from panel.widgets import *`` all still work, and import the module at first use.

Left as they are: modules that Panel itself imports at start-up anyway
(``panel.param`` imports the tables and the file selector, the HoloViews pane the
player, the Textual pane the terminal, Panel's themes the indicators), and every
pane module, since ``pn.panel(obj)`` chooses among the pane
classes that have been imported.

It is an edit of Panel 1.9.4's text (``FOR_PANEL``): with another Panel the wheel
is left as it is, and an expected import that is not found stops the build.
"""

from __future__ import annotations

import ast
from pathlib import Path

from .project import BuildError

FOR_PANEL = "1.9.4"

# Package __init__ (relative to site-packages) -> its submodules whose imports are
# deferred: "from .m import a, b" and "from . import m".
LAZY = {
    "panel/__init__.py": ("chat", "template"),
    "panel/widgets/__init__.py": ("codeeditor", "debugger", "misc", "speech_to_text", "text_to_speech", "texteditor"),
}

GETATTR = '''

# Written by specstep's build (sitebuild/lazy_panel.py): these names are imported at first use.
_LAZY = {lazy!r}


def __getattr__(name):
    target = _LAZY.get(name)
    if target is None:
        raise AttributeError(f"module {{__name__!r}} has no attribute {{name!r}}")
    import importlib
    module = importlib.import_module(target[0], __name__)
    value = module if target[1] is None else getattr(module, target[1])
    globals()[name] = value
    return value
'''


def deferred(source: str, submodules: tuple[str, ...], where: str) -> str:
    """``source`` (a package's __init__) with its imports of ``submodules`` made lazy; every one must be found."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    lazy: dict[str, tuple[str, str | None]] = {}
    edits: list[tuple[int, int, str]] = []  # (first line, last line, replacement), 0-based
    found = set()
    for node in tree.body:
        if not isinstance(node, ast.ImportFrom) or node.level != 1:
            continue
        module = node.module or ""
        kept = []
        for alias in node.names:
            bound = alias.asname or alias.name
            if module in submodules:  # from .m import a, b
                lazy[bound] = ("." + module, alias.name)
                found.add(module)
            elif not module and alias.name in submodules:  # from . import m
                lazy[bound] = ("." + alias.name, None)
                found.add(alias.name)
            else:
                kept.append(alias)
        if len(kept) == len(node.names):
            continue
        text = ""
        if kept:
            names = ", ".join(a.name + (f" as {a.asname}" if a.asname else "") for a in kept)
            text = f"from .{module} import {names}  # noqa\n"
        edits.append((node.lineno - 1, node.end_lineno - 1, text))
    missing = sorted(set(submodules) - found)
    if missing:
        raise BuildError(f"{where}: no import of {', '.join(missing)} to defer (sitebuild/lazy_panel.py "
                         f"was written for Panel {FOR_PANEL})")
    for first, last, text in sorted(edits, reverse=True):
        lines[first:last + 1] = [text]
    return "".join(lines) + GETATTR.format(lazy=dict(sorted(lazy.items())))


def defer_unused_parts(site_packages: Path, version: str) -> bool:
    """Rewrite the staged Panel's package __init__ files in place; False (untouched) for another Panel."""
    if version != FOR_PANEL:
        return False
    for rel, submodules in LAZY.items():
        path = site_packages / rel
        path.write_text(deferred(path.read_text(encoding="utf-8"), submodules, rel), encoding="utf-8")
    return True
