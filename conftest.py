"""Fixtures shared by every test directory of the workspace.

Service URLs come from the environment that ``scripts/test.sh`` sets (``ASTRO_TEST_DATABASE_URL``,
``ASTRO_TEST_REDIS_URL``). Without them the tests that need a service are skipped, unless
``ASTRO_TEST_REQUIRE_SERVICES=1`` (set by the test script and so by CI), where they fail.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import httpx
import pytest


def _service_url(var: str) -> str:
    url = os.environ.get(var)
    if url:
        return url
    if os.environ.get("ASTRO_TEST_REQUIRE_SERVICES") == "1":
        pytest.fail(f"{var} is not set but services are required")
    pytest.skip(f"{var} not set (run through scripts/test.sh)")


@pytest.fixture(scope="session")
def pg_url() -> str:
    """URL of the live PostgreSQL server (the maintenance database)."""
    return _service_url("ASTRO_TEST_DATABASE_URL")


#: Redis databases each test process owns (a block per pytest-xdist worker: 0-2 for gw0, 3-5
#: for gw1, ...; Redis has 16): the first for tests (flushed per test by ``redis_namespace``),
#: the second for :func:`shared_stack`, the third for tests that need one of their own.
REDIS_DBS_PER_WORKER = 3


def redis_db(url: str, slot: int) -> str:
    """``url`` pointed at database ``slot`` (0, 1 or 2) of this test process's block."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    index = int(worker.removeprefix("gw")) * REDIS_DBS_PER_WORKER + slot
    if index > 15:
        pytest.fail(f"too many pytest-xdist workers for Redis's 16 databases ({worker})")
    return f"{url.rsplit('/', 1)[0]}/{index}"


@pytest.fixture(scope="session")
def redis_url() -> str:
    """The live Redis, at this test process's first database (see :func:`redis_db`)."""
    return redis_db(_service_url("ASTRO_TEST_REDIS_URL"), 0)


@pytest.fixture(scope="session")
def s3_bucket_url() -> tuple[str, str]:
    """(endpoint, ``s3://bucket/prefix``) on the local S3 server the test script starts
    (``ASTRO_TEST_S3_ENDPOINT``, moto); one new bucket per test session."""
    import boto3

    endpoint = _service_url("ASTRO_TEST_S3_ENDPOINT")
    bucket = "astro-test-" + secrets.token_hex(6)
    boto3.client(
        "s3",
        endpoint_url=endpoint,
        aws_access_key_id="test",
        aws_secret_access_key="test",
        region_name="us-east-1",
    ).create_bucket(Bucket=bucket)
    return endpoint, f"s3://{bucket}/files"


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


def _pg_admin(pg_url: str, sql: str) -> None:
    import asyncio

    import asyncpg

    async def run() -> None:
        conn = await asyncpg.connect(pg_url.replace("postgres://", "postgresql://", 1))
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(run())


