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
