"""The widget in Chinese (issue 15): ``?lang=zh`` under ``panel serve``, in Chromium.

Every tab's visible text is read as a reader sees it (shadow roots included,
the embed code's text box left out: it is HTML for the teacher) and searched
for English words: anything of two or more Latin letters that is not a name
the Chinese text keeps on purpose (token, Pyodide, p/q/u formulas, the
URL keys a teacher types) fails the test, with the words it found.
"""

import re

import pytest

from reading import assert_clean, has_text

# Latin words the Chinese page keeps on purpose: the field's symbols and formula
# words, names, the URL keys of the embed help, and the language switch.
ALLOWED = {
    "token", "min", "max", "norm", "Pyodide", "Leviathan", "English", "draft_hide", "width", "seed", "reset",
    "counters", "history", "intro", "lang", "en", "zh", "off", "lookahead", "Hugging", "Face", "schedule", "Tab", "top", "Top",
}

VISIBLE_TEXT_JS = """
() => {
  const parts = [];
  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) { parts.push(node.textContent); return; }
    if (node.nodeType !== Node.ELEMENT_NODE && node.nodeType !== Node.DOCUMENT_FRAGMENT_NODE) return;
    if (['SCRIPT', 'STYLE', 'TEXTAREA', 'CODE'].includes(node.tagName)) return;
    if (node.nodeType === Node.ELEMENT_NODE && node.getClientRects().length === 0 && !node.shadowRoot) return;
    if (node.shadowRoot) walk(node.shadowRoot);
    for (const child of node.childNodes) walk(child);
  };
  walk(document.body);
  return parts.join(' ').replace(/\\s+/g, ' ');
}
"""

WORD = re.compile(r"[A-Za-z][A-Za-z_]+")


def english_words(text):
    """The Latin words of ``text`` that are not allowed in the Chinese page."""
    return sorted({w for w in WORD.findall(text) if w not in ALLOWED})


def open_zh(page, query="?lang=zh"):
    page.goto(page.base_url + query)
    page.get_by_role("button", name="起草", exact=True).wait_for(state="visible", timeout=30_000)
    return page


def visible_text(page):
    return page.evaluate(VISIBLE_TEXT_JS)


def test_the_english_word_finder_finds_english():
    assert english_words("草稿模型 proposed 3 个 token: A B") == ["proposed"]
    assert english_words("u = 0.1234 小于 min(1, p(x)/q(x))") == []


def test_step_tab_in_chinese_has_no_english_left_and_draft_verify_commit_work_by_chinese_names(app_page):
    page = open_zh(app_page)
    has_text(page, "推测解码：逐块演示", "逐块演示", "草稿模型", "工作量计数")
    page.get_by_role("button", name="生成嵌入代码", exact=True).click()  # the embed form is drawn when opened
    has_text(page, "要隐藏的部分")
    assert english_words(visible_text(page)) == []
    page.get_by_role("button", name="有偏", exact=True).first.click()
    has_text(page, "换成了有偏的草稿模型")
    page.get_by_role("button", name="起草", exact=True).click()
    has_text(page, "草稿模型提出了")
    assert english_words(visible_text(page)) == []
    page.get_by_role("button", name="验证", exact=True).click()
    has_text(page, "一次目标前向")
    page.get_by_role("button", name="提交", exact=True).click()
    has_text(page, "第 1 块提交了", "块的历史")
    text = visible_text(page)
    assert english_words(text) == [], text
    page.get_by_role("button", name="运行到结束", exact=True).click()
    has_text(page, "输出已有 8 个 token")
    assert english_words(visible_text(page)) == []
    page.shoot("zh-step-1200", width=1200)
    page.shoot("zh-step-375", width=375)
    assert_clean(page)


def test_what_to_try_and_its_rows_table_in_chinese_have_no_english_left(app_page):
    page = open_zh(app_page)
    page.get_by_role("button", name="生成嵌入代码", exact=True).click()  # the embed form is drawn when opened
    has_text(page, "动手试试", "嵌入这个场景", "要隐藏的部分")
    page.get_by_role("button", name="2 · 过于偏爱 A 的草稿模型").click()
    has_text(page, "有偏的草稿模型的第一个候选是 A")
    page.get_by_text("核对你的预测").click()
    page.get_by_text("玩具表格中编写好的全部行").click()
    has_text(page, "绝不会是 A", "有偏的草稿 q", "（开头）")
    text = visible_text(page)
    assert english_words(text) == [], text
    page.locator(".question").scroll_into_view_if_needed()
    page.shoot("zh-guide-1200", width=1200)
    assert_clean(page)


def test_a_bad_link_says_so_in_chinese(app_page):
    page = open_zh(app_page, "?lang=zh&draft=biased&width=99&seed=1")
    has_text(page, "链接中的 width 无效", "从 1 到 8 的整数")
    assert english_words(visible_text(page)) == []
    assert_clean(page)


