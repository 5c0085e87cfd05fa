"""The built page in real Pyodide 0.29.3, offline, in Chromium (issue 10 item 1, issue 9's page tests).

The site is built once per session (``build_support/real_site.py``) with
``--pyodide-url`` pointing at a local Pyodide (npm core + the five real compiled
packages) on 127.0.0.1; Chromium resolves no other host. Expected numbers come from
``core`` on CPython.
"""

from __future__ import annotations

import json
import re
import time

import pytest

import core
from build_support.browser import Visit, click_and_measure
from html_support import widget_text_contrast
from build_support.real_site import real_site
from build_support.servers import LocalServer, wait_until
from build_support.fixtures import chromium, site, visit  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

EXAMPLE = "?draft=biased&width=3&seed=1"
EXACT, PAYOFF = "Why it is exact", "When it pays off"
ORIGIN_MARKS = {"✓": "accepted", "↺": "correction", "★": "bonus"}


@pytest.fixture(scope="module")
def built():
    return real_site()


def open_ready(visit, site, query=""):
    visit.page.goto(site.url + "index.html" + query)
    visit.wait_ready()
    return visit


def assert_clean(visit):
    assert visit.errors == [], visit.errors
    assert "Traceback" not in visit.text()
    assert visit.elsewhere() == set()


def test_the_page_becomes_interactive_offline_and_fetches_only_its_list(visit, site, built):
    built.pyodide.clear()
    site.clear()
    visit.page.goto(site.url + "index.html")
    visit.button("Draft").first.wait_for(timeout=15_000)
    assert "preview" in visit.status()  # it says what it shows while loading
    visit.wait_ready()
    assert visit.page.locator("#specstep-status").count() == 0
    marks = visit.marks()
    for stage in ("runtime", "runtime-start", "runtime-ready", "packages", "app", "ready"):
        assert f"specstep:{stage}" in marks, (stage, marks)
    assert marks["specstep:runtime-start"] <= marks["specstep:runtime-ready"] <= marks["specstep:ready"]
    # The runtime and the listed packages from the local Pyodide, each once; the bundle and the
    # slim standard library from the site.
    lock = json.loads((built.pyodide_folder / "pyodide-lock.json").read_text())["packages"]
    listed = {f"/pyodide/{lock[p['name']]['file_name']}" for p in built.packages["from_pyodide"]}
    allowed = {f"/pyodide/{name}" for name in ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm",
                                               "pyodide-lock.json")} | listed
    assert "/python_stdlib.zip" in site.requests
    fetched = built.pyodide.requests
    assert set(fetched) <= allowed and listed <= set(fetched), set(fetched) ^ allowed
    assert len(fetched) == len(set(fetched)), f"fetched twice: {sorted(fetched)}"
    # Our wheels' files come in the one bundle, downloaded once; the wheels themselves never.
    assert site.requests.count("/" + built.packages["bundle"]["file"]) == 1
    assert not [r for r in site.requests if r.startswith("/wheels/")]
    # The release's packages were unzipped by the page's second worker while Python started, each
    # checked against the lock the runtime is served with (web/worker.js): loadPackage did not install them.
    assert visit.page.evaluate("document.body.dataset.specstepInstalledBy") == "worker"
    assert_clean(visit)


def test_aligned_draft_verify_commit_commits_four_tokens(visit, site):
    open_ready(visit, site)
    for name in ("Draft", "Verify", "Commit"):
        visit.button(name).click()
        if name == "Draft":
            visit.page.get_by_role("button", name="proposed").first.wait_for(timeout=15_000)
    visit.has_text("4 of 8 tokens committed")
    visit.shot("aligned_committed")
    assert_clean(visit)


def test_the_biased_link_shows_the_rejection_the_correction_and_the_discarded_proposal(visit, site):
    open_ready(visit, site, EXAMPLE)
    visit.button("Draft").click()
    visit.page.get_by_role("button", name="proposed").first.wait_for(timeout=15_000)
    visit.button("Verify").click()
    for status in ("rejected", "correction", "discarded"):
        chips = visit.page.get_by_role("button", name=status)
        chips.first.wait_for(timeout=15_000)
        assert chips.count() == 1, status
    visit.shot("biased_seed1_verified")
    assert_clean(visit)


def committed_output(visit) -> list[tuple[str, str]]:
    """The committed tokens on screen with where each came from: [(token, origin)]."""
    strip = visit.page.locator('[aria-label="Committed output"]')
    strip.wait_for(timeout=15_000)
    text = strip.inner_text()
    return [(token, ORIGIN_MARKS[mark]) for token, mark in re.findall(r"([ABC])\s*([✓↺★])", text)]


def test_the_trace_on_screen_is_cores_trace_on_cpython(visit, site):
    trace = core.simulate("biased", 3, 1)
    open_ready(visit, site, EXAMPLE)
    visit.button("Run to end").click()
    counters = trace.counters
    visit.has_text(f"{len(trace.output)} of 8 tokens committed", f"This run used {counters.target_passes}",
                   f"plus {counters.draft_steps} cheap draft")
    expected = []
    for block in trace.blocks:
        origins = ["accepted"] * sum(p.status == "accepted" for p in block.proposals)
        origins += ["correction"] * (block.correction is not None) + ["bonus"] * (block.bonus is not None)
        expected += list(zip(block.committed, origins))
    assert committed_output(visit) == expected
    assert "".join(t for t, _ in expected) == "".join(trace.output)
    assert_clean(visit)


