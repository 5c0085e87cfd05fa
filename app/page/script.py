"""The page-level script: installs ``page.js`` and ``layout.js`` into a Bokeh document.

Bokeh and Panel give no roles for tabs, no names for a spinner's input or a
slider's handle, and no pressed state on toggle buttons; an embedded page
must also tell its host how tall it is. ``page.js`` does all of that in the
page. It is attached to the document as a ``document_ready`` CustomJS, which
Bokeh serialises with the document: it runs under ``panel serve``, in the
pre-rendered static page and again when the Pyodide worker renders.
"""

from pathlib import Path

from bokeh.models import CustomJS

from .. import parts, theme
from . import words

PAGE_JS = (Path(__file__).resolve().parent / "page.js").read_text(encoding="utf-8")
JUMP_JS = (Path(__file__).resolve().parent / "jump.js").read_text(encoding="utf-8")  # the phone's jump to the inspector
LAYOUT_JS = (Path(__file__).resolve().parent / "layout.js").read_text(encoding="utf-8")  # one layout per patch
PRESENT_JS = (Path(__file__).resolve().parent / "present.js").read_text(encoding="utf-8")  # for a projector

# Present mode (present.js, app/styles/present.css): the toggle's class, the class of every part a
# projector shows (a tab marks its own: the caption and buttons, the token strip, lanes, timeline),
# and the root's class while presenting.
PRESENT_TOGGLE = "sp-present-toggle"
PRESENT_KEEP = "sp-present-keep"
PRESENT_ON = "sp-present"

# Parts hidden inside an iframe unless the link says NAME_hide=0: CSS class on the part -> NAME.
FRAME_HIDDEN = {"intro": "sp-frame-hidden-intro", "embed": "sp-frame-hidden-embed",
                "tables": "sp-frame-hidden-tables"}

# The message a page posts to its parent window with its content height (web/host.js reads it).
HEIGHT_TYPE = "specstep:height"
# The message a host script sends its frames when it starts: a page that posted its height before the
# host was listening (a host script loaded after the frame) posts it again.
HELLO_TYPE = "specstep:hello"


def action_class(action):
    """The CSS class that marks an action button (``Draft`` -> ``sp-action-draft``), for the keyboard."""
    return f"sp-action-{action}"


def script():
    """The CustomJS that runs ``page.js`` with the names and keys of ``words``."""
    keys = {key: action_class(action) for key, action in words.SHORTCUTS}
    return CustomJS(args=dict(names=dict(words.NAMES), keys=keys, tabs_label=words.TABS_LABEL,
                              height_type=HEIGHT_TYPE, hello_type=HELLO_TYPE, widget_css=theme.WIDGET_VARS,
                              frame_hidden={cls: name for name, cls in FRAME_HIDDEN.items()},
                              open_class=parts.OPEN_CLASS, open_recent=parts.OPEN_RECENT), code=PAGE_JS)


def present_script():
    """The CustomJS that runs ``present.js`` (after ``page.js``, whose scans it follows)."""
    return CustomJS(args=dict(toggle=PRESENT_TOGGLE, keep=PRESENT_KEEP, on=PRESENT_ON, sheet=theme.PRESENT),
                    code=PRESENT_JS)


def keep_when_presenting(*parts):
    """Mark ``parts`` (Panel layouts or panes) as shown in present mode; returns them."""
    for part in parts:
        if PRESENT_KEEP not in part.css_classes:
            part.css_classes = [*part.css_classes, PRESENT_KEEP]
    return parts


def install(doc):
    """Run ``page.js``, ``present.js`` and ``layout.js`` when ``doc`` is drawn (no-op without a document,
    e.g. in unit tests)."""
    if doc is not None:
        doc.js_on_event("document_ready", CustomJS(code=LAYOUT_JS))
        doc.js_on_event("document_ready", script())
        doc.js_on_event("document_ready", present_script())
