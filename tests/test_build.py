"""build.py: the static page that runs the widget's Python in the reader's browser (issue 4).

Two builds per session, each once: ``default_build`` with the pinned public
Pyodide URL (unreachable here: the page must say so), and ``local_build``
whose --pyodide-url points at a stand-in for the Pyodide CDN on 127.0.0.1
(``build_support/fake_cdn.py``: the real Pyodide 0.29.3 runtime, with small
pure-Python stand-ins for the compiled packages no machine here can fetch).

The layers, as in DESIGN.md: the output file by file; our wheel and the
built app in Pyodide under Node; the page in Chromium with every host but
127.0.0.1 unresolvable; and one online test (marked ``network``) for where
the real CDN is reachable.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from build_support.fake_cdn import CORE_FILES, make_fake_cdn
from build_support.pyodide_app import run_app_in_pyodide
from build_support.servers import LocalServer, free_port, wait_until
from pyodide_runner import ROOT, run_in_pyodide, unavailable_reason

sys.path.insert(0, str(ROOT))
import build  # noqa: E402  (the module under test, at the repository root)

EXAMPLE = "?draft=biased&width=3&seed=1"
PYODIDE_VERSION = "0.29.3"
SCREENSHOTS = ROOT / "tests" / "screenshots"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
# What Panel's metadata would pull in, and the page must never fetch.
NEVER_FETCHED = ("pandas", "panel-material-ui", "panel_material_ui", "bleach", "micropip", "tornado")


def missing(reason: str):
    """Skip under a partial setup; after tests/run.sh installed everything, a missing tool fails."""
    if os.environ.get("SPECSTEP_FULL_SETUP"):
        pytest.fail(reason)
    pytest.skip(reason)


# ---------------------------------------------------------------------------
# Builds (once per session)
# ---------------------------------------------------------------------------

@dataclass
class Built:
    out: Path
    result: subprocess.CompletedProcess
    seconds: float

    def json(self, name: str) -> dict:
        return json.loads((self.out / name).read_text())

    def text(self, name: str) -> str:
        return (self.out / name).read_text(encoding="utf-8")

    @property
    def packages(self) -> dict:
        return self.json("packages.json")

    @property
    def info(self) -> dict:
        return self.json("build-info.json")


def run_build(*args, timeout=600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "build.py"), *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL)


def build_into(out: Path, *args) -> Built:
    reason = unavailable_reason()
    if reason:
        missing(reason)
    started = time.perf_counter()
    result = run_build("--out", str(out), *args)
    seconds = time.perf_counter() - started
    assert result.returncode == 0, f"build.py failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return Built(out, result, seconds)


@pytest.fixture(scope="session")
def default_build(tmp_path_factory) -> Built:
    out = tmp_path_factory.mktemp("default") / "static"
    # An earlier build with a file the new one does not make: a rebuild must replace it all.
    out.mkdir()
    (out / "build-info.json").write_text("{}")
    (out / "left-over-from-an-old-build.txt").write_text("stale")
    return build_into(out)


@pytest.fixture(scope="session")
def fake_cdn(tmp_path_factory):
    """A stand-in Pyodide CDN on 127.0.0.1 (filled once local_build knows which packages the page wants)."""
    folder = tmp_path_factory.mktemp("cdn")
    server = LocalServer(folder, cors=True)
    server.folder = folder
    yield server
    server.stop()


@pytest.fixture(scope="session")
def local_build(tmp_path_factory, fake_cdn) -> Built:
    built = build_into(tmp_path_factory.mktemp("local") / "static", "--pyodide-url", fake_cdn.url + "pyodide/")
    make_fake_cdn(fake_cdn.folder, [p["name"] for p in built.packages["from_pyodide"]])
    return built


def wheel(built: Built, name: str) -> Path:
    entry = next(w for w in built.packages["wheels"] if w["name"].lower() == name)
    return built.out / entry["file"]


# ---------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------

def test_unknown_option_gets_one_line_and_a_nonzero_exit():
    result = run_build("--bogus")
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "--bogus" in lines[0], result.stderr


def test_bad_pyodide_url_gets_one_line(tmp_path):
    result = run_build("--out", str(tmp_path / "static"), "--pyodide-url", "ftp://example.invalid/pyodide.js")
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "--pyodide-url" in lines[0], result.stderr
    assert not (tmp_path / "static").exists()


def test_unwritable_output_gets_one_line(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    result = run_build("--out", str(blocker / "static"))
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot write the output folder" in lines[0], result.stderr


def test_a_folder_that_is_not_a_build_is_never_replaced(tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "lecture.md").write_text("my notes")
    result = run_build("--out", str(notes))
    assert result.returncode != 0
    assert len(result.stderr.strip().splitlines()) == 1
    assert (notes / "lecture.md").read_text() == "my notes"


def test_the_default_pyodide_url_is_the_pinned_release_panel_uses():
    from panel.io.convert import PYODIDE_URL

    assert build.pyodide_script_url(None) == PYODIDE_URL
    assert f"/v{PYODIDE_VERSION}/full/pyodide.js" in PYODIDE_URL
    assert build.pyodide_script_url("https://mirror.example.org/pyodide/") == \
        "https://mirror.example.org/pyodide/pyodide.js"
    assert build.pyodide_script_url("pyodide/") == "pyodide/pyodide.js"


def test_serve_builds_then_serves_on_127_0_0_1_and_prints_the_url(tmp_path):
    reason = unavailable_reason()
    if reason:
        missing(reason)
    port = free_port()
    process = subprocess.Popen([sys.executable, str(ROOT / "build.py"), "--out", str(tmp_path / "static"),
                                "--serve", "--port", str(port)], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL)
    try:
        lines = []
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                break
            lines.append(line)
            if line.startswith("Serving"):
                break
        url = f"http://127.0.0.1:{port}/index.html"
        assert any(url in line for line in lines), "".join(lines)
        with urllib.request.urlopen(url, timeout=10) as response:
            assert response.status == 200
            assert b'src="loader.js"' in response.read()
    finally:
        process.terminate()
        process.wait(timeout=10)


# ---------------------------------------------------------------------------
# The output, file by file
# ---------------------------------------------------------------------------

def test_a_rebuild_replaces_the_output_completely(default_build):
    assert not (default_build.out / "left-over-from-an-old-build.txt").exists()
    listed = {f["path"] for f in default_build.info["files"]}
    on_disk = {p.relative_to(default_build.out).as_posix() for p in default_build.out.rglob("*") if p.is_file()}
    assert on_disk - listed == {"build-info.json"}


def test_the_page_loads_the_pinned_pyodide_release(default_build):
    from panel.io.convert import PYODIDE_URL

    config = worker_config(default_build.out)
    assert config["pyodideURL"] == PYODIDE_URL
    assert config["pyodideIndexURL"] == PYODIDE_URL.rsplit("/", 1)[0] + "/"
    assert default_build.packages["pyodide"] == {"version": PYODIDE_VERSION, "url": PYODIDE_URL}
    assert default_build.info["pyodide"]["version"] == PYODIDE_VERSION


def test_the_given_pyodide_url_is_the_one_the_page_loads(local_build, fake_cdn):
    config = worker_config(local_build.out)
    assert config["pyodideURL"] == fake_cdn.url + "pyodide/pyodide.js"
    assert "jsdelivr" not in "".join(local_build.text(n) for n in ("worker.js", "loader.js", "index.html"))


def worker_config(out: Path) -> dict:
    from build_support.pyodide_app import worker_config as read
    return read(out)


def test_our_wheel_is_in_the_page_requirements_and_holds_our_code(default_build):
    ours = [w for w in default_build.packages["wheels"] if w["name"] == "specstep"]
    assert len(ours) == 1
    path = default_build.out / ours[0]["file"]
    assert path.is_file() and hashlib.sha256(path.read_bytes()).hexdigest() == ours[0]["sha256"]
    assert not ours[0]["file"].startswith(("/", "http")), "installed from a relative URL"
    names = zipfile.ZipFile(path).namelist()
    for package in ("core", "toy_tables", "app"):
        sources = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / package).rglob("*.py")
                         if "__pycache__" not in p.parts)
        assert sources and set(sources) <= set(names), f"{package} missing from the wheel"
        assert f"{package}/__pycache__/__init__.cpython-313.pyc" in names
    assert default_build.info["specstep"]["wheel"] == ours[0]["file"]


def page_urls(built: Built) -> list[str]:
    """Every URL index.html loads: scripts, links, and the stylesheets of the pre-rendered document."""
    html = built.text("index.html")
    urls = re.findall(r'<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]+)"', html)
    docs = re.search(r'<script type="application/json" id="[^"]+">\s*(.*?)\s*</script>', html, re.S)
    assert docs, "no pre-rendered document in index.html"
    sheets = re.findall(r'"name":"ImportedStyleSheet","id":"[^"]+","attributes":\{"url":"([^"]+)"', docs.group(1))
    assert sheets, "the pre-rendered document has no stylesheets"
    return urls + sheets


def test_every_url_the_page_loads_is_here_or_the_pyodide_url(default_build):
    urls = page_urls(default_build)
    assert any(u.startswith("bokeh/bokeh-") for u in urls) and any(u.endswith("panel.min.js") for u in urls)
    for url in urls:
        assert not re.match(r"^[a-z]+:|^//", url), f"index.html loads {url} from elsewhere"
        path = default_build.out / unquote(url.split("?")[0].split("#")[0])
        assert path.is_file(), f"index.html loads {url}, which is not in the build"
    # The page's own scripts name no other site than Pyodide's (the app's code, which the
    # worker carries as data, may hold links in its text).
    pyodide_url = default_build.packages["pyodide"]["url"]
    allowed = {pyodide_url, pyodide_url.rsplit("/", 1)[0] + "/", re.match(r"https?://[^/]+", pyodide_url).group(0)}
    config = worker_config(default_build.out)
    del config["code"]
    worker = re.sub(r"^const CONFIG = \{.*?^\};$", json.dumps(config), default_build.text("worker.js"),
                    flags=re.S | re.M)
    for name, text in [("worker.js", worker)] + [(n, default_build.text(n)) for n in
                                                  ("loader.js", "serviceWorker.js", "embed.html")]:
        absolute = set(re.findall(r"https?://[^\s\"'`<>)\\]+", text))
        assert absolute <= allowed, f"{name} names {absolute - allowed}"


def test_the_page_installs_exactly_the_listed_packages_and_nothing_panel_would_pull_in(default_build):
    packages = default_build.packages
    lock = json.loads((ROOT / "sitebuild/npm/node_modules/pyodide/pyodide-lock.json").read_text())["packages"]
    names = [p["name"] for p in packages["from_pyodide"]] + [w["name"].lower() for w in packages["wheels"]]
    for bad in NEVER_FETCHED:
        assert bad not in names
    for entry in packages["from_pyodide"]:
        assert lock[entry["name"]]["version"] == entry["version"]
        assert set(lock[entry["name"]].get("depends", [])) <= {p["name"] for p in packages["from_pyodide"]}
    assert "numpy" in names and "panel" in names and "bokeh" in names
    worker = default_build.text("worker.js")
    assert "micropip" not in worker and "packages.json" in worker
    for wheel_entry in packages["wheels"]:
        path = default_build.out / wheel_entry["file"]
        assert path.stat().st_size == wheel_entry["bytes"]


def test_slim_wheels_leave_out_the_js_and_css_the_page_loads_separately(default_build):
    panel = zipfile.ZipFile(wheel(default_build, "panel")).namelist()
    bokeh = zipfile.ZipFile(wheel(default_build, "bokeh")).namelist()
    assert not [n for n in panel if n.startswith("panel/dist/")]
    assert not [n for n in bokeh if n.startswith("bokeh/server/static/")]
    # What Panel and Bokeh read at run time in Pyodide stays.
    for kept in ("panel/package.json", "panel/_templates/base.html", "panel/layout/flexbox.html",
                 "panel/theme/css/default.css"):
        assert kept in panel, kept
    assert any(n.startswith("bokeh/core/_templates/") for n in bokeh)
    assert any(n.startswith("bokeh/_sri/") for n in bokeh)
    # PyPI's panel 1.9.4 wheel is 30.3 MB, bokeh 3.9.2's 6.4 MB (DESIGN.md).
    assert wheel(default_build, "panel").stat().st_size < 3_000_000
    assert wheel(default_build, "bokeh").stat().st_size < 2_000_000


def test_third_party_wheels_are_byte_compiled_without_sources(default_build):
    magics = set()
    for entry in default_build.packages["wheels"]:
        if entry["name"] == "specstep":
            continue
        with zipfile.ZipFile(default_build.out / entry["file"]) as whl:
            names = whl.namelist()
            assert not [n for n in names if n.endswith(".py")], entry["name"]
            pycs = [n for n in names if n.endswith(".pyc")]
            assert pycs, entry["name"]
            for name in pycs:
                header = whl.read(name)[:16]
                magics.add(header[:4])
                # PEP 552 flags: hash-based, unchecked (zip file times do not matter).
                assert int.from_bytes(header[4:8], "little") == 0b01, name
    assert len(magics) == 1
    import importlib.util
    assert magics != {importlib.util.MAGIC_NUMBER}, "compiled by this CPython, not Pyodide's Python 3.13"


def test_wheel_records_match_their_contents(default_build):
    for entry in default_build.packages["wheels"]:
        with zipfile.ZipFile(default_build.out / entry["file"]) as whl:
            record_name = next(n for n in whl.namelist() if n.endswith(".dist-info/RECORD"))
            rows = [line.split(",") for line in whl.read(record_name).decode().splitlines() if line]
            assert {row[0] for row in rows} == set(whl.namelist())
            for path, digest, size in rows:
                if path == record_name:
                    continue
                data = whl.read(path)
                expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                assert digest == f"sha256={expected}" and int(size) == len(data), path


def test_the_page_is_a_progressive_web_app(default_build):
    html = default_build.text("index.html")
    assert '<link rel="manifest" href="site.webmanifest">' in html
    manifest = default_build.json("site.webmanifest")
    assert manifest["start_url"] == "./index.html" and manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        assert (default_build.out / icon["src"]).is_file()
    worker = default_build.text("serviceWorker.js")
    precache = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", worker, re.S).group(1))
    assert "index.html" in precache and "worker.js" in precache
    for path in precache:
        assert path == "./" or (default_build.out / unquote(path)).is_file(), path
    assert default_build.info["build_id"] in worker
    assert "serviceWorker.js" in default_build.text("loader.js")


def test_the_page_says_what_it_is_loading_before_any_script_runs(default_build):
    html = default_build.text("index.html")
    status = re.search(r'<div id="specstep-status"[^>]*role="status"[^>]*>(.*?)</div>', html, re.S)
    assert status and "preview" in status.group(1)
    assert 'class="pn-loading' not in html, "Panel's full-page spinner would cover the preview"
    loader = default_build.text("loader.js")
    assert '"loadTimeoutMs": 30000' in loader


def test_embed_page_shows_the_snippet_for_the_example_scenario(default_build):
    import html as html_lib

    from app.embed import snippet as app_snippet

    page = default_build.text("embed.html")
    assert f'<iframe id="example" src="index.html{EXAMPLE}"' in page
    shown = html_lib.unescape(re.search(r'<pre id="snippet"><code>(.*?)</code></pre>', page, re.S).group(1))
    # The same snippet the widget's "Copy embed code" gives, for the example scenario.
    assert shown == app_snippet("index.html", EXAMPLE)


def test_build_info_names_the_versions_and_every_file(default_build):
    import bokeh
    import panel

    info = default_build.info
    assert info["panel"] == panel.__version__ and info["bokeh"] == bokeh.__version__
    assert info["pyodide"]["version"] == PYODIDE_VERSION
    assert info["specstep"]["version"] == build.tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    for entry in info["files"]:
        path = default_build.out / entry["path"]
        assert path.stat().st_size == entry["bytes"], entry["path"]
    assert info["total_bytes"] == sum(f["bytes"] for f in info["files"])


def test_the_build_runs_the_app_and_clicks_through_it_to_find_its_imports(default_build):
    probe = default_build.info["probe"]
    assert probe["actions"] > 0
    assert {"panel", "bokeh", "param", "core", "app"} <= set(probe["modules"])
    assert not set(probe["modules"]) & {"pandas", "tornado", "panel_material_ui"}


# ---------------------------------------------------------------------------
# Pyodide 0.29.3 under Node
# ---------------------------------------------------------------------------

CORE_SCRIPT = """
import json, sys
import core
print(json.dumps({"file": core.__file__, "python": sys.version.split()[0]}))
for case in CASES:
    print(json.dumps(core.simulate(*case).to_json()))
