"""Moved to the package ``app.payoff``; this name stays only until ``app/main.py`` imports from there."""

from app.payoff import PayoffTab

__all__ = ["PayoffTab"]
