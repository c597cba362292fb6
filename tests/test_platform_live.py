"""The platform end to end: live API processes, workers and scheduler on PostgreSQL and Redis.

Billable calls go to the real routes ``POST /api/v3/western/natal`` (free tier, 1 credit) and
``POST /api/v3/vedic/kundli-matching/batch`` (a job, starter tier, 2 credits per record).
"""

from __future__ import annotations

import asyncio
import re
import signal
import time
from collections.abc import Callable
from typing import Any

import asyncpg
import httpx
import pytest

from tests._support.accounts import create_account
from tests._support.drill import volume
from tests._support.stack import ServerProcess, Stack

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

NATAL = {
    "subject": {
        "date": "1990-05-17",
        "time": "08:30",
        "latitude": 51.5,
        "longitude": -0.12,
        "timezoneOffsetMinutes": 60,
    }
}
SUBJECT = {
    "date": "1990-05-17",
    "time": "08:30",
    "latitude": 28.6,
    "longitude": 77.2,
    "timezoneOffsetMinutes": 330,
}


def batch(n: int) -> dict[str, Any]:
    return {
        "records": [
            {
                "id": f"r{i}",
                "boy": SUBJECT,
                "girl": {**SUBJECT, "date": f"1992-03-{i % 28 + 1:02d}"},
            }
            for i in range(n)
        ]
    }


def account(stack: Stack, tier: str, credits: int) -> tuple[str, str]:
    out = create_account(stack, tier=tier, credits=credits, name="live")
    return out["account_id"], out["api_key"]


async def db_rows(stack: Stack, sql: str, *args: Any) -> list[asyncpg.Record]:
    url = stack.env["ASTRO_DATABASE_URL"].replace("postgres://", "postgresql://", 1)
    conn = await asyncpg.connect(url)
    try:
        return list(await conn.fetch(sql, *args))
    finally:
        await conn.close()


async def balance_and_ledger(stack: Stack, account_id: str) -> tuple[int, int, int]:
    """(balance, sum of ledger amounts, number of debits)."""
    rows = await db_rows(
        stack,
        "SELECT (SELECT credits FROM accounts WHERE id = $1) AS balance,"
        " (SELECT COALESCE(SUM(amount), 0) FROM ledger_entries WHERE account_id = $1) AS total,"
        " (SELECT COUNT(*) FROM ledger_entries WHERE account_id = $1 AND kind = 'debit') AS debits",
        account_id,
    )
    return int(rows[0]["balance"]), int(rows[0]["total"]), int(rows[0]["debits"])


# These two need only a running API (each works in an account of its own): the session's
# shared stack. The tests below start, count or kill processes of their own.
async def test_fifty_concurrent_billable_calls_on_ten_credits(
    shared_server: ServerProcess, shared_stack: Stack
) -> None:
    account_id, key = account(shared_stack, "free", 10)
    async with httpx.AsyncClient(base_url=shared_server.base_url, timeout=60) as client:
        responses = await asyncio.gather(
            *(
                client.post("/api/v3/western/natal", json=NATAL, headers={"X-API-Key": key})
                for _ in range(50)
            )
        )
    statuses = sorted(r.status_code for r in responses)
    assert statuses == [200] * 10 + [402] * 40, statuses
    for r in responses:
        if r.status_code == 402:
            assert r.json()["error"] == "payment_required"
            assert r.json()["code"] == "402"
        else:
            assert r.headers["X-Credits-Charged"] == "1"
    balance, ledger_total, debits = await balance_and_ledger(shared_stack, account_id)
    assert (balance, ledger_total, debits) == (0, 0, 10)  # top-up +10, ten debits of -1


async def test_twenty_concurrent_requests_with_one_idempotency_key(
    shared_server: ServerProcess, shared_stack: Stack
) -> None:
    account_id, key = account(shared_stack, "free", 10)
    headers = {"X-API-Key": key, "Idempotency-Key": "natal-once"}
    async with httpx.AsyncClient(base_url=shared_server.base_url, timeout=60) as client:
        responses = await asyncio.gather(
            *(client.post("/api/v3/western/natal", json=NATAL, headers=headers) for _ in range(20))
        )
        ok = [r for r in responses if r.status_code == 200]
        busy = [r for r in responses if r.status_code == 409]
        assert len(ok) + len(busy) == 20
        for r in busy:
            assert r.json()["error"] == "idempotency_in_progress"
            assert r.headers["Retry-After"] == "1"
        # Once the first has finished every retry is a replay of the identical body.
        replay = await client.post("/api/v3/western/natal", json=NATAL, headers=headers)
        assert replay.status_code == 200
        assert replay.headers["Idempotent-Replayed"] == "true"
        assert {r.content for r in ok} | {replay.content} == {replay.content}
        other = await client.post(
            "/api/v3/western/natal",
            json={"subject": {**NATAL["subject"], "time": "09:30"}},
            headers=headers,
        )
        assert other.status_code == 409
        assert other.json()["error"] == "idempotency_conflict"
    balance, ledger_total, debits = await balance_and_ledger(shared_stack, account_id)
    assert (balance, ledger_total, debits) == (9, 9, 1)


