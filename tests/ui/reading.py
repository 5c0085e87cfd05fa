"""What the browser test files read from a page: text that arrives, a clean run, no sideways scroll."""

import time
from urllib.parse import urlparse


def has_text(page, *parts, timeout=10.0):
    """Wait until the page's text holds every part (updates arrive pane by pane); return the text."""
    deadline = time.monotonic() + timeout
    while True:
        text = page.text()
        missing = [p for p in parts if p not in text]
        if not missing:
            return text
        if time.monotonic() > deadline:
            raise AssertionError(f"not on the page: {missing}")
        page.wait_for_timeout(50)


def assert_clean(page):
    """No console or server error, no traceback text, and no request beyond 127.0.0.1."""
    assert page.console_errors == []
    assert page.server_errors() == []
    assert "Traceback" not in page.text()
    hosts = {urlparse(url).hostname for url in page.requests if url.startswith("http")}
    assert hosts <= {"127.0.0.1"}, hosts


def no_horizontal_scroll(page):
    return page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def shot_at_both_widths(page, name, narrow=375):
    """Screenshots NAME_1200 and NAME_<narrow> (looked at by people), no sideways scroll at the
    narrow width, and a clean run."""
    page.shoot(f"{name}_1200")
    page.shoot(f"{name}_{narrow}", width=narrow)
    assert no_horizontal_scroll(page)
    assert_clean(page)
