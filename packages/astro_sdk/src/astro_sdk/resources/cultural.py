"""``client.cultural``: supported markets, market calendars and best dates across markets.
The calendar and best dates are billable (an ``Idempotency-Key`` per call, reused on retries);
the market list is free."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from astro_sdk._base import validate_request
from astro_sdk._operation import Credential, Operation
from astro_sdk._resource import AsyncResource, SyncResource
from astro_sdk.models.cultural import (
    BestDates,
    BestDatesRequest,
    CulturalActivity,
    CulturalCalendarRequest,
    CulturalLanguage,
    Market,
    MarketCalendar,
    MarketList,
)

__all__ = ["AsyncCultural", "Cultural"]

Day = dt.date | str

MARKETS: Operation[MarketList] = Operation(
    operation_id="culturalMarkets",
    method="GET",
    path="/api/v3/cultural/markets",
    credential=Credential.API_KEY,
    response_model=MarketList,
)
CALENDAR: Operation[MarketCalendar] = Operation(
    operation_id="culturalCalendar",
    method="POST",
    path="/api/v3/cultural/calendar",
    credential=Credential.API_KEY,
    response_model=MarketCalendar,
    request_model=CulturalCalendarRequest,
    billable=True,
)
BEST_DATES: Operation[BestDates] = Operation(
    operation_id="culturalBestDates",
    method="POST",
    path="/api/v3/cultural/best-dates",
    credential=Credential.API_KEY,
    response_model=BestDates,
    request_model=BestDatesRequest,
    billable=True,
)
OPERATIONS = (MARKETS, CALENDAR, BEST_DATES)


def _calendar_fields(
    market: Market, start: Day, end: Day, language: CulturalLanguage | None
) -> dict[str, Any]:
    return {"market": market, "start": start, "end": end, "language": language}


def _best_fields(
    markets: Sequence[Market],
    start: Day,
    end: Day,
    activity: CulturalActivity,
    count: int | None,
    language: CulturalLanguage | None,
) -> dict[str, Any]:
    return {
        "markets": list(markets),
        "start": start,
        "end": end,
        "activity": activity,
        "count": count,
        "language": language,
    }


class Cultural(SyncResource):
    """``client.cultural``: supported markets, market calendars and best dates across
    markets."""

    operations = OPERATIONS

    def markets(self) -> MarketList:
        """``GET /api/v3/cultural/markets``: the supported markets and what each offers."""
        return self._client.request(MARKETS)

    def calendar(
        self,
        *,
        market: Market,
        start: Day,
        end: Day,
        language: CulturalLanguage | None = None,
        idempotency_key: str | None = None,
    ) -> MarketCalendar:
        """``POST /api/v3/cultural/calendar``: one entry per day (at most 366) with holidays,
        festivals, local calendar dates, the business rating and its facts."""
        body = validate_request(
            CulturalCalendarRequest, _calendar_fields(market, start, end, language)
        )
        return self._client.request(CALENDAR, body=body, idempotency_key=idempotency_key)

    def best_dates(
        self,
        *,
        markets: Sequence[Market],
        start: Day,
        end: Day,
        activity: CulturalActivity,
        count: int | None = None,
        language: CulturalLanguage | None = None,
        idempotency_key: str | None = None,
    ) -> BestDates:
        """``POST /api/v3/cultural/best-dates``: the best dates for ``activity`` across
        ``markets``, each with reasons and warnings per market."""
        body = validate_request(
            BestDatesRequest, _best_fields(markets, start, end, activity, count, language)
        )
        return self._client.request(BEST_DATES, body=body, idempotency_key=idempotency_key)


class AsyncCultural(AsyncResource):
    """``client.cultural``: supported markets, market calendars and best dates across
    markets."""

    operations = OPERATIONS

    async def markets(self) -> MarketList:
        """``GET /api/v3/cultural/markets``: the supported markets and what each offers."""
        return await self._client.request(MARKETS)

    async def calendar(
        self,
        *,
        market: Market,
        start: Day,
        end: Day,
        language: CulturalLanguage | None = None,
        idempotency_key: str | None = None,
    ) -> MarketCalendar:
        """``POST /api/v3/cultural/calendar``: one entry per day (at most 366)."""
        body = validate_request(
            CulturalCalendarRequest, _calendar_fields(market, start, end, language)
        )
        return await self._client.request(CALENDAR, body=body, idempotency_key=idempotency_key)

    async def best_dates(
        self,
        *,
        markets: Sequence[Market],
        start: Day,
        end: Day,
        activity: CulturalActivity,
        count: int | None = None,
        language: CulturalLanguage | None = None,
        idempotency_key: str | None = None,
    ) -> BestDates:
        """``POST /api/v3/cultural/best-dates``: the best dates across markets."""
        body = validate_request(
            BestDatesRequest, _best_fields(markets, start, end, activity, count, language)
        )
        return await self._client.request(BEST_DATES, body=body, idempotency_key=idempotency_key)
