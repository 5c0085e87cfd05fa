"""Small pieces every view shares: one update per click, a labelled control, HTML panes, parts built when
first needed, the charts' look. The one home of such helpers: a tab package imports no other tab's."""

import sys
import traceback
from collections.abc import Mapping
from contextlib import contextmanager

import panel as pn
import param

import core
from core.timeline import Timeline, moment_index

from . import fast_update
from . import theme
from .i18n import has, language, t


def draft_objects():
    """The draft choice as every view labels it (label -> name), read from ``core.DRAFT_KINDS`` when
    asked, so a kind registered later is a choice too; views show ``draft_options()``."""
    return {kind.label: kind.name for kind in core.DRAFT_KINDS.values()}


class DraftChoices(Mapping):
    """``draft_objects()`` as a mapping read each time it is used: a view built after a kind was
    registered offers it, although its module imported ``DRAFT_OPTIONS`` before."""

    def __getitem__(self, label):
        return draft_objects()[label]

    def __iter__(self):
        return iter(draft_objects())

    def __len__(self):
        return len(core.DRAFT_KINDS)


DRAFT_OPTIONS = DraftChoices()


def draft_name(draft):
    """A draft's name in a sentence ("biased", "偏置"): ``step.draft_name.<name>``, else the name itself."""
    key = f"step.draft_name.{draft}"
    return t(key) if has(key) else draft


def draft_options(options=None):
    """``options`` (label -> draft; every kind by default) with labels in the page's language."""
    options = draft_objects() if options is None else options
    kinds = core.DRAFT_KINDS
    keys = {value: kinds[value].label_key if value in kinds else f"draft.{value}" for value in options.values()}
    return {t(keys[value]) if has(keys[value]) else label: value for label, value in options.items()}


@contextmanager
def one_update():
    """Send everything changed inside as one update to the page.

    Under ``panel serve`` that is ``pn.io.hold()``: Panel collects the
    document's events and writes them as one message. In the Pyodide worker
    (a document with no server session) the worker's protocol already sends
    a callback's events as one patch (``app/worker_protocol.py``), and a
    Bokeh hold released there would replay every change through Panel's
    change handlers, so nothing is held.
    """
    doc = pn.state.curdoc
    if doc is not None and doc.session_context is not None:
        with pn.io.hold(doc):
            yield
    else:
        yield


def _text_only(self, ref, model):
    model.update(**self._process_param_change({"object": self.object}))


def text_update():
    """The ``_update`` a ``Text`` uses: just the text, or, with another Panel, HTML's own."""
    if fast_update.fits("app/parts.py Text", pn.pane.HTML, "_update", ("self", "ref", "model")):
        return _text_only
    return pn.pane.HTML._update


class Text(pn.pane.HTML):
    """An HTML pane whose new text is sent as just that: the text.

    When the text changes, Panel's HTML pane recomputes every property of its
    model (its design's stylesheets included) and compares them all, about a
    third of a click's Python. Only the text can change on this path: sizes,
    visibility and styles reach the model through Panel's own parameter sync.
    It overrides Panel's private ``_update``, so only for the Panel it was
    written for (``app/fast_update.fits``); with another, HTML's own is used.
    """

    _update = text_update()


class TabModel(param.Parameterized):
    """What every tab's model shares: one update per change, and errors said as a notice.

    A subclass sets ``words`` to its tab's words module (``cannot_run(error)`` and
    ``BROKEN``). An action runs inside ``_guard``: a configuration ``core`` refuses
    becomes a one-line notice, an unexpected error keeps its traceback in
    ``error_trace`` (and the server log) and shows a short message; the session stays
    as it was, and no traceback reaches the page.
    """

    notice = param.String(default="", doc="""
        A one-line notice in plain text (a bad link value, a click out of turn, an unexpected error);
        "" for none.""")

    error_trace = param.String(default="", doc="""
        Traceback of the last unexpected error, kept for debugging; never shown on the page.""")

    words = None  # the tab's words module

    def _publish(self, **changes):
        """Every change of the model goes through here: one ``param.update``, one document change."""
        with one_update():
            self.param.update(**changes)

    def _guard(self, fn):
        try:
            fn()
        except core.ConfigError as error:
            self.notice = self.words.cannot_run(error)
        except Exception:
            self.report_error()

    def report_error(self):
        """Keep the traceback for debugging, show a short message, leave the session as it was."""
        self.error_trace = traceback.format_exc()
        print(self.error_trace, file=sys.stderr)
        self.notice = self.words.BROKEN


