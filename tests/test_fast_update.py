"""app/fast_update.py: a change sends the same properties as Panel's own path, without the design lookup."""

import panel as pn
import pytest
from bokeh.document import Document
from param.parameterized import Event

from app import fast_update, parts, theme
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


# ---- pinned to the Panel they were written for --------------------------------

def test_the_patches_are_pinned_to_the_panel_installed():
    """Fails on a Panel upgrade on purpose: read the new Panel's methods, then move FOR_PANEL."""
    assert pn.__version__ == fast_update.FOR_PANEL
    assert parts.Text._update is parts._text_only


@pytest.fixture
def other_panel(monkeypatch):
    """Panel announcing another version, and a console that has not been told yet."""
    monkeypatch.setattr(pn, "__version__", "1.9.5")
    monkeypatch.setattr(fast_update, "_said", set())
    monkeypatch.setattr(Reactive, "_update_properties", fast_update._design_path)


def test_with_another_panel_install_keeps_panels_own_path_and_says_so_once(other_panel, capsys):
    assert fast_update.install() is False and fast_update.install() is False
    assert Reactive._update_properties is fast_update._design_path
    said = capsys.readouterr().err.splitlines()
    assert said == ["[specstep] app/fast_update.py left out (it was written for Panel 1.9.4, this is 1.9.5): "
                    "Panel's own Reactive._update_properties is used"]
    button = pn.widgets.Button(label="Verify", stylesheets=[theme.BUTTON])
    model = button.get_root(Document())
    button.param.update(disabled=True, styles={"--sp-next": "1"})
    assert model.disabled and model.styles["--sp-next"] == "1"


def test_with_another_panel_a_text_pane_is_updated_as_panels_html_is(other_panel, capsys):
    assert parts.text_update() is pn.pane.HTML._update
    assert "app/parts.py Text left out" in capsys.readouterr().err
    fallback = type("Fallback", (parts.Text,), {"_update": parts.text_update()})
    texts = [kind("<p>x</p>", stylesheets=[theme.BASE]) for kind in (fallback, parts.Text)]
    models = [text.get_root(Document()) for text in texts]
    for text in texts:
        text.object = "<p>y</p>"
    assert models[0].text == models[1].text and "y" in models[0].text


def test_a_method_of_another_shape_is_left_alone(monkeypatch, capsys):
    monkeypatch.setattr(fast_update, "_said", set())
    monkeypatch.setattr(Reactive, "_update_properties", lambda self, events, doc=None: {}, raising=True)
    assert not fast_update.fits("a patch", Reactive, "_update_properties", ("self", "*events", "doc"))
    assert "Reactive._update_properties is not the method it was written for" in capsys.readouterr().err
