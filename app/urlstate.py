"""The scenario in the page's URL: one table, one reader, one writer.

Modelled on tensorflow/playground's ``src/state.ts``: a declarative table of
URL properties with their types (``State.PROPS`` there, ``PROPS`` here), one
function that reads a query string and one that writes it, and a
``NAME_hide`` suffix that lets a teacher hide a control in an embedded copy
(``?draft=biased&seed=1&draft_hide=1`` fixes the draft for the reader).

Unlike the playground, a bad value is not silent: it falls back to the
default and ``read`` returns a one-line notice for the page. Notices never
repeat what the URL carried (they name the setting, not its value), and the
page shows them as plain text, so nothing from a URL is ever rendered as HTML.
Keys this table does not know are left alone: other tabs may own them.

Every number goes through ``_number``, which refuses long text and
exponents before anything is converted: ``?lookahead=1e999999999`` would
otherwise make ``Fraction`` build a billion-digit integer.
"""

from dataclasses import dataclass, field
from fractions import Fraction
from urllib.parse import parse_qsl, urlencode

import core
from core.drafts import Names
from core.numbers import parse_fraction
from core.tables import AUTHORED
from core.tables_text import notes, parse_tables, parse_rows, table_text

from app import i18n
from app.i18n import t

# JavaScript numbers are exact up to 2**53 - 1; the seed box is a browser
# number field, so seeds stay below that (and within core's own limit).
SEED_MAX = min(core.config.MAX_SEED, 2**53 - 1)

# "steps" replays that many clicks of "Next step" after loading, so a link can
# open on a particular moment of the trace (draft, width and seed fix the
# trace; the longest one has 3 phases x 8 blocks).
STEPS_MAX = 3 * core.MAX_TOKENS

# Dynamic lookahead thresholds a link (and the slider) may set; "off" drafts
# the full width every block. Decimal strings so core gets them exactly.
LOOKAHEAD_OFF = "off"
THRESHOLDS = tuple(f"0.{i}0" for i in range(1, 10))
LOOKAHEADS = (LOOKAHEAD_OFF,) + THRESHOLDS


MAX_CHARS = 40  # the longest number a link may spell (a seed up to 2**53 has 16 digits)


def _number(text):
    """An exact Fraction for ``text`` ("3", "0.5", "1/5"); ValueError for anything else.

    ``core.numbers`` is the one bounded reader of numbers from outside: it
    refuses exponents and long text before any arithmetic starts, so a
    link is read at once whatever it holds.
    """
    return parse_fraction(text, name="the link's value", max_chars=MAX_CHARS)


@dataclass(frozen=True)
class Prop:
    """One URL property: its name, its type, its default and its valid values."""

    name: str
    kind: str  # "choice", "threshold", "int", "language" or "table"
    default: object
    choices: tuple = ()
    low: int = 0
    high: int = 0
    must: dict = field(default_factory=dict)  # fields of the catalogue's url.must.NAME: the valid values

    def parse(self, text):
        """The value ``text`` stands for; ValueError when it is not valid."""
        if self.kind == "language":
            value = i18n.pick(text)
            if value is None:
                raise ValueError(text)
            return value
        if self.kind == "table":
            # core.tables_text reads it (bounded, exact; a TableTextError is a ValueError). The value is
            # the table's canonical text, "" for the authored rows, so equal tables give one link.
            rows = parse_rows(text, self.name)
            return "" if rows == getattr(AUTHORED, f"{self.name}_rows") else table_text(rows)
        if self.kind == "choice":
            value = text.strip().lower()
            if value not in self.choices:
                raise ValueError(text)
            return value
        if self.kind == "threshold":
            # "off", or a number equal to one of the choices: "0.5" means "0.50"
            value = text.strip().lower()
            if value in self.choices:
                return value
            number = _number(value)
            match = [c for c in self.choices if c != LOOKAHEAD_OFF and Fraction(c) == number]
            if not match:
                raise ValueError(text)
            return match[0]
        value = text.strip()
        if not (value.isascii() and value.isdigit()):
            raise ValueError(text)
        number = _number(value)
        if not self.low <= number <= self.high:
            raise ValueError(text)
        return int(number)

    def format(self, value):
        return str(value)

    def valid(self):
        """The valid values in words, in the page's language ("a whole number from 1 to 8")."""
        fields = {k: _either(tuple(v)) if isinstance(v, (tuple, Names)) else v for k, v in self.must.items()}
        return t(f"url.must.{self.name}", **fields)

    @property
    def what(self):
        """The valid values in English, for the build's messages (the CLI stays English)."""
        with i18n.use("en"):
            return self.valid().strip()


