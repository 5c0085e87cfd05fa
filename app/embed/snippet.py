"""The HTML a teacher pastes into course notes: an iframe, and the few lines that size it.

The host script (``host.js`` beside this file) listens for the height the page
posts (``app/embed/page.js``) and sets the iframe's height to it, like
iframe-resizer or H5P's resizer. Without it the iframe still gets a height
that suits its width: the widget is taller on a narrow screen, so the CSS
height falls as the window widens (about 4,300 px at 375 px, 2,200 px from
1,200 px up).
"""

from pathlib import Path

from app.i18n import t
from app.theme import esc

HOST_JS = (Path(__file__).resolve().parent / "host.js").read_text(encoding="utf-8")
FALLBACK_HEIGHT = "max(2200px, calc(5200px - 250vw))"


def host_script():
    """``host.js`` without its comments, as one ``<script>`` element (safe to include twice)."""
    code = "\n".join(line for line in HOST_JS.splitlines() if not line.lstrip().startswith("//"))
    return "<script>\n" + code.strip() + "\n</script>"


def iframe(src, title=None):
    """The iframe element for ``src`` (the page's address with its query) with an accessible ``title``
    (by default the widget's, in the page's language)."""
    title = title or t("embed.iframe_title")
    src = src.replace('"', "%22").replace("<", "%3C").replace(">", "%3E")
    return (f'<iframe src="{src}" title="{esc(title)}" width="100%" '
            f'style="border:0;max-width:1200px;height:{FALLBACK_HEIGHT}" loading="lazy"></iframe>')


def snippet(src, title=None, caption=""):
    """The whole snippet: the iframe (in a figure with ``caption`` when one is given) and the host script."""
    frame = iframe(src, title)
    if caption.strip():
        frame = f"<figure>\n{frame}\n<figcaption>{esc(caption.strip())}</figcaption>\n</figure>"
    return frame + "\n" + host_script()

