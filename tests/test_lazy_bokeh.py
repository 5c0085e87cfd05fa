"""The slim Bokeh leaves PyYAML, gzip and its METADATA for first use (sitebuild/lazy_bokeh.py), and they still work."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import bokeh
import pytest

from sitebuild.lazy_bokeh import EDITS, FOR_BOKEH, defer_unused_imports, edited
from sitebuild.project import BuildError

SITE = Path(bokeh.__file__).resolve().parent.parent

# Imports the edited Bokeh (first on sys.path) with importlib.metadata.version refusing, then uses what was
# left for first use. (CPython 3.11's importlib.metadata imports the email package itself; Python 3.13's, the
# page's, only when a METADATA is read.)
PROBE = r"""
import importlib.metadata, json, sys
sys.path.insert(0, sys.argv[1])
version = importlib.metadata.version
def refuse(name):
    raise AssertionError(f"read {name}'s METADATA")
importlib.metadata.version = refuse
import bokeh, bokeh.models, bokeh.settings, bokeh.themes
from bokeh.core import serialization
importlib.metadata.version = version
out = {"version": bokeh.__version__, "file": bokeh.__file__,
       "before": sorted(m for m in ("yaml", "gzip") if m in sys.modules)}
out["yaml"] = bokeh.settings.yaml.safe_load("a: 1")
out["theme"] = bokeh.themes.Theme(filename=sys.argv[2])._json
buffer = serialization.Buffer("1", b"abc" * 100)
out["gzip"] = __import__("gzip").decompress(buffer.to_compressed_bytes()) == buffer.to_bytes()
out["after"] = sorted(m for m in ("yaml", "gzip") if m in sys.modules)
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def edited_site(tmp_path_factory):
    site = tmp_path_factory.mktemp("site")
    shutil.copytree(SITE / "bokeh", site / "bokeh", ignore=shutil.ignore_patterns("static", "__pycache__", "tests"))
    assert defer_unused_imports(site, FOR_BOKEH)
    return site


def test_the_installed_bokeh_is_the_one_the_edits_were_written_for():
    assert bokeh.__version__ == FOR_BOKEH  # a new Bokeh: check sitebuild/lazy_bokeh.py's lines, then move FOR_BOKEH


def test_the_slim_bokeh_reads_no_metadata_and_imports_no_yaml_or_gzip_and_each_still_works_when_used(
        edited_site, tmp_path):
    theme = tmp_path / "theme.yaml"
    theme.write_text("attrs:\n  Plot:\n    width: 300\n")
    run = subprocess.run([sys.executable, "-c", PROBE, str(edited_site), str(theme)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["file"].startswith(str(edited_site))
    assert out["version"] == FOR_BOKEH
    assert out["before"] == []
    assert out["yaml"] == {"a": 1} and out["theme"] == {"attrs": {"Plot": {"width": 300}}} and out["gzip"] is True
    assert out["after"] == ["gzip", "yaml"]


def test_the_unedited_bokeh_imports_them():
    # What the edit is for: without it, importing Bokeh imports both (this test fails once Bokeh stops).
    run = subprocess.run([sys.executable, "-c", "import sys, bokeh.models, bokeh.themes; print(sorted(m for m in "
                          "('yaml', 'gzip') if m in sys.modules))"], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "['gzip', 'yaml']"


def test_a_line_not_found_once_stops_the_build_and_another_bokeh_is_left_as_it_is(tmp_path):
    found, replacement = EDITS["bokeh/settings.py"]
    with pytest.raises(BuildError, match="found 0 times"):
        edited("import os\n", found, replacement, "bokeh/settings.py")
    with pytest.raises(BuildError, match="found 2 times"):
        edited(found + found, found, replacement, "bokeh/settings.py")
    assert defer_unused_imports(tmp_path, "0.0.1") is False  # nothing read, nothing written