PROPS = (
    # core.ALL_DRAFTS itself, a live view: a kind registered later is a valid link value too.
    Prop("draft", "choice", "aligned", choices=core.ALL_DRAFTS, must={"choices": core.ALL_DRAFTS}),
    Prop("width", "int", 3, low=1, high=core.MAX_WIDTH, must={"low": 1, "high": core.MAX_WIDTH}),
    Prop("seed", "int", 0, low=0, high=SEED_MAX, must={"low": 0, "high": SEED_MAX}),
    Prop("lookahead", "threshold", LOOKAHEAD_OFF, choices=LOOKAHEADS,
         must={"low": THRESHOLDS[0], "high": THRESHOLDS[-1]}),
    Prop("schedule", "choice", "fixed", choices=tuple(core.SCHEDULES), must={"choices": tuple(core.SCHEDULES)}),
    Prop("steps", "int", 0, low=0, high=STEPS_MAX, must={"low": 0, "high": STEPS_MAX}),
    # Scenario props too: the teacher's own tables (core.tables_text's text form; "" = the authored ones).
    Prop("target", "table", ""),
    Prop("q", "table", ""),
)
BY_NAME = {prop.name: prop for prop in PROPS}
# The keys that identify a scenario (every one of PROPS; lang and the hide flags do not): the page's
# loader matches a link to a pre-render by these (sitebuild/loader_config.py writes them for it).
SCENARIO_KEYS = tuple(prop.name for prop in PROPS)

# The page's language, not part of the scenario: "" = the browser's; a link or the
# language switch names one (app/i18n). Read apart (``UrlState.lang``), written with the rest.
LANG = Prop("lang", "language", "", choices=i18n.LANGUAGES)

# Present mode for a projector (app/page/present.js), not part of the scenario either: "1" on.
# Read apart (``UrlState.present``), written with the rest when on.
PRESENT = Prop("present", "choice", "0", choices=("0", "1"), must={"choices": ("1", "0")})

# Predict first (issue 28), a reader's setting, not the scenario: "1" on. Read apart
# (``UrlState.predict``), written when on; the reader's calls are never in the URL.
PREDICT = Prop("predict", "choice", "0", choices=("0", "1"), must={"choices": ("1", "0")})
APART = {prop.name: prop for prop in (LANG, PRESENT, PREDICT)}  # in the URL, not in the scenario

# Parts of the page a link may hide with NAME_hide=1 (or true/yes).
HIDEABLE = ("draft", "width", "seed", "lookahead", "schedule", "reset", "intro", "counters", "history", "embed",
            "guide", "tables")
HIDE_SUFFIX = "_hide"
_TRUE = {"1", "true", "yes", "on"}

DEFAULTS = {prop.name: prop.default for prop in PROPS}


@dataclass(frozen=True)
class UrlState:
    """What a URL asked for, after validation."""

    values: dict = field(default_factory=lambda: dict(DEFAULTS))
    hidden: frozenset = frozenset()
    notices: tuple = ()
    given: frozenset = frozenset()  # the keys of this table the URL carried
    lang: str = ""  # the language the link names ("" for none)
    present: bool = False  # present=1: the page opens in present mode
    predict: bool = False  # predict=1: the step tab opens with Predict first on

    @property
    def notice(self):
        """All notices as one line of plain text ("" when the link was fine)."""
        return " ".join(self.notices)