BACK = "back"  # Step back: no action of core's sessions (a session has no past), the timeline's moment before


class TimelineModel(TabModel):
    """A tab model whose trace is a series of moments (``core.timeline``): Step back and the timeline's jumps.

    The step and guesses tabs share it. A subclass gives ``_act(action)`` for its session's own
    actions, ``moment_words(n)`` (the caption at moment n), ``_landing(session)`` (the parameters
    a jump sets besides the session: where its inspector lands), ``_scenario(session)`` when a
    session's config is not the whole of what fixes its trace, and ``_refused_jump(n)`` when a
    moment may wait (Predict first holds the step tab's later moments).
    """

    locked = param.Boolean(default=False, doc="""
        A link's lock=1 (app/page/links.py, read by app/main.link_url into the step tab's model, which
        the guesses tab's follows): the page's author fixed the scenario, so no control and no preset
        may change it; only a link (the page's own URL) does. Stepping through it stays free.""")

    def act(self, action):
        """Perform ``action`` (one of the tab's actions, or ``BACK``) and describe it; never raises."""
        if action == BACK:
            self.back()
            return
        self._guard(lambda: self._act(action))

    def steps_done(self):
        """Clicks of Next step from a fresh trace to the one on screen: the moment (``steps=`` in a link)."""
        return moment_index(self.session)

    def _scenario(self, session):
        return session.config

    def _refused_jump(self, n):
        """Why moment ``n`` may not be shown now (a notice), or None: every moment may, unless a tab says."""
        return None

    def _timeline_of(self, session):
        """Every moment of ``session``'s trace, computed once per scenario."""
        known = getattr(self, "_timeline", None)
        if known is None or self._scenario(known.sessions[0]) != self._scenario(session):
            known = self._timeline = Timeline.of(session)
        return known

    def timeline(self):
        """Every moment of the trace on screen."""
        return self._timeline_of(self.session)

    def jump(self, n):
        """Show moment ``n`` of the trace exactly as ``n`` clicks of Next step from the start show it."""
        def go():
            line = self.timeline()
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= line.last:
                self._publish(notice=t("step.timeline.no_moment", last=line.last))
                return
            refused = self._refused_jump(n)
            if refused:
                self._publish(notice=refused)
                return
            session = line.at(n)
            self._publish(session=session, **self._landing(session), notice="", happened=self.moment_words(n))
        self._guard(go)

    def back(self):
        """Step back: the moment before this one, replayed from core's trace (moment 0 has none: a notice says so)."""
        n = self.steps_done()
        if n == 0:
            self._guard(lambda: self._publish(notice=self.words.not_possible(BACK, t("step.back.nothing"))))
            return
        self.jump(n - 1)


def update_changed(obj, **values):
    """``obj.param.update`` with those of ``values`` that differ from what ``obj`` holds, in one update.

    A widget or pane that shows the same thing after a click is left alone: even an
    update that changes nothing costs Panel its whole round of watchers, and a
    property sent again (a select's options) costs the page as much as a new one.
    """
    changed = {name: value for name, value in values.items() if getattr(obj, name) != value}
    if len(changed) == 1:
        setattr(obj, *changed.popitem())  # param.update would first read every parameter's value
    elif changed:
        obj.param.update(**changed)


def lock_line(locked):
    """The one line a locked tab shows above its scenario's controls: the author fixed them."""
    return html(f'<p class="muted small" role="note">{theme.esc(t("step.locked"))}</p>',
                margin=(0, 0), visible=locked, styles={"flex": "1 1 100%"})


