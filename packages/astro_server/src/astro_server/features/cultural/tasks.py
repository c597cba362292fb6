"""The scheduler's campaign tick: each campaign day's content to the account's webhook endpoints
at the campaign's local time (:mod:`astro_server.features.cultural.campaigns.delivery`), listed
in :mod:`astro_server.registry`."""

from __future__ import annotations

import logging

from astro_server.features.cultural.campaigns import delivery
from astro_server.platform.delivery.retry import utc_now
from astro_server.platform.delivery.tasks import TICK_INTERVAL_S
from astro_server.platform.periodic import PeriodicTask

log = logging.getLogger("astro_server.campaigns")


async def campaigns_tick() -> None:
    """Emit ``campaign.content_ready`` for every campaign day that fell due."""
    emitted = await delivery.tick(utc_now())
    if emitted:
        log.info("campaigns tick: %d campaign days delivered", emitted)


CAMPAIGNS_TICK = PeriodicTask("delivery.campaigns_tick", TICK_INTERVAL_S, campaigns_tick)
