"""``python3 build.py [--out DIR] [--pyodide-url URL] [--load-timeout S] [--prerender QUERY ...] [--serve [--port N]]``."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

from .prerender import read_queries
from .project import ROOT, BuildError
from .site import DEFAULT_LOAD_TIMEOUT


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        sys.stderr.write(f"build.py: {message} (see python build.py --help)\n")
        raise SystemExit(2)


def parse_args(argv, resolve_url=True):
    """Parse the options; ``resolve_url=False`` checks them without importing Panel (before bootstrap)."""
    parser = _Parser(
        prog="python build.py",
        description="Build the widget into a static site that runs Python in the browser (Pyodide).",
    )
    parser.add_argument("--out", default="static",
                        help="output folder: the build's own files are replaced, anything else in it is kept "
                             "(default: static)")
    parser.add_argument("--pyodide-url", default=None, metavar="URL",
                        help="where the page loads Pyodide 0.29.3 from: the URL of pyodide.js or of its "
                             "folder (default: the public release Panel uses)")
    parser.add_argument("--load-timeout", type=float, default=DEFAULT_LOAD_TIMEOUT, metavar="S",
                        help="seconds the runtime may take before the page says it could not load (default: 30)")
    parser.add_argument("--prerender", action="append", default=[], metavar="QUERY",
                        help="also pre-render the scenario of a link's query, e.g. 'draft=biased&width=3&seed=1', "
                             "so that link shows its own numbers before Python is up (repeat for more)")
    parser.add_argument("--serve", action="store_true", help="serve the folder on 127.0.0.1 after building")
    parser.add_argument("--port", type=int, default=None, help="port for --serve (default: 8000; 0 picks a free one)")
    args = parser.parse_args(argv)
    if args.port is not None and not args.serve:
        parser.error("--port only makes sense with --serve")
    args.port = 8000 if args.port is None else args.port
    if not 0 <= args.port <= 65535:
        parser.error(f"--port {args.port} is not a port number")
    if not 1 <= args.load_timeout <= 600:
        parser.error("--load-timeout must be between 1 and 600 seconds")
    try:
        args.prerender, args.prerender_notes = read_queries(args.prerender)
    except BuildError as exc:
        parser.error(str(exc))
    if args.pyodide_url is not None or resolve_url:
        try:
            args.pyodide_url = pyodide_script_url(args.pyodide_url)
        except BuildError as exc:
            parser.error(str(exc))
    return args


def default_pyodide_url() -> str:
    """The pinned Pyodide release that ``panel convert`` itself loads."""
    from panel.io.convert import PYODIDE_URL
    return PYODIDE_URL


def pyodide_script_url(url: str | None) -> str:
    """Normalise ``--pyodide-url`` to the URL of ``pyodide.js`` (absolute http(s), or relative to the page)."""
    if url is None:
        return default_pyodide_url()
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", url) and not re.match(r"^https?://[^/\s]+", url):
        raise BuildError(f"--pyodide-url {url!r} must be an http(s) URL or a path relative to the page")
    if any(ch in url for ch in "\"'<>`\\ \n"):
        raise BuildError(f"--pyodide-url {url!r} contains characters a URL cannot have")
    if url.endswith("/"):
        url += "pyodide.js"
    if not url.endswith("/pyodide.js") and url != "pyodide.js":
        raise BuildError(f"--pyodide-url {url!r} must end in pyodide.js or / (the folder of pyodide.js)")
    return url


def main(argv=None) -> int:
    """Build (and serve); 0 on success, 1 with a one-line message on a problem the user can fix."""
    from .serve import serve
    from .site import build

    args = parse_args(sys.argv[1:] if argv is None else argv)
    out = Path(args.out)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))  # `import app` for panel convert and the probe
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    try:
        for note in args.prerender_notes:
            print(f"build.py: {note}: left out", flush=True)
        info = build(out, args.pyodide_url, args.load_timeout, prerender=args.prerender)
        mb = info["total_bytes"] / 1e6
        print(f"build.py: built {out} in {info['build_seconds']} s: {len(info['files'])} files, {mb:.1f} MB "
              f"(Pyodide {info['pyodide']['version']} from {info['pyodide']['url']})", flush=True)
        if args.serve:
            serve(out, args.port)
    except BuildError as exc:
        sys.stderr.write(f"build.py: {exc}\n")
        return 1
    return 0


def run(argv, script: Path) -> int:
    """``python3 build.py``: check the options, set up a fresh machine if needed, build."""
    from .bootstrap import bootstrap

    parse_args(argv, resolve_url=False)  # bad options fail fast, before any install
    try:
        bootstrap(argv, script)
    except (BuildError, subprocess.CalledProcessError) as exc:
        sys.stderr.write(f"build.py: {exc}\n")
        return 1
    return main(argv)