"""
CASES = [("aligned", 3, 0), ("biased", 3, 1), ("biased", 4, 7), ("aligned", 1, 42)]


@pytest.mark.pyodide
def test_our_wheel_installs_into_pyodide_and_core_gives_cpython_traces(default_build):
    import core

    out = run_in_pyodide(f"CASES = {CASES!r}\n" + CORE_SCRIPT, mounts=(),
                         wheels=[wheel(default_build, "specstep")]).splitlines()
    head = json.loads(out[0])
    assert head["file"].startswith("/lib/python3.13/site-packages/core/"), "core came from the wheel"
    assert head["python"].startswith("3.13")
    assert out[1:] == [json.dumps(core.simulate(*case).to_json()) for case in CASES]


@pytest.mark.pyodide
def test_the_built_app_starts_in_pyodide_and_answers_a_click(local_build):
    report = run_app_in_pyodide(local_build.out, build.example_location(), click="Draft")
    assert "error" not in report, report.get("error")
    assert report["python"].startswith("3.13")
    assert report["versions"]["panel"] == local_build.info["panel"]
    html = local_build.text("index.html")
    assert len(report["root_ids"]) == html.count("data-root-id=")
    assert report["buttons_found"] == 1
    changed = [p for p in report["patches"] if '"ModelChanged"' in p or '"ColumnDataChanged"' in p]
    assert changed, "clicking Draft changed nothing on the page"
    assert any("proposed" in p for p in changed), "the token strip did not show the proposal"
    # The scenario came from the URL before the app was built: the biased draft's q(A) = 0.80.
    assert any("0.8" in p for p in changed)


# ---------------------------------------------------------------------------
# Chromium, every host but 127.0.0.1 unresolvable
# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def sync_pw():
    """Playwright for this module only: one sync instance at a time per process, so it stops
    before tests/ui starts its own."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="module")
