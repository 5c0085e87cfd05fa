"""The dark palette's button colours, read from app/styles/page.css, keep white text readable.

A primary or next-action button is white on the accent; the mouse stays over a button
after a click, so its hover colour is what a reader (and axe-core, after Commit) sees.
"""

import re
from pathlib import Path

import pytest

from html_support import contrast

PAGE_CSS = (Path(__file__).resolve().parents[1] / "app" / "styles" / "page.css").read_text(encoding="utf-8")


def dark_blocks():
    """Every block of page.css that defines the dark palette (the data-theme one and the media query's)."""
    blocks = re.findall(r"(?:data-theme=\"dark\"\]|:not\(\[data-theme=\"light\"\]\))\s*\{([^}]*)\}", PAGE_CSS)
    assert len(blocks) == 2, "page.css defines the dark palette twice: theme=dark and the reader's setting"
    return [dict(re.findall(r"--sp-([\w-]+):\s*(#[0-9a-fA-F]{6})", block)) for block in blocks]


@pytest.mark.parametrize("name", ["accent", "accent-hover"])
def test_white_button_text_is_readable_on_the_dark_accent_and_its_hover(name):
    for palette in dark_blocks():
        assert contrast("#ffffff", palette[name]) >= 4.5, f"white on --sp-{name} {palette[name]}"


def test_both_dark_palettes_are_the_same():
    first, second = dark_blocks()
    assert first == second
