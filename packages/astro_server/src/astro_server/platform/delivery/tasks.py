"""Delivery tasks: the scheduler's periodic tick and the workers' ``astro.deliver`` task.

One ``astro.deliver`` message carries a batch of delivery ids and the token they were dispatched
with (a message from before batching carries one id as a string; it is still understood).
Both are listed in :mod:`astro_server.registry` (``PERIODIC_TASKS``, ``BROKER_TASKS``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Final

from astro_server.platform import broker as broker_module
from astro_server.platform.delivery import engine as feed_pipeline
from astro_server.platform.delivery.retry import utc_now
from astro_server.platform.periodic import PeriodicTask

log = logging.getLogger("astro_server.delivery")

TICK_INTERVAL_S = 2.0


async def kick_delivery(delivery_ids: list[str], token: str) -> None:
    await broker_module.kick(feed_pipeline.DELIVER_TASK, delivery_ids, token)


#: Delivery batches one worker process runs at once, beside (never in) its job slots.
DELIVERY_BATCHES: Final = 32
_running: set[asyncio.Task[None]] = set()


async def deliver_task(delivery_ids: list[str] | str, token: str) -> None:
    """One attempt of each delivery the token still holds (the others are no-ops).

    The batch runs in the worker's own bounded delivery pool (:data:`DELIVERY_BATCHES` batches,
    each account at most ``engine.ATTEMPTS_PER_ACCOUNT`` attempts at once) and this task returns
    at once: a receiver that hangs for its whole timeout holds a delivery slot, never one of the
    worker's job slots, so another account's jobs start on time. Nothing is lost if the worker
    dies meanwhile: the rows are claimed under a lease and handed out again when it expires; a
    batch refused because the pool is full stays dispatched and is handed out again after the
    dispatch grace."""
    ids = [delivery_ids] if isinstance(delivery_ids, str) else list(delivery_ids)
    if len(_running) >= DELIVERY_BATCHES:
        log.warning("delivery pool full (%d batches); %d deliveries handed out again later",
                    len(_running), len(ids))  # fmt: skip
        return
    task = asyncio.get_running_loop().create_task(_deliver(ids, token))
    _running.add(task)
    task.add_done_callback(_running.discard)


async def _deliver(ids: list[str], token: str) -> None:
    try:
        statuses = await feed_pipeline.deliver_batch(ids, token, clock=utc_now)
    except Exception:
        log.exception("delivery batch failed; its rows are handed out again after their lease")
        return
    if statuses:
        log.info("deliveries: %s", feed_pipeline.batch_summary(statuses))


async def wait_for_deliveries(timeout_s: float) -> None:
    """Let the pool's batches finish (a stopping worker), at most ``timeout_s``; the rest are
    cancelled (their rows are handed out again when their lease expires)."""
    if _running:
        _done, pending = await asyncio.wait(set(_running), timeout=timeout_s)
        for task in pending:
            task.cancel()


async def horoscope_feeds_tick() -> None:
    """Schedule what fell due and hand due attempts (new ones and retries) to the workers."""
    scheduled, dispatched = await feed_pipeline.tick(utc_now(), kick=kick_delivery)
    if scheduled or dispatched:
        log.info(
            "feeds tick: %d subscriptions scheduled, %d attempts dispatched", scheduled, dispatched
        )


HOROSCOPE_FEEDS_TICK = PeriodicTask(
    "delivery.horoscope_feeds_tick", TICK_INTERVAL_S, horoscope_feeds_tick
)
