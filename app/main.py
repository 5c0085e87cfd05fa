"""The page: title, introduction and tabs; the one wiring file.

Served with ``panel serve app/main.py`` and compiled by ``panel convert`` into
a Pyodide worker page, so: no threads, no file I/O, no module-level global
named ``state`` (the converted worker overwrites it), and the page is built
in ``build_page`` and marked ``.servable()``.

The URL holds the scenario (``?draft=biased&width=3&seed=1``; see
``app/urlstate.py``). With ``panel serve`` the query is known when the page
is built; in the Pyodide worker it arrives after the first render, so the
location's ``search`` is watched as well.
"""

import os
import sys

try:
    import app  # noqa: F401  (run as a package member or with the project root on sys.path)
except ImportError:
    # `panel serve app/main.py` puts app/ itself on sys.path; the project root holds app/ and core/.
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import panel as pn

from app import theme, urlstate
from app.exact_tab import ExactTab
from app.model import Model
from app.payoff_tab import PayoffTab
from app.step_tab import StepView

TITLE = "Speculative decoding, one block at a time"
INTRO = (
    "A small draft model guesses a few tokens ahead, and the large target model checks all of the guesses "
    "in one pass, keeping only what its own probabilities allow. Step through a block below: every number "
    "comes from three toy tokens, A, B and C, and a seeded random draw, so you can check each decision by hand."
)

# One line per tab: (title, factory). A factory gets the page's Model (the
# trace of "Step through a block") and returns a viewable; for example
#     ("Why it is exact", lambda model: ExactTab(session_model=model)),
TABS = (
    ("Step through a block", lambda model: StepView(model=model)),
    ("Why it is exact", lambda model: ExactTab(session_model=model)),
    ("When it pays off", lambda model: PayoffTab(session_model=model)),
)

pn.extension(global_css=[theme.PAGE_CSS])


def link_url(model, location):
    """Keep the scenario and the URL in step (read on load, write on control changes)."""
    if location is None:
        return
    written = {"search": None, "applying": False}

    def apply(search):
        if not search or search == written["search"]:
            return
        written["search"] = search
        url = urlstate.read(search)
        if not url.given:
            return  # the query belongs to someone else (another tab, a tracker)
        written["applying"] = True
        try:
            model.open_link(url)
        finally:
            written["applying"] = False

    def on_scenario(*events):
        if written["applying"]:
            return
        values = dict(model.scenario(), steps=0)
        search = urlstate.write(values, model.hidden, location.search)
        if search != location.search:
            written["search"] = search
            location.search = search

    apply(location.search)
    location.param.watch(lambda event: apply(event.new), "search")
    model.param.watch(on_scenario, ["draft", "width", "seed", "lookahead"])


def header(model):
    intro = pn.pane.HTML(
        f'<h1 style="font-size:1.7rem;letter-spacing:-0.02em;margin:0 0 6px">{theme.esc(TITLE)}</h1>'
        f'<p style="max-width:62em;font-size:1.02rem" class="intro">{theme.esc(INTRO)}</p>',
        stylesheets=[theme.CSS], sizing_mode="stretch_width", margin=(4, 0, 0, 0),
    )

    def hide(*events):
        intro.visible = "intro" not in model.hidden

    model.param.watch(hide, "hidden")
    hide()
    return intro


def build_page():
    model = Model()
    location = pn.state.location
    link_url(model, location)
    pn.config.exception_handler = model.report_error
    views = [(title, make(model)) for title, make in TABS]
    step = views[0][1]
    if location is not None:
        def set_base(*events):
            step.embed.base = (location.href or "").split("#")[0].split("?")[0]
        location.param.watch(set_base, "href")
        set_base()
    tabs = pn.Tabs(*views, sizing_mode="stretch_width", margin=(8, 0, 0, 0), dynamic=False,
                   stylesheets=[theme.TABS])
    return pn.Column(
        header(model), tabs,
        sizing_mode="stretch_width", margin=0,
        styles={"max-width": "1200px", "margin": "0 auto", "padding": "12px clamp(6px, 2vw, 16px) 32px",
                "box-sizing": "border-box"},
    )


build_page().servable(title=TITLE)
