"""The page: title, introduction and tabs; the one wiring file.

Served with ``panel serve app/main.py`` and compiled into a Pyodide worker
page by build.py, so: no threads, no module-level global named ``state``
(the worker overwrites it), and the page is built in ``build_page`` and
marked ``.servable()``.

Tabs are built when first opened: ``TABS`` names a factory per tab, the
tab the page opens on is built with the page, and every other tab starts as
a small placeholder that ``open_tab`` fills, in a task of its own, the first
time the reader opens it. So, on the default page, nothing
of "Why it is exact" or "When it pays off" is imported, constructed or
computed (nor pre-rendered into the static page) before a reader opens it.
A plain placeholder filled once, rather than ``pn.Tabs(dynamic=True)``, keeps
each tab's models alive after it is first built: switching tabs sends one
``active`` change, never a rebuilt tab.

The URL holds the scenario (``?draft=biased&width=3&seed=1``; see
``app/urlstate.py``) and ``link_url`` is its one reader and writer. It reads
the raw query string once (and again if the browser's location reaches the
Pyodide worker after the first render), and writes it with
``history.replaceState`` in the page: a control change never adds a
history entry (in an iframe, none to the host page either), so Back leaves
the widget rather than showing another scenario's URL over this one.
"""

import os
import sys

try:
    import app  # noqa: F401  (run as a package member or with the project root on sys.path)
except ImportError:
    # `panel serve app/main.py` puts app/ itself on sys.path; the project root holds app/ and core/.
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import panel as pn

from app import fast_defaults, fast_update, i18n, theme, urlstate
from app.i18n import t
from app.embed.tables_editor import OwnNumbers
from app.page import links
from app.page import script as page
from app.parts import Lazy, html, wrap
from app.step.model import StepModel
from app.step.replay import replay  # noqa: F401  (app/worker_protocol.start calls it: issue 27)
from app.step.views import StepView, notice_html

fast_update.install()  # a widget's change skips its design's stylesheets (app/fast_update.py)
fast_defaults.install()  # Bokeh asks once per property whether its default may change (app/fast_defaults.py)


def step_tab(model):
    return StepView(model=model)


def exact_tab(model):
    from app.exact import ExactTab  # imported when the tab is first opened
    return ExactTab(session_model=model)


def payoff_tab(model):
    from app.payoff import PayoffTab  # imported when the tab is first opened
    return PayoffTab(session_model=model)


def guesses_tab(model):
    from app.guesses import GuessesTab  # imported when the tab is first opened
    return GuessesTab(session_model=model)


# One line per tab: (title, factory). A title is a catalogue key (app/i18n) or plain
# text. A factory gets the page's StepModel (the trace of "Step through a block")
# and returns a viewable.
TABS = (
    ("tab.step", step_tab),
    ("tab.exact", exact_tab),
    ("tab.payoff", payoff_tab),
    ("tab.guesses", guesses_tab),
)


def words(text):
    """A title of ``TABS`` in the page's language."""
    return t(text) if i18n.has(text) else text


# Runs in the page whenever the address the model describes changes.
REPLACE_URL_JS = ("if (source.value) { window.history.replaceState(window.history.state, '', "
                  "source.value + window.location.hash); }")

# apply_signatures: Panel would write a help() signature on each of its ~200 classes here, on every load.
pn.extension(global_css=[theme.PAGE_CSS, theme.PRESENT], apply_signatures=False)
urlstate.tolerate_long_query_values()


def present_switch():
    """The Present toggle: pressed, the page shows what a projector needs (``app/page/present.js`` follows it)."""
    labels = {False: t("page.present"), True: t("page.present.leave")}
    toggle = pn.widgets.Toggle(label=labels[False], margin=(0, 0, 0, 12),
                               css_classes=[page.PRESENT_TOGGLE, page.PRESENT_KEEP], stylesheets=[theme.BUTTON])
    toggle.param.watch(lambda event: setattr(toggle, "label", labels[event.new]), "value")
    return toggle


def link_url(model, location, present=None):
    """Make the URL and the scenario agree; return the (hidden) widget that writes the address.

    Reads: the location's raw ``search`` on load, and whenever it changes
    (in the worker it can arrive after the first render); a query with
    none of our keys is left to its owner. Writes: the scenario, hide flags, ``present``
    (the ``present`` toggle's state) and every key that is not ours, through ``history.replaceState``.
    """
    seen = {"search": location.search if location is not None else ""}
    present = present if present is not None else present_switch()

    def read(search):
        seen["search"] = search or ""
        model.locked = links.locked(seen["search"])  # before the scenario: a lock holds from the first click
        url = urlstate.read(seen["search"])
        present.value = url.present
        model.predict = url.predict
        if url.given:
            model.open_link(url)

    def address():
        # steps: the moment on screen (issue 26), so a link copied at any moment opens on it.
        return urlstate.write(dict(model.scenario(), lang=i18n.link_value(), present="1" if present.value else "0",
                                    predict="1" if model.predict else "0"),
                              model.hidden, seen["search"], guesses=model.guesses)

    writer = pn.widgets.TextInput(label="address", visible=False, value=address())
    writer.jscallback(value=REPLACE_URL_JS)
    # A watcher, not a bound value: a bound widget re-resolves its reference on every click.
    model.param.watch(lambda *events: setattr(writer, "value", address()), ["session", "hidden", "guesses", "predict"])
    present.param.watch(lambda *events: setattr(writer, "value", address()), "value")
    if location is not None:
        read(location.search)
        location.param.watch(lambda event: read(event.new), "search")
    return writer


