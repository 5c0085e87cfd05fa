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
"""

from __future__ import annotations

from panel.reactive import Reactive, Syncable

_design_path = Reactive._update_properties


def _update_properties(self, *events, doc):
    if any(event.name == "stylesheets" for event in events):
        return _design_path(self, *events, doc=doc)
    return Syncable._update_properties(self, *events, doc=doc)


def install():
    """Idempotent; every Panel object's later changes take the short path (see the module)."""
    Reactive._update_properties = _update_properties
