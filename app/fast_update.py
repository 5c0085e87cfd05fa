"""A widget's change sent without recomputing its design's stylesheets.

When a parameter of a Panel object changes (a button's ``disabled``, a
select's options), Panel's ``Reactive._update_properties`` first asks the
object's design for all its modifiers (``Design.params``: the theme's
stylesheets, looked up and cached per document), and uses them only when
the change is to ``stylesheets`` itself. That lookup was about 15% of a
click's Python. ``install()`` makes it conditional: a change without
``stylesheets`` goes straight to ``_process_param_change``, as Panel's base
``Syncable._update_properties`` does; one with them is Panel's own path.
The properties sent are the same either way (tests/test_fast_update.py).

It replaces a private method, so, like ``app/fast_import.py``, it applies only
to the Panel it was written for (``FOR_PANEL``) and only when the methods have
the shape it expects (``fits``, which ``app/parts.py``'s ``Text`` uses too);
otherwise Panel's own path stays, and the console says so once. Panel 1.9
offers no public switch for either (its designs apply to every object).
"""

from __future__ import annotations

import inspect
import sys

import panel
from panel.reactive import Reactive, Syncable

FOR_PANEL = "1.9.4"

_design_path = Reactive._update_properties
_said = set()  # the patches the console was told about


def _params(method):
    """A method's parameters as written, without annotations: ("self", "*events", "doc")."""
    return tuple(str(p.replace(annotation=p.empty)) for p in inspect.signature(method).parameters.values())


def fits(patch, owner, name, params):
    """True when Panel is ``FOR_PANEL`` and ``owner.name`` takes ``params``: the patch
    ``patch`` may replace it. Otherwise False, said once in the console."""
    method = getattr(owner, name, None)
    shape = callable(method) and _params(method) == params
    if panel.__version__ == FOR_PANEL and shape:
        return True
    if patch not in _said:
        _said.add(patch)
        why = (f"it was written for Panel {FOR_PANEL}, this is {panel.__version__}" if shape
               else f"{owner.__name__}.{name} is not the method it was written for")
        print(f"[specstep] {patch} left out ({why}): Panel's own {owner.__name__}.{name} is used", file=sys.stderr)
    return False


def _update_properties(self, *events, doc):
    if any(event.name == "stylesheets" for event in events):
        return _design_path(self, *events, doc=doc)
    return Syncable._update_properties(self, *events, doc=doc)


def install():
    """Idempotent; every Panel object's later changes take the short path (see the module).
    True when installed, False when this Panel keeps its own path."""
    shape = ("self", "*events", "doc")
    if not (fits("app/fast_update.py", Reactive, "_update_properties", shape)
            and fits("app/fast_update.py", Syncable, "_update_properties", shape)):
        return False
    Reactive._update_properties = _update_properties
    return True
