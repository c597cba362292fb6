"""Models of the Chinese & Korean tag group: BaZi, Qi Men Dun Jia and the Chinese calendar
(``/api/v3/chinese/...``); Korean Saju, which reuses the BaZi chart, is in
:mod:`astro_sdk.models.korean`.

Requests mirror the server's bodies field by field (names, required flags, bounds, and the
cross-field rules: annual years together and at most 120 of them; exactly one of ``date`` and
``year``). Responses mirror the documented result shapes; enumerations are read as plain strings
(their values are listed on each field) so a value added later breaks nothing. Every symbol
carries its simplified Chinese ``character``, ``pinyin``, Korean ``hanja`` and ``hangul``.
Times are UTC unless named ``local``.
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
    "AnnualPillar",
    "BaziChart",
    "BaziRequest",
    "BaziResult",
    "BirthMoment",
    "Branch",
    "CalendarResult",
    "ChineseBirthSubject",
    "ChineseCalendarRequest",
    "ChineseDate",
    "DayBoundary",
    "DayMasterStrength",
    "ElementBalance",
    "ElementScore",
    "FourPillars",
    "Gender",
    "HiddenStem",
    "LuckOptions",
    "LuckPillar",
    "LuckPillars",
    "LuckStart",
    "LunarMonth",
    "NaYin",
    "NamedSymbol",
    "Palace",
    "Pillar",
    "PillarTime",
    "QimenChart",
    "QimenChief",
    "QimenMethod",
    "QimenRequest",
    "QimenResult",
    "QimenSymbol",
    "Reading",
    "SolarTerm",
    "SolarTime",
    "Stem",
    "StrengthFactor",
    "TenGodWeight",
]

_TIME_PATTERN = r"^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$"
MIN_BIRTH_YEAR = 1801
MAX_BIRTH_YEAR = 2199
MAX_ANNUAL_YEARS = 120

Gender = Literal["male", "female"]
DayBoundary = Literal["zi", "midnight"]
SolarTime = Literal["clock", "mean", "true"]
QimenMethod = Literal["chai_bu", "zhi_run"]


# --- requests ------------------------------------------------------------------------------------


class ChineseBirthSubject(RequestModel):
    """A birth (or, for Qi Men, the moment asked about): local date and time at a place; with
    neither offset nor zone the server finds the zone from the coordinates and applies its
    historical offset."""

    date: dt.date
    """Local date, years 1801 to 2199."""
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
    """Offset east of UTC; wins over ``timezone`` when both are given."""
    timezone: str | None = Field(default=None, max_length=64)
    """IANA zone, e.g. ``Asia/Shanghai``."""

    @field_validator("date")
    @classmethod
    def _supported_year(cls, value: dt.date) -> dt.date:
        if not MIN_BIRTH_YEAR <= value.year <= MAX_BIRTH_YEAR:
            raise ValueError(f"year must be between {MIN_BIRTH_YEAR} and {MAX_BIRTH_YEAR}")
        return value


ChineseBirthSubjectOrReference = Annotated[
    Annotated[ChineseBirthSubject, SubjectShape] | Annotated[ProfileReference, ReferenceShape],
    SubjectOrReference,
]
"""A ChineseBirthSubject or ``{"profile_id": "prof_..."}`` (a stored client profile's birth)."""


class LuckOptions(RequestModel):
    """Luck pillars, annual pillars and the reference date (BaZi and Saju)."""

    gender: Gender | None = None
    """Needed for luck pillars; without it ``chart.luck`` is null."""
    luck_pillar_count: int = Field(default=8, ge=1, le=12)
    annual_from_year: int | None = Field(default=None, ge=MIN_BIRTH_YEAR, le=MAX_BIRTH_YEAR)
    annual_to_year: int | None = Field(
        default=None, ge=MIN_BIRTH_YEAR, le=MAX_BIRTH_YEAR, validate_default=True
    )
    """With ``annual_from_year``: annual pillars for at most 120 years."""
    reference_date: dt.date | None = None
    """The luck pillar in force on this date is reported and read (server default: today)."""

    @field_validator("annual_to_year")
    @classmethod
    def _annual_range(cls, value: int | None, info: ValidationInfo) -> int | None:
        if "annual_from_year" not in info.data:
            return value
        first = info.data["annual_from_year"]
        if (first is None) != (value is None):
            raise ValueError("give annual_from_year and annual_to_year together")
        if first is not None and value is not None:
            if value < first:
                raise ValueError("must not be before annual_from_year")
            if value - first + 1 > MAX_ANNUAL_YEARS:
                raise ValueError(f"at most {MAX_ANNUAL_YEARS} years of annual pillars")
        return value


class BaziRequest(LuckOptions, SensitivityOptions):
    subject: ChineseBirthSubjectOrReference
    day_boundary: DayBoundary = "zi"
    """``zi``: the day changes at 23:00 (default); ``midnight``: at 00:00."""
    solar_time: SolarTime = "clock"
    """The time deciding day and hour: civil ``clock``, local ``mean`` or ``true`` solar time."""


class QimenRequest(SensitivityOptions):
    subject: ChineseBirthSubjectOrReference
    method: QimenMethod = "chai_bu"
    day_boundary: DayBoundary = "zi"


class ChineseCalendarRequest(RequestModel):
    """Exactly one of ``date`` (1900-02-01 to 2100-12-31) and ``year`` (1900 to 2100)."""

    date: dt.date | None = None
    year: int | None = Field(default=None, ge=1900, le=2100, validate_default=True)

    @field_validator("year")
    @classmethod
    def _date_or_year(cls, value: int | None, info: ValidationInfo) -> int | None:
        if "date" not in info.data:
            return value
        if (info.data["date"] is None) == (value is None):
            raise ValueError("give exactly one of date and year")
        return value


# --- symbols -------------------------------------------------------------------------------------


class Stem(ResponseModel):
    """A heavenly stem: ``index`` 0 (甲) to 9 (癸)."""

    index: int
    character: str
    pinyin: str
    hanja: str
    hangul: str
    romanized: str
    element: str
    """wood, fire, earth, metal or water."""
    polarity: str
    """yang or yin."""


class Branch(ResponseModel):
    """An earthly branch: ``index`` 0 (子) to 11 (亥)."""

    index: int
    character: str
    pinyin: str
    hanja: str
    hangul: str
    romanized: str
    element: str
    polarity: str
    animal: str


class NamedSymbol(ResponseModel):
    """An item of a fixed list: a ten god, a life stage."""

    index: int
    key: str
    character: str
    pinyin: str
    hanja: str
    hangul: str
    english: str


class NaYin(ResponseModel):
    """The na yin (纳音) sound element of a pair of the sexagenary cycle (``index`` 0..29)."""

    index: int
    key: str
    character: str
    pinyin: str
    hanja: str
    hangul: str
    english: str
    element: str


class SolarTerm(ResponseModel):
    """One of the 24 solar terms: ``index`` 0 (小寒) to 23 (冬至) within a Gregorian year."""

    index: int
    key: str
    character: str
    pinyin: str
    hanja: str
    hangul: str
    english: str
    longitude_deg: int
    """The Sun's apparent longitude at the term."""
    is_jie: bool
    """A month-opening term (节) rather than a major term (中气)."""
    jd_ut: float
    utc: dt.datetime
    """The instant, to the second."""


# --- BaZi ----------------------------------------------------------------------------------------


class BirthMoment(ResponseModel):
    """The resolved moment: UTC instant, local time and the offset used."""

    local: dt.datetime
    utc: dt.datetime
    offset_minutes: int
    timezone: str | None
    time_source: str
    """offset, timezone or coordinates: how the offset was found."""
    latitude: float
    longitude: float


class PillarTime(ResponseModel):
    """The clock reading that decided the day and hour pillars."""

    mode: str
    """clock, mean, true or korean_almanac."""
    local: dt.datetime
    correction_minutes: float
    """Pillar time minus civil clock time."""
    equation_of_time_minutes: float
    day_boundary: str


class HiddenStem(ResponseModel):
    stem: Stem
    role: str
    """principal, middle or residual."""
    weight: float
    """Share of the branch's 1.0 in the element balance (before the month's doubling)."""
    ten_god: NamedSymbol


class Pillar(ResponseModel):
    cycle_index: int
    """0 = 甲子 ... 59 = 癸亥."""
    ganzhi: str
    stem: Stem
    branch: Branch
    na_yin: NaYin
    hidden_stems: list[HiddenStem]
    stem_ten_god: NamedSymbol | None
    """None for the day pillar, whose stem is the day master."""
    life_stage: NamedSymbol
    """The day master's twelve-stage position in this branch."""
    self_life_stage: NamedSymbol
    is_void: bool


class FourPillars(ResponseModel):
    year: Pillar
    month: Pillar
    day: Pillar
    hour: Pillar


class ElementScore(ResponseModel):
    element: str
    score: float
    percent: float
    visible_stems: int


class ElementBalance(ResponseModel):
    weighting: str
    """The weighting used, stated in words."""
    total: float
    scores: list[ElementScore]
    dominant: str
    weakest: str
    missing: list[str]


class StrengthFactor(ResponseModel):
    key: str
    """season, roots, stem_support or balance."""
    supports: bool
    detail: str


class DayMasterStrength(ResponseModel):
    verdict: str
    """strong, balanced or weak."""
    support_percent: float
    method: str
    factors: list[StrengthFactor]


class TenGodWeight(ResponseModel):
    ten_god: NamedSymbol
    weight: float


class LuckStart(ResponseModel):
    rule: str
    direction: str
    """forward or backward."""
    reference_jie: SolarTerm
    minutes_to_jie: int
    years: int
    months: int
    days: int
    age_years: float
    start_date: dt.date


class LuckPillar(ResponseModel):
    number: int
    pillar: Pillar
    start_age_years: float
    start_date: dt.date
    start_year: int
    end_year: int


class LuckPillars(ResponseModel):
    start: LuckStart
    pillars: list[LuckPillar]


class AnnualPillar(ResponseModel):
    year: int
    pillar: Pillar
    age: int
    luck_pillar_number: int | None


class BaziChart(ResponseModel):
    birth: BirthMoment
    pillar_time: PillarTime
    pillars: FourPillars
    day_master: Stem
    bazi_year: int
    """The Gregorian year whose Lichun began the year pillar."""
    previous_jie: SolarTerm
    next_jie: SolarTerm
    void_branches: tuple[Branch, Branch]
    element_balance: ElementBalance
    strength: DayMasterStrength
    favourable_elements: list[str]
    unfavourable_elements: list[str]
    ten_gods: list[TenGodWeight]
    """Heaviest first."""
    gender: str | None
    luck: LuckPillars | None
    """None without a gender."""
    annual_pillars: list[AnnualPillar]
    current_luck_pillar: LuckPillar | None
    reference_date: dt.date | None


class Reading(ResponseModel):
    """One interpretation in English and Thai."""

    topic: str
    """day_master, strength, element_balance, ten_god_emphasis or luck_pillar."""
    key: str
    en: str
    th: str


class BaziResult(ResponseModel):
    """``POST /api/v3/chinese/bazi``."""

    chart: BaziChart
    readings: list[Reading]
    sensitivity: Sensitivity | None = None
    """The pillars' birth-time sensitivity, when asked for (``None`` without the option)."""


# --- Qi Men Dun Jia ------------------------------------------------------------------------------


class QimenSymbol(ResponseModel):
    """A star, door or deity."""

    key: str
    character: str
    pinyin: str
    english: str


class QimenChief(ResponseModel):
    star: QimenSymbol
    door: QimenSymbol
    home_palace: int
    star_palace: int
    door_palace: int


class Palace(ResponseModel):
    number: int
    """Lo Shu number 1..9 (5 is the centre)."""
    trigram: str | None
    direction: str
    element: str
    earth_stem: Stem
    earth_stem_hosted: Stem | None
    heaven_stems: list[Stem]
    stars: list[QimenSymbol]
    door: QimenSymbol | None
    deity: QimenSymbol | None
    is_void: bool
    is_horse: bool


class QimenChart(ResponseModel):
    local: dt.datetime
    utc: dt.datetime
    method: str
    day_boundary: str
    pillars: tuple[str, str, str, str]
    """Year, month, day and hour ganzhi."""
    solar_term: SolarTerm
    ju_solar_term: SolarTerm
    yuan: str
    """upper, middle or lower."""
    dun: str
    """yang or yin."""
    ju: int
    fu_tou: str
    xun_head: str
    xun_hidden_stem: Stem
    chief: QimenChief
    void_branches: tuple[Branch, Branch]
    day_void_branches: tuple[Branch, Branch]
    horse_star: Branch
    horse_palace: int
    palaces: list[Palace]
    """Palaces 1 to 9 in order."""


class QimenResult(ResponseModel):
    """``POST /api/v3/chinese/qimen``."""

    moment: BirthMoment
    chart: QimenChart
    sensitivity: Sensitivity | None = None
    """The ju's birth-time sensitivity, when asked for (``None`` without the option)."""


# --- calendar ------------------------------------------------------------------------------------


class ChineseDate(ResponseModel):
    gregorian: dt.date
    lunar_year: int
    month: int
    day: int
    is_leap_month: bool
    month_days: int
    year_ganzhi: str
    zodiac_animal: str
    label: str
    """e.g. 甲辰年正月初一."""


class LunarMonth(ResponseModel):
    lunar_year: int
    month: int
    is_leap: bool
    first_day: dt.date
    days: int
    new_moon_jd_ut: float


class CalendarResult(ResponseModel):
    """``POST /api/v3/chinese/calendar``: ``mode`` date fills ``chinese_date``; ``mode`` year
    fills ``year``, ``solar_terms`` (the Gregorian year's 24) and ``lunar_months``."""

    mode: str
    chinese_date: ChineseDate | None
    year: int | None
    solar_terms: list[SolarTerm]
    lunar_months: list[LunarMonth]