@pytest.mark.usefixtures("fresh_rate_window")
async def test_two_api_processes_share_one_rate_limit(production_stack: Stack) -> None:
    limits = {"ASTRO_RATE_LIMIT_FREE": "10"}
    first = production_stack.server(limits)
    second = production_stack.server(limits)
    _, key = account(production_stack, "free", 0)
    statuses = []
    async with httpx.AsyncClient(timeout=30) as client:
        for i in range(12):
            server = first if i % 2 == 0 else second
            r = await client.get(server.base_url + "/api/v3/jobs", headers={"X-API-Key": key})
            statuses.append(r.status_code)
    assert statuses == [200] * 10 + [429] * 2
    assert r.json()["error"] == "rate_limited"
    assert 1 <= int(r.headers["Retry-After"]) <= 60
    assert r.headers["RateLimit-Limit"] == "10"
    assert r.headers["RateLimit-Remaining"] == "0"


async def _wait_for(predicate: Callable[[], Any], timeout_s: float, what: str) -> Any:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = await predicate()
        if value:
            return value
        await asyncio.sleep(0.005)
    raise AssertionError(f"timed out waiting for {what}")


async def test_a_job_whose_worker_is_killed_finishes_once_on_another_worker(
    production_stack: Stack,
) -> None:
    fast = {
        "ASTRO_JOB_LEASE_S": "2",
        "ASTRO_SWEEP_INTERVAL_S": "0.5",
        "ASTRO_WORKER_CONCURRENCY": "1",
    }
    server = production_stack.server(fast)
    account_id, key = account(production_stack, "starter", 10_000)
    victim = production_stack.worker(fast)
    # Three jobs: one to be caught mid-job, the others queued behind it on the same worker
    # (taken over by the next one). benchmarks/drills/worker_faults.py runs twelve.
    jobs = volume(3, 12)
    async with httpx.AsyncClient(base_url=server.base_url, timeout=60) as client:
        handles = []
        for _ in range(jobs):
            r = await client.post(
                "/api/v3/vedic/kundli-matching/batch", json=batch(50), headers={"X-API-Key": key}
            )
            assert r.status_code == 202, r.text
            handles.append(r.json()["job_id"])

        # Freeze the worker inside a job (SIGSTOP), make sure it really is mid-job, then kill it.
        interrupted = None
        for _ in range(20):
            running = await _wait_for(
                lambda: db_rows(
                    production_stack, "SELECT id, attempts FROM jobs WHERE status = 'running'"
                ),
                120,  # the first time, the worker process is still starting (slow under load)
                "a running job",
            )
            victim.proc.send_signal(signal.SIGSTOP)
            still = await db_rows(
                production_stack,
                "SELECT id, attempts FROM jobs WHERE status = 'running' AND id = $1",
                running[0]["id"],
            )
            if still:
                interrupted = still[0]["id"]
                break
            victim.proc.send_signal(signal.SIGCONT)
        assert interrupted is not None, "never caught the worker inside a job"
        victim.proc.send_signal(signal.SIGKILL)
        victim.proc.wait(10)

        production_stack.worker(fast)
        production_stack.scheduler(fast)

        async def all_finished() -> bool:
            rows = await db_rows(
                production_stack,
                "SELECT COUNT(*) AS n FROM jobs WHERE status IN ('queued', 'running')",
            )
            return int(rows[0]["n"]) == 0

        await _wait_for(all_finished, 120, "every job to finish")
        job = (await client.get(f"/api/v3/jobs/{interrupted}", headers={"X-API-Key": key})).json()
    assert job["status"] == "succeeded"
    assert job["attempts"] == 2
    assert job["result"]["succeeded"] == 50
    assert (job["credits_charged"], job["credits_refunded"]) == (100, 0)
    rows = await db_rows(
        production_stack,
        "SELECT status, COUNT(*) AS n FROM jobs GROUP BY status",
    )
    assert {r["status"]: int(r["n"]) for r in rows} == {"succeeded": jobs}
    balance, ledger_total, debits = await balance_and_ledger(production_stack, account_id)
    assert debits == jobs  # charged once per job, the retried one included
    assert balance == ledger_total == 10_000 - jobs * 100
    refunds = await db_rows(production_stack, "SELECT id FROM ledger_entries WHERE kind = 'refund'")
    assert refunds == []


