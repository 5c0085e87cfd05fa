"""build.py's command line and output folder, without building (fast).

What needs a build is in test_build_output.py (the files) and test_real_page.py
(the page in Chromium); all of them share one build per session.
"""

from __future__ import annotations

import json
import sys

import pytest

from build_support.real_site import run_build
from pyodide_runner import ROOT

sys.path.insert(0, str(ROOT))
from sitebuild import cli, page, site  # noqa: E402  (the package under test, at the repository root)
from sitebuild.project import BuildError  # noqa: E402

PYODIDE_VERSION = "0.29.3"


def one_line_error(result) -> str:
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_unknown_option_gets_one_line_and_a_nonzero_exit():
    assert "--bogus" in one_line_error(run_build("--bogus"))


def test_bad_pyodide_url_gets_one_line(tmp_path):
    result = run_build("--out", tmp_path / "static", "--pyodide-url", "ftp://example.invalid/pyodide.js")
    assert "--pyodide-url" in one_line_error(result)
    assert not (tmp_path / "static").exists()


def test_unwritable_output_gets_one_line(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    assert "cannot write the output folder" in one_line_error(run_build("--out", blocker / "static"))


def test_a_folder_that_is_not_a_build_is_never_written_into(tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "lecture.md").write_text("my notes")
    assert "not an earlier build" in one_line_error(run_build("--out", notes))
    assert (notes / "lecture.md").read_text() == "my notes"
    assert [p.name for p in tmp_path.iterdir()] == ["notes"], "no staging folder left behind"


def test_the_default_pyodide_url_is_the_pinned_release_panel_uses():
    from panel.io.convert import PYODIDE_URL

    assert cli.pyodide_script_url(None) == PYODIDE_URL
    assert f"/v{PYODIDE_VERSION}/full/pyodide.js" in PYODIDE_URL
    assert cli.parse_args([]).pyodide_url == PYODIDE_URL
    assert cli.pyodide_script_url("https://mirror.example.org/pyodide/") == \
        "https://mirror.example.org/pyodide/pyodide.js"
    assert cli.pyodide_script_url("pyodide/") == "pyodide/pyodide.js"


# ---- a rebuild keeps what is not ours (issue 10 item 6) ----------------------------------

def earlier_build(out, files):
    """A folder as an earlier build left it: its files, and build-info.json listing them."""
    out.mkdir(parents=True)
    for path in files:
        (out / path).parent.mkdir(parents=True, exist_ok=True)
        (out / path).write_text(f"old {path}")
    (out / "build-info.json").write_text(json.dumps({"files": [{"path": p} for p in files]}))


def staged(tmp_path, files):
    stage = tmp_path / ".static.building"
    for path in files:
        (stage / path).parent.mkdir(parents=True, exist_ok=True)
        (stage / path).write_text(f"new {path}")
    return stage


def test_a_rebuild_keeps_the_teachers_pyodide_folder_and_replaces_the_builds_own_files(tmp_path):
    out = tmp_path / "static"
    earlier_build(out, ["index.html", "wheels/panel.whl", "wheels/old-only.whl"])
    (out / "pyodide").mkdir()
    (out / "pyodide" / "pyodide.js").write_text("the teacher's copy")
    (out / "wheels" / "teacher-notes.txt").write_text("mine")
    stage = staged(tmp_path, ["index.html", "wheels/panel.whl", "build-info.json"])
    kept = site.replace_output(stage, out)
    assert kept == ["pyodide", "wheels/teacher-notes.txt"]
    assert (out / "pyodide" / "pyodide.js").read_text() == "the teacher's copy"
    assert (out / "wheels" / "teacher-notes.txt").read_text() == "mine"
    assert (out / "index.html").read_text() == "new index.html"
    assert not (out / "wheels" / "old-only.whl").exists(), "a file only the old build wrote goes"
    assert not stage.exists()


def test_a_rebuild_refuses_to_overwrite_a_file_it_did_not_write(tmp_path):
    out = tmp_path / "static"
    earlier_build(out, ["index.html"])
    (out / "embed.html").write_text("the teacher's own page")
    stage = staged(tmp_path, ["index.html", "embed.html"])
    with pytest.raises(BuildError, match="embed.html"):
        site.replace_output(stage, out)
    assert (out / "embed.html").read_text() == "the teacher's own page"
    assert (out / "index.html").read_text() == "old index.html"


# ---- pieces of the page ----------------------------------------------------------------

def test_template_markers_must_all_be_known_and_used():
    assert site.fill("a @@X@@ b", {"X": "1"}) == "a 1 b"
    with pytest.raises(BuildError, match="@@Y@@"):
        site.fill("@@X@@ @@Y@@", {"X": "1"})
    with pytest.raises(BuildError, match="does not use"):
        site.fill("@@X@@", {"X": "1", "Z": "2"})
    assert site.fill("@@X@@", {"X": "1", "Z": "2"}, required={"X"}) == "1"


def test_the_loader_is_told_which_scenario_is_pre_rendered():
    from app.urlstate import PROPS

    scenario = site.prerendered_scenario()
    assert scenario == {p.name: p.format(p.default) for p in PROPS}
    assert scenario["draft"] == "aligned" and scenario["width"] == "3" and scenario["seed"] == "0"


def test_bokeh_gl_is_left_out_unless_a_figure_uses_webgl():
    tags = ('<script type="text/javascript" src="https://cdn.example/bokeh-3.9.2.min.js"></script>\n'
            '<script type="text/javascript" src="https://cdn.example/bokeh-gl-3.9.2.min.js"></script>\n'
            '<script type="text/javascript" src="https://cdn.example/bokeh-tables-3.9.2.min.js"></script>')
    html, dropped = page.drop_unused_bokeh(tags + '{"output_backend":"canvas"}')
    assert dropped == ["bokeh-gl"] and "bokeh-gl" not in html and "bokeh-tables" in html
    html, dropped = page.drop_unused_bokeh(tags + '{"output_backend":"webgl"}')
    assert dropped == [] and "bokeh-gl" in html
