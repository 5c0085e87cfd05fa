"""Sessions under ``panel serve`` are freed when their readers leave (issue 10, item 5).

A Panel server runs in this process (on 127.0.0.1) with a short unused-session
lifetime; Bokeh client sessions open the page and close again. Once the server
has destroyed those sessions, none of the app's ``StepModel`` objects may
still be alive: a handler kept per session (such as
``pn.config.exception_handler`` set to a model's method) would keep every
session's model, and the server's memory would grow with each reader.
"""

import gc
import socket
import time

import panel as pn
import pytest

from app import main
from app.step.model import StepModel


def alive_models():
    gc.collect()
    return sum(isinstance(obj, StepModel) for obj in gc.get_objects())


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server():
    port = free_port()
    thread = pn.serve({"main": main.build_page}, port=port, address="127.0.0.1", show=False, threaded=True,
                      websocket_origin=[f"127.0.0.1:{port}"], check_unused_sessions_milliseconds=200,
                      unused_session_lifetime_milliseconds=1000)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    yield f"http://127.0.0.1:{port}/main"
    thread.stop()


def test_the_apps_models_are_freed_when_sessions_are_destroyed(server):
    from bokeh.client import pull_session

    baseline = alive_models()
    destroyed = []
    sessions = [pull_session(url=server, arguments={"draft": "biased", "seed": "1"}) for _ in range(4)]
    # A model alive before (one made while importing, for instance) may be freed meanwhile: count at least.
    assert alive_models() >= 4, "one model per reader"
    for session in sessions:
        session.close()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and alive_models() > baseline:
        time.sleep(0.3)
    destroyed.append(alive_models())
    assert destroyed[0] <= baseline, "every session's model is garbage once its session is destroyed"
