"""Periodic publishing of the coming days' horoscopes (every sign, every language)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from astro_server.features.horoscopes.service import publish_coming_days
from astro_server.platform.periodic import PeriodicTask

log = logging.getLogger("astro_server.horoscopes")


async def publish_daily_horoscopes() -> None:
    published = await publish_coming_days(datetime.now(UTC).date())
    log.info("horoscopes published or present: %d", published)


PUBLISH_DAILY_HOROSCOPES = PeriodicTask(
    "horoscopes.publish_coming_days", 3600, publish_daily_horoscopes
)
