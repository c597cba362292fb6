"""Retry rules, backoff bounds, Retry-After and idempotency keys, through httpx.MockTransport."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import httpx
import pytest
from sdk_testkit import FakeClock, Script, async_client, error, job_body, reply, sync_client

import astro_sdk
from astro_sdk import Credential, Operation, RetryPolicy
from astro_sdk._retry import parse_retry_after
from astro_sdk.models import Job, RequestModel, ResponseModel

JOB_ID = "job_" + "a" * 24


class Echo(RequestModel):
    text: str


class Receipt(ResponseModel):
    ok: bool


BILLABLE = Operation(
    operation_id="testBillable",
    method="POST",
    path="/api/v3/test/billable",
    credential=Credential.API_KEY,
    response_model=Receipt,
    request_model=Echo,
    billable=True,
)
FREE_POST = Operation(
    operation_id="testFreePost",
    method="POST",
    path="/api/v3/test/free",
    credential=Credential.API_KEY,
    response_model=Receipt,
    request_model=Echo,
)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr("astro_sdk._client._sleep", fake.sleep)
    monkeypatch.setattr("astro_sdk._client._async_sleep", fake.async_sleep)
    monkeypatch.setattr("astro_sdk._client._monotonic", fake.monotonic)
    return fake


def ok_job() -> httpx.Response:
    return reply(200, job_body("queued"))


@pytest.mark.parametrize("status", [408, 429, 500, 502, 503, 504])
def test_transient_status_is_retried_then_succeeds(status: int, clock: FakeClock) -> None:
    script = Script(error(status, "transient"), ok_job())
    job = sync_client(script).jobs.get(JOB_ID)
    assert job.job_id == JOB_ID
    assert len(script.requests) == 2
    assert job.api_response.attempts == 2
    assert len(clock.sleeps) == 1


@pytest.mark.parametrize(
    ("status", "slug", "exception"),
    [
        (400, "validation_error", astro_sdk.BadRequestError),
        (401, "unauthorized", astro_sdk.AuthenticationError),
        (402, "payment_required", astro_sdk.InsufficientCreditsError),
        (403, "forbidden", astro_sdk.PermissionDeniedError),
        (404, "not_found", astro_sdk.NotFoundError),
        (409, "idempotency_conflict", astro_sdk.IdempotencyConflictError),
        (422, "unprocessable", astro_sdk.UnprocessableEntityError),
    ],
)
def test_non_retryable_status_raises_after_one_request(
    status: int, slug: str, exception: type[astro_sdk.APIStatusError], clock: FakeClock
) -> None:
    script = Script(error(status, slug, "no"))
    with pytest.raises(exception) as caught:
        sync_client(script).jobs.get(JOB_ID)
    assert caught.value.status_code == status
    assert caught.value.error == slug
    assert len(script.requests) == 1
    assert clock.sleeps == []


def test_idempotency_in_progress_conflict_is_retried_after_its_retry_after(
    clock: FakeClock,
) -> None:
    busy = error(409, "idempotency_in_progress", headers={"Retry-After": "1"})
    script = Script(busy, reply(200, {"ok": True}))
    receipt = sync_client(script).request(BILLABLE, body=Echo(text="x"))
    assert receipt.ok is True
    assert clock.sleeps == [1.0]
    assert len(script.requests) == 2


def test_idempotency_in_progress_exhausting_retries_raises_its_own_class(
    clock: FakeClock,
) -> None:
    script = Script(*[error(409, "idempotency_in_progress") for _ in range(3)])
    with pytest.raises(astro_sdk.IdempotencyInProgressError):
        sync_client(script).request(BILLABLE, body=Echo(text="x"))
    assert len(script.requests) == 3


def test_unrecognised_409_is_a_plain_conflict_and_not_retried(clock: FakeClock) -> None:
    script = Script(error(409, "conflict", "job already running"))
    with pytest.raises(astro_sdk.ConflictError) as caught:
        sync_client(script).jobs.cancel(JOB_ID)
    assert type(caught.value) is astro_sdk.ConflictError
    assert len(script.requests) == 1


def test_retries_stop_after_max_retries_and_raise_the_last_error(clock: FakeClock) -> None:
    script = Script(error(503, "service_unavailable"), error(502, "bad_gateway"), error(500, "x"))
    with pytest.raises(astro_sdk.InternalServerError) as caught:
        sync_client(script).jobs.get(JOB_ID)
    assert caught.value.status_code == 500
    assert len(script.requests) == 3  # first attempt + max_retries (2)
    assert len(clock.sleeps) == 2


def test_max_retries_zero_makes_one_attempt(clock: FakeClock) -> None:
    script = Script(error(503, "service_unavailable"))
    with pytest.raises(astro_sdk.InternalServerError):
        sync_client(script, max_retries=0).jobs.get(JOB_ID)
    assert len(script.requests) == 1


def test_connection_error_is_retried() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    script = Script(refuse, ok_job())
    clock = FakeClock()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("astro_sdk._client._sleep", clock.sleep)
        job = sync_client(script).jobs.get(JOB_ID)
    assert job.api_response.attempts == 2


def test_connection_errors_exhausting_retries_raise_api_connection_error(
    clock: FakeClock,
) -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    script = Script(refuse, refuse, refuse)
    with pytest.raises(astro_sdk.APIConnectionError) as caught:
        sync_client(script).jobs.get(JOB_ID)
    assert not isinstance(caught.value, astro_sdk.APITimeoutError)
    assert isinstance(caught.value.__cause__, httpx.ConnectError)
    assert len(script.requests) == 3


def test_timeouts_are_retried_then_raise_api_timeout_error(clock: FakeClock) -> None:
    def slow(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("timed out", request=request)

    script = Script(slow, slow, slow)
    with pytest.raises(astro_sdk.APITimeoutError):
        sync_client(script).jobs.get(JOB_ID)
    assert len(script.requests) == 3


def test_a_timeout_then_success_returns_the_result(clock: FakeClock) -> None:
    def slow(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("timed out", request=request)

    job = sync_client(Script(slow, ok_job())).jobs.get(JOB_ID)
    assert isinstance(job, Job)


def test_backoff_waits_stay_within_the_documented_bounds(clock: FakeClock) -> None:
    policy = RetryPolicy(max_retries=6)
    script = Script(*[error(500, "x") for _ in range(6)], ok_job())
    sync_client(script, retry=policy).jobs.get(JOB_ID)
    bases = [0.5, 1.0, 2.0, 4.0, 8.0, 8.0]  # min(8, 0.5 * 2**n)
    assert len(clock.sleeps) == 6
    for waited, base in zip(clock.sleeps, bases, strict=True):
        assert base * 0.75 <= waited <= base


def test_backoff_formula_at_both_ends_of_the_jitter() -> None:
    policy = RetryPolicy(initial_delay_s=0.5, backoff_factor=2.0, max_delay_s=8.0, jitter=0.25)
    assert policy.backoff_s(0, uniform=0.0) == 0.5
    assert policy.backoff_s(3, uniform=0.0) == 4.0
    assert policy.backoff_s(3, uniform=1.0) == 3.0
    assert policy.backoff_s(10, uniform=0.0) == 8.0


def test_without_jitter_backoff_is_exactly_exponential(clock: FakeClock) -> None:
    policy = RetryPolicy(max_retries=3, jitter=0.0, initial_delay_s=0.25)
    script = Script(error(502, "x"), error(502, "x"), error(502, "x"), ok_job())
    sync_client(script, retry=policy).jobs.get(JOB_ID)
    assert clock.sleeps == [0.25, 0.5, 1.0]


def test_retry_after_in_seconds_is_slept_exactly(clock: FakeClock) -> None:
    script = Script(error(429, "rate_limited", headers={"Retry-After": "7"}), ok_job())
    sync_client(script).jobs.get(JOB_ID)
    assert clock.sleeps == [7.0]


def test_retry_after_as_http_date_is_slept_until_that_time(clock: FakeClock) -> None:
    when = datetime.now(UTC) + timedelta(seconds=30)
    header = format_datetime(when, usegmt=True)
    script = Script(error(503, "service_unavailable", headers={"Retry-After": header}), ok_job())
    sync_client(script).jobs.get(JOB_ID)
    assert len(clock.sleeps) == 1
    # The date has whole-second precision and the clock moves on while the test runs.
    assert 28.0 <= clock.sleeps[0] <= 30.0


def test_retry_after_date_in_the_past_retries_at_once(clock: FakeClock) -> None:
    header = "Wed, 21 Oct 2015 07:28:00 GMT"
    script = Script(error(503, "service_unavailable", headers={"Retry-After": header}), ok_job())
    sync_client(script).jobs.get(JOB_ID)
    assert clock.sleeps == [0.0]


def test_retry_after_past_the_bound_raises_instead_of_sleeping(clock: FakeClock) -> None:
    script = Script(error(429, "rate_limited", "slow down", headers={"Retry-After": "3600"}))
    with pytest.raises(astro_sdk.RateLimitError) as caught:
        sync_client(script).jobs.get(JOB_ID)
    assert caught.value.retry_after_s == 3600.0
    assert clock.sleeps == []
    assert len(script.requests) == 1


def test_the_retry_after_bound_is_configurable(clock: FakeClock) -> None:
    policy = RetryPolicy(max_retry_after_s=5.0)
    script = Script(error(429, "rate_limited", headers={"Retry-After": "6"}))
    with pytest.raises(astro_sdk.RateLimitError):
        sync_client(script, retry=policy).jobs.get(JOB_ID)
    script = Script(error(429, "rate_limited", headers={"Retry-After": "5"}), ok_job())
    sync_client(script, retry=policy).jobs.get(JOB_ID)
    assert clock.sleeps == [5.0]


def test_unparseable_retry_after_falls_back_to_backoff(clock: FakeClock) -> None:
    script = Script(error(429, "rate_limited", headers={"Retry-After": "soon"}), ok_job())
    sync_client(script).jobs.get(JOB_ID)
    assert 0.375 <= clock.sleeps[0] <= 0.5


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        ("0", 0.0),
        ("120", 120.0),
        ("1.5", 1.5),
        ("-3", None),
        ("", None),
        ("nan", None),
        ("Thu, 01 Jan 2026 00:00:10 GMT", 10.0),
        ("Thu, 01 Jan 2026 00:00:00 GMT", 0.0),
        ("Wed, 31 Dec 2025 23:00:00 GMT", 0.0),
        ("not a date", None),
    ],
)
def test_parse_retry_after(value: str, seconds: float | None) -> None:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    assert parse_retry_after(value, now=now) == seconds


def test_billable_post_reuses_one_idempotency_key_on_every_retry(clock: FakeClock) -> None:
    script = Script(error(500, "x"), error(503, "x"), reply(200, {"ok": True}))
    receipt = sync_client(script).request(BILLABLE, body=Echo(text="x"))
    keys = [r.headers["Idempotency-Key"] for r in script.requests]
    assert len(keys) == 3
    assert len(set(keys)) == 1
    assert keys[0].startswith("astro-sdk-")
    assert receipt.api_response.idempotency_key == keys[0]
    bodies = {r.content for r in script.requests}
    assert bodies == {b'{"text":"x"}'}


def test_each_logical_call_gets_its_own_idempotency_key(clock: FakeClock) -> None:
    script = Script(reply(200, {"ok": True}), reply(200, {"ok": True}))
    client = sync_client(script)
    client.request(BILLABLE, body=Echo(text="x"))
    client.request(BILLABLE, body=Echo(text="x"))
    first, second = (r.headers["Idempotency-Key"] for r in script.requests)
    assert first != second


def test_caller_supplied_idempotency_key_is_sent_on_every_attempt(clock: FakeClock) -> None:
    script = Script(error(502, "x"), reply(200, {"ok": True}))
    sync_client(script).request(BILLABLE, body=Echo(text="x"), idempotency_key="order-42")
    assert [r.headers["Idempotency-Key"] for r in script.requests] == ["order-42", "order-42"]


def test_non_billable_post_sends_no_idempotency_key(clock: FakeClock) -> None:
    script = Script(reply(200, {"ok": True}))
    sync_client(script).request(FREE_POST, body=Echo(text="x"))
    assert "Idempotency-Key" not in script.requests[0].headers


def test_idempotency_key_on_a_non_billable_operation_is_refused() -> None:
    script = Script()
    with pytest.raises(ValueError, match="not billable"):
        sync_client(script).request(FREE_POST, body=Echo(text="x"), idempotency_key="k")
    assert script.requests == []


async def test_async_client_retries_with_the_same_rules(clock: FakeClock) -> None:
    script = Script(
        error(429, "rate_limited", headers={"Retry-After": "2"}),
        error(500, "x"),
        reply(200, {"ok": True}),
    )
    async with async_client(script) as client:
        receipt = await client.request(BILLABLE, body=Echo(text="x"))
    assert receipt.api_response.attempts == 3
    assert clock.sleeps[0] == 2.0
    assert 0.75 <= clock.sleeps[1] <= 1.0
    assert len({r.headers["Idempotency-Key"] for r in script.requests}) == 1


async def test_async_client_never_retries_a_402(clock: FakeClock) -> None:
    script = Script(error(402, "payment_required", "Insufficient credits", code="402"))
    async with async_client(script) as client:
        with pytest.raises(astro_sdk.InsufficientCreditsError) as caught:
            await client.request(BILLABLE, body=Echo(text="x"))
    assert caught.value.code == "402"
    assert len(script.requests) == 1


async def test_async_client_raises_timeout_after_retries(clock: FakeClock) -> None:
    def slow(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectTimeout("timed out", request=request)

    script = Script(slow, slow, slow)
    async with async_client(script) as client:
        with pytest.raises(astro_sdk.APITimeoutError):
            await client.jobs.get(JOB_ID)
    assert len(clock.sleeps) == 2
