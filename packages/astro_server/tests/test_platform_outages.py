"""Issue 29: dependency outages answer 503 naming the dependency, logged once per outage, and
the server recovers as soon as Redis or PostgreSQL is back.

The restart tests use a Redis and a PostgreSQL of their own (``_throwaway_services``), started on
free loopback ports and stopped by the test; nothing here touches the suite's shared servers.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from _platform_support import key_headers, new_account, running_app, settings_for
from _throwaway_services import ThrowawayPostgres, ThrowawayRedis, free_port
from pydantic import BaseModel, Field
from quart import Blueprint, Quart, Response
from redis.exceptions import ConnectionError as RedisConnectionError

from astro_server.platform import broker as broker_module
from astro_server.platform.auth.guards import require_api_key
from astro_server.platform.billing import claims
from astro_server.platform.billing.billable import billable
from astro_server.platform.models.accounts import Account
from astro_server.platform.models.billing import LedgerEntry
from astro_server.platform.outages import (
    DATABASE,
    JOB_QUEUE,
    RATE_LIMITER,
    DependencyUnavailable,
    dependency_of,
    outages,
)
from astro_server.platform.ratelimit import RedisRateLimiter

BOY = {
    "date": "1990-05-17",
    "time": "10:30",
    "latitude": 28.61,
    "longitude": 77.21,
    "timezoneOffsetMinutes": 330,
}
GIRL = {"date": "1992-08-02", "time": "06:15", "latitude": 19.07, "longitude": 72.88,
        "timezoneOffsetMinutes": 330}  # fmt: skip
BATCH = {"records": [{"id": "r0", "boy": BOY, "girl": GIRL}]}


@pytest.fixture(autouse=True)
def _fresh_outage_log() -> None:
    outages.reset()


def _outage_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "astro_server.outages"]


def _tracebacks(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


def test_outages_are_recognised_from_the_exception_chain() -> None:
    outer = RuntimeError("wrapped")
    outer.__cause__ = asyncpg.exceptions.ConnectionDoesNotExistError("closed in the middle")
    assert dependency_of(outer) == DATABASE
    assert dependency_of(asyncpg.exceptions.AdminShutdownError("terminating")) == DATABASE
    assert dependency_of(RedisConnectionError("Connection refused")) == JOB_QUEUE
    assert dependency_of(DependencyUnavailable(RATE_LIMITER)) == RATE_LIMITER
    # Not outages: a statement timeout, a plain OSError outside database code, a bug.
    assert dependency_of(asyncpg.exceptions.QueryCanceledError("timeout")) is None
    assert dependency_of(OSError("disk full")) is None
    assert dependency_of(ValueError("bug")) is None


def test_one_log_line_per_outage(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    assert outages.note(DATABASE, None) is True
    for _ in range(50):
        assert outages.note(DATABASE, None) is False
    assert outages.note(JOB_QUEUE, None) is True  # another dependency: its own outage
    assert len(_outage_lines(caplog)) == 2


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[Quart]:
    settings = settings_for(f"sqlite://{tmp_path / 'astro.sqlite3'}", tmp_path)
    async with running_app(settings) as application:
        yield application


async def test_rate_limiter_down_is_503_naming_it_logged_once(
    app: Quart, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    state = app.extensions["astro"]
    # A Redis that is not there: nothing listens on this port.
    state.rate_limiter = RedisRateLimiter.from_url(f"redis://127.0.0.1:{free_port()}/0")
    account_id, key = await new_account("starter", 10)
    client = app.test_client()
    try:
        for _ in range(5):
            response = await client.post(
                "/api/v3/vedic/kundli-matching/batch", json=BATCH, headers=key_headers(key)
            )
            body = await response.get_json()
            assert response.status_code == 503, body
            assert body["error"] == "service_unavailable"
            assert body["code"] == "rate_limiter_unavailable"
            assert "rate limiter" in body["message"]
            assert response.headers["Retry-After"] == "5"
    finally:
        await state.rate_limiter.close()
    assert (await Account.get(id=account_id)).credits == 10
    assert len(_outage_lines(caplog)) == 1
    assert _tracebacks(caplog) == []


async def test_job_queue_down_is_503_refunded_logged_once(
    app: Quart, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.INFO)

    async def unreachable(job_id: str) -> None:
        raise RedisConnectionError("Error 111 connecting to 127.0.0.1. Connection refused.")

    monkeypatch.setattr(broker_module, "kick_job", unreachable)
    account_id, key = await new_account("starter", 10)
    client = app.test_client()
    for _ in range(4):
        response = await client.post(
            "/api/v3/vedic/kundli-matching/batch", json=BATCH, headers=key_headers(key)
        )
        body = await response.get_json()
        assert response.status_code == 503, body
        assert (body["error"], body["code"]) == ("service_unavailable", "job_queue_unavailable")
        assert response.headers["Retry-After"] == "5"
    assert (await Account.get(id=account_id)).credits == 10  # each debit refunded
    assert len(_outage_lines(caplog)) == 1
    assert _tracebacks(caplog) == []


async def _until(deadline_s: float, attempt: Any) -> float:
    """Seconds until ``attempt()`` first succeeds (fails the test after ``deadline_s``)."""
    started = time.monotonic()
    while True:
        try:
            await attempt()
            return time.monotonic() - started
        except Exception:
            if time.monotonic() - started > deadline_s:
                raise
            await asyncio.sleep(0.05)


@pytest.mark.slow
async def test_a_redis_restart_costs_no_request_once_it_is_back(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Redis killed and started again on its port: while it is down the API answers 503 naming
    the rate limiter; once it is back, within the 5 s grace, every request succeeds (no dead
    pooled connection fails one), and a job can be queued again."""
    caplog.set_level(logging.INFO)
    redis = ThrowawayRedis(tmp_path)
    redis.start()
    try:
        settings = settings_for(
            f"sqlite://{tmp_path / 'astro.sqlite3'}", tmp_path, redis_url=redis.url
        )
        async with running_app(settings) as app:
            account_id, key = await new_account("starter", 100)
            client = app.test_client()

            async def account() -> int:
                response = await client.get("/api/v3/account", headers=key_headers(key))
                return response.status_code

            queued: list[str] = []

            async def queue() -> int:
                response = await client.post(
                    "/api/v3/vedic/kundli-matching/batch", json=BATCH, headers=key_headers(key)
                )
                if response.status_code == 202:
                    queued.append((await response.get_json())["job_id"])
                return response.status_code

            # Several pooled connections, all of which die with the server.
            assert await asyncio.gather(*(account() for _ in range(8))) == [200] * 8
            assert await queue() == 202
            redis.stop()
            down = [await account() for _ in range(3)]
            assert down == [503] * 3
            redis.start()

            async def all_ok() -> None:
                statuses = await asyncio.gather(*(account() for _ in range(8)), queue())
                assert list(statuses) == [200] * 8 + [202], statuses

            assert await _until(5.0, all_ok) < 5.0
            # From then on nothing fails.
            for _ in range(5):
                await all_ok()
            # Each accepted job charged once (2 credits), every refused one refunded.
            assert (await Account.get(id=account_id)).credits == 100 - 2 * len(queued)
    finally:
        redis.stop()
    assert _tracebacks(caplog) == []


