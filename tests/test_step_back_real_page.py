"""Step back and the timeline in the built page, real Pyodide 0.29.3 offline in Chromium (issue 26).

5 x Next step, then Step back, shows the screen of 4 x Next step; a jump on the timeline and Step back
are one patch each. Prints click -> last patch and the worker's Python time (median of the clicks).
"""

from __future__ import annotations

import statistics

import pytest

from build_support.browser import click_and_measure
from build_support.fixtures import chromium, site, visit  # noqa: F401 (fixtures)
from build_support.real_site import real_site

pytestmark = pytest.mark.browser

EXAMPLE = "?draft=biased&width=3&seed=1"

# The page's visible text, shadow roots included, without the hidden input a chip's or a moment's
# click writes to, and without hover tooltips.
SCREEN_JS = """() => {
  const parts = [];
  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) { parts.push(node.textContent); return; }
    if (node.nodeType !== Node.ELEMENT_NODE && node.nodeType !== Node.DOCUMENT_FRAGMENT_NODE) return;
    if (node.tagName === 'SCRIPT' || node.tagName === 'STYLE') return;
    if (node.classList && (node.classList.contains('sp-open') || node.classList.contains('bk-tooltip'))) return;
    if (node.shadowRoot) walk(node.shadowRoot);
    for (const child of node.childNodes) walk(child);
    if (node.tagName === 'TEXTAREA' || node.tagName === 'INPUT') parts.push(node.value || '');
  };
  walk(document.body);
  return parts.join(' ').replace(/\\s+/g, ' ');
}"""


@pytest.fixture(scope="module")
def built():
    return real_site()


def screen(visit):
    visit.page.mouse.move(0, 0)
    visit.page.wait_for_timeout(200)
    return visit.page.evaluate(SCREEN_JS)


def test_step_back_after_five_next_steps_is_four_next_steps_and_one_patch(visit, site, built):
    visit.page.goto(site.url + "index.html" + EXAMPLE)
    visit.wait_ready()
    steps = [click_and_measure(visit, "Next step") for _ in range(4)]  # the baseline: an ordinary click
    four = screen(visit)
    assert "moment 4 of" in four
    click_and_measure(visit, "Next step")
    assert screen(visit) != four
    back = click_and_measure(visit, "Step back")
    assert screen(visit) == four
    assert "steps=4" in visit.page.url
    assert back["patches"] == 1, back
    samples = [back]
    jumps = []
    for n in (12, 2, 7, 0, 5, 9, 1, 11, 3, 6):
        jumps.append(click_and_measure(visit, f"Moment {n}: " + ("the start" if n == 0 else _short(n))))
    for _ in range(5):
        samples.append(click_and_measure(visit, "Step back"))
    assert all(s["patches"] == 1 for s in samples + jumps), samples + jumps
    for what, runs in (("Next step", steps), ("Step back", samples), ("timeline jump", jumps)):
        print(f"{what}: click -> last patch median {statistics.median(s['last_patch_ms'] for s in runs):.0f} ms, "
              f"Python median {statistics.median(s['python_ms'] for s in runs):.1f} ms, "
              f"patches {max(s['patches'] for s in runs)}")
    assert visit.errors == [], visit.errors


def _short(n):
    """The accessible name's second half for moment n of biased/3/seed 1 (blocks of three moments)."""
    block, phase = (n - 1) // 3 + 1, (n - 1) % 3
    return f"block {block} " + ("drafted", "checked", "committed")[phase]
