"""Fixtures shared by every test directory of the workspace.

Service URLs come from the environment that ``scripts/test.sh`` sets (``ASTRO_TEST_DATABASE_URL``,
``ASTRO_TEST_REDIS_URL``). Without them the tests that need a service are skipped, unless
``ASTRO_TEST_REQUIRE_SERVICES=1`` (set by the test script and so by CI), where they fail.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import httpx
import pytest

from tests._support.stack import (
    ServerProcess,
    Stack,
    cli_argv,
    make_stack,
    pg_admin,
    redis_db,
)

# The HTTPS receiver's fixtures (``ca``, ``ca_file``, ``https_server``) for every test directory.
pytest_plugins = ["tests._support.receiver"]


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


@pytest.fixture
def fresh_pg_database(pg_url: str) -> Iterator[str]:
    """A new, empty PostgreSQL database for one test; dropped afterwards."""
    name = "astro_" + secrets.token_hex(6)
    pg_admin(pg_url, f'CREATE DATABASE "{name}"')
    base = pg_url.rsplit("/", 1)[0]
    yield f"{base}/{name}"
    pg_admin(pg_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def migrated_pg_template(pg_url: str) -> Iterator[str]:
    """A database brought to the current schema once per session by ``astro-server migrate``;
    tests get copies of it (``CREATE DATABASE ... TEMPLATE``), which is much faster than
    migrating each one. Migrating from empty is still covered by the tests that use
    :func:`fresh_pg_database` or :func:`empty_database_url`."""
    name = "astro_template_" + secrets.token_hex(6)
    pg_admin(pg_url, f'CREATE DATABASE "{name}"')
    url = f"{pg_url.rsplit('/', 1)[0]}/{name}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASTRO_")}
    env["ASTRO_DATABASE_URL"] = url
    env["ASTRO_SECRET_KEY"] = secrets.token_urlsafe(48)
    subprocess.run([*cli_argv(), "migrate"], env=env, check=True, capture_output=True, timeout=120)
    yield name
    pg_admin(pg_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def migrated_pg_database(pg_url: str, migrated_pg_template: str) -> Iterator[str]:
    """A new PostgreSQL database at the current schema (a copy of the session's template)."""
    name = "astro_" + secrets.token_hex(6)
    pg_admin(pg_url, f'CREATE DATABASE "{name}" TEMPLATE "{migrated_pg_template}"')
    base = pg_url.rsplit("/", 1)[0]
    yield f"{base}/{name}"
    pg_admin(pg_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


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


@pytest.fixture
def stack_factory(tmp_path: Path) -> Iterator[Callable[..., Stack]]:
    """Build a process stack: ``stack_factory(database_url=..., redis_url=...)``; migrated."""
    stacks: list[Stack] = []

    def make(database_url: str | None = None, redis_url: str | None = None) -> Stack:
        st = make_stack(tmp_path / f"stack{len(stacks)}", database_url, redis_url)
        (st.tmp).mkdir(parents=True, exist_ok=True)
        st.run_cli("migrate")
        stacks.append(st)
        return st

    yield make
    for st in stacks:
        st.close()


@pytest.fixture
def production_stack(
    stack_factory: Callable[..., Stack], migrated_pg_database: str, redis_namespace: str
) -> Stack:
    """PostgreSQL + Redis stack (no processes started yet), on a copy of the session's migrated
    template (``astro-server migrate`` then finds it current): migrating an empty database
    for every such test cost seconds of CPU each; migrating from empty is tested by the tests
    of :func:`fresh_pg_database` and :func:`empty_database_url`."""
    return stack_factory(database_url=migrated_pg_database, redis_url=redis_namespace)


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
    pg_admin(pg_url, f'CREATE DATABASE "{name}"')
    database_url = f"{pg_url.rsplit('/', 1)[0]}/{name}"
    shared_redis = redis_db(redis_url, 1)
    import redis

    client = redis.Redis.from_url(shared_redis)
    client.flushdb()
    client.close()
    st = make_stack(tmp_path_factory.mktemp("shared-stack"), database_url, shared_redis)
    st.run_cli("migrate")
    st.server()
    st.worker()
    st.scheduler()
    yield st
    st.close()
    pg_admin(pg_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def module_stack(
    pg_url: str,
    redis_url: str,
    migrated_pg_template: str,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Stack]:
    """A PostgreSQL + Redis stack (no processes started yet) for the tests of one module that
    share processes a test module sets up itself (for instance an API with no worker, or a
    server with settings of its own), where the session's :func:`shared_stack` does not fit.

    Its database is a copy of the migrated template (no migration to run) and its Redis is this
    process's third database (:func:`redis_db` slot 2, flushed first): a module's tests run in
    one process and its module-scoped fixtures end before the next module's start.
    """
    import redis

    name = "astro_module_" + secrets.token_hex(6)
    pg_admin(pg_url, f'CREATE DATABASE "{name}" TEMPLATE "{migrated_pg_template}"')
    own_redis = redis_db(redis_url, 2)
    client = redis.Redis.from_url(own_redis)
    client.flushdb()
    client.close()
    st = make_stack(
        tmp_path_factory.mktemp("module-stack"), f"{pg_url.rsplit('/', 1)[0]}/{name}", own_redis
    )
    yield st
    st.close()
    pg_admin(pg_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


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
