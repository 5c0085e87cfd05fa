"""HTML as a reader meets it: the buttons of a fragment (view tests), the contrast of widget text (browser tests)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser


@dataclass(frozen=True)
class Button:
    classes: frozenset[str]
    key: str | None  # data-sp-open: what a click opens (app/parts.py Opener)
    text: str  # its accessible name from its content
    current: bool  # aria-current="true"
    title: str | None


class _Buttons(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[Button] = []
        self._open: dict | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "button":
            self._open = {"attrs": dict(attrs), "text": []}

    def handle_data(self, data):
        if self._open is not None:
            self._open["text"].append(data)

    def handle_endtag(self, tag):
        if tag == "button" and self._open is not None:
            attrs = self._open["attrs"]
            assert attrs.get("type") == "button", "an HTML button says type=button (it submits nothing)"
            self.found.append(Button(frozenset((attrs.get("class") or "").split()), attrs.get("data-sp-open"),
                                     re.sub(r"\s+", " ", "".join(self._open["text"])).strip(),
                                     attrs.get("aria-current") == "true", attrs.get("title")))
            self._open = None


def buttons(fragment: str) -> list[Button]:
    """The ``<button>``s of ``fragment`` in reading order."""
    parser = _Buttons()
    parser.feed(fragment)
    parser.close()
    return parser.found


WIDGET_TEXT_JS = """
() => {
  const clear = (c) => !c || c === "transparent" || c === "rgba(0, 0, 0, 0)";
  const up = (n) => n.parentElement || (n.getRootNode() && n.getRootNode().host) || null;
  const background = (el) => {
    for (let n = el; n; n = up(n)) {
      const c = getComputedStyle(n).backgroundColor;
      if (!clear(c)) return c;
    }
    return getComputedStyle(document.body).backgroundColor;
  };
  const out = [];
  const visit = (root) => {
    for (const el of root.querySelectorAll("*")) {
      if (el.shadowRoot) visit(el.shadowRoot);
      const text = el.tagName === "INPUT" ? el.value : el.textContent.trim();
      const widget = (el.tagName === "INPUT" && el.classList.contains("bk-input") && el.type !== "checkbox")
        || (el.tagName === "BUTTON" && el.classList.contains("bk-btn"));
      if (widget && text && !el.disabled && el.checkVisibility()) {
        out.push([text.slice(0, 30), getComputedStyle(el).color, background(el)]);
      }
    }
  };
  visit(document);
  return out;
}
"""


def rgb_hex(css):
    """``rgb(r, g, b)``, ``rgba(...)`` or ``color(srgb r g b)`` (a color-mix) as #rrggbb."""
    inner = css[css.index("(") + 1:css.index(")")]
    if inner.startswith("srgb "):
        return "#" + "".join(f"{round(float(v) * 255):02x}" for v in inner.split()[1:4])
    return "#" + "".join(f"{int(float(v)):02x}" for v in inner.split(",")[:3])


def contrast(a, b):
    """WCAG 2 contrast ratio of two #rrggbb colours."""
    def luminance(colour):
        channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def widget_text_contrast(page, least=4.5):
    """The texts of the page's enabled inputs and buttons, and those below ``least`` contrast with their background."""
    rows = page.evaluate(WIDGET_TEXT_JS)
    poor = [(text, colour, back, round(contrast(rgb_hex(colour), rgb_hex(back)), 2)) for text, colour, back in rows
            if contrast(rgb_hex(colour), rgb_hex(back)) < least]
    return {text for text, _, _ in rows}, poor
