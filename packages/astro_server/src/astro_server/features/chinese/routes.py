"""Chinese & Korean tag group: BaZi, Qi Men Dun Jia, the Chinese calendar and Korean Saju.

Handlers are thin: validate -> astro_calc.chinese (off the event loop: a year's solar terms are
root-found on first use) -> respond (msgspec structs encoded once).

A birth subject is the spec's object (``date``, ``time`` HH:MM or HH:MM:SS, ``latitude``,
``longitude``, ``timezoneOffsetMinutes``) plus an optional IANA ``timezone``; with neither offset
nor zone the zone is found from the coordinates and its historical offset applied. Birth years run
from 1801 to 2199 (the solar terms of the year before and after are needed). Every chart echoes
the resolved moment (``utc``, ``local``, ``offset_minutes``, ``timezone``, ``time_source``):
``chart.birth`` for BaZi, ``chart.bazi.birth`` for Saju, ``moment`` for Qi Men. A calculation
that refuses a subject field names it as ``subject.<field>``.

* ``POST /api/v3/chinese/bazi``: ``{"chart": BaziChart, "readings": [...]}``. ``gender`` gives
  the luck pillars (without it ``chart.luck`` is null); ``day_boundary`` ``zi`` (default, the day
  changes at 23:00) or ``midnight``; ``solar_time`` ``clock`` (default), ``mean`` or ``true``;
  ``annual_from_year``..``annual_to_year`` (at most 120 years) adds annual pillars;
  ``reference_date`` (default today, UTC) picks the current luck pillar and its reading.
* ``POST /api/v3/korean/saju``: ``{"chart": SajuChart, "readings": [...]}``; the same options,
  with the Korean almanac's defaults: ``hour_basis`` ``korean_almanac`` (double hours on the
  127.5 deg E meridian) and ``day_boundary`` ``midnight`` (야자시 separation).
* ``POST /api/v3/chinese/qimen``: ``{"moment": ..., "chart": QimenChart}``, the hourly
  rotating-plate chart; ``method`` ``chai_bu`` (default) or ``zhi_run``.
* ``POST /api/v3/chinese/calendar``: exactly one of ``date`` (a Gregorian day, read in China,
  1900-02-01..2100-12-31 -> ``chinese_date``) or ``year`` (1900..2100 -> the 24 ``solar_terms``
  of that Gregorian year, 小寒 first, and the ``lunar_months`` of the lunar year of that number,
  month 1 to 12 with any leap month).
"""

from __future__ import annotations

import datetime as dt
from typing import Literal, TypeVar

import msgspec
from pydantic import BaseModel, Field, ValidationInfo, field_validator
from quart import Blueprint

from astro_calc.chinese import (
    BaziChart,
    ChineseDate,
    QimenChart,
    Reading,
    SajuChart,
    SolarTerm,
    bazi_chart,
    bazi_readings,
    chinese_date,
    korean_saju,
    lunar_year_months,
    qimen_chart,
    solar_terms,
)
from astro_calc.chinese.bazi import BirthMoment
from astro_calc.chinese.calendar import LunarMonth
from astro_calc.sensitivity import (
    Sensitivity,
    bazi_sensitivity,
    qimen_sensitivity,
    saju_sensitivity,
)
from astro_server.features.common.calculation import calculations
from astro_server.features.common.routing import date_or_today
from astro_server.features.common.sensitivity import (
    SensitivityOptions,
)
from astro_server.features.common.subject import BirthSubject, timezone_field

blueprint = Blueprint("chinese", __name__)
TAG = ["Chinese & Korean"]
# Struct names such as ElementBalance are also Western's: prefix this group's OpenAPI schemas.
DOCS_PREFIX = "Chinese"
route = calculations(blueprint, tags=TAG, docs_prefix=DOCS_PREFIX)

_encoder = msgspec.json.Encoder()
Request = TypeVar("Request")

MIN_BIRTH_YEAR = 1801
MAX_BIRTH_YEAR = 2199
MAX_ANNUAL_YEARS = 120

Gender = Literal["male", "female"]
DayBoundary = Literal["zi", "midnight"]


class ChineseBirthSubject(BirthSubject):
    date: dt.date = Field(description="Local calendar date of birth (YYYY-MM-DD), 1801-2199")
    timezone: str | None = timezone_field("Asia/Shanghai")

    @field_validator("date")
    @classmethod
    def _supported_year(cls, value: dt.date) -> dt.date:
        if not MIN_BIRTH_YEAR <= value.year <= MAX_BIRTH_YEAR:
            raise ValueError(f"year must be between {MIN_BIRTH_YEAR} and {MAX_BIRTH_YEAR}")
        return value


