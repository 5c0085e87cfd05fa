"""Run pieces of web/worker.js under Node: the functions a test needs, cut from the file itself.

A harness starts with ``PICK``: ``source`` is worker.js's text and ``pick(re)`` the first match
of ``re`` in it (Node stops with "not in worker.js" when a function was renamed away), so a test
exercises the code the page runs, not a copy of it.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from pyodide_runner import ROOT

WORKER_JS = ROOT / "web" / "worker.js"

PICK = r"""
const fs = require("fs");
const source = fs.readFileSync(process.argv[1], "utf8");
const pick = (re) => {
  const m = source.match(re);
  if (!m) { console.error("not in worker.js: " + re); process.exit(2); }
  return m[0];
};
"""


def run_on_worker_js(harness: str, *args: str | Path, timeout: int = 120) -> subprocess.CompletedProcess:
    """Run ``PICK + harness`` in Node with worker.js and ``args`` as process.argv[1:]."""
    if shutil.which("node") is None:
        pytest.skip("needs Node 20 (the README's setup installs it)")
    return subprocess.run(["node", "-e", PICK + harness, str(WORKER_JS), *map(str, args)],
                          capture_output=True, text=True, timeout=timeout)
