"""The buttons of an HTML fragment, as a browser and a screen reader see them (for view tests)."""

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
