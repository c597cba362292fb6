"""``astro-server serve`` stopped by Ctrl-C (SIGINT) or SIGTERM logs one line and exits 0, with
no "Future exception was never retrieved", traceback or warning (issue 32). The server runs as a
real process on a free loopback port, with a keep-alive connection open and a request in
flight when the signal arrives."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from astro_server.cli import STOPPING_MESSAGE
from astro_server.settings import Settings


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _wait_healthy(port: int, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise AssertionError("serve did not become healthy")


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_stops_serve_with_one_line(tmp_path: Path, sig: signal.Signals) -> None:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASTRO_")}
    env["ASTRO_DATA_DIR"] = str(tmp_path / "var")
    process = subprocess.Popen(
        [sys.executable, "-m", "astro_server.cli", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_healthy(port, process)
        idle = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        idle.request("GET", "/docs")
        idle.getresponse().read()  # the connection stays open (keep-alive), as a browser's does

        def slow_request() -> None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/openapi.json", timeout=30):
                    pass
            except OSError:
                pass  # the server may close it: only its log matters here

        in_flight = threading.Thread(target=slow_request)
        in_flight.start()
        time.sleep(0.2)
        process.send_signal(sig)
        _stdout, stderr = process.communicate(timeout=30)
        in_flight.join(timeout=30)
        idle.close()
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0, stderr
    for noise in ("Future exception", "Traceback", "Warning", "never retrieved"):
        assert noise not in stderr, stderr
    records = [json.loads(line) for line in stderr.splitlines() if line.startswith("{")]
    assert len(records) == len(stderr.splitlines()), stderr  # every line is a JSON record
    stopping = STOPPING_MESSAGE % (sig.name, int(Settings().graceful_timeout_s))
    assert {r["level"] for r in records} == {"info"}, stderr
    messages = [r["message"] for r in records]
    assert messages.count(stopping) == 1, messages
    # After the stop line, only work that was already running may finish and log (the in-flight
    # request's access line, a periodic task): nothing from the server, hypercorn or asyncio.
    after = records[messages.index(stopping) + 1 :]
    assert not [r for r in after if r["logger"] in ("astro_server", "hypercorn.error", "asyncio")]
