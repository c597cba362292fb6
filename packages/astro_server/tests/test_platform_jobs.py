"""Jobs: queue, run, poll, list, cancel, fail with one refund, sweep dead leases, isolation.

In-process (InMemoryBroker: jobs run in the app's event loop) on SQLite and PostgreSQL. The
route and job kinds are defined here for the tests; the route is priced by the real row
``vedic.kundli_matching_batch`` (starter tier, 2 credits per record).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import msgspec
import pytest
from _platform_support import key_headers, new_account, settings_for
from pydantic import BaseModel, Field
from quart import Blueprint, Quart, Response
from quart.typing import TestClientProtocol as Client
from tortoise.exceptions import IntegrityError
from tortoise.transactions import in_transaction

from astro_server.platform import jobs, runtime
from astro_server.platform.auth.guards import require_api_key
from astro_server.platform.billing import ledger as billing
from astro_server.platform.billing.billable import billable, current_charge
from astro_server.platform.caller import Caller
from astro_server.platform.jobs import JobKind, Progress, enqueue_job
from astro_server.platform.models.accounts import Account
from astro_server.platform.models.billing import LedgerEntry
from astro_server.platform.models.jobs import Job
from astro_server.platform.outages import DATABASE, DependencyUnavailable
from astro_server.platform.responses import job_accepted
from astro_server.settings import Settings

routes = Blueprint("jobs_test_routes", __name__)
# Tests here queue in-process jobs: the app waits for them before it stops.
pytestmark = pytest.mark.drain_jobs

gate = asyncio.Event()


class Work(BaseModel):
    kind: str = "test.echo"
    records: list[int] = Field(min_length=1, max_length=50)


@routes.post("/test/jobs")
@require_api_key
@billable("vedic.kundli_matching_batch", body=Work, quantity=lambda body: len(body.records))
async def queue_work(data: Work, caller: Caller) -> Response:
    handle = await enqueue_job(
        TEST_KINDS[data.kind],
        Records(data.records),
        account_id=caller.account_id,
        livemode=caller.livemode,
        charge=current_charge(),
    )
    return job_accepted(handle)


@routes.post("/test/jobs-then-outage")
@require_api_key
@billable("vedic.kundli_matching_batch", body=Work, quantity=lambda body: len(body.records))
async def queue_work_then_lose_the_database(data: Work, caller: Caller) -> Response:
    """Queues its job, then fails as a request does when the database goes after the debit."""
    await enqueue_job(
        TEST_KINDS[data.kind],
        Records(data.records),
        account_id=caller.account_id,
        livemode=caller.livemode,
        charge=current_charge(),
    )
    raise DependencyUnavailable(DATABASE)


class Records(msgspec.Struct, frozen=True):
    records: list[int]


def echo_records(params: Records) -> dict[str, Any]:
    return {"sum": sum(params.records)}


async def always_fails(params: Records) -> None:
    raise ValueError("secret internal detail")


hooked: list[tuple[str, str, str, int, int]] = []


async def record_failure(job: Job, error: dict[str, Any], status: str) -> None:
    """What the failure hook sees: the job and the balance as committed when it runs."""
    row = await Job.get(id=job.id)
    account = await Account.get(id=job.account_id)
    hooked.append((row.status, status, error["error"], row.credits_refunded, account.credits))


async def fails_with_a_hook(params: Records) -> None:
    raise ValueError("boom")


async def gated(params: Records, progress: Progress) -> str:
    progress(0.5)
    await gate.wait()
    return "done"


TEST_KINDS = {
    kind.name: kind
    for kind in (
        JobKind("test.echo", Records, echo_records),
        JobKind("test.fail", Records, always_fails),
        JobKind("test.hooked", Records, fails_with_a_hook, on_failure=record_failure),
        JobKind("test.gated", Records, gated),
    )
}
jobs.register_job_kinds(TEST_KINDS.values())


@pytest.fixture
def app_settings(database_url: str, tmp_path: Path) -> Settings:
    return settings_for(database_url, tmp_path, job_lease_s=0.6)


@pytest.fixture
def app_blueprints() -> list[Blueprint]:
    return [routes]


@pytest.fixture(autouse=True)
def fresh_gate(app: Quart) -> Iterator[None]:
    """A new gate per test (an asyncio.Event belongs to the loop that first waited on it),
    opened at the end so the app's jobs finish before it stops (``drain_jobs``)."""
    global gate
    gate = asyncio.Event()
    yield
    gate.set()


