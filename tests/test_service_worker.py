"""The real page in real Pyodide, offline: the service worker never mixes two builds, a
first visit downloads each file once, a link opens on its own scenario, and the loading
steps come in order (issue 10 item 4, issue 9 items 4, 5 and 7).

Two builds of the site, v1 and v2, differ as a redeploy does: v2 has another
--load-timeout (loader.js) and loads Pyodide from another folder (worker.js,
packages.json), and every build's index.html has its own document ids. The site is
served by ``SiteHost`` on 127.0.0.1 with the cache headers under test: ``no-cache``
(revalidate every time) and ``max-age=600`` (GitHub Pages), where the browser's HTTP
cache answers without asking the server. v1 is the session's shared build
(``real_site``); Pyodide (npm core + the real compiled packages) comes from its
server, with the CDN's immutable headers.

A reader visits v1 until the widget is up and the cache is filled, v2 is published,
the reader comes back: the page runs v1 complete, says that a new version is ready,
and after its Reload runs v2 complete; then, with both servers stopped, a reload and
a browser restart still start the widget. The files the page runs are told apart by
their sha256 against each build's build-info.json.
"""

from __future__ import annotations

import collections
import hashlib
import json
import shutil
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from build_support.real_site import moved_pyodide_site, real_site
from build_support.site_host import SiteHost

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOTS = ROOT / "tests" / "screenshots"
EXAMPLE = "?draft=biased&width=3&seed=1"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
HEADERS = ["no-cache", "max-age=600"]

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def shared():
    """The session's real site (v1 here) and its local Pyodide server (which serves the same
    release under pyodide2/ too: v2 "moves" Pyodide, so its worker.js differs)."""
    return real_site()  # skips, with its reason, where no real Pyodide can be had


class Build:
    def __init__(self, out: Path):
        self.out = out
        self.info = json.loads((out / "build-info.json").read_text())
        self.files = {f["path"]: f["sha256"] for f in self.info["files"]}
        self.id = self.info["build_id"]


@pytest.fixture(scope="module")
def builds(tmp_path_factory, shared) -> dict[str, Build]:
    v1 = Build(shared.out)
    v2 = Build(moved_pyodide_site().out)  # prefetched (tests/conftest.py)
    differ = {p for p in v1.files if v1.files[p] != v2.files.get(p)}
    # The redeploy is visible in the files the page runs, not only in the service worker.
    assert {"index.html", "loader.js", "worker.js"} <= differ, differ
    return {"v1": v1, "v2": v2}


@pytest.fixture(scope="module")
def playwright():
    from playwright.sync_api import sync_playwright

    if shutil.which("chromium") is None:
        pytest.fail("Debian's chromium is not installed (tests/run.sh installs it)")
    with sync_playwright() as pw:
        yield pw


class Reader:
    """One reader's browser, with a profile on disk (an HTTP cache and service workers that
    survive a restart), recording what the page and its worker received, and from where."""

    def __init__(self, playwright, profile: Path, builds: dict[str, Build], site: SiteHost):
        self.playwright, self.profile, self.builds, self.site = playwright, profile, builds, site
        self.received: list[tuple[str, str]] = []  # (path, sha256) of every site file the page got
        self.errors: list[str] = []
        self.launch()

    def launch(self):
        self.context = self.playwright.chromium.launch_persistent_context(
            str(self.profile), executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS,
            viewport={"width": 1200, "height": 900})
        self.context.on("response", self._response)
        self.page = self.context.pages[0] if self.context.pages else self.context.new_page()
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def restart(self):
        self.context.close()
        self.launch()

    def close(self):
        self.context.close()

    def _response(self, response):
        # The service worker's own downloads (filling its cache) are not what the page runs.
        if response.request.service_worker is not None or not response.url.startswith(self.site.url):
            return
        path = unquote(urlsplit(response.url).path[1:]) or "index.html"
        try:
            body = response.body()
        except Exception:  # a redirect or an aborted download has no body
            return
        self.received.append((path, hashlib.sha256(body).hexdigest()))

    def builds_run(self) -> dict[str, set[str]]:
        """For each file that differs between v1 and v2: which build's copy the page got."""
        v1, v2 = self.builds["v1"].files, self.builds["v2"].files
        seen = collections.defaultdict(set)
        for path, digest in self.received:
            if v1.get(path) == v2.get(path):
                continue
            seen[path].add("v1" if digest == v1.get(path) else "v2" if digest == v2.get(path) else "neither")
        self.received.clear()
        return dict(seen)

    def visit(self, url: str):
        self.page.goto(url)
        wait_ready(self.page)

    def caches(self) -> dict[str, dict[str, str]]:
        """Every cache of the page's origin: {name: {url: sha256 of the body}}."""
        return self.page.evaluate("""async () => {
            const hex = (b) => Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, "0")).join("");
            const out = {};
            for (const name of await caches.keys()) {
                const cache = await caches.open(name);
                out[name] = {};
                for (const request of await cache.keys()) {
                    const body = await (await cache.match(request)).arrayBuffer();
                    out[name][request.url] = hex(await crypto.subtle.digest("SHA-256", body));
                }
            }
            return out;
        }""")


