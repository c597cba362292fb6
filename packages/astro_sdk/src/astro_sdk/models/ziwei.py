"""Models of Zi Wei Dou Shu (``/api/v3/chinese/ziwei`` and its picture ``.../ziwei/chart``, tag
group Chinese & Korean).

Requests mirror the server's bodies field by field: the birth ``subject`` (dates 1900-02-01 to
2100-12-30) or ``{"profile_id": ...}``, ``gender`` (required), ``on_date`` (not before the
birth), ``language`` (``en``, ``th``, ``zh`` = ``zh-Hans``, ``zh-Hant``), ``late_zi``,
``leap_month`` and ``sensitivity``; the picture adds the picture options. Names in answers are
pinyin keys (``ziwei``, ``zuofu``, ``life``, ``jia``, ``zi``), each with a ``label`` in the asked
language; enumerations are read as plain strings (their values are listed on each field).
Readings and the ``disclaimer`` are English or Thai: for ``zh`` they are English (each reading
says its ``language``).
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import Field, ValidationInfo, field_validator

from astro_sdk.models._base import RequestModel, ResponseModel
from astro_sdk.models.pictures import PictureOptions
from astro_sdk.models.profiles import (
    ProfileReference,
    ReferenceShape,
    SubjectOrReference,
    SubjectShape,
)
from astro_sdk.models.sensitivity import Sensitivity, SensitivityOptions

__all__ = [
    "FiveElementsClass",
    "HoroscopePalace",
    "HoroscopeTransformation",
    "LateZi",
    "LeapMonth",
    "LunarDate",
    "ZiweiBirthSubject",
    "ZiweiChartRequest",
    "ZiweiDecadalRange",
    "ZiweiDisclaimer",
    "ZiweiGender",
    "ZiweiHoroscope",
    "ZiweiLanguage",
    "ZiweiPalace",
    "ZiweiReading",
    "ZiweiRequest",
    "ZiweiResult",
    "ZiweiStar",
]

_TIME_PATTERN = r"^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$"
MIN_DATE = dt.date(1900, 2, 1)
MAX_DATE = dt.date(2100, 12, 30)

ZiweiGender = Literal["male", "female"]
ZiweiLanguage = Literal["en", "th", "zh", "zh-Hans", "zh-Hant"]
LateZi = Literal["next_day_stars", "same_day"]
LeapMonth = Literal["split", "same"]


def _in_span(value: dt.date | None) -> dt.date | None:
    if value is not None and not MIN_DATE <= value <= MAX_DATE:
        raise ValueError(f"must be between {MIN_DATE} and {MAX_DATE}")
    return value


# --- requests ------------------------------------------------------------------------------------


class ZiweiBirthSubject(RequestModel):
    """A birth: local date and clock time at a place. The chart reads the local clock; the place
    and zone check that the time existed and give the sensitivity's UTC instants (with neither
    offset nor zone the server finds the zone from the coordinates)."""

    date: dt.date
    """Local date, 1900-02-01 to 2100-12-30."""
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

    _span = field_validator("date")(_in_span)


ZiweiSubjectOrReference = Annotated[
    Annotated[ZiweiBirthSubject, SubjectShape] | Annotated[ProfileReference, ReferenceShape],
    SubjectOrReference,
]
"""A ZiweiBirthSubject or ``{"profile_id": "prof_..."}`` (a stored client profile's birth)."""


class ZiweiFields(RequestModel):
    """What the chart and its picture requests share."""

    subject: ZiweiSubjectOrReference
    gender: ZiweiGender
    """Decadal ranges run forward for a yang-year man or a yin-year woman."""
    on_date: dt.date | None = None
    """Adds the decadal, yearly and monthly horoscopes in force that day (not before birth)."""
    language: ZiweiLanguage = "en"
    """Names and labels: ``en``, ``th``, ``zh`` (= ``zh-Hans``) or ``zh-Hant``."""
    late_zi: LateZi = "next_day_stars"
    """A 23:00-24:00 birth: ``next_day_stars`` (iztro) or ``same_day``."""
    leap_month: LeapMonth = "split"
    """A leap month: ``split`` at its 15th (iztro) or ``same`` throughout."""

    _on_date_span = field_validator("on_date")(_in_span)

    @field_validator("on_date")
    @classmethod
    def _not_before_birth(cls, value: dt.date | None, info: ValidationInfo) -> dt.date | None:
        subject = info.data.get("subject")
        if value is not None and isinstance(subject, ZiweiBirthSubject) and value < subject.date:
            raise ValueError("must not be before the birth date (subject.date)")
        return value


class ZiweiRequest(ZiweiFields, SensitivityOptions):
    pass


class ZiweiChartRequest(ZiweiFields, PictureOptions):
    language: ZiweiLanguage = "en"  # type: ignore[assignment]
    """Labels: ``en``, ``th``, ``zh`` (= ``zh-Hans``) or ``zh-Hant``."""


# --- answers -------------------------------------------------------------------------------------


class LunarDate(ResponseModel):
    year: int
    month: int
    day: int
    leap: bool
    label: str


class FiveElementsClass(ResponseModel):
    element: str
    """wood, fire, earth, metal or water."""
    number: int
    """2 (water) to 6 (fire)."""
    label: str


class ZiweiStar(ResponseModel):
    name: str
    """iztro's key without its suffix: ziwei, tianji, zuofu, wenchang, lucun, hongluan ..."""
    label: str
    brightness: str | None
    """miao, wang, de, li, ping, bu or xian (majors and six minors only)."""
    transformation: str | None
    """lu, quan, ke or ji (the birth year's)."""
    brightness_label: str | None = None
    transformation_label: str | None = None


class ZiweiDecadalRange(ResponseModel):
    start_age: int
    """Nominal age (虚岁)."""
    end_age: int


class ZiweiPalace(ResponseModel):
    name: str
    """life, siblings, spouse, children, wealth, health, travel, friends, career, property,
    fortune or parents."""
    label: str
    stem: str
    """jia .. gui."""
    branch: str
    """zi .. hai."""
    stem_label: str
    branch_label: str
    is_body_palace: bool
    major_stars: list[ZiweiStar]
    minor_stars: list[ZiweiStar]
    adjective_stars: list[ZiweiStar]
    decadal: ZiweiDecadalRange


class HoroscopeTransformation(ResponseModel):
    transformation: str
    star: str
    star_label: str
    natal_palace: str
    """The natal palace holding the star."""


class HoroscopePalace(ResponseModel):
    scope: str
    """decadal, childhood, yearly or monthly."""
    label: str
    palace_branch: str
    natal_palace: str
    stem: str
    branch: str
    palace_names: list[str]
    """By branch zi .. hai: the horoscope's palace there."""
    transformations: list[HoroscopeTransformation]
    start_age: int | None = None
    end_age: int | None = None


class ZiweiHoroscope(ResponseModel):
    on_date: dt.date
    lunar_date: LunarDate
    nominal_age: int
    decadal: HoroscopePalace | None
    yearly: HoroscopePalace
    monthly: HoroscopePalace


class ZiweiReading(ResponseModel):
    topic: str
    """life_palace, transformation or body_palace."""
    key: str
    language: str
    """en or th: the text's language (English for a zh chart)."""
    text: str


class ZiweiDisclaimer(ResponseModel):
    code: str
    """``ziwei``."""
    text: str
    """In the readings' language."""


class ZiweiResult(ResponseModel):
    """``POST /api/v3/chinese/ziwei``."""

    birth_date: dt.date
    birth_time: dt.time
    gender: str
    language: str
    lunar_date: LunarDate
    year_stem: str
    year_branch: str
    hour_index: int
    """0 early Zi (00:00-01:00) .. 12 late Zi (23:00-24:00), as iztro counts."""
    hour_branch: str
    hour_branch_label: str
    five_elements_class: FiveElementsClass
    soul_star: str
    soul_star_label: str
    body_star: str
    body_star_label: str
    life_palace_branch: str
    body_palace_branch: str
    palaces: list[ZiweiPalace]
    """Life first, then siblings .. parents."""
    horoscope: ZiweiHoroscope | None
    """With ``on_date``: the decadal, yearly and monthly horoscopes."""
    conventions: list[str]
    readings: list[ZiweiReading]
    disclaimer: ZiweiDisclaimer
    sensitivity: Sensitivity | None = None
    """The hour branch's and life and body palaces' birth-time sensitivity, when asked for."""
