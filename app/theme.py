"""Colours, letters and the page's stylesheets, shared by every view.

Each token keeps one colour everywhere (chips, charts, tables) and always
appears with its letter, so colour is never the only cue. The colours are
from the Okabe-Ito palette (Okabe & Ito 2008, "Color Universal Design"),
which stays distinguishable for the common kinds of colour blindness.
Text colours are chosen for WCAG AA contrast on their backgrounds.

The CSS itself lives in ``app/styles/*.css``, read once at import; the
names below (``CSS``, ``CARD``, ...) are those files' text, which views pass
as ``stylesheets=``. Charts, drawn by Bokeh rather than CSS, use the
Python colours.
"""

import re
from functools import lru_cache
from pathlib import Path

# Token -> (fill, text on fill, light tint, dark ink for text on the tint).
# app/styles/chips.css and chip_button.css hold the same four per token (a test checks).
TOKEN_COLOURS = {
    "A": ("#0072B2", "#ffffff", "#e1eef7", "#004a75"),
    "B": ("#E69F00", "#1b1f24", "#fcf0d6", "#6b4a00"),
    "C": ("#009E73", "#1b1f24", "#dcf2ea", "#005c43"),
}


def fill(token):
    return TOKEN_COLOURS[token][0]


def tint(token):
    return TOKEN_COLOURS[token][2]


def ink(token):
    """Dark shade of the token's colour: text on its tint, and bar outlines (over 3:1 on white)."""
    return TOKEN_COLOURS[token][3]


INK = "#1b1f24"  # body text, 15.9:1 on white
MUTED = "#4b5563"  # secondary text, 7.6:1 on white
LINE = "#d9dee5"
PAGE = "#f5f7fa"
ACCENT = "#0b5cad"  # primary actions, 6.6:1 with white text
REJECT = "#a4262c"  # rejection wording, 7.2:1 on white
ACCEPT = "#1d6b3a"  # acceptance wording, 6.5:1 on white

FONT = ('system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, '
        '"Noto Sans", sans-serif')
MONO = 'ui-monospace, "SFMono-Regular", Menlo, Consolas, "Liberation Mono", monospace'

STYLES = Path(__file__).resolve().parent / "styles"


@lru_cache(maxsize=None)
def stylesheet(name):
    """The text of ``app/styles/NAME.css``, without comments and spare blanks (read once): each pane carries
    its own copy."""
    text = (STYLES / f"{name}.css").read_text(encoding="utf-8")
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"\s+", " ", text)
    return re.sub(r" ?([{};,>]) ?", r"\1", text).replace(": ", ":").strip()


# HTML panes: BASE always, plus the sheet of what the pane shows.
BASE = stylesheet("base")
CHIPS = stylesheet("chips")
CAPTION = stylesheet("caption")
INSPECTOR = stylesheet("inspector")
COUNTERS = stylesheet("counters")
CSS = "\n".join((BASE, CHIPS, CAPTION, INSPECTOR, COUNTERS))  # all of them (the other tabs' panes)
CHART_TITLE = stylesheet("chart_title")  # a chart's title, above its plot (parts.ChartTitle)
BARS = stylesheet("bars")  # the inspector's bar charts, drawn in HTML (app/step/bars.py)
CARD = stylesheet("card")  # a white card around a group of controls or panes
CAPTION_CARD = stylesheet("caption_card")
BUTTON = stylesheet("button")
HISTORY = stylesheet("history")  # the block history's lines
TABS = stylesheet("tabs")
PAGE_CSS = stylesheet("page")  # document head
PRESENT = stylesheet("present")  # document head, and every pane while presenting (app/page/present.js)
PAGE_COLUMN = stylesheet("page_column")
MONO_INPUT = stylesheet("mono_input")
SEED_INPUT = stylesheet("seed_input")
WIDGET_VARS = stylesheet("widget_vars")  # added to every shadow root by app/page/page.js
CHECK_GROUP = stylesheet("check_group")
GUIDE = stylesheet("guide")
ACTION_BAR = stylesheet("action_bar")
FOLD = stylesheet("fold")  # folds the lookahead field on a phone while it is off
PHONE_ONLY = stylesheet("phone_only")  # shown only at a phone's width (the jump to the inspector)
PREDICT = stylesheet("predict")  # Predict first: the call buttons and the verdicts
TABLE_CELL = stylesheet("table_cell")  # a box of the table editor: its label kept for screen readers only
SMALL_BUTTON = stylesheet("small_button")  # after BUTTON: a row's "Normalise"
TABLES_EDITOR = stylesheet("tables_editor")  # the table editor's headings, messages and preview


def esc(text):
    """Escape text for HTML: everything shown passes through here (URL-borne text included)."""
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#x27;"))


def chip(token, kind="", title=""):
    """A token chip: the letter on its colour; ``kind`` is a CSS state (proposed, discarded, sm...)."""
    label = f' title="{esc(title)}"' if title else ""
    return f'<span class="chip tok-{esc(token)} {esc(kind)}"{label}>{esc(token)}</span>'
