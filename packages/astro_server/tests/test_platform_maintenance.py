"""Periodic tasks: the scheduler registry, its Redis lock, and the platform's own sweeps."""

from __future__ import annotations

import asyncio
import itertools
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from _platform_support import new_account, settings_for
from quart import Quart

from astro_server.platform import maintenance
from astro_server.platform.billing import idempotency
from astro_server.platform.billing import ledger as billing
from astro_server.platform.models.accounts import Account
from astro_server.platform.models.billing import IdempotencyRecord, LedgerEntry
from astro_server.platform.periodic import PeriodicTask, Scheduler
from astro_server.registry import PERIODIC_TASKS
from astro_server.settings import Settings


@pytest.fixture
def app_settings(database_url: str, tmp_path: Path) -> Settings:
    return settings_for(database_url, tmp_path)


def test_platform_periodic_tasks_are_registered() -> None:
    names = {task.name for task in PERIODIC_TASKS}
    assert {
        "jobs.sweep",
        "billing.refund_abandoned_claims",
        "idempotency.purge_expired",
        "usage.roll_up",
    } <= names
    sweep = next(task for task in PERIODIC_TASKS if task.name == "jobs.sweep")
    assert sweep.interval_s(Settings(sweep_interval_s=2.5)) == 2.5
    assert maintenance.sweep_jobs is sweep.function


async def test_scheduler_runs_a_task_at_its_interval() -> None:
    calls: list[float] = []

    async def tick() -> None:
        calls.append(asyncio.get_running_loop().time())

    stop = asyncio.Event()
    scheduler = Scheduler(Settings(), [PeriodicTask("test.tick", 0.1, tick)])
    runner = asyncio.create_task(scheduler.run(stop))
    await asyncio.sleep(0.55)
    stop.set()
    await asyncio.wait_for(runner, 5)
    assert 4 <= len(calls) <= 7
    assert all(b - a >= 0.09 for a, b in itertools.pairwise(calls))


async def test_a_failing_periodic_task_does_not_stop_the_scheduler() -> None:
    async def broken() -> None:
        raise RuntimeError("x")

    scheduler = Scheduler(Settings(), [])
    await scheduler.run_once(PeriodicTask("test.broken", 1, broken))
    assert scheduler.runs.get("test.broken") is None


@pytest.mark.redis
async def test_two_schedulers_sharing_redis_run_a_task_once_per_period(
    redis_namespace: str,
) -> None:
    import redis.asyncio as aioredis

    calls: list[int] = []

    async def count() -> None:
        calls.append(1)

    task = PeriodicTask("test.once", 30, count)
    clients = [aioredis.from_url(redis_namespace) for _ in range(2)]
    try:
        schedulers = [Scheduler(Settings(), [task], client) for client in clients]
        await asyncio.gather(*(s.run_once(task) for s in schedulers))
        await schedulers[0].run_once(task)
    finally:
        for client in clients:
            await client.aclose()
    assert calls == [1]


async def test_abandoned_charges_are_refunded_once_and_their_keys_released(app: Quart) -> None:
    account_id, _ = await new_account("free", 10)
    await Account.filter(id=account_id).update(credits=7)
    debit = await LedgerEntry.create(account_id=account_id, kind="debit", amount=-3, operation="t")
    old = datetime.now(UTC) - timedelta(minutes=30)
    record = await IdempotencyRecord.create(
        credential_id="key_x",
        method="POST",
        path="/p",
        key="k",
        request_hash="h",
        status="in_progress",
        ledger_entry_id=debit.id,
        expires_at=old + timedelta(hours=24),
    )
    await IdempotencyRecord.filter(id=record.id).update(created_at=old)
    fresh = await IdempotencyRecord.create(
        credential_id="key_x",
        method="POST",
        path="/p",
        key="fresh",
        request_hash="h",
        status="in_progress",
        expires_at=datetime.now(UTC) + timedelta(hours=24),
    )
    assert await billing.refund_abandoned_claims(timedelta(minutes=10)) == 1
    assert await billing.refund_abandoned_claims(timedelta(minutes=10)) == 0
    assert (await Account.get(id=account_id)).credits == 10
    refunds = await LedgerEntry.filter(account_id=account_id, kind="refund")
    assert [(r.amount, r.refund_of) for r in refunds] == [(3, debit.id)]
    assert await IdempotencyRecord.filter(id=record.id).count() == 0
    assert await IdempotencyRecord.filter(id=fresh.id).count() == 1


async def test_expired_idempotency_records_are_purged(app: Quart) -> None:
    await IdempotencyRecord.create(
        credential_id="key_x",
        method="POST",
        path="/p",
        key="old",
        request_hash="h",
        status="completed",
        expires_at=datetime.now(UTC) - timedelta(seconds=1),
    )
    await IdempotencyRecord.create(
        credential_id="key_x",
        method="POST",
        path="/p",
        key="new",
        request_hash="h",
        status="completed",
        expires_at=datetime.now(UTC) + timedelta(hours=1),
    )
    assert await idempotency.purge_expired() == 1
    assert [r.key for r in await IdempotencyRecord.all()] == ["new"]


async def test_a_claim_whose_process_died_is_refunded_after_its_lease_not_ten_minutes(
    app: Quart,
) -> None:
    """Issue 52: a request lost with its API process leaves an in-progress claim nobody renews;
    past its lease (15 s here) it is refunded and its key released. A claim this process still
    holds is renewed by the heartbeat and kept, however old."""
    from astro_server.platform.billing import claims

    account_id, _ = await new_account("free", 10)
    await Account.filter(id=account_id).update(credits=4)
    twenty_s_ago = datetime.now(UTC) - timedelta(seconds=20)
    records = []
    for key, amount in (("lost", -3), ("running", -3)):
        debit = await LedgerEntry.create(
            account_id=account_id, kind="debit", amount=amount, operation="t"
        )
        record = await IdempotencyRecord.create(
            credential_id="key_x",
            method="POST",
            path="/p",
            key=key,
            request_hash="h",
            status="in_progress",
            ledger_entry_id=debit.id,
            expires_at=twenty_s_ago + timedelta(hours=24),
        )
        await IdempotencyRecord.filter(id=record.id).update(created_at=twenty_s_ago)
        records.append(record)
    lost, running = records
    claims.hold(running.id)
    stop = asyncio.Event()
    beat = asyncio.create_task(claims.renew_claim_leases(3.0, stop))
    try:
        # One beat (every third of a 3 s lease).
        claims_renewed = False
        for _ in range(100):
            row = await IdempotencyRecord.get(id=running.id)
            if row.lease_expires_at is not None:
                claims_renewed = True
                break
            await asyncio.sleep(0.1)
    finally:
        stop.set()
        await beat
        claims.let_go(running.id)
    assert claims_renewed
    assert await billing.refund_abandoned_claims(timedelta(seconds=15)) == 1
    assert (await Account.get(id=account_id)).credits == 7
    assert await IdempotencyRecord.filter(id=lost.id).count() == 0
    assert await IdempotencyRecord.filter(id=running.id).count() == 1
