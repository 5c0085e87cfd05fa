"""Local HTTP servers for the build tests: the built site, and a local Pyodide in place of its CDN.

Both listen on 127.0.0.1 only, on a free port, in a daemon thread, and record
every path requested. The local Pyodide (``local_pyodide.py``) is served with
CORS and long-lived cache headers, as Pyodide's CDN does; ``mode`` switches a
server between serving, answering 503, and hanging (accepting connections but
never answering, like a blocked network).
"""

from __future__ import annotations

import functools
import http.server
import threading
import time
from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlsplit


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
                      ".webmanifest": "application/manifest+json", ".whl": "application/zip",
                      ".json": "application/json"}

    def log_message(self, format, *args):
        pass

    def end_headers(self):
        if self.server.cors:
            self.send_header("Access-Control-Allow-Origin", "*")
        if self.server.cache_control:
            self.send_header("Cache-Control", self.server.cache_control)
        super().end_headers()

    def send_response(self, code, message=None):
        # What each request was answered with: a 304 revalidation sends no body.
        self.server.answers.append((unquote(urlsplit(self.path).path), code))
        super().send_response(code, message)

    def do_GET(self):
        self.server.requests.append(unquote(urlsplit(self.path).path))
        mode = self.server.mode
        if mode == "hang":
            # Hold the connection open without an answer, until the mode changes or the server stops.
            while self.server.mode == "hang":
                if self.server.stopping.wait(0.2):
                    return
        if mode == "fail":
            self.send_error(503, "Service unavailable (test)")
            return
        super().do_GET()


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A browser that cancels a download (a closed page, a failed start) is no error here.
        import sys
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


class LocalServer:
    """Serves ``folder`` at http://127.0.0.1:PORT/ until ``stop()``.

    ``cache_control``: a Cache-Control header for every answer (None: none, as a plain
    static server sends; the browser then caches by heuristics)."""

    def __init__(self, folder: Path, cors: bool = False, mode: str = "serve", cache_control: str | None = None):
        handler = functools.partial(_Handler, directory=str(folder))
        self.httpd = _Server(("127.0.0.1", 0), handler)
        self.httpd.cors = cors
        self.httpd.cache_control = cache_control
        self.httpd.mode = mode
        self.httpd.requests = []
        self.httpd.answers = []
        self.httpd.stopping = threading.Event()
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def requests(self) -> list[str]:
        return list(self.httpd.requests)

    @property
    def answers(self) -> list[tuple[str, int]]:
        """(path, status code) for every answer sent, in order."""
        return list(self.httpd.answers)

    def downloaded(self, prefix: str = "") -> Counter:
        """How many times each path was sent with its body (a 304 sends none), keyed ``prefix + path``."""
        return Counter(prefix + path for path, code in self.answers if code != 304)

    def revalidated(self, prefix: str = "") -> Counter:
        """How many times each path was answered 304 Not Modified."""
        return Counter(prefix + path for path, code in self.answers if code == 304)

    def set_mode(self, mode: str):
        assert mode in ("serve", "fail", "hang")
        self.httpd.mode = mode

    def clear(self):
        self.httpd.requests.clear()
        self.httpd.answers.clear()

    def stop(self):
        self.httpd.stopping.set()
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def free_port() -> int:
    """A port on 127.0.0.1 nobody listens on (bound, then released)."""
    import socket
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until(predicate, timeout: float, step: float = 0.1) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(step)
    return predicate()
