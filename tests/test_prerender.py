"""``build.py --prerender QUERY``: a link to a pre-rendered scenario shows its own numbers at once (issue 9 item 4).

The queries are read as app/urlstate.py reads a link; a bad one stops the build
with one line. In the real page (real Pyodide 0.29.3, offline, Chromium): while
Python is held back, a link to a pre-rendered scenario shows that scenario, the
same text the worker then renders; a link to another scenario shows only the calm
placeholder; the loader reads a link's values as the app does, or not at all.
"""

from __future__ import annotations

import json

import pytest

from app import urlstate
from build_support.real_site import CUSTOM_QUERY, prerendered_site, run_build
from build_support.servers import wait_until
from build_support.fixtures import chromium, held, site, visit  # noqa: F401 (fixtures)
from sitebuild.prerender import read_queries, read_query
from sitebuild.project import BuildError

PRERENDERED = "?draft=biased&width=3&seed=1"
# A teacher's own tables (issue 29), in the canonical form the build writes and the loader matches.
CUSTOM = CUSTOM_QUERY


# ---- reading --prerender ------------------------------------------------------------

def test_a_query_is_read_into_the_apps_canonical_form():
    scenario = read_query("draft=Biased&width=03&seed=1&draft_hide=1")
    assert scenario.query == PRERENDERED
    defaults = {prop.name: prop.format(urlstate.DEFAULTS[prop.name]) for prop in urlstate.PROPS}
    assert scenario.values == {**defaults, "draft": "biased", "width": "3", "seed": "1"}
    assert scenario.file == "prerender/draft-biased_width-3_seed-1.json"


def test_lookahead_and_steps_are_written_as_the_url_writes_them():
    scenario = read_query("?seed=2&lookahead=.5&steps=4&draft=biased")
    assert scenario.query == "?draft=biased&width=3&seed=2&lookahead=0.50&steps=4"
    assert scenario.values["lookahead"] == "0.50"


def test_the_default_scenario_and_repeats_are_left_out_with_a_note():
    scenarios, notes = read_queries(["draft=aligned", "draft=biased&seed=1", "seed=1&draft=biased&width=3"])
    assert [s.query for s in scenarios] == [PRERENDERED]
    assert len(notes) == 2 and "default" in notes[0] and "given already" in notes[1]


@pytest.mark.parametrize("query, words", [
    ("draft=unknown&width=3", "draft='unknown' is not valid: it must be " + urlstate.BY_NAME["draft"].what),
    ("draft=biased&width=99", "width='99' is not valid: it must be a whole number from 1 to 8"),
    ("drafts=biased", "'drafts' is not a setting of the widget"),
    ("seed=1&seed=2", "seed is given twice"),
    ("", "give a scenario"),
    ("seed=" + "1" * 400, "a scenario is a few short values"),
])
def test_a_bad_query_is_refused_with_what_is_wrong(query, words):
    with pytest.raises(BuildError) as error:
        read_query(query)
    assert words in str(error.value)


@pytest.mark.parametrize("query, words", [
    ("draft=unknown", "is not valid: it must be " + urlstate.BY_NAME["draft"].what),
    ("width=99", "is not valid: it must be a whole number from 1 to 8"),
])
def test_build_py_stops_at_once_on_a_bad_prerender(tmp_path, query, words):
    result = run_build("--out", tmp_path / "site", "--prerender", "draft=biased&seed=1", "--prerender", query,
                       timeout=120)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("build.py: --prerender") and words in lines[0], result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "site").exists()


# ---- the real page --------------------------------------------------------------------

@pytest.fixture(scope="module")
def built():
    """The session's pre-rendered build: PRERENDERED and CUSTOM (and test_loader_url_real_page.py's schedule=heuristic)."""
    return prerendered_site()


ROOT_TEXT_JS = """
() => {
  const deep = (node, parts) => {
    if (node.nodeType === Node.TEXT_NODE) { parts.push(node.textContent); return parts; }
    if (node.nodeType !== Node.ELEMENT_NODE && node.nodeType !== Node.DOCUMENT_FRAGMENT_NODE) return parts;
    if (node.tagName === 'SCRIPT' || node.tagName === 'STYLE' || node.tagName === 'TEXTAREA') return parts;
    if (node.shadowRoot) deep(node.shadowRoot, parts);
    for (const child of node.childNodes) deep(child, parts);
    return parts;
  };
  return Array.from(document.querySelectorAll('[data-root-id]'))
    .map((el) => deep(el, []).join(' ')).join(' ').replace(/\\s+/g, ' ').trim();
}
"""
# Roots are display: contents; what they hold is on screen or not.
VISIBLE_ROOTS_JS = "() => Array.from(document.querySelectorAll('[data-root-id]'))" \
                   ".filter((el) => Array.from(el.children).some((c) => c.getClientRects().length > 0)).length"


def test_the_build_writes_the_scenario_beside_the_page_not_into_it(built):
    config = built.text("loader.js")
    entry = {"query": PRERENDERED, "file": "prerender/draft-biased_width-3_seed-1.json"}
    assert f'"file": "{entry["file"]}"' in config
    assert (built.out / entry["file"]).is_file()
    assert "the biased draft, width 3, seed 1" not in built.text("index.html")
    # The page's own budget (its default pre-render inline): 162 KB since the step tab's timeline,
    # lanes and the Present toggle (issue 26, 28), 164 KB since it is the worker's own render with short ids
    # (issue 27); a second scenario inline would add ~its file's size.
    assert len((built.out / "index.html").read_bytes()) < 175_000
    assert (built.out / entry["file"]).stat().st_size > 175_000 - 164_000, "the bound would not see it inline"
    assert entry in built.info["prerendered"]
    sw = built.text("serviceWorker.js")
    assert entry["file"] in sw.split("const PRECACHE")[0], "the service worker does not know the file's hash"
    assert entry["file"] not in sw.split("const PRECACHE")[1].split(";")[0], "a first visit would download it"