def hold(controls, line, locked, idle=None):
    """Disable a tab's scenario ``controls`` under a lock (else those ``idle`` marks), and show its ``line``.

    A disabled slider is then no Tab stop either (``app/page/page.js``, untabDisabledSlider)."""
    idle = idle or {}
    for widget in controls:
        update_changed(widget, disabled=locked or idle.get(widget, False))
    update_changed(line, visible=locked)


NEXT = "--sp-next"  # 1 on the action button a reader presses next, else 0 (app/styles/button.css)


class ActionButtons:
    """A tab's action buttons over its model: each enabled while its action is possible, the next marked.

    ``buttons`` maps each action to its button (made by the tab: label, tooltip, classes);
    ``state(action)`` gives (possible now, is the next action). One watcher follows the
    model's session and updates only the buttons whose state moved, rather than a bound
    reference per button and property re-resolved on every click. The next action is
    marked by a CSS variable in the button's inline style: a colour change Panel sends
    back to itself as if the page had made it (six times the cost of a plain change),
    and a change of CSS class makes BokehJS lay out the whole page again (~60 ms).
    """

    def __init__(self, model, buttons, state):
        self.buttons = buttons
        self.state = state
        for action, button in buttons.items():
            button.on_click(lambda event, a=action: model.act(a))
        model.param.watch(self.update, "session")
        self.update()

    def update(self, *events):
        for action, button in self.buttons.items():
            possible, upcoming = self.state(action)
            # The button's own styles as they are now: a ``wrap`` row may have added its flex item's.
            update_changed(button, disabled=not possible,
                           styles={**button.styles, NEXT: "1" if upcoming else "0"})


OPEN_CLASS = "sp-open"  # the hidden input of an Opener (app/page/page.js writes to it)
OPEN_RECENT = 16  # how many of its latest clicks page.js writes into the input each time


class Opener:
    """Buttons drawn in HTML (the token chips, the block history) that open something in the inspector.

    Such a button carries ``data-sp-open="KEY"``; ``app/page/page.js`` turns its click into
    ``K1|K2|KEY@n`` in a hidden text input: the keys of the latest clicks (at most ``OPEN_RECENT``),
    this one last, and n the number of clicks so far. One watcher hands each key it has not seen
    yet to ``open(key)``, in order. The value carries the clicks before it because the input is
    state, not events: the built page's loader (web/loader.js) and Panel's server (its debounce)
    both keep only the latest value of a property that changes while Python is busy, so two quick
    clicks would otherwise reach Python as the second alone. A single click is still one change.
    Drawn as HTML, restyling a strip is one text change; as Bokeh buttons, every button whose
    class or visibility changes makes BokehJS lay out the whole page again (about 60 ms a click).
    """

    def __init__(self, open):
        self.input = pn.widgets.TextInput(value="", visible=False, css_classes=[OPEN_CLASS], margin=0)
        self.input.param.watch(self._changed, "value")
        self._open = open
        self._seen = 0  # the n of the latest value handled
        self._recent = []  # what click() wrote last, as page.js keeps it

    def _changed(self, event):
        replayed = replayed_key(event.new)
        if replayed:  # the build's recorder or the worker's takeover, not a page click: page.js's count stays valid
            self._open(replayed)
            return
        keys, n = opened_keys(event.new)
        fresh = keys[max(0, len(keys) - (n - self._seen)):] if n > self._seen else []
        self._seen = max(self._seen, n)
        if len(fresh) == 1:
            self._open(fresh[0])
            return
        with one_update():  # several clicks at once are still one update to the page
            for key in fresh:
                self._open(key)

    def click(self, key):
        """What page.js does for a click on the button with ``data-sp-open="KEY"`` (tests use it)."""
        self._recent = [*self._recent, key][-OPEN_RECENT:]
        self.input.value = open_value(self._recent, self._seen + 1)


def open_value(keys, n):
    """The input's value for the latest ``keys`` (oldest first) when ``n`` clicks have been made."""
    return "|".join(keys) + f"@{n}"


# ``KEY@replayN``: a click replayed by Python itself (app/step/replay.py, for the build's recorded moments and
# the worker's takeover). It opens KEY and leaves the count of the page's clicks alone: after a takeover the
# page's first click is n = 1 again, and a replay counted as a click would have hidden it.
REPLAYED = "replay"


