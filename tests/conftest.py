"""Session hooks for the whole suite.

Once the tests are collected, the real-Pyodide builds they will ask for start in the background
(``build_support.real_site.prefetch``), in the order the suite needs them: a build is a process of
its own, so it runs beside the tests that need none instead of before the first test that does.
A module's need is read from its source (the helper it calls). ``SPECSTEP_NO_PREFETCH=1`` turns
this off; collecting only (``--co``) never builds.
"""

from __future__ import annotations

import os
from pathlib import Path

from build_support import real_site as sites


def wanted_builds(sources: list[str]) -> list:
    """build.py's extra arguments for each build these test modules' sources ask for, in the suite's order."""
    text = "\n".join(sources)
    variants = []
    if "real_site(" in text:
        variants.append(())
    if "prerendered_site(" in text:
        variants.append(sites.PRERENDER_ARGS)
    if "moved_pyodide_site()" in text:
        variants.append(sites.moved_args)
    if "moved_pyodide_site(PRERENDER_ARGS)" in text:
        variants.append(lambda: sites.moved_args(sites.PRERENDER_ARGS))
    return variants


def pytest_collection_finish(session):
    if session.config.option.collectonly or os.environ.get("SPECSTEP_NO_PREFETCH"):
        return
    paths = sorted({str(item.path) for item in session.items if str(item.path).endswith(".py")})
    variants = wanted_builds([Path(p).read_text(encoding="utf-8") for p in paths])
    if variants:
        sites.prefetch(*variants)
