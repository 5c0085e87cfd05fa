"""The recorded moments against Python itself (issue 27), in a spawned interpreter that looks like the worker.

``check(query, clicks)`` records a scenario as the build does (``sitebuild/record.py``), then drives
two documents with the same clicks: the recorder's own Python document, by real clicks through the
page's patch path (the app computes), and a copy of the page's pre-rendered document
(``Document.from_json`` of the same render), by applying the recorded patches that ``pick`` chooses,
as ``web/live.js`` does. After every click both must hold the same value in every property of every
model (the page's address and the timeline's hidden input aside: the page keeps those itself).
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing

from .local_pyodide import ROOT


def pick(data: dict, state: dict, click) -> list:
    """The recorded patches (indices) ``web/live.js`` applies for ``click``; updates ``state`` as it does."""
    out = []
    moments = data["moments"]

    def chain(a, b):
        while a < b:
            out.append(moments[a]["step"][0])
            a += 1
        while a > b:
            out.append(moments[a]["back"][0])
            a -= 1

    if state["settle"] is not None:
        out.append(state["settle"])
        state["settle"] = None
    if isinstance(click, tuple):
        chain(state["moment"], click[1])
        state["moment"] = click[1]
        return out
    patch, to, settle, decorate = moments[state["moment"]][click]
    if patch is not None:
        out.append(patch)
    else:
        chain(state["moment"], to)
        out.append(decorate)
    state["moment"], state["settle"] = to, settle
    return out


def _plain(value):
    from bokeh.model import Model

    if isinstance(value, Model):
        return ("ref", value.id)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if hasattr(value, "tolist"):
        return value.tolist()
    return value


def _state(doc, skip) -> dict:
    return {m.id: {k: _plain(v) for k, v in m.properties_with_values(include_defaults=True).items()
                   if (m.id, k) not in skip}
            for m in doc.models}


def _check(root: str, location_json: str, clicks: list) -> dict:
    import sys
    sys.path.insert(0, root)
    from sitebuild.probe import pretend_pyodide
    pretend_pyodide(root)

    from bokeh.core.serialization import Serialized
    from bokeh.document import Document

    from app.step.replay import MOMENT, REPLAYED, controls, replay
    from sitebuild import record

    async def run():
        rendered = await record.render_and_record(location_json)
        data = rendered["moments"]
        from panel.io.state import state as panel_state
        real = panel_state.curdoc
        page = Document.from_json(json.loads(rendered["docs_json"])[next(iter(json.loads(rendered["docs_json"])))])
        skip = {(m.id, "value") for m in real.models if m.id in record._writer_ids(real)}
        skip.add((controls(real)[MOMENT].id, "value"))
        # The real document back where the page's starts: the pre-render's moment, its own screen.
        replay(real, [(MOMENT, data["begin"])], count=f"{REPLAYED}-check-start")
        for _ in range(3):
            await asyncio.sleep(0)
        view = {"moment": data["begin"], "settle": data["start"]}
        if view["settle"] is not None:  # the page's first click settles first; so does the real one above
            for patch in data["patches"][view["settle"]]:
                page.apply_json_patch(Serialized(content=patch, buffers=[]), setter="test")
            view["settle"] = None
        problems = []
        if _state(page, skip) != _state(real, skip):
            problems.append("before any click")
        for i, click in enumerate(clicks):
            if not isinstance(click, tuple) and controls(real)[click].disabled:
                continue
            replay(real, [click], count=f"{REPLAYED}-check{i}")
            for _ in range(3):
                await asyncio.sleep(0)
            for index in pick(data, view, click):
                for patch in data["patches"][index]:
                    page.apply_json_patch(Serialized(content=patch, buffers=[]), setter="test")
            a, b = _state(page, skip), _state(real, skip)
            if a != b:
                differ = sorted(f"{mid[:8]}.{k}" for mid in b for k in b[mid] if a.get(mid, {}).get(k) != b[mid][k])
                problems.append(f"after click {i} {click!r}: {', '.join(differ[:8])}")
                if len(problems) == 1:
                    mid, k = next((mid, k) for mid in b for k in b[mid] if a.get(mid, {}).get(k) != b[mid][k])
                    problems.append(f"page: {str(a.get(mid, {}).get(k))[:3000]!r}")
                    problems.append(f"python: {str(b[mid][k])[:3000]!r}")
        text = record.moments_text("", data)
        return {"problems": problems, "bytes": len(text.encode()), "gzip": record.gzip_size(text),
                "last": data["last"], "new_models": len(set(m.id for m in page.models) - set(m.id for m in real.models))}

    return asyncio.run(run())


def check(query: str, clicks: list) -> dict:
    """Record ``query``'s scenario and compare the page's recorded screen with Python's after each of ``clicks``."""
    location = {"href": query, "origin": "", "protocol": "", "host": "", "hostname": "", "port": "",
                "pathname": "", "search": query, "hash": ""}
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.apply(_check, (str(ROOT), json.dumps(location), clicks))


