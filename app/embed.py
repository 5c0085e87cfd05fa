"""A small "Copy embed code" control: an iframe snippet for the scenario on screen.

The snippet's address is the page's own address (``pn.state.location.href``
without its query) plus the query ``urlstate.write`` builds from the model,
so the iframe reopens the same draft, width, seed and step, with the same
hidden controls. The snippet is shown as the value of a text box, never as HTML.
"""

import panel as pn
import param

from . import theme, urlstate
from .model import Model

COPY_LABEL = "Copy embed code"

# Runs in the browser: copy the text box's value; if the clipboard is not
# available (an iframe without permission, plain http), say how to copy by hand.
COPY_JS = """
const text = area.value;
const done = (label) => { button.label = label; setTimeout(() => { button.label = original; }, 2000); };
const original = "%s";
if (navigator.clipboard && window.isSecureContext) {
  navigator.clipboard.writeText(text).then(() => done("Copied"), () => done("Select the code and copy it"));
} else {
  done("Select the code and copy it");
}
""" % COPY_LABEL

HEIGHT = 1900  # px: the step view at desktop width; a taller page scrolls inside the frame


def snippet(base, query):
    """The iframe HTML for ``base`` (page address, no query) and ``query`` ("?draft=...")."""
    # Quotes and angle brackets are escaped; "&" stays readable (valid in HTML5 attributes).
    src = (base + query).replace('"', "%22").replace("<", "%3C").replace(">", "%3E")
    return (f'<iframe src="{src}" title="Speculative decoding, one block at a time" width="100%" '
            f'height="{HEIGHT}" style="border:0;max-width:1200px" loading="lazy"></iframe>')


class EmbedCode(pn.viewable.Viewer):
    """Text box with the snippet and a button that copies it."""

    model = param.ClassSelector(class_=Model)

    base = param.String(default="", doc="The page's address without query or fragment.")

    def __init__(self, **params):
        super().__init__(**params)
        self.area = pn.widgets.TextAreaInput(
            label="Embed code for this scenario", value="", rows=3, sizing_mode="stretch_width",
            stylesheets=[".bk-input { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; }"],
            margin=(4, 0),
        )
        self.copy = pn.widgets.Button(label=COPY_LABEL, stylesheets=[theme.BUTTON], margin=(4, 0),
                                      description="Copy an iframe snippet that opens this exact scenario")
        self.copy.js_on_click(args={"area": self.area, "button": self.copy}, code=COPY_JS)
        help_ = pn.pane.HTML(
            '<div class="section-title"><h2>Embed this scenario</h2></div><p class="muted small">Paste the '
            'snippet into course notes: it opens this draft, width, seed and step. Add '
            '<code>&amp;draft_hide=1</code> (or width, seed, reset, counters, history, intro) to hide a '
            'control.</p>',
            stylesheets=[theme.CSS], sizing_mode="stretch_width", margin=0,
        )
        self._layout = pn.Column(help_, self.area, self.copy, sizing_mode="stretch_width",
                                 stylesheets=[theme.CARD], margin=(6, 0))
        self.model.param.watch(self._sync, ["session", "hidden", "draft", "width", "seed"])
        self.param.watch(self._sync, "base")
        self._sync()

    def _sync(self, *events):
        query = urlstate.write(self.model.scenario(), self.model.hidden)
        self.area.value = snippet(self.base or "", query)
        self._layout.visible = "embed" not in self.model.hidden

    def __panel__(self):
        return self._layout
