"""Colours, letters and CSS shared by every view.

Each token keeps one colour everywhere (chips, charts, tables) and always
appears with its letter, so colour is never the only cue. The colours are
from the Okabe-Ito palette (Okabe & Ito 2008, "Color Universal Design"),
which stays distinguishable for the common kinds of colour blindness.
Text colours are chosen for WCAG AA contrast on their backgrounds.
"""

# Token -> (fill, text on fill, light tint, dark ink for text on the tint)
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


def _token_rules():
    rules = []
    for token, (fill_, on_fill, tint_, ink) in TOKEN_COLOURS.items():
        rules.append(
            f".tok-{token} {{ --fill: {fill_}; --on-fill: {on_fill}; --tint: {tint_}; --ink: {ink}; }}"
        )
    return "\n".join(rules)


# Shared by every HTML pane and chip; Panel puts each component in its own
# shadow root, so views pass this in `stylesheets=` rather than relying on
# page-level CSS.
CSS = _token_rules() + f"""
:host {{ font-family: {FONT}; color: {INK}; font-size: 15px; line-height: 1.45; }}
.muted {{ color: {MUTED}; }}
.small {{ font-size: 0.86rem; }}
.nowrap {{ white-space: nowrap; }}
.mono {{ font-family: {MONO}; font-variant-numeric: tabular-nums; }}
h1, h2, h3 {{ color: {INK}; margin: 0; }}
h2 {{ font-size: 1.15rem; font-weight: 650; letter-spacing: -0.01em; }}
h3 {{ font-size: 1rem; font-weight: 650; }}
p {{ margin: 0.35em 0; line-height: 1.5; }}
.section-title {{ display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 12px; margin-bottom: 6px; }}
.section-title .muted {{ font-size: 0.86rem; }}

/* token chips: the letter is always shown */
.chip {{
  display: inline-flex; align-items: center; justify-content: center;
  min-width: 2.1em; height: 2.1em; padding: 0 0.35em; box-sizing: border-box;
  border-radius: 8px; font-weight: 700; font-size: 1.05rem;
  background: var(--fill); color: var(--on-fill); border: 2px solid var(--fill);
}}
.chip.sm {{ min-width: 1.7em; height: 1.7em; font-size: 0.9rem; border-radius: 6px; }}
.chip.proposed {{ background: var(--tint); color: var(--ink); border-style: dashed; }}
.chip.rejected {{ background: #fff; color: var(--ink); text-decoration: line-through; text-decoration-thickness: 2px; }}
.chip.discarded {{ background: #fff; color: {MUTED}; border: 2px dashed #9aa3ad; opacity: 0.75; }}
.chip.ghost {{ background: #fff; color: {MUTED}; border: 2px dashed {LINE}; font-weight: 400; }}

.strip {{ display: flex; flex-wrap: wrap; align-items: flex-start; gap: 14px 18px; }}
.block-group {{ display: flex; flex-direction: column; gap: 4px; }}
.block-group .tokens {{ display: flex; gap: 4px; }}
.committed {{ display: inline-flex; flex-direction: column; align-items: center; }}
.committed .origin {{ font-size: 0.72rem; color: {MUTED}; line-height: 1.2; }}
.block-group .label {{ font-size: 0.8rem; color: {MUTED}; border-top: 2px solid {LINE}; padding-top: 3px; }}
.empty-note {{ color: {MUTED}; font-style: italic; }}

/* legend of chip states */
.legend {{ display: flex; flex-wrap: wrap; gap: 6px 16px; font-size: 0.84rem; color: {MUTED}; }}
.legend span.item {{ display: inline-flex; align-items: center; gap: 6px; }}

/* caption */
.caption {{ font-size: 1.02rem; line-height: 1.5; }}
.caption .happened {{ font-weight: 500; }}
.caption .next {{ color: {INK}; margin-top: 4px; }}
.caption .next b {{ color: {ACCENT}; }}
.phases {{ display: flex; flex-wrap: wrap; gap: 6px; margin-bottom: 8px; font-size: 0.82rem; }}
.phase {{ padding: 2px 10px; border-radius: 999px; border: 1px solid {LINE}; color: {MUTED}; background: #fff; }}
.phase.now {{ background: {ACCENT}; border-color: {ACCENT}; color: #fff; font-weight: 600; }}
.phase.done {{ color: {INK}; background: #eef2f6; }}
.limit {{ margin-top: 8px; padding: 8px 12px; border-radius: 8px; background: #fff4e5; border: 1px solid #f0c36d; color: #5c3b00; }}
.notice {{ padding: 8px 12px; border-radius: 8px; background: #fdecea; border: 1px solid #e7a6a1; color: #6b1a17; }}
.notice.info {{ background: #eaf2fb; border-color: #a9c7ea; color: #163e66; }}

/* inspector */
table.rows {{ border-collapse: collapse; font-variant-numeric: tabular-nums; width: 100%; max-width: 560px; }}
table.rows th, table.rows td {{ padding: 6px 10px; text-align: right; border-bottom: 1px solid {LINE}; }}
table.rows th:first-child, table.rows td:first-child {{ text-align: left; }}
table.rows .desc {{ color: {MUTED}; font-size: 0.8rem; font-weight: 400; display: block; }}
table.rows tbody th {{ font-weight: 650; text-align: left; }}
table.rows .picked {{ background: #fff8d6; }}
table.rows thead th {{ font-weight: 650; }}
dl.facts {{ display: grid; grid-template-columns: minmax(6.5em, max-content) minmax(0, 1fr); gap: 6px 14px; margin: 8px 0; }}
dl.facts dt {{ color: {MUTED}; }}
dl.facts dd {{ margin: 0; font-variant-numeric: tabular-nums; }}
.verdict {{ display: inline-block; font-weight: 700; padding: 1px 8px; border-radius: 6px; }}
.verdict.accepted {{ color: {ACCEPT}; background: #e6f4ea; }}
.verdict.rejected {{ color: {REJECT}; background: #fdecea; }}
.verdict.discarded, .verdict.proposed {{ color: {MUTED}; background: #eef1f4; }}
.verdict.bonus {{ color: #4a2a7a; background: #efe8fa; }}
.explain {{ background: #f7f9fb; border-left: 4px solid {LINE}; padding: 8px 12px; border-radius: 0 8px 8px 0; }}
ol.guide {{ margin: 6px 0 10px; padding-left: 1.4em; }}
ol.guide li {{ margin: 4px 0; line-height: 1.5; }}
.prefix {{ display: inline-flex; flex-wrap: wrap; gap: 4px; align-items: center; vertical-align: middle; }}
.prefix .sep {{ color: {MUTED}; padding: 0 2px; }}

/* counters */
.counters {{ display: grid; gap: 8px; }}
.counters.headline {{ grid-template-columns: repeat(auto-fit, minmax(110px, 1fr)); margin: 8px 0; }}
.counters.details {{ grid-template-columns: repeat(auto-fill, minmax(96px, 1fr)); }}
.counter {{ background: #f7f9fb; border: 1px solid {LINE}; border-radius: 10px; padding: 8px 10px; }}
.counter.key {{ background: #f2f7fd; border-color: #c9dcf2; }}
.counter .n {{ font-size: 1.5rem; font-weight: 700; font-variant-numeric: tabular-nums; line-height: 1.2; }}
.counter.sm {{ padding: 6px 9px; }}
.counter.sm .n {{ font-size: 1.1rem; }}
.counter .what {{ font-size: 0.8rem; color: {MUTED}; line-height: 1.3; }}
.compare {{ margin-top: 10px; font-size: 0.92rem; }}

/* embed snippet */
code {{ font-family: {MONO}; font-size: 0.9em; background: #eef1f4; padding: 1px 4px; border-radius: 4px; }}
"""