def _query(search):
    text = search[1:] if search.startswith("?") else search
    return parse_qsl(text, keep_blank_values=True)


def read(search):
    """Parse a query string (``"?draft=biased&width=3&seed=1"``) into a ``UrlState``.

    Every known property falls back to its default when missing; a value that
    is present but invalid falls back too and adds a notice.
    """
    values = dict(DEFAULTS)
    hidden = set()
    bad = []
    given = set()
    apart = {}
    for key, text in _query(search or ""):
        if key in APART:  # lang, present, predict: read apart from the scenario
            prop = APART[key]
            try:
                apart[key] = prop.parse(text)
            except ValueError:
                bad.append(prop)
                given.add(key)  # so the page shows the notice
            continue
        if key in BY_NAME or (key.endswith(HIDE_SUFFIX) and key[: -len(HIDE_SUFFIX)] in HIDEABLE):
            given.add(key)
        if key in BY_NAME:
            prop = BY_NAME[key]
            try:
                values[key] = prop.parse(text)
            except ValueError:
                values[key] = prop.default
                bad.append(prop)
        elif key.endswith(HIDE_SUFFIX) and key[: -len(HIDE_SUFFIX)] in HIDEABLE:
            if text.strip().lower() in _TRUE:
                hidden.add(key[: -len(HIDE_SUFFIX)])
    notices = tuple(_notice(prop) for prop in bad) + _unreachable(values)
    return UrlState(values, frozenset(hidden), notices, frozenset(given), apart.get(LANG.name, ""),
                    apart.get(PRESENT.name) == "1", apart.get(PREDICT.name) == "1")


def _unreachable(values):
    """A note, not a refusal, when the link's tables leave a token the target can produce out of
    the draft's table: that token then appears there only as a correction (core.tables_text.notes)."""
    if not (values.get("target") or values.get("q")):
        return ()
    kind = core.DRAFT_KINDS.get(values["draft"])
    if kind is None or not kind.has_table:
        return ()
    tables = parse_tables(values.get("target") or None, values.get("q") or None)
    found = notes(tables, kind.table_in(tables))
    if not found:
        return ()
    places = [t("url.note.where.start", token=n.token) if n.row == "" else
              t("url.note.where.after", token=n.token, after=n.row) for n in found]
    return (t("url.note.unreachable", draft=t(f"step.draft_name.{kind.name}"), places=_either(tuple(places))),)


def _either(choices):
    """``("a", "b", "c") -> "a, b or c"``, in the page's language."""
    if len(choices) == 1:
        return choices[0]
    return t("url.or", rest=t("url.sep").join(choices[:-1]), last=choices[-1])


def _notice(prop):
    """One bad value's notice, in the page's language (it names the setting, never the URL's value)."""
    must = prop.valid()
    if prop.name == "lang":
        return t("url.notice.lang", must=must)
    if prop.kind == "table":
        return t("url.notice.table", name=prop.name, must=must)
    return t("url.notice", name=prop.name, must=must, default=prop.default)


def language(search):
    """The language a query string asks for ("en", "zh"), or None when it names none (or a bad one)."""
    for key, text in _query(search or ""):
        if key == "lang":
            return i18n.pick(text)
    return None