@pytest.fixture
def held_kicks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Jobs are queued but no worker takes them (the broker's kick is recorded instead)."""
    kicked: list[str] = []

    async def record(job_id: str) -> None:
        kicked.append(job_id)

    monkeypatch.setattr("astro_server.platform.broker.kick_job", record)
    return kicked


async def poll(client: Client, key: str, job_id: str, until: set[str]) -> dict[str, Any]:
    for _ in range(300):
        response = await client.get(f"/api/v3/jobs/{job_id}", headers=key_headers(key))
        body: dict[str, Any] = await response.get_json()
        if body["status"] in until:
            return body
        await asyncio.sleep(0.02)
    raise AssertionError(f"job stayed {body['status']}")


async def test_queued_job_returns_the_handle_with_202_and_finishes(client: Client) -> None:
    account_id, key = await new_account("starter", 10)
    response = await client.post(
        "/test/jobs", json={"records": [1, 2, 3]}, headers=key_headers(key)
    )
    handle = await response.get_json()
    assert response.status_code == 202
    assert set(handle) == {"job_id", "status", "poll"}
    assert handle["status"] == "queued"
    assert handle["poll"] == f"/api/v3/jobs/{handle['job_id']}"
    assert response.headers["X-Credits-Charged"] == "6"
    job = await poll(client, key, handle["job_id"], {"succeeded", "failed"})
    assert job["status"] == "succeeded"
    assert job["result"] == {"sum": 6}
    assert job["kind"] == "test.echo"
    assert job["progress"] == 1.0
    assert (job["credits_charged"], job["credits_refunded"]) == (6, 0)
    assert job["created_at"].endswith("Z")
    assert job["created_at"] <= job["started_at"] <= job["finished_at"]
    assert job["error"] is None
    assert (await Account.get(id=account_id)).credits == 4


async def test_the_failure_hook_runs_once_after_the_refund_is_committed(
    client: Client, held_kicks: list[str]
) -> None:
    hooked.clear()
    _account_id, key = await new_account("starter", 10)
    response = await client.post(
        "/test/jobs", json={"kind": "test.hooked", "records": [1, 2]}, headers=key_headers(key)
    )
    job_id = (await response.get_json())["job_id"]
    await jobs.run_job(job_id)
    await jobs.run_job(job_id)  # a duplicate delivery: no second refund, no second hook
    assert hooked == [("failed", "failed", "job_failed", 4, 10)]
    # A canceled job calls it too, with its status.
    response = await client.post(
        "/test/jobs", json={"kind": "test.hooked", "records": [1]}, headers=key_headers(key)
    )
    job_id = (await response.get_json())["job_id"]
    canceled = await client.post(f"/api/v3/jobs/{job_id}/cancel", headers=key_headers(key))
    assert canceled.status_code == 200
    assert hooked[1:] == [("canceled", "canceled", "canceled", 2, 10)]


async def test_a_failing_job_is_refunded_exactly_once(client: Client) -> None:
    account_id, key = await new_account("starter", 10)
    response = await client.post(
        "/test/jobs", json={"kind": "test.fail", "records": [1, 2]}, headers=key_headers(key)
    )
    job = await poll(client, key, (await response.get_json())["job_id"], {"succeeded", "failed"})
    assert job["status"] == "failed"
    assert job["error"] == {"error": "job_failed", "message": "The job could not be completed."}
    assert (job["credits_charged"], job["credits_refunded"]) == (4, 4)
    assert (await Account.get(id=account_id)).credits == 10
    # A duplicate delivery of the job changes nothing and refunds nothing.
    await jobs.run_job(job["job_id"])
    row = await Job.get(id=job["job_id"])
    assert (row.status, row.attempts, row.credits_refunded) == ("failed", 1, 4)
    # Nor does a second refund of the same debit: the ledger refuses it.
    assert row.ledger_entry_id is not None
    with pytest.raises(IntegrityError):
        await _refund_again(account_id, row.ledger_entry_id)
    refunds = await LedgerEntry.filter(account_id=account_id, kind="refund")
    assert [(r.amount, r.job_id) for r in refunds] == [(4, job["job_id"])]
    assert (await Account.get(id=account_id)).credits == 10


async def _refund_again(account_id: str, ledger_entry_id: int) -> None:
    async with in_transaction() as conn:
        await billing.refund(conn, account_id, ledger_entry_id, 4, "again")


async def test_progress_is_visible_while_the_job_runs(client: Client) -> None:
    _, key = await new_account("starter", 10)
    response = await client.post(
        "/test/jobs", json={"kind": "test.gated", "records": [1]}, headers=key_headers(key)
    )
    job_id = (await response.get_json())["job_id"]
    for _ in range(200):
        job = await (
            await client.get(f"/api/v3/jobs/{job_id}", headers=key_headers(key))
        ).get_json()
        if job["progress"] == 0.5:
            break
        await asyncio.sleep(0.02)
    assert (job["status"], job["progress"]) == ("running", 0.5)
    gate.set()
    assert (await poll(client, key, job_id, {"succeeded"}))["result"] == "done"


async def test_cancel_refunds_a_queued_job_and_refuses_a_second_cancel(
    client: Client, held_kicks: list[str]
) -> None:
    account_id, key = await new_account("starter", 10)
    response = await client.post("/test/jobs", json={"records": [1, 2]}, headers=key_headers(key))
    job_id = (await response.get_json())["job_id"]
    assert held_kicks == [job_id]
    canceled = await client.post(f"/api/v3/jobs/{job_id}/cancel", headers=key_headers(key))
    body = await canceled.get_json()
    assert canceled.status_code == 200
    assert (body["status"], body["credits_refunded"]) == ("canceled", 4)
    assert (await Account.get(id=account_id)).credits == 10
    again = await client.post(f"/api/v3/jobs/{job_id}/cancel", headers=key_headers(key))
    assert again.status_code == 409
    assert (await again.get_json())[
        "message"
    ] == "Only queued jobs can be canceled; this job is canceled."
    assert (await Account.get(id=account_id)).credits == 10


async def test_jobs_of_another_account_are_404_on_every_route(
    client: Client, held_kicks: list[str]
) -> None:
    _, owner_key = await new_account("starter", 10)
    _, other_key = await new_account("starter", 10)
    response = await client.post(
        "/test/jobs", json={"records": [1]}, headers=key_headers(owner_key)
    )
    job_id = (await response.get_json())["job_id"]
    for method, path in (
        ("GET", f"/api/v3/jobs/{job_id}"),
        ("POST", f"/api/v3/jobs/{job_id}/cancel"),
    ):
        answer = await client.open(path, method=method, headers=key_headers(other_key))
        body = await answer.get_json()
        assert answer.status_code == 404
        assert body["error"] == "not_found"
    listing = await client.get("/api/v3/jobs", headers=key_headers(other_key))
    assert (await listing.get_json())["jobs"] == []
    assert (await Job.get(id=job_id)).status == "queued"


async def test_job_list_is_newest_first_with_cursor_paging(
    client: Client, held_kicks: list[str]
) -> None:
    _, key = await new_account("starter", 100)
    for _ in range(5):
        await client.post("/test/jobs", json={"records": [1]}, headers=key_headers(key))
    newest_first = list(reversed(held_kicks))
    seen: list[str] = []
    cursor = None
    for _ in range(3):
        query = {"limit": "2", **({"cursor": cursor} if cursor else {})}
        page = await (
            await client.get("/api/v3/jobs", query_string=query, headers=key_headers(key))
        ).get_json()
        seen += [j["job_id"] for j in page["jobs"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == newest_first
    assert cursor is None


async def test_job_list_limit_is_validated(client: Client) -> None:
    _, key = await new_account("starter", 1)
    response = await client.get(
        "/api/v3/jobs", query_string={"limit": "0"}, headers=key_headers(key)
    )
    body = await response.get_json()
    assert response.status_code == 400
    assert body["details"][0]["field"] == "limit"


async def _running_job_with_dead_lease(account_id: str, attempts: int) -> Job:
    ledger = await LedgerEntry.create(account_id=account_id, kind="debit", amount=-2, operation="t")
    await Account.filter(id=account_id).update(credits=8)
    return await Job.create(
        id=jobs.new_id("job_"),
        account_id=account_id,
        kind="test.echo",
        status="running",
        params={"records": [1]},
        credits_charged=2,
        ledger_entry_id=ledger.id,
        attempts=attempts,
        lease_expires_at=datetime.now(UTC) - timedelta(seconds=1),
        created_at=datetime.now(UTC),
    )


async def test_sweeper_requeues_a_job_whose_lease_expired(app: Quart) -> None:
    account_id, _ = await new_account("starter", 10)
    job = await _running_job_with_dead_lease(account_id, attempts=1)
    kicked: list[str] = []

    async def kick(job_id: str) -> None:
        kicked.append(job_id)

    counts = await jobs.sweep_jobs(kick)
    assert counts["requeued"] == 1
    assert kicked == [job.id]
    assert (await Job.get(id=job.id)).status == "queued"
    await jobs.run_job(job.id)
    finished = await Job.get(id=job.id)
    assert (finished.status, finished.attempts, finished.result) == ("succeeded", 2, {"sum": 1})


async def test_sweeper_fails_and_refunds_a_job_out_of_attempts(app: Quart) -> None:
    account_id, _ = await new_account("starter", 10)
    job = await _running_job_with_dead_lease(account_id, attempts=3)

    async def kick(job_id: str) -> None:
        raise AssertionError("must not be re-queued")

    assert (await jobs.sweep_jobs(kick))["failed"] == 1
    failed = await Job.get(id=job.id)
    assert (failed.status, failed.credits_refunded) == ("failed", 2)
    assert (await Account.get(id=account_id)).credits == 10
    await jobs.sweep_jobs(kick)
    assert (await Account.get(id=account_id)).credits == 10


async def test_a_job_with_a_live_lease_is_not_taken_by_a_second_worker(app: Quart) -> None:
    account_id, _ = await new_account("starter", 10)
    job = await _running_job_with_dead_lease(account_id, attempts=1)
    await Job.filter(id=job.id).update(lease_expires_at=datetime.now(UTC) + timedelta(minutes=1))
    await jobs.run_job(job.id)
    unchanged = await Job.get(id=job.id)
    assert (unchanged.status, unchanged.attempts) == ("running", 1)


async def test_a_nul_in_a_job_id_or_cursor_is_a_400_not_a_database_error(client: Client) -> None:
    # PostgreSQL cannot compare text holding NUL: these were 500s on the production stack.
    _account_id, key = await new_account("starter", 10)
    for path, field in (
        ("/api/v3/jobs?cursor=job_%00", "cursor"),
        ("/api/v3/jobs/job_%00", "path"),
    ):
        response = await client.get(path, headers=key_headers(key))
        body = await response.get_json()
        assert response.status_code == 400, body
        assert [d["field"] for d in body["details"]] == [field]


async def _queued_job(account_id: str, waited: timedelta) -> Job:
    at = datetime.now(UTC) - waited
    job = await Job.create(
        id=jobs.new_id("job_"),
        account_id=account_id,
        kind="test.echo",
        status="queued",
        params={"records": [1]},
        created_at=at,
    )
    await Job.filter(id=job.id).update(updated_at=at)
    return job


async def test_sweeper_resends_a_lost_queued_job_within_one_lease(app: Quart) -> None:
    """Issue 29: a queued job whose broker message is gone is re-sent once it waited one lease
    (30 s here), not two; one that waited less is left to the queue."""
    account_id, _ = await new_account("starter", 10)
    lease = runtime.settings().job_lease_s
    lost = await _queued_job(account_id, timedelta(seconds=lease * 1.1))
    fresh = await _queued_job(account_id, timedelta(seconds=lease * 0.5))
    kicked: list[str] = []

    async def kick(job_id: str) -> None:
        kicked.append(job_id)

    counts = await jobs.sweep_jobs(kick)
    assert counts["resent"] == 1
    assert kicked == [lost.id]
    assert fresh.id not in kicked
    # Re-sent now: the next sweep does not send it again before another lease.
    assert (await jobs.sweep_jobs(kick))["resent"] == 0


async def test_sweeper_continues_past_a_failed_send(app: Quart) -> None:
    """Issue 29: one send that fails (the broker down for a moment) does not stop the sweep; the
    job whose send failed is sent again by the next sweep."""
    account_id, _ = await new_account("starter", 30)
    lease = runtime.settings().job_lease_s
    first = await _running_job_with_dead_lease(account_id, attempts=1)
    second = await _running_job_with_dead_lease(account_id, attempts=1)
    lost = await _queued_job(account_id, timedelta(seconds=lease * 2))
    kicked: list[str] = []
    failing = {first.id}

    async def kick(job_id: str) -> None:
        if job_id in failing:
            raise ConnectionError("broker down")
        kicked.append(job_id)

    counts = await jobs.sweep_jobs(kick)
    assert counts["send_failed"] == 1
    assert sorted(kicked) == sorted([second.id, lost.id])
    assert (await Job.get(id=first.id)).status == "queued"
    failing.clear()
    kicked.clear()
    counts = await jobs.sweep_jobs(kick)
    assert kicked == [first.id]
    assert counts["send_failed"] == 0


# Issue 52: no work without its charge.


async def test_a_request_failing_after_queuing_refunds_at_once_and_cancels_its_job(
    client: Client, held_kicks: list[str]
) -> None:
    """A 503 after the debit and the enqueue: the response itself is refunded (not the sweep's
    10 minutes later), the job it queued is canceled (it never runs for free), and a retry with
    the same Idempotency-Key is served at once instead of 409 in progress."""
    account_id, key = await new_account("starter", 10)
    headers = key_headers(key, **{"Idempotency-Key": "retry-after-a-503"})
    response = await client.post(
        "/test/jobs-then-outage", json={"records": [1, 2]}, headers=headers
    )
    assert response.status_code == 503
    assert response.headers["X-Credits-Charged"] == "0"
    assert (await Account.get(id=account_id)).credits == 10
    [job_id] = held_kicks
    job = await Job.get(id=job_id)
    assert (job.status, job.credits_charged, job.credits_refunded) == ("canceled", 4, 4)
    assert job.error is not None
    assert job.error["error"] == "canceled"
    # One refund in the ledger (the request's), not two.
    assert await LedgerEntry.filter(account_id=account_id, kind="refund").count() == 1
    retry = await client.post("/test/jobs", json={"records": [1, 2]}, headers=headers)
    assert retry.status_code == 202, await retry.get_json()
    assert (await Account.get(id=account_id)).credits == 6


async def test_a_request_cancelled_while_its_job_is_handed_over_cancels_the_job(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The client goes away (the request task is cancelled) while the job's message is being
    sent: the job row it created is canceled, so the sweep never runs it."""
    account_id, _key = await new_account("starter", 10)
    sending = asyncio.Event()

    async def hangs(job_id: str) -> None:
        sending.set()
        await asyncio.Event().wait()

    monkeypatch.setattr("astro_server.platform.broker.kick_job", hangs)
    task = asyncio.create_task(
        enqueue_job(TEST_KINDS["test.echo"], Records([1]), account_id=account_id, livemode=True)
    )
    await asyncio.wait_for(sending.wait(), 5)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    [job] = await Job.filter(account_id=account_id)
    assert job.status == "canceled"
