"""Horoscopes tag group: published daily horoscopes, one date or a range of up to 31 days.

What is served comes from ``services.horoscopes.get_or_publish``: the first publication of a
(sign, date, language) is stored and returned unchanged ever after. Dates are UTC calendar days.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from quart import Blueprint, Response
from quart_schema import document_response, operation_id, tag, validate_querystring

from astro_calc.horoscope import DailyHoroscope
from astro_server.features.common.routing import in_ephemeris_span
from astro_server.features.horoscopes import service as horoscopes
from astro_server.features.horoscopes import tasks as horoscope_tasks  # noqa: F401  (registers publishing)
from astro_server.platform.auth.guards import require_api_key
from astro_server.platform.billing.billable import billable
from astro_server.platform.errors import validation_error
from astro_server.platform.msgspec_docs import response_model
from astro_server.platform.responses import json_response
from astro_server.platform.schemas import ErrorBody

blueprint = Blueprint("horoscopes", __name__)
TAG = ["Horoscopes"]

Sign = Literal[
    "aries", "taurus", "gemini", "cancer", "leo", "virgo", "libra", "scorpio", "sagittarius",
    "capricorn", "aquarius", "pisces",
]  # fmt: skip


class DailyQuery(BaseModel):
    sign: Sign
    date: dt.date = Field(description="UTC calendar date (YYYY-MM-DD)")
    language: Literal["en", "th"] = "en"

    _in_span = field_validator("date")(in_ephemeris_span)


class RangeQuery(BaseModel):
    sign: Sign
    start: dt.date
    end: dt.date = Field(description="Inclusive; at most 31 days from start")
    language: Literal["en", "th"] = "en"

    _in_span = field_validator("start", "end")(in_ephemeris_span)


class PublishedHoroscope(response_model(DailyHoroscope)):  # type: ignore[misc]
    """A published daily horoscope: the same content for a (sign, date, language) forever."""

    model_config = ConfigDict(title="PublishedHoroscope")

    generator: str = Field(description="Version of the writer that published it")
    published_at: dt.datetime = Field(description="When it was first published (UTC)")


class HoroscopeRange(BaseModel):
    sign: Sign
    language: Literal["en", "th"]
    horoscopes: list[PublishedHoroscope] = Field(description="One per date, start to end")


@blueprint.get("/api/v3/horoscopes/daily")
@require_api_key
@billable("horoscopes.daily")
@validate_querystring(DailyQuery)
@document_response(PublishedHoroscope, 200)
@document_response(ErrorBody, 400)
@tag(TAG)
@operation_id("getDailyHoroscope")
async def daily(query_args: DailyQuery) -> Response:
    """The published horoscope: overall, love, career, money, health (rated 1-5), lucky number
    and colour, and the sky facts it rests on."""
    return json_response(
        await horoscopes.get_or_publish(query_args.sign, query_args.date, query_args.language)
    )


@blueprint.get("/api/v3/horoscopes/range")
@require_api_key
@billable("horoscopes.range")
@validate_querystring(RangeQuery)
@document_response(HoroscopeRange, 200)
@document_response(ErrorBody, 400)
@tag(TAG)
@operation_id("getHoroscopeRange")
async def date_range(query_args: RangeQuery) -> Response:
    """Published horoscopes for each date from start to end inclusive (1 to 31 days)."""
    days = (query_args.end - query_args.start).days + 1
    if days < 1:
        raise validation_error([{"field": "end", "message": "must not be before start"}])
    if days > horoscopes.MAX_RANGE_DAYS:
        raise validation_error(
            [{"field": "end", "message": f"at most {horoscopes.MAX_RANGE_DAYS} days per request"}]
        )
    items = await horoscopes.published_range(
        query_args.sign, query_args.start, query_args.end, query_args.language
    )
    return json_response(
        {"sign": query_args.sign, "language": query_args.language, "horoscopes": items}
    )
