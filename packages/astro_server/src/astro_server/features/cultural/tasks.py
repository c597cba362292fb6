"""The scheduler's campaign tick: each campaign day's content to the account's webhook endpoints
at the campaign's local time (:mod:`astro_server.features.cultural.campaigns.delivery`). Imported
by the
campaigns blueprint, so every process that builds the app registers it."""

from __future__ import annotations

import logging

from astro_server.features.cultural.campaigns import delivery
from astro_server.platform.delivery.retry import utc_now
from astro_server.platform.delivery.tasks import TICK_INTERVAL_S
from astro_server.scheduler import periodic

log = logging.getLogger("astro_server.campaigns")


@periodic(every_s=TICK_INTERVAL_S, name="delivery.campaigns_tick")
async def campaigns_tick() -> None:
    """Emit ``campaign.content_ready`` for every campaign day that fell due."""
    emitted = await delivery.tick(utc_now())
    if emitted:
        log.info("campaigns tick: %d campaign days delivered", emitted)
