"""The slim Panel imports its unused parts at first use (sitebuild/lazy_panel.py), and every name still works."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import panel
import pytest

from sitebuild.lazy_panel import FOR_PANEL, LAZY, defer_unused_parts, deferred
from sitebuild.project import BuildError

SITE = Path(panel.__file__).resolve().parent.parent

# Imports panel with the two __init__ files as the build rewrites them (read from
# argv[1] as JSON: path -> source), the rest of Panel as installed; prints what it finds.
PROBE = r"""
import importlib.abc, importlib.util, json, os, sys
SOURCES = json.loads(sys.argv[1])
BY_NAME = {"panel": SOURCES["panel/__init__.py"], "panel.widgets": SOURCES["panel/widgets/__init__.py"]}
SITE = sys.argv[2]

class Loader(importlib.abc.Loader):
    def __init__(self, source):
        self.source = source
    def create_module(self, spec):
        return None
    def exec_module(self, module):
        exec(compile(self.source, module.__file__, "exec"), module.__dict__)

class Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name not in BY_NAME:
            return None
        folder = os.path.join(SITE, *name.split("."))
        return importlib.util.spec_from_file_location(
            name, os.path.join(folder, "__init__.py"), loader=Loader(BY_NAME[name]),
            submodule_search_locations=[folder])

sys.meta_path.insert(0, Finder())
import panel as pn
deferred = ["panel.chat", "panel.template"] + [f"panel.widgets.{m}" for m in sys.argv[3].split(",")]
before = sorted(m for m in deferred if m in sys.modules)
from panel.chat import ChatInterface
from panel.template import FastListTemplate, Template
from panel.widgets.texteditor import TextEditor
from panel.widgets.speech_to_text import SpeechToText
same = [pn.chat.ChatInterface is ChatInterface, pn.template.FastListTemplate is FastListTemplate,
        pn.Template is Template, pn.widgets.TextEditor is TextEditor, pn.widgets.SpeechToText is SpeechToText]
missing = [name for name in pn.widgets.__all__ if not hasattr(pn.widgets, name)]
missing += [name for name in pn.__all__ if not hasattr(pn, name)]
try:
    pn.widgets.NoSuchWidget
    unknown = "found"
except AttributeError as error:
    unknown = str(error)
print(json.dumps({"before": before, "same": same, "missing": missing, "unknown": unknown,
                  "widgets_all": list(pn.widgets.__all__), "panel_all": list(pn.__all__)}))
"""


def rewritten() -> dict[str, str]:
    return {rel: deferred((SITE / rel).read_text(encoding="utf-8"), submodules, rel) for rel, submodules in LAZY.items()}


@pytest.mark.skipif(panel.__version__ != FOR_PANEL, reason=f"the rewrite is for Panel {FOR_PANEL}")
def test_the_rewritten_panel_defers_its_unused_parts_and_every_name_still_works():
    widgets = LAZY["panel/widgets/__init__.py"]
    out = subprocess.run([sys.executable, "-c", PROBE, json.dumps(rewritten()), str(SITE), ",".join(widgets)],
                         capture_output=True, text=True, timeout=300, check=True)
    found = json.loads(out.stdout.strip().splitlines()[-1])
    assert found["before"] == [], f"imported with panel although deferred: {found['before']}"
    assert found["same"] == [True] * 5
    assert found["missing"] == []
    assert "NoSuchWidget" in found["unknown"]
    # The public names are Panel's own, in the same order.
    assert found["widgets_all"] == list(panel.widgets.__all__)
    assert found["panel_all"] == list(panel.__all__)


@pytest.mark.skipif(panel.__version__ != FOR_PANEL, reason=f"the rewrite is for Panel {FOR_PANEL}")
def test_only_the_deferred_imports_leave_the_init_files():
    import ast

    for rel, source in rewritten().items():
        imported = {node.module or alias.name for node in ast.parse(source).body if isinstance(node, ast.ImportFrom)
                    and node.level == 1 for alias in node.names}
        original = {node.module or alias.name for node in ast.parse((SITE / rel).read_text()).body
                    if isinstance(node, ast.ImportFrom) and node.level == 1 for alias in node.names}
        assert original - imported == set(LAZY[rel]), rel


def test_a_submodule_with_no_import_to_defer_stops_the_build():
    source = "from .base import Widget  # noqa\nfrom .input import TextInput  # noqa\n"
    assert "TextInput" in deferred(source, ("input",), "x/__init__.py").split("_LAZY", 1)[1]
    with pytest.raises(BuildError, match="no import of chat to defer"):
        deferred(source, ("input", "chat"), "x/__init__.py")


def test_a_mixed_import_keeps_the_names_not_deferred():
    source = "from . import layout, chat  # noqa\nfrom .config import config\n"
    out = deferred(source, ("chat",), "x/__init__.py")
    assert "from . import layout  # noqa\n" in out
    assert "'chat': ('.chat', None)" in out
    assert "from .config import config\n" in out


def test_another_panel_is_left_as_it_is(tmp_path):
    for rel in LAZY:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("from . import chat\n")
    assert defer_unused_parts(tmp_path, "0.0.1") is False
    assert all((tmp_path / rel).read_text() == "from . import chat\n" for rel in LAZY)