# The card look for layout containers (Column/FlexBox) that hold widgets.
CARD = f"""
:host {{
  background: #ffffff; border: 1px solid {LINE}; border-radius: 14px;
  box-shadow: 0 1px 2px rgba(16, 24, 40, 0.05);
  padding: 14px clamp(10px, 2.5vw, 20px); box-sizing: border-box;
}}
"""

CAPTION_CARD = f"""
:host {{
  background: #f2f7fd; border: 1px solid #c9dcf2; border-left: 5px solid {ACCENT};
  border-radius: 12px; padding: 12px clamp(10px, 2.5vw, 18px); box-sizing: border-box;
}}
"""

# Action buttons: larger, with a readable disabled state (still clearly inactive).
# Panel's button.css styles `:host(.solid) .bk-btn.bk-btn-default`, hence the
# matching selectors here.
BUTTON = f"""
.bk-btn {{ font-size: 0.95rem; padding: 7px 16px; border-radius: 8px; font-weight: 600; }}
:host(.solid) .bk-btn.bk-btn-default {{ background: #ffffff; border: 1px solid #9aa5b1; color: {INK}; }}
:host(.solid) .bk-btn.bk-btn-default:hover {{ background: #f2f6fb; }}
:host(.solid) .bk-btn.bk-btn-primary {{ background: {ACCENT}; border: 1px solid {ACCENT}; color: #ffffff; }}
:host(.solid) .bk-btn.bk-btn-primary:hover {{ background: #094c8f; }}
.bk-btn:focus-visible {{ outline: 3px solid #f0b400; outline-offset: 2px; }}
:host(.solid) .bk-btn[disabled] {{ opacity: 1; background: #f1f3f5; border: 1px dashed #c3cad3;
  color: #5b6472; cursor: not-allowed; box-shadow: none; }}
"""

