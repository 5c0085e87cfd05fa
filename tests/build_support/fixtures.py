"""Pytest fixtures shared by the real-page test files: one Chromium per file, and the file's site served.

A test file imports what it uses (``from build_support.fixtures import chromium, site``);
``site`` serves the ``built`` fixture of the importing file, ``visit`` is one fresh
visit at 1200 x 900 per test, ``held`` holds Pyodide's server back for one test. One
Chromium per file, because Playwright's sync API must stop before the next file starts its own.
"""

from __future__ import annotations

import os

import pytest

from .browser import Visit, chromium_executable, launch
from .servers import LocalServer


@pytest.fixture(scope="module")
def chromium():
    if chromium_executable() is None:
        reason = "Debian's chromium is not installed (tests/run.sh installs it)"
        if os.environ.get("SPECSTEP_FULL_SETUP"):
            pytest.fail(reason)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch(playwright)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def site(built):
    with LocalServer(built.out) as server:
        yield server


@pytest.fixture
def visit(chromium):
    opened = Visit(chromium)
    yield opened
    opened.close()


@pytest.fixture
def held(built):
    """Pyodide's server holds every request until the test lets it go: the page stays before Python."""
    built.pyodide.set_mode("hang")
    yield built.pyodide
    built.pyodide.set_mode("serve")
