"""The "When it pays off" tab: model, words and views (see ``views.PayoffTab``)."""

from .views import PayoffTab

__all__ = ["PayoffTab"]