def test_a_prerendered_link_shows_its_own_numbers_before_python_is_up(visit, site, built, held):
    visit.page.goto(site.url + "index.html" + PRERENDERED)
    visit.page.wait_for_function("document.body.dataset.specstepPrerendered !== undefined", timeout=30_000)
    assert visit.page.evaluate("document.body.dataset.specstep") is None
    assert "specstep:ready" not in visit.marks()
    assert visit.page.evaluate(VISIBLE_ROOTS_JS) > 0
    assert not visit.page.locator(".specstep-placeholder").count()
    before = visit.page.evaluate(ROOT_TEXT_JS)
    assert "the biased draft, width 3, seed 1" in before, before[:600]
    # Live (issue 27): its recorded moments answer the step tab, so it takes clicks.
    visit.page.wait_for_function("performance.getEntriesByName('specstep:live').length > 0", timeout=30_000)
    assert not visit.page.evaluate("document.querySelector('[data-root-id]').hasAttribute('inert')")

    held.set_mode("serve")
    visit.wait_ready()
    marks = visit.marks()
    assert marks["specstep:prerendered"] < marks["specstep:ready"]
    # What the worker renders for the link is what was on screen before it.
    assert visit.page.evaluate(ROOT_TEXT_JS) == before
    assert visit.errors == [] and visit.elsewhere() == set()
    # The service worker keeps the file for this build (a second visit reads it from there).
    url = site.url + "prerender/draft-biased_width-3_seed-1.json"
    kept = f"async () => !!(await (await caches.open((await caches.keys())[0])).match({json.dumps(url)}))"
    assert wait_until(lambda: visit.page.evaluate("async () => (await caches.keys()).length") > 0
                      and visit.page.evaluate(kept), 30)


def test_a_custom_table_link_shows_its_own_prerender_and_another_spelling_the_placeholder(visit, site, built, held):
    visit.page.goto(site.url + "index.html?" + CUSTOM)
    visit.page.wait_for_function("document.body.dataset.specstepPrerendered !== undefined", timeout=30_000)
    assert not visit.page.locator(".specstep-placeholder").count()
    assert "the custom draft, width 2, seed 1" in visit.page.evaluate(ROOT_TEXT_JS)
    # The same tables spelled otherwise (or any other table) wait for Python behind the placeholder.
    site.clear()
    visit.page.goto(site.url + "index.html?draft=custom&width=2&seed=1&target=.6,.3,.1&q=.2,.5,.3")
    visit.page.locator(".specstep-placeholder").wait_for(timeout=15_000)
    visit.page.wait_for_timeout(1500)
    assert visit.page.evaluate(VISIBLE_ROOTS_JS) == 0
    assert not [path for path in site.requests if path.startswith("/prerender/")]


def test_a_link_to_another_scenario_shows_the_placeholder_and_no_numbers(visit, site, held):
    site.clear()
    visit.page.goto(site.url + "index.html?draft=biased&width=3&seed=2")
    placeholder = visit.page.locator(".specstep-placeholder")
    placeholder.wait_for(timeout=15_000)
    assert placeholder.inner_text().startswith("Loading seed 2 with the biased draft and width 3…")
    visit.page.wait_for_timeout(1500)  # time in which a pre-render would have been fetched and drawn
    assert visit.page.evaluate(VISIBLE_ROOTS_JS) == 0
    assert visit.page.evaluate("document.body.dataset.specstepPrerendered") is None
    assert not [path for path in site.requests if path.startswith("/prerender/")]


# Links whose values the app reads in ways the loader must agree with, or refuse.
LINKS = [
    "?draft=biased&width=3&seed=1", "?seed=1&draft=BIASED&width=03", "?draft=biased&width=3&seed=1&draft=aligned",
    "?draft=%20biased%20&width=3&seed=1", "?draft=biased&width=3&seed=1&lookahead=.5",
    "?draft=biased&width=3&seed=1&lookahead=0.500", "?lookahead=OFF&steps=2", "?width=9", "?width=0",
    "?seed=9007199254740991", "?seed=9007199254740992", "?seed=1e3", "?seed=%EF%BC%91", "?draft=%EF%BB%BFbiased",
    "?lookahead=1/2", "?lookahead=0.55", "?lookahead=+0.5", "?steps=24", "?steps=25", "?width=3.0", "?draft=",
    "?draft", "?seed=%2B1", "?width=+3", "", "?utm_id=" + "9" * 5000,
    "?" + CUSTOM, "?" + CUSTOM.replace("0.6,", ".6,"), "?target=.6,.3,.1", "?q=x", "?target=",
]


def test_the_loader_reads_a_links_values_as_the_app_does_or_not_at_all(visit, site, held):
    visit.page.goto(site.url + "index.html")
    visit.page.wait_for_function("typeof window.specstepLinkValues === 'function'", timeout=15_000)
    matched = 0
    for link in LINKS:
        loader = visit.page.evaluate("(search) => window.specstepLinkValues(search)", link)
        app = urlstate.read(link)
        if loader is None:
            continue  # not matched: the placeholder shows, never another scenario
        matched += 1
        assert app.notices == (), f"{link}: the loader read values the app refuses ({app.notice})"
        assert loader == {p.name: p.format(app.values[p.name]) for p in urlstate.PROPS}, link
    assert matched >= 12, "the loader refuses links the app reads plainly"
