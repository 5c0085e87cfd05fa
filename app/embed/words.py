"""Every sentence and name the page-level behaviour shows or tells a screen reader.

Whole sentences and names in the catalogues (``app/i18n``, keys ``embed.*``),
in the page's language; ``page.js`` gets the names as arguments and never
spells a word. ``NAMES`` and ``TABS_LABEL`` are read through ``__getattr__``
so they follow the page's language.
"""

from ..i18n import has, t

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


def shortcuts_line(labels):
    """The shortcut keys as one line for the page: ``labels`` maps an action to its button's label."""
    keys = " · ".join(f"{key.upper()} {labels[action]}" for key, action in SHORTCUTS)
    return t("embed.shortcuts", keys=keys)


# Every part a link may hide (app/urlstate.HIDEABLE), in the form's order; its name is ``embed.part.<part>``.
PARTS_ORDER = ("draft", "width", "seed", "lookahead", "schedule", "reset", "counters", "history", "intro", "embed",
               "guide")
THEME_VALUES = ("auto", "light", "dark")


def rows_draft(draft):
    """A table column's heading for a draft's row ("biased draft q")."""
    key = f"step.draft_name.{draft}"
    return t("embed.rows.draft", draft=t(key) if has(key) else draft)


_CONSTANTS = {
    "NAMES": lambda: {css: t(key) for css, key in NAME_KEYS.items()},
    "TABS_LABEL": lambda: t("embed.tabs_label"),
    # the embed builder
    "BUILDER_TITLE": lambda: t("embed.builder.title"),
    "BUILDER_HELP": lambda: t("embed.builder.help"),
    "COPY_LABEL": lambda: t("embed.builder.copy"),
    "COPY_SAID": lambda: {"copied": t("embed.builder.copied"), "selected": t("embed.builder.selected")},
    "AREA_LABEL": lambda: t("embed.builder.area"),
    "COPY_TIP": lambda: t("embed.builder.copy_tip"),
    "PARTS": lambda: {part: t(f"embed.part.{part}") for part in PARTS_ORDER},
    "PARTS_LABEL": lambda: t("embed.builder.parts"),
    "LOCK_LABEL": lambda: t("embed.builder.lock"),
    "START_LABEL": lambda: t("embed.builder.start"),
    "TABS_SHOWN_LABEL": lambda: t("embed.builder.tabs_shown"),
    "THEME_LABEL": lambda: t("embed.builder.theme"),
    "THEMES": lambda: {t(f"embed.theme.{value}"): value for value in THEME_VALUES},
    "CAPTION_LABEL": lambda: t("embed.builder.caption"),
    "FRAME_TITLE_LABEL": lambda: t("embed.builder.frame_title"),
    "NO_TABS": lambda: t("embed.builder.no_tabs"),
    "JUMP_LABEL": lambda: t("embed.jump"),
    # the guided start
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


def __getattr__(name):
    """The module's names, in the page's language (``words.NAMES``, ``words.BUILDER_TITLE``, ...)."""
    if name in _CONSTANTS:
        return _CONSTANTS[name]()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def opened_preset(title, draft, width, seed, steps):
    """What a preset's button did, for the caption (``steps`` already in words: "1 step")."""
    return t("embed.guide.opened", title=title, draft=draft, width=width, seed=seed, steps=steps)


def guide_lead(title):
    """A preset's title leading its question ("1 · Same table as the target.")."""
    return t("embed.guide.lead", title=title)