def replay_of(data: dict, state: dict, clicks: list) -> list:
    """What ``web/live.js`` asks the worker to replay after ``clicks``: the moment, then the last button."""
    out = []
    for click in clicks:
        before = state["moment"]
        pick(data, state, click)
        out = [["moment", state["moment"]]] if state["settle"] is None else [["moment", before], click]
    return out


def _shown(doc) -> list:
    """Every text, label, flag and value of the page, in the document's own order (no ids)."""
    from bokeh.model import Model

    seen, out = set(), []

    def walk(model):
        if model.id in seen:
            return
        seen.add(model.id)
        for name, value in sorted(model.properties_with_values(include_defaults=True).items()):
            items = value if isinstance(value, (list, tuple)) else [value]
            for item in items:
                if isinstance(item, Model):
                    walk(item)
            if isinstance(value, (str, bool, int, float)) and name not in ("name",):
                out.append((type(model).__name__, name, value))

    for root in doc.roots:
        walk(root)
    return out


def _check_takeover(root: str, query: str, clicks: list) -> dict:
    import sys
    sys.path.insert(0, root)
    from sitebuild.probe import pretend_pyodide
    pretend_pyodide(root)

    from bokeh.core.serialization import Serialized
    from bokeh.document import Document

    from app import worker_protocol
    from sitebuild import record

    def location(search):
        return json.dumps({"href": search, "origin": "", "protocol": "", "host": "", "hostname": "", "port": "",
                           "pathname": "", "search": search, "hash": ""})

    def document(docs_json):
        docs = json.loads(docs_json)
        return Document.from_json(docs[next(iter(docs))])

    async def run():
        rendered = await record.render_and_record(location(query))
        data = rendered["moments"]
        page = document(rendered["docs_json"])
        view = {"moment": data["begin"], "settle": data["start"]}
        for click in clicks:
            for index in pick(data, view, click):
                for patch in data["patches"][index]:
                    page.apply_json_patch(Serialized(content=patch, buffers=[]), setter="test")
        moment = view["moment"]
        view = {"moment": data["begin"], "settle": data["start"]}
        replay = replay_of(data, view, clicks)
        search = (query or "?") + ("&" if query else "") + f"steps={moment}"
        docs_json, _, _, _ = await worker_protocol.start(location(search), replay_json=json.dumps(replay))
        worker = document(docs_json)
        a = [x for x in _shown(page)]
        b = [x for x in _shown(worker)]
        # The address's writer, the timeline's hidden input and the address itself: the page keeps those.
        a = [x for x in a if not (x[0] == "TextInput" and x[1] == "value") and x[0] != "Location"]
        b = [x for x in b if not (x[0] == "TextInput" and x[1] == "value") and x[0] != "Location"]
        differ = [(x, y) for x, y in zip(a, b) if x != y]
        return {"replay": replay, "moment": moment, "same": a == b, "lengths": (len(a), len(b)),
                "differ": [str(d)[:4000] for d in differ[:3]]}

    return asyncio.run(run())


def check_takeover(query: str, clicks: list) -> dict:
    """The page after ``clicks`` from the recording, and the worker's first render with the URL's steps=N
    and ``web/live.js``'s replay: every text, label and flag in the same order."""
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.apply(_check_takeover, (str(ROOT), query, clicks))
