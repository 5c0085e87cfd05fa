"""app/fast_import.py: Panel imported without Bokeh's help() signatures, and Bokeh as it was after."""

from __future__ import annotations

import json
import subprocess
import sys

from pyodide_runner import ROOT

SCRIPT = r"""
import inspect, json, sys
sys.path.insert(0, sys.argv[1])
from app.fast_import import bokeh_without_signatures
from bokeh.model import model
original = model.Model.__dict__["__init_subclass__"]
with bokeh_without_signatures() as applied:
    import panel, bokeh.models
    from bokeh.plotting import figure
restored = model.Model.__dict__["__init_subclass__"] is original
button_signed = hasattr(bokeh.models.Button.__init__, "__signature__")

line = figure().line([1, 2], [3, 4])  # positional glyph arguments still mapped (bokeh.plotting)
print(json.dumps({
    "applied": applied, "restored": restored, "button_signed": button_signed,
    "button_signature": str(inspect.signature(bokeh.models.Button)),
    "parameters": len(bokeh.models.Button.parameters()),
    "line_x": line.glyph.x, "line_y": line.glyph.y,
    "view_model": bokeh.models.Button.__view_model__,
}))
"""


def run() -> dict:
    result = subprocess.run([sys.executable, "-c", SCRIPT, str(ROOT)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_panel_imports_without_bokehs_signatures_and_bokeh_is_whole_again_after():
    got = run()
    assert got["applied"] is True, "written for the Bokeh the project pins"
    assert got["restored"] is True
    # The classes made meanwhile skip the signature; inspect falls back to __init__'s own.
    assert got["button_signed"] is False and "kwargs" in got["button_signature"]
    # What the rest of Bokeh reads still works: properties, positional glyph arguments, names.
    assert got["parameters"] > 10
    assert (got["line_x"], got["line_y"]) == ("x", "y")
    assert got["view_model"] == "Button"


def test_another_bokeh_imports_as_usual(monkeypatch):
    import bokeh
    from bokeh.model import model

    sys.path.insert(0, str(ROOT))
    from app.fast_import import bokeh_without_signatures

    monkeypatch.setattr(bokeh, "__version__", "9.9.9")
    before = model.Model.__dict__["__init_subclass__"]
    with bokeh_without_signatures() as applied:
        assert model.Model.__dict__["__init_subclass__"] is before
    assert applied is False


def test_a_template_got_within_templates_when_used_is_compiled_at_its_first_use_and_renders_the_same():
    import jinja2

    sys.path.insert(0, str(ROOT))
    from app.fast_import import templates_when_used

    compiled = []

    class Counting(jinja2.Environment):
        def compile(self, *args, **kwargs):
            compiled.append(args[1] if len(args) > 1 else kwargs.get("name"))
            return super().compile(*args, **kwargs)

    env = Counting(loader=jinja2.DictLoader({"hello.html": "Hello {{ who }}!{% for i in n %} {{ i }}{% endfor %}"}))
    original = jinja2.Environment.get_template
    with templates_when_used():
        lazy = env.get_template("hello.html")
    assert jinja2.Environment.get_template is original  # Jinja is itself again after
    assert compiled == []  # nothing read or compiled yet
    assert lazy.render(who="reader", n=[1, 2]) == "Hello reader! 1 2"
    assert compiled == ["hello.html"]
    assert lazy.module is not None and compiled == ["hello.html"]  # loaded once
    assert env.get_template("hello.html").render(who="reader", n=[1, 2]) == lazy.render(who="reader", n=[1, 2])
    with templates_when_used():
        missing = env.get_template("absent.html")
    try:
        missing.render()
    except jinja2.TemplateNotFound as error:  # the error Jinja gives, at first use
        assert "absent.html" in str(error)
    else:
        raise AssertionError("a missing template rendered")


def test_panel_imported_within_templates_when_used_renders_its_templates_as_jinja_would():
    script = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
from app.fast_import import templates_when_used
with templates_when_used():
    import panel.io.resources as resources, panel.io.notebook as notebook
from bokeh.core import templates
lazy = [resources.BASE_TEMPLATE, resources.JS_RESOURCES, notebook.NB_TEMPLATE_BASE]
before = [t._template is None for t in lazy]
text = resources.JS_RESOURCES.render(js_raw=["var a = 1;"], js_files=["x.js"], js_modules=[], js_exports={}, js_module_exports={})
plain = resources._env.get_template("js_resources.html").render(js_raw=["var a = 1;"], js_files=["x.js"],
                                                                 js_modules=[], js_exports={}, js_module_exports={})
print(json.dumps({"before": before, "same": text == plain, "text": text[:200]}))
"""
    result = subprocess.run([sys.executable, "-c", script, str(ROOT)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    got = json.loads(result.stdout.strip().splitlines()[-1])
    assert got["before"] == [True, True, True]
    assert got["same"] and "x.js" in got["text"], got