def test_the_language_switch_reopens_the_same_scenario_in_english(app_page):
    page = open_zh(app_page, "?lang=zh&draft=biased&width=2&seed=5")
    page.get_by_role("link", name="English").click()
    page.get_by_role("button", name="Draft", exact=True).wait_for(state="visible", timeout=30_000)
    assert "lang=en" in page.url and "draft=biased" in page.url and "width=2" in page.url and "seed=5" in page.url
    has_text(page, "Speculative decoding, one block at a time", "Opened the scenario from the link")
    assert_clean(page)


def test_the_browser_language_chooses_chinese_when_the_link_names_none(chromium, served_app):
    context = chromium.new_context(viewport={"width": 1200, "height": 900}, locale="zh-CN")
    try:
        page = context.new_page()
        page.goto(served_app)
        page.get_by_role("button", name="起草", exact=True).wait_for(state="visible", timeout=30_000)
        # The embed code names the language, so the teacher's readers see what the teacher saw.
        page.get_by_role("button", name="生成嵌入代码", exact=True).click()  # the form is drawn when opened
        area = page.get_by_role("textbox", name="这个场景的嵌入代码")
        assert "lang=zh" in area.input_value()
    finally:
        context.close()


def open_tab(page, title):
    page.locator(".bk-tab", has_text=title).click()
    has_text(page, title)


def test_exact_tab_in_chinese_has_no_english_left(app_page):
    page = open_zh(app_page)
    open_tab(page, "为什么是精确的")
    has_text(page, "精确规则保持目标分布", "抽样了 20,000 次运行", "相同的分布，不同的轨迹", "亲手算一个位置",
             timeout=60)
    assert english_words(visible_text(page)) == [], english_words(visible_text(page))
    page.get_by_label("验证规则").select_option(label="朴素重抽")
    has_text(page, "朴素重抽规则以概率", "出现得太多", timeout=30)
    page.get_by_label("A、B、C 的目标概率 p").fill("0.5, 0.3, 0.3")
    page.get_by_label("A、B、C 的目标概率 p").press("Enter")
    has_text(page, "这些数的和是 1.1，而不是恰好 1")
    assert english_words(visible_text(page)) == [], english_words(visible_text(page))
    page.shoot("zh-exact-1200", width=1200)
    page.shoot("zh-exact-375", width=375)
    assert_clean(page)


def test_payoff_tab_in_chinese_has_no_english_left(app_page):
    page = open_zh(app_page)
    page.get_by_role("button", name="有偏", exact=True).first.click()
    page.get_by_role("button", name="运行到结束", exact=True).click()
    open_tab(page, "什么时候划算")
    has_text(page, "用有偏的草稿模型、c = 0.10 时", "你在第一个标签页上的轨迹", timeout=60)
    page.get_by_role("button", name="加上前瞻曲线").click()
    has_text(page, "阈值为 0.30 时", timeout=30)
    assert english_words(visible_text(page)) == [], english_words(visible_text(page))
    page.shoot("zh-payoff-1200", width=1200)
    page.shoot("zh-payoff-375", width=375)
    assert_clean(page)


def test_guesses_tab_in_chinese_has_no_english_left(app_page):
    page = open_zh(app_page)
    open_tab(page, "一次多个候选")
    has_text(page, "每个位置的候选数", "这棵树", timeout=60)
    tab = page.locator(".guesses-tab")
    tab.get_by_role("button", name="起草", exact=True).click()
    has_text(page, "草稿模型抽出了一棵有")
    tab.get_by_role("button", name="验证", exact=True).click()
    has_text(page, "一次目标前向为这棵树打了分")
    tab.get_by_role("button", name="提交", exact=True).click()
    has_text(page, "提交了")
    assert english_words(visible_text(page)) == [], english_words(visible_text(page))
    page.shoot("zh-guesses-1200", width=1200)
    page.shoot("zh-guesses-375", width=375)
    assert_clean(page)


# The computed font of the language switch's links and of a Chinese paragraph, through shadow roots.
FONTS_JS = """() => { const out = {links: [], intro: null}; const walk = (root) => {
  for (const el of root.querySelectorAll('*')) {
    if (el.matches('nav.lang-switch a, nav.lang-switch .lang-now')) out.links.push([el.textContent, getComputedStyle(el).fontFamily]);
    if (el.matches('p.intro')) out.intro = getComputedStyle(el).fontFamily;
    if (el.shadowRoot) walk(el.shadowRoot); } };
  walk(document); return out; }"""


@pytest.mark.parametrize("query", ["?lang=en", "?lang=zh"])
def test_the_language_switch_and_the_chinese_are_drawn_with_a_cjk_font_stack(app_page, query):
    """Issue 23 item 12: "中文" in the switch drew as boxes where the default font has no CJK face.
    The stylesheet's :host rule alone never reached the panes (Bokeh's ``* {font-family: inherit}`` in
    the parent's shadow root wins over it), so this reads what the browser computes."""
    page = app_page
    page.goto(page.base_url + query)
    page.get_by_role("tab").first.wait_for(state="visible", timeout=30_000)
    fonts = page.evaluate(FONTS_JS)
    assert {text for text, _ in fonts["links"]} == {"English", "中文"}, fonts
    for family in [f for _, f in fonts["links"]] + [fonts["intro"]]:
        for name in ("PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC"):
            assert name in family, (family, fonts)