class LuckOptions(BaseModel):
    """Options shared by BaZi and Saju: luck, annual pillars and the reference date."""

    gender: Gender | None = Field(
        default=None,
        description="Needed for luck pillars: forward for a yang-year male or a yin-year "
        "female, backward otherwise; without it there are none",
    )
    luck_pillar_count: int = Field(default=8, ge=1, le=12, description="Ten-year luck pillars")
    annual_from_year: int | None = Field(
        default=None,
        ge=MIN_BIRTH_YEAR,
        le=MAX_BIRTH_YEAR,
        description="First Gregorian year of annual pillars (each from its Lichun)",
    )
    annual_to_year: int | None = Field(
        default=None,
        ge=MIN_BIRTH_YEAR,
        le=MAX_BIRTH_YEAR,
        validate_default=True,
        description=f"Last year of annual pillars; at most {MAX_ANNUAL_YEARS} years in all",
    )
    reference_date: dt.date | None = Field(
        default=None,
        description="The luck pillar in force on this date is reported and read; "
        "default today (UTC)",
    )

    @field_validator("annual_to_year")
    @classmethod
    def _annual_range(cls, value: int | None, info: ValidationInfo) -> int | None:
        if "annual_from_year" not in info.data:
            return value  # annual_from_year itself was refused
        first = info.data["annual_from_year"]
        if (first is None) != (value is None):
            raise ValueError("give annual_from_year and annual_to_year together")
        if first is not None and value is not None:
            if value < first:
                raise ValueError("must not be before annual_from_year")
            if value - first + 1 > MAX_ANNUAL_YEARS:
                raise ValueError(f"at most {MAX_ANNUAL_YEARS} years of annual pillars")
        return value

    def annual_years(self) -> tuple[int, int] | None:
        if self.annual_from_year is None or self.annual_to_year is None:
            return None
        return self.annual_from_year, self.annual_to_year

    def reference(self) -> dt.date:
        return date_or_today(self.reference_date)


class BaziRequest(LuckOptions, SensitivityOptions):
    subject: ChineseBirthSubject
    day_boundary: DayBoundary = Field(
        default="zi", description="zi: the day changes at 23:00 (default); midnight: at 00:00"
    )
    solar_time: Literal["clock", "mean", "true"] = Field(
        default="clock",
        description="Time deciding day and hour: clock (civil, default), mean (local mean "
        "time) or true (apparent solar time)",
    )


class SajuRequest(LuckOptions, SensitivityOptions):
    subject: ChineseBirthSubject
    hour_basis: Literal["korean_almanac", "clock", "mean", "true"] = Field(
        default="korean_almanac",
        description=(
            "korean_almanac (default): the day and hour pillars are read on the 127.5 deg E "
            "meridian (UTC+8:30), so a birth at 00:10 KST (UTC+9) still has the previous "
            "day's day pillar; clock: the civil clock; mean or true: local solar time"
        ),
    )
    day_boundary: DayBoundary = Field(
        default="midnight",
        description="midnight: 야자시 separation (default); zi: the day changes at 23:00",
    )


class QimenRequest(SensitivityOptions):
    subject: ChineseBirthSubject
    method: Literal["chai_bu", "zhi_run"] = Field(
        default="chai_bu", description="Ju selection: chai_bu (拆补, default) or zhi_run (置闰)"
    )
    day_boundary: DayBoundary = Field(
        default="zi", description="zi: the day changes at 23:00 (default); midnight"
    )


class ChineseCalendarRequest(BaseModel):
    date: dt.date | None = Field(
        default=None,
        description="A Gregorian day (read in China), 1900-02-01 to 2100-12-31 -> its Chinese date",
    )
    year: int | None = Field(
        default=None,
        ge=1900,
        le=2100,
        validate_default=True,
        description="A year -> its 24 solar terms and the months of the lunar year",
    )

    @field_validator("year")
    @classmethod
    def _date_or_year(cls, value: int | None, info: ValidationInfo) -> int | None:
        if "date" not in info.data:
            return value  # date itself was refused
        if (info.data["date"] is None) == (value is None):
            raise ValueError("give exactly one of date and year")
        return value


class BaziResult(msgspec.Struct, frozen=True):
    """A BaZi chart and its readings (English and Thai)."""

    chart: BaziChart
    readings: tuple[Reading, ...]


class SajuResult(msgspec.Struct, frozen=True):
    """A Korean Saju chart (the BaZi chart under ``chart.bazi``) and its readings."""

    chart: SajuChart
    readings: tuple[Reading, ...]


class QimenResult(msgspec.Struct, frozen=True):
    """The resolved moment (``latitude``/``longitude`` as given) and the Qi Men chart."""

    moment: BirthMoment
    chart: QimenChart


class CalendarResult(msgspec.Struct, frozen=True):
    """``mode`` date: ``chinese_date``; ``mode`` year: ``solar_terms`` and ``lunar_months``."""

    mode: Literal["date", "year"]
    chinese_date: ChineseDate | None
    year: int | None
    solar_terms: tuple[SolarTerm, ...]
    lunar_months: tuple[LunarMonth, ...]


