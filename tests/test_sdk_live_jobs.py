"""A job through the SDK on the live stack: queued by the API, run by a worker process on Redis,
polled to ``succeeded``; canceled while queued (refunded); listed with paging.

The jobs that must finish run on the session's shared stack (API, worker, scheduler); the ones
that must stay queued use this module's API process with no worker (``idle_api``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import astro_sdk
from astro_sdk import AstroClient, AsyncAstroClient
from astro_sdk.models.vedic import KundliBatchResult
from tests._support.accounts import create_account
from tests._support.stack import ServerProcess, Stack

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

BOY = {"date": "1990-05-14", "time": "06:30", "latitude": 28.61, "longitude": 77.21}
GIRL = {"date": "1992-11-02", "time": "21:15", "latitude": 19.07, "longitude": 72.88}


@pytest.fixture(scope="module")
def idle_api(module_stack: Stack) -> ServerProcess:
    """An API process with no worker, for this module: a job it queues stays queued."""
    return module_stack.server()


def new_account(stack: Stack, credits: int) -> dict[str, Any]:
    return create_account(stack, tier="starter", credits=credits, name="jobs")


def records(count: int) -> list[dict[str, Any]]:
    return [{"id": f"pair-{i}", "boy": BOY, "girl": GIRL} for i in range(count)]


def test_a_batch_job_is_queued_polled_and_finished(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = new_account(shared_stack, credits=10)
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        handle = client.vedic.kundli_matching_batch(records=records(2))
        assert handle.status == "queued"
        assert handle.poll == f"/api/v3/jobs/{handle.job_id}"
        assert handle.api_response.status_code == 202
        assert handle.api_response.credits_charged == 4  # 2 credits per record
        assert handle.api_response.credits_remaining == 6
        job = handle.wait(timeout_s=60, poll_interval_s=0.2)
        fetched = client.jobs.get(handle.job_id)
    assert job.status == "succeeded"
    assert job.kind == "vedic.kundli_matching_batch"
    assert job.finished_at is not None
    assert job.credits_charged == 4
    assert job.credits_refunded == 0
    assert job.progress == 1.0
    assert isinstance(job.result, KundliBatchResult)  # the handle types the result
    assert job.result.succeeded == 2
    assert json.dumps(fetched.result).count("pair-") >= 2  # jobs.get: the plain JSON value
    assert fetched.status == "succeeded"


def test_a_queued_job_can_be_canceled_and_is_refunded(
    module_stack: Stack, idle_api: ServerProcess
) -> None:
    # No worker runs: the job stays queued until it is canceled.
    account = new_account(module_stack, credits=10)
    with AstroClient(api_key=account["api_key"], base_url=idle_api.base_url) as client:
        handle = client.vedic.kundli_matching_batch(records=records(1))
        canceled = client.jobs.cancel(handle.job_id)
        with pytest.raises(astro_sdk.JobCanceledError) as caught:
            handle.wait(timeout_s=5)
        with pytest.raises(astro_sdk.ConflictError):
            client.jobs.cancel(handle.job_id)
        balance = client.estimates.create(operation="vedic.chart").balance
    assert canceled.status == "canceled"
    assert canceled.credits_refunded == 2
    assert caught.value.job_id == handle.job_id
    assert balance == 10


def test_waiting_on_a_job_nobody_runs_times_out(
    module_stack: Stack, idle_api: ServerProcess
) -> None:
    # An API process and no worker: the job stays queued.
    account = new_account(module_stack, credits=10)
    with AstroClient(api_key=account["api_key"], base_url=idle_api.base_url) as client:
        handle = client.vedic.kundli_matching_batch(records=records(1))
        with pytest.raises(astro_sdk.JobTimeoutError) as caught:
            handle.wait(timeout_s=1.0, poll_interval_s=0.2)
    assert caught.value.job is not None
    assert caught.value.job.status == "queued"


def test_another_accounts_job_is_not_found(module_stack: Stack, idle_api: ServerProcess) -> None:
    owner = new_account(module_stack, credits=10)
    other = new_account(module_stack, credits=10)
    with AstroClient(api_key=owner["api_key"], base_url=idle_api.base_url) as client:
        handle = client.vedic.kundli_matching_batch(records=records(1))
        with pytest.raises(astro_sdk.NotFoundError):
            client.with_options(api_key=other["api_key"]).jobs.get(handle.job_id)


def test_jobs_list_pages_through_every_job(module_stack: Stack, idle_api: ServerProcess) -> None:
    account = new_account(module_stack, credits=20)
    with AstroClient(api_key=account["api_key"], base_url=idle_api.base_url) as client:
        queued = [client.vedic.kundli_matching_batch(records=records(1)).job_id for _ in range(5)]
        first = client.jobs.list(limit=2)
        listed = [job.job_id for job in first]
    assert len(first.data) == 2
    assert first.has_next_page()
    assert listed == list(reversed(queued))  # newest first, across three pages


async def test_async_batch_job_is_polled_to_success(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = new_account(shared_stack, credits=10)
    async with AsyncAstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as c:
        handle = await c.vedic.kundli_matching_batch(records=records(1))
        job = await handle.wait(timeout_s=60, poll_interval_s=0.2)
        listed = [j.job_id async for j in c.jobs.list(status="succeeded")]
    assert job.status == "succeeded"
    assert listed == [handle.job_id]
