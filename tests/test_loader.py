"""web/loader.js on its own: the loading steps, their time limits, the placeholder for a link
to another scenario, and the sandboxed-iframe message (issue 9 items 4 and 7, issue 14).

The loader runs in Chromium on a small page served from 127.0.0.1: web/loader.css,
web/status.html, web/loader.js with a CONFIG filled in as the build does, a stand-in
for the pre-rendered widget, and a scripted stand-in for the web worker that reports
the stages of a plan taken from the page's URL (``?plan=runtime:100,app:hang``) and
then stays silent, as a worker stuck in that stage does. The real page, with real
Pyodide, is tested in test_service_worker.py.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from build_support.servers import LocalServer
from sitebuild.loader_config import all_words, url_table
from sitebuild.site import prerendered_scenario

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web"
SCREENSHOTS = ROOT / "tests" / "screenshots"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
# What the build notes it pre-rendered: the default scenario, as a link writes it.
PRERENDERED = prerendered_scenario()
# The stand-in widget shows the default scenario's first numbers, as the pre-render does.
DEFAULT_NUMBERS = "q(A) = 0.50"

# The worker stand-in: "stage:ms" reports the stage, then waits ms; "stage:hang" reports it
# and stops; "fail-STAGE" reports a failure of that stage.
FAKE_WORKER = """
self.onmessage = async (event) => {
  if (event.data.type !== "init") return;
  const location = JSON.parse(event.data.location);
  const plan = new URLSearchParams(location.search).get("plan") || "";
  for (const item of plan.split(",").filter(Boolean)) {
    const [stage, wait] = item.split(":");
    if (stage.startsWith("fail-")) {
      self.postMessage({ type: "failed", stage: stage.slice(5), detail: "stand-in failure", resources: [] });
      return;
    }
    self.postMessage({ type: "progress", stage, detail: "" });
    if (wait === "hang") return;
    await new Promise((resolve) => setTimeout(resolve, Number(wait)));
  }
};
"""

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="loader.css"><title>loader test</title>
<style>body {{ margin: 0; font-family: sans-serif; }}
.fake {{ margin: 16px; padding: 16px; border: 1px solid #ccc; min-height: 400px; }}</style>
</head><body>
{status}
<div id="root-1" data-root-id="p1" style="display: contents;"><div class="fake">
<button>Draft</button> <button>Verify</button> <button>Commit</button>
<p>Step through a block. {numbers}, p(A) = 0.50</p></div></div>
<script src="loader.js"></script>
</body></html>
"""


def base_config() -> dict:
    """The loader's CONFIG for the stand-in page, with its words and URL table as the build writes them."""
    return {"worker": "fake-worker.js", "loadTimeoutMs": 30000, "pyodideHost": "127.0.0.1",
            "serviceWorker": None, "words": all_words("127.0.0.1"), "url": url_table()}


def make_site(folder: Path, prerendered: dict | None = PRERENDERED) -> Path:
    config = base_config()
    if prerendered is not None:
        config["prerendered"] = prerendered
    loader = (WEB / "loader.js").read_text()
    assert loader.count("@@CONFIG@@") == 1
    folder.mkdir(parents=True, exist_ok=True)
    assert loader.count("@@LIVE@@") == 1  # the live preview's code (web/live.js), as the build inserts it
    loader = loader.replace("@@LIVE@@", (WEB / "live.js").read_text())
    (folder / "loader.js").write_text(loader.replace("@@CONFIG@@", json.dumps(config)))
    shutil.copyfile(WEB / "loader.css", folder / "loader.css")
    (folder / "fake-worker.js").write_text(FAKE_WORKER)
    status = (WEB / "status.html").read_text()
    (folder / "index.html").write_text(PAGE.format(status=status, numbers=DEFAULT_NUMBERS))
    (folder / "frame.html").write_text(
        '<!doctype html><html><body><iframe id="f" sandbox="allow-scripts" src="index.html" '
        'width="800" height="600"></iframe></body></html>')
    # Course notes with two embeds: one at the top, one far below the fold.
    (folder / "notes.html").write_text(
        '<!doctype html><html><body style="margin:0"><iframe id="top" src="index.html?plan=runtime:hang" '
        'width="800" height="500"></iframe><div style="height:3000px">notes</div>'
        '<iframe id="below" src="index.html?plan=runtime:hang" width="800" height="500"></iframe></body></html>')
    return folder


