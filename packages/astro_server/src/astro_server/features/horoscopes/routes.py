"""Horoscopes tag group: published daily horoscopes, one date or a range of up to 31 days.

What is served comes from ``services.horoscopes.get_or_publish``: the first publication of a
(sign, date, language) is stored and returned unchanged ever after. Dates are UTC calendar days;
the times the texts state are printed in the ``timezone`` query parameter (an IANA name, UTC by
default; an unknown zone is a 400 naming ``timezone``), with the local date when it is not the
horoscope's (issue 35).
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from quart import Blueprint

from astro_calc.errors import CalcInputError
from astro_calc.horoscope import DailyHoroscope
from astro_calc.time import zone as iana_zone
from astro_server.features.common.calculation import calculations
from astro_server.features.common.routing import in_ephemeris_span
from astro_server.features.horoscopes import service as horoscopes
from astro_server.features.horoscopes import tasks as horoscope_tasks  # noqa: F401  (registers publishing)
from astro_server.platform.errors import validation_error
from astro_server.platform.msgspec_docs import response_model

blueprint = Blueprint("horoscopes", __name__)
TAG = ["Horoscopes"]
route = calculations(blueprint, tags=TAG, errors=(400,))

Sign = Literal[
    "aries", "taurus", "gemini", "cancer", "leo", "virgo", "libra", "scorpio", "sagittarius",
    "capricorn", "aquarius", "pisces",
]  # fmt: skip


TIMEZONE_DESCRIPTION = (
    "IANA time zone name (e.g. Asia/Bangkok) the texts print their times in; default UTC. The "
    "date stays the UTC calendar date; a time on another local date names that date."
)


def _known_zone(name: str) -> str:
    """A pydantic validator body: an IANA zone name, else a ``ValueError`` (a 400 naming the
    field)."""
    try:
        iana_zone(name, "timezone")
    except CalcInputError as exc:
        raise ValueError(exc.message) from None
    return name


class DailyQuery(BaseModel):
    sign: Sign
    date: dt.date = Field(description="UTC calendar date (YYYY-MM-DD)")
    language: Literal["en", "th"] = "en"
    timezone: str = Field("UTC", description=TIMEZONE_DESCRIPTION, examples=["Asia/Bangkok"])

    _in_span = field_validator("date")(in_ephemeris_span)
    _zone = field_validator("timezone")(_known_zone)


class RangeQuery(BaseModel):
    sign: Sign
    start: dt.date
    end: dt.date = Field(description="Inclusive; at most 31 days from start")
    language: Literal["en", "th"] = "en"
    timezone: str = Field("UTC", description=TIMEZONE_DESCRIPTION, examples=["Asia/Bangkok"])

    _in_span = field_validator("start", "end")(in_ephemeris_span)
    _zone = field_validator("timezone")(_known_zone)


class PublishedHoroscope(response_model(DailyHoroscope)):  # type: ignore[misc]
    """A published daily horoscope: the same content for a (sign, date, language) forever."""

    model_config = ConfigDict(title="PublishedHoroscope")

    generator: str = Field(description="Version of the writer that published it")
    published_at: dt.datetime = Field(description="When it was first published (UTC)")
    timezone: str = Field(
        description="The IANA zone the texts print their times in (the request's timezone)"
    )


class HoroscopeRange(BaseModel):
    sign: Sign
    language: Literal["en", "th"]
    timezone: str = Field(description="The IANA zone the texts print their times in")
    horoscopes: list[PublishedHoroscope] = Field(description="One per date, start to end")


@route(
    "GET /api/v3/horoscopes/daily",
    "getDailyHoroscope",
    price="horoscopes.daily",
    query=DailyQuery,
    result=PublishedHoroscope,
)
async def daily(query: DailyQuery) -> dict[str, Any]:
    """The published horoscope: overall, love, career, money, health (rated 1-5), lucky number
    and colour, and the sky facts it rests on."""
    return await horoscopes.get_or_publish(query.sign, query.date, query.language, query.timezone)


@route(
    "GET /api/v3/horoscopes/range",
    "getHoroscopeRange",
    price="horoscopes.range",
    query=RangeQuery,
    result=HoroscopeRange,
)
async def date_range(query: RangeQuery) -> dict[str, Any]:
    """Published horoscopes for each date from start to end inclusive (1 to 31 days)."""
    days = (query.end - query.start).days + 1
    if days < 1:
        raise validation_error([{"field": "end", "message": "must not be before start"}])
    if days > horoscopes.MAX_RANGE_DAYS:
        raise validation_error(
            [{"field": "end", "message": f"at most {horoscopes.MAX_RANGE_DAYS} days per request"}]
        )
    items = await horoscopes.published_range(
        query.sign, query.start, query.end, query.language, query.timezone
    )
    return {
        "sign": query.sign,
        "language": query.language,
        "timezone": query.timezone,
        "horoscopes": items,
    }
