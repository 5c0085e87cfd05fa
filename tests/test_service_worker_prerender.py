"""A redeploy that adds pre-rendered scenarios (build.py --prerender) still reaches a
returning reader: v1 has no pre-renders, v2 has three; the reader who comes back gets the
"A new version of this page is ready" notice, and after its Reload runs v2 complete.
And a page of a build with pre-renders, opened by a link to one it has not kept yet after
a newer build is published, never draws the newer build's pre-render (the service worker
answered it with whatever the server had). (The rest of the service worker's behaviour:
tests/test_service_worker.py.)
"""

from __future__ import annotations

import pytest

from build_support.real_site import PRERENDER_ARGS, moved_pyodide_site, prerendered_site
from build_support.site_host import SiteHost
from test_service_worker import (EXAMPLE, HEADERS, Build, Reader, cache_of, playwright, shared,  # noqa: F401
                                 precache_list, wait_cache_complete, wait_ready)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def builds(tmp_path_factory, shared) -> dict[str, Build]:
    v1 = Build(shared.out)
    v2 = Build(moved_pyodide_site(PRERENDER_ARGS).out)  # prefetched (tests/conftest.py)
    assert not v1.info["prerendered"] and len(v2.info["prerendered"]) == 3
    return {"v1": v1, "v2": v2}


@pytest.mark.parametrize("cache_control", HEADERS)
def test_a_redeploy_that_adds_prerenders_is_offered_and_runs_complete(playwright, builds, shared, tmp_path,
                                                                      cache_control):
    v1, v2 = builds["v1"], builds["v2"]
    site = SiteHost(v1.out, cache_control=cache_control, link=tmp_path / "site")
    reader = Reader(playwright, tmp_path / "profile", builds, site)
    try:
        reader.visit(site.url + "index.html" + EXAMPLE)
        wait_cache_complete(reader, v1, "pyodide")
        assert set().union(*reader.builds_run().values()) == {"v1"}

        site.publish(v2.out)
        reader.visit(site.url + "index.html" + EXAMPLE)
        reader.page.get_by_role("status").filter(has_text="A new version of this page is ready").wait_for(
            timeout=60_000)
        ran = reader.builds_run()
        assert set().union(*ran.values()) == {"v1"}, ran
        wait_cache_complete(reader, v2, None, timeout=5)

        with reader.page.expect_navigation(timeout=30_000):
            reader.page.get_by_role("button", name="Reload to use the new version").click()
        wait_ready(reader.page)
        assert reader.page.evaluate("document.body.dataset.specstepPrerendered") == EXAMPLE
        ran = reader.builds_run()
        assert set().union(*ran.values()) == {"v2"}, ran
        wait_cache_complete(reader, v2, "pyodide2")
        assert not cache_of(reader, v1)
        assert reader.errors == []
    finally:
        reader.close()
        if site.thread.is_alive():
            site.stop()


@pytest.mark.parametrize("cache_control", HEADERS)
def test_a_prerender_not_kept_yet_is_never_another_builds(playwright, builds, shared, tmp_path, cache_control):
    v1, v2 = Build(prerendered_site().out), builds["v2"]
    entry = v1.info["prerendered"][0]
    assert v1.files[entry["file"]] != v2.files[entry["file"]]  # each build's document has its own ids
    site = SiteHost(v1.out, cache_control=cache_control, link=tmp_path / "site")
    reader = Reader(playwright, tmp_path / "profile", {"v1": v1, "v2": v2}, site)
    try:
        reader.visit(site.url + "index.html")
        wait_cache_complete(reader, v1, "pyodide")
        assert entry["file"] not in precache_list(v1)  # kept on first use only
        reader.builds_run()

        site.publish(v2.out)
        reader.visit(site.url + "index.html" + entry["query"])
        ran = reader.builds_run()
        assert set().union(*ran.values()) == {"v1"}, ran
        assert reader.errors == []
    finally:
        reader.close()
        if site.thread.is_alive():
            site.stop()