# Every text the status line shows, in order, recorded from before the loader runs.
RECORD_STATUS = """
window.specstepStatusLog = [];
new MutationObserver(() => {
  const el = document.getElementById("specstep-status");
  const first = el && el.querySelector(".specstep-status-text");
  const text = first ? first.textContent : "";
  const log = window.specstepStatusLog;
  if (text && log[log.length - 1] !== text) log.push(text);
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


@pytest.fixture(scope="module")
def chrome():
    from playwright.sync_api import sync_playwright

    executable = shutil.which("chromium")
    if executable is None:
        pytest.fail("Debian's chromium is not installed (tests/run.sh installs it)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = make_site(tmp_path_factory.mktemp("loader") / "site")
    with LocalServer(folder) as server:
        yield server


@pytest.fixture(scope="module")
def site_without_note(tmp_path_factory):
    """A build that does not say what it pre-rendered."""
    folder = make_site(tmp_path_factory.mktemp("loader") / "site", prerendered=None)
    with LocalServer(folder) as server:
        yield server


class Visit:
    def __init__(self, browser, width=1200, limits: dict | None = None, dark=False):
        self.context = browser.new_context(viewport={"width": width, "height": 800},
                                           color_scheme="dark" if dark else "light")
        script = RECORD_STATUS
        if dark:
            # A dark course site around the page: the loader's messages must stay readable.
            script += ("document.addEventListener('DOMContentLoaded', () => {"
                       "document.body.style.background = '#14181f'; document.body.style.color = '#e6e6e6';});")
        if limits:
            if "runtime" in limits:
                script += f"window.specstepLoadTimeoutMs = {limits['runtime']};"
            script += f"window.specstepStageLimitsMs = {json.dumps(limits)};"
        self.context.add_init_script(script)
        self.errors: list[str] = []
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.context.close()

    def status(self) -> str:
        return self.page.evaluate("(document.getElementById('specstep-status') || {}).innerText || ''")

    def log(self) -> list[str]:
        return self.page.evaluate("window.specstepStatusLog")

    def marks(self) -> list[str]:
        return self.page.evaluate("performance.getEntriesByType('mark').map((m) => m.name)")

    def shot(self, name: str):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SCREENSHOTS / f"loader_{name}.png"))


def wait_step(visit: Visit, number: int, timeout=10_000):
    visit.page.wait_for_function(
        f"(document.getElementById('specstep-status') || {{dataset: {{}}}}).dataset.step === '{number}'",
        timeout=timeout)


@pytest.mark.browser
def test_each_stage_says_its_step_when_it_happens(chrome, site):
    plan = "runtime:300,runtime-start:300,runtime-ready:100,packages:300,app:hang"
    with Visit(chrome) as visit:
        visit.page.goto(site.url + f"index.html?plan={plan}")
        wait_step(visit, 4)
        log = [text for text in visit.log() if text.startswith("Step")]
        steps = [text.split(":")[0] for text in log]
        assert steps == ["Step 1 of 4", "Step 2 of 4", "Step 3 of 4", "Step 4 of 4"], log
        assert "downloading Python" in log[0]
        assert "starting Python" in log[1]
        assert "loading the packages" in log[2]
        assert "building the widget" in log[3]
        marks = visit.marks()
        for stage in ("start", "runtime", "runtime-start", "runtime-ready", "packages", "app"):
            assert f"specstep:{stage}" in marks, marks
        status = visit.page.locator("#specstep-status")
        assert status.get_attribute("role") == "status"
        assert status.get_attribute("aria-live") == "polite"
        assert visit.errors == []


@pytest.mark.browser
def test_downloading_is_never_shown_once_python_is_starting(chrome, site):
    with Visit(chrome) as visit:
        visit.page.goto(site.url + "index.html?plan=runtime:200,runtime-start:hang")
        wait_step(visit, 2)
        visit.page.wait_for_timeout(300)
        assert "downloading" not in visit.status()
        assert visit.status().startswith("Step 2 of 4: starting Python")


@pytest.mark.browser
def test_an_unknown_stage_keeps_the_step_and_breaks_nothing(chrome, site):
    with Visit(chrome) as visit:
        visit.page.goto(site.url + "index.html?plan=runtime:100,runtime-start:100,mystery:100,app:hang")
        wait_step(visit, 4)
        log = [text for text in visit.log() if text.startswith("Step")]
        assert [text.split(":")[0] for text in log] == ["Step 1 of 4", "Step 2 of 4", "Step 4 of 4"], log
        assert "specstep:mystery" in visit.marks()
        assert visit.errors == []


HANGS = {
    "runtime": ("runtime:hang", "Python did not finish downloading within 1 seconds"),
    "runtime-start": ("runtime:50,runtime-start:hang", "Python was downloaded but has not finished starting after 1 seconds"),
    "packages": ("runtime:50,runtime-start:50,runtime-ready:50,packages:hang",
                 "the packages the widget needs have not finished loading after 1 seconds"),
    "app": ("runtime:50,runtime-start:50,runtime-ready:50,packages:50,app:hang",
            "the widget has not finished building after 1 seconds"),
}


@pytest.mark.browser
@pytest.mark.parametrize("stage", list(HANGS))
def test_a_hang_at_any_step_ends_in_plain_words_with_a_reload_button(chrome, site, stage):
    plan, words = HANGS[stage]
    limits = {"runtime": 1000, "runtime-start": 1000, "packages": 1000, "runtime-ready": 1000, "app": 1000}
    with Visit(chrome, limits=limits) as visit:
        visit.page.goto(site.url + f"index.html?plan={plan}")
        visit.page.wait_for_selector(".specstep-problem", timeout=10_000)
        text = visit.status()
        assert words in text, text
        assert "What to do:" in text
        assert "Traceback" not in text
        status = visit.page.locator("#specstep-status")
        assert status.get_attribute("role") == "alert"
        assert visit.page.get_by_role("button", name="Reload the page").is_visible()
        if stage == "app":
            visit.shot("hang_app_1200")


@pytest.mark.browser
def test_a_stage_that_arrives_after_the_limit_replaces_the_message(chrome, site):
    with Visit(chrome, limits={"runtime": 500}) as visit:
        visit.page.goto(site.url + "index.html?plan=runtime:1500,runtime-start:hang")
        visit.page.wait_for_selector(".specstep-problem", timeout=10_000)
        wait_step(visit, 2)
        assert visit.page.locator(".specstep-problem").count() == 0
        assert visit.status().startswith("Step 2 of 4: starting Python")


@pytest.mark.browser
def test_a_failed_stage_is_said_in_plain_words(chrome, site):
    with Visit(chrome) as visit:
        visit.page.goto(site.url + "index.html?plan=runtime:50,runtime-start:50,packages:50,fail-packages")
        visit.page.wait_for_selector(".specstep-problem", timeout=10_000)
        text = visit.status()
        assert "some of the packages the widget needs could not be downloaded" in text
        assert "Details: stand-in failure" in text


@pytest.mark.browser
def test_a_sandbox_without_allow_same_origin_is_named_with_the_flags_that_work(chrome, site):
    with Visit(chrome) as visit:
        visit.page.goto(site.url + "frame.html")
        frame = visit.page.frame_locator("#f")
        problem = frame.locator(".specstep-problem")
        problem.wait_for(timeout=10_000)
        text = problem.inner_text()
        assert "sandbox does not allow it to start a web worker" in text, text
        assert 'sandbox="allow-scripts allow-same-origin"' in text
        assert "This browser cannot run Python" not in text


FRAME_STATE = """(id) => { const w = document.getElementById(id).contentWindow;
  const s = w.document.getElementById('specstep-status');
  return [s ? s.dataset.stage : null, !!w.specstepWorker]; }"""


@pytest.mark.browser
def test_an_embed_below_the_fold_starts_only_when_scrolled_into_view(chrome, site):
    with Visit(chrome) as visit:
        visit.page.goto(site.url + "notes.html")
        visit.page.wait_for_function(f"({FRAME_STATE})('top')[1] === true", timeout=10_000)
        visit.page.wait_for_function(f"({FRAME_STATE})('below')[0] === 'poster'", timeout=10_000)
        visit.page.wait_for_timeout(500)
        assert visit.page.evaluate(FRAME_STATE, "below") == ["poster", False]  # no Python for it yet
        poster = visit.page.frame_locator("#below").locator("#specstep-status")
        assert "downloads Python" in poster.inner_text()
        visit.page.locator("#below").scroll_into_view_if_needed()
        visit.page.wait_for_function(f"({FRAME_STATE})('below')[1] === true", timeout=10_000)
        assert visit.page.evaluate(FRAME_STATE, "below")[0] != "poster"
        assert not visit.errors, visit.errors


@pytest.mark.browser
def test_the_posters_start_now_button_starts_it_without_scrolling(chrome, site):
    with Visit(chrome, width=900) as visit:
        visit.page.goto(site.url + "notes.html")
        visit.page.wait_for_function(f"({FRAME_STATE})('below')[0] === 'poster'", timeout=10_000)
        visit.page.frame_locator("#below").get_by_role("button", name="Start now").dispatch_event("click")
        visit.page.wait_for_function(f"({FRAME_STATE})('below')[1] === true", timeout=10_000)
        assert visit.page.evaluate("window.scrollY") == 0


def visible_text(page) -> str:
    return page.evaluate("document.body.innerText")


@pytest.mark.browser
def test_a_link_to_another_scenario_hides_the_preview_behind_its_own_name(chrome, site):
    with Visit(chrome) as visit:
        visit.page.goto(site.url + "index.html?draft=biased&width=3&seed=1&plan=runtime:hang")
        placeholder = visit.page.locator(".specstep-placeholder")
        placeholder.wait_for(timeout=10_000)
        assert placeholder.inner_text().startswith("Loading seed 1 with the biased draft and width 3…")
        assert DEFAULT_NUMBERS not in visible_text(visit.page)
        assert not visit.page.locator("#root-1").is_visible()
        # The status does not call the hidden widget a preview.
        assert "preview" not in visit.status()
        visit.shot("other_scenario_1200")


@pytest.mark.browser
def test_a_link_with_its_own_tables_never_shows_the_default_numbers(chrome, site):
    with Visit(chrome) as visit:  # draft and seed are the pre-rendered ones: only the table differs
        visit.page.goto(site.url + "index.html?draft=aligned&seed=0&target=.6,.3,.1&plan=runtime:hang")
        visit.page.locator(".specstep-placeholder").wait_for(timeout=10_000)
        assert DEFAULT_NUMBERS not in visible_text(visit.page)
        assert not visit.page.locator("#root-1").is_visible()


@pytest.mark.browser
def test_a_link_to_the_prerendered_scenario_shows_the_preview(chrome, site):
    with Visit(chrome) as visit:
        visit.page.goto(site.url + "index.html?draft=aligned&seed=0&plan=runtime:hang")
        wait_step(visit, 1)
        assert visit.page.locator(".specstep-placeholder").count() == 0
        assert DEFAULT_NUMBERS in visible_text(visit.page)
        assert "preview" in visit.status()


@pytest.mark.browser
def test_without_the_builds_note_any_scenario_in_the_link_hides_the_preview(chrome, site_without_note):
    with Visit(chrome) as visit:
        visit.page.goto(site_without_note.url + "index.html?seed=0&plan=runtime:hang")
        visit.page.locator(".specstep-placeholder").wait_for(timeout=10_000)
        assert DEFAULT_NUMBERS not in visible_text(visit.page)
        visit.page.goto(site_without_note.url + "index.html?plan=runtime:hang&draft_hide=1")
        wait_step(visit, 1)
        assert DEFAULT_NUMBERS in visible_text(visit.page)


@pytest.mark.browser
def test_url_text_in_the_placeholder_is_plain_text_and_bounded(chrome, site):
    evil = "<img src=x onerror=window.pwned=1>" + "x" * 200
    with Visit(chrome) as visit:
        visit.page.goto(site.url + "index.html?plan=runtime:hang&draft=" + evil.replace(" ", "%20"))
        placeholder = visit.page.locator(".specstep-placeholder")
        placeholder.wait_for(timeout=10_000)
        assert visit.page.locator(".specstep-placeholder img").count() == 0
        assert visit.page.evaluate("window.pwned") is None
        text = placeholder.locator(".specstep-placeholder-text").inner_text()
        assert "<img src=x" in text
        shown = text.removeprefix("Loading the scenario of this link with the ").removesuffix(" draft…")
        assert len(shown) == 40 and shown.endswith("…"), shown


@pytest.mark.browser
@pytest.mark.parametrize("width", [375, 1200])
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_screenshots_of_each_step_and_the_problem(chrome, site, width, dark):
    """Not a check of looks: it writes the pictures a person looks at (tests/screenshots/)."""
    scheme = "dark" if dark else "light"
    plans = ["runtime:hang", "runtime:0,runtime-start:hang", "runtime:0,runtime-start:0,packages:hang",
             "runtime:0,runtime-start:0,packages:0,app:hang"]
    with Visit(chrome, width=width, dark=dark, limits={"app": 800}) as visit:
        for number, plan in enumerate(plans, start=1):
            visit.page.goto(site.url + f"index.html?plan={plan}")
            wait_step(visit, number)
            visit.shot(f"step{number}_{width}_{scheme}")
        visit.page.wait_for_selector(".specstep-problem", timeout=10_000)
        visit.shot(f"problem_{width}_{scheme}")
        visit.page.goto(site.url + "index.html?draft=biased&width=3&seed=1&plan=runtime:hang")
        visit.page.locator(".specstep-placeholder").wait_for()
        visit.shot(f"placeholder_{width}_{scheme}")
        assert visit.errors == []
