"""Job polling (schedule, Retry-After, failure, timeout), handles, paging and cancel."""

from __future__ import annotations

import httpx
import pytest
from sdk_testkit import FakeClock, Script, async_client, job_body, reply, sync_client

import astro_sdk
from astro_sdk import Credential, Operation
from astro_sdk.models import JobHandle, RequestModel

JOB_ID = "job_" + "a" * 24
HANDLE = {"job_id": JOB_ID, "status": "queued", "poll": f"/api/v3/jobs/{JOB_ID}"}


class Batch(RequestModel):
    records: list[str]


QUEUED_OPERATION = Operation(
    operation_id="testQueue",
    method="POST",
    path="/api/v3/test/batch",
    credential=Credential.API_KEY,
    response_model=JobHandle,
    request_model=Batch,
    success_status=202,
    billable=True,
)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr("astro_sdk._client._sleep", fake.sleep)
    monkeypatch.setattr("astro_sdk._client._async_sleep", fake.async_sleep)
    monkeypatch.setattr("astro_sdk._client._monotonic", fake.monotonic)
    return fake


def job(status: str, headers: dict[str, str] | None = None, **fields: object) -> httpx.Response:
    return reply(200, job_body(status, **fields), headers)


def test_wait_polls_until_succeeded_with_growing_intervals(clock: FakeClock) -> None:
    script = Script(
        job("queued"),
        job("running"),
        job("running"),
        job("succeeded", result={"matches": 2}),
    )
    finished = sync_client(script).jobs.wait(JOB_ID, poll_interval_s=1.0)
    assert finished.status == "succeeded"
    assert finished.result == {"matches": 2}
    assert clock.sleeps == [1.0, 1.5, 2.25]
    assert all(r.url.path == f"/api/v3/jobs/{JOB_ID}" for r in script.requests)


def test_poll_interval_stops_growing_at_the_maximum(clock: FakeClock) -> None:
    script = Script(*[job("running") for _ in range(5)], job("succeeded"))
    sync_client(script).jobs.wait(JOB_ID, poll_interval_s=2.0, max_poll_interval_s=4.0)
    assert clock.sleeps == [2.0, 3.0, 4.0, 4.0, 4.0]


def test_wait_honours_the_servers_retry_after(clock: FakeClock) -> None:
    script = Script(job("running", {"Retry-After": "5"}), job("succeeded"))
    sync_client(script).jobs.wait(JOB_ID, poll_interval_s=1.0)
    assert clock.sleeps == [5.0]


def test_failed_job_raises_with_the_jobs_error(clock: FakeClock) -> None:
    failure = {"error": "calculation_failed", "message": "birth date out of range"}
    script = Script(job("running"), job("failed", error=failure, credits_refunded=4))
    with pytest.raises(astro_sdk.JobFailedError) as caught:
        sync_client(script).jobs.wait(JOB_ID)
    exc = caught.value
    assert exc.job_id == JOB_ID
    assert exc.job is not None
    assert exc.job.credits_refunded == 4
    assert exc.error == failure
    assert "birth date out of range" in str(exc)
    assert not isinstance(exc, astro_sdk.JobCanceledError)


def test_canceled_job_raises_job_canceled_error(clock: FakeClock) -> None:
    with pytest.raises(astro_sdk.JobCanceledError):
        sync_client(Script(job("canceled"))).jobs.wait(JOB_ID)


def test_wait_times_out_without_sleeping_past_the_deadline(clock: FakeClock) -> None:
    script = Script(*[job("running") for _ in range(10)])
    with pytest.raises(astro_sdk.JobTimeoutError) as caught:
        sync_client(script).jobs.wait(JOB_ID, timeout_s=5.0, poll_interval_s=2.0)
    assert sum(clock.sleeps) == pytest.approx(5.0)
    assert clock.sleeps == [2.0, 3.0]  # 2 s, then only the 3 s left of the 5 s budget
    assert caught.value.job is not None
    assert caught.value.job.status == "running"
    assert caught.value.timeout_s == 5.0


def test_transient_errors_while_polling_are_retried(clock: FakeClock) -> None:
    script = Script(
        reply(503, {"error": "service_unavailable", "message": "db"}),
        job("succeeded"),
    )
    assert sync_client(script).jobs.wait(JOB_ID).status == "succeeded"


def test_submit_returns_a_handle_whose_wait_polls_the_job(clock: FakeClock) -> None:
    script = Script(reply(202, HANDLE), job("running"), job("succeeded", result=[1]))
    client = sync_client(script)
    handle = client.jobs.submit(QUEUED_OPERATION, body=Batch(records=["a"]))
    assert (handle.job_id, handle.status) == (JOB_ID, "queued")
    assert handle.api_response.status_code == 202
    assert "Idempotency-Key" in script.requests[0].headers
    assert handle.wait(poll_interval_s=0.5).result == [1]
    assert clock.sleeps == [0.5]


