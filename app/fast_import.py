"""Importing Panel and Bokeh in the page's worker without Bokeh's help() signatures.

As each of its ~450 model classes is defined, Bokeh 3.9 gives the class's
``__init__`` an ``inspect.Signature`` of its properties, for ``help()`` and
editors (``Model.__init_subclass__``, through ``Model.parameters()``). In
Pyodide that is about 0.35 s of the 0.7 s that importing ``bokeh.models``
takes, on every page load; the page never asks for help. While Panel is
imported, ``Model.__init_subclass__`` does everything but that, and afterwards
it is Bokeh's again (classes defined later get their signatures). The classes
made meanwhile keep ``__init__``'s own signature; ``Model.parameters()``
itself is untouched, so ``bokeh.plotting``'s glyph methods still map
positional arguments (they build their own signatures from it).

It is a copy of Bokeh's method without two lines, so it applies only to the
Bokeh it was copied from (``FOR_BOKEH``); another version imports as usual.
"""

from __future__ import annotations

import contextlib

FOR_BOKEH = "3.9.2"


@contextlib.contextmanager
def bokeh_without_signatures():
    """Within: Bokeh's model classes are defined without their __init__ signatures (see the module)."""
    import bokeh
    from bokeh.model import docs, model

    original = model.Model.__dict__.get("__init_subclass__")
    if bokeh.__version__ != FOR_BOKEH or original is None:
        yield False
        return

    def init_subclass(cls):
        # Bokeh 3.9.2's Model.__init_subclass__ without the two lines that write the signature.
        super(model.Model, cls).__init_subclass__()
        if cls.__module__.startswith("bokeh.models"):
            docs.process_example(cls)

    model.Model.__init_subclass__ = classmethod(init_subclass)
    try:
        yield True
    finally:
        model.Model.__init_subclass__ = original


class _TemplateWhenUsed:
    """A Jinja template loaded (read, parsed and compiled) the first time anything of it is used."""

    __slots__ = ("_load", "_template")

    def __init__(self, load):
        self._load = load
        self._template = None

    def _real(self):
        if self._template is None:
            self._template = self._load()
        return self._template

    def __getattr__(self, name):  # render, module, blocks...: the real template's
        return getattr(self._real(), name)

    def __repr__(self):
        return f"<template loaded when used: {self._load.__name__}>"


@contextlib.contextmanager
def templates_when_used():
    """Within: ``jinja2.Environment.get_template`` gives a template loaded at its first use.

    Bokeh and Panel load 21 Jinja templates as they are imported (for notebooks, saved files and the
    server's pages: ``bokeh.core.templates``, ``panel.io.resources``, ``panel.io.notebook``); in
    Pyodide compiling them is about 0.06 s of every page load, and the worker renders none of them.
    Nothing in Bokeh or Panel asks whether such a template is a ``jinja2.Template``; one that is used
    (``render``, ``module``...) is loaded then, by Jinja itself, as it would have been at import.
    """
    import jinja2

    original = jinja2.Environment.get_template

    def get_template(self, name, parent=None, globals=None):
        def load():
            return original(self, name, parent, globals)

        load.__name__ = str(name)
        return _TemplateWhenUsed(load)

    jinja2.Environment.get_template = get_template
    try:
        yield
    finally:
        jinja2.Environment.get_template = original
