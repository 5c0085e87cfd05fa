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
import re

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
        from app.step.replay import REPLAYED, replay

        await self.settled()
        self.sent.clear()
        self.clicks += 1
        replay(self.doc, [click], count=f"{REPLAYED}{self.clicks}")
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
        begin = model.steps_done()  # the moment the pre-render shows (a link's steps=N)
        start = None if recorder.canonical() else keep(await recorder.click((MOMENT, begin)))
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
        return {"last": last, "begin": begin, "start": start, "controls": {name: m.id for name, m in buttons.items()},
                "patches": patches, "moments": moments}
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

    gc.unfreeze()  # worker_protocol.start froze the page's objects, and get_objects lists no frozen one
    gc.collect()
    return [o for o in gc.get_objects() if isinstance(o, StepModel) and id(o) not in before]


async def render_and_record(location_json: str) -> dict:
    """``worker_protocol.start`` for this location, then its step tab recorded on the same document."""
    from panel.io.state import state

    from app import worker_protocol

    before = {id(o) for o in step_models()}
    docs_json, render_items, root_ids, _ = await worker_protocol.start(location_json)
    models = step_models(before)
    if len(models) != 1:
        raise RuntimeError(f"expected one step tab's model after the start, found {len(models)}")
    doc = state.curdoc
    moments = await record(doc, models[0])
    # The worker whose render has this fingerprint keeps the drawn pre-render (worker_protocol.start's
    # expect); only a process's first render is numbered as the worker's is, so only that one gets one.
    same_ids = json.loads(root_ids)[0].startswith("p")
    return {"docs_json": docs_json, "render_items": render_items, "root_ids": root_ids, "moments": moments,
            "fingerprint": worker_protocol.fingerprint(docs_json) if same_ids else None}


def moments_text(query: str, moments: dict) -> str:
    """The file the page fetches: the scenario's query and its recording, compact."""
    return _compact({"query": query, **moments})


def gzip_size(text: str) -> int:
    return len(gzip.compress(text.encode("utf-8"), 9))


# ---- in the site ------------------------------------------------------------------

DOC_SCRIPT = re.compile(r'(<script type="application/json" id="[^"]+">)(.*?)(</script>)', re.S)
RENDER_ITEMS = re.compile(r'const render_items = (\[.*?\]);\n')


def page_document(page: str, rendered: dict, local) -> tuple[str, dict]:
    """index.html with the recorder's document in place of panel convert's, under the worker's ids.

    The recorded patches name the recorder's models, so the page must draw that document; it is
    the worker's first render of the same address (none), the same screen, with the same model ids
    (``worker_protocol.ID_BASE``), so the worker can take the drawn page as its own (issue 27). The
    page's root elements and render items name the recorder's roots instead of panel convert's; the
    document keeps the page's document id (``rename``, applied to the recording too). ``local`` maps
    a CDN URL to the site's copy, as for the page."""
    import html as html_lib

    from .page import URL_RE, share_stylesheets
    from .project import BuildError

    found = DOC_SCRIPT.findall(page)
    items = RENDER_ITEMS.findall(page)
    if len(found) != 1 or len(items) != 1:
        raise BuildError("expected one pre-rendered document and one render_items in panel convert's page")
    item = json.loads(items[0])[0]
    ours = json.loads(rendered["render_items"])[0]
    root_ids = json.loads(rendered["root_ids"])
    if len(root_ids) != len(item["root_ids"]):
        raise BuildError(f"the worker's render has {len(root_ids)} roots where index.html has {len(item['root_ids'])}")
    rename = {ours["docid"]: item["docid"]}
    # Every other model's id: a UUID when the render was not numbered (then it gets a short one, as
    # panel convert's own ids are: the worker's UUIDs made index.html 24 KB larger).
    for found in UUID.findall(rendered["docs_json"]):
        rename.setdefault(found, f"s{len(rename)}")
    text = renamed(rendered["docs_json"], rename)
    docs = share_stylesheets(json.loads(text))
    text = URL_RE.sub(lambda m: local(m.group(0)) or m.group(0), json.dumps(docs, separators=(",", ":")))
    escaped = html_lib.escape(text, quote=False)
    page = DOC_SCRIPT.sub(lambda m: m.group(1) + escaped + m.group(3), page, count=1)
    # panel convert's roots, in the order its elements were given them, become the recorder's.
    roots = dict(zip(item["root_ids"], root_ids))
    if len(set(roots.values())) != len(roots) or any(f'data-root-id="{r}"' in page for r in root_ids):
        raise BuildError("the worker's root ids clash with panel convert's page")
    for theirs, mine in roots.items():
        if page.count(f'data-root-id="{theirs}"') != 1:
            raise BuildError(f"index.html has no single element for the root {theirs}")
        page = page.replace(f'data-root-id="{theirs}"', f'data-root-id="{mine}"')
    item_text = json.dumps([{**item, "roots": {roots[r]: e for r, e in item["roots"].items()},
                             "root_ids": [roots[r] for r in item["root_ids"]]}])
    page = RENDER_ITEMS.sub(lambda m: f"const render_items = {item_text};\n", page, count=1)
    return page, rename


UUID = re.compile(r'(?<=")[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?=")')


def renamed(text: str, rename: dict) -> str:
    """``text`` (JSON) with each quoted id of ``rename`` replaced by its new name."""
    return UUID.sub(lambda m: rename.get(m.group(0), m.group(0)), text) if rename else text


def moments_file(query: str, moments: dict, rename: dict | None = None) -> str:
    """The recording's text, with the ids the page's document has (``page_document``'s ``rename``)."""
    return renamed(moments_text(query, moments), rename or {})


def file_name(scenario_file: str | None) -> str:
    """moments/default.json for index.html's scenario, moments/<the pre-render's name> for another."""
    return f"{FOLDER}/{scenario_file.split('/')[-1] if scenario_file else 'default.json'}"


def write_all(stage, scenarios, rendered: dict, rename: dict) -> dict:
    """moments/*.json for each scenario (index.html's own is the query ""); query -> what was written.

    A recording over the budget (a long trace) is left out: that link's preview stays inert until
    Python is up, as every page was before."""
    written = {}
    for scenario in scenarios:
        text = moments_file(scenario.query, rendered[scenario.query]["moments"],
                            rename if scenario.query == "" else None)
        size = gzip_size(text)
        if size > MAX_GZIP:
            written[scenario.query] = {"file": None, "gzip_bytes": size,
                                       "note": f"left out: {size} bytes gzip, over the {MAX_GZIP} of a scenario"}
            continue
        name = file_name(scenario.file or None)
        target = stage / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        written[scenario.query] = {"file": name, "bytes": len(text.encode("utf-8")), "gzip_bytes": size}
    return written
