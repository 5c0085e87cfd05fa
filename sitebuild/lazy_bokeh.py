"""What importing Bokeh does that the page never uses, left for first use in the slim Bokeh wheel.

``import bokeh`` reads its own version from its METADATA (``importlib.metadata``
parses it with the ``email`` package), imports PyYAML for a ``bokeh.yaml`` config
file that the page never has (``bokeh.settings``) and for theme files it never
reads (``bokeh.themes.theme``: Panel gives its themes as JSON), and imports ``gzip`` for
compressed buffers that the page's documents never hold (``bokeh.core.serialization``).
In Pyodide those imports are a few tens of milliseconds of every page load. The
slim wheel writes the version as the text it is, and gives those modules a stand-in
that imports the real module the first time anything of it is used.

It is an edit of Bokeh 3.9.2's text (``FOR_BOKEH``): with another Bokeh the wheel
is left as it is, and a line that is not found exactly once stops the build.
"""

from __future__ import annotations

from pathlib import Path

from .project import BuildError

FOR_BOKEH = "3.9.2"

WHEN_USED = '''

class _WhenUsed:
    """Written by specstep's build (sitebuild/lazy_bokeh.py): the module, imported at first use."""

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attr):
        import importlib
        return getattr(importlib.import_module(self._name), attr)


{name} = _WhenUsed({name!r})
'''

# File (relative to site-packages) -> (text found exactly once, its replacement).
EDITS = {
    "bokeh/__init__.py": ('__version__ = importlib_metadata.version("bokeh")', f'__version__ = "{FOR_BOKEH}"'),
    "bokeh/settings.py": ("\nimport yaml\n", WHEN_USED.format(name="yaml")),
    "bokeh/themes/theme.py": ("\nimport yaml\n", WHEN_USED.format(name="yaml")),
    "bokeh/core/serialization.py": ("\nimport gzip\n", WHEN_USED.format(name="gzip")),
}


def edited(source: str, found: str, replacement: str, where: str) -> str:
    """``source`` with ``found`` (there exactly once) replaced."""
    count = source.count(found)
    if count != 1:
        raise BuildError(f"{where}: {found.strip()!r} found {count} times, not once (sitebuild/lazy_bokeh.py "
                         f"was written for Bokeh {FOR_BOKEH})")
    return source.replace(found, replacement)


def defer_unused_imports(site_packages: Path, version: str) -> bool:
    """Edit the staged Bokeh in place; False (untouched) for another Bokeh."""
    if version != FOR_BOKEH:
        return False
    for rel, (found, replacement) in EDITS.items():
        path = site_packages / rel
        path.write_text(edited(path.read_text(encoding="utf-8"), found, replacement, rel), encoding="utf-8")
    return True
