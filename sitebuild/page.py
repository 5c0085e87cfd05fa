"""The page: ``panel convert``'s pyodide-worker page for the app, made to load from this site.

``panel convert`` pre-renders the app's first state (so the widget shows before
Python has loaded). This module copies the BokehJS and Panel files that page
references into the output (so it depends on no CDN but Pyodide's), puts our
loader in place of Panel's worker handler, adds the status line, and leaves out
BokehJS extensions no view uses.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from .project import ROOT, WEB, BuildError, panel_version

# Folders of Panel's dist/ the page may need at run time besides what the
# pre-rendered page references: widget CSS, the spinners it points at, themes.
PANEL_DIST_DIRS = ("css", "assets", "bundled/theme")
# BokehJS extensions panel convert always adds, and when a page needs each: the
# WebGL backend only for a figure with output_backend="webgl". (bokeh-tables stays:
# panel.min.js imports it at load; bokeh-widgets too.)
OPTIONAL_BOKEH = {"gl": re.compile(r'"output_backend":"webgl"')}
# What app/worker_protocol.py mirrors of Panel's own worker: if a Panel upgrade
# changes these calls, the protocol must be checked again.
PANEL_WORKER_CALLS = ("init_doc()", "write_doc()", "_link_docs_worker(", "_convert_json_patch(")


def run_convert(entry: Path, dest: Path) -> tuple[str, str]:
    """``panel convert`` (its Python API) to a pyodide-worker page; returns (html, worker js)."""
    from panel.io.convert import convert_apps

    dest.mkdir(parents=True)
    convert_apps([str(entry)], dest_path=str(dest), runtime="pyodide-worker", requirements=[],
                 prerender=True, build_index=False, build_pwa=False, max_workers=1,
                 http_patch=False, inline=False, compiled=False, verbose=False)
    stem = entry.stem
    html, worker = dest / f"{stem}.html", dest / f"{stem}.js"
    if not html.is_file() or not worker.is_file():
        raise BuildError(f"panel convert could not convert {entry.relative_to(ROOT)} (its message is above)")
    return html.read_text(encoding="utf-8"), worker.read_text(encoding="utf-8")


def check_panel_worker(panel_worker_js: str):
    """Fail clearly when Panel's converted worker no longer makes the calls app/worker_protocol.py mirrors."""
    absent = [call for call in PANEL_WORKER_CALLS if call not in panel_worker_js]
    if absent:
        raise BuildError(f"panel {panel_version()}'s converted worker no longer calls {', '.join(absent)}: "
                         "check app/worker_protocol.py against panel/_templates/pyodide_worker.js")


def drop_unused_bokeh(html: str) -> tuple[str, list[str]]:
    """Remove the <script> of each optional BokehJS extension no model of the page uses."""
    dropped = []
    for name, used in OPTIONAL_BOKEH.items():
        tag = re.compile(rf'\s*<script type="text/javascript" src="[^"]*/bokeh-{name}-[0-9.]+(?:\.min)?\.js"></script>')
        if len(tag.findall(html)) == 1 and not used.search(html):
            html = tag.sub("", html, count=1)
            dropped.append(f"bokeh-{name}")
    return html, dropped


class Assets:
    """Maps the CDN URLs in the converted page to files copied into the output."""

    def __init__(self, out: Path):
        import bokeh
        from bokeh.resources import Resources
        from bokeh.util.paths import bokehjs_path
        from panel.io.resources import CDN_DIST, DIST_DIR

        self.out = out
        self.panel_cdn = CDN_DIST
        self.panel_dist = Path(DIST_DIR)
        main_js = f"/bokeh-{bokeh.__version__}.min.js"
        cdn_files = [url for url in Resources(mode="cdn").js_files if url.endswith(main_js)]
        if len(cdn_files) != 1:
            raise BuildError(f"cannot find BokehJS's CDN URL among {Resources(mode='cdn').js_files}")
        self.bokeh_cdn = cdn_files[0][: -len(main_js)] + "/"
        self.bokeh_js = Path(bokehjs_path()) / "js"
        self.bokeh_version = bokeh.__version__
        # Local folder for Panel's files mirrors the CDN below its root, as
        # PANEL_CDN_ROOT=<site>/panel/ makes Panel write them in the worker.
        root = CDN_DIST.split(f"{panel_version()}/dist/")[0]
        self.panel_local = "panel/" + CDN_DIST[len(root):]
        self.copied = {}

    def local(self, url: str) -> str | None:
        """Relative path for a CDN URL we can serve ourselves (copying the file), else None."""
        clean = url.split("?")[0].split("#")[0]
        if clean.startswith(self.panel_cdn):
            rel = clean[len(self.panel_cdn):]
            self.copy(self.panel_dist / rel, self.panel_local + rel)
            return self.panel_local + rel + url[len(clean):]
        if clean.startswith(self.bokeh_cdn):
            name = clean[len(self.bokeh_cdn):]
            source = self.bokeh_js / name.replace(f"-{self.bokeh_version}", "")
            self.copy(source, "bokeh/" + name)
            return "bokeh/" + name + url[len(clean):]
        return None

    def copy(self, source: Path, rel: str):
        from urllib.parse import unquote
        source = Path(unquote(str(source)))
        if not source.is_file():
            raise BuildError(f"the page references {rel}, but {source} is not installed")
        target = self.out / unquote(rel)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        self.copied[unquote(rel)] = source

    def copy_panel_dirs(self):
        for folder in PANEL_DIST_DIRS:
            for source in sorted((self.panel_dist / folder).rglob("*")):
                if source.is_file():
                    self.copy(source, self.panel_local + source.relative_to(self.panel_dist).as_posix())


