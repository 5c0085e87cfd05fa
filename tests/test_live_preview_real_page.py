"""The live preview in the built page, real Pyodide 0.29.3 offline in Chromium (issue 27 item 1).

While Pyodide's files are held back (the worker cannot start), Next step and Step back answer at
once with the build's recorded moments, the URL follows (steps=N); when Python comes up it opens on
that moment and takes over with no visible change: the page's deep text and the token strip's DOM
just before and just after are identical. A control that needs Python says so where it was used,
and its change is made once Python is ready. A reader who changed nothing gets the drawn page kept:
the worker's first render is the pre-render, model for model, so nothing is drawn again.
"""

from __future__ import annotations

import statistics

import pytest
from playwright.sync_api import expect

from build_support.browser import Visit
from build_support.fixtures import chromium, site  # noqa: F401 (fixtures)
from build_support.live_page import STRIP_JS, TIMED_CLICK_JS
from build_support.real_site import prerendered_site, real_site
from build_support.servers import LocalServer
from test_prerender import PRERENDERED, ROOT_TEXT_JS
from test_step_back_real_page import SCREEN_JS

pytestmark = pytest.mark.browser

# Which control has the keyboard focus: its action class, its data-sp-open key, or its tag.
FOCUS_JS = """() => { const el = document.activeElement;
  if (!el) return null;
  const action = Array.from(el.classList || []).find((name) => name.startsWith('sp-action-'));
  return action || (el.getAttribute && el.getAttribute('data-sp-open')) || el.tagName; }"""

@pytest.fixture(scope="module")
def built():
    return real_site()


@pytest.fixture
def held(built):
    """Pyodide's server holds every request until the test lets it go: the page stays before Python."""
    built.pyodide.set_mode("hang")
    yield built.pyodide
    built.pyodide.set_mode("serve")


def open_live(chromium, site, viewport=(1200, 900), query=""):
    visit = Visit(chromium, viewport=viewport)
    visit.page.goto(site.url + "index.html" + query)
    visit.page.wait_for_function("performance.getEntriesByName('specstep:live').length > 0", timeout=30_000)
    return visit


def screen(visit):
    visit.page.mouse.move(0, 0)
    visit.page.wait_for_timeout(150)
    return visit.page.evaluate(SCREEN_JS)


def test_early_clicks_answer_from_the_recording_and_python_takes_over_with_no_change(chromium, site, built, held):
    visit = open_live(chromium, site)
    assert visit.page.evaluate("document.body.dataset.specstep") is None
    assert not visit.page.evaluate("document.querySelector('[data-root-id]').hasAttribute('inert')")
    assert "Play work already" in visit.status()
    start = screen(visit)
    assert "moment 0 of 6" in start
    shown = [start]
    for n in (1, 2, 3):
        ms = visit.page.evaluate(TIMED_CLICK_JS, "Next step")
        assert ms is not None, "the click was not answered from the recording"
        shown.append(screen(visit))
        assert f"moment {n} of 6" in shown[-1] and shown[-1] != shown[-2]
    assert "steps=3" in visit.page.url
    visit.button("Step back").click()  # as a reader does: the button has the focus
    back = screen(visit)
    assert back == shown[2], "Step back from moment 3 is not moment 2's screen as Next step showed it"
    assert "steps=2" in visit.page.url
    visit.shot("live_preview_1200")
    text, strip = visit.page.evaluate(ROOT_TEXT_JS), visit.page.evaluate(STRIP_JS)
    assert "chip" in strip and "bonus" in strip, strip
    focus = visit.page.evaluate(FOCUS_JS)

    held.set_mode("serve")
    visit.wait_ready()
    # The worker replayed the clicks before its first render: that document is drawn in place of the preview.
    assert visit.page.evaluate("document.body.dataset.specstepTakeover") == "drawn"
    visit.page.wait_for_timeout(300)
    assert visit.page.evaluate(ROOT_TEXT_JS) == text
    assert visit.page.evaluate(STRIP_JS) == strip
    assert "steps=2" in visit.page.url
    # The keyboard focus stays where it was, on the worker's own control.
    visit.page.wait_for_timeout(300)
    assert visit.page.evaluate(FOCUS_JS) == focus
    marks = visit.marks()
    assert marks["specstep:live"] < marks["specstep:ready"]
    assert visit.errors == [] and visit.elsewhere() == set()
    visit.close()


# Tag every element of the drawn widget (shadow roots too), and count how many still carry the tag.
TAG_DOM_JS = """() => { let n = 0; const tag = (root) => { for (const el of root.querySelectorAll('*')) {
  el.specstepSeen = true; n++; if (el.shadowRoot) tag(el.shadowRoot); } };
  document.querySelectorAll('[data-root-id]').forEach(tag); return n; }"""
TAGGED_JS = """() => { let seen = 0, all = 0; const count = (root) => { for (const el of root.querySelectorAll('*')) {
  all++; if (el.specstepSeen) seen++; if (el.shadowRoot) count(el.shadowRoot); } };
  document.querySelectorAll('[data-root-id]').forEach(count); return [seen, all]; }"""