def chromium(sync_pw):
    executable = shutil.which("chromium")
    if executable is None:
        missing("Debian's chromium is not installed (tests/run.sh installs it)")
    browser = sync_pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture
def served_default(default_build):
    with LocalServer(default_build.out) as server:
        yield server


@pytest.fixture
def served_local(local_build):
    with LocalServer(local_build.out) as server:
        yield server


class Visit:
    """One browser context on one page, with every request it made and every console error."""

    def __init__(self, browser, viewport=(1100, 900), timeout_ms=None):
        self.context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
        if timeout_ms:
            self.context.add_init_script(f"window.specstepLoadTimeoutMs = {timeout_ms};")
        self.requests = []
        self.errors = []
        self.context.on("request", lambda r: self.requests.append(r.url))
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def close(self):
        self.context.close()

    def elsewhere(self) -> set[str]:
        """Network requests (blob: and data: are not) to any host but 127.0.0.1."""
        return {u for u in self.requests
                if urlsplit(u).scheme not in ("blob", "data") and urlsplit(u).hostname != "127.0.0.1"}

    def status(self) -> str:
        return self.page.evaluate("(document.getElementById('specstep-status') || {}).innerText || ''")

    def shot(self, name: str):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SCREENSHOTS / f"build_{name}.png"), full_page=True)


