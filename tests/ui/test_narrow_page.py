"""A 343 px phone (issue 23, item 10): chart titles wrap instead of being cut off, and the
inspector's values get the width of the card rather than a column of ~110 px.

Bokeh draws a plot's title on its canvas, on one line: at 343 px "Draft q, after A (p
comes with Verify)" ended in "(p comes with Ver". Screenshots at 1200 and 343 px go to
``tests/screenshots/``.
"""

import pytest
from reading import assert_clean, has_text, no_horizontal_scroll

from app.i18n import t

pytestmark = pytest.mark.browser

NARROW = 343

# Every element matching a selector, shadow roots included, with its box and its text.
BOXES_JS = """
(selector) => {
  const out = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.matches(selector)) {
        const r = el.getBoundingClientRect();
        out.push({left: r.left, right: r.right, width: r.width, height: r.height,
                  text: el.textContent, scrollWidth: el.scrollWidth, clientWidth: el.clientWidth,
                  lineHeight: parseFloat(getComputedStyle(el).lineHeight) || 20});
      }
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  return out.filter((b) => b.width > 0);
}
"""


def boxes(page, selector):
    return page.evaluate(BOXES_JS, selector)


def button(page, name):
    return page.get_by_role("button", name=name, exact=True)


def titles_fit(page, wanted):
    """Every chart title in ``wanted`` is on the page as text, inside the screen, not clipped."""
    width = page.viewport_size["width"]
    found = {b["text"].strip(): b for b in boxes(page, ".chart-title")}
    for title in wanted:
        assert title in found, f"chart title {title!r} is not text on the page: {sorted(found)}"
        box = found[title]
        assert box["left"] >= 0 and box["right"] <= width + 0.5, (title, box)
        assert box["scrollWidth"] <= box["clientWidth"] + 1, f"{title!r} is cut off: {box}"


def test_at_343_px_the_inspectors_chart_titles_wrap_and_its_values_use_the_width(app_page):
    page = app_page.open("?draft=biased&width=3&seed=1")
    page.set_viewport_size({"width": NARROW, "height": 900})
    button(page, "Draft").click()
    long_title = t("step.chart.q_at", where=t("step.short_row.start"))
    has_text(page, long_title, timeout=30)
    titles_fit(page, [long_title])
    button(page, "Verify").click()
    has_text(page, t("step.chart.residual"), timeout=30)
    page.get_by_role("button", name="rejected").first.click()
    has_text(page, t("step.fact.decision"), timeout=30)
    titles_fit(page, [t("step.chart.residual"), t("step.chart.stack")])
    facts = boxes(page, "dl.facts")
    values = boxes(page, "dl.facts dd")
    assert facts and values
    card = max(f["width"] for f in facts)
    narrowest = min(v["width"] for v in values)
    assert narrowest >= 0.75 * card, f"a value has {narrowest:.0f} px of a {card:.0f} px card"
    tallest = max(v["height"] / v["lineHeight"] for v in values)
    assert tallest <= 5, f"an inspector value wraps to {tallest:.0f} lines"
    assert no_horizontal_scroll(page)
    page.shoot(f"narrow_inspector_{NARROW}")
    page.shoot("narrow_inspector_1200", width=1200)
    titles_fit(page, [t("step.chart.residual"), t("step.chart.stack")])
    assert_clean(page)


def test_at_343_px_the_payoff_tabs_chart_titles_wrap(app_page):
    page = app_page.open("?draft=biased&width=3&seed=1")
    page.set_viewport_size({"width": NARROW, "height": 900})
    page.get_by_role("tab", name=t("tab.payoff")).click()
    has_text(page, t("guesses.payoff.chart"), timeout=60)
    titles_fit(page, [t("payoff.chart.speed"), t("payoff.chart.passes"), t("guesses.payoff.chart")])
    assert no_horizontal_scroll(page)
    page.shoot(f"narrow_payoff_{NARROW}")
    assert_clean(page)


def test_at_343_px_the_exact_tabs_chart_title_wraps(app_page):
    page = app_page.open("?draft=biased&width=3&seed=1")
    page.set_viewport_size({"width": NARROW, "height": 900})
    page.get_by_role("tab", name=t("tab.exact")).click()
    page.wait_for_function(
        "() => { const s = []; const w = (r) => { for (const e of r.querySelectorAll('*')) {"
        " if (e.matches('.chart-title')) s.push(e); if (e.shadowRoot) w(e.shadowRoot); } }; w(document);"
        " return s.length > 0; }", timeout=60_000)
    titles = [b["text"].strip() for b in boxes(page, ".chart-title")]
    titles_fit(page, titles)
    page.shoot(f"narrow_exact_{NARROW}")
    assert_clean(page)