EMBED_CODE_JS = """() => { const out = []; const find = (root) => { for (const el of root.querySelectorAll('*')) {
  if (el.tagName === 'TEXTAREA') out.push(el.value); if (el.shadowRoot) find(el.shadowRoot); } };
  find(document); return out.join('\\n'); }"""


def keeps_the_drawn_page(visit, site, moment_text):
    """Python comes up on a preview the reader has not touched: the page's elements are the same ones
    (none drawn again), the text too; then the address reaches the embed code and a click is Python's."""
    tagged = visit.page.evaluate(TAG_DOM_JS)
    assert tagged > 500, tagged
    text, strip = visit.page.evaluate(ROOT_TEXT_JS), visit.page.evaluate(STRIP_JS)
    visit.wait_ready()
    assert visit.page.evaluate("document.body.dataset.specstepTakeover") == "kept"
    seen, count = visit.page.evaluate(TAGGED_JS)
    assert seen == tagged == count, f"{tagged} elements before, {count} after, {seen} of them the same"
    assert visit.page.evaluate(ROOT_TEXT_JS) == text
    assert visit.page.evaluate(STRIP_JS) == strip
    # The worker rendered without the address (as the build did); the page's own reaches the embed code
    # (drawn when a teacher opens the form).
    visit.button("Write the embed code").click()
    visit.page.wait_for_function(f"() => ({EMBED_CODE_JS})().includes({site.url!r})", timeout=30_000)
    recorded = visit.page.evaluate("performance.getEntriesByName('specstep:live-click').length")
    visit.button("Next step").click()
    visit.page.wait_for_function("location.search.includes('steps=1')", timeout=30_000)
    assert moment_text in screen(visit)
    assert visit.page.evaluate("performance.getEntriesByName('specstep:live-click').length") == recorded, \
        "the click was answered by the recording after Python was up"
    assert visit.errors == [] and visit.elsewhere() == set()


def test_python_keeps_the_drawn_page_when_the_reader_changed_nothing(chromium, site, built, held):
    visit = open_live(chromium, site)
    held.set_mode("serve")
    keeps_the_drawn_page(visit, site, "moment 1 of 6")
    visit.close()


def test_run_block_and_the_timeline_answer_and_python_shows_the_same_sentence(chromium, site, built, held):
    visit = open_live(chromium, site, viewport=(375, 800))
    visit.page.evaluate(TIMED_CLICK_JS, "Run block")
    assert "moment 3 of 6" in screen(visit)
    visit.shot("live_preview_375_run_block")
    text, strip = visit.page.evaluate(ROOT_TEXT_JS), visit.page.evaluate(STRIP_JS)
    held.set_mode("serve")
    visit.wait_ready()
    visit.page.wait_for_timeout(300)
    assert visit.page.evaluate(ROOT_TEXT_JS) == text
    assert visit.page.evaluate(STRIP_JS) == strip
    visit.shot("live_preview_375_run_block_after_takeover")
    assert visit.errors == []
    visit.close()


def test_a_control_that_needs_python_says_so_in_place_and_is_applied_once_ready(chromium, site, built, held):
    visit = open_live(chromium, site)
    visit.page.get_by_role("tab", name="Why it is exact").click()
    wait = visit.page.locator(".specstep-live-wait")
    wait.wait_for(timeout=5_000)
    assert wait.inner_text().startswith("Starting Python…")
    visit.shot("live_preview_needs_python")
    held.set_mode("serve")
    visit.wait_ready()
    assert not visit.page.locator(".specstep-live-wait").count()
    visit.has_text("The claim of speculative sampling", timeout=60)  # the tab Python built when the change came
    assert visit.errors == []
    visit.close()


def test_twenty_early_clicks_are_all_answered_from_the_recording(chromium, site, built, held):
    """Each answered before the next frame; the time is printed (bench_build.py reports it; a test never fails on time)."""
    visit = open_live(chromium, site)
    times = []
    for i in range(20):
        times.append(visit.page.evaluate(TIMED_CLICK_JS, "Next step" if i % 12 < 6 else "Step back"))
    assert None not in times, times
    print(f"live preview: click -> screen median {statistics.median(times):.1f} ms, max {max(times):.1f} ms")
    visit.close()


def test_play_steps_through_the_recording_before_python(chromium, site, built, held):
    visit = open_live(chromium, site, query="?theme=dark")
    visit.button("Fast").click()
    visit.button("Play").click()
    visit.page.wait_for_function("location.search.includes('steps=3')", timeout=15_000)
    visit.button("Pause").click()
    visit.page.wait_for_timeout(800)
    moment = visit.page.evaluate("new URLSearchParams(location.search).get('steps')")
    visit.page.wait_for_timeout(800)
    assert visit.page.evaluate("new URLSearchParams(location.search).get('steps')") == moment
    assert f"moment {moment} of 6" in screen(visit)
    assert not visit.page.locator(".specstep-live-wait").count(), "Play or its speed asked for Python"
    visit.shot("live_preview_dark_after_play")
    visit.close()


