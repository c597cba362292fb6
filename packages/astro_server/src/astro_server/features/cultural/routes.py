"""Cultural Intelligence tag group: market calendars (public holidays, festivals, the day in the
market's own calendars and its quality for business in each culture) and the best dates for an
activity across markets. Handlers are thin: validate -> astro_calc.cultural -> respond.

Limits, checked by the request models before anything is charged (so the OpenAPI document shows
them): dates in the years 1901-2099 (the span the Thai and Chinese calendars share), a range of at
most 366 days counting both ends (``end`` 366 days after ``start`` is a 400 naming ``end``), 1 to
9 distinct markets, ``count`` 1-50. An unknown market or activity is a 400 naming the field
(``markets[1]`` for the second market).
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

import msgspec
from pydantic import BaseModel, Field, ValidationInfo, field_validator
from quart import Blueprint, Response
from quart_schema import document_response, operation_id, tag

from astro_calc.cultural.best_dates import MAX_COUNT, MAX_MARKETS, BestDates, best_dates
from astro_calc.cultural.calendar import (
    MAX_RANGE_DAYS,
    MAX_YEAR,
    MIN_YEAR,
    MarketCalendar,
    MarketInfo,
    market_calendar,
    markets,
)
from astro_server.features.common.calculation import calculations
from astro_server.platform.auth.guards import require_api_key
from astro_server.platform.msgspec_docs import response_model
from astro_server.platform.responses import json_response

blueprint = Blueprint("cultural", __name__)
TAG = ["Cultural Intelligence"]
DOCS_PREFIX = "Cultural"
route = calculations(blueprint, tags=TAG, docs_prefix=DOCS_PREFIX, errors=(400,))

Market = Literal["TH", "CN", "HK", "TW", "SG", "MY", "KR", "IN", "US"]
CulturalActivity = Literal[
    "product_launch", "store_opening", "contract_signing", "campaign_start", "wedding", "moving"
]
Language = Literal["en", "th"]


def _in_span(value: dt.date) -> dt.date:
    if not MIN_YEAR <= value.year <= MAX_YEAR:
        raise ValueError(f"must be in the years {MIN_YEAR}-{MAX_YEAR}")
    return value


def _end_of_range(value: dt.date, info: ValidationInfo) -> dt.date:
    _in_span(value)
    start = info.data.get("start")
    if start is not None:
        if value < start:
            raise ValueError("must not be before start")
        span = (value - start).days + 1
        if span > MAX_RANGE_DAYS:
            raise ValueError(f"the range is {span} days; at most {MAX_RANGE_DAYS}")
    return value


class CalendarRequest(BaseModel):
    market: Market = Field(description="The market (country or territory code)")
    start: dt.date = Field(description=f"First day ({MIN_YEAR}-{MAX_YEAR})")
    end: dt.date = Field(description=f"Last day, at most {MAX_RANGE_DAYS} days counting both ends")
    language: Language = Field(default="en", description="Language of names and facts")

    _start = field_validator("start")(_in_span)
    _end = field_validator("end")(_end_of_range)


class BestDatesRequest(BaseModel):
    markets: list[Market] = Field(
        min_length=1,
        max_length=MAX_MARKETS,
        json_schema_extra={"uniqueItems": True},
        description="The markets to satisfy (distinct)",
    )
    start: dt.date = Field(description=f"First day ({MIN_YEAR}-{MAX_YEAR})")
    end: dt.date = Field(description=f"Last day, at most {MAX_RANGE_DAYS} days counting both ends")
    activity: CulturalActivity = Field(description="What the date is chosen for")
    count: int = Field(default=10, ge=1, le=MAX_COUNT, description="How many dates to return")
    language: Language = Field(default="en", description="Language of reasons and warnings")

    @field_validator("markets")
    @classmethod
    def _distinct(cls, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise ValueError("a market is listed twice")
        return value

    _start = field_validator("start")(_in_span)
    _end = field_validator("end")(_end_of_range)


class MarketList(msgspec.Struct, frozen=True):
    markets: tuple[MarketInfo, ...]


@blueprint.get("/api/v3/cultural/markets")
@require_api_key
@document_response(response_model(MarketList, prefix=DOCS_PREFIX), 200)
@tag(TAG)
@operation_id("culturalMarkets")
async def cultural_markets() -> Response:
    """The supported markets: zone, public-holiday source, the traditions read for each and the
    facts its calendar offers. Free."""
    return json_response(MarketList(markets()))


@route(
    "POST /api/v3/cultural/calendar",
    "culturalCalendar",
    price="cultural.calendar",
    body=CalendarRequest,
    result=MarketCalendar,
)
def cultural_calendar(data: CalendarRequest) -> MarketCalendar:
    """One entry per day of a market (at most 366 days): public holidays, festivals, the date in
    the market's own calendars (Thai lunar; Chinese lunar with its ganzhi and Tong Shu almanac;
    Hindu tithi and month), the day's business rating with the facts behind it, Mercury
    retrograde and the void-of-course Moon. Every fact names its tradition and source."""
    return market_calendar(data.market, data.start, data.end, data.language)


@route(
    "POST /api/v3/cultural/best-dates",
    "culturalBestDates",
    price="cultural.best_dates",
    body=BestDatesRequest,
    result=BestDates,
)
def cultural_best_dates(data: BestDatesRequest) -> BestDates:
    """The best dates for an activity across markets, ranked by a documented score, each with
    the reasons for it and the warnings against it per market."""
    return best_dates(
        tuple(data.markets), data.start, data.end, data.activity, data.count, data.language
    )