def expect_preview(page):
    """The pre-rendered widget: the controls, the action buttons, the token strip, its charts.

    The charts are drawn (Bokeh canvases in the page); the app's first view keeps them
    folded away until a position is inspected, so they are not required to be on screen.
    """
    for name in ("Aligned", "Biased", "Draft", "Verify", "Commit", "Run to end", "Reset"):
        assert page.get_by_role("button", name=name, exact=True).first.is_visible(), name
    assert page.get_by_text("Output").first.is_visible()
    assert page.get_by_text("tokens committed").first.is_visible()
    assert page.locator("canvas").count() > 0


@pytest.mark.browser
def test_preview_shows_offline_and_the_page_says_the_runtime_cannot_load(chromium, served_default, default_build):
    visit = Visit(chromium)
    try:
        visit.page.goto(served_default.url + "index.html" + EXAMPLE)
        visit.page.get_by_role("button", name="Draft", exact=True).first.wait_for(timeout=10_000)
        visit.page.wait_for_selector(".specstep-problem", timeout=30_000)
        expect_preview(visit.page)
        text = visit.status()
        assert "Python could not be downloaded" in text and "What to do" in text
        assert "Traceback" not in text
        visit.shot("runtime_blocked")
        pyodide_url = default_build.packages["pyodide"]["url"]
        assert visit.elsewhere() == {pyodide_url}
        assert visit.errors == []
    finally:
        visit.close()


