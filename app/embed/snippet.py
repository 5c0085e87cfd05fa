"""The HTML a teacher pastes into course notes: an iframe, and the few lines that size it.

The host script (``host.js`` beside this file) listens for the height the page
posts (``app/page/page.js``) and sets the iframe's height to it, like
iframe-resizer or H5P's resizer. Without it the iframe still gets a height
that suits its width: the widget is taller on a narrow screen, so the CSS
height falls as the window widens (about 4,300 px at 375 px, 2,200 px from
1,200 px up). It also tells the frame the host page's colour scheme, and follows
it, so a dark course site gets a dark widget.

The iframe carries ``data-specstep`` (with the page's origin when the address
has one): the host script sizes only frames so marked, from that origin. A
caption's ``<figure>`` is as wide as the column: hosts style figures to fit their
content (MkDocs Material's ``width: fit-content``), which would shrink the
frame to the caption's width and give a wide screen the phone layout.
"""

from pathlib import Path
from urllib.parse import urlsplit

from app.i18n import t
from app.theme import esc

HOST_JS = (Path(__file__).resolve().parent / "host.js").read_text(encoding="utf-8")
FALLBACK_HEIGHT = "max(2200px, calc(5200px - 250vw))"
MAX_WIDTH = "1200px"


def host_script():
    """``host.js`` without its comments, as one ``<script>`` element (safe to include twice)."""
    code = "\n".join(line for line in HOST_JS.splitlines() if not line.lstrip().startswith("//"))
    return "<script>\n" + code.strip() + "\n</script>"


def iframe(src, title=None):
    """The iframe element for ``src`` (the page's address with its query) with an accessible ``title``
    (by default the widget's, in the page's language)."""
    title = title or t("embed.iframe_title")
    src = src.replace('"', "%22").replace("<", "%3C").replace(">", "%3E")
    return (f'<iframe src="{src}" title="{esc(title)}" data-specstep="{esc(origin(src))}" width="100%" '
            f'style="border:0;width:100%;max-width:{MAX_WIDTH};height:{FALLBACK_HEIGHT}" loading="lazy"></iframe>')


def origin(src):
    """``scheme://host[:port]`` of an absolute http(s) address, else "" (a relative one: any origin)."""
    parts = urlsplit(src)
    return f"{parts.scheme}://{parts.netloc}".lower() if parts.scheme in ("http", "https") and parts.netloc else ""


def snippet(src, title=None, caption=""):
    """The whole snippet: the iframe (in a figure with ``caption`` when one is given) and the host script."""
    frame = iframe(src, title)
    if caption.strip():
        frame = (f'<figure style="display:block;width:100%;max-width:{MAX_WIDTH};margin:1em 0">\n{frame}\n'
                 f"<figcaption>{esc(caption.strip())}</figcaption>\n</figure>")
    return frame + "\n" + host_script()

