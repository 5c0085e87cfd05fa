"""Build the widget as a static site whose Python runs in the reader's browser.

    python3 build.py [--out static] [--pyodide-url URL] [--load-timeout S] [--serve [--port N]]

``static/`` is a folder any static host serves as is (GitHub Pages, a course
site). On a fresh machine the first run sets up ``.venv`` and the npm package
``pyodide@0.29.3`` (in ``sitebuild/npm/``). The work is done by the package
``sitebuild/``, one module per idea: ``cli`` (these options), ``bootstrap``,
``probe`` (what the app imports in the page, found by running it as the page's
worker does, with ``app/worker_protocol.py``), ``packages`` (compiled ones from
Pyodide, pure-Python ones we ship), ``wheels`` (slim, byte-compiled with
Pyodide's Python), ``page`` (``panel convert``'s page, made to load from this
site), ``site`` (the output folder) and ``serve`` (``--serve``: 127.0.0.1,
since file:// cannot run Pyodide).
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from sitebuild.cli import run  # noqa: E402

if __name__ == "__main__":
    sys.exit(run(sys.argv[1:], Path(__file__).resolve()))
