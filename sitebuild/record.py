"""Recorded moments: what the step tab shows after each click, recorded by the build (issue 27 item 1).

Until Python is ready the page cannot compute, but the step tab's trace is fixed
by its scenario (``core.timeline``), so the build can click for the reader. For a
pre-rendered scenario it runs the app as the page's worker does (this module runs
in ``prerender.py``'s spawned interpreter, on the very document that becomes the
pre-render), and at each moment of the trace presses every enabled button of the
step tab (Draft, Verify, Commit, Next step, Run block, Run to end, Reset, Step
back) through the page's own patch path (``app/step/replay.py``), keeping the
patch the worker sends back. Between two recordings it returns to the moment with
a click on the timeline, whose patch is kept too when a button's sentence differs
from the moment's own ("settle"): so the page can answer any button, the timeline
and Play by applying recorded patches only (``web/live.js`` picks them; it
computes nothing). The address's writer is left out of the patches: the page keeps
``steps=N`` in its own URL, with whatever else that URL holds.

The file (``moments/<name>.json``) sits beside the page, is fetched after the
first paint, and is covered by the service worker's one-build guarantee like every
file of the build.
"""

from __future__ import annotations

import asyncio
import gc
import gzip
import json

FOLDER = "moments"
MAX_GZIP = 60_000  # bytes a scenario's recording may add to a visit (issue 27)
# Changes that set a whole value (not a stream or a patch of a column): one of them replaces another.
WHOLE = ("ModelChanged", "ColumnDataChanged")
# An entry of "moments": button -> [patch, moment it lands on, settle, decorate] (indices into "patches",
# or null). patch: the button's own patches; or, when null, the page chains the timeline's patches to
# the moment, then applies decorate. settle: what the timeline's click on that moment sends next
# (the page applies it before the next click, so every click starts from a moment's own screen).
# Buttons whose result is the moment's own screen: no settle patch is needed after them.
SAME_AS_MOMENT = ("draft", "verify", "commit", "step", "back")


def _compact(value) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _writer_ids(doc) -> set:
    """The models that write the page's address (``app/main.py``'s REPLACE_URL_JS)."""
    ids = set()
    for model in doc.models:
        for callbacks in (getattr(model, "js_property_callbacks", None) or {}).values():
            if any("history.replaceState" in getattr(cb, "code", "") for cb in callbacks):
                ids.add(model.id)
    return ids


class Recorder:
    """The worker's side of one document, with the page's messages kept instead of posted."""

    def __init__(self, doc, model):
        from app import worker_protocol

        self.doc = doc
        self.model = model
        self.sent = []
        self.clicks = 0
        self.writers = _writer_ids(doc)
        api = worker_protocol._panel_worker_api()
        self._api = api

        def keep(patch, buffers):
            self.sent.append(patch)

        worker_protocol._link = worker_protocol._Link(doc, keep)
        doc.on_change(worker_protocol._link.on_change)
        api.ready(doc)

    def encode(self, doc, events):
        """What ``_PanelWorkerApi.encode`` posts, as plain JSON (the page parses the same text)."""
        patch, buffers = self._api.module._process_document_events(doc, events)
        if buffers:
            raise RuntimeError("a step-tab click sent binary buffers, which a recording cannot hold")
        patch = json.loads(json.dumps(patch))
        patch["events"] = [e for e in patch.get("events", []) if e.get("model", {}).get("id") not in self.writers]
        return patch, None

    async def click(self, click) -> list:
        """The patches the worker sends for one page click (usually one)."""
        from app.step.replay import replay

        await self.settled()
        self.sent.clear()
        self.clicks += 1
        replay(self.doc, [click], count=f"recorded{self.clicks}")
        await self.settled()
        return [p for p in self.sent if p.get("events")]

    async def settled(self):
        for _ in range(3):  # work a click scheduled (call_soon) runs, and sends, before the next one
            await asyncio.sleep(0)

    def canonical(self) -> bool:
        """The screen is its moment's own: the sentence a Next step to it said, no notice."""
        m = self.model
        n = m.steps_done()
        return m.happened == m.moment_words(n) and not m.notice


