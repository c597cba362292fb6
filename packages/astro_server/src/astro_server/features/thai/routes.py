"""Thai Astrology tag group: the Thai lunar calendar, festivals, the Moon, the Taksa wheel and
auspicious timing. Handlers are thin: validate -> astro_calc.thai -> respond.

Limits, all checked by the request models before anything is charged (so the OpenAPI document
shows them): years 1900-2200 (the span of the computed calendar), an auspicious-times range of at
most 366 days counting both ends (``end_date`` 366 days after ``start_date`` is a 400 naming
``end_date``). A birth subject is ``date``, ``time`` (HH:MM or HH:MM:SS), ``latitude``,
``longitude`` and an optional ``timezoneOffsetMinutes`` or IANA ``timezone``; with neither the zone
is found from the coordinates.

``year_type_source`` (calendar, festivals, lunar, auspicious times: every route whose answer uses
the lunar calendar; the Taksa wheel uses only the weekday and does not take it): ``almanac``
(default) takes the year types of the published almanac table for 1914-2157 and the Suriyayatra
rule outside it, ``rule`` the Suriyayatra rule with its recorded exceptions everywhere
(:mod:`astro_calc.thai.suriyayatra`). The response echoes the requested source, and each lunar
date (and the calendar and festival year) names the source that decided its year's type in
``year_type_decided_by``.

The OpenAPI document describes each success body from the struct the handler encodes (pydantic
mirrors of the msgspec structs, names prefixed ``Thai``) and the error body of 400 (field-level
``details``), 401, 402, 403, 409 and 429.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

import msgspec
from pydantic import AwareDatetime, BaseModel, Field, ValidationInfo, field_validator
from quart import Blueprint

from astro_calc.errors import CalcInputError
from astro_calc.sensitivity import Sensitivity, thai_sensitivity
from astro_calc.thai import (
    MAX_RANGE_DAYS,
    AuspiciousSearch,
    FestivalYear,
    LunarInfo,
    SuriyayatraYear,
    TaksaWheel,
    ThaiLunarDate,
    YearTypeSource,
    auspicious_times,
    lunar_info,
    suriyayatra_year,
    taksa_wheel,
    thai_festivals,
    thai_lunar_date,
    wan_phra_days,
    year_type_decided_by,
)
from astro_calc.thai.calendar import MAX_YEAR, MIN_YEAR, month1_start, month_lengths
from astro_calc.thai.suriyayatra import CS_TO_CE, year_type
from astro_calc.time import parse_time_of_day, resolve
from astro_server.drawing.taksa import taksa_wheel_svg
from astro_server.features.common.calculation import calculations
from astro_server.features.common.pictures import PictureOptions
from astro_server.features.common.sensitivity import (
    SensitivityOptions,
)
from astro_server.features.common.subject import (
    TIME_PATTERN,
    BirthSubject,
    check_zone,
    timezone_field,
)

#: The auspicious-time search reads a bare local clock; its sensitivity answer's instants are
#: that clock on Thai time.
THAI_OFFSET_MINUTES = 420
blueprint = Blueprint("thai", __name__)
TAG = ["Thai Astrology"]
# Struct names such as Festival or Reason are generic: prefix this group's OpenAPI schemas.
DOCS_PREFIX = "Thai"
route = calculations(blueprint, tags=TAG, docs_prefix=DOCS_PREFIX, errors=(400,))

Purpose = Literal["wedding", "business_opening", "moving_house", "travel", "ordination"]
# The zodiac of the Maha Songkran instant: the Suriyayatra (the official announcements' own
# computation) or a Swiss Ephemeris sidereal zodiac.
SongkranZodiac = Literal[
    "suriyayatra", "lahiri", "raman", "krishnamurti", "fagan_bradley", "true_chitra", "yukteshwar"
]


def year_type_source_field() -> YearTypeSource:
    """The ``year_type_source`` request field (the same description on every route)."""
    value: YearTypeSource = Field(
        default="almanac",
        description=(
            "Where the lunar year types (athikamat, athikawan, pakatimat) come from: almanac "
            "(default) is the published Thai almanac table (myhora.com's B.E. 2300-2700 calendar) "
            "for 1914-2157 and the Suriyayatra rule outside those years; rule is the Suriyayatra "
            "rule with its recorded official exceptions in every year"
        ),
    )
    return value


def _in_calendar_span(value: dt.date) -> dt.date:
    if not MIN_YEAR <= value.year <= MAX_YEAR:
        raise ValueError(f"must be in the years {MIN_YEAR}-{MAX_YEAR}")
    return value


class ThaiCalendarRequest(BaseModel):
    """One civil date (its Thai lunar date) or one year (its months and holy days)."""

    date: dt.date | None = Field(default=None, description="A civil date, 1900-2200")
    year: int | None = Field(
        default=None,
        ge=MIN_YEAR,
        le=MAX_YEAR,
        validate_default=True,
        description="A Gregorian year, 1900-2200",
    )
    year_type_source: YearTypeSource = year_type_source_field()

    @field_validator("date")
    @classmethod
    def _date_span(cls, value: dt.date | None) -> dt.date | None:
        return None if value is None else _in_calendar_span(value)

    @field_validator("year")
    @classmethod
    def _exactly_one(cls, value: int | None, info: ValidationInfo) -> int | None:
        if "date" not in info.data:
            return value  # the date itself was refused
        has_date = info.data["date"] is not None
        if value is not None and has_date:
            raise ValueError("give either date or year, not both")
        if value is None and not has_date:
            raise ValueError("give date or year")
        return value


class ThaiFestivalsRequest(BaseModel):
    year: int = Field(ge=MIN_YEAR, le=MAX_YEAR, description="A Gregorian year, 1900-2200")
    ayanamsa: SongkranZodiac = Field(
        default="suriyayatra",
        description=(
            "Zodiac for the Maha Songkran instant: suriyayatra (default) computes it as the "
            "official Songkran announcements do; any other value is the Swiss Ephemeris entry "
            "into that sidereal zodiac's Aries"
        ),
    )
    year_type_source: YearTypeSource = year_type_source_field()


class ThaiLunarRequest(BaseModel):
    moment: AwareDatetime = Field(description="An instant with its UTC offset (ISO 8601)")
    latitude: float = Field(ge=-90, le=90, description="Degrees, north positive")
    longitude: float = Field(ge=-180, le=180, description="Degrees, east positive")
    timezone: str | None = Field(
        default=None,
        max_length=64,
        description="IANA zone of the place's civil day; found from the coordinates if omitted",
    )
    year_type_source: YearTypeSource = year_type_source_field()

    @field_validator("moment")
    @classmethod
    def _moment_span(cls, value: dt.datetime) -> dt.datetime:
        # A day inside the calendar's span on both sides, whatever the place's zone.
        if not dt.date(MIN_YEAR, 1, 2) <= value.date() <= dt.date(MAX_YEAR, 12, 30):
            raise ValueError(f"must be between {MIN_YEAR}-01-02 and {MAX_YEAR}-12-30")
        return value

    _zone = field_validator("timezone")(check_zone)


class ThaiBirthSubject(BirthSubject):
    timezone: str | None = timezone_field("Asia/Bangkok")


class ThaiWheelRequest(SensitivityOptions):
    subject: ThaiBirthSubject
    on_date: dt.date | None = Field(
        default=None, description="Add the moving (yearly) Taksa for the completed age then"
    )


class ThaiAuspiciousRequest(SensitivityOptions):
    purpose: Purpose = Field(description="What the time is chosen for")
    start_date: dt.date = Field(description="First day of the range (1900-2200)")
    end_date: dt.date = Field(
        description=f"Last day of the range, at most {MAX_RANGE_DAYS} days counting both ends"
    )
    birth_date: dt.date | None = Field(
        default=None, description="The person's birth date: adds their kalakini and good days"
    )
    birth_time: str | None = Field(
        default=None, pattern=TIME_PATTERN, description="Local birth time (default 12:00)"
    )
    year_type_source: YearTypeSource = year_type_source_field()

    @field_validator("start_date")
    @classmethod
    def _start_span(cls, value: dt.date) -> dt.date:
        return _in_calendar_span(value)

    @field_validator("end_date")
    @classmethod
    def _end_range(cls, value: dt.date, info: ValidationInfo) -> dt.date:
        _in_calendar_span(value)
        start = info.data.get("start_date")
        if start is not None:
            if value < start:
                raise ValueError("must not be before start_date")
            span = (value - start).days + 1
            if span > MAX_RANGE_DAYS:
                raise ValueError(f"the range is {span} days; at most {MAX_RANGE_DAYS}")
        return value


class ThaiMonth(msgspec.Struct, frozen=True):
    month: int
    second_month_8: bool
    start: dt.date
    days: int


class ThaiCalendarYear(msgspec.Struct, frozen=True):
    year: int
    year_type: str
    year_type_decided_by: YearTypeSource
    suriyayatra: SuriyayatraYear  # the rule's elements (its year_type is the rule's)
    months: tuple[ThaiMonth, ...]
    wan_phra: tuple[dt.date, ...]


class ThaiCalendarResult(msgspec.Struct, frozen=True):
    year_type_source: YearTypeSource  # requested
    lunar_date: ThaiLunarDate | None
    calendar_year: ThaiCalendarYear | None


class ThaiWheelResult(msgspec.Struct, frozen=True):
    utc: dt.datetime
    offset_minutes: int
    timezone: str | None
    wheel: TaksaWheel


def _calendar_year(year: int, source: YearTypeSource) -> ThaiCalendarYear:
    cursor = month1_start(year, source)
    months: list[ThaiMonth] = []
    for month, second, days in month_lengths(year, source):
        months.append(ThaiMonth(month, second, cursor, days))
        cursor += dt.timedelta(days=days)
    return ThaiCalendarYear(
        year=year,
        year_type=year_type(year - CS_TO_CE, source=source),
        year_type_decided_by=year_type_decided_by(year - CS_TO_CE, source),
        suriyayatra=suriyayatra_year(year - CS_TO_CE),
        months=tuple(months),
        wan_phra=wan_phra_days(year, year_type_source=source),
    )


@route(
    "POST /api/v3/thai/calendar",
    "thaiCalendar",
    price="thai.calendar",
    body=ThaiCalendarRequest,
    result=ThaiCalendarResult,
)
def thai_calendar(data: ThaiCalendarRequest) -> ThaiCalendarResult:
    """The Thai lunar date of a civil date (month, waxing or waning day, wan phra, BE, CS and
    animal years), or a lunar year's type, Suriyayatra elements, months and holy days; the year
    types from the published almanac table (default) or the Suriyayatra rule."""
    source = data.year_type_source
    if data.date is not None:
        lunar = thai_lunar_date(data.date, year_type_source=source)
        return ThaiCalendarResult(source, lunar, None)
    if data.year is None:  # the model refuses this; kept for the type checker
        raise CalcInputError("year", "give date or year")
    return ThaiCalendarResult(source, None, _calendar_year(data.year, source))


@route(
    "POST /api/v3/thai/festivals",
    "thaiFestivals",
    price="thai.festivals",
    body=ThaiFestivalsRequest,
    result=FestivalYear,
)
def thai_festivals_route(data: ThaiFestivalsRequest) -> FestivalYear:
    """Makha, Visakha and Asanha Bucha, Khao and Ok Phansa, Loy Krathong, the Songkran holidays,
    Maha Songkran (instant), Wan Nao and Wan Thaloeng Sok, with Thai and English names."""
    return thai_festivals(data.year, ayanamsa=data.ayanamsa, year_type_source=data.year_type_source)


@route(
    "POST /api/v3/thai/lunar",
    "thaiLunar",
    price="thai.lunar",
    body=ThaiLunarRequest,
    result=LunarInfo,
)
def thai_lunar(data: ThaiLunarRequest) -> LunarInfo:
    """Moon phase, illumination, age, the Thai lunar date of the place's civil day, and the
    previous new moon and next new and full moons."""
    return lunar_info(
        data.moment,
        data.latitude,
        data.longitude,
        timezone_name=data.timezone,
        year_type_source=data.year_type_source,
    )


@route(
    "POST /api/v3/thai/wheel",
    "thaiWheel",
    price="thai.wheel",
    body=ThaiWheelRequest,
    result=ThaiWheelResult,
    sensitivity=lambda data, minutes: thai_sensitivity(
        data.subject.resolve(), uncertainty_minutes=minutes
    ),
    names_subject=True,
)
def thai_wheel(data: ThaiWheelRequest) -> ThaiWheelResult:
    """The Taksa wheel of a birth (Thai day from 06:00, Wednesday night from 18:00): eight
    positions with planets, kalakini, colours and name letters; with ``on_date`` the moving
    Taksa for that age. ``sensitivity`` (``{"uncertainty_minutes": 0..720}``) adds how close
    the Thai birth weekday and the Taksa planet are to changing, charged as
    ``thai.wheel.sensitivity`` (+1 credit)."""
    subject = data.subject
    resolved = subject.resolve()
    wheel = taksa_wheel(subject.date, subject.local_time(), on_date=data.on_date)
    return ThaiWheelResult(resolved.utc, resolved.offset_minutes, resolved.timezone, wheel)


def _birth_sensitivity(data: ThaiAuspiciousRequest, minutes: float) -> Sensitivity:
    """The person's Thai birth day and Taksa planet, the clock read as Thai time."""
    if data.birth_date is None:
        raise CalcInputError("birth_date", "required for birth-time sensitivity")
    if data.birth_time is None:
        raise CalcInputError("birth_time", "required for birth-time sensitivity")
    birth_time = parse_time_of_day(data.birth_time, "birth_time")
    return thai_sensitivity(
        resolve(data.birth_date, birth_time, offset_minutes=THAI_OFFSET_MINUTES),
        uncertainty_minutes=minutes,
    )


