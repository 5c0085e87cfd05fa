"""Bokeh's answers about a property's default worked out once, not on every read.

Each time a Bokeh model reads a property it has not set, or is serialised, Bokeh
3.9.2 asks two questions whose answers never change once a class is made:

- ``PropertyDescriptor.has_unstable_default``: may this default change? It asks the
  property ``_may_have_unstable_default()``, which walks every type parameter
  (``Nullable(Either(List(...), Dict(...)))``) anew, and imports ``InstanceDefault``
  inside ``is_unstable``;
- ``HasProps._overridden_defaults``: the class's overridden defaults, merged along
  its whole MRO (12 to 15 classes) into a new dict.

The page's first render (about 230 models) asks them about 16,000 and 10,000 times;
answered from a cache they cost about 1/25 and 1/100 as much (CPython, timeit). The
first depends only on the property's default and type parameters (set once in
``Property.__init__``; the per-class overridden default is still checked on every
call), the second only on the classes' ``__overridden_defaults__`` (set when each
class is made; Bokeh's one caller, ``Property.themed_default``, only reads it).

It replaces two methods of Bokeh 3.9.2 (``FOR_BOKEH``) with copies that cache:
another Bokeh keeps its own, and the console says so once.
tests/test_fast_defaults.py checks that the answers are Bokeh's own for every
property of every model class and that a page serialises the same, and fails when
Bokeh moves.
"""

from __future__ import annotations

import inspect
import sys
from types import FunctionType

import bokeh
from bokeh.core.has_props import HasProps
from bokeh.core.property.descriptors import PropertyDescriptor
from bokeh.core.property.instance import InstanceDefault

FOR_BOKEH = "3.9.2"

_bokeh_own = PropertyDescriptor.has_unstable_default
_bokeh_overrides = HasProps.__dict__["_overridden_defaults"]
_overrides: dict[type, dict] = {}  # per class: its overridden defaults, merged along its MRO once
_UNSTABLE = (FunctionType, InstanceDefault)  # what is_unstable() tests, imported once


def has_unstable_default(self, obj) -> bool:
    # Bokeh 3.9.2's method, with the property's own answer kept on the descriptor.
    may = self.__dict__.get("_sp_may_be_unstable")
    if may is None:
        may = self.__dict__["_sp_may_be_unstable"] = bool(self.property._may_have_unstable_default())
    return may or isinstance(obj.__overridden_defaults__.get(self.name, None), _UNSTABLE)


def overridden_defaults(cls) -> dict:
    # Bokeh 3.9.2's HasProps._overridden_defaults, merged once per class.
    found = _overrides.get(cls)
    if found is None:
        found = _overrides[cls] = _bokeh_overrides.__func__(cls)
    return found


def install() -> bool:
    """Idempotent; True when installed, False when this Bokeh keeps its own method (see the module)."""
    if PropertyDescriptor.has_unstable_default is has_unstable_default:
        return True
    shape = (list(inspect.signature(_bokeh_own).parameters) == ["self", "obj"]
             and list(inspect.signature(_bokeh_overrides.__func__).parameters) == ["cls"])
    if bokeh.__version__ != FOR_BOKEH or not shape:
        print(f"[specstep] app/fast_defaults.py not applied: written for Bokeh {FOR_BOKEH}, "
              f"this is {bokeh.__version__}", file=sys.stderr)
        return False
    PropertyDescriptor.has_unstable_default = has_unstable_default
    HasProps._overridden_defaults = classmethod(overridden_defaults)
    return True
