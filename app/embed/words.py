"""Every sentence and name the page-level behaviour shows or tells a screen reader.

Whole sentences and names in constant tables, so the catalogues can take
them over; ``page.js`` gets the names as arguments and never spells a word.
"""

# CSS class on a widget -> the accessible name of the control inside it.
NAMES = {
    "sp-seed-input": "Seed",
    "sp-seed-down": "Previous seed",
    "sp-seed-up": "Next seed",
    "sp-threshold": "Lookahead threshold",
    "sp-lock": "Lock the scenario: controls shown but fixed",
}

TABS_LABEL = "Parts of the widget"

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
    return f"Keyboard: {keys}. Tab moves between controls; the arrow keys move between the tabs."


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
    "reset": "Reset button",
    "counters": "Work counters",
    "history": "Block history",
    "intro": "Title and introduction",
    "embed": "This embed form",
    "guide": "What to try",
}
PARTS_LABEL = "Parts to hide"
LOCK_LABEL = NAMES["sp-lock"]
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
