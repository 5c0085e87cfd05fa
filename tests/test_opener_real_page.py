"""Quick clicks on HTML buttons (``parts.Opener``) in the built page, real Pyodide 0.29.3 offline in Chromium.

A call button, a token chip and a timeline moment write into one hidden input. While the
worker is busy the loader keeps only the latest value of a property, so clicks made close
together used to reach Python as the last one alone. Here three calls are clicked in one tick
(the first goes, the worker is busy, the other two wait) and every one must reach the model in
order; a single click is still one patch.

The worked block (tests/test_predict.py): biased draft, width 3, seed 1, proposals A, A, B.
"""

from __future__ import annotations

import pytest

from build_support.browser import click_and_measure, instrument
from build_support.fixtures import chromium, site  # noqa: F401 (fixtures)
from build_support.real_site import real_site
from test_step_back_real_page import visit  # noqa: F401 (fixture)

from app.i18n import t
from app.step import predict_words
from core.predict import KEPT, REJECTED

pytestmark = pytest.mark.browser

LINK = "index.html?draft=biased&width=3&seed=1&predict=1"
CLICK_ALL_JS = "(buttons) => { for (const button of buttons) button.click(); }"


@pytest.fixture(scope="module")
def built():
    return real_site()


def call_button(visit, position, token, call):
    return visit.button(predict_words.call_label(position, token, call))


def settle(visit, quiet_ms=600, timeout_ms=30_000):
    """Wait until the worker has answered every patch the page posted and been quiet for a while."""
    visit.page.wait_for_function(
        """(quiet) => { const log = window.specstepWorker.specstepLog; if (!log.length) return false;
             const sent = log.filter(e => e[0] === 'sent').length, idle = log.filter(e => e[0] === 'idle').length;
             return idle >= sent && performance.now() - log[log.length - 1][1] >= quiet; }""",
        arg=quiet_ms, timeout=timeout_ms, polling=100)


def test_calls_clicked_in_one_tick_all_reach_the_model_in_order(visit, site, built):
    visit.page.goto(site.url + LINK)
    visit.wait_ready()
    click_and_measure(visit, "Draft")
    visit.has_text("3 proposals still need one", timeout=30)
    clicks = [(1, "A", KEPT), (2, "A", KEPT), (3, "B", REJECTED), (1, "A", REJECTED)]
    handles = [call_button(visit, *c).element_handle() for c in clicks]
    instrument(visit)
    visit.page.evaluate("window.specstepWorker.specstepLog.length = 0")
    visit.page.evaluate(CLICK_ALL_JS, handles)
    settle(visit)
    # Every call counted (none still missing), and the last call on position 1 is the one kept.
    visit.has_text("Every proposal has a call", timeout=10)
    pressed = {c: call_button(visit, *c).get_attribute("aria-pressed") for c in clicks}
    assert pressed == {(1, "A", KEPT): "false", (2, "A", KEPT): "true", (3, "B", REJECTED): "true",
                       (1, "A", REJECTED): "true"}, pressed
    single = click_and_measure(visit, "", target=call_button(visit, 2, "A", REJECTED))
    assert single["patches"] == 1, single
    assert call_button(visit, 2, "A", REJECTED).get_attribute("aria-pressed") == "true"
    # Verify reveals: each call judged beside its exact probability, and the tally (issue 28, real page).
    verify = click_and_measure(visit, "Verify")
    assert verify["patches"] == 1, verify
    visit.has_text(t("step.predict.reveal_title"), timeout=30)
    visit.has_text("with probability", timeout=10)
    visit.has_text("Tally: ", timeout=10)
    assert visit.errors == [], visit.errors


def test_a_chip_between_two_calls_is_not_lost(visit, site, built):
    """Call, chip, call in one tick: the chip (a different key of the same input) opens its position."""
    visit.page.goto(site.url + LINK)
    visit.wait_ready()
    click_and_measure(visit, "Draft")
    visit.has_text("3 proposals still need one", timeout=30)
    chip = visit.page.locator('[data-sp-open="0:1"]').first
    handles = [call_button(visit, 1, "A", KEPT).element_handle(), chip.element_handle(),
               call_button(visit, 2, "A", KEPT).element_handle()]
    instrument(visit)
    visit.page.evaluate("window.specstepWorker.specstepLog.length = 0")
    visit.page.evaluate(CLICK_ALL_JS, handles)
    settle(visit)
    visit.has_text("1 proposal still needs one", timeout=10)
    assert visit.page.locator('[data-sp-open="0:1"]').first.get_attribute("aria-current") == "true"
    assert visit.errors == [], visit.errors
