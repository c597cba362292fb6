"""Issue 52: webhook deliveries run in the worker's own bounded pool, with a cap per account, so
a receiver that hangs never holds a job slot nor every delivery slot."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from astro_server.platform.delivery import engine, tasks


async def test_a_hanging_delivery_batch_does_not_hold_the_task_that_carried_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``astro.deliver`` returns at once while its batch's receiver hangs: the worker's job slot
    (the taskiq task) is free for another account's job. Before, the task lasted as long as the
    attempt (15 s per hanging receiver)."""
    hanging = asyncio.Event()
    release = asyncio.Event()

    async def hangs(ids: list[str], token: str, **_: Any) -> dict[str, str | None]:
        hanging.set()
        await release.wait()
        return {}

    monkeypatch.setattr(engine, "deliver_batch", hangs)
    try:
        await asyncio.wait_for(tasks.deliver_task(["fd_a"], "token"), 0.5)
        await asyncio.wait_for(hanging.wait(), 1)
        assert len(tasks._running) == 1
    finally:
        release.set()
        await tasks.wait_for_deliveries(2.0)
    assert tasks._running == set()


async def test_the_pool_is_bounded_and_refuses_beyond_it(monkeypatch: pytest.MonkeyPatch) -> None:
    release = asyncio.Event()
    started: list[str] = []

    async def hangs(ids: list[str], token: str, **_: Any) -> dict[str, str | None]:
        started.extend(ids)
        await release.wait()
        return {}

    monkeypatch.setattr(engine, "deliver_batch", hangs)
    try:
        for i in range(tasks.DELIVERY_BATCHES + 3):
            await asyncio.wait_for(tasks.deliver_task([f"fd_{i}"], "token"), 0.5)
        await asyncio.sleep(0.05)
        assert len(started) == tasks.DELIVERY_BATCHES  # the rest are handed out again later
    finally:
        release.set()
        await tasks.wait_for_deliveries(2.0)


async def test_one_accounts_attempts_are_capped_and_another_account_is_not_held() -> None:
    """Account A fills its per-account slots with hanging attempts; account B's attempt gets a
    slot at once."""
    held = [engine._slots_of_account("acct_a") for _ in range(engine.ATTEMPTS_PER_ACCOUNT)]
    for slots in held:
        await slots.acquire()
    try:
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(engine._slots_of_account("acct_a").acquire(), 0.1)
        await asyncio.wait_for(engine._slots_of_account("acct_b").acquire(), 0.1)
        engine._slots_of_account("acct_b").release()
    finally:
        for slots in held:
            slots.release()
