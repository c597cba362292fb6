"""Redis reached over a Unix-domain socket (``unix:///run/redis/redis.sock``), the usual set-up
when Redis runs on the API's machine. redis-py's Unix-socket connection refuses TCP options, and
``socket_keepalive`` made every rate-limit hit a TypeError (a 500 on every billed call); found by
``benchmarks/platform_throughput.py --unix-sockets``.

Starts its own ``redis-server`` listening only on a socket in ``tmp_path`` (scripts/test.sh
installs Redis; the test skips where the binary is missing and services are not required).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from astro_server.platform.broker import make_broker
from astro_server.platform.ratelimit import RedisRateLimiter
from astro_server.platform.redisconn import client_options
from astro_server.settings import Settings

pytestmark = pytest.mark.redis


@pytest.fixture
def socket_url(tmp_path: Path) -> Iterator[str]:
    binary = shutil.which("redis-server")
    if binary is None:
        if os.environ.get("ASTRO_TEST_REQUIRE_SERVICES"):
            pytest.fail("redis-server is not installed")
        pytest.skip("redis-server is not installed (scripts/test.sh installs it)")
    sock = tmp_path / "redis.sock"
    server = subprocess.Popen(
        [binary, "--port", "0", "--unixsocket", str(sock), "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while not sock.exists():
            assert time.monotonic() < deadline, "redis-server did not open its socket"
            time.sleep(0.02)
        yield f"unix://{sock}?db=0"
    finally:
        server.terminate()
        server.wait(10)


def test_tcp_options_are_only_given_to_tcp_urls() -> None:
    assert client_options("redis://127.0.0.1:6379/0")["socket_keepalive"] is True
    assert "socket_keepalive" not in client_options("unix:///run/redis.sock")


async def test_the_rate_limiter_counts_over_a_unix_socket(socket_url: str) -> None:
    limiter = RedisRateLimiter.from_url(socket_url)
    try:
        first = await limiter.hit("acct:unix", limit=2)
        second = await limiter.hit("acct:unix", limit=2)
        third = await limiter.hit("acct:unix", limit=2)
    finally:
        await limiter.close()
    assert (first.allowed, second.allowed, third.allowed) == (True, True, False)


async def test_the_job_broker_starts_over_a_unix_socket(socket_url: str, tmp_path: Path) -> None:
    settings = Settings(
        data_dir=tmp_path / "var",
        database_url="postgres://unused@127.0.0.1:1/unused",
        redis_url=socket_url,
        secret_key="k" * 32,
    )
    broker = make_broker(settings)
    await broker.startup()
    try:
        import redis.asyncio as aioredis

        client = aioredis.from_url(socket_url, **client_options(socket_url))
        assert await client.ping()
        await client.aclose()
    finally:
        await broker.shutdown()
