"""Published horoscopes: generated once per (sign, date, language), stored, then served as is.

``get_or_publish`` is the one entry point (the API and the feed delivery both call it): it returns
the stored content if the horoscope was published, and otherwise writes it from
:func:`astro_calc.horoscope.daily_horoscope` and inserts it. Two workers publishing the same key
at once both compute, one insert wins on the unique (sign, date, language) constraint, and the
other reads the winner's row: every caller gets the same, first-published content, which never
changes afterwards (template changes only affect dates not yet published).
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import date, timedelta
from typing import Any, Final
from zoneinfo import ZoneInfo

import msgspec
from tortoise.exceptions import IntegrityError

from astro_calc.horoscope import LANGUAGES, SIGNS, daily_horoscope, localized_content
from astro_calc.time import zone as iana_zone
from astro_server.features.horoscopes.models import PublishedHoroscope

#: Days published ahead by the scheduler, counted from today (UTC): the local date of a
#: subscriber east of UTC can already be tomorrow.
PUBLISH_DAYS_AHEAD: Final = 2
MAX_RANGE_DAYS: Final = 31


async def get_or_publish(
    sign: str, day: date, language: str, timezone: str = "UTC"
) -> dict[str, Any]:
    """The published horoscope of ``sign`` for ``day`` in ``language`` (``en``/``th``) as JSON data
    (the fields of ``DailyHoroscope`` plus ``published_at`` and ``timezone``), publishing it
    first if needed.

    The times the texts state are printed in ``timezone`` (an IANA name; UTC by default) by
    :func:`astro_calc.horoscope.localized_content`: a view of the stored content, which keeps
    its UTC times (and the facts their UTC instants). Stable contract for callers (API, feed
    delivery, campaigns): same arguments, same content, forever. Unknown sign, language or zone
    raises ``CalcInputError`` (a 400 naming the field)."""
    reader_zone = iana_zone(timezone, "timezone")
    row = await PublishedHoroscope.get_or_none(sign=sign, date=day, language=language)
    if row is None:
        # Validates sign and language (CalcInputError) before touching the database.
        horoscope = await asyncio.to_thread(daily_horoscope, sign, day, language)
        content = msgspec.to_builtins(horoscope)
        # Another worker may publish first: its row is the one served.
        with contextlib.suppress(IntegrityError):
            await PublishedHoroscope.create(
                sign=sign,
                date=day,
                language=language,
                content=content,
                generator=horoscope.generator,
            )
        # Read back in every case, so the first caller sees exactly what later callers will.
        row = await PublishedHoroscope.get(sign=sign, date=day, language=language)
    return _view(row, reader_zone)


def _view(row: PublishedHoroscope, reader_zone: ZoneInfo) -> dict[str, Any]:
    content: dict[str, Any] = localized_content(dict(row.content), reader_zone)
    content["published_at"] = row.published_at.isoformat().replace("+00:00", "Z")
    content["timezone"] = reader_zone.key
    return content


async def published_range(
    sign: str, start: date, end: date, language: str, timezone: str = "UTC"
) -> list[dict[str, Any]]:
    """Horoscopes for every date from ``start`` to ``end`` inclusive (at most 31 days), their
    times in ``timezone``."""
    days = (end - start).days + 1
    return [
        await get_or_publish(sign, start + timedelta(days=i), language, timezone)
        for i in range(days)
    ]


async def publish_coming_days(today: date, days_ahead: int = PUBLISH_DAYS_AHEAD) -> int:
    """Publish every sign and language from ``today`` to ``today + days_ahead``; returns how
    many (sign, date, language) keys exist afterwards for that span."""
    count = 0
    for offset in range(days_ahead + 1):
        day = today + timedelta(days=offset)
        for language in LANGUAGES:
            for sign in SIGNS:
                await get_or_publish(sign, day, language)
                count += 1
    return count
