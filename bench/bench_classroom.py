"""A classroom on one ``panel serve app/main.py``: 20 readers clicking "Next step" at once (issue 10 item 5).

    .venv/bin/python bench/bench_classroom.py [--readers 20] [--clicks 15] [--rounds 3] [--time-limit 900]
                                              [--profile FILE]

Prints figures; never fails on time. Bounded: a fixed number of clicks per
reader, a timeout per click and per connect, a global time limit, and the
server is always killed at the end. Traffic goes to 127.0.0.1 only.

The server: ``panel serve app/main.py`` on 127.0.0.1 with
``--check-unused-sessions 1000 --unused-session-lifetime 2000``, so a session
whose reader has left is destroyed within a few seconds (Bokeh's defaults
check every 17 s and keep an unused session 15 s), and
``--rest-session-info --session-history -1``, so ``/rest/session_info``
tells when every session has ended.

The readers are not browsers: each is Bokeh's Python client
(``bokeh.client.ClientSession``) in its own thread with its own event loop,
which pulls the document, announces ``document_ready`` as BokehJS does, then
clicks as fast as the server answers: a click is a ``ButtonClick`` event for
the "Next step" button (or "Reset" once the trace is finished and Next step is
disabled), and its latency is the time until the server's PATCH-DOC for it
arrives (the server sends one per click). The client applies the patches to
its copy of the document, as a page would. It reads messages itself (a loop
over the connection's ``_pop_message``) because the client's public API only
runs its event loop until a condition that is checked when a message arrives.

Per round (all readers connect, wait for each other, click, then leave):
clicks/s over the round (all answered clicks / the time from the first click
to the last answer), click latency p50/p95, and the server's VmRSS (from
/proc/PID/status): fresh before any session, peak while the round runs (sampled
every 0.2 s), after the round with its sessions still open, and after its
sessions are destroyed. Last: the third round's peak over the first's (issue
10's target: within 10%, i.e. a ratio under 1.10). The bench process shares
the machine with the server (and with whatever else runs there): its readers'
CPU time competes with the server's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CONNECT_ATTEMPTS = 5
CLICK_TIMEOUT = 60.0
DESTROY_TIMEOUT = 60.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far (/proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


class Server:
    """``panel serve app/main.py`` on a free port of 127.0.0.1; ``stop()`` always kills it."""

    def __init__(self, profile: str | None = None):
        self.port = free_port()
        self.log = tempfile.TemporaryFile()
        self.profile = profile
        panel = Path(sys.executable).with_name("panel")
        command = [str(panel)] if panel.exists() else [sys.executable, "-m", "panel"]
        if profile:
            # cProfile writes its file when the server exits normally: stop() interrupts it.
            command = [sys.executable, "-m", "cProfile", "-o", profile, "-m", "panel"]
        command += ["serve", "app/main.py", "--address", "127.0.0.1", "--port", str(self.port),
                    f"--allow-websocket-origin=127.0.0.1:{self.port}",
                    "--check-unused-sessions", "1000", "--unused-session-lifetime", "2000",
                    "--rest-session-info", "--session-history", "-1"]
        env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL)
        self.ws_url = f"ws://127.0.0.1:{self.port}/main/ws"

    def wait_up(self, timeout: float = 120.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"panel serve exited with {self.proc.returncode}:\n{self.log_tail()}")
            try:
                self.session_info()
                return
            except OSError:
                time.sleep(0.25)
        raise RuntimeError(f"panel serve did not answer within {timeout:.0f} s:\n{self.log_tail()}")

    def session_info(self) -> dict:
        url = f"http://127.0.0.1:{self.port}/rest/session_info"
        with urllib.request.urlopen(url, timeout=10) as response:
            return json.loads(response.read())["session_info"]

    def open_sessions(self) -> int:
        return sum(s["ended"] is None for s in self.session_info()["sessions"].values())

    def rss(self) -> float:
        return rss_mb(self.proc.pid)

    def log_tail(self, chars: int = 2000) -> str:
        self.log.flush()
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-chars:]

    def stop(self):
        if self.profile and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.log.close()


@dataclass
class Reader:
    """One reader: connects, waits for the others, clicks ``clicks`` times, then waits to be told to leave."""

    ws_url: str
    clicks: int
    start: threading.Barrier
    leave: threading.Event
    deadline: float
    latencies: list[float] = field(default_factory=list)
    answered_at: list[float] = field(default_factory=list)
    resets: int = 0
    failure: str = ""
    connect_attempts: int = 0
    clicked_at: float = 0.0
    done: threading.Event = field(default_factory=threading.Event)

    def run(self):
        try:
            session = self.connect()
            if session is None:
                self.meet()  # the others need not wait for a reader who could not connect
            else:
                session._connection.io_loop.run_sync(lambda: self.drive(session))
        except Exception as error:  # a reader's failure is reported, never a crash of the bench
            self.failure = self.failure or f"{type(error).__name__}: {error}"
        finally:
            self.done.set()

    def meet(self):
        """Wait until every reader has connected (or given up), so that all click at once."""
        try:
            self.start.wait(CLICK_TIMEOUT * 2)
        except threading.BrokenBarrierError:
            pass  # someone waited too long: click anyway

    def connect(self):
        import bokeh.client.session as bcs

        delay = 0.5
        for attempt in range(1, CONNECT_ATTEMPTS + 1):
            self.connect_attempts = attempt
            session = bcs.ClientSession(session_id=None, websocket_url=self.ws_url)
            try:
                session.pull()
                return session
            except (OSError, RuntimeError) as error:
                self.failure = f"connect: {error}"
                session.close()
                if time.monotonic() + delay > self.deadline:
                    break
                time.sleep(delay)
                delay *= 2
        return None

    async def drive(self, session):
        from bokeh.document.events import MessageSentEvent
        from bokeh.events import ButtonClick, DocumentReady
        from bokeh.models import Button

        self.failure = ""
        doc, connection = session.document, session._connection
        arrived = asyncio.Event()

        async def read_messages():
            while True:
                message = await connection._pop_message()
                if message is None:
                    return
                if message.msgtype == "PATCH-DOC":
                    session._handle_patch(message)
                    arrived.set()

        reading = asyncio.ensure_future(read_messages())
        try:
            doc.callbacks.trigger_on_change(MessageSentEvent(doc, "bokeh_event", DocumentReady()))
            buttons = {m.label: m for m in doc.models if isinstance(m, Button) and m.label}
            next_step, reset = buttons["Next step"], buttons["Reset"]
            await asyncio.get_running_loop().run_in_executor(None, self.meet)
            self.clicked_at = time.perf_counter()
            for _ in range(self.clicks):
                if time.monotonic() > self.deadline:
                    self.failure = "global time limit"
                    break
                button = reset if next_step.disabled else next_step
                self.resets += button is reset
                arrived.clear()
                sent = time.perf_counter()
                doc.callbacks.trigger_on_change(MessageSentEvent(doc, "bokeh_event", ButtonClick(button)))
                try:
                    await asyncio.wait_for(arrived.wait(), CLICK_TIMEOUT)
                except asyncio.TimeoutError:
                    self.failure = f"no answer to a click within {CLICK_TIMEOUT:.0f} s"
                    break
                now = time.perf_counter()
                self.latencies.append(now - sent)
                self.answered_at.append(now)
            self.done.set()
            while not self.leave.is_set() and time.monotonic() < self.deadline:
                await asyncio.sleep(0.1)
        finally:
            session.close("reader left")
            try:
                await asyncio.wait_for(reading, 10)
            except (asyncio.TimeoutError, Exception):
                reading.cancel()


class Sampler(threading.Thread):
    """The server's VmRSS every 0.2 s; ``peak()`` since the last ``reset()``."""

    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.pid, self.highest, self.stopping = pid, 0.0, threading.Event()

    def run(self):
        while not self.stopping.wait(0.2):
            try:
                self.highest = max(self.highest, rss_mb(self.pid))
            except (OSError, RuntimeError):
                return

    def reset(self):
        self.highest = rss_mb(self.pid)

    def peak(self) -> float:
        return max(self.highest, rss_mb(self.pid))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def play_round(server: Server, sampler: Sampler, readers_count: int, clicks: int, deadline: float) -> dict:
    start, leave = threading.Barrier(readers_count), threading.Event()
    readers = [Reader(server.ws_url, clicks, start, leave, deadline) for _ in range(readers_count)]
    threads = [threading.Thread(target=r.run, daemon=True) for r in readers]
    sampler.reset()
    began = time.perf_counter()
    server_cpu, bench_cpu = cpu_seconds(server.proc.pid), time.process_time()
    for thread in threads:
        thread.start()
    for reader in readers:
        reader.done.wait(max(0.0, deadline - time.monotonic()))
    peak = sampler.peak()
    with_sessions = server.rss()
    server_cpu, bench_cpu = cpu_seconds(server.proc.pid) - server_cpu, time.process_time() - bench_cpu
    leave.set()
    for thread in threads:
        thread.join(max(0.0, min(30.0, deadline - time.monotonic())))
    waited = time.perf_counter()
    while server.open_sessions() > 0 and time.perf_counter() - waited < DESTROY_TIMEOUT \
            and time.monotonic() < deadline:
        time.sleep(0.25)
    destroy_s = time.perf_counter() - waited
    open_left = server.open_sessions()
    time.sleep(1.0)  # let the server finish its own cleanup after the last session ends
    latencies = [l for r in readers for l in r.latencies]
    first = min((r.clicked_at for r in readers if r.clicked_at), default=began)
    last = max((t for r in readers for t in r.answered_at), default=first)
    return {
        "clicks": len(latencies),
        "wanted": readers_count * clicks,
        "resets": sum(r.resets for r in readers),
        "clicks_per_s": len(latencies) / (last - first) if last > first else 0.0,
        "p50_ms": 1000 * statistics.median(latencies) if latencies else float("nan"),
        "p95_ms": 1000 * percentile(latencies, 0.95) if latencies else float("nan"),
        "server_cpu_ms": 1000 * server_cpu / len(latencies) if latencies else float("nan"),
        "bench_cpu_ms": 1000 * bench_cpu / len(latencies) if latencies else float("nan"),
        "peak_mb": peak,
        "with_sessions_mb": with_sessions,
        "after_destroyed_mb": server.rss(),
        "destroy_s": destroy_s,
        "open_left": open_left,
        "connect_retries": sum(max(0, r.connect_attempts - 1) for r in readers),
        "failures": [r.failure for r in readers if r.failure],
        "seconds": time.perf_counter() - began,
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--readers", type=int, default=20)
    parser.add_argument("--clicks", type=int, default=15, help="clicks per reader per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=900.0, help="seconds for the whole bench")
    parser.add_argument("--profile", metavar="FILE", help="run the server under cProfile and write its stats to "
                        "FILE (then: python -m pstats FILE); the profiler slows the server")
    args = parser.parse_args(argv)

    import panel  # noqa: F401  (registers Panel's Bokeh models, so the client can read the document)

    deadline = time.monotonic() + args.time_limit
    server = Server(args.profile and str(Path(args.profile).resolve()))
    sampler = None
    try:
        server.wait_up()
        fresh = server.rss()
        sampler = Sampler(server.proc.pid)
        sampler.start()
        print(f"panel serve app/main.py on 127.0.0.1:{server.port} (pid {server.proc.pid}); "
              f"{args.readers} readers x {args.clicks} clicks per round, {args.rounds} rounds; "
              f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
        print(f"server memory fresh (no session yet): {fresh:.0f} MB")
        header = (f"{'round':>5} {'clicks':>9} {'clicks/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'srv ms':>7} "
                  f"{'peak MB':>8} {'open MB':>8} {'freed MB':>9} {'destroy s':>9}")
        print(header)
        rounds = []
        for number in range(1, args.rounds + 1):
            if time.monotonic() > deadline:
                print(f"global time limit of {args.time_limit:.0f} s reached before round {number}")
                break
            r = play_round(server, sampler, args.readers, args.clicks, deadline)
            rounds.append(r)
            print(f"{number:>5} {r['clicks']:>4}/{r['wanted']:<4} {r['clicks_per_s']:>8.1f} {r['p50_ms']:>8.0f} "
                  f"{r['p95_ms']:>8.0f} {r['server_cpu_ms']:>7.0f} {r['peak_mb']:>8.0f} "
                  f"{r['with_sessions_mb']:>8.0f} {r['after_destroyed_mb']:>9.0f} {r['destroy_s']:>9.1f}", flush=True)
            notes = []
            if r["resets"]:
                notes.append(f"{r['resets']} of the clicks were Reset (trace finished)")
            if r["connect_retries"]:
                notes.append(f"{r['connect_retries']} connect retries")
            if r["open_left"]:
                notes.append(f"{r['open_left']} sessions still open after {DESTROY_TIMEOUT:.0f} s")
            if r["failures"]:
                notes.append(f"{len(r['failures'])} readers failed: {sorted(set(r['failures']))}")
            if notes:
                print("      " + "; ".join(notes))
        print("(srv ms: the server's CPU time per answered click, connects included; peak: highest VmRSS "
              "while the round ran; open: after the round, sessions still open; freed: after its sessions "
              "were destroyed)")
        if rounds:
            print(f"the readers' own CPU time (this process, Python client applying patches): "
                  f"{statistics.mean(r['bench_cpu_ms'] for r in rounds):.0f} ms per click, on the same 2 CPUs")
        if len(rounds) >= 3:
            ratio = rounds[2]["peak_mb"] / rounds[0]["peak_mb"]
            print(f"third round's peak / first round's peak: {ratio:.3f} (target: under 1.10)")
        if rounds:
            print(f"memory after the last round's sessions were destroyed: {rounds[-1]['after_destroyed_mb']:.0f} MB "
                  f"({rounds[-1]['after_destroyed_mb'] - fresh:+.0f} MB from fresh)")
    finally:
        if sampler is not None:
            sampler.stopping.set()
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