def _bazi_sensitivity(data: BaziRequest, minutes: float) -> Sensitivity:
    subject = data.subject
    return bazi_sensitivity(
        subject.date,
        subject.local_time(),
        **subject.zone_inputs(),
        day_boundary=data.day_boundary,
        solar_time=data.solar_time,
        uncertainty_minutes=minutes,
    )


@route(
    "POST /api/v3/chinese/bazi",
    "chineseBazi",
    price="chinese.bazi",
    body=BaziRequest,
    result=BaziResult,
    sensitivity=_bazi_sensitivity,
    names_subject=True,
)
def chinese_bazi(data: BaziRequest) -> BaziResult:
    """BaZi: four pillars with hidden stems, ten gods, na yin, life stages; element balance,
    day-master strength, favourable elements; luck and annual pillars; en/th readings.
    ``sensitivity`` (``{"uncertainty_minutes": 0..720}``) adds how close the hour, day and
    month pillars are to changing, charged as ``chinese.bazi.sensitivity`` (+1 credit)."""
    subject = data.subject
    chart = bazi_chart(
        subject.date,
        subject.local_time(),
        **subject.zone_inputs(),
        gender=data.gender,
        day_boundary=data.day_boundary,
        solar_time=data.solar_time,
        luck_pillar_count=data.luck_pillar_count,
        annual_years=data.annual_years(),
        reference_date=data.reference(),
    )
    return BaziResult(chart, bazi_readings(chart))


def _qimen_sensitivity(data: QimenRequest, minutes: float) -> Sensitivity:
    subject = data.subject
    return qimen_sensitivity(
        subject.date,
        subject.local_time(),
        latitude=subject.latitude,
        longitude=subject.longitude,
        offset_minutes=subject.resolve().offset_minutes,
        method=data.method,
        day_boundary=data.day_boundary,
        uncertainty_minutes=minutes,
    )


@route(
    "POST /api/v3/chinese/qimen",
    "chineseQimen",
    price="chinese.qimen",
    body=QimenRequest,
    result=QimenResult,
    sensitivity=_qimen_sensitivity,
    names_subject=True,
)
def chinese_qimen(data: QimenRequest) -> QimenResult:
    """Qi Men Dun Jia hourly chart (rotating plate): term, yuan, dun and ju; nine palaces with
    heaven and earth stems, star, door and deity; chief star and door; void and horse.
    ``sensitivity`` adds how close the chart's ju is to changing, charged as
    ``chinese.qimen.sensitivity`` (+1 credit)."""
    subject = data.subject
    resolved = subject.resolve()
    # The offset just resolved, so the chart and the echoed moment are the same instant.
    chart = qimen_chart(
        subject.date,
        subject.local_time(),
        latitude=subject.latitude,
        longitude=subject.longitude,
        offset_minutes=resolved.offset_minutes,
        method=data.method,
        day_boundary=data.day_boundary,
    )
    moment = BirthMoment(
        resolved.local,
        resolved.utc,
        resolved.offset_minutes,
        resolved.timezone,
        resolved.source,
        subject.latitude,
        subject.longitude,
    )
    return QimenResult(moment, chart)


@route(
    "POST /api/v3/chinese/calendar",
    "chineseCalendar",
    price="chinese.calendar",
    body=ChineseCalendarRequest,
    result=CalendarResult,
)
def chinese_calendar(data: ChineseCalendarRequest) -> CalendarResult:
    """A Gregorian date's Chinese date, or a year's 24 solar terms and lunar months."""
    if data.year is not None:
        year = data.year
        return CalendarResult("year", None, year, solar_terms(year), lunar_year_months(year))
    assert data.date is not None  # the request model takes exactly one of the two
    return CalendarResult("date", chinese_date(data.date), None, (), ())


def _saju_sensitivity(data: SajuRequest, minutes: float) -> Sensitivity:
    subject = data.subject
    return saju_sensitivity(
        subject.date,
        subject.local_time(),
        **subject.zone_inputs(),
        hour_basis=data.hour_basis,
        day_boundary=data.day_boundary,
        uncertainty_minutes=minutes,
    )


@route(
    "POST /api/v3/korean/saju",
    "koreanSaju",
    price="korean.saju",
    body=SajuRequest,
    result=SajuResult,
    sensitivity=_saju_sensitivity,
    names_subject=True,
)
def korean_saju_chart(data: SajuRequest) -> SajuResult:
    """Korean Saju: the BaZi chart with hangul and hanja, Korea's historical meridians and
    daylight saving, the almanac's hours; en/th readings. ``sensitivity`` adds how close the
    pillars are to changing, charged as ``korean.saju.sensitivity`` (+1 credit)."""
    subject = data.subject
    chart = korean_saju(
        subject.date,
        subject.local_time(),
        **subject.zone_inputs(),
        gender=data.gender,
        hour_basis=data.hour_basis,
        day_boundary=data.day_boundary,
        luck_pillar_count=data.luck_pillar_count,
        annual_years=data.annual_years(),
        reference_date=data.reference(),
    )
    return SajuResult(chart, bazi_readings(chart.bazi))