def replayed_key(value):
    """KEY of a replayed click's value (``KEY@replay…``), else None."""
    key, _, count = value.rpartition("@")
    return key if count.startswith(REPLAYED) and key and "|" not in key else None


def opened_keys(value):
    """``(keys, n)`` from an Opener's value; a value page.js did not write gives ``([], 0)``."""
    keys, _, count = value.rpartition("@")
    if not count.isdigit():
        return [], 0
    return keys.split("|"), int(count)


def open_attrs(key, description):
    """The attributes of an HTML button an ``Opener`` listens to."""
    return f'type="button" data-sp-open="{theme.esc(key)}" title="{theme.esc(description)}"'


def html(text="", *sheets, css=None, **params):
    """An HTML pane with the base stylesheet plus ``sheets`` (e.g. ``theme.CHIPS``), stretched to its column;
    ``text`` may be a reference (``pn.bind``).

    ``css`` is a tab's own list of sheets (the exact and payoff tabs' ``css()``): their panes
    mix chips, captions, tables and counters, so they get every shared sheet (``theme.CSS``) under it.
    """
    params.setdefault("sizing_mode", "stretch_width")
    params.setdefault("margin", 0)
    base = [theme.BASE] if css is None else [theme.CSS, *css]
    return Text(text, stylesheets=[*base, *sheets], **params)


class Wrap(pn.Row):
    """A Row whose children wrap (``wrap``): Panel gives it the min width of its widest child, as a Column,
    not the sum of them all, which would stop it narrowing on a phone."""

    _direction = None


def wrap(*objects, gap="", align_items="flex-start", justify_content="flex-start", styles=None, **params):
    """A row whose children wrap onto new lines on a narrow screen: a Bokeh ``Row`` with CSS ``flex-wrap``.

    Panel's ``FlexBox`` does the same as a ReactiveHTML: two models and a Jinja template compiled
    per instance, about 2.4 times a Row's Python; the first tab had seven (issue 27, Python up sooner).
    A Row sets each child's ``flex`` and ``align-self`` from its sizing (a stretching child gets
    ``1 0 0px`` and never wraps); a child without its own gets CSS's defaults here, as in a FlexBox:
    ``flex: 0 1 auto`` and ``align-self: align_items``.
    """
    objects = [pn.panel(obj) for obj in objects]  # a Viewer's own layout
    for obj in objects:
        own = obj.styles or {}
        if "flex" not in own or "align-self" not in own:
            obj.styles = {"flex": "0 1 auto", "align-self": align_items, **own}
    params.setdefault("sizing_mode", "stretch_width")
    css = {"flex-wrap": "wrap", "align-items": align_items, "justify-content": justify_content, **(styles or {})}
    if gap:
        css["gap"] = gap
    return Wrap(*objects, styles=css, **params)


class Lazy:
    """A part built once, when first needed: a placeholder until then, then ``make()`` in its place.

    ``open()`` builds it, in a task of its own after the click that asked for it has been
    handled (``now`` for a part the first render must hold, never its placeholder). With
    ``when_drawn`` nothing needs to ask: it is built when the page first draws it, so a
    part inside a tab that is built when first opened (``app/main.py``), or a
    ``pn.Tabs(dynamic=True)``, computes nothing before then.
    """

    def __init__(self, make, placeholder=None, when_drawn=False):
        self.make = make
        self.built = False
        if when_drawn:
            @param.depends()  # no parameters: evaluated once, when rendered
            def body():
                self.built = True
                return make()

            self.layout = pn.param.ParamFunction(body, lazy=True, sizing_mode="stretch_width", margin=0)
        else:
            self.layout = pn.Column(*([placeholder] if placeholder is not None else []),
                                    sizing_mode="stretch_width", margin=0)

    def open(self, now=False):
        if self.built:
            return
        self.built = True
        if now:
            self.layout.objects = [self.make()]
            return

        async def build():
            self.layout.objects = [self.make()]

        pn.state.execute(build)


def built_when_shown(build):
    """A pane whose content is ``build()``, called when the pane is first drawn (``Lazy(when_drawn=True)``)."""
    return Lazy(build, when_drawn=True).layout