@pytest.mark.slow
async def test_redis_clients_reconnect_at_the_first_command_after_a_restart(
    tmp_path: Path,
) -> None:
    """The first rate-limit hit after Redis came back succeeds: the pooled connection is dead,
    the client reconnects and runs the command again (without retry it fails once)."""
    redis = ThrowawayRedis(tmp_path)
    redis.start()
    limiter = RedisRateLimiter.from_url(redis.url)
    try:
        assert (await limiter.hit("k", 100)).allowed
        redis.stop()
        redis.start()
        decision = await limiter.hit("k", 100)  # the first command after the restart
        assert decision.allowed
        assert await limiter.bump_generation() == 1
    finally:
        await limiter.close()
        redis.stop()


@pytest.mark.slow
async def test_a_postgresql_restart_costs_no_read_once_it_is_back(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """PostgreSQL stopped (fast shutdown): requests answer 503 naming the database, no 500 and no
    traceback; started again, the first read succeeds (a pooled connection the pool had not yet
    seen die is dropped and the read run once more on a new one)."""
    caplog.set_level(logging.INFO)
    pg = ThrowawayPostgres()
    pg.start()
    try:
        settings = settings_for(pg.url, tmp_path, api_key_cache_s=0)
        async with running_app(settings) as app:
            account_id, key = await new_account("starter", 10)
            client = app.test_client()

            async def account() -> tuple[int, dict[str, Any]]:
                response = await client.get("/api/v3/account", headers=key_headers(key))
                return response.status_code, await response.get_json()

            assert (await account())[0] == 200
            # Stopped and started without the event loop running in between, as under load:
            # the pool's connection is dead and nobody has noticed yet.
            pg.stop("fast")
            pg.start()
            assert await Account.filter(id=account_id).count() == 1
            assert (await account())[0] == 200
            pg.stop("fast")
            status, body = await account()
            assert status == 503, body
            assert (body["error"], body["code"]) == ("service_unavailable", "database_unavailable")
            pg.start()
            statuses = [(await account())[0] for _ in range(5)]
            assert statuses == [200] * 5
    finally:
        pg.remove()
    assert [r for r in caplog.records if r.getMessage() == "unhandled error"] == []


class _Numbers(BaseModel):
    records: list[int] = Field(min_length=1, max_length=50)


_lost_database = Blueprint("lost_database", __name__)


@_lost_database.post("/test/lost-database")
@require_api_key
@billable("vedic.kundli_matching_batch", body=_Numbers, quantity=lambda body: len(body.records))
async def _fails_with_the_database_gone(data: _Numbers) -> Response:
    raise asyncpg.exceptions.ConnectionDoesNotExistError("connection was closed")


async def test_a_refund_the_lost_database_refused_is_made_once_it_is_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The database went away after the debit: the request answers 503 and its refund, which
    cannot be written then, is made as soon as the database answers again (the chaos benchmark
    found one such 503 charged per PostgreSQL restart)."""
    caplog.set_level(logging.INFO)
    real = claims._release
    calls: list[int] = []

    async def database_back_on_the_third_try(*args: Any) -> None:
        calls.append(1)
        if len(calls) < 3:
            raise asyncpg.exceptions.ConnectionDoesNotExistError("connection was closed")
        await real(*args)

    monkeypatch.setattr(claims, "_release", database_back_on_the_third_try)
    settings = settings_for(f"sqlite://{tmp_path / 'astro.sqlite3'}", tmp_path)
    async with running_app(settings, [_lost_database]) as app:
        account_id, key = await new_account("starter", 10)
        response = await app.test_client().post(
            "/test/lost-database", json={"records": [1, 2]}, headers=key_headers(key)
        )
        body = await response.get_json()
        assert response.status_code == 503, body
        assert body["code"] == "database_unavailable"
        assert (await Account.get(id=account_id)).credits == 6  # not refunded yet
        for _ in range(100):
            if (await Account.get(id=account_id)).credits == 10:
                break
            await asyncio.sleep(0.05)
        assert (await Account.get(id=account_id)).credits == 10
        assert len(calls) == 3
        refunds = await LedgerEntry.filter(account_id=account_id, kind="refund").count()
        assert refunds == 1


# Issue 52: a hang (the server's processes stopped, its sockets open) is bounded by the deadlines.
HANG_BOUND_S = 5.0
ACCOUNT = "/api/v3/account"


async def _timed_request(client: Any, method: str, path: str, **kwargs: Any) -> tuple[Any, float]:
    started = time.monotonic()
    response = await client.open(path, method=method, **kwargs)
    return response, time.monotonic() - started


@pytest.mark.slow
async def test_a_postgresql_hang_is_a_503_within_seconds_logged_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """PostgreSQL stopped by SIGSTOP (postmaster and backends): every request answers 503
    ``database_unavailable`` with Retry-After within 5 s (asyncpg's command, connect and
    pool-acquire timeouts), /readyz is not ready within 5 s, one outage line, no traceback; once
    it resumes, requests succeed again. Without the deadlines the requests wait for the hang."""
    caplog.set_level(logging.INFO)
    pg = ThrowawayPostgres()
    pg.start()
    try:
        settings = settings_for(pg.url, tmp_path, api_key_cache_s=0, db_pool_size=4)
        async with running_app(settings) as app:
            account_id, key = await new_account("starter", 100)
            client = app.test_client()
            assert (
                await client.get("/api/v3/account", headers=key_headers(key))
            ).status_code == 200
            pg.pause()
            try:
                # More requests at once than the pool has connections: some wait to acquire.
                answers = await asyncio.wait_for(
                    asyncio.gather(
                        *(
                            _timed_request(client, "GET", ACCOUNT, headers=key_headers(key))
                            for _ in range(8)
                        ),
                        _timed_request(
                            client, "POST", "/api/v3/vedic/kundli-matching/batch",
                            json=BATCH, headers=key_headers(key),
                        ),
                        _timed_request(client, "GET", "/readyz"),
                    ),
                    timeout=30,
                )  # fmt: skip
                for response, elapsed_s in answers:
                    body = await response.get_json()
                    assert response.status_code == 503, body
                    assert elapsed_s < HANG_BOUND_S, (elapsed_s, body)
                    assert response.headers["Retry-After"]
                for response, _ in answers[:9]:
                    assert (await response.get_json())["code"] == "database_unavailable"
            finally:
                pg.resume()

            async def account_ok() -> None:
                response = await client.get("/api/v3/account", headers=key_headers(key))
                assert response.status_code == 200

            assert await _until(10.0, account_ok) < 10.0
            assert (await Account.get(id=account_id)).credits == 100
    finally:
        pg.remove()
    assert len([r for r in _outage_lines(caplog) if "database" in r.getMessage()]) == 1
    assert _tracebacks(caplog) == []


@pytest.mark.slow
async def test_a_redis_hang_is_a_503_within_seconds_logged_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Redis stopped by SIGSTOP: requests answer 503 (the rate limiter, then the job queue)
    within 5 s, /readyz is not ready within 5 s; once it resumes they succeed again."""
    caplog.set_level(logging.INFO)
    redis = ThrowawayRedis(tmp_path)
    redis.start()
    try:
        settings = settings_for(
            f"sqlite://{tmp_path / 'astro.sqlite3'}", tmp_path, redis_url=redis.url
        )
        async with running_app(settings) as app:
            account_id, key = await new_account("starter", 100)
            client = app.test_client()
            assert (
                await client.get("/api/v3/account", headers=key_headers(key))
            ).status_code == 200
            redis.pause()
            try:
                answers = await asyncio.wait_for(
                    asyncio.gather(
                        *(
                            _timed_request(client, "GET", ACCOUNT, headers=key_headers(key))
                            for _ in range(4)
                        ),
                        _timed_request(
                            client, "POST", "/api/v3/vedic/kundli-matching/batch",
                            json=BATCH, headers=key_headers(key),
                        ),
                        _timed_request(client, "GET", "/readyz"),
                    ),
                    timeout=60,
                )  # fmt: skip
                for response, elapsed_s in answers:
                    body = await response.get_json()
                    assert response.status_code == 503, body
                    assert elapsed_s < HANG_BOUND_S, (elapsed_s, body)
                    assert response.headers["Retry-After"]
            finally:
                redis.resume()

            async def account_ok() -> None:
                response = await client.get("/api/v3/account", headers=key_headers(key))
                assert response.status_code == 200

            assert await _until(10.0, account_ok) < 10.0
            assert (await Account.get(id=account_id)).credits == 100
    finally:
        redis.stop()
    assert len([r for r in _outage_lines(caplog) if "rate limiter" in r.getMessage()]) == 1
    assert _tracebacks(caplog) == []
