"""The step tab's clicks as the page sends them: for the build's recorded moments and the worker's takeover.

Before Python is up, the built page answers the step tab's buttons and timeline with
changes the build recorded (``sitebuild/record.py``): it ran the app as the worker
does and clicked each button at each moment, through the same patch path a reader's
click takes (``worker_protocol.apply_page_patch``). When Python is ready, the
worker replays the reader's last click (at most two: the moment, then a button) the
same way before its first render, so it opens on exactly what the preview shows
(issue 27). A click is named, never a model id: ids differ between documents.

Names: an action of ``app/step/words.ACTION_NAMES`` or ``"back"`` (a button with the
class ``page.action_class(name)``), and ``("moment", n)`` (the timeline's button for
moment ``n``, through the tab's ``parts.Opener``).
"""

from __future__ import annotations

from ..page.script import action_class
from .. import parts
from ..parts import OPEN_CLASS
from .words import ACTION_NAMES

BUTTONS = (*ACTION_NAMES, "back")
MOMENT = "moment"
PLAY_CLASS = "sp-play"  # app/step/timeline_view.py's Play: a timer in the page, no Python
SPEED_CLASS = "sp-play-speed"  # and its speed, which play.js reads in the page
# After KEY@ page.js writes a click count; a replay writes parts.REPLAYED (and a number, so that each
# replay is a change): the Opener opens it without counting it as one of the page's clicks.
REPLAYED = parts.REPLAYED


def controls(doc) -> dict:
    """The model of each control the preview answers: every action button, the Opener's input, Play and its speed."""
    found = {}
    wanted = {action_class(name): name for name in BUTTONS}
    wanted.update({OPEN_CLASS: MOMENT, PLAY_CLASS: "play", SPEED_CLASS: "speed"})
    for model in doc.models:
        for css in getattr(model, "css_classes", None) or ():
            name = wanted.get(css)
            if name is not None:
                if name in found and found[name] is not model:
                    raise RuntimeError(f"two controls have the class {css}")
                found[name] = model
    missing = sorted(set(wanted.values()) - set(found))
    if missing:
        raise RuntimeError(f"the step tab has no control for {', '.join(missing)}")
    return found


def click_patch(model) -> dict:
    """The patch a page sends when the reader presses ``model`` (a Bokeh Button): its ButtonClick event."""
    return {"events": [{"kind": "MessageSent", "msg_type": "bokeh_event",
                        "msg_data": {"type": "event", "name": "button_click",
                                     "values": {"type": "map", "entries": [["model", {"id": model.id}]]}}}]}


def open_patch(model, key, count) -> dict:
    """The patch page.js's click on an HTML button with ``data-sp-open="KEY"`` sends (app/parts.Opener)."""
    return {"events": [{"kind": "ModelChanged", "model": {"id": model.id}, "attr": "value",
                        "new": f"{key}@{count}"}]}


def page_patch(doc, click, count=REPLAYED) -> dict:
    """The page's patch for one named click (``"step"``, ``"back"``, ``("moment", 3)``...)."""
    found = controls(doc)
    if isinstance(click, (list, tuple)) and len(click) == 2 and click[0] == MOMENT:
        n = click[1]
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"not a moment: {n!r}")
        return open_patch(found[MOMENT], f"moment:{n}", count)
    if click in BUTTONS:
        return click_patch(found[click])
    raise ValueError(f"not a click of the step tab: {click!r}")


def checked(clicks) -> list:
    """The worker's replay from the page (JSON): at most a moment then one button, each a known click."""
    if not isinstance(clicks, list) or len(clicks) > 2:
        raise ValueError("a replay is a moment and at most one button")
    out = []
    for click in clicks:
        if isinstance(click, list) and len(click) == 2 and click[0] == MOMENT and isinstance(click[1], int) \
                and not isinstance(click[1], bool) and 0 <= click[1] <= 10_000:
            out.append((MOMENT, click[1]))
        elif isinstance(click, str) and click in BUTTONS:
            out.append(click)
        else:
            raise ValueError(f"not a click of the step tab: {str(click)[:40]!r}")
    return out


def replay(doc, clicks, count=REPLAYED) -> None:
    """Make ``clicks`` (``checked``'s form, or the page's JSON) on ``doc`` as the page would, one at a time.

    ``count`` follows a timeline click's key as page.js's click count does: the same key with the same
    count is no change, so a caller that replays often (the build's recorder) numbers its clicks."""
    from bokeh.core.serialization import Serialized

    from .. import worker_protocol

    for click in checked([list(c) if isinstance(c, tuple) else c for c in clicks]):
        worker_protocol.apply_page_patch(Serialized(content=page_patch(doc, click, count), buffers=[]))