@pytest.mark.browser
def test_the_page_says_so_when_the_runtime_hangs(chromium, served_local, fake_cdn):
    fake_cdn.set_mode("hang")
    visit = Visit(chromium, timeout_ms=3000)
    try:
        started = time.monotonic()
        visit.page.goto(served_local.url + "index.html")
        visit.page.wait_for_selector(".specstep-problem", timeout=20_000)
        assert time.monotonic() - started < 15
        assert "did not finish downloading within 3 seconds" in visit.status()
        expect_preview(visit.page)
        visit.shot("runtime_timeout")
    finally:
        visit.close()
        fake_cdn.set_mode("serve")


@pytest.mark.browser
def test_the_page_says_so_when_the_runtime_errors(chromium, served_local, fake_cdn):
    fake_cdn.set_mode("fail")
    visit = Visit(chromium)
    try:
        visit.page.goto(served_local.url + "index.html")
        visit.page.wait_for_selector(".specstep-problem", timeout=20_000)
        assert "Python could not be downloaded from 127.0.0.1" in visit.status()
        expect_preview(visit.page)
    finally:
        visit.close()
        fake_cdn.set_mode("serve")


def wait_ready(page, timeout_ms=120_000):
    page.wait_for_function("document.body.dataset.specstep === 'ready' || !!document.querySelector('.specstep-problem')",
                           timeout=timeout_ms)
    status = page.evaluate("(document.getElementById('specstep-status') || {}).innerText || ''")
    assert page.evaluate("document.body.dataset.specstep") == "ready", status


