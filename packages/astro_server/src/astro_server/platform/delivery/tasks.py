"""Delivery tasks: the scheduler's periodic tick and the workers' ``astro.deliver`` task.

One ``astro.deliver`` message carries a batch of delivery ids and the token they were dispatched
with (a message from before batching carries one id as a string; it is still understood).
Both are listed in :mod:`astro_server.registry` (``PERIODIC_TASKS``, ``BROKER_TASKS``).
"""

from __future__ import annotations

import logging

from astro_server.platform import broker as broker_module
from astro_server.platform.delivery import engine as feed_pipeline
from astro_server.platform.delivery.retry import utc_now
from astro_server.platform.periodic import PeriodicTask

log = logging.getLogger("astro_server.delivery")

TICK_INTERVAL_S = 2.0


async def kick_delivery(delivery_ids: list[str], token: str) -> None:
    await broker_module.kick(feed_pipeline.DELIVER_TASK, delivery_ids, token)


async def deliver_task(delivery_ids: list[str] | str, token: str) -> None:
    """One attempt of each delivery the token still holds (the others are no-ops)."""
    ids = [delivery_ids] if isinstance(delivery_ids, str) else list(delivery_ids)
    statuses = await feed_pipeline.deliver_batch(ids, token, clock=utc_now)
    if statuses:
        log.info("deliveries: %s", feed_pipeline.batch_summary(statuses))


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