TABS = f"""
.bk-header {{ border-bottom: 1px solid {LINE}; }}
.bk-tab {{ font-size: 0.98rem; padding: 8px 16px; color: {MUTED}; border: none; border-bottom: 3px solid transparent;
  background: transparent; }}
.bk-tab.bk-active {{ color: {INK}; font-weight: 650; border: none; border-bottom: 3px solid {ACCENT};
  background: transparent; }}
.bk-tab:focus-visible {{ outline: 3px solid #f0b400; outline-offset: -3px; }}
/* On a phone the three titles wrap onto two lines instead of scrolling sideways. */
.bk-headers-wrapper, .bk-header {{ flex-wrap: wrap; overflow: visible; }}
@media (max-width: 520px) {{ .bk-tab {{ padding: 6px 10px; font-size: 0.92rem; }} }}
"""


def chip_button_css(token, status):
    """CSS for a proposal chip drawn as a real button (Tab, Enter and Space work)."""
    fill_, on_fill, tint_, ink = TOKEN_COLOURS[token]
    if status == "proposed":
        body = f"background: {tint_}; color: {ink}; border: 2px dashed {fill_};"
    elif status == "rejected":
        body = f"background: #fff; color: {ink}; border: 2px solid {fill_};"
    elif status == "discarded":
        body = f"background: #fff; color: {MUTED}; border: 2px dashed #9aa3ad;"
    else:  # accepted, correction, bonus
        body = f"background: {fill_}; color: {on_fill}; border: 2px solid {fill_};"
    strike = "text-decoration: line-through; text-decoration-thickness: 2px;" if status == "rejected" else ""
    if status == "discarded":
        strike = "color: #8a939e;"  # faded letter; large text keeps 3:1 on white
    return f"""
:host(.solid) .bk-btn.bk-btn-default, .bk-btn {{ {body} white-space: pre-line; line-height: 1.15; min-width: 76px; padding: 6px 8px 7px;
  border-radius: 10px; font-size: 0.78rem; font-weight: 600; box-shadow: none; }}
.bk-btn::first-line {{ font-size: 1.45rem; font-weight: 800; {strike} }}
.bk-btn:hover {{ filter: brightness(0.95); }}
.bk-btn:focus-visible {{ outline: 3px solid #f0b400; outline-offset: 2px; }}
"""


SELECTED_CHIP = """
.bk-btn { box-shadow: 0 0 0 3px #ffffff, 0 0 0 5px #1b1f24 !important; }
"""

# Page-level CSS (document head): background and the tab strip.
PAGE_CSS = f"""
body {{ background: {PAGE}; font-family: {FONT}; color: {INK}; margin: 0; }}
"""


def esc(text):
    """Escape text for HTML: everything shown passes through here (URL-borne text included)."""
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#x27;"))


def chip(token, kind="", title=""):
    """A token chip: the letter on its colour; ``kind`` is a CSS state (proposed, discarded, sm...)."""
    label = f' title="{esc(title)}"' if title else ""
    return f'<span class="chip tok-{esc(token)} {esc(kind)}"{label}>{esc(token)}</span>'