def test_worker_exits_cleanly_within_ten_seconds_of_sigterm(production_stack: Stack) -> None:
    worker = production_stack.worker()
    deadline = time.monotonic() + 30
    while "worker listening" not in worker.log():
        assert worker.proc.poll() is None, worker.log()
        assert time.monotonic() < deadline, worker.log()
        time.sleep(0.1)
    time.sleep(1.5)  # let the stream reader block inside XREADGROUP
    started = time.monotonic()
    worker.proc.send_signal(signal.SIGTERM)
    code = worker.proc.wait(10)
    elapsed = time.monotonic() - started
    assert code == 0, worker.log()
    assert elapsed < 10
    assert "worker stopped" in worker.log()


def test_scheduler_exits_cleanly_on_sigterm(production_stack: Stack) -> None:
    scheduler = production_stack.scheduler()
    deadline = time.monotonic() + 30
    while "scheduler started" not in scheduler.log():
        assert scheduler.proc.poll() is None, scheduler.log()
        assert time.monotonic() < deadline, scheduler.log()
        time.sleep(0.1)
    scheduler.proc.send_signal(signal.SIGTERM)
    assert scheduler.proc.wait(10) == 0, scheduler.log()


async def test_metrics_count_requests_and_jobs(
    live_server: ServerProcess, production_stack: Stack
) -> None:
    _, key = account(production_stack, "free", 5)
    async with httpx.AsyncClient(base_url=live_server.base_url, timeout=30) as client:
        await client.post("/api/v3/western/natal", json=NATAL, headers={"X-API-Key": key})
        text = (await client.get("/metrics")).text
    assert re.search(
        r'astro_http_requests_total\{method="POST",route="/api/v3/western/natal",status="200"\} 1',
        text,
    )
    assert 'astro_credits_charged_total{operation="western.natal"} 1.0' in text
    assert 'astro_jobs{status="queued"}' in text
    assert "astro_http_request_duration_seconds_bucket" in text
    # Secrets never reach the log.
    assert key not in live_server.log()


async def test_sigterm_during_a_busy_queue_loses_no_job(production_stack: Stack) -> None:
    # Jobs the stopped worker had only prefetched stay pending under its consumer name until the
    # stream's idle timeout or the scheduler's sweeper (one lease) sends them again; a short
    # lease keeps that wait inside the test's budget, as a deployment's one scheduler would.
    production_stack.env["ASTRO_JOB_LEASE_S"] = "5"
    server = production_stack.server()
    production_stack.scheduler()
    account_id, key = account(production_stack, "starter", 10_000)
    worker = production_stack.worker({"ASTRO_WORKER_CONCURRENCY": "1"})
    # Four jobs: one running when the SIGTERM comes, the others queued or prefetched behind it.
    # benchmarks/drills/worker_faults.py runs ten.
    jobs = volume(4, 10)
    async with httpx.AsyncClient(base_url=server.base_url, timeout=60) as client:
        for _ in range(jobs):
            r = await client.post(
                "/api/v3/vedic/kundli-matching/batch", json=batch(50), headers={"X-API-Key": key}
            )
            assert r.status_code == 202, r.text
    await _wait_for(
        lambda: db_rows(production_stack, "SELECT id FROM jobs WHERE status = 'running'"),
        120,  # the worker process is still starting: at a load average near 18 that took > 30 s
        "a running job",
    )
    started = time.monotonic()
    worker.proc.send_signal(signal.SIGTERM)
    assert worker.proc.wait(10) == 0, worker.log()
    assert time.monotonic() - started < 10
    production_stack.worker()

    async def all_succeeded() -> bool:
        rows = await db_rows(
            production_stack, "SELECT COUNT(*) AS n FROM jobs WHERE status = 'succeeded'"
        )
        return int(rows[0]["n"]) == jobs

    await _wait_for(all_succeeded, 120, "every job to succeed")
    balance, ledger_total, debits = await balance_and_ledger(production_stack, account_id)
    spent = jobs * 100
    assert (debits, balance, ledger_total) == (jobs, 10_000 - spent, 10_000 - spent)


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as fh:
            return [int(child) for child in fh.read().split()]
    except OSError:
        return []


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_serve_workers_die_with_a_killed_supervisor(production_stack: Stack) -> None:
    """``serve --workers 2`` runs supervised worker processes; when the supervisor is SIGKILLed
    (or OOM-killed) they stop too instead of serving on as orphans."""
    from tests._support.stack import free_port

    port = free_port()
    server = production_stack._spawn(
        "server", ["serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "2"], None
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.1)
    workers = [pid for pid in _children(server.proc.pid) if "spawn_main" in _cmdline(pid)]
    assert len(workers) == 2, server.log()
    server.proc.send_signal(signal.SIGKILL)
    server.proc.wait(10)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and any(_alive(pid) for pid in workers):
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in workers)
    with pytest.raises(httpx.HTTPError):
        httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""
