"""Every sentence of "What to try" (``guide.py``): its title, questions and the table of authored rows.

Whole sentences in the catalogues (``app/i18n``, keys ``embed.guide.*`` and
``embed.rows.*``, named for where the guide first lived), in the page's language,
read through ``__getattr__``.
"""

from ..i18n import names_in_language, t
from ..parts import draft_name


def rows_draft(draft):
    """A table column's heading for a draft's row ("biased draft q")."""
    return t("embed.rows.draft", draft=draft_name(draft))


_CONSTANTS = {
    "GUIDE_TITLE": lambda: t("embed.guide.title"),
    "GUIDE_HELP": lambda: t("embed.guide.help"),
    "GUIDE_PICK": lambda: t("embed.guide.pick"),
    "GUIDE_CHECK": lambda: t("embed.guide.check"),
    "ROWS_SUMMARY": lambda: t("embed.rows.summary"),
    "ROWS_NOTE": lambda: t("embed.rows.note"),
    "ROWS_AFTER": lambda: t("embed.rows.after"),
    "ROWS_START": lambda: t("embed.rows.start"),
    "ROWS_TARGET": lambda: t("embed.rows.target"),
}

__getattr__ = names_in_language(__name__, _CONSTANTS)  # the names above, in the page's language


def opened_preset(title, draft, width, seed, steps):
    """What a preset's button did, for the caption (``steps`` already in words: "1 step")."""
    return t("embed.guide.opened", title=title, draft=draft, width=width, seed=seed, steps=steps)


def guide_lead(title):
    """A preset's title leading its question ("1 · Same table as the target.")."""
    return t("embed.guide.lead", title=title)