def wait_ready(page, timeout_ms=180_000):
    page.wait_for_function(
        "document.body.dataset.specstep === 'ready' || !!document.querySelector('.specstep-problem')",
        timeout=timeout_ms)
    status = page.evaluate("(document.getElementById('specstep-status') || {}).innerText || ''")
    assert page.evaluate("document.body.dataset.specstep") == "ready", status


def cache_of(reader: Reader, build: Build) -> dict[str, str]:
    for name, entries in reader.caches().items():
        if name.endswith(":" + build.id):
            return entries
    return {}


def precache_list(build: Build) -> list[str]:
    text = (build.out / "serviceWorker.js").read_text()
    start = text.index("const PRECACHE = ") + len("const PRECACHE = ")
    return json.JSONDecoder().raw_decode(text[start:])[0]


def wait_cache_complete(reader: Reader, build: Build, runtime_folder: str | None, timeout=120):
    """Until the build's cache holds every precached file, each with this build's bytes, and
    (given its folder) Pyodide's runtime, which the page sends once the widget is up."""
    wanted = set(precache_list(build))
    end = time.monotonic() + timeout
    while True:
        entries = cache_of(reader, build)
        ours = {unquote(u[len(reader.site.url):]): d for u, d in entries.items() if u.startswith(reader.site.url)}
        runtime = runtime_folder is None or any(u.endswith(f"/{runtime_folder}/pyodide.asm.wasm") for u in entries)
        if wanted <= set(ours) and runtime:
            break
        assert time.monotonic() < end, f"cache incomplete: missing {sorted(wanted - set(ours))[:5]}, runtime {runtime}"
        time.sleep(0.5)
    for path, digest in ours.items():
        assert build.files.get(path) == digest, f"{path} in {build.id}'s cache is not that build's"


@pytest.mark.parametrize("cache_control", HEADERS)
def test_a_returning_reader_gets_one_build_complete_never_a_mix(playwright, builds, shared, tmp_path,
                                                                 cache_control):
    v1, v2 = builds["v1"], builds["v2"]
    site = SiteHost(v1.out, cache_control=cache_control, link=tmp_path / "site")
    reader = Reader(playwright, tmp_path / "profile", builds, site)
    try:
        # First visit, by a link with a scenario: every file once, index.html included.
        site.take()
        reader.visit(site.url + "index.html" + EXAMPLE)
        wait_cache_complete(reader, v1, "pyodide")
        first = site.take()
        pages = [h for h in first if h.path in ("/", "/index.html")]
        assert len(pages) == 1, pages
        downloads = collections.Counter(h.path for h in first if h.bytes > 0)
        assert [p for p, n in downloads.items() if n > 1] == [], downloads
        assert set().union(*reader.builds_run().values()) == {"v1"}

        # v2 is published; the reader comes back: v1 complete, and a quiet note.
        site.publish(v2.out)
        reader.visit(site.url + "index.html")
        notice = reader.page.get_by_role("status").filter(has_text="A new version of this page is ready")
        notice.wait_for(timeout=60_000)
        ran = reader.builds_run()
        assert set().union(*ran.values()) == {"v1"}, ran
        # The note comes only once v2's cache is complete and checked.
        wait_cache_complete(reader, v2, None, timeout=5)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        reader.page.screenshot(path=str(SCREENSHOTS / "loader_new_version_notice.png"))

        # Reload from the note: v2 complete, and v1's cache is gone.
        with reader.page.expect_navigation(timeout=30_000):
            reader.page.get_by_role("button", name="Reload to use the new version").click()
        wait_ready(reader.page)
        ran = reader.builds_run()
        assert set().union(*ran.values()) == {"v2"}, ran
        wait_cache_complete(reader, v2, "pyodide2")
        assert not cache_of(reader, v1)

        # Offline: a reload and a browser restart still start the widget, from v2's cache.
        site.stop()
        shared.pyodide.set_mode("fail")
        reader.page.reload()
        wait_ready(reader.page)
        reader.restart()
        reader.visit(site.url + "index.html" + EXAMPLE)
        reader.page.get_by_role("button", name="Draft", exact=True).click()
        reader.page.get_by_text("proposed").first.wait_for(timeout=20_000)
        ran = reader.builds_run()
        assert set().union(*ran.values()) == {"v2"}, ran
        assert reader.errors == []
    finally:
        reader.close()
        if site.thread.is_alive():
            site.stop()
        shared.pyodide.set_mode("serve")


