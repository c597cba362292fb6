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


def test_sigterm_to_one_api_process_drains_it_and_its_replacement_starts_at_once(
    tmp_path: Path,
) -> None:
    """Issue 52: a rolling restart. SIGTERM to one ``serve --workers 2`` process while four
    keep-alive clients keep requests in flight: not one request fails (before, the process died
    in 0.1 s taking its requests and connections with it), the process exits 0 after draining,
    and the supervisor starts its replacement as soon as it begins to drain."""
    import threading

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
    failures: list[str] = []
    statuses: list[int] = []
    done = threading.Event()

    def keep_asking() -> None:
        with httpx.Client(timeout=15) as client:  # keep-alive: connections are reused
            while not done.is_set():
                try:
                    statuses.append(client.get(f"http://127.0.0.1:{port}/healthz").status_code)
                except httpx.TransportError as exc:
                    failures.append(f"{type(exc).__name__}: {exc}")

    try:
        subprocess.run([*cli, "migrate"], env=env, check=True, capture_output=True, timeout=120)
        server = subprocess.Popen(
            [*cli, "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "2"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(port, 180)
        deadline = time.monotonic() + 180
        while len(_workers(server.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        before = _workers(server.pid)
        assert len(before) == 2, before
        clients = [threading.Thread(target=keep_asking) for _ in range(4)]
        for thread in clients:
            thread.start()
        time.sleep(1.0)
        victim = min(before)
        os.kill(victim, signal.SIGTERM)
        signalled = time.monotonic()
        replaced_after = None
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline:
            now = _workers(server.pid)
            if replaced_after is None and len(now - before) == 1:
                replaced_after = time.monotonic() - signalled
            if victim not in now and replaced_after is not None:
                break
            time.sleep(0.05)
        time.sleep(1.0)
        done.set()
        for thread in clients:
            thread.join(30)
        after = _workers(server.pid)
        assert victim not in after
        assert len(after) == 2, (before, after)
        assert replaced_after is not None
        assert replaced_after < 2.0  # started when the victim began draining, not after it left
        assert failures == []
        assert len(statuses) > 20
        assert set(statuses) == {200}
        server.send_signal(signal.SIGTERM)
        assert server.wait(30) == 0
    finally:
        done.set()
        if server is not None and server.poll() is None:
            server.kill()
            server.wait(10)
        pg.remove()
