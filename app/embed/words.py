"""Every sentence and name the page-level behaviour shows or tells a screen reader.

Whole sentences and names in the catalogues (``app/i18n``, keys ``embed.*``),
in the page's language; ``page.js`` gets the names as arguments and never
spells a word. ``NAMES`` and ``TABS_LABEL`` are read through ``__getattr__``
so they follow the page's language.
"""

from ..i18n import t

# CSS class on a widget -> the catalogue key of the accessible name of the control inside it.
NAME_KEYS = {
    "sp-seed-input": "step.field.seed",
    "sp-seed-down": "step.seed.previous",
    "sp-seed-up": "step.seed.next",
    "sp-threshold": "payoff.field.threshold",
    "sp-lock": "embed.lock",
}

# A key pressed anywhere outside a text field presses the action of that name.
SHORTCUTS = (
    ("d", "draft"),
    ("v", "verify"),
    ("c", "commit"),
    ("n", "step"),
    ("r", "reset"),
)


def shortcuts_line(labels):
    """The shortcut keys as one line for the page: ``labels`` maps an action to its button's label."""
    keys = " · ".join(f"{key.upper()} {labels[action]}" for key, action in SHORTCUTS)
    return t("embed.shortcuts", keys=keys)


_CONSTANTS = {
    "NAMES": lambda: {css: t(key) for css, key in NAME_KEYS.items()},
    "TABS_LABEL": lambda: t("embed.tabs_label"),
}


def __getattr__(name):
    """The module's names, in the page's language (``words.NAMES``, ``words.TABS_LABEL``)."""
    if name in _CONSTANTS:
        return _CONSTANTS[name]()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ---- the embed builder ---------------------------------------------------------------------

BUILDER_TITLE = "Embed this scenario"
BUILDER_HELP = ("Paste the code into course notes: it opens this draft, width, seed and step, and its few lines of "
                "script make the frame exactly as tall as the widget. Inside a frame the title, the introduction "
                "and this form are hidden unless you untick them below. Give each embed on a page its own title.")
COPY_LABEL = "Copy embed code"
COPY_SAID = {
    "copied": "Copied",
    "selected": "Selected: press Ctrl+C (⌘C on a Mac) to copy",
}
AREA_LABEL = "Embed code for this scenario"
COPY_TIP = "Copy the code that opens this exact scenario in an iframe"

# Every part a link may hide (app/urlstate.HIDEABLE), as the form names it.
PARTS = {
    "draft": "Draft model",
    "width": "Width",
    "seed": "Seed",
    "lookahead": "Dynamic lookahead",
    "schedule": "Width schedule",
    "reset": "Reset button",
    "counters": "Work counters",
    "history": "Block history",
    "intro": "Title and introduction",
    "embed": "This embed form",
    "guide": "What to try",
}
PARTS_LABEL = "Parts to hide"
LOCK_LABEL = "Lock the scenario: controls shown but fixed"
START_LABEL = "Starting tab"
TABS_SHOWN_LABEL = "Tabs to show"
THEME_LABEL = "Colours"
THEMES = {"Follow the reader's setting": "auto", "Light": "light", "Dark": "dark"}
CAPTION_LABEL = "Caption under the frame (optional)"
FRAME_TITLE_LABEL = "Frame title, read by screen readers"
NO_TABS = "At least one tab must be shown, so the code keeps every tab."
LOCKED_NOTE = "This scenario is fixed by the page that embeds it."

JUMP_LABEL = "Inspector ↓"
JUMP_TIP = "Scroll down to the inspector, which shows every number of the position you picked"

# ---- the guided start --------------------------------------------------------------------------

GUIDE_TITLE = "What to try"
GUIDE_HELP = "Each button opens a moment of a trace. Predict the answer to its question, then click Verify."
GUIDE_PICK = "Pick a moment above: its question appears here."
GUIDE_CHECK = "Check your prediction"
ROWS_SUMMARY = "All authored rows of the toy tables"
ROWS_NOTE = ("Each row is the next-token distribution after the last token (the tables look at nothing else). The "
             "biased rows after A, B and C are authored for this widget, not measured from a model.")
ROWS_AFTER = "after"
ROWS_START = "(start)"
ROWS_TARGET = "target p"


def rows_draft(draft):
    """A table column's heading for a draft's row."""
    return f"{draft} draft q"
