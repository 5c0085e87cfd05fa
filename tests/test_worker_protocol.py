"""app/worker_protocol.py on CPython: the parts that need no browser.

Its start/link/apply_patch run in real Pyodide in test_build_output.py (under Node)
and test_real_page.py (in Chromium); the build's probe runs them under stand-ins.
"""

import panel

from app import worker_protocol


def test_missing_packages_names_what_is_absent_or_at_another_version():
    assert worker_protocol.missing_packages([("panel", panel.__version__)]) == ""
    assert worker_protocol.missing_packages([("panel", "0.0.1"), ("no-such-dist", "1.0")]) == \
        f"panel 0.0.1 (found {panel.__version__}), no-such-dist 1.0 (found None)"
