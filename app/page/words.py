"""Every name and key the page-level behaviour shows or tells a screen reader.

Whole sentences and names in the catalogues (``app/i18n``, keys ``embed.*`` for
the older ones, ``page.*``), in the page's language; ``page.js`` gets the names as
arguments and never spells a word. ``NAMES``, ``TABS_LABEL`` and ``JUMP_LABEL``
are read through ``__getattr__`` so they follow the page's language.
"""

from ..embed import tables_words
from ..i18n import names_in_language, t

# CSS class on a widget -> the catalogue key of the accessible name of the control inside it.
NAME_KEYS = {
    "sp-seed-input": "step.field.seed",
    "sp-seed-down": "step.seed.previous",
    "sp-seed-up": "step.seed.next",
    "sp-threshold": "payoff.field.threshold",
    "sp-cost": "payoff.field.cost",
    "sp-batch": "payoff.field.batch",
    "sp-saturation": "payoff.field.saturation",
    "sp-lock": "embed.lock",
    "sp-embed-predict": "embed.builder.predict",
}

# A key pressed anywhere outside a text field presses the action of that name.
SHORTCUTS = (
    ("d", "draft"),
    ("v", "verify"),
    ("c", "commit"),
    ("n", "step"),
    ("b", "back"),  # Step back (app/step/timeline_view.py)
    ("r", "reset"),
)


def shortcut_keys(labels, leave_out=()):
    """"D Draft · V Verify · …": ``labels`` maps an action to its button's label; ``leave_out``: letters
    a part of the page takes meanwhile (Predict first's A, B, C)."""
    return " · ".join(f"{key.upper()} {labels[action]}" for key, action in SHORTCUTS if key not in leave_out)


def shortcuts_line(labels):
    """The shortcut keys as one line for the page: ``labels`` maps an action to its button's label."""
    return t("embed.shortcuts", keys=shortcut_keys(labels))


_CONSTANTS = {
    # The table editor's "Normalise" buttons each name their row (app/embed/tables_words.names).
    "NAMES": lambda: {**{css: t(key) for css, key in NAME_KEYS.items()}, **tables_words.names()},
    "TABS_LABEL": lambda: t("embed.tabs_label"),
    "JUMP_LABEL": lambda: t("embed.jump"),
}

__getattr__ = names_in_language(__name__, _CONSTANTS)  # the names above, in the page's language
