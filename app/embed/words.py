"""Every sentence and name of the embed form (``builder.py``).

Whole sentences and names in the catalogues (``app/i18n``, keys ``embed.*``),
in the page's language, read through ``__getattr__``. The page's own names and
keys are ``app/page/words.py``'s; "What to try"'s are ``app/step/guide_words.py``'s.
"""

from ..i18n import names_in_language, t

# Every part a link may hide (app/urlstate.HIDEABLE), in the form's order; its name is ``embed.part.<part>``.
PARTS_ORDER = ("draft", "width", "seed", "lookahead", "schedule", "reset", "counters", "history", "intro", "embed",
               "guide", "tables")
THEME_VALUES = ("auto", "light", "dark")

_CONSTANTS = {
    "BUILDER_TITLE": lambda: t("embed.builder.title"),
    "BUILDER_HELP": lambda: t("embed.builder.help"),
    "TOGGLE": lambda: t("embed.builder.toggle"),
    "COPY_LABEL": lambda: t("embed.builder.copy"),
    "COPY_SAID": lambda: {"copied": t("embed.builder.copied"), "selected": t("embed.builder.selected")},
    "AREA_LABEL": lambda: t("embed.builder.area"),
    "COPY_TIP": lambda: t("embed.builder.copy_tip"),
    "PARTS": lambda: {part: t(f"embed.part.{part}") for part in PARTS_ORDER},
    "PARTS_LABEL": lambda: t("embed.builder.parts"),
    "LOCK_LABEL": lambda: t("embed.builder.lock"),
    "PREDICT_LABEL": lambda: t("embed.builder.predict"),
    "START_LABEL": lambda: t("embed.builder.start"),
    "TABS_SHOWN_LABEL": lambda: t("embed.builder.tabs_shown"),
    "THEME_LABEL": lambda: t("embed.builder.theme"),
    "THEMES": lambda: {t(f"embed.theme.{value}"): value for value in THEME_VALUES},
    "CAPTION_LABEL": lambda: t("embed.builder.caption"),
    "FRAME_TITLE_LABEL": lambda: t("embed.builder.frame_title"),
    "NO_TABS": lambda: t("embed.builder.no_tabs"),
}

__getattr__ = names_in_language(__name__, _CONSTANTS)  # the names above, in the page's language

