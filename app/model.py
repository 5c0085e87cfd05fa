"""Kept for the other tabs and their tests: the step model now lives in ``app.step.model``."""

from .step.model import StepModel as Model  # noqa: F401
