"""The live process stack of the end-to-end tests: ``astro-server`` server, worker and scheduler
subprocesses sharing one environment, and the helpers around them (ports, polling, the per-process
Redis databases, the S3 environment). The fixtures that build stacks are in the root
``conftest.py``; test modules import these names from here (``tests._support.stack``), not from
``conftest``, so that a directory can have a conftest of its own.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import httpx
import pytest

#: Redis databases each test process owns (a block per pytest-xdist worker: 0-2 for gw0, 3-5
#: for gw1, ...): the first for tests (flushed per test by ``redis_namespace``), the second for
#: :func:`shared_stack`, the third for tests that need one of their own.
REDIS_DBS_PER_WORKER = 3
#: How many databases the test Redis has: scripts/test.sh starts it with ``--databases 32``
#: (room for ten pytest-xdist processes) and says so here; a Redis of its defaults has 16.
REDIS_DATABASES = int(os.environ.get("ASTRO_TEST_REDIS_DATABASES", "16"))


def redis_db(url: str, slot: int) -> str:
    """``url`` pointed at database ``slot`` (0, 1 or 2) of this test process's block."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    index = int(worker.removeprefix("gw")) * REDIS_DBS_PER_WORKER + slot
    if index >= REDIS_DATABASES:
        pytest.fail(
            f"too many pytest-xdist workers for Redis's {REDIS_DATABASES} databases ({worker})"
        )
    return f"{url.rsplit('/', 1)[0]}/{index}"


def s3_env(s3_bucket_url: tuple[str, str]) -> dict[str, str]:
    """The server's environment variables selecting that bucket."""
    endpoint, url = s3_bucket_url
    return {
        "ASTRO_STORAGE_URL": url,
        "ASTRO_S3_ENDPOINT_URL": endpoint,
        "ASTRO_S3_ACCESS_KEY_ID": "test",
        "ASTRO_S3_SECRET_ACCESS_KEY": "test",
        "ASTRO_S3_REGION": "us-east-1",
    }


def pg_admin(pg_url: str, sql: str) -> None:
    import asyncio

    import asyncpg

    async def run() -> None:
        conn = await asyncpg.connect(pg_url.replace("postgres://", "postgresql://", 1))
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(run())


T = TypeVar("T")


def poll(fetch: Callable[[], T], done: Callable[[T], bool], timeout_s: float = 30) -> T:
    """Calls ``fetch`` until ``done`` holds for its value or the time is up; returns the last
    value (the caller asserts on it, so a timeout fails with the value it saw)."""
    deadline = time.monotonic() + timeout_s
    value = fetch()
    while not done(value) and time.monotonic() < deadline:
        time.sleep(0.1)
        value = fetch()
    return value


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cli_argv() -> list[str]:
    return [sys.executable, "-m", "astro_server.cli"]


@dataclass
class ServerProcess:
    """An ``astro-server`` subprocess with its environment."""

    env: dict[str, str]
    proc: subprocess.Popen[bytes]
    base_url: str = ""
    log_path: Path | None = None

    def stop(self, sig: int = signal.SIGTERM, timeout_s: float = 10.0) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout_s)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        return int(self.proc.returncode)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path else ""


@dataclass
class Stack:
    """Factory for server, worker and scheduler processes sharing one environment."""

    env: dict[str, str]
    tmp: Path
    processes: list[ServerProcess] = field(default_factory=list)

    def run_cli(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*cli_argv(), *args],
            env=self.env,
            capture_output=True,
            text=True,
            check=check,
            timeout=120,
        )

    def sql(self, query: str, *args: object) -> list[dict[str, object]]:
        """Runs ``query`` on the stack's PostgreSQL database (``$1``-style arguments) and returns
        its rows; tests use it to stand in for the clock (move a due instant to now) instead of
        waiting for it."""
        import asyncio

        import asyncpg

        url = self.env["ASTRO_DATABASE_URL"].replace("postgres://", "postgresql://", 1)

        async def run() -> list[dict[str, object]]:
            conn = await asyncpg.connect(url)
            try:
                return [dict(row) for row in await conn.fetch(query, *args)]
            finally:
                await conn.close()

        return asyncio.run(run())

    def _spawn(self, name: str, args: list[str], extra_env: dict[str, str] | None) -> ServerProcess:
        env = {**self.env, **(extra_env or {})}
        log_path = self.tmp / f"{name}-{len(self.processes)}.log"
        with log_path.open("wb") as fh:
            proc = subprocess.Popen(
                [*cli_argv(), *args], env=env, stdout=fh, stderr=subprocess.STDOUT
            )
        sp = ServerProcess(env, proc, log_path=log_path)
        self.processes.append(sp)
        return sp

    def server(self, extra_env: dict[str, str] | None = None) -> ServerProcess:
        port = free_port()
        sp = self._spawn("server", ["serve", "--host", "127.0.0.1", "--port", str(port)], extra_env)
        sp.base_url = f"http://127.0.0.1:{port}"
        # Two minutes: at a load average near 20 (a shared 2-core machine) a server start was
        # measured at over 60 s; a healthy server answers as soon as it is up, so this costs
        # nothing when the machine is idle.
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if sp.proc.poll() is not None:
                raise RuntimeError(f"server exited early:\n{sp.log()}")
            try:
                if httpx.get(sp.base_url + "/healthz", timeout=1).status_code == 200:
                    return sp
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"server did not become healthy:\n{sp.log()}")

    def worker(self, extra_env: dict[str, str] | None = None) -> ServerProcess:
        return self._spawn("worker", ["worker"], extra_env)

    def scheduler(self, extra_env: dict[str, str] | None = None) -> ServerProcess:
        return self._spawn("scheduler", ["scheduler"], extra_env)

    def close(self) -> None:
        for sp in reversed(self.processes):
            sp.stop(signal.SIGKILL if sp.proc.poll() is None else signal.SIGTERM, timeout_s=5)


def make_stack(tmp_path: Path, database_url: str | None, redis_url: str | None) -> Stack:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASTRO_")}
    env.update(
        {
            "ASTRO_DATA_DIR": str(tmp_path / "var"),
            "ASTRO_SECRET_KEY": secrets.token_urlsafe(48),
            "ASTRO_LOG_LEVEL": "INFO",
            "PYTHONUNBUFFERED": "1",
        }
    )
    if database_url:
        env["ASTRO_DATABASE_URL"] = database_url
    if redis_url:
        env["ASTRO_REDIS_URL"] = redis_url
    if database_url or redis_url:
        # Production refuses to serve without a public URL or allowed hosts; the stack's
        # servers listen on loopback ports chosen per process (any port of these names).
        env["ASTRO_ALLOWED_HOSTS"] = "127.0.0.1,localhost"
    return Stack(env=env, tmp=tmp_path)
