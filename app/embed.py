"""Kept for build.py and its tests: the embed snippet now lives in ``app.urlstate``."""

from .urlstate import snippet  # noqa: F401
