"""app/page/layout.js is pinned to the BokehJS it was written for: with another, Bokeh lays out as it does.

Run in Node over a stand-in of BokehJS's layout views and document (the methods
layout.js wraps, with Bokeh's climbing to the root); the real page is
tests/test_real_page.py's ``test_a_click_of_next_step_lays_the_page_out_once``.
"""

import json
import re
import shutil
import subprocess
from pathlib import Path

import bokeh
import pytest

LAYOUT_JS = Path(__file__).resolve().parents[1] / "app" / "page" / "layout.js"

HARNESS = r"""
const fs = require("fs");
const [code, version] = [fs.readFileSync(process.argv[1], "utf8"), process.argv[2]];
const layouts = [];
class LayoutDOMView {
  constructor(name, parent) { this.name = name; this.parent = parent; }
  invalidate_layout() { if (this.parent) return this.parent.invalidate_layout(); layouts.push(this.name); }
  update_layout() {}
  compute_layout() { if (this.parent) return this.parent.compute_layout(); layouts.push(this.name); }
}
class Column extends LayoutDOMView {}
const root = new Column("root", null);
const child = new Column("child", root);
class Document { apply_json_patch(changes) { changes(); } }
const said = [];
console.info = (message) => said.push(message);
globalThis.window = { Bokeh: { version, documents: [new Document()], index: { root } } };
new Function(code)();
new Function(code)();  // a second document_ready: installs (or says) once
window.Bokeh.documents[0].apply_json_patch(() => { child.invalidate_layout(); child.invalidate_layout(); });
console.log(JSON.stringify({ installed: window.specstepLayoutBatch.installed, layouts, said }));
"""


def run(version):
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    out = subprocess.run(["node", "-e", HARNESS, str(LAYOUT_JS), version], capture_output=True, text=True,
                         timeout=60, check=True)
    return json.loads(out.stdout)


def test_layout_js_is_pinned_to_the_bokeh_installed():
    """Fails on a Bokeh upgrade on purpose: read the new BokehJS's layout methods, then move FOR_BOKEH."""
    pinned = re.search(r'const FOR_BOKEH = "([^"]+)";', LAYOUT_JS.read_text(encoding="utf-8")).group(1)
    assert pinned == bokeh.__version__


def test_with_the_bokeh_it_was_written_for_a_patch_is_laid_out_once():
    result = run(bokeh.__version__)
    assert result == {"installed": True, "layouts": ["root"], "said": []}


def test_with_another_bokeh_the_page_is_laid_out_as_bokeh_does_and_the_console_is_told_once():
    result = run("3.9.3")
    assert result["installed"] is False
    assert result["layouts"] == ["root", "root"], "each request is Bokeh's own layout"
    assert result["said"] == [f"[specstep] layout.js left out (it was written for BokehJS {bokeh.__version__}, "
                              "this is 3.9.3): BokehJS lays the page out as it does"]