def write(values, hidden=(), search="", guesses=None):
    """The query string for ``values``, keeping keys of ``search`` that are not ours.

    Draft, width and seed are always written (a copied link states its
    scenario); ``lookahead``, ``schedule``, ``steps``, ``target``, ``q``, ``lang``, ``present`` and ``predict`` only when not
    at their defaults; hide flags as ``NAME_hide=1``. ``guesses``: the guesses tab's values once it is built
    (``GUESS_DEFAULTS``' keys, written when not at their defaults); None keeps the search's own.
    """
    ours = set(BY_NAME) | set(APART) | {name + HIDE_SUFFIX for name in HIDEABLE}
    if guesses is not None:
        ours |= set(GUESS_DEFAULTS)
    others = [(k, v) for k, v in _query(search or "") if k not in ours]
    pairs = []
    for prop in PROPS + tuple(APART.values()):
        value = values.get(prop.name, prop.default)
        if value == prop.default and prop.name in ("steps", "lookahead", "schedule", "lang", "target", "q", "present",
                                                   "predict"):
            continue
        pairs.append((prop.name, prop.format(value)))
    for name in HIDEABLE:
        if name in hidden:
            pairs.append((name + HIDE_SUFFIX, "1"))
    return "?" + urlencode(pairs + (_guess_pairs(guesses) if guesses is not None else []) + others)


# ---- the "Several guesses at once" tab's own keys (issue 26) ---------------------------------
# Its scenario and moment, apart from the first tab's (``g`` for guesses): ``gsteps=N`` opens its
# trace on moment N as ``steps=N`` does the first tab's. Read when that tab is built, written with the
# rest once it is (``write(..., guesses=...)``); until then a link's own g-keys are kept as they were.

GUESS_DEFAULTS = {"gdraft": "biased", "gk": 2, "gwidth": 2, "gseed": 1, "gsteps": 0}  # GuessesModel's defaults
GUESS_SEED_MAX = 2**32 - 1


def guess_props():
    """The guesses tab's URL properties (core.tree is imported only when that tab is)."""
    from core.tree import MAX_CANDIDATES, MAX_TREE_WIDTH, TREE_DRAFTS

    d = GUESS_DEFAULTS
    return (
        Prop("gdraft", "choice", d["gdraft"], choices=tuple(TREE_DRAFTS), must={"choices": tuple(TREE_DRAFTS)}),
        Prop("gk", "int", d["gk"], low=1, high=MAX_CANDIDATES, must={"low": 1, "high": MAX_CANDIDATES}),
        Prop("gwidth", "int", d["gwidth"], low=1, high=MAX_TREE_WIDTH, must={"low": 1, "high": MAX_TREE_WIDTH}),
        Prop("gseed", "int", d["gseed"], low=0, high=GUESS_SEED_MAX, must={"low": 0, "high": GUESS_SEED_MAX}),
        Prop("gsteps", "int", d["gsteps"], low=0, high=STEPS_MAX, must={"low": 0, "high": STEPS_MAX}),
    )


def read_guesses(search):
    """The guesses tab's part of a query string, as a ``UrlState`` (bad values fall back, with a notice)."""
    props = {prop.name: prop for prop in guess_props()}
    values = dict(GUESS_DEFAULTS)
    bad, given = [], set()
    for key, text in _query(search or ""):
        if key in props:
            given.add(key)
            try:
                values[key] = props[key].parse(text)
            except ValueError:
                bad.append(props[key])
    return UrlState(values, frozenset(), tuple(_notice(prop) for prop in bad), frozenset(given))


def _guess_pairs(values):
    """The guesses tab's keys for ``write``: those not at their default."""
    return [(name, str(values[name])) for name in GUESS_DEFAULTS
            if name in values and values[name] != GUESS_DEFAULTS[name]]


def tolerate_long_query_values():
    """Make Panel's own query parsing unable to stop the page.

    Panel's ``Location`` turns every query value made of digits into an
    ``int`` whenever the URL changes (``panel.util.parse_query``), and
    Python refuses more than 4,300 digits: a tracker's ``?utm_id=`` with a
    long number would raise before any of our code runs. The app reads the
    raw ``search`` string itself (``read``), so Panel's parsed copy only has
    to not raise: on a ValueError it gets the values as plain strings.
    """
    from panel.io import location

    parse = location.parse_query
    if getattr(parse, "tolerant", False):
        return

    def parse_query(query):
        try:
            return parse(query)
        except ValueError:
            return dict(_query(query))

    parse_query.tolerant = True
    location.parse_query = parse_query