# A course's notes page on the same site: the embed is far below the fold, so its document
# loads (and its loader waits with the poster) until the reader scrolls to it.
NOTES = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Course notes</title></head>
<body><h1>Course notes</h1><div style="height: 3000px">Read this first.</div>
<iframe id="embed" src="index.html?draft=biased&amp;width=3&amp;seed=1" title="speculative decoding"
        style="width: 900px; height: 700px; border: 0"></iframe>
</body></html>
"""


def which(build_files: dict[str, dict[str, str]], path: str, digest: str) -> str:
    return next((name for name, files in build_files.items() if files.get(path) == digest), "neither")


@pytest.mark.parametrize("cache_control", HEADERS)
def test_a_page_waiting_in_another_tab_never_runs_files_of_two_builds(playwright, builds, shared, tmp_path,
                                                                      cache_control):
    """Issue 24 item 2: tab A on index.html, tab B a notes page whose embed waits below the
    fold (its document v1). v2 is published, A shows the notice and reloads into v2; then B
    is scrolled to its embed. Every document B's embed runs gets only its own build's files."""
    v1, v2 = builds["v1"], builds["v2"]
    files = {"v1": v1.files, "v2": v2.files}
    site = SiteHost(v1.out, cache_control=cache_control, link=tmp_path / "site", pages={"/notes.html": NOTES})
    reader = Reader(playwright, tmp_path / "profile", builds, site)
    try:
        # Tab A: a first visit fills v1's cache.
        reader.visit(site.url + "index.html")
        wait_cache_complete(reader, v1, "pyodide")
        # Tab B: the notes, served under v1's worker; the embed waits with its poster.
        notes = reader.context.new_page()
        notes.on("pageerror", lambda e: reader.errors.append(str(e)))
        notes.goto(site.url + "notes.html")
        frame = notes.locator("#embed").element_handle().content_frame()
        frame.wait_for_function("(document.getElementById('specstep-status') || {dataset: {}}).dataset.stage"
                                " === 'poster'", timeout=60_000)
        assert frame.evaluate("!!navigator.serviceWorker.controller")
        ran = reader.builds_run()
        assert ran.get("index.html") == {"v1"} and set().union(*ran.values()) == {"v1"}, ran

        # v2 is published; A comes back, gets the notice and reloads into v2.
        site.publish(v2.out)
        reader.page.bring_to_front()
        reader.visit(site.url + "index.html")
        reader.page.get_by_role("status").filter(has_text="A new version of this page is ready").wait_for(
            timeout=60_000)
        ran = reader.builds_run()
        assert set().union(*ran.values()) == {"v1"}, ran
        with reader.page.expect_navigation(timeout=30_000):
            reader.page.get_by_role("button", name="Reload to use the new version").click()
        wait_ready(reader.page)
        ran = reader.builds_run()
        assert set().union(*ran.values()) == {"v2"}, ran

        # B is scrolled to its embed: it starts, and each of its documents runs one build.
        notes.bring_to_front()
        notes.locator("#embed").scroll_into_view_if_needed()
        frame.wait_for_function("document.body && document.body.dataset.specstep === 'ready'", timeout=180_000)
        document = "v1"  # the embed's document so far
        for path, digest in reader.received:
            if v1.files.get(path) == v2.files.get(path):
                continue
            build_of = which(files, path, digest)
            if path == "index.html":
                document = build_of
            assert build_of == document, f"{path} from {build_of} in a page whose index.html is {document}"
        assert document == "v2", "the embed should run the build now in charge, complete"
        frame.get_by_role("button", name="Draft", exact=True).click()
        frame.get_by_text("proposed").first.wait_for(timeout=20_000)
        assert reader.errors == []
    finally:
        reader.close()
        if site.thread.is_alive():
            site.stop()
