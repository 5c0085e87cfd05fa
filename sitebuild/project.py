"""Where the project's pieces are, the versions the build pins, and the build's one error type."""

from __future__ import annotations

import importlib.metadata
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
ENTRY = ROOT / "app" / "main.py"
OUR_PACKAGES = ("core", "toy_tables", "app")
# The scenario the embed example and the docs use (issue 4).
EXAMPLE_QUERY = "?draft=biased&width=3&seed=1"


class BuildError(Exception):
    """A problem the user can fix; printed as one line."""


def project() -> dict:
    """pyproject.toml's [project] table (name, version, description...)."""
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def pyodide_version() -> str:
    """The Pyodide release Panel's converted pages load (Panel pins it)."""
    from panel.io.convert import PYODIDE_VERSION
    return PYODIDE_VERSION.lstrip("v")


def panel_version() -> str:
    return importlib.metadata.version("panel")
