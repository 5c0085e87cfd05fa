"""The loader in the real page, real Pyodide, offline (issue 9 items 4 and 7): a link opens on
its own scenario, never showing the pre-rendered default's numbers first, and the loading
steps come in order while Python really downloads, starts and builds the widget.

The site is the session's shared build (``build_support/real_site.py``).
"""

from __future__ import annotations

import re

import pytest

from build_support.browser import Visit
from build_support.real_site import real_site
from build_support.fixtures import chromium, site  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

EXAMPLE = "?draft=biased&width=3&seed=1"

# From before the loader runs until the page is ready: every status text in order, and
# every frame in which a pre-rendered root was on screen while the placeholder still was.
MONITOR_JS = """
window.specstepWatch = { statuses: [], shownEarly: 0, placeholderSeen: false };
// Every status text, however briefly it stood (each worker message is a task of its own).
new MutationObserver(() => {
  const w = window.specstepWatch;
  const status = document.querySelector("#specstep-status .specstep-status-text");
  const text = status ? status.textContent : "";
  if (text && w.statuses[w.statuses.length - 1] !== text) w.statuses.push(text);
}).observe(document, { subtree: true, childList: true, characterData: true });
// Every frame until ready: was a pre-rendered root painted while the placeholder was due?
(function watch() {
  const w = window.specstepWatch;
  const placeholder = document.querySelector(".specstep-placeholder");
  if (placeholder) w.placeholderSeen = true;
  if (placeholder || !w.placeholderSeen) {
    for (const root of document.querySelectorAll("[data-root-id]")) {
      for (const child of root.children) {
        if (child.getClientRects().length > 0) w.shownEarly += 1;
      }
    }
  }
  if (!document.body || document.body.dataset.specstep !== "ready") requestAnimationFrame(watch);
})();
"""


@pytest.fixture(scope="module")
def built():
    return real_site()


def test_the_build_notes_the_prerendered_scenario_for_the_loader(built):
    loader = built.text("loader.js")
    assert re.search(r'"prerendered": \{[^}]*"draft": "aligned"', loader), "the loader cannot tell a link's scenario apart"


def test_a_link_opens_on_its_own_scenario_never_the_default_first(chromium, site):
    visit = Visit(chromium, init_script=MONITOR_JS)
    try:
        visit.page.goto(site.url + "index.html" + EXAMPLE)
        placeholder = visit.page.locator(".specstep-placeholder")
        placeholder.wait_for(timeout=15_000)
        assert placeholder.inner_text().startswith("Loading seed 1 with the biased draft and width 3…")
        visit.shot("link_placeholder_1200")
        visit.page.set_viewport_size({"width": 375, "height": 800})
        visit.shot("link_placeholder_375")
        visit.page.set_viewport_size({"width": 1200, "height": 900})
        visit.wait_ready()
        watch = visit.page.evaluate("window.specstepWatch")
        assert watch["placeholderSeen"]
        assert watch["shownEarly"] == 0, "the pre-rendered default scenario was on screen before Python was up"
        assert visit.page.locator(".specstep-placeholder").count() == 0
        # The link's scenario: the biased draft at seed 1 rejects in the first block (aligned never does).
        visit.button("Draft").click()
        visit.page.get_by_role("button", name="proposed").first.wait_for(timeout=15_000)
        visit.button("Verify").click()
        visit.page.get_by_role("button", name="rejected").first.wait_for(timeout=15_000)
        assert visit.errors == []
    finally:
        visit.close()


def test_the_prerendered_scenario_shows_its_preview_at_once(chromium, site):
    visit = Visit(chromium, init_script=MONITOR_JS)
    try:
        visit.page.goto(site.url + "index.html?draft=aligned")
        visit.button("Draft").first.wait_for(timeout=15_000)
        assert visit.page.locator(".specstep-placeholder").count() == 0
        visit.wait_ready()
        # The same watch that finds nothing early for another scenario's link sees this preview.
        assert visit.page.evaluate("window.specstepWatch.shownEarly") > 0
    finally:
        visit.close()


def test_the_steps_come_in_order_as_python_downloads_starts_and_builds(chromium, site):
    visit = Visit(chromium, init_script=MONITOR_JS)
    try:
        visit.page.goto(site.url + "index.html")
        visit.wait_ready()
        statuses = [s for s in visit.page.evaluate("window.specstepWatch.statuses") if s.startswith("Step ")]
        numbers = [int(s.split()[1]) for s in statuses]
        assert numbers == sorted(numbers) and numbers[0] == 1 and numbers[-1] == 4, statuses
        # The worker says when the download is over: "starting Python" is shown, not "downloading".
        assert 2 in numbers, statuses
        marks = visit.marks()
        for stage in ("start", "runtime", "runtime-start", "runtime-ready", "packages", "app", "ready"):
            assert f"specstep:{stage}" in marks, (stage, marks)
        assert marks["specstep:runtime"] <= marks["specstep:runtime-start"] <= marks["specstep:runtime-ready"]
        assert visit.page.evaluate("document.body.dataset.specstep") == "ready"
    finally:
        visit.close()
