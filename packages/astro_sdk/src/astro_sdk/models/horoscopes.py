"""Models of the Horoscopes tag group (``/api/v3/horoscopes/...``).

A horoscope is published once per (sign, UTC date, language) and never changes afterwards:
repeated calls return the same content and ``published_at``. Ranges hold 1 to 31 days
(``MAX_RANGE_DAYS``); the SDK refuses a longer or reversed range before sending, as the server
would (a 400 naming ``end``).
"""

from __future__ import annotations

import datetime as dt
from typing import Final, Literal

from pydantic import ValidationInfo, field_validator

from astro_sdk.models._base import RequestModel, ResponseModel

__all__ = [
    "MAX_RANGE_DAYS",
    "DailyHoroscopeQuery",
    "HoroscopeRange",
    "HoroscopeRangeQuery",
    "HoroscopeSection",
    "PublishedHoroscope",
    "Sign",
    "SkyFact",
]

MAX_RANGE_DAYS: Final = 31
Sign = Literal[
    "aries", "taurus", "gemini", "cancer", "leo", "virgo", "libra", "scorpio", "sagittarius",
    "capricorn", "aquarius", "pisces",
]  # fmt: skip


class DailyHoroscopeQuery(RequestModel):
    """Query of ``GET /api/v3/horoscopes/daily``; ``date`` is a UTC calendar date; ``timezone``
    (an IANA name, UTC by default) is the zone the texts print their times in (the server
    answers an unknown zone with a 400 naming ``timezone``)."""

    sign: Sign
    date: dt.date
    language: Literal["en", "th"] = "en"
    timezone: str = "UTC"


class HoroscopeRangeQuery(RequestModel):
    """Query of ``GET /api/v3/horoscopes/range``: ``start`` to ``end`` inclusive, 1 to 31 days."""

    sign: Sign
    start: dt.date
    end: dt.date
    language: Literal["en", "th"] = "en"
    timezone: str = "UTC"

    @field_validator("end")
    @classmethod
    def _range_length(cls, end: dt.date, info: ValidationInfo) -> dt.date:
        start = info.data.get("start")
        if isinstance(start, dt.date):
            if end < start:
                raise ValueError("must not be before start")
            if (end - start).days + 1 > MAX_RANGE_DAYS:
                raise ValueError(f"at most {MAX_RANGE_DAYS} days per request")
        return end


class HoroscopeSection(ResponseModel):
    text: str
    rating: int  # 1-5


class SkyFact(ResponseModel):
    """A fact of the day's sky that the text states: the exact UTC instant of an event, or the
    12:00 UTC snapshot of a placement; ``house`` is the reader's solar house."""

    kind: str  # moon_sign, moon_phase, placement, aspect, ingress, station, lunation
    at: dt.datetime
    bodies: list[str]
    sign: str | None = None
    house: int | None = None
    aspect: str | None = None
    direction: str | None = None  # station: retrograde, direct
    phase: str | None = None
    retrograde: bool | None = None


class PublishedHoroscope(ResponseModel):
    sign: str
    sign_name: str
    date: dt.date
    language: str
    overall: HoroscopeSection
    love: HoroscopeSection
    career: HoroscopeSection
    money: HoroscopeSection
    health: HoroscopeSection
    lucky_number: int
    lucky_colour: str
    lucky_planet: str
    moon_sign: str
    moon_phase: str
    moon_house: int  # the Moon's solar house counted from the sign
    ruler: str
    facts: list[SkyFact]
    generator: str  # version of the writer that published it
    published_at: dt.datetime
    timezone: str  # the IANA zone the texts print their times in


class HoroscopeRange(ResponseModel):
    sign: str
    language: str
    timezone: str  # the IANA zone the texts print their times in
    horoscopes: list[PublishedHoroscope]  # one per date, start to end