URL_RE = re.compile(r"https?://[^\s\"'<>()\\]+")


def rewrite_page(html: str, assets: Assets, title: str) -> str:
    """Panel's converted page with local JS/CSS, our loader in place of Panel's worker handler."""
    handler = re.compile(r'<script[^>]*>(?:(?!</script>).)*?new Worker\("\./[^"]+\.js"\)'
                         r"(?:(?!</script>).)*?</script>", re.S)
    found = handler.findall(html)
    if len(found) != 1:
        raise BuildError(f"expected one worker handler script in panel convert's page, found {len(found)}")
    html = handler.sub(lambda m: '<script type="text/javascript" src="loader.js"></script>', html)

    body = re.compile(r'<body class="pn-loading[^"]*">')
    if len(body.findall(html)) != 1:
        raise BuildError("expected panel convert's <body class=\"pn-loading ...\"> once")
    status = (WEB / "status.html").read_text(encoding="utf-8").strip()
    html = body.sub(lambda m: "<body>\n" + status, html)

    def replace(match):
        # Panel's and Bokeh's CDN files become local copies; other URLs (links in the
        # app's own text) stay, and check_site makes sure no script or style is among them.
        url = match.group(0)
        local = assets.local(url)
        return url if local is None else local

    html = URL_RE.sub(replace, html)
    head = (
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'    <meta name="description" content="{title}: an interactive widget that runs Python in your browser.">\n'
        '    <meta name="theme-color" content="#0072B5">\n'
        '    <link rel="manifest" href="site.webmanifest">\n'
        '    <link rel="icon" href="images/favicon.ico">\n'
        '    <link rel="apple-touch-icon" href="images/apple-touch-icon.png">\n'
        '    <link rel="stylesheet" href="loader.css">\n'
    )
    if html.count("<meta charset=\"utf-8\">") != 1:
        raise BuildError("expected one <meta charset=\"utf-8\"> in panel convert's page")
    return html.replace('<meta charset="utf-8">', '<meta charset="utf-8">\n    ' + head, 1)


def page_resources(html: str) -> list[str]:
    """What a page loads: script src, link href, and the stylesheets of a pre-rendered Bokeh document."""
    urls = re.findall(r'<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]+)"', html)
    for document in re.findall(r'<script type="application/json" id="[^"]+">(.*?)</script>', html, re.S):
        urls += re.findall(r'"name":"ImportedStyleSheet","id":"[^"]+","attributes":\{"url":"([^"]+)"', document)
    return urls


def page_references(page: Path) -> list[str]:
    """The files of this site a page loads, without query or fragment."""
    return sorted({url.split("?")[0].split("#")[0] for url in page_resources(page.read_text(encoding="utf-8"))
                   if not re.match(r"^[a-z]+:|^//", url)})


SHARED_CSS_ID = "specstep-css-{}"


def share_stylesheets(docs: dict) -> dict:
    """The document with each stylesheet text that several models carry stored once, and referenced.

    Panel gives each model its stylesheets as text (its loading spinner's CSS, a view's
    own), so the same text is serialised for every model that has it: in our page about
    half of the pre-rendered document. BokehJS reads a model's stylesheet as text or as an
    ``InlineStyleSheet`` model, and one model may be referenced from many (as Panel does
    with its ``ImportedStyleSheet``s): the first use here defines it, later ones refer to
    it by id. BokehJS decodes a document in its JSON order, so that is the order used.
    """
    counts: dict[str, int] = {}

    def count(node):
        if isinstance(node, dict):
            sheets = node.get("attributes", {}).get("stylesheets") if node.get("type") == "object" else None
            for sheet in sheets if isinstance(sheets, list) else ():
                if isinstance(sheet, str):
                    counts[sheet] = counts.get(sheet, 0) + 1
            for value in node.values():
                count(value)
        elif isinstance(node, list):
            for value in node:
                count(value)

    defined: dict[str, str] = {}

    def share(node):
        # In the JSON's own order, attribute by attribute: the first use of a text defines it.
        if isinstance(node, dict):
            model = node.get("type") == "object"
            for key, value in node.items():
                if model and key == "attributes" and isinstance(value, dict):
                    for name, attribute in value.items():
                        if name == "stylesheets" and isinstance(attribute, list):
                            value[name] = [shared(sheet) for sheet in attribute]
                        else:
                            share(attribute)
                else:
                    share(value)
        elif isinstance(node, list):
            for value in node:
                share(value)

    def shared(sheet):
        if not isinstance(sheet, str) or counts.get(sheet, 0) < 2:
            share(sheet)
            return sheet
        if sheet in defined:
            return {"id": defined[sheet]}
        defined[sheet] = SHARED_CSS_ID.format(len(defined) + 1)
        return {"type": "object", "name": "InlineStyleSheet", "id": defined[sheet], "attributes": {"css": sheet}}

    count(docs)
    share(docs)
    return docs


def share_page_stylesheets(html: str) -> str:
    """``share_stylesheets`` on the pre-rendered document inside the page."""
    import html as html_lib
    import json

    script = re.compile(r'(<script type="application/json" id="[^"]+">)(.*?)(</script>)', re.S)
    found = script.findall(html)
    if len(found) != 1:
        raise BuildError(f"expected one pre-rendered document in panel convert's page, found {len(found)}")
    docs = share_stylesheets(json.loads(html_lib.unescape(found[0][1])))
    text = html_lib.escape(json.dumps(docs, separators=(",", ":")), quote=False)
    return script.sub(lambda m: m.group(1) + text + m.group(3), html, count=1)
