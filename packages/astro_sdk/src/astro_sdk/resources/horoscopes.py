"""``client.horoscopes``: published daily horoscopes, one date or a range of up to 31 days. Both
routes are billable GETs (an ``Idempotency-Key`` per call, reused on retries); what is published
for a (sign, date, language) never changes, so repeated calls return the same content."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from astro_sdk._base import validate_request
from astro_sdk._operation import Credential, Operation
from astro_sdk._resource import AsyncResource, SyncResource
from astro_sdk.models.horoscopes import (
    DailyHoroscopeQuery,
    HoroscopeRange,
    HoroscopeRangeQuery,
    PublishedHoroscope,
    Sign,
)

__all__ = ["AsyncHoroscopes", "Horoscopes"]

DAILY: Operation[PublishedHoroscope] = Operation(
    operation_id="getDailyHoroscope",
    method="GET",
    path="/api/v3/horoscopes/daily",
    credential=Credential.API_KEY,
    response_model=PublishedHoroscope,
    query_model=DailyHoroscopeQuery,
    billable=True,
)
RANGE: Operation[HoroscopeRange] = Operation(
    operation_id="getHoroscopeRange",
    method="GET",
    path="/api/v3/horoscopes/range",
    credential=Credential.API_KEY,
    response_model=HoroscopeRange,
    query_model=HoroscopeRangeQuery,
    billable=True,
)
OPERATIONS = (DAILY, RANGE)
Language = Literal["en", "th"]


def _daily_query(sign: Sign, date: dt.date | str, language: Language | None) -> DailyHoroscopeQuery:
    return validate_request(DailyHoroscopeQuery, {"sign": sign, "date": date, "language": language})


def _range_query(
    sign: Sign, start: dt.date | str, end: dt.date | str, language: Language | None
) -> HoroscopeRangeQuery:
    return validate_request(
        HoroscopeRangeQuery, {"sign": sign, "start": start, "end": end, "language": language}
    )


class Horoscopes(SyncResource):
    """``client.horoscopes``: published daily horoscopes, one date or a range of up to 31
    days."""

    operations = OPERATIONS

    def daily(
        self,
        *,
        sign: Sign,
        date: dt.date | str,
        language: Language | None = None,
        idempotency_key: str | None = None,
    ) -> PublishedHoroscope:
        """``GET /api/v3/horoscopes/daily``: the published horoscope of ``sign`` for a UTC date:
        overall, love, career, money and health (rated 1-5), lucky number and colour, and the sky
        facts it rests on."""
        query = _daily_query(sign, date, language)
        return self._client.request(DAILY, query=query, idempotency_key=idempotency_key)

    def range(
        self,
        *,
        sign: Sign,
        start: dt.date | str,
        end: dt.date | str,
        language: Language | None = None,
        idempotency_key: str | None = None,
    ) -> HoroscopeRange:
        """``GET /api/v3/horoscopes/range``: one published horoscope per date from ``start`` to
        ``end`` inclusive (1 to 31 days; a longer range raises ``RequestValidationError`` naming
        ``end`` before sending)."""
        query = _range_query(sign, start, end, language)
        return self._client.request(RANGE, query=query, idempotency_key=idempotency_key)


class AsyncHoroscopes(AsyncResource):
    """``client.horoscopes``: published daily horoscopes, one date or a range of up to 31
    days."""

    operations = OPERATIONS

    async def daily(
        self,
        *,
        sign: Sign,
        date: dt.date | str,
        language: Language | None = None,
        idempotency_key: str | None = None,
    ) -> PublishedHoroscope:
        """``GET /api/v3/horoscopes/daily``: the published horoscope of ``sign`` for a UTC date:
        overall, love, career, money and health (rated 1-5), lucky number and colour, and the sky
        facts it rests on."""
        query = _daily_query(sign, date, language)
        return await self._client.request(DAILY, query=query, idempotency_key=idempotency_key)

    async def range(
        self,
        *,
        sign: Sign,
        start: dt.date | str,
        end: dt.date | str,
        language: Language | None = None,
        idempotency_key: str | None = None,
    ) -> HoroscopeRange:
        """``GET /api/v3/horoscopes/range``: one published horoscope per date from ``start`` to
        ``end`` inclusive (1 to 31 days; a longer range raises ``RequestValidationError`` naming
        ``end`` before sending)."""
        query = _range_query(sign, start, end, language)
        return await self._client.request(RANGE, query=query, idempotency_key=idempotency_key)