@pytest.fixture
def fresh_pg_database(pg_url: str) -> Iterator[str]:
    """A new, empty PostgreSQL database for one test; dropped afterwards."""
    name = "astro_" + secrets.token_hex(6)
    _pg_admin(pg_url, f'CREATE DATABASE "{name}"')
    base = pg_url.rsplit("/", 1)[0]
    yield f"{base}/{name}"
    _pg_admin(pg_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def migrated_pg_template(pg_url: str) -> Iterator[str]:
    """A database brought to the current schema once per session by ``astro-server migrate``;
    tests get copies of it (``CREATE DATABASE ... TEMPLATE``), which is much faster than
    migrating each one. Migrating from empty is still covered by the tests that use
    :func:`fresh_pg_database` or :func:`empty_database_url`."""
    name = "astro_template_" + secrets.token_hex(6)
    _pg_admin(pg_url, f'CREATE DATABASE "{name}"')
    url = f"{pg_url.rsplit('/', 1)[0]}/{name}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASTRO_")}
    env["ASTRO_DATABASE_URL"] = url
    env["ASTRO_SECRET_KEY"] = secrets.token_urlsafe(48)
    subprocess.run([*_cli(), "migrate"], env=env, check=True, capture_output=True, timeout=120)
    yield name
    _pg_admin(pg_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def migrated_pg_database(pg_url: str, migrated_pg_template: str) -> Iterator[str]:
    """A new PostgreSQL database at the current schema (a copy of the session's template)."""
    name = "astro_" + secrets.token_hex(6)
    _pg_admin(pg_url, f'CREATE DATABASE "{name}" TEMPLATE "{migrated_pg_template}"')
    base = pg_url.rsplit("/", 1)[0]
    yield f"{base}/{name}"
    _pg_admin(pg_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database URL, once on SQLite (empty) and once on PostgreSQL (already at the
    current schema; migrating it again is a no-op)."""
    if request.param == "sqlite":
        return f"sqlite://{tmp_path / 'astro.sqlite3'}"
    url: str = request.getfixturevalue("migrated_pg_database")
    return url


@pytest.fixture(params=["sqlite", "postgres"])
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database URL (no tables), once on SQLite and once on PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite://{tmp_path / 'astro.sqlite3'}"
    url: str = request.getfixturevalue("fresh_pg_database")
    return url


@pytest.fixture
def redis_namespace(redis_url: str) -> str:
    """The live Redis, flushed so one test's keys do not leak into another."""
    import redis

    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    client.close()
    return redis_url


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


def _cli() -> list[str]:
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
            [*_cli(), *args], env=self.env, capture_output=True, text=True, check=check, timeout=120
        )

    def _spawn(self, name: str, args: list[str], extra_env: dict[str, str] | None) -> ServerProcess:
        env = {**self.env, **(extra_env or {})}
        log_path = self.tmp / f"{name}-{len(self.processes)}.log"
        with log_path.open("wb") as fh:
            proc = subprocess.Popen([*_cli(), *args], env=env, stdout=fh, stderr=subprocess.STDOUT)
        sp = ServerProcess(env, proc, log_path=log_path)
        self.processes.append(sp)
        return sp

    def server(self, extra_env: dict[str, str] | None = None) -> ServerProcess:
        port = free_port()
        sp = self._spawn("server", ["serve", "--host", "127.0.0.1", "--port", str(port)], extra_env)
        sp.base_url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
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


def _stack(tmp_path: Path, database_url: str | None, redis_url: str | None) -> Stack:
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
    return Stack(env=env, tmp=tmp_path)


@pytest.fixture
def stack_factory(tmp_path: Path) -> Iterator[Callable[..., Stack]]:
    """Build a process stack: ``stack_factory(database_url=..., redis_url=...)``; migrated."""
    stacks: list[Stack] = []

    def make(database_url: str | None = None, redis_url: str | None = None) -> Stack:
        st = _stack(tmp_path / f"stack{len(stacks)}", database_url, redis_url)
        (st.tmp).mkdir(parents=True, exist_ok=True)
        st.run_cli("migrate")
        stacks.append(st)
        return st

    yield make
    for st in stacks:
        st.close()


@pytest.fixture
def production_stack(
    stack_factory: Callable[..., Stack], fresh_pg_database: str, redis_namespace: str
) -> Stack:
    """PostgreSQL + Redis stack (no processes started yet)."""
    return stack_factory(database_url=fresh_pg_database, redis_url=redis_namespace)


@pytest.fixture
def live_server(production_stack: Stack) -> ServerProcess:
    """A hypercorn API process on PostgreSQL and Redis, with one job worker and the scheduler."""
    server = production_stack.server()
    production_stack.worker()
    production_stack.scheduler()
    return server


@pytest.fixture(scope="session")
def shared_stack(
    pg_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Stack]:
    """One PostgreSQL + Redis stack (API, worker, scheduler) for the whole session.

    For end-to-end tests that only need a running server: each test creates its own account,
    and tenants are isolated, so tests cannot see each other's data. It uses its own database
    and Redis database (:func:`redis_db` slot 1), so tests that flush theirs or drop their own
    databases leave it alone. Tests that change the server's environment, kill processes or
    count processes use ``production_stack``/``live_server`` instead.
    """
    name = "astro_shared_" + secrets.token_hex(6)
    _pg_admin(pg_url, f'CREATE DATABASE "{name}"')
    database_url = f"{pg_url.rsplit('/', 1)[0]}/{name}"
    shared_redis = redis_db(redis_url, 1)
    import redis

    client = redis.Redis.from_url(shared_redis)
    client.flushdb()
    client.close()
    st = _stack(tmp_path_factory.mktemp("shared-stack"), database_url, shared_redis)
    st.run_cli("migrate")
    st.server()
    st.worker()
    st.scheduler()
    yield st
    st.close()
    _pg_admin(pg_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def shared_server(shared_stack: Stack) -> ServerProcess:
    """The API process of :func:`shared_stack`."""
    return shared_stack.processes[0]


@pytest.fixture
async def async_http() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(timeout=30) as client:
        yield client


@pytest.fixture
def fresh_rate_window() -> None:
    """Start a test that counts requests up to a rate limit with at least 15 s left in the
    current fixed 60 s window (windows start at multiples of 60 s of Unix time): a boundary
    crossed in the middle resets the count, and the request that should be the 429 passes."""
    left = 60.0 - time.time() % 60.0
    if left < 15.0:
        time.sleep(left + 0.05)
