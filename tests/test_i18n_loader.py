"""web/loader.js in Chinese (issue 15): the loading steps, the problems and the placeholder
follow the link's ``?lang=zh`` or the browser's language, and hide the English pre-render.

Runs the loader on the same small stand-in page as tests/test_loader.py.
"""

from __future__ import annotations

import re

import pytest

from build_support.servers import LocalServer
from test_loader import DEFAULT_NUMBERS, Visit, chrome, make_site, visible_text, wait_step  # noqa: F401

LATIN_WORDS = re.compile(r"[A-Za-z][A-Za-z-]+")
# Latin words the Chinese loader keeps: names of things a reader may need to look up.
ALLOWED = {"Python", "Pyodide", "MB", "Web", "Worker", "WebAssembly", "Firefox", "Chrome", "Edge", "Safari",
           "iframe", "sandbox", "allow-scripts", "allow-same-origin", "pyodide-url", "stand-in", "failure"}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = make_site(tmp_path_factory.mktemp("loader_zh") / "site")
    with LocalServer(folder) as server:
        yield server


def english(text):
    return sorted(set(LATIN_WORDS.findall(text)) - ALLOWED)


@pytest.mark.browser
def test_the_steps_are_said_in_chinese_when_the_link_asks(chrome, site):  # noqa: F811
    with Visit(chrome) as visit:
        visit.page.goto(site.url + "index.html?lang=zh&plan=runtime:300,runtime-start:300,packages:300,app:hang")
        wait_step(visit, 4)
        log = visit.log()
        assert [line.split("：")[0] for line in log[-4:]] == [f"第 {n} 步，共 4 步" for n in (1, 2, 3, 4)], log
        assert all(english(line) == [] for line in log[-4:]), log
        assert visit.page.evaluate("document.documentElement.lang") == "zh-CN"
        # The pre-render is English: a Chinese link shows a Chinese placeholder instead.
        placeholder = visit.page.locator(".specstep-placeholder")
        assert placeholder.inner_text().startswith("正在加载中文版小部件…")
        assert DEFAULT_NUMBERS not in visible_text(visit.page)
        assert visit.errors == []


@pytest.mark.browser
def test_a_problem_is_said_in_chinese_with_a_chinese_reload_button(chrome, site):  # noqa: F811
    with Visit(chrome, limits={"app": 800}) as visit:
        visit.page.goto(site.url + "index.html?lang=zh&draft=biased&seed=1&plan=runtime:50,runtime-start:50,"
                                   "packages:50,app:hang")
        visit.page.wait_for_selector(".specstep-problem", timeout=10_000)
        text = visit.status()
        assert "小部件在 1 秒后仍未构建完成" in text and "怎么办：" in text, text
        assert english(text) == [], text
        assert visit.page.get_by_role("button", name="重新加载页面").is_visible()
        assert visit.page.locator(".specstep-placeholder").inner_text().startswith("正在加载种子 1（有偏的草稿模型）…")
        visit.shot("zh_hang_app_1200")


@pytest.mark.browser
def test_the_browser_language_chooses_chinese_and_a_link_can_choose_english(chrome, site):  # noqa: F811
    context = chrome.new_context(viewport={"width": 375, "height": 800}, locale="zh-CN")
    try:
        page = context.new_page()
        page.goto(site.url + "index.html?plan=fail-runtime")
        page.wait_for_selector(".specstep-problem", timeout=10_000)
        text = page.evaluate("document.getElementById('specstep-status').innerText")
        assert "无法从 127.0.0.1 下载 Python" in text, text
        page.screenshot(path=str(site_screenshot("loader_zh_failed_375")))
        page.goto(site.url + "index.html?lang=en&plan=fail-runtime")
        page.wait_for_selector(".specstep-problem", timeout=10_000)
        text = page.evaluate("document.getElementById('specstep-status').innerText")
        assert "Python could not be downloaded from 127.0.0.1" in text, text
        assert page.locator(".specstep-placeholder").count() == 0  # English link, English pre-render: the preview
    finally:
        context.close()


def site_screenshot(name):
    from test_loader import SCREENSHOTS
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / f"{name}.png"
