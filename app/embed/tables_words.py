"""Every sentence of the table editor (``tables_editor.py``), keys ``tables.*`` in ``app/i18n``.

A bad row's message is core's (``core.tables_text.TableTextError``): in English its own
sentence, word for word, so the page and the CLI say the same thing; in Chinese the
catalogue's sentence for the error's ``code``, filled with its ``values``.
"""

from core.display import exact_or_dec
from core.tables import KEYS
from toy_tables import TOKENS

from ..i18n import language, names_in_language, t

WHICH = ("target", "q")
SYMBOL = {"target": "p", "q": "q"}


def row_name(key):
    """"at the start" or "after A"."""
    return t("tables.row.start") if key == "" else t("tables.row.after", token=key)


def cell_name(which, key, token):
    """A box's accessible name: "p(B) after A"."""
    return t("tables.cell", symbol=SYMBOL[which], token=token, row=row_name(key))


def normalise_name(which, key):
    return t("tables.normalise.name", table=t(f"tables.{which}.short"), row=row_name(key))


def css(which, i):
    """The class of row ``i``'s "Normalise" button: ``app/page/page.js`` names it from ``names()``."""
    return f"sp-normalise-{which}-{i}"


def names():
    """Accessible names of the "Normalise" buttons, by class (``app/page/words.NAMES``)."""
    return {css(which, i): normalise_name(which, key) for which in WHICH for i, key in enumerate(KEYS)}


def problem(error):
    """A ``TableTextError`` in the page's language (English: core's own sentence)."""
    if language() == "en" or not _known(error.code):
        return str(error)
    where = t(f"tables.{error.which}.short") + t("tables.where.sep") + row_name(error.row)
    if error.entry is not None:
        where += t("tables.where.entry", token=TOKENS[error.entry - 1])
    values = {k: (exact_or_dec(v) if not isinstance(v, (str, int)) else v) for k, v in error.values.items()}
    return t("tables.where", where=where, problem=t(f"tables.problem.{error.code}", **values))


def _known(code):
    return code in ("number", "digits", "negative", "zeros", "short", "over")


def note(n):
    """A ``core.tables_text.Note``: allowed, but the token is reachable only through corrections."""
    if language() == "en":
        return n.message
    return t("tables.note", row=row_name(n.row), token=n.token)


_CONSTANTS = {
    "TOGGLE": lambda: t("tables.own.toggle"),
    "BUILDER_TOGGLE": lambda: t("tables.builder.toggle"),
    "HELP": lambda: t("tables.own.help"),
    "BUILDER_HELP": lambda: t("tables.builder.help"),
    "TITLE": lambda: {which: t(f"tables.{which}.title") for which in WHICH},
    "NORMALISE": lambda: t("tables.normalise"),
    "RESET": lambda: t("tables.reset"),
    "APPLY": lambda: t("tables.apply"),
    "OK": lambda: t("tables.ok"),
    "INVALID": lambda: t("tables.invalid"),
    "BUILDER_INVALID": lambda: t("tables.builder.invalid"),
    "UNCHANGED": lambda: t("tables.unchanged"),
}

__getattr__ = names_in_language(__name__, _CONSTANTS)  # the names above, in the page's language
