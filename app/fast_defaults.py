"""Bokeh's "may this default change?" answered once per property, not on every read.

Each time a Bokeh model reads a property it has not set, or is serialised,
``PropertyDescriptor.has_unstable_default`` asks the property
``_may_have_unstable_default()``, which walks every type parameter
(``Nullable(Either(List(...), Dict(...)))``) anew, and imports
``InstanceDefault`` inside ``is_unstable``. For the page's first render
(about 230 models) that was the largest single cost in building and
serialising them: about 13% of that CPU time (CPython, process time, best of 6).
The answer depends only on the property's default and type parameters, which
Bokeh sets once in ``Property.__init__``, so ``install()`` keeps it on the
descriptor; the per-class overridden default is still checked on every call.

It replaces a method of Bokeh 3.9.2 (``FOR_BOKEH``) with a copy that caches one
value: another Bokeh keeps its own method, and the console says so once.
tests/test_fast_defaults.py checks that the answers are Bokeh's own for every
property of every model class, and fails when Bokeh moves.
"""

from __future__ import annotations

import inspect
import sys
from types import FunctionType

import bokeh
from bokeh.core.property.descriptors import PropertyDescriptor
from bokeh.core.property.instance import InstanceDefault

FOR_BOKEH = "3.9.2"

_bokeh_own = PropertyDescriptor.has_unstable_default
_UNSTABLE = (FunctionType, InstanceDefault)  # what is_unstable() tests, imported once


def has_unstable_default(self, obj) -> bool:
    # Bokeh 3.9.2's method, with the property's own answer kept on the descriptor.
    may = self.__dict__.get("_sp_may_be_unstable")
    if may is None:
        may = self.__dict__["_sp_may_be_unstable"] = bool(self.property._may_have_unstable_default())
    return may or isinstance(obj.__overridden_defaults__.get(self.name, None), _UNSTABLE)


def install() -> bool:
    """Idempotent; True when installed, False when this Bokeh keeps its own method (see the module)."""
    if PropertyDescriptor.has_unstable_default is has_unstable_default:
        return True
    shape = list(inspect.signature(_bokeh_own).parameters) == ["self", "obj"]
    if bokeh.__version__ != FOR_BOKEH or not shape:
        print(f"[specstep] app/fast_defaults.py not applied: written for Bokeh {FOR_BOKEH}, "
              f"this is {bokeh.__version__}", file=sys.stderr)
        return False
    PropertyDescriptor.has_unstable_default = has_unstable_default
    return True
