"""Models of the Thai Astrology tag group (``/api/v3/thai/...``).

The request bodies mirror the server's field by field (the drift test checks names, bounds and
required flags); the responses mirror the documented result shapes. Enumerations in responses
are read as plain strings, their values listed on each field, so a value added later breaks
nothing. Texts come in Thai (``_th``) and English (``_en``); instants are UTC.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import Field, ValidationInfo, field_validator

from astro_sdk.models._base import RequestModel, ResponseModel
from astro_sdk.models.profiles import (
    ProfileReference,
    ReferenceShape,
    SubjectOrReference,
    SubjectShape,
)
from astro_sdk.models.sensitivity import Sensitivity, SensitivityOptions

__all__ = [
    "AuspiciousDay",
    "AuspiciousReason",
    "Ayanamsa",
    "Festival",
    "Purpose",
    "SuriyayatraYear",
    "TaksaPosition",
    "TaksaWheel",
    "ThaiAuspiciousRequest",
    "ThaiAuspiciousTimes",
    "ThaiBirthSubject",
    "ThaiCalendar",
    "ThaiCalendarRequest",
    "ThaiCalendarYear",
    "ThaiFestivals",
    "ThaiFestivalsRequest",
    "ThaiLunar",
    "ThaiLunarDate",
    "ThaiLunarRequest",
    "ThaiMonth",
    "ThaiWheel",
    "ThaiWheelRequest",
    "TimeWindow",
    "YearTypeSource",
    "YearlyTaksa",
]

Ayanamsa = Literal[
    "suriyayatra", "lahiri", "raman", "krishnamurti", "fagan_bradley", "true_chitra", "yukteshwar"
]
Purpose = Literal["wedding", "business_opening", "moving_house", "travel", "ordination"]
YearTypeSource = Literal["almanac", "rule"]
"""Where the lunar year types come from: ``almanac`` (the server's default) is the published Thai
almanac table for 1914-2157 and the Suriyayatra rule outside those years; ``rule`` is the
Suriyayatra rule with its recorded official exceptions in every year."""
_TIME_PATTERN = r"^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$"


class ThaiCalendarRequest(RequestModel):
    """Exactly one of ``date`` (its Thai lunar date) or ``year`` (its months and holy days);
    both, or neither, is refused before sending, as the server refuses it."""

    date: dt.date | None = None
    year: int | None = Field(default=None, ge=1900, le=2200, validate_default=True)
    year_type_source: YearTypeSource = "almanac"

    @field_validator("year")
    @classmethod
    def _date_or_year(cls, value: int | None, info: ValidationInfo) -> int | None:
        if "date" not in info.data:
            return value  # the date itself was refused
        has_date = info.data["date"] is not None
        if value is not None and has_date:
            raise ValueError("give either date or year, not both")
        if value is None and not has_date:
            raise ValueError("give date or year")
        return value


class ThaiFestivalsRequest(RequestModel):
    year: int = Field(ge=1900, le=2200)
    ayanamsa: Ayanamsa = "suriyayatra"
    """Zodiac of the Maha Songkran instant: ``suriyayatra`` computes it as the official Songkran
    announcements do; any other value is the Swiss Ephemeris entry into that sidereal Aries."""
    year_type_source: YearTypeSource = "almanac"


class ThaiLunarRequest(RequestModel):
    moment: dt.datetime
    """An instant with its UTC offset; a naive datetime is refused by the server."""
    latitude: float = Field(ge=-90, le=90)
    longitude: float = Field(ge=-180, le=180)
    timezone: str | None = Field(default=None, max_length=64)
    """IANA zone of the place's civil day; found from the coordinates if omitted."""
    year_type_source: YearTypeSource = "almanac"


class ThaiBirthSubject(RequestModel):
    """A birth: local date and time and the place; with neither offset nor zone the server finds
    the zone from the coordinates."""

    date: dt.date
    time: str = Field(pattern=_TIME_PATTERN)
    """Local time, 24-hour ``HH:MM`` or ``HH:MM:SS``."""
    latitude: float = Field(default=None, ge=-90, le=90)  # type: ignore[assignment]
    longitude: float = Field(default=None, ge=-180, le=180)  # type: ignore[assignment]
    """Required unless ``place`` is given (then both are left out)."""
    place: int | None = None
    """A place id from ``client.places.search``: its coordinates (and zone, when neither is
    given) instead of ``latitude`` and ``longitude``."""
    timezone_offset_minutes: int | None = Field(
        default=None, alias="timezoneOffsetMinutes", ge=-1080, le=1080
    )
    timezone: str | None = Field(default=None, max_length=64)


ThaiBirthSubjectOrReference = Annotated[
    Annotated[ThaiBirthSubject, SubjectShape] | Annotated[ProfileReference, ReferenceShape],
    SubjectOrReference,
]
"""A ThaiBirthSubject or ``{"profile_id": "prof_..."}`` (a stored client profile's birth)."""


class ThaiWheelRequest(SensitivityOptions):
    subject: ThaiBirthSubjectOrReference
    on_date: dt.date | None = None
    """Adds the moving (yearly) Taksa for the completed age on that date."""


class ThaiAuspiciousRequest(SensitivityOptions):
    purpose: Purpose
    start_date: dt.date
    end_date: dt.date
    """At most 366 days after ``start_date`` counting both ends; longer is a 400."""
    birth_date: dt.date | None = None
    birth_time: str | None = Field(default=None, pattern=_TIME_PATTERN)
    year_type_source: YearTypeSource = "almanac"


# --- calendar ------------------------------------------------------------------------------------


class ThaiLunarDate(ResponseModel):
    """The Thai lunar date of a civil ``date``."""

    date: dt.date
    weekday: str
    lunar_year: int
    """The Gregorian year naming the lunar year (months 1 to 12)."""
    lunar_month: int
    """1 to 12."""
    second_month_8: bool
    """The repeated month 8 of an athikamat year ("8/8")."""
    phase: str
    """waxing or waning."""
    kham: int
    """Day of the waxing or waning half, 1 to 15."""
    day_of_month: int
    """1 to 30."""
    month_days: int
    """29 or 30."""
    wan_phra: bool
    """A Buddhist holy day."""
    year_type: str
    """pakatimat, athikawan (extra day) or athikamat (extra month)."""
    year_type_decided_by: str
    """almanac or rule: the source that decided ``year_type`` (the rule outside 1914-2157)."""
    buddhist_era: int
    chulasakarat: int
    animal_year: str


class SuriyayatraYear(ResponseModel):
    """The Suriyayatra elements of a Chulasakarat year."""

    cs_year: int
    horakhun: int
    kammacapon: int
    avoman: int
    tithi: int
    year_type: str
    """pakatimat, athikawan or athikamat, by the Suriyayatra rule."""
    thaloeng_sok_jdn: int
    """Julian day number of the Thaloeng Sok day."""


class ThaiMonth(ResponseModel):
    month: int
    second_month_8: bool
    start: dt.date
    days: int


class ThaiCalendarYear(ResponseModel):
    year: int
    year_type: str
    """pakatimat, athikawan or athikamat."""
    year_type_decided_by: str
    """almanac or rule: the source that decided ``year_type``."""
    suriyayatra: SuriyayatraYear
    """The Suriyayatra elements; their ``year_type`` is the rule's."""
    months: list[ThaiMonth]
    wan_phra: list[dt.date]


class ThaiCalendar(ResponseModel):
    """``POST /api/v3/thai/calendar``: ``lunar_date`` for a ``date`` request (``calendar_year``
    null), or ``calendar_year`` for a ``year`` request (``lunar_date`` null)."""

    year_type_source: str
    """The requested source of the year types (almanac or rule)."""
    lunar_date: ThaiLunarDate | None
    calendar_year: ThaiCalendarYear | None


# --- festivals -----------------------------------------------------------------------------------


class Festival(ResponseModel):
    key: str
    """e.g. makha_bucha, visakha_bucha, loy_krathong, maha_songkran."""
    name_th: str
    name_en: str
    date: dt.date
    lunar_date: ThaiLunarDate | None = None
    instant_utc: dt.datetime | None = None
    """For an astronomical instant (Maha Songkran)."""


class ThaiFestivals(ResponseModel):
    """``POST /api/v3/thai/festivals``: the year's festivals in date order."""

    year: int
    year_type: str
    year_type_source: str
    """The requested source of the year types (almanac or rule)."""
    year_type_decided_by: str
    """almanac or rule: the source that decided ``year_type``."""
    ayanamsa: str
    festivals: list[Festival]


# --- the Moon ------------------------------------------------------------------------------------


class ThaiLunar(ResponseModel):
    """``POST /api/v3/thai/lunar``: phase, illumination, age, the Thai lunar date of the place's
    civil day, and the neighbouring new and full moons."""

    moment_utc: dt.datetime
    timezone: str
    local_date: str
    """The place's civil date, ``YYYY-MM-DD``."""
    phase: str
    """new_moon, waxing_crescent, first_quarter, waxing_gibbous, full_moon, waning_gibbous,
    last_quarter or waning_crescent."""
    phase_th: str
    phase_en: str
    phase_angle_deg: float
    """Moon-Sun elongation: 0 new, 180 full."""
    illumination: float
    """0 to 1."""
    age_days: float
    previous_new_moon_utc: dt.datetime
    next_new_moon_utc: dt.datetime
    next_full_moon_utc: dt.datetime
    year_type_source: str
    """The requested source of the year types (almanac or rule)."""
    thai_lunar_date: ThaiLunarDate


# --- the Taksa wheel -----------------------------------------------------------------------------


class TaksaPosition(ResponseModel):
    """One of the eight positions of the wheel (``boriwan``, ``ayu``, ``det``, ``si``, ``mula``,
    ``utsaha``, ``montri``, ``kalakini``) with its planet, colour and name letters."""

    position: str
    position_th: str
    position_en: str
    meaning_th: str
    meaning_en: str
    planet: str
    planet_number: int
    planet_th: str
    planet_en: str
    colour_th: str
    colour_en: str
    letters: list[str]


class YearlyTaksa(ResponseModel):
    """The moving (yearly) Taksa for the completed age."""

    age_years: int
    position: str
    planet: str
    outlook_th: str
    outlook_en: str
    period_ruler: str
    period_start_age: int
    period_end_age: int


class TaksaWheel(ResponseModel):
    birth_day: str
    """sunday ... saturday, or wednesday_night (Rahu, from 18:00)."""
    birth_day_th: str
    birth_day_en: str
    birth_planet: str
    thai_day_date: dt.date
    """The civil date whose Thai day (from 06:00) holds the birth."""
    positions: list[TaksaPosition]
    kalakini: TaksaPosition
    auspicious_colours: list[TaksaPosition]
    inauspicious_colour_th: str
    inauspicious_colour_en: str
    auspicious_letters: list[str]
    inauspicious_letters: list[str]
    yearly: YearlyTaksa | None = None
    """With ``on_date`` in the request."""


class ThaiWheel(ResponseModel):
    """``POST /api/v3/thai/wheel``: the resolved birth instant and the Taksa wheel."""

    utc: dt.datetime
    offset_minutes: int
    timezone: str | None
    wheel: TaksaWheel
    sensitivity: Sensitivity | None = None
    """The birth weekday's and Taksa planet's birth-time sensitivity, when asked for."""


# --- auspicious times ----------------------------------------------------------------------------


class AuspiciousReason(ResponseModel):
    """A rule that decided a day or a window."""

    key: str
    effect: str
    """favour or avoid."""
    th: str
    en: str


class TimeWindow(ResponseModel):
    """A daytime watch (local ``HH:MM`` to ``HH:MM``) ruled by a favoured planet."""

    start: str
    end: str
    planet: str
    position: str
    reason: AuspiciousReason


class AuspiciousDay(ResponseModel):
    date: dt.date
    weekday: str
    auspicious: bool
    lunar_date: ThaiLunarDate
    reasons: list[AuspiciousReason]
    windows: list[TimeWindow]


class ThaiAuspiciousTimes(ResponseModel):
    """``POST /api/v3/thai/auspicious-times``: the days examined, split into auspicious days
    (with time windows) and avoided days, each with its reasons."""

    purpose: str
    purpose_th: str
    purpose_en: str
    start: dt.date
    end: dt.date
    days_examined: int
    year_type_source: str
    """The requested source of the year types (almanac or rule)."""
    auspicious_days: list[AuspiciousDay]
    avoided_days: list[AuspiciousDay]
    sensitivity: Sensitivity | None = None
    """With the ``sensitivity`` option: how close the person's Thai birth day is to changing."""
