"""The built page embedded in someone else's course notes (issue 23 items 2, 4, 6; issue 24 item 6).

The site is the session's real build (``build_support/real_site.py``, real Pyodide,
offline); the course notes are a plain HTML page served from another 127.0.0.1 port,
so every frame is cross-origin, as on a course site. The notes carry MkDocs Material's
figure rule (``.md-typeset figure {width: fit-content}``) and its palette attribute
(``data-md-color-scheme="default"|"slate"`` on body), and paste the snippet as the
embed form writes it (``app/embed/snippet.py``, the host script inline).
"""

from __future__ import annotations

import io
import re
import tempfile
import time
from pathlib import Path

import pytest

from app.embed import snippet
from build_support.browser import SCREENSHOTS, Visit
from build_support.fixtures import chromium, site  # noqa: F401 (fixtures)
from build_support.real_site import real_site
from build_support.servers import LocalServer
from embed_support import FOCUSED_JS
from html_support import contrast

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = "?draft=biased&width=3&seed=1"  # a rejection and discarded proposals in the first block

# MkDocs Material's rules that matter here (its main.css): figures fit their content, and the
# palette is a body attribute whose colours are custom properties.
NOTES = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Course notes</title><link rel="icon" href="data:,">
<style>
[data-md-color-scheme=default] {{ --md-default-bg-color: #fff; --md-default-fg-color: rgba(0,0,0,.87); }}
[data-md-color-scheme=slate] {{ --md-default-bg-color: hsla(232,15%,14%,1); --md-default-fg-color: hsla(232,75%,95%,.82);
  color-scheme: dark; }}
body {{ margin: 0; font: 16px/1.5 sans-serif; background: var(--md-default-bg-color); color: var(--md-default-fg-color); }}
.md-content {{ max-width: 1168px; margin: 0 auto; padding: 0 16px; }}
.md-typeset figure {{ display: flex; flex-flow: column; align-items: center; margin: 1em auto; max-width: 100%;
  width: fit-content; }}
.md-typeset figcaption {{ font-style: italic; margin: 1em auto; max-width: 24rem; }}
a {{ color: inherit; }}
</style></head>
<body data-md-color-scheme="default">
<article class="md-content md-typeset" id="column">
<h1>Lecture 7: speculative decoding</h1>
<p><a id="before" href="#before">Read the paper first.</a></p>
{body}
<p><a id="after" href="#after">After the widget, the notes go on.</a></p>
</article>
</body></html>
"""

# An unrelated frame (a video, a quiz) that posts a specstep height message to its parent.
INTRUDER = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>quiz</title></head><body>
<p>An unrelated quiz.</p>
<script>setInterval(() => parent.postMessage({type: "specstep:height", height: 1e9}, "*"), 100);</script>
</body></html>
"""

# The frame's page: its background and root theme, and every chip's state and colours, across shadow roots.
FRAME_LOOK_JS = """
() => {
  const chips = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll("*")) {
      if (el.classList.contains("chip") || el.classList.contains("chip-button")) {
        const style = getComputedStyle(el);
        chips.push({ cls: el.className, background: style.backgroundColor, color: style.color });
      }
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  return { theme: document.documentElement.dataset.theme || null,
           background: getComputedStyle(document.body).backgroundColor, chips };
}
"""

SPECSTEP_FRAMES = "iframe[src*='index.html']"  # the snippet's frames, in the notes' order
LIGHT_PAGE, DARK_PAGE = "rgb(245, 247, 250)", "rgb(16, 19, 23)"  # app/styles/page.css, --sp-page


@pytest.fixture(scope="module")
def built():
    return real_site()


class Notes:
    """A folder of course-notes pages served on their own port (another origin than the site)."""

    def __init__(self):
        self.folder = tempfile.TemporaryDirectory()
        self.server = LocalServer(Path(self.folder.name))
        self.url = self.server.url

    def page(self, name, body):
        (Path(self.folder.name) / name).write_text(NOTES.format(body=body), encoding="utf-8")
        return self.url + name

    def close(self):
        self.server.stop()
        self.folder.cleanup()


@pytest.fixture(scope="module")
def notes():
    made = Notes()
    yield made
    made.close()


@pytest.fixture
def visit(chromium):
    opened = Visit(chromium)
    yield opened
    assert opened.errors == [], opened.errors
    opened.close()


def frame_of(visit, index=0, timeout=120.0):
    """The page of the index-th specstep frame in the notes, once it is loading the site's page
    (a lazy frame starts on about:blank, and a cross-origin page may replace that frame)."""
    deadline = time.monotonic() + timeout
    while True:
        frame = visit.page.locator(SPECSTEP_FRAMES).nth(index).element_handle().content_frame()
        if (frame and "index.html" in frame.url) or time.monotonic() > deadline:
            return frame
        visit.page.wait_for_timeout(100)


# Frames are polled on a timer: Chromium draws no frames (no requestAnimationFrame) in an
# off-screen cross-origin iframe.
def wait_frame_ready(visit, index=0, timeout=240_000):
    frame_of(visit, index).wait_for_function("() => document.body && document.body.dataset.specstep === 'ready'",
                                             timeout=timeout, polling=250)


def frame_box(visit, selector=SPECSTEP_FRAMES):
    return visit.page.evaluate(f"() => {{ const r = document.querySelector({selector!r}).getBoundingClientRect();"
                               " return [r.width, r.height]; }")


def shoot(visit, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    visit.page.mouse.move(0, 0)
    visit.page.wait_for_timeout(300)
    path = SCREENSHOTS / f"{name}.png"
    visit.page.screenshot(path=str(path), full_page=True)
    return path


# ---- what the snippet writes -----------------------------------------------------------------------

def test_the_snippet_marks_its_frame_with_the_pages_origin_and_keeps_the_figure_at_full_width():
    code = snippet.snippet("https://Courses.Example.org:8443/specstep/index.html?seed=1", caption="Figure 3")
    assert 'data-specstep="https://courses.example.org:8443"' in code
    figure = re.search(r"<figure([^>]*)>", code).group(1)
    assert "width:100%" in figure and "margin:1em 0" in figure  # a host's fit-content loses to the inline style
    assert 'data-specstep=""' in snippet.iframe("index.html?seed=1")  # a relative address: any origin


def test_the_dark_token_colours_keep_their_text_readable():
    css = (ROOT / "app" / "styles" / "page.css").read_text()
    for token in "abc":
        values = {name or "fill": re.search(rf"--sp-tok-{token}{'-' + name if name else ''}: (#[0-9a-f]{{6}});",
                                            css).group(1) for name in ("", "on", "tint", "ink")}
        assert contrast(values["on"], values["fill"]) >= 4.5, (token, values)
        assert contrast(values["ink"], values["tint"]) >= 4.5, (token, values)
        assert contrast(values["ink"], "#1a1f26") >= 4.5, (token, values)  # a rejected chip on the dark card


# ---- in the notes ------------------------------------------------------------------------------------

@pytest.mark.browser
def test_a_caption_keeps_the_frame_at_the_columns_width(visit, site, notes):
    code = snippet.snippet(site.url + "index.html", title="Lecture 7 widget", caption="Figure 3: one block at a time")
    visit.page.goto(notes.page("caption.html", code))
    visit.page.locator(SPECSTEP_FRAMES).wait_for()
    column = visit.page.evaluate("() => { const c = document.getElementById('column');"
                                 " const s = getComputedStyle(c);"
                                 " return c.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight); }")
    width, _ = frame_box(visit)
    assert column == 1168 and abs(width - column) < 1, (width, column)
    frame_of(visit).wait_for_function("() => !!document.body")
    assert frame_of(visit).evaluate("() => window.innerWidth") >= 1100  # the wide layout, not the phone's


@pytest.mark.browser
def test_the_frame_follows_the_hosts_palette_live_and_theme_in_the_link_still_wins(visit, site, notes):
    code = (snippet.snippet(site.url + "index.html" + EXAMPLE, title="Lecture 7 widget")
            + '\n<div style="height:3000px"></div>\n'
            + snippet.iframe(site.url + "index.html?theme=light", title="Lecture 7, always light"))
    visit.page.goto(notes.page("palette.html", code))
    wait_frame_ready(visit)
    # The first frame keeps its final height from its first paint (the loader's reserve), so the lazy
    # second frame, 3,000 px further down, loads only once the reader nears it.
    visit.page.locator(SPECSTEP_FRAMES).nth(1).scroll_into_view_if_needed()
    first, pinned = frame_of(visit, 0), frame_of(visit, 1)
    visit.page.evaluate("() => window.scrollTo(0, 0)")
    first.wait_for_function("() => document.documentElement.dataset.theme === 'light'", timeout=15_000, polling=250)
    look = first.evaluate(FRAME_LOOK_JS)
    assert look["background"] == LIGHT_PAGE
    shoot(visit, "embed_host_1200_light")

    visit.page.evaluate("() => document.body.setAttribute('data-md-color-scheme', 'slate')")
    first.wait_for_function("() => document.documentElement.dataset.theme === 'dark'", timeout=5_000, polling=250)
    look = first.evaluate(FRAME_LOOK_JS)
    assert look["background"] == DARK_PAGE
    # No chip stays white on the dark page (the legend's rejected and discarded ones among them).
    kinds = {c["cls"] for c in look["chips"]}
    assert any("discarded" in k for k in kinds) and any("rejected" in k for k in kinds), kinds
    assert not [c for c in look["chips"] if c["background"] in ("rgb(255, 255, 255)",)], look["chips"]
    # One palette: a B chip has the colour the charts' dark filter gives B's fill.
    chip_b = next(c["background"] for c in look["chips"] if "tok-B" in c["cls"] and
                  not re.search(r"proposed|rejected|discarded", c["cls"]))
    chart_b = filtered_colour(visit, first, "#E69F00")
    assert close(chip_b, chart_b), (chip_b, chart_b)
    assert pinned.evaluate("() => getComputedStyle(document.body).backgroundColor") == LIGHT_PAGE  # theme=light
    shoot(visit, "embed_host_1200_dark")

    visit.page.evaluate("() => document.body.setAttribute('data-md-color-scheme', 'default')")
    first.wait_for_function("() => document.documentElement.dataset.theme === 'light'", timeout=5_000, polling=250)
    assert first.evaluate(FRAME_LOOK_JS)["background"] == LIGHT_PAGE


def filtered_colour(visit, frame, colour):
    """The colour ``colour`` is drawn in, through the page's chart filter (as a chart's canvas is)."""
    from PIL import Image

    frame.evaluate("""(colour) => { const d = document.createElement('div'); d.id = 'swatch';
      d.style.cssText = `position:fixed;left:0;top:0;width:40px;height:40px;z-index:99999;background:${colour};` +
        'filter:var(--sp-chart-filter, none)'; document.body.appendChild(d); }""", colour)
    visit.page.wait_for_timeout(100)
    shot = frame.locator("#swatch").screenshot()
    frame.evaluate("() => document.getElementById('swatch').remove()")
    r, g, b = Image.open(io.BytesIO(shot)).convert("RGB").getpixel((20, 20))
    return f"rgb({r}, {g}, {b})"


def close(a, b, within=4):
    return all(abs(int(x) - int(y)) <= within for x, y in zip(re.findall(r"\d+", a), re.findall(r"\d+", b)))


@pytest.mark.browser
def test_start_now_by_keyboard_leaves_the_focus_on_the_widgets_first_control(visit, site, notes):
    code = '<div style="height:1400px"></div>\n' + snippet.snippet(site.url + "index.html", title="Lecture 7 widget")
    visit.page.goto(notes.page("keyboard.html", code))
    frame = visit.page.locator(SPECSTEP_FRAMES)
    frame_of(visit).wait_for_function("() => document.getElementById('specstep-status') &&"
                                      " document.getElementById('specstep-status').dataset.stage === 'poster'",
                                      timeout=120_000, polling=250)
    visit.page.focus("#before")
    # Into the waiting embed: its only stop is "Start now", and the Tab scrolls it into view, which starts it.
    visit.page.keyboard.press("Tab")
    visit.page.wait_for_timeout(300)
    loading = frame_of(visit).evaluate(FOCUSED_JS)
    if loading["text"] == "Start now":
        visit.page.keyboard.press("Enter")
        visit.page.wait_for_timeout(300)
        loading = frame_of(visit).evaluate(FOCUSED_JS)
    assert loading["tag"] != "BODY" and loading["text"].startswith("Step "), loading  # on the loading line
    wait_frame_ready(visit)
    visit.page.wait_for_timeout(500)
    now = frame_of(visit).evaluate(FOCUSED_JS)
    assert now and now["tag"] != "BODY", now
    # The widget's first control: Shift+Tab leaves the frame for the notes' link before it ...
    visit.page.keyboard.press("Shift+Tab")
    assert visit.page.evaluate("() => document.activeElement.id") == "before"
    visit.page.keyboard.press("Tab")
    assert frame_of(visit).evaluate(FOCUSED_JS) == now
    # ... and the next Tab stays in the widget.
    visit.page.keyboard.press("Tab")
    assert visit.page.evaluate("() => document.activeElement.tagName") == "IFRAME"
    after = frame_of(visit).evaluate(FOCUSED_JS)
    assert after and after["tag"] != "BODY" and after != now, after
    assert frame.is_visible()


@pytest.mark.browser
def test_a_locked_embeds_disabled_slider_is_no_tab_stop(visit, site, notes):
    code = snippet.snippet(site.url + "index.html?lock=1", title="Lecture 7 widget")
    visit.page.goto(notes.page("locked.html", code))
    wait_frame_ready(visit)
    frame = frame_of(visit)
    visit.page.wait_for_timeout(500)
    sliders = frame.evaluate("""() => { const found = []; const walk = (root) => {
        for (const el of root.querySelectorAll('*')) {
          if (el.getAttribute('role') === 'slider') found.push(el.getAttribute('tabindex'));
          if (el.shadowRoot) walk(el.shadowRoot); } }; walk(document); return found; }""")
    assert sliders and all(t == "-1" for t in sliders), sliders
    visit.page.focus("#before")
    stops = []
    for _ in range(80):
        visit.page.keyboard.press("Tab")
        if visit.page.evaluate("() => document.activeElement.tagName") != "IFRAME":
            break
        stops.append(frame.evaluate(FOCUSED_JS))
    assert stops and visit.page.evaluate("() => document.activeElement.id") == "after", stops[-3:]
    assert not [s for s in stops if s["role"] == "slider"], [s for s in stops if s["role"] == "slider"]


@pytest.mark.browser
def test_the_host_script_sizes_only_specstep_frames_from_their_origin(visit, site, notes):
    (Path(notes.folder.name) / "quiz.html").write_text(INTRUDER, encoding="utf-8")
    ours = snippet.snippet(site.url + "index.html", title="Lecture 7 widget")
    # The same page in a frame whose mark names another origin: its messages are not believed either.
    elsewhere = re.sub(r' data-specstep="[^"]*"', "", snippet.iframe(site.url + "index.html?seed=2",
                       title="Lecture 7, mismarked")).replace("<iframe ", '<iframe data-specstep="http://127.0.0.1:9" ')
    assert 'data-specstep="http://127.0.0.1:9"' in elsewhere
    code = ours + '\n<iframe id="quiz" src="quiz.html" title="Quiz" height="150"></iframe>\n' + elsewhere
    visit.page.goto(notes.page("intruder.html", code))
    frame_of(visit).wait_for_function("() => !!window.specstepPage", timeout=120_000, polling=250)
    # Ours is sized by the host script: a height in px it was posted (the loader's reserve for the step
    # tab, then its content), where the snippet's own CSS height is a max(...) expression.
    visit.page.wait_for_function("() => /^[0-9.]+px$/.test(document.querySelector(\"iframe[title='Lecture 7 widget']\")"
                                 ".style.height)", timeout=30_000)
    visit.page.wait_for_timeout(1500)
    assert visit.page.evaluate("() => document.getElementById('quiz').style.height") == ""  # never sized
    assert frame_box(visit, "#quiz")[1] < 200
    assert frame_box(visit, "iframe[title='Lecture 7, mismarked']")[1] == 2200  # its CSS height, untouched


@pytest.mark.browser
def test_a_host_script_loaded_after_the_widget_is_drawn_still_sizes_and_tells_it(visit, site, notes):
    # Notes that load the host script late (a theme's deferred bundle): the widget in the frame posted its
    # height before anyone listened, and after a kept takeover it may never change again. The host's hello
    # makes page.js post it again, with the scheme it was told (none), so the host tells it the palette.
    frame_tag = snippet.iframe(site.url + "index.html", title="Lecture 7 widget")
    visit.page.goto(notes.page("late.html", frame_tag.replace("<iframe ", '<iframe id="late" ')))
    wait_frame_ready(visit)
    frame = frame_of(visit)
    assert not re.fullmatch(r"[0-9.]+px", visit.page.evaluate("() => document.getElementById('late').style.height"))
    visit.page.evaluate("() => document.body.setAttribute('data-md-color-scheme', 'slate')")
    visit.page.add_script_tag(content=snippet.HOST_JS)
    visit.page.wait_for_function("() => /^[0-9.]+px$/.test(document.getElementById('late').style.height)",
                                 timeout=15_000, polling=100)
    frame.wait_for_function("() => document.documentElement.dataset.theme === 'dark'", timeout=15_000, polling=250)
    posted = float(visit.page.evaluate("() => document.getElementById('late').style.height")[:-2])
    frame.wait_for_function("(h) => Math.abs(window.innerHeight - h) <= 1", arg=posted, timeout=5_000, polling=100)
    assert posted > 2200  # the widget's own height, not the snippet's fallback (2200 px at this width)
