"""Moved to the package ``app.exact``; this name stays only until ``app/main.py`` imports from there."""

from app.exact import ExactTab

__all__ = ["ExactTab"]
