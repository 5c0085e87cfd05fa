"""specstep's engine: exact, step-wise speculative sampling on toy A/B/C tables.

Pure standard-library Python, so the same code runs on CPython and in the
reader's browser through Pyodide and gives byte-identical traces.
"""

from toy_tables import TOKENS

from . import display
from .config import DRAFTS, MAX_TOKENS, MAX_WIDTH, Config, ConfigError
from .drafts import ALL_DRAFTS, KINDS as DRAFT_KINDS, DraftKind
from .numbers import InputError, parse_fraction, parse_int
from .records import Block, Bonus, Correction, Counters, Proposal
from .rule import Decomposition, decompose, parse_distribution
from .session import ACTIONS, PhaseError, Session, position, simulate
from .schedule import SCHEDULES
from .trace import Trace
from .transform import TRANSFORM_AT, Transform
from .variants import VARIANTS as _VARIANTS

VARIANTS = tuple(_VARIANTS)

# Issue 26's scrubbing and lanes load when first asked for, so `import core` costs what it did.
_LATER = {"Mark": "timeline", "Timeline": "timeline", "Lanes": "ordinary", "OrdinaryTrace": "ordinary",
          "lanes": "ordinary"}


def __getattr__(name):
    if name in _LATER:
        import importlib
        return getattr(importlib.import_module(f".{_LATER[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "ACTIONS", "ALL_DRAFTS", "DRAFT_KINDS", "DRAFTS", "SCHEDULES", "TRANSFORM_AT", "MAX_TOKENS", "MAX_WIDTH", "TOKENS",
    "VARIANTS",
    "Block", "Bonus", "Config", "ConfigError", "Correction", "Counters", "Decomposition", "DraftKind", "InputError",
    "Lanes", "Mark", "OrdinaryTrace", "PhaseError", "Proposal", "Session", "Timeline", "Trace", "Transform",
    "decompose", "display", "lanes", "parse_distribution", "parse_fraction", "parse_int", "position", "simulate",
]
