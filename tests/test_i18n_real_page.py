"""The built page in Chinese, in real Pyodide 0.29.3, offline (issue 15).

The same built site as tests/test_real_page.py: a link's ``?lang=zh`` and, with no
``lang`` in the link, the browser's language (``navigator.language`` as the Pyodide
worker sees it) make the page Chinese; Draft → Verify → Commit work by their Chinese
names; links written by the page keep the language.
"""

from __future__ import annotations

import pytest

import core
from build_support.browser import Visit
from test_real_page import assert_clean, built, chromium, open_ready, site  # noqa: F401

pytestmark = pytest.mark.browser


class LocaleVisit(Visit):
    """A Visit whose browser (page and workers) says it prefers ``locale``."""

    def __init__(self, browser, locale):
        self.context = browser.new_context(viewport={"width": 1200, "height": 900}, locale=locale)
        self.requests, self.errors = [], []
        self.context.on("request", lambda r: self.requests.append(r.url))
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)


def walk_in_chinese(visit):
    for name in ("起草", "验证", "提交"):
        visit.page.get_by_role("button", name=name, exact=True).click()
        if name == "起草":
            visit.page.get_by_role("button", name="候选").first.wait_for(timeout=15_000)
    return visit.has_text("第 1 块提交了", "推测解码：逐块演示")


def test_a_chinese_link_runs_in_chinese(chromium, site):  # noqa: F811
    visit = Visit(chromium)
    try:
        open_ready(visit, site, "?lang=zh&draft=biased&width=3&seed=1")
        walk_in_chinese(visit)
        committed = core.Session.start(core.Config("biased", 3, 1)).draft().verify().commit().output
        visit.has_text(f"已提交 {len(committed)} / 8 个 token", f"第 1 块提交了 {' '.join(committed)}")
        assert "lang=zh" in visit.page.url
        visit.shot("zh_real_page")
        assert_clean(visit)
    finally:
        visit.close()


def test_a_chinese_browser_gets_chinese_without_asking(chromium, site):  # noqa: F811
    visit = LocaleVisit(chromium, "zh-CN")
    try:
        open_ready(visit, site)
        walk_in_chinese(visit)
        visit.button("生成嵌入代码").click()  # the embed form is drawn when opened
        area = visit.page.get_by_role("textbox", name="这个场景的嵌入代码")
        assert "lang=zh" in area.input_value()
        assert_clean(visit)
    finally:
        visit.close()
