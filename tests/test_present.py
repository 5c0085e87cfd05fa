"""Present mode, for a lecture hall (issue 28 item 2): ``present=1`` or the Present button shows only what a
projector needs, in type at least 1.5 times as large, dark and light, in both languages; Esc leaves.

Under ``panel serve`` at 1920 x 1080 in Debian's Chromium. The screenshot of each mode is also saved
scaled to 960 x 540 (tests/screenshots/present-*.png), the size a reader at the back of a room sees it.
"""

import pytest
from embed_support import SCREENSHOTS, app_url, axe_violations, browser, open_app, page  # noqa: F401 (fixtures)

from app.i18n import use, t

pytestmark = pytest.mark.browser

BIASED = "?draft=biased&width=3&seed=1"
HD = {"width": 1920, "height": 1080}

# The size a reader sees, in CSS px of the screen: the computed size times every zoom above it.
TYPE_JS = """(text) => {
  const found = [];
  const walk = (root) => { for (const el of root.querySelectorAll('*')) { if (el.shadowRoot) walk(el.shadowRoot);
    if (el.matches(text)) found.push(el); } };
  walk(document);
  const el = found.find((e) => e.checkVisibility());
  return el ? parseFloat(getComputedStyle(el).fontSize) * (el.currentCSSZoom || 1) : 0;
}"""
PRESENTING_JS = "() => document.documentElement.classList.contains('sp-present')"


def labels(lang):
    with use(lang):
        return t("page.present"), t("page.present.leave"), t("step.label.draft"), t("step.output.title")


def sizes(p):
    return {name: p.evaluate(TYPE_JS, selector) for name, selector in
            (("caption", ".caption .happened"), ("keys", ".shortcuts"), ("chips", ".legend"))}


def draft_button(p, lang):
    return p.get_by_role("button", name=labels(lang)[2], exact=True)


def hidden_parts(lang):
    with use(lang):
        return (t("page.title"), t("embed.guide.title"), t("embed.builder.title"), t("step.field.seed"))


def shoot_small(p, name):
    """The screen as a 1920 x 1080 picture, and scaled to 960 x 540 by PIL (what the back row reads)."""
    from PIL import Image
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    full = SCREENSHOTS / f"present-{name}-1920.png"
    p.mouse.move(0, 0)
    p.wait_for_timeout(300)
    p.screenshot(path=str(full))
    small = SCREENSHOTS / f"present-{name}-960.png"
    Image.open(full).resize((960, 540), Image.LANCZOS).save(small)
    return small


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_button_presents_only_the_projectors_parts_larger_and_esc_leaves(page, app_url, lang):
    present, leave, draft, output = labels(lang)
    p = open_app(page(**HD), app_url, BIASED + f"&lang={lang}") if lang == "en" else page(**HD)
    if lang == "zh":
        p.goto(app_url + BIASED + "&lang=zh")
        draft_button(p, lang).wait_for(state="visible", timeout=60_000)
        p.wait_for_timeout(400)
    before = sizes(p)
    assert all(before.values()), before
    for text in hidden_parts(lang):
        assert p.get_by_text(text, exact=True).first.is_visible(), text
    p.get_by_role("button", name=present, exact=True).click()
    p.wait_for_function(PRESENTING_JS, timeout=10_000)
    p.wait_for_timeout(500)
    assert "present=1" in p.url
    after = sizes(p)
    for name in before:
        assert after[name] >= 1.5 * before[name], (name, before[name], after[name])
    assert draft_button(p, lang).is_visible()
    assert p.get_by_role("button", name=leave, exact=True).is_visible()
    assert p.get_by_role("heading", name=output).is_visible()
    assert p.locator(".shortcuts").first.is_visible()
    for text in hidden_parts(lang):
        assert not p.get_by_text(text, exact=True).first.is_visible(), text
    assert not p.get_by_role("tablist").first.is_visible()
    # Still a working widget: Draft drafts, in large type.
    draft_button(p, lang).click()
    p.wait_for_timeout(800)
    assert p.evaluate(PRESENTING_JS)
    assert not axe_violations(p)
    shoot_small(p, f"light-{lang}")
    p.keyboard.press("Escape")
    p.wait_for_function("() => !document.documentElement.classList.contains('sp-present')", timeout=10_000)
    p.wait_for_timeout(500)
    assert "present=1" not in p.url
    assert sizes(p) == before
    for text in hidden_parts(lang):
        assert p.get_by_text(text, exact=True).first.is_visible(), text
    assert p.get_by_role("button", name=present, exact=True).is_visible()


def test_a_link_with_present_1_opens_presenting_in_the_dark_theme(page, app_url):
    p = page(**HD, color_scheme="dark")
    p.goto(app_url + BIASED + "&present=1&theme=dark")
    draft_button(p, "en").wait_for(state="visible", timeout=60_000)
    p.wait_for_function(PRESENTING_JS, timeout=10_000)
    p.wait_for_timeout(500)
    background = p.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(16, 19, 23)", background  # --sp-page of the dark palette
    for text in hidden_parts("en"):
        assert not p.get_by_text(text, exact=True).first.is_visible(), text
    assert sizes(p)["caption"] >= 1.5 * 15.3  # the caption's 1.02rem at its normal size
    assert not axe_violations(p)
    shoot_small(p, "dark-en")
    p.keyboard.press("Escape")
    p.wait_for_function("() => !document.documentElement.classList.contains('sp-present')", timeout=10_000)
    assert p.get_by_text(hidden_parts("en")[0], exact=True).first.is_visible()


def test_a_bad_present_value_says_so_and_does_not_present(page, app_url):
    p = open_app(page(**HD), app_url, BIASED + "&present=maybe")
    assert not p.evaluate(PRESENTING_JS)
    assert p.get_by_text("The link's present is not valid", exact=False).first.is_visible()