@route(
    "POST /api/v3/thai/auspicious-times",
    "thaiAuspiciousTimes",
    price="thai.auspicious_times",
    body=ThaiAuspiciousRequest,
    result=AuspiciousSearch,
    sensitivity=_birth_sensitivity,
)
def thai_auspicious_times(data: ThaiAuspiciousRequest) -> AuspiciousSearch:
    """Auspicious days and daytime watches for a purpose over at most 366 days, each day with
    the rules that decided it (Thai and English). ``sensitivity``
    (``{"uncertainty_minutes": 0..720}``, with ``birth_date`` and ``birth_time``) adds how close
    the person's Thai birth day and Taksa planet, which choose their kalakini and good days,
    are to changing (the clock read as Thai time, UTC+7), charged as
    ``thai.auspicious_times.sensitivity`` (+1 credit)."""
    birth_time = parse_time_of_day(data.birth_time, "birth_time") if data.birth_time else None
    return auspicious_times(
        data.start_date,
        data.end_date,
        data.purpose,
        birth_date=data.birth_date,
        birth_time=birth_time,
        year_type_source=data.year_type_source,
    )


class ThaiWheelDiagramRequest(ThaiWheelRequest, PictureOptions):
    """The Taksa wheel request plus the picture options."""


@route(
    "POST /api/v3/thai/wheel/diagram",
    "thaiWheelDiagram",
    picture=True,
    price="thai.wheel_diagram",
    body=ThaiWheelDiagramRequest,
    names_subject=True,
)
def thai_wheel_diagram(data: ThaiWheelDiagramRequest) -> str:
    """The Taksa wheel picture: the eight directions with the birth day's Taksa roles
    (kalakini marked, the favoured roles highlighted), and with ``on_date`` the moving Taksa's
    planet ringed; the numbers of ``POST /api/v3/thai/wheel``."""
    subject = data.subject
    subject.resolve()
    wheel = taksa_wheel(subject.date, subject.local_time(), on_date=data.on_date)
    return taksa_wheel_svg(wheel, **data.drawing_options())
