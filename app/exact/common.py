"""Helpers the "Why it is exact" and "When it pays off" views share.

A stylesheet read once through ``theme.stylesheet`` (the page's one
reader of ``app/styles/*.css``), an HTML pane with the tab's styles, and a
body built when first shown.
"""

from functools import lru_cache

import panel as pn
import param

from app import theme

@lru_cache(maxsize=None)
def stylesheet(name):
    """``app/styles/<name>.css`` as ``theme.stylesheet`` reads it, once (each pane carries a copy)."""
    return theme.stylesheet(name)


def html(text="", css=(), **kw):
    """An HTML pane in the page's look plus ``css``; ``text`` may be a reference (``pn.bind``)."""
    kw.setdefault("margin", 0)
    kw.setdefault("sizing_mode", "stretch_width")
    return pn.pane.HTML(text, stylesheets=[theme.CSS, *css], **kw)


def built_when_shown(build):
    """A pane whose content is ``build()``, called when the pane is first rendered.

    ``pn.Tabs(dynamic=True)`` renders a tab when it is first opened, so a
    tab whose body sits in this pane computes nothing before the reader
    opens it; a page that builds the tab on first open gets the same.
    """
    @param.depends()  # no parameters: evaluated once, when rendered
    def body():
        return build()

    return pn.param.ParamFunction(body, lazy=True, sizing_mode="stretch_width", margin=0)
