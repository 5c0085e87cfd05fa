"""The "Several guesses at once" tab: a tree of candidates per position (SpecInfer), step by step."""

from .views import GuessesTab

__all__ = ["GuessesTab"]