def page_address(href):
    """The page's address without query or fragment (the embed snippet adds its own query)."""
    return (href or "").split("#")[0].split("?")[0]


def lazy_tab(title, make, model):
    """A tab's placeholder until first opened; then the tab itself, built once (``parts.Lazy``)."""
    holder = html(f'<p class="muted">{theme.esc(t("page.opening", tab=title))}</p>', margin=(12, 0))
    return Lazy(lambda: make(model), holder)


def language_switch(model):
    """Links to this scenario in each language; the page reloads in the one chosen (``?lang=``)."""
    here = i18n.language()

    def links():
        hidden = model.hidden
        items = []
        for lang in i18n.LANGUAGES:
            name = theme.esc(i18n.NAMES[lang])
            if lang == here:
                items.append(f'<span class="lang-now" aria-current="true" lang="{lang}">{name}</span>')
            else:
                query = urlstate.write(dict(model.scenario(), lang=lang, predict="1" if model.predict else "0"), hidden,
                                       guesses=model.guesses)
                items.append(f'<a href="{theme.esc(query)}" lang="{lang}" hreflang="{lang}" target="_self">{name}</a>')
        return (f'<nav class="lang-switch" aria-label="{theme.esc(t("page.language"))}">'
                + " · ".join(items) + "</nav>")

    switch = html(links(), margin=(0, 0, 0, 0), sizing_mode=None, styles={"text-align": "right", "font-size": "14px"})
    model.param.watch(lambda *events: setattr(switch, "object", links()), ["session", "hidden", "guesses", "predict"])
    return switch


def choose_language(location):
    """The page's language: the link's ``?lang=``, else the browser's, else English."""
    asked = urlstate.language(location.search if location is not None else "")
    if asked is not None:
        return i18n.set_language(asked, explicit=True)
    return i18n.set_language(i18n.browser_language() or i18n.DEFAULT)


def build_page():
    location = pn.state.location
    choose_language(location)
    model = StepModel()
    present = present_switch()
    writer = link_url(model, location, present)
    names = [links.slug(make) for _, make in TABS]
    link = links.read(location.search if location is not None else "", names)
    chosen = [(name, title, make) for name, (title, make) in zip(names, TABS) if name in link.shown]
    first_name = names[0]
    step = TABS[0][1](model)  # the step tab's model drives every tab, shown or not
    # Caption, buttons and keys; Predict first's calls (a class can vote); the timeline and Play; the token
    # strip; the two lanes.
    page.keep_when_presenting(step.bar, step.predict.__panel__(), step.player.__panel__(), step.strip.__panel__(),
                              step.lanes.__panel__())
    step.embed.tab_choices = [(name, words(title)) for name, (title, _) in zip(names, TABS)]
    if location is not None:
        step.embed.base = pn.bind(page_address, location.param.href)
    if link.notices:  # beside the scenario's own notices, in the step tab's caption
        model.notice = " ".join(filter(None, (model.notice, *link.notices)))
    lazy = {name: lazy_tab(words(title), make, model) for name, title, make in chosen if name != first_name}
    tabs = pn.Tabs(*((words(title), step if name == first_name else lazy[name].layout) for name, title, _ in chosen),
                   sizing_mode="stretch_width", margin=(8, 0, 0, 0), stylesheets=[theme.TABS])
    order = [name for name, _, _ in chosen]

    def open_tab(event):
        name = order[event.new]
        if name in lazy:
            lazy[name].open()

    if link.start in lazy:
        # A page can open on a tab that is not the registry's first (``tabs=guesses``, ``tab=exact``),
        # and ``active`` may not change (it starts at 0): that tab is built with the page.
        lazy[link.start].open(now=True)
    tabs.param.watch(open_tab, "active")
    tabs.active = order.index(link.start)
    page.install(pn.state.curdoc)
    header = html(f'<h1>{theme.esc(t("page.title"))}</h1><p class="intro">{theme.esc(t("page.intro"))}</p>',
                  margin=(4, 0, 0, 0), visible=pn.bind(lambda hidden: "intro" not in hidden, model.param.hidden),
                  css_classes=[page.FRAME_HIDDEN["intro"]])
    top = wrap(language_switch(model), present, justify_content="flex-end", align_items="center", margin=0)
    # "Your own numbers" (issue 29): every tab runs on the tables, so the editor sits under them all;
    # a locked page's scenario is the author's, so it has none; inside an iframe it is hidden
    # unless the link says tables_hide=0 (course notes embed the author's numbers).
    own = pn.Column(OwnNumbers(model=model), sizing_mode="stretch_width", margin=(8, 0, 0, 0),
                    stylesheets=[theme.CARD], css_classes=[page.FRAME_HIDDEN["tables"]],
                    visible=pn.bind(lambda locked, hidden: not locked and "tables" not in hidden,
                                    model.param.locked, model.param.hidden))
    parts = [top, header, tabs, own, writer]
    if first_name not in link.shown:  # no step tab, so no caption: the link's notices above the tabs
        parts.insert(2, html(pn.bind(notice_html, model.param.notice), theme.CAPTION, margin=(8, 0, 0, 0),
                             visible=pn.bind(bool, model.param.notice)))
    return pn.Column(*parts, sizing_mode="stretch_width", margin=0, stylesheets=[theme.PAGE_COLUMN])


build_page().servable(title=t("page.title"))
