"""A static host on 127.0.0.1 whose cache headers the test chooses, and whose site can be
replaced by another build under the same address (a redeploy), for the service-worker tests.

``SiteHost(folder, cache_control="max-age=600")`` serves ``folder`` (a symlink it
owns, so ``publish(other)`` swaps the whole site at once, as a deploy does) with
that Cache-Control header on every answer, like GitHub Pages (``max-age=600``) or a
server that always revalidates (``no-cache``). It answers conditional requests
(If-Modified-Since, 304), records every request with its status and body bytes,
and can be stopped and started again on the same port (an offline spell).
``pages={"/notes.html": html}`` adds pages that are not the build's, served beside it
under every build (a course's notes page that embeds the widget).
"""

from __future__ import annotations

import functools
import http.server
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit


@dataclass(frozen=True)
class Hit:
    path: str
    status: int
    bytes: int


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
                      ".webmanifest": "application/manifest+json", ".whl": "application/zip",
                      ".json": "application/json"}

    def log_message(self, format, *args):
        pass

    def end_headers(self):
        if self.server.cache_control:
            self.send_header("Cache-Control", self.server.cache_control)
        if self.server.cors:
            self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()

    def send_response(self, code, message=None):
        self._status = code
        super().send_response(code, message)

    def copyfile(self, source, outputfile):
        start = source.tell()
        super().copyfile(source, outputfile)
        self._bytes = source.tell() - start

    def do_GET(self):
        self._status, self._bytes = 0, 0
        try:
            page = self.server.pages.get(urlsplit(self.path).path)
            if page is None:
                super().do_GET()
                return
            body = page.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            self._bytes = len(body)
        finally:
            self.server.hits.append(Hit(unquote(urlsplit(self.path).path), self._status, self._bytes))


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        import sys
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


class SiteHost:
    def __init__(self, folder: Path, cache_control: str | None = None, cors: bool = False,
                 link: Path | None = None, pages: dict[str, str] | None = None):
        self.link = link or folder.parent / f".{folder.name}.published"
        self.pages = dict(pages or {})
        self.cache_control = cache_control
        self.cors = cors
        self.hits: list[Hit] = []
        self.port = 0
        self.publish(folder)
        self.start()

    def publish(self, folder: Path):
        """Replace the served site by ``folder`` at once."""
        tmp = self.link.with_name(self.link.name + ".new")
        if tmp.is_symlink():
            tmp.unlink()
        tmp.symlink_to(folder.resolve(), target_is_directory=True)
        os.replace(tmp, self.link)

    def start(self):
        handler = functools.partial(_Handler, directory=str(self.link))
        self.httpd = _Server(("127.0.0.1", self.port), handler)
        self.httpd.cache_control = self.cache_control
        self.httpd.cors = self.cors
        self.httpd.pages = self.pages
        self.httpd.hits = self.hits
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)

    def take(self) -> list[Hit]:
        """The requests since the last take."""
        taken = list(self.hits)
        del self.hits[: len(taken)]
        return taken