@pytest.mark.browser
def test_the_page_starts_fetches_only_its_list_and_answers_a_click(chromium, served_local, local_build, fake_cdn):
    fake_cdn.clear()
    served_local.clear()
    visit = Visit(chromium)
    try:
        visit.page.goto(served_local.url + "index.html" + EXAMPLE)
        visit.page.get_by_role("button", name="Draft", exact=True).first.wait_for(timeout=10_000)
        assert "Step" in visit.status()  # it says what it is loading
        visit.shot("loading")
        wait_ready(visit.page)
        assert visit.page.locator("#specstep-status").count() == 0
        visit.page.get_by_role("button", name="Draft", exact=True).click()
        visit.page.get_by_text("proposed").first.wait_for(timeout=10_000)
        visit.shot("after_draft")
        # Exactly the runtime and the listed packages from the (stand-in) CDN, nothing else.
        packages = local_build.packages
        lock = json.loads((fake_cdn.folder / "pyodide" / "pyodide-lock.json").read_text())["packages"]
        allowed = {f"/pyodide/{name}" for name in CORE_FILES} | {"/pyodide/pyodide-lock.json"} | {
            f"/pyodide/{lock[p['name']]['file_name']}" for p in packages["from_pyodide"]}
        fetched = set(fake_cdn.requests)
        assert fetched <= allowed, f"fetched outside the list: {fetched - allowed}"
        assert {f"/pyodide/{lock[p['name']]['file_name']}" for p in packages["from_pyodide"]} <= fetched
        wheels = {r for r in served_local.requests if r.startswith("/wheels/")}
        assert wheels == {"/" + w["file"] for w in packages["wheels"]}
        assert visit.elsewhere() == set()
        assert visit.errors == []
    finally:
        visit.close()


