"""Models of the Thai Astrology tag group (``/api/v3/thai/...``).

The request bodies mirror the server's field by field (the drift test checks names, bounds and
required flags). The responses are not yet documented in the server's OpenAPI, so their models
declare no fields and every value is read from ``model_extra``
(``festivals.model_extra["festivals"]``).
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from astro_sdk.models._base import RequestModel, ResponseModel

__all__ = [
    "Ayanamsa",
    "Purpose",
    "ThaiAuspiciousRequest",
    "ThaiAuspiciousTimes",
    "ThaiBirthSubject",
    "ThaiCalendar",
    "ThaiCalendarRequest",
    "ThaiFestivals",
    "ThaiFestivalsRequest",
    "ThaiLunar",
    "ThaiLunarRequest",
    "ThaiWheel",
    "ThaiWheelRequest",
]

Ayanamsa = Literal["lahiri", "raman", "krishnamurti", "fagan_bradley", "true_chitra", "yukteshwar"]
Purpose = Literal["wedding", "business_opening", "moving_house", "travel", "ordination"]
_TIME_PATTERN = r"^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$"


class ThaiCalendarRequest(RequestModel):
    """Exactly one of ``date`` (its Thai lunar date) or ``year`` (its months and holy days)."""

    date: dt.date | None = None
    year: int | None = Field(default=None, ge=1900, le=2200)


class ThaiFestivalsRequest(RequestModel):
    year: int = Field(ge=1900, le=2200)
    ayanamsa: Ayanamsa = "lahiri"
    """Zodiac of the Maha Songkran instant."""


class ThaiLunarRequest(RequestModel):
    moment: dt.datetime
    """An instant with its UTC offset; a naive datetime is refused by the server."""
    latitude: float = Field(ge=-90, le=90)
    longitude: float = Field(ge=-180, le=180)
    timezone: str | None = Field(default=None, max_length=64)
    """IANA zone of the place's civil day; found from the coordinates if omitted."""


class ThaiBirthSubject(RequestModel):
    """A birth: local date and time and the place; with neither offset nor zone the server finds
    the zone from the coordinates."""

    date: dt.date
    time: str = Field(pattern=_TIME_PATTERN)
    """Local time, 24-hour ``HH:MM`` or ``HH:MM:SS``."""
    latitude: float = Field(ge=-90, le=90)
    longitude: float = Field(ge=-180, le=180)
    timezoneOffsetMinutes: int | None = Field(default=None, ge=-1080, le=1080)
    timezone: str | None = Field(default=None, max_length=64)


class ThaiWheelRequest(RequestModel):
    subject: ThaiBirthSubject
    on_date: dt.date | None = None
    """Adds the moving (yearly) Taksa for the completed age on that date."""


class ThaiAuspiciousRequest(RequestModel):
    purpose: Purpose
    start_date: dt.date
    end_date: dt.date
    """At most 366 days after ``start_date`` counting both ends; longer is a 400."""
    birth_date: dt.date | None = None
    birth_time: str | None = Field(default=None, pattern=_TIME_PATTERN)


class ThaiCalendar(ResponseModel):
    """``lunar_date`` for a date, or ``calendar_year`` (type, Suriyayatra elements, months,
    wan phra) for a year (in ``model_extra`` until the server documents them)."""


class ThaiFestivals(ResponseModel):
    """``year``, ``year_type``, ``ayanamsa`` and ``festivals`` (key, Thai and English name,
    date, lunar date, instant) in ``model_extra``."""


class ThaiLunar(ResponseModel):
    """Phase, illumination, age, the Thai lunar date and the next new and full moons (in
    ``model_extra``)."""


class ThaiWheel(ResponseModel):
    """``utc``, ``offset_minutes``, ``timezone`` and the Taksa ``wheel`` (in ``model_extra``)."""


class ThaiAuspiciousTimes(ResponseModel):
    """``auspicious_days`` and ``avoided_days``, each with its reasons and time windows (in
    ``model_extra``)."""
