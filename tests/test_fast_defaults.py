"""app/fast_defaults.py: Bokeh's answers about defaults, kept per property and per class, are Bokeh's own."""

import json
import re

import bokeh
import pytest
from bokeh.core.has_props import HasProps
from bokeh.core.property.descriptors import PropertyDescriptor
from bokeh.document import Document

from app import fast_defaults


def all_model_classes():
    import bokeh.models  # noqa: F401  (every model class defined)
    import panel.models  # noqa: F401
    seen, todo = set(), [HasProps]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            if sub not in seen:
                seen.add(sub)
                todo.append(sub)
    return sorted(seen, key=lambda c: f"{c.__module__}.{c.__qualname__}")


def test_it_is_written_for_the_installed_bokeh():
    assert bokeh.__version__ == fast_defaults.FOR_BOKEH, (
        f"app/fast_defaults.py copies Bokeh {fast_defaults.FOR_BOKEH}'s has_unstable_default: check it against "
        f"Bokeh {bokeh.__version__} and move FOR_BOKEH")


def test_every_property_of_every_model_gets_bokehs_own_answer_twice():
    checked = 0
    for cls in all_model_classes():
        try:
            obj = cls()
        except Exception:
            continue  # abstract, or needs arguments: its properties are checked on its subclasses
        assert fast_defaults.overridden_defaults(cls) == fast_defaults._bokeh_overrides.__func__(cls), cls
        for name in obj.properties():
            descriptor = cls.lookup(name)
            try:
                own = fast_defaults._bokeh_own(descriptor, obj)
            except AttributeError:
                continue  # an alias's descriptor: Bokeh never asks it (its own method fails there too)
            assert fast_defaults.has_unstable_default(descriptor, obj) == own, (cls, name)
            assert fast_defaults.has_unstable_default(descriptor, obj) == own, (cls, name)  # from the cache
            checked += 1
    assert checked > 5000, checked


def bokehs_own(monkeypatch):
    monkeypatch.setattr(PropertyDescriptor, "has_unstable_default", fast_defaults._bokeh_own)
    monkeypatch.setattr(HasProps, "_overridden_defaults", fast_defaults._bokeh_overrides)


def test_a_page_serialises_the_same_with_it(monkeypatch):
    from bokeh.embed.util import standalone_docs_json_and_render_items

    from app.step.views import StepView

    def page_json():
        doc = Document()
        doc.add_root(StepView().__panel__().get_root(doc))
        docs_json, _ = standalone_docs_json_and_render_items(doc)
        text = json.dumps(list(docs_json.values()), sort_keys=True)
        # Ids, Python object ids and Panel's own names ("Column00174") differ from build to build: numbered in order of appearance.
        text = re.sub(r'"([A-Z][A-Za-z]*)\d{5}"', r'"\1#"', re.sub(r"\b\d{12,}\b", "#", text))  # and id()s
        names = {}
        return re.sub(r"(?<![\w-])p\d{3,}\b", lambda m: "m%d" % names.setdefault(m.group(0), len(names)), text)

    bokehs_own(monkeypatch)
    own = page_json()
    assert fast_defaults.install() is True
    assert page_json() == own


def test_another_bokeh_keeps_its_own_methods(monkeypatch, capsys):
    bokehs_own(monkeypatch)
    monkeypatch.setattr(bokeh, "__version__", "9.9.9")
    assert fast_defaults.install() is False
    assert PropertyDescriptor.has_unstable_default is fast_defaults._bokeh_own
    assert HasProps.__dict__["_overridden_defaults"] is fast_defaults._bokeh_overrides
    assert "not applied" in capsys.readouterr().err


def test_install_puts_both_in_place(monkeypatch):
    bokehs_own(monkeypatch)
    assert fast_defaults.install() is True
    assert PropertyDescriptor.has_unstable_default is fast_defaults.has_unstable_default
    assert HasProps._overridden_defaults() is fast_defaults.overridden_defaults(HasProps)
