"""``build.py --serve``: the built folder on 127.0.0.1 (file:// cannot run Pyodide)."""

from __future__ import annotations

import functools
import http.server
from pathlib import Path

from .project import BuildError


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
                      ".webmanifest": "application/manifest+json", ".whl": "application/zip",
                      ".json": "application/json"}

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")  # revalidate: a rebuild shows at once
        super().end_headers()

    def log_message(self, format, *args):
        pass


def serve(folder: Path, port: int):
    """Serve ``folder`` until Ctrl+C; print its URL first."""
    handler = functools.partial(_Handler, directory=str(folder))
    try:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as exc:
        raise BuildError(f"cannot serve on 127.0.0.1:{port}: {exc.strerror or exc}") from None
    url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
    print(f"Serving {folder} at {url}  (embed example: {url.rsplit('/', 1)[0]}/embed.html; Ctrl+C stops)",
          flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
