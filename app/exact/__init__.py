"""The "Why it is exact" tab: model, words and views (see ``views.ExactTab``)."""

from .views import ExactTab

__all__ = ["ExactTab"]
