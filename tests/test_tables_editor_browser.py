"""The table editor in Chromium (issue 29 item 2), under ``panel serve``.

A teacher types numbers into the grids, reads core's message, normalises a row by keyboard,
uses the numbers on the page, builds an embed with its own numbers and opens the embed's link:
the inspector shows numbers no authored table has (0.6, 0.3, 0.1 and 0.2, 0.5, 0.3).
axe-core finds no critical or serious problem with the grids open, at 1200 and 375 px, light and dark.
"""

import re
from html import unescape

import pytest
from embed_support import SCREENSHOTS, WIDTHS, app_url, axe_violations, browser, open_app, page  # noqa: F401 (fixtures)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

LINK = "?draft=biased&width=2&seed=1"
EMBED_FORM = "Write the embed code"


def button(scope, name):
    return scope.get_by_role("button", name=name, exact=True)


def box(scope, name):
    return scope.get_by_label(name, exact=True)


def deep_text(p):
    return p.evaluate("""() => { const out = []; const walk = (n) => { if (n.shadowRoot) walk(n.shadowRoot);
      for (const c of n.childNodes) { if (c.nodeType === 3) out.push(c.textContent); else walk(c); } };
      walk(document.body); return out.join(' ').replace(/\\s+/g, ' '); }""")


def has_text(p, *parts, timeout=15_000):
    for _ in range(timeout // 100):
        text = deep_text(p)
        if all(part in text for part in parts):
            return text
        p.wait_for_timeout(100)
    raise AssertionError(f"not on the page: {[part for part in parts if part not in deep_text(p)]}")


def picture(locator, name):
    """A screenshot of one part (``tests/screenshots/NAME.png``), looked at by people."""
    locator.scroll_into_view_if_needed()
    locator.page.mouse.move(0, 0)
    locator.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def own(p):
    return p.locator(".sp-own-page")


def test_typing_shows_cores_message_and_normalise_works_by_keyboard(page, app_url):
    p = open_app(page(), app_url, LINK)
    button(p, "Your own numbers").click()
    first = box(own(p), "p(A) at the start")
    first.wait_for(timeout=30_000)
    first.fill("0.6")
    has_text(p, "the target table's first row (the empty prefix): the entries sum to 11/10, not exactly 1 "
                "(1/10 too much)", "A row above is not a distribution yet")
    expect(button(own(p), "Use these numbers")).to_be_disabled()
    box(own(p), "p(B) at the start").fill("abc")
    has_text(p, "entry 2 (B): it, 'abc', is not a number")
    box(own(p), "p(B) at the start").fill("0.3")
    normalise = button(p, "Normalise the target table's row at the start")
    normalise.focus()
    p.keyboard.press("Enter")
    expect(box(own(p), "p(A) at the start")).to_have_value("6/11", timeout=20_000)
    has_text(p, "Every row sums to exactly 1.")
    button(own(p), "Reset to the authored rows").click()
    expect(box(own(p), "p(A) at the start")).to_have_value("0.5", timeout=20_000)


def test_use_these_numbers_runs_the_page_on_them(page, app_url):
    p = open_app(page(), app_url, LINK)
    button(p, "Your own numbers").click()
    box(own(p), "p(A) at the start").wait_for(timeout=30_000)
    for name, value in (("p(A) at the start", "0.6"), ("p(C) at the start", "0.1"),
                        ("q(A) at the start", "0.2"), ("q(B) at the start", "0.5"), ("q(C) at the start", "0.3")):
        box(own(p), name).fill(value)
    has_text(p, "Every row sums to exactly 1.", "custom draft, width 2, seed 1")
    picture(own(p), "tables_editor_preview_1200")
    button(own(p), "Use these numbers").click()
    has_text(p, "Opened the page on your own numbers")
    expect(button(p, "Custom")).to_have_attribute("aria-pressed", "true", timeout=20_000)
    expect(p).to_have_url(re.compile(r"draft=custom.*target=.*q="), timeout=20_000)


def test_an_embed_built_with_the_editor_opens_on_its_numbers(page, app_url):
    p = open_app(page(), app_url, LINK)
    embed = p.locator(".sp-own-embed")
    button(p, EMBED_FORM).click()  # the embed form is drawn when asked for
    button(p, "Your own numbers in the embed").click()
    box(embed, "p(A) at the start").wait_for(timeout=30_000)
    for name, value in (("p(A) at the start", "0.6"), ("p(C) at the start", "0.1"),
                        ("q(A) at the start", "0.2"), ("q(B) at the start", "0.5"), ("q(C) at the start", "0.3")):
        box(embed, name).fill(value)
    area = p.get_by_label("Embed code", exact=False)
    expect(area).to_have_value(re.compile(r"target=0\.6,0\.3,0\.1&q=0\.2,0\.5,0\.3"), timeout=20_000)
    picture(p.locator(".sp-own-embed"), "tables_editor_embed_1200")
    src = unescape(re.search(r'src="([^"]+)"', area.input_value())[1])
    assert "draft=custom" in src
    p.goto(app_url + "?" + src.split("?", 1)[1])
    button(p, "Draft").wait_for(timeout=60_000)
    button(p, "Draft").click()
    button(p, "Verify").click()
    p.get_by_role("button", name="rejected").first.click()
    has_text(p, "0.20 0.50 0.30", "0.60 0.30 0.10")


@pytest.mark.parametrize("width, scheme", [(w, "light") for w in WIDTHS] + [(1200, "dark"), (375, "dark")])
def test_the_open_editor_is_axe_clean_and_fits(page, app_url, width, scheme):
    p = open_app(page(width=width, color_scheme=scheme), app_url, LINK + ("&theme=dark" if scheme == "dark" else ""))
    button(p, "Your own numbers").click()
    box(own(p), "q(C) after C").wait_for(timeout=30_000)
    box(own(p), "q(A) after B").fill("0.9")  # a message on screen too
    has_text(p, "the q table's row after B")
    assert p.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    picture(own(p), f"tables_editor_page_{width}_{scheme}")
    assert axe_violations(p) == []


def test_the_chinese_editor_speaks_chinese_and_fits_a_phone(page, app_url):
    p = page(width=375)
    p.goto(app_url + LINK + "&lang=zh")
    button(p, "你自己的数字").click(timeout=60_000)
    box(own(p), "q(C)，在 C 之后").wait_for(timeout=30_000)
    box(own(p), "p(B)，在开头").fill("0,5")
    has_text(p, "目标表中在开头，B 那一项：0,5 不是数字")
    assert p.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    picture(own(p), "tables_editor_page_375_zh")
    assert axe_violations(p) == []


def controlled_names(p, opener_name):
    """What the accessibility tree says the button named ``opener_name`` controls: the names of the
    fields inside the parts it points to (Chromium's own tree, through the DevTools protocol)."""
    cdp = p.context.new_cdp_session(p)
    nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    by_backend = {n.get("backendDOMNodeId"): n for n in nodes}
    by_id = {n["nodeId"]: n for n in nodes}
    [opener] = [n for n in nodes if n.get("role", {}).get("value") == "button"
                and n.get("name", {}).get("value") == opener_name]
    controls = [prop for prop in opener.get("properties", []) if prop["name"] == "controls"]
    names = []
    for prop in controls:
        for related in prop["value"].get("relatedNodes", []):
            stack = [by_backend[related["backendDOMNodeId"]]]
            while stack:
                node = stack.pop()
                names.append(node.get("name", {}).get("value", ""))
                stack.extend(by_id[c] for c in node.get("childIds", []) if c in by_id)
    return names


@pytest.mark.parametrize("name, part", [("Your own numbers", ".sp-own-page"),
                                        ("Your own numbers in the embed", ".sp-own-embed")])
def test_the_editors_button_is_a_disclosure_that_says_expanded_not_pressed(page, app_url, name, part):
    p = open_app(page(), app_url, LINK)
    if part == ".sp-own-embed":
        button(p, EMBED_FORM).click()
    opener = button(p, name)
    expect(p.get_by_role("button", name=name, exact=True, expanded=False)).to_have_count(1, timeout=20_000)
    assert opener.get_attribute("aria-pressed") is None
    opener.click()
    box(p.locator(part), "p(A) at the start").wait_for(timeout=30_000)
    expect(p.get_by_role("button", name=name, exact=True, expanded=True)).to_have_count(1, timeout=20_000)
    assert opener.get_attribute("aria-pressed") is None
    assert p.get_by_role("button", name=name, exact=True, pressed=True).count() == 0
    # aria-controls: the button points at the part it opens, the grids inside.
    assert "p(A) at the start" in controlled_names(p, name)
    assert axe_violations(p) == []
    opener.click()
    expect(p.get_by_role("button", name=name, exact=True, expanded=False)).to_have_count(1, timeout=20_000)
    expect(box(p.locator(part), "p(A) at the start")).to_be_hidden()


def test_the_embed_form_opens_from_a_disclosure_and_holds_the_code(page, app_url):
    p = open_app(page(), app_url, LINK)
    expect(p.get_by_role("button", name=EMBED_FORM, exact=True, expanded=False)).to_have_count(1, timeout=20_000)
    assert p.get_by_role("textbox", name="Embed code for this scenario").count() == 0  # not drawn until asked for
    button(p, EMBED_FORM).click()
    area = p.get_by_role("textbox", name="Embed code for this scenario")
    expect(area).to_have_value(re.compile(r'^<iframe src=".*draft=biased&width=2&seed=1'), timeout=20_000)
    expect(p.get_by_role("button", name=EMBED_FORM, exact=True, expanded=True)).to_have_count(1, timeout=20_000)
    assert "Embed code for this scenario" in controlled_names(p, EMBED_FORM)
    assert axe_violations(p) == []
    button(p, EMBED_FORM).click()
    expect(area).to_be_hidden()
