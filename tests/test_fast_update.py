"""app/fast_update.py: a change sends the same properties as Panel's own path, without the design lookup."""

import panel as pn
import pytest
from bokeh.document import Document
from param.parameterized import Event

from app import fast_update, theme
from panel.reactive import Reactive


def event(obj, name, new):
    return Event(what="value", name=name, obj=obj, cls=type(obj), old=getattr(obj, name), new=new, type="changed")


CASES = [
    (lambda: pn.widgets.Button(label="Draft", stylesheets=[theme.BUTTON]), {"disabled": True, "styles": {"--sp-next": "1"}}),
    (lambda: pn.widgets.Select(options=["a", "b"]), {"options": ["a", "b", "c"], "value": "b"}),
    (lambda: pn.pane.HTML("<p>x</p>", stylesheets=[theme.BASE]), {"visible": False, "object": "<p>y</p>"}),
    (lambda: pn.widgets.IntSlider(start=1, end=8), {"value": 3, "name": "Width"}),
]


@pytest.mark.parametrize("make, changes", CASES)
def test_a_change_without_stylesheets_sends_what_panels_own_path_sends(make, changes):
    obj = make()
    model = obj.get_root(Document())
    events = [event(obj, name, new) for name, new in changes.items()]
    fast = fast_update._update_properties(obj, *events, doc=model.document)
    own = fast_update._design_path(obj, *events, doc=model.document)
    assert fast == own and fast, (fast, own)


@pytest.mark.parametrize("make, changes", CASES)
def test_a_change_of_stylesheets_keeps_the_designs_own(make, changes):
    obj = make()
    model = obj.get_root(Document())
    change = event(obj, "stylesheets", [":host { color: red; }"])
    fast = fast_update._update_properties(obj, change, doc=model.document)
    own = fast_update._design_path(obj, change, doc=model.document)
    sheets = lambda props: [getattr(s, "url", s) for s in props["stylesheets"]]  # noqa: E731 (new objects each time)
    assert sheets(fast) == sheets(own) and sheets(fast)[-1] == ":host { color: red; }"
    assert len(sheets(fast)) > 1, "the design's stylesheets come first, as on Panel's own path"


def test_install_replaces_panels_method_and_a_rendered_widget_still_follows_its_parameters():
    fast_update.install()
    fast_update.install()  # idempotent
    assert Reactive._update_properties is fast_update._update_properties
    button = pn.widgets.Button(label="Verify", stylesheets=[theme.BUTTON])
    model = button.get_root(Document())
    button.param.update(disabled=True, styles={"--sp-next": "1"})
    assert model.disabled and model.styles["--sp-next"] == "1"
    button.stylesheets = [theme.BUTTON, ":host { color: red; }"]
    assert model.stylesheets[-1] == ":host { color: red; }" and len(model.stylesheets) > 2
