"""The built page's loader reads a link by urlstate.PROPS and speaks app/i18n's words (issue 25 item 2).

Real Pyodide 0.29.3, offline, Chromium, with Python held back (as test_prerender.py does):
a ``?schedule=heuristic`` link never shows the fixed-width default pre-render, but its own
pre-render (built with ``--prerender schedule=heuristic``) or, for a scenario that was not
pre-rendered, the calm placeholder; bad values are named as the loader named them before.
"""

from __future__ import annotations

import json

import pytest

from build_support.fixtures import chromium, held, site, visit  # noqa: F401 (fixtures)
from build_support.real_site import prerendered_site
from sitebuild.loader_config import all_words, url_table
from test_build_output import js_config
from test_prerender import ROOT_TEXT_JS, VISIBLE_ROOTS_JS

pytestmark = pytest.mark.browser

HEURISTIC = "?draft=aligned&width=3&seed=0&schedule=heuristic"


@pytest.fixture(scope="module")
def built():
    """The session's pre-rendered build: schedule=heuristic (and test_prerender.py's two scenarios)."""
    return prerendered_site()


def test_the_built_loader_has_the_url_table_and_the_words_the_build_writes(built):
    config = js_config(built.text("loader.js"))
    assert config["url"] == json.loads(json.dumps(url_table()))
    assert config["words"] == json.loads(json.dumps(all_words(config["pyodideHost"])))
    assert config["pyodideHost"].startswith("127.0.0.1:")
    assert "props" not in config, "one URL table"


def default_preview_text(visit, site) -> str:
    visit.page.goto(site.url + "index.html")
    visit.page.wait_for_function("typeof Bokeh !== 'undefined' && Bokeh.index && Bokeh.index.roots.length > 0",
                                 timeout=30_000)
    visit.page.wait_for_timeout(300)
    return visit.page.evaluate(ROOT_TEXT_JS)


def test_a_heuristic_link_shows_its_own_prerender_not_the_fixed_width_one(visit, site, held):
    default = default_preview_text(visit, site)
    visit.page.goto(site.url + "index.html?schedule=heuristic")
    visit.page.wait_for_function("document.body.dataset.specstepPrerendered !== undefined", timeout=30_000)
    assert visit.page.evaluate("document.body.dataset.specstepPrerendered") == HEURISTIC
    assert visit.page.evaluate("document.body.dataset.specstep") is None  # Python is not up
    assert not visit.page.locator(".specstep-placeholder").count()
    before = visit.page.evaluate(ROOT_TEXT_JS)
    assert before != default, "the fixed-width default pre-render is on screen"
    assert "heuristic" in before.lower(), before[:600]

    held.set_mode("serve")
    visit.wait_ready()
    assert visit.page.evaluate(ROOT_TEXT_JS) == before  # what Python renders for the link
    assert visit.errors == [] and visit.elsewhere() == set()


@pytest.mark.parametrize("query, text", [
    ("?schedule=heuristic&seed=3", "Loading seed 3 with the heuristic schedule…"),
    ("?lang=zh&schedule=heuristic", "正在加载这个链接的场景（启发式调度）…"),
    # Bad values, named as before the loader's words moved to app/i18n.
    ("?draft=nonsense&seed=abc", "Loading seed abc with the nonsense draft…"),
    ("?width=99&schedule=sometimes", "Loading the scenario of this link with width 99 and the sometimes schedule…"),
    ("?lang=zh&seed=1&draft=biased", "正在加载种子 1（有偏的草稿模型）…"),
])
def test_another_scenario_gets_the_calm_placeholder_before_python(visit, site, held, query, text):
    visit.page.goto(site.url + "index.html" + query)
    placeholder = visit.page.locator(".specstep-placeholder-text")
    placeholder.wait_for(timeout=15_000)
    visit.page.wait_for_timeout(1000)  # time in which a pre-render would have been fetched and drawn
    assert placeholder.inner_text() == text
    assert visit.page.evaluate(VISIBLE_ROOTS_JS) == 0
    assert visit.page.evaluate("document.body.dataset.specstepPrerendered") is None