def test_wait_accepts_a_handle_a_job_or_an_id(clock: FakeClock) -> None:
    script = Script(reply(202, HANDLE), job("succeeded"), job("succeeded"), job("succeeded"))
    client = sync_client(script)
    handle = client.jobs.submit(QUEUED_OPERATION, body=Batch(records=["a"]))
    finished = client.jobs.wait(handle)
    client.jobs.wait(finished)
    client.jobs.wait(JOB_ID)
    assert [r.url.path for r in script.requests[1:]] == [f"/api/v3/jobs/{JOB_ID}"] * 3


def test_an_unbound_handle_says_how_to_wait() -> None:
    with pytest.raises(RuntimeError, match=r"client\.jobs\.wait"):
        JobHandle.model_validate(HANDLE).wait()


def _page(ids: list[str], next_cursor: str | None) -> httpx.Response:
    jobs = [job_body("succeeded", job_id=i) for i in ids]
    return reply(200, {"jobs": jobs, "next_cursor": next_cursor})


def test_list_walks_every_page_lazily() -> None:
    script = Script(_page(["j1", "j2"], "c2"), _page(["j3"], "c3"), _page(["j4"], None))
    page = sync_client(script).jobs.list(limit=2, status="succeeded")
    assert [j.job_id for j in page.data] == ["j1", "j2"]
    assert len(script.requests) == 1
    assert [j.job_id for j in page] == ["j1", "j2", "j3", "j4"]
    params = [dict(r.url.params) for r in script.requests]
    assert params == [
        {"limit": "2", "status": "succeeded"},
        {"limit": "2", "status": "succeeded", "cursor": "c2"},
        {"limit": "2", "status": "succeeded", "cursor": "c3"},
    ]


def test_list_pages_one_at_a_time() -> None:
    script = Script(_page(["j1"], "c2"), _page(["j2"], None))
    first = sync_client(script).jobs.list()
    assert first.has_next_page()
    second = first.get_next_page()
    assert [j.job_id for j in second.data] == ["j2"]
    assert not second.has_next_page()
    assert [len(p.data) for p in first.iter_pages()] == [1, 1]


def test_list_refuses_a_bad_limit_before_sending() -> None:
    script = Script()
    with pytest.raises(astro_sdk.RequestValidationError, match="limit"):
        sync_client(script).jobs.list(limit=0)
    assert script.requests == []


def test_cancel_posts_to_the_cancel_route() -> None:
    script = Script(job("canceled", credits_refunded=4))
    canceled = sync_client(script).jobs.cancel(JOB_ID)
    assert script.requests[0].method == "POST"
    assert script.requests[0].url.path == f"/api/v3/jobs/{JOB_ID}/cancel"
    assert canceled.credits_refunded == 4


async def test_async_wait_and_handle(clock: FakeClock) -> None:
    script = Script(reply(202, HANDLE), job("queued"), job("running"), job("succeeded"))
    async with async_client(script) as client:
        handle = await client.jobs.submit(QUEUED_OPERATION, body=Batch(records=["a"]))
        finished = await handle.wait(poll_interval_s=1.0)
    assert finished.status == "succeeded"
    assert clock.sleeps == [1.0, 1.5]


async def test_async_wait_raises_job_failed(clock: FakeClock) -> None:
    script = Script(job("failed", error={"error": "x", "message": "broken"}))
    async with async_client(script) as client:
        with pytest.raises(astro_sdk.JobFailedError, match="broken"):
            await client.jobs.wait(JOB_ID)


async def test_async_wait_times_out(clock: FakeClock) -> None:
    script = Script(*[job("queued") for _ in range(5)])
    async with async_client(script) as client:
        with pytest.raises(astro_sdk.JobTimeoutError):
            await client.jobs.wait(JOB_ID, timeout_s=3.0, poll_interval_s=1.0)
    assert sum(clock.sleeps) == pytest.approx(3.0)


async def test_async_list_awaits_the_first_page_or_iterates_all() -> None:
    script = Script(_page(["j1"], "c2"), _page(["j2"], None), _page(["j1"], "c2"))
    async with async_client(script) as client:
        all_ids = [j.job_id async for j in client.jobs.list()]
        first = await client.jobs.list()
    assert all_ids == ["j1", "j2"]
    assert [j.job_id for j in first.data] == ["j1"]
    assert first.next_cursor == "c2"
