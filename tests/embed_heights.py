"""How tall each tab of the widget is in a frame, at the widths phones and course pages give it.

``app/embed/heights.json`` holds these figures; the build hands them to the page's loader,
which reserves that height for the frame from its first paint until the widget is drawn
(``web/loader.js``), so the host's text below an embed does not jump. The figures are
measured, not computed (the build has no browser): ``python tests/embed_heights.py``
measures them again under ``panel serve`` and writes the table; ``tests/test_embed_heights.py``
fails when the widget's layout has drifted from it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "app" / "embed" / "heights.json"
TABS = ("step", "exact", "payoff", "guesses")
WIDTHS = (320, 375, 414, 480, 600, 768, 900, 1024, 1200)

# The bottom of the page's content inside the frame, as app/page/page.js measures it.
CONTENT_JS = """() => { const bottom = (el) => { const s = getComputedStyle(el);
  if (s.display === "none" || s.position === "fixed") return 0;
  if (s.display === "contents") return Math.max(0, ...Array.from(el.children).map(bottom));
  return el.getBoundingClientRect().bottom + (parseFloat(s.marginBottom) || 0); };
  return Math.ceil(Math.max(0, ...Array.from(document.body.children).map(bottom)) + window.scrollY); }"""


def measure(browser, app_url, tab, width, settle_ms=1500):
    """The content height of the widget opened on ``tab`` in a frame ``width`` px wide, in px."""
    from embed_support import host_page, host_site, new_page

    tag = f'<iframe src="{app_url}?tab={tab}" title="specstep" style="border:0;width:{width}px;height:300px"></iframe>'
    with host_site({"notes.html": host_page([tag])}) as host:
        page = new_page(browser, width=max(width + 40, 400), height=900)
        try:
            page.goto(host + "notes.html")
            frame = page.frame_locator("iframe")
            selected = frame.get_by_role("tab", selected=True)
            selected.wait_for(timeout=90_000)
            name = selected.inner_text().strip()
            frame.get_by_text(f"Opening “{name}”").first.wait_for(state="detached", timeout=90_000)
            page.wait_for_timeout(settle_ms)
            inner = next(f for f in page.frames if f != page.main_frame)
            # Charts and panes arrive one by one (the payoff tab's in steps), later on a busy machine:
            # the height once it has held for 3 s.
            readings = [inner.evaluate(CONTENT_JS)]
            for _ in range(75):
                page.wait_for_timeout(400)
                readings.append(inner.evaluate(CONTENT_JS))
                if len(readings) >= 8 and len(set(readings[-8:])) == 1:
                    break
            return readings[-1]
        finally:
            page.context.close()


def load() -> dict:
    return json.loads(TABLE.read_text(encoding="utf-8"))


def write(table: dict):
    """The table as JSON, one line per tab (a re-measure reads as a short diff)."""
    rows = ",\n".join(f'  "{tab}": {json.dumps(r)}' for tab, r in table["tabs"].items())
    TABLE.write_text('{\n "note": ' + json.dumps(table["note"], ensure_ascii=False) + ',\n "tabs": {\n'
                     + rows + "\n }\n}\n", encoding="utf-8")


def main():
    sys.path.insert(0, str(ROOT / "tests"))
    sys.path.insert(0, str(ROOT))
    from embed_support import chromium, served_app

    table = {"note": "Content height (px) of each tab in a frame of each width, intro and embed form hidden "
                     "(as in a frame by default). Measured by tests/embed_heights.py; checked by "
                     "tests/test_embed_heights.py.", "tabs": {}}
    with served_app() as url, chromium() as browser:
        for tab in TABS:
            rows = []
            for width in WIDTHS:
                rows.append([width, measure(browser, url, tab, width)])
                print(tab, *rows[-1], flush=True)
            table["tabs"][tab] = rows
    write(table)
    print(f"wrote {TABLE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
