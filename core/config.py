"""A scenario: which draft, how wide a block, which seed, which rule."""

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Optional

from .drafts import ALL_DRAFTS, TABLE_DRAFTS, setup
from .pairs import numbers_for
from .schedule import SCHEDULES
from .tables import AUTHORED, Tables
from .transform import NONE, Transform
from .variants import ALL_VARIANTS

DRAFTS = TABLE_DRAFTS  # the drafts with a table (core.drafts.KINDS): the closed forms exist for them
MAX_WIDTH = 8
MAX_TOKENS = 8
MAX_SEED = 2**64 - 1
MAX_OUTPUT = 64
_ONE = Fraction(1)
_PLAIN = {draft: setup(draft) for draft in ALL_DRAFTS}  # most scenarios transform nothing


class ConfigError(ValueError):
    """A scenario that cannot run, described in one readable sentence."""


def _whole(name, value, low, high):
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{name} must be a whole number from {low} to {high}, got {value!r}")
    if not low <= value <= high:
        raise ConfigError(f"{name} must be from {low} to {high}, got {value}")


@dataclass(frozen=True)
class Config:
    """Everything that determines a trace. Changing any field starts a new trace.

    ``width`` is the draft length (gamma in the paper). ``lookahead`` is a
    draft-confidence threshold for dynamic lookahead, or None for a fixed
    width. ``max_tokens`` is the output limit: the toy has no end-of-sequence
    token, so it stops there.

    ``schedule`` is "fixed" (every block drafts ``width``) or "heuristic"
    (``core.schedule``: starts at ``width``, +2 after a fully accepted block,
    else -1). ``temperature`` (1, 1/2, 1/3 or 1/4), ``top_k`` (None or 1-3)
    and ``transform_at`` ("both", "target" or "draft") reshape the rows
    (``core.transform``). ``tables`` are the target and the custom draft's
    ``q`` the scenario runs on (``core.tables``; the authored ones by default).
    """

    draft: str = "aligned"
    width: int = 3
    seed: int = 0
    max_tokens: int = MAX_TOKENS
    variant: str = "exact"
    lookahead: Optional[Fraction] = None
    schedule: str = "fixed"
    temperature: Fraction = Fraction(1)
    top_k: Optional[int] = None
    transform_at: str = "both"
    tables: Tables = AUTHORED

    def __init__(self, draft="aligned", width=3, seed=0, max_tokens=MAX_TOKENS, variant="exact", lookahead=None,
                 schedule="fixed", temperature=_ONE, top_k=None, transform_at="both", tables=AUTHORED):
        # Written out for speed, like core.records': a trace builds one Config, and a
        # frozen dataclass's generated __init__ costs a call per field.
        self.__dict__.update(draft=draft, width=width, seed=seed, max_tokens=max_tokens, variant=variant,
                             lookahead=lookahead, schedule=schedule, temperature=temperature, top_k=top_k,
                             transform_at=transform_at, tables=tables)
        self.__post_init__()

    def __post_init__(self):
        if self.draft not in ALL_DRAFTS:
            raise ConfigError(f"unknown draft {self.draft!r}; choose one of: {', '.join(ALL_DRAFTS)}")
        _whole("width", self.width, 1, MAX_WIDTH)
        _whole("seed", self.seed, 0, MAX_SEED)
        _whole("max_tokens", self.max_tokens, 1, MAX_OUTPUT)
        if self.variant not in ALL_VARIANTS:
            raise ConfigError(f"unknown variant {self.variant!r}; choose one of: {', '.join(ALL_VARIANTS)}")
        if self.lookahead is not None:
            if isinstance(self.lookahead, (bool, float)) or not isinstance(self.lookahead, (int, Fraction)):
                raise ConfigError(f"lookahead must be an exact fraction from 0 to 1, got {self.lookahead!r}")
            if not 0 <= self.lookahead <= 1:
                raise ConfigError(f"lookahead must be from 0 to 1, got {self.lookahead}")
            object.__setattr__(self, "lookahead", Fraction(self.lookahead))
        if self.schedule not in SCHEDULES:
            raise ConfigError(f"unknown schedule {self.schedule!r}; choose one of: {', '.join(SCHEDULES)}")
        t = self.temperature
        # The common case first, without Fraction arithmetic: a plain int 1 or the default Fraction.
        plain = (self.top_k is None and self.transform_at == "both"
                 and (t is _ONE or (t.__class__ is int and t == 1) or (t.__class__ is Fraction and t == 1)))
        try:
            transform = NONE if plain else Transform(self.temperature, self.top_k, self.transform_at)
        except ValueError as e:
            raise ConfigError(str(e)) from None
        # The rows this scenario drafts and verifies with, looked up once (core.drafts.setup).
        # ``numbers``: the setup's caches of exact numbers for this rule (core.pairs).
        tables = self.tables
        if tables is not AUTHORED and not isinstance(tables, Tables):
            raise ConfigError(f"tables must be a core.tables.Tables record, got {type(tables).__name__}")
        found = _PLAIN.get(self.draft) if plain and tables is AUTHORED else None
        if found is None:  # a transformation, custom tables, or a kind registered after this module was imported
            found = setup(self.draft, transform, tables)
        numbers = found.cache.get(self.variant)
        if numbers is None:
            numbers = found.cache[self.variant] = numbers_for(ALL_VARIANTS[self.variant], found.target)
        self.__dict__.update(transform=transform, temperature=transform.temperature, setup=found, numbers=numbers)

    def replace(self, **changes):
        return replace(self, **changes)

    def to_dict(self):
        return {
            "draft": self.draft,
            "width": self.width,
            "seed": self.seed,
            "max_tokens": self.max_tokens,
            "variant": self.variant,
            "lookahead": None if self.lookahead is None else str(self.lookahead),
            "schedule": self.schedule,
            "temperature": str(self.temperature),
            "top_k": self.top_k,
            "transform_at": self.transform_at,
            **self._tables_dict(),
        }

    def _tables_dict(self):
        """The tables in their text form (``core.tables_text``), only when they are not the authored
        ones: an authored scenario's JSON stays what it was."""
        if self.tables is AUTHORED or self.tables == AUTHORED:
            return {}
        from .tables_text import table_text
        out = {}
        if self.tables.target_rows != AUTHORED.target_rows:
            out["target"] = table_text(self.tables.target_rows)
        if self.tables.q_rows != AUTHORED.q_rows:
            out["q"] = table_text(self.tables.q_rows)
        return out
