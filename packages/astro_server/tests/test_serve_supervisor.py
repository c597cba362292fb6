"""Issue 29: ``serve --workers 2`` keeps answering when one API process is killed, and a new
process takes its place (hypercorn's own supervisor stopped every process and exited).

Runs the real command against a PostgreSQL of its own (the production mode; the embedded mode
serves one process), on free loopback ports.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from _throwaway_services import ThrowawayPostgres, free_port, wait_for_port

pytestmark = pytest.mark.slow


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rpartition(")")[2].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            found.add(int(entry.name))
    return found


def _workers(supervisor: int) -> set[int]:
    """The supervisor's worker processes (spawn's resource tracker is a child too: it has no
    listening socket and no ``multiprocessing.spawn`` in its command line)."""
    out = set()
    for pid in _children(supervisor):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in cmdline:
            out.add(pid)
    return out


def test_a_killed_api_process_is_replaced_and_the_port_keeps_answering(tmp_path: Path) -> None:
    pg = ThrowawayPostgres()
    pg.start()
    port = free_port()
    env = {
        **os.environ,
        "ASTRO_DATABASE_URL": pg.url,
        "ASTRO_ALLOWED_HOSTS": "127.0.0.1",
        "ASTRO_DATA_DIR": str(tmp_path / "var"),
        "ASTRO_SECRET_KEY": secrets.token_urlsafe(48),
        "ASTRO_LOG_LEVEL": "WARNING",
    }
    env.pop("ASTRO_REDIS_URL", None)
    cli = [sys.executable, "-m", "astro_server.cli"]
    server: subprocess.Popen[bytes] | None = None
    try:
        subprocess.run([*cli, "migrate"], env=env, check=True, capture_output=True, timeout=120)
        server = subprocess.Popen(
            [*cli, "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "2"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(port, 60)
        url = f"http://127.0.0.1:{port}/healthz"
        deadline = time.monotonic() + 60
        while len(_workers(server.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        before = _workers(server.pid)
        assert len(before) == 2, before
        # A new connection per request: a connection the killed process held is lost with it
        # (its client sees a ReadError, as with any process that dies), not our subject here.
        with httpx.Client(timeout=5, limits=httpx.Limits(max_keepalive_connections=0)) as client:
            assert client.get(url).status_code == 200
            victim = min(before)
            os.kill(victim, signal.SIGKILL)
            # The survivor answers meanwhile; a new process appears within seconds.
            statuses: list[int] = []
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                try:
                    statuses.append(client.get(url).status_code)
                except httpx.TransportError as exc:  # pragma: no cover - the failure we fix
                    statuses.append(type(exc).__name__)  # type: ignore[arg-type]
                now = _workers(server.pid)
                if len(now) == 2 and victim not in now and len(statuses) >= 20:
                    break
                time.sleep(0.05)
            after = _workers(server.pid)
            assert server.poll() is None, "the supervisor exited"
            assert victim not in after, (before, after)
            assert len(after) == 2, (before, after)
            assert set(statuses) == {200}, statuses
            # Both processes serve: enough requests over new connections all succeed.
            assert {client.get(url).status_code for _ in range(20)} == {200}
        server.send_signal(signal.SIGTERM)
        assert server.wait(30) == 0
    finally:
        if server is not None and server.poll() is None:
            server.kill()
            server.wait(10)
        pg.remove()