@pytest.mark.browser
def test_a_second_visit_starts_from_the_cache_even_offline(chromium, local_build, fake_cdn):
    site = LocalServer(local_build.out)
    visit = Visit(chromium)
    try:
        visit.page.goto(site.url + "index.html")
        wait_ready(visit.page)
        # The service worker caches the page, the wheels and the runtime once the widget is up.
        cached = """async () => {
            const names = await caches.keys();
            if (names.length !== 1) return [];
            const cache = await caches.open(names[0]);
            return (await cache.keys()).map((r) => r.url);
        }"""
        wanted = ("specstep-", "panel-", "pyodide.asm.wasm", "python_stdlib.zip", "index.html")
        assert wait_until(lambda: all(any(w in u for u in visit.page.evaluate(cached)) for w in wanted), 60), \
            visit.page.evaluate(cached)
        site.stop()
        fake_cdn.set_mode("fail")
        visit.page.reload()
        visit.page.get_by_role("button", name="Draft", exact=True).first.wait_for(timeout=10_000)
        wait_ready(visit.page)
        visit.page.get_by_role("button", name="Draft", exact=True).click()
        visit.page.get_by_text("proposed").first.wait_for(timeout=10_000)
    finally:
        visit.close()
        fake_cdn.set_mode("serve")
        site.stop()


@pytest.mark.browser
def test_embed_page_shows_the_widget_in_its_iframe(chromium, served_default):
    visit = Visit(chromium)
    try:
        visit.page.goto(served_default.url + "embed.html")
        frame = visit.page.frame_locator("#example")
        visit.page.locator("#example").scroll_into_view_if_needed()
        frame.get_by_role("button", name="Draft", exact=True).first.wait_for(timeout=15_000)
        assert frame.get_by_role("button", name="Draft", exact=True).first.is_visible()
        src = visit.page.locator("#example").get_attribute("src")
        assert src == "index.html" + EXAMPLE
        assert served_default.url + "index.html" + EXAMPLE in visit.page.locator("#snippet").inner_text()
        visit.shot("embed")
    finally:
        visit.close()


# ---------------------------------------------------------------------------
# Online (where a network exists)
# ---------------------------------------------------------------------------

NETWORK_REASON = ("needs the public Pyodide CDN, which no machine here reaches; "
                  "run `SPECSTEP_NETWORK=1 bash tests/run.sh -m network` where a network exists")


@pytest.mark.network
@pytest.mark.browser
@pytest.mark.skipif(os.environ.get("SPECSTEP_NETWORK") != "1", reason=NETWORK_REASON)
def test_online_the_built_page_starts_in_pyodide_and_draft_changes_the_strip(sync_pw, default_build):
    executable = shutil.which("chromium")
    if executable is None:
        missing("Debian's chromium is not installed")
    # No host-resolver rule here: the page fetches Pyodide and numpy from the real CDN.
    browser = sync_pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS[:-1])
    try:
        with LocalServer(default_build.out) as site:
            page = browser.new_page()
            page.goto(site.url + "index.html" + EXAMPLE)
            wait_ready(page, timeout_ms=240_000)
            page.get_by_role("button", name="Draft", exact=True).click()
            page.get_by_text("proposed").first.wait_for(timeout=15_000)
    finally:
        browser.close()