async def record(doc, model) -> dict:
    """Every enabled button of the step tab at every moment of ``model``'s trace, as recorded patches."""
    from app import worker_protocol
    from app.step.replay import BUTTONS, MOMENT, controls

    api = worker_protocol._panel_worker_api()
    recorder = Recorder(doc, model)
    original = api.encode
    api.encode = recorder.encode
    try:
        patches, index = [], {}

        def keep(sent):
            text = _compact(sent)
            if text not in index:
                index[text] = len(patches)
                patches.append(sent)
            return index[text]

        await recorder.settled()
        recorder.sent.clear()
        start = None if recorder.canonical() and model.steps_done() == 0 else keep(await recorder.click((MOMENT, 0)))
        last = model.timeline().last
        buttons = controls(doc)
        moments = []
        for n in range(last + 1):
            entry = {}
            for name in BUTTONS:
                if model.steps_done() != n or not recorder.canonical():
                    await recorder.click((MOMENT, n))
                if model.steps_done() != n or not recorder.canonical():
                    raise RuntimeError(f"the timeline's moment {n} did not show moment {n}")
                if buttons[name].disabled:
                    continue
                sent = await recorder.click(name)
                to = model.steps_done()
                if recorder.canonical():
                    entry[name] = [keep(sent), to, None, None]
                    continue
                if name in SAME_AS_MOMENT:
                    raise RuntimeError(f"{name} at moment {n} did not show moment {to} as the timeline does")
                settle = await recorder.click((MOMENT, to))
                decorate = decoration(sent, settle)
                if decorate is None:  # the page applies the button's own patch
                    entry[name] = [keep(sent), to, keep(settle), None]
                else:  # the page goes to the moment as the timeline does, then shows what the button said
                    entry[name] = [None, to, keep(settle), keep(decorate)]
            moments.append(entry)
        return {"last": last, "start": start, "patches": patches, "moments": moments}
    finally:
        api.encode = original


def _key(event):
    return (event.get("kind"), event.get("model", {}).get("id"), event.get("attr"))


def decoration(sent: list, settle: list) -> list | None:
    """What a button showed beyond its moment's own screen (Run block's sentence where the timeline
    shows the Commit's), from the button's own patch: its last change of each property the settle
    patch takes back. None when one is missing (the property kept its value from the moment before)."""
    last = {}
    for patch in sent:
        for event in patch["events"]:
            last[_key(event)] = event
    wanted = [_key(e) for patch in settle for e in patch["events"]]
    if not wanted or any(key[0] not in WHOLE or key not in last for key in wanted):
        return None
    return [{"events": [last[key] for key in dict.fromkeys(wanted)]}]


def step_models(before=()) -> list:
    """The StepModels alive now and not among ``before`` (ids): the one a fresh start made."""
    from app.step.model import StepModel

    gc.collect()
    return [o for o in gc.get_objects() if isinstance(o, StepModel) and id(o) not in before]


async def render_and_record(location_json: str) -> dict:
    """``worker_protocol.start`` for this location, then its step tab recorded on the same document."""
    from panel.io.state import state

    from app import worker_protocol

    before = {id(o) for o in step_models()}
    docs_json, render_items, root_ids = await worker_protocol.start(location_json)
    models = step_models(before)
    if len(models) != 1:
        raise RuntimeError(f"expected one step tab's model after the start, found {len(models)}")
    doc = state.curdoc
    moments = await record(doc, models[0])
    return {"docs_json": docs_json, "render_items": render_items, "root_ids": root_ids, "moments": moments}


def moments_text(query: str, moments: dict) -> str:
    """The file the page fetches: the scenario's query and its recording, compact."""
    return _compact({"query": query, **moments})


def gzip_size(text: str) -> int:
    return len(gzip.compress(text.encode("utf-8"), 9))