def test_a_buttons_help_shown_on_hover_before_python_asks_nothing_of_it(chromium, site, built, held):
    # Hovering Draft or Play shows its help: BokehJS sets the help's Tooltip model visible, a change in
    # the document that is the page's own, not a reader's change to make again once Python is up.
    visit = open_live(chromium, site)
    for name in ("Draft", "Play"):
        visit.button(name).hover()
        visit.page.wait_for_timeout(1200)
    shown = visit.page.evaluate("""() => Bokeh.documents[0].all_models && [...Bokeh.documents[0].all_models]
        .some((m) => m.type === "Tooltip" && m.visible)""")
    assert shown, "no help was shown on hover: this test would not see the change it is about"
    assert not visit.page.locator(".specstep-live-wait").count(), "hovering a button asked for Python"
    assert "moment 0 of 6" in screen(visit)
    visit.close()


def test_a_prerendered_link_is_live_too_and_python_takes_over_with_no_change(chromium):
    built = prerendered_site()  # test_prerender's build, once per process
    built.pyodide.set_mode("hang")
    try:
        with LocalServer(built.out) as site:
            visit = open_live(chromium, site, query=PRERENDERED)
            assert "the biased draft, width 3, seed 1" in visit.page.evaluate(ROOT_TEXT_JS)
            for name in ("Next step", "Next step", "Run block", "Step back"):
                assert visit.page.evaluate(TIMED_CLICK_JS, name) is not None, name
            assert "steps=" in visit.page.url
            text, strip = visit.page.evaluate(ROOT_TEXT_JS), visit.page.evaluate(STRIP_JS)
            built.pyodide.set_mode("serve")
            visit.wait_ready()
            visit.page.wait_for_timeout(300)
            assert visit.page.evaluate(ROOT_TEXT_JS) == text
            assert visit.page.evaluate(STRIP_JS) == strip
            assert visit.errors == []
            visit.close()
    finally:
        built.pyodide.set_mode("serve")


def test_a_prerendered_link_opened_without_a_click_is_kept_too(chromium):
    built = prerendered_site()
    built.pyodide.set_mode("hang")
    try:
        with LocalServer(built.out) as site:
            visit = open_live(chromium, site, query=PRERENDERED)
            assert "the biased draft, width 3, seed 1" in visit.page.evaluate(ROOT_TEXT_JS)
            built.pyodide.set_mode("serve")
            keeps_the_drawn_page(visit, site, "moment 1 of ")
            visit.close()
    finally:
        built.pyodide.set_mode("serve")


def opener(visit, key):
    """The HTML button with data-sp-open="KEY" (Playwright's CSS locators reach into shadow roots)."""
    return visit.page.locator(f'[data-sp-open="{key}"]').first


def test_an_early_chip_is_opened_by_python_and_the_timeline_counts_afresh_after_takeover(chromium, site, built, held):
    """Opener clicks before Python: timeline moments answer from the recording, a chip waits for Python
    (page.js's K1|K2|KEY@n counts the preview's clicks; the worker's page counts its own from 1)."""
    visit = open_live(chromium, site)
    visit.page.evaluate(TIMED_CLICK_JS, "Next step")  # Draft: the chips are there
    opener(visit, "moment:2").click()
    assert "moment 2 of 6" in screen(visit)
    opener(visit, "moment:1").click()
    assert "moment 1 of 6" in screen(visit)
    assert opener(visit, "0:1").get_attribute("aria-current") is None
    opener(visit, "0:1").click()  # the second chip: the inspector needs Python
    visit.page.locator(".specstep-live-wait").wait_for(timeout=5_000)
    held.set_mode("serve")
    visit.wait_ready()
    expect(opener(visit, "0:1")).to_have_attribute("aria-current", "true", timeout=30_000)
    assert "moment 1 of 6" in screen(visit), "the takeover replayed an older moment of the preview"
    opener(visit, "moment:2").click()  # the worker's page: its first timeline click counts
    visit.page.wait_for_function("location.search.includes('steps=2')", timeout=30_000)
    assert "moment 2 of 6" in screen(visit)
    assert visit.errors == []
    visit.close()


def test_python_failing_before_the_preview_is_live_says_the_step_buttons_still_work(chromium, site, built):
    """Pyodide's server refuses at once, so the problem is said before the recorded moments arrive; once the
    preview is live, the message must not say its buttons do not respond (they do)."""
    from app.i18n import t

    built.pyodide.set_mode("fail")
    try:
        visit = open_live(chromium, site)
        problem = visit.page.locator(".specstep-problem")
        problem.wait_for(timeout=30_000)
        expect(problem).to_contain_text(t("loader.rest.preview_live"), timeout=10_000)
        expect(problem).not_to_contain_text(t("loader.rest.preview"))
        visit.page.evaluate(TIMED_CLICK_JS, "Next step")
        assert "moment 1 of 6" in screen(visit)
        visit.close()
    finally:
        built.pyodide.set_mode("serve")