def help_head(title, help_text):
    """A control's name with its help behind a "?" (a ``<details>``): the name is the summary, so a
    click on either opens the help, a keyboard reaches it with Tab, and a screen reader hears the
    name, "collapsed", and the help once opened. The sentence stays in the page, just out of the way."""
    return (f'<details class="field-more"><summary><span class="field-title">{theme.esc(title)}</span>'
            f'<span class="help-mark" aria-hidden="true">?</span></summary>'
            f'<div class="field-help">{theme.esc(help_text)}</div></details>')


def field(title, help_text, *widgets, basis="220px", fold_help=False):
    """A control with its name in bold and one line of help above it; shrinks and wraps in a ``wrap`` row.

    ``fold_help``: the help behind a "?" beside the name (``help_head``), for a tab whose
    first screen must show what to do rather than every explanation at once."""
    if help_text and fold_help:
        head = help_head(title, help_text)
    else:
        head = f'<div class="field-title">{theme.esc(title)}</div>'
        if help_text:
            head += f'<div class="field-help">{theme.esc(help_text)}</div>'
    label = html(head, margin=(0, 5))
    return pn.Column(label, *widgets, margin=0, styles={"flex": f"1 1 {basis}", "min-width": "0"})


def slider_title(key):
    """A slider's own title, or none in Chinese.

    BokehJS writes a slider's title as "title: value" with an ASCII colon;
    Chinese takes a full-width one, so there the field label above names the
    slider (page.js names its handle from it) and the slider shows its value alone.
    """
    return "" if language() == "zh" else t(key)


def y_label(fig, text):
    """Name the y axis. Rotated Latin reads well; rotated hanzi are read lying on their side, so
    in Chinese the name stands upright above the plot, at its left, where Chinese charts put it."""
    if language() != "zh":
        fig.yaxis.axis_label = text
        return fig
    from bokeh.models import Title  # loaded with Panel already; imported here as parts.py needs it only here
    fig.yaxis.axis_label = None
    fig.add_layout(Title(text=text, align="left", text_font_size="12px", text_font_style="normal",
                         text_color=theme.MUTED), "above")
    return fig


class ChartTitle:
    """A chart's title as text above its plot, in place of Bokeh's.

    Bokeh draws a title on its canvas, on one line, so a long one was cut off on
    a phone ("...(p comes with Ver"); text in a pane wraps, and a screen reader
    reads it. ``show`` changes it, and sends nothing when it is the same.
    """

    def __init__(self, text=""):
        self.text = text
        self.pane = html(self._html(text), theme.CHART_TITLE, margin=(4, 0, 2, 0))

    @staticmethod
    def _html(text):
        return f'<p class="chart-title">{theme.esc(text)}</p>'

    def show(self, text):
        if text != self.text:
            self.text = text
            self.pane.object = self._html(text)


def style_figure(fig):
    """Quiet axes, readable labels, no toolbar: the look of every Bokeh chart on the page.

    Works on a ``bokeh.plotting.figure`` and on a bare ``bokeh.models.Plot``
    with its axes and grids added.
    """
    fig.toolbar_location = None
    fig.background_fill_color = "#ffffff"
    fig.border_fill_color = "#ffffff"
    fig.outline_line_color = None
    if fig.title is not None:
        fig.title.text_font_size = "14px"
        fig.title.text_color = theme.INK
        fig.title.text_font_style = "bold"
    for axis in (fig.xaxis, fig.yaxis):
        axis.axis_label_text_font_size = "12px"
        axis.axis_label_text_font_style = "normal"
        axis.axis_label_text_color = theme.MUTED
        axis.major_label_text_color = theme.INK
        axis.major_label_text_font_size = "12px"
        axis.axis_line_color = "#9aa5b1"
        axis.major_tick_line_color = "#9aa5b1"
        axis.minor_tick_line_color = None
    fig.xgrid.grid_line_color = "#eef1f4"
    fig.ygrid.grid_line_color = "#eef1f4"
    fig.min_border_left = 8
    fig.min_border_right = 16
    return fig
