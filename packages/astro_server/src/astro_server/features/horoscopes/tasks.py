"""Periodic publishing of the coming days' horoscopes (every sign, every language)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from astro_server.features.horoscopes.service import publish_coming_days
from astro_server.scheduler import periodic

log = logging.getLogger("astro_server.horoscopes")


@periodic(every_s=3600, name="horoscopes.publish_coming_days")
async def publish_daily_horoscopes() -> None:
    published = await publish_coming_days(datetime.now(UTC).date())
    log.info("horoscopes published or present: %d", published)