def test_why_it_is_exact_draws_a_sample_and_when_it_pays_off_answers_a_change_of_c(visit, site):
    from fractions import Fraction

    from core import payoff

    open_ready(visit, site)
    visit.page.locator(".bk-tab", has_text=EXACT).click()
    visit.has_text("Sampled 20,000 runs", timeout=60)
    visit.page.locator(".bk-tab", has_text=PAYOFF).click()
    visit.has_text(f"c = 0.10, width {payoff.payoff_table('aligned', Fraction('0.1')).best_width} is best",
                   timeout=60)
    handle = visit.page.locator(".noUi-handle").filter(visible=True).first  # the c slider: first on this tab
    handle.focus()
    handle.press("End")  # c = 1: drafting as slow as the target
    visit.has_text("c = 1.00", timeout=30)
    visit.shot("payoff_c_1")
    assert_clean(visit)


def test_a_click_of_next_step_is_at_most_three_patch_messages(visit, site):
    open_ready(visit, site, EXAMPLE)
    samples = [click_and_measure(visit, "Next step") for _ in range(5)]
    assert max(s["patches"] for s in samples) <= 3, samples


LAYOUTS_JS = "({...window.specstepLayoutBatch})"


def test_a_click_of_next_step_lays_the_page_out_once(visit, site):
    """Bokeh lays the page out for each moving change of a patch (2-7 per click, ~60 ms each):
    app/page/layout.js gathers them into one layout per patch."""
    open_ready(visit, site, EXAMPLE)
    first = visit.page.evaluate(LAYOUTS_JS)
    assert first["installed"], "layout.js did not install itself"
    for _ in range(5):
        before = visit.page.evaluate(LAYOUTS_JS)
        click_and_measure(visit, "Next step")
        after = visit.page.evaluate(LAYOUTS_JS)
        patches = after["patches"] - before["patches"]
        assert patches >= 1, (before, after)
        assert after["layouts"] - before["layouts"] <= patches, (before, after)
    # Without the batching each gathered request would have been a layout of its own.
    assert after["gathered"] - first["gathered"] > 2 * (after["patches"] - first["patches"]), (first, after)


def test_widget_text_is_readable_on_the_dark_page(visit, site):
    """Panel's inputs and outline buttons take the dark palette's ink, not Panel's light default."""
    open_ready(visit, site, EXAMPLE + "&theme=dark")
    visit.page.wait_for_timeout(500)  # page.js adds the palette to each shadow root on the next frame
    names, poor = widget_text_contrast(visit.page)
    assert {"Lookup", "Stop drafting early", "1"} <= names, names
    assert not poor, poor


def test_the_page_says_so_when_the_runtime_cannot_be_downloaded(visit, site, built):
    built.pyodide.set_mode("fail")
    try:
        visit.page.goto(site.url + "index.html")
        visit.page.wait_for_selector(".specstep-problem", timeout=30_000)
        assert "Python could not be downloaded from 127.0.0.1" in visit.status()
        assert visit.button("Draft").first.is_visible(), "the preview stays"
    finally:
        built.pyodide.set_mode("serve")


def test_the_page_says_so_when_the_runtime_hangs(chromium, site, built):
    built.pyodide.set_mode("hang")
    visit = Visit(chromium, init_script="window.specstepLoadTimeoutMs = 3000;")
    try:
        started = time.monotonic()
        visit.page.goto(site.url + "index.html")
        visit.page.wait_for_selector(".specstep-problem", timeout=30_000)
        assert time.monotonic() - started < 20
        assert "did not finish downloading within 3 seconds" in visit.status()
        assert visit.button("Draft").first.is_visible(), "the preview stays"
    finally:
        built.pyodide.set_mode("serve")
        visit.close()


def test_a_reload_with_the_servers_stopped_starts_from_the_service_workers_cache(visit, built):
    own = LocalServer(built.out)
    try:
        open_ready(visit, own)
        cached = """async () => {
            const names = await caches.keys();
            if (names.length !== 1) return [];
            const cache = await caches.open(names[0]);
            return (await cache.keys()).map((r) => r.url);
        }"""
        wanted = ("python.tar.gz", "numpy-", "pyodide.asm.wasm", "python_stdlib.zip", "index.html")
        assert wait_until(lambda: all(any(w in u for u in visit.page.evaluate(cached)) for w in wanted), 60), \
            visit.page.evaluate(cached)
        own.stop()
        built.pyodide.set_mode("fail")
        visit.page.reload()
        visit.wait_ready()
        visit.button("Draft").click()
        visit.page.get_by_role("button", name="proposed").first.wait_for(timeout=15_000)
    finally:
        built.pyodide.set_mode("serve")
        own.stop()


def test_embed_page_shows_the_widget_in_its_iframe(visit, site):
    visit.page.goto(site.url + "embed.html")
    frame = visit.page.frame_locator("#example")
    visit.page.locator("#example").scroll_into_view_if_needed()
    # Its link names another scenario than the pre-rendered one: the widget shows once Python is up.
    frame.get_by_role("button", name="Draft", exact=True).first.wait_for(timeout=180_000)
    assert visit.page.locator("#example").get_attribute("src") == "index.html" + EXAMPLE
    assert site.url + "index.html" + EXAMPLE in visit.page.locator("#snippet").inner_text()
