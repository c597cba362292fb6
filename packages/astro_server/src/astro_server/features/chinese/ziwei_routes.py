"""Zi Wei Dou Shu (紫微斗數) in the Chinese & Korean tag group: the chart and its picture.

* ``POST /api/v3/chinese/ziwei``: the chart of :func:`astro_calc.chinese.ziwei_chart` with its
  field names at the top level (DESIGN.md "Zi Wei Dou Shu": ``lunar_date``, ``hour_branch``,
  ``five_elements_class``, ``soul_star``, ``body_star``, ``life_palace_branch``,
  ``body_palace_branch``, ``palaces``, and ``horoscope`` with ``on_date``), plus ``readings``
  (:func:`astro_calc.chinese.ziwei_readings`: the life palace's major stars, the four birth-year
  transformations, the body palace) as ``{topic, key, language, text}`` in the asked language.
  There are English and Thai texts only: for ``zh`` the names and labels are in Chinese
  characters and the readings in English (each says ``"language": "en"``). ``disclaimer``
  (``{code: "ziwei", text}``, astro_calc's disclaimer data) is in the readings' language.
  ``sensitivity`` (``{"uncertainty_minutes": 0..720}``) adds how close the hour branch and the
  life and body palaces are to changing (``chinese.ziwei.sensitivity``, +1 credit).
* ``POST /api/v3/chinese/ziwei/chart``: the 4x4 square chart as SVG or PNG; the labels in the
  chart's language, Chinese from the bundled CJK subset (the PNG gets that font too).

Conventions (iztro 2.6's defaults, each other school's choice an option): the local clock time
of the birth decides the hour, with no solar-time correction (``late_zi``: ``next_day_stars``
keeps the day's lunar date for a 23:00-24:00 birth but places Zi Wei and the day stars with the
next lunar day; ``same_day`` uses the birth day for all); ``leap_month``: ``split`` counts a
leap month as the next month from its 16th day, ``same`` keeps its number throughout. The
subject's place and zone are not needed by the chart itself (it reads the local clock); they
check that the local time existed (a time skipped by daylight saving is a 400 naming
``subject.time``) and give the UTC instants of the sensitivity answer. Birth dates and
``on_date`` 1900-02-01..2100-12-30 (our Chinese calendar's span), ``on_date`` not before the
birth.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

import msgspec
from pydantic import BaseModel, Field, ValidationInfo, field_validator
from quart import Blueprint

from astro_calc.chinese import ZiweiChart, ziwei_chart, ziwei_readings
from astro_calc.chinese.ziwei import MAX_DATE, MIN_DATE
from astro_calc.disclaimers import DisclaimerNote, disclaimer_for
from astro_calc.sensitivity import Sensitivity
from astro_calc.sensitivity.ziwei import ziwei_sensitivity
from astro_server.drawing.ziwei import ziwei_chart_svg
from astro_server.features.common.calculation import calculations
from astro_server.features.common.pictures import PictureOptions
from astro_server.features.common.sensitivity import SensitivityOptions
from astro_server.features.common.subject import BirthSubject, timezone_field

blueprint = Blueprint("chinese_ziwei", __name__)
TAG = ["Chinese & Korean"]
DOCS_PREFIX = "Chinese"  # the tag group's prefix: the chart's struct names are generic
route = calculations(blueprint, tags=TAG, docs_prefix=DOCS_PREFIX)

Gender = Literal["male", "female"]
ZiweiLanguage = Literal["en", "th", "zh", "zh-Hans", "zh-Hant"]
LateZi = Literal["next_day_stars", "same_day"]
LeapMonth = Literal["split", "same"]
ReadingLanguage = Literal["en", "th"]
SPAN_TEXT = f"{MIN_DATE.isoformat()} and {MAX_DATE.isoformat()}"


def _in_calendar_span(value: dt.date | None) -> dt.date | None:
    if value is not None and not MIN_DATE <= value <= MAX_DATE:
        raise ValueError(f"must be between {SPAN_TEXT} (the Chinese calendar's span)")
    return value


class ZiweiBirthSubject(BirthSubject):
    date: dt.date = Field(
        description=f"Local calendar date of birth (YYYY-MM-DD), {SPAN_TEXT}",
    )
    timezone: str | None = timezone_field("Asia/Shanghai")

    _span = field_validator("date")(_in_calendar_span)


class ZiweiOptions(BaseModel):
    """What the chart and its picture share."""

    subject: ZiweiBirthSubject
    gender: Gender = Field(
        description="male or female: the decadal ranges run forward for a yang-year man or a "
        "yin-year woman, backward otherwise"
    )
    on_date: dt.date | None = Field(
        default=None,
        description=f"Adds the decadal, yearly and monthly horoscopes in force on this date "
        f"({SPAN_TEXT}, not before the birth date)",
    )
    language: ZiweiLanguage = Field(
        default="en",
        description="Names and labels: en (pinyin names with English glosses), th, zh (= "
        "zh-Hans, simplified characters) or zh-Hant (traditional). Readings are English or "
        "Thai: zh answers them in English",
    )
    late_zi: LateZi = Field(
        default="next_day_stars",
        description="A birth at 23:00-24:00 (late Zi): next_day_stars (default, iztro) keeps "
        "the day's lunar date but places Zi Wei and the day stars with the next lunar day; "
        "same_day places them with the birth day",
    )
    leap_month: LeapMonth = Field(
        default="split",
        description="A leap month: split (default) counts it as the next month from its 16th "
        "day; same counts all of it as its own number",
    )

    _on_date_span = field_validator("on_date")(_in_calendar_span)

    @field_validator("on_date")
    @classmethod
    def _not_before_birth(cls, value: dt.date | None, info: ValidationInfo) -> dt.date | None:
        subject = info.data.get("subject")
        if value is not None and subject is not None and value < subject.date:
            raise ValueError("must not be before the birth date (subject.date)")
        return value

    def chart(self) -> ZiweiChart:
        """The chart; the subject's local time is checked against its zone first (a time a
        daylight-saving change skipped is refused, named ``subject.time``)."""
        self.subject.resolve()
        return ziwei_chart(
            self.subject.date,
            self.subject.local_time(),
            self.gender,
            on_date=self.on_date,
            language=self.language,
            late_zi=self.late_zi,
            leap_month=self.leap_month,
        )


class ZiweiRequest(ZiweiOptions, SensitivityOptions):
    pass


class ZiweiPictureRequest(ZiweiOptions, PictureOptions):
    language: ZiweiLanguage = Field(  # type: ignore[assignment]
        default="en",
        description="Labels: en, th, zh (= zh-Hans, simplified) or zh-Hant (traditional)",
    )


class ZiweiReadingText(msgspec.Struct, frozen=True):
    """One reading: ``topic`` life_palace (one per major star there, or the empty palace),
    transformation (one per birth-year transformation) or body_palace; ``key`` names the text
    (``life.ziwei``, ``transformation.lu.<star>.<palace>``, ``body.<palace>``)."""

    topic: Literal["life_palace", "transformation", "body_palace"]
    key: str
    language: ReadingLanguage
    text: str


class ZiweiResult(ZiweiChart, frozen=True):
    """The Zi Wei Dou Shu chart (names as pinyin keys, each with its ``label`` in the asked
    language), its readings and the disclaimer in the asked language (English for zh)."""

    readings: tuple[ZiweiReadingText, ...]
    disclaimer: DisclaimerNote


def reading_language(language: str) -> ReadingLanguage:
    """The language of the readings for a chart language: Thai for th, else English."""
    return "th" if language == "th" else "en"


def ziwei_result(chart: ZiweiChart) -> ZiweiResult:
    """The chart with its readings in the chart's language."""
    language = reading_language(chart.language)
    readings = tuple(
        ZiweiReadingText(r.topic, r.key, language, r.th if language == "th" else r.en)
        for r in ziwei_readings(chart)
    )
    fields = {name: getattr(chart, name) for name in chart.__struct_fields__}
    return ZiweiResult(**fields, readings=readings, disclaimer=disclaimer_for("ziwei", language))


def _ziwei_sensitivity(data: ZiweiRequest, minutes: float) -> Sensitivity:
    subject = data.subject
    return ziwei_sensitivity(
        subject.date,
        subject.local_time(),
        data.gender,
        **subject.zone_inputs(),
        late_zi=data.late_zi,
        leap_month=data.leap_month,
        uncertainty_minutes=minutes,
    )


@route(
    "POST /api/v3/chinese/ziwei",
    "chineseZiwei",
    price="chinese.ziwei",
    body=ZiweiRequest,
    result=ZiweiResult,
    sensitivity=_ziwei_sensitivity,
    names_subject=True,
)
def chinese_ziwei(data: ZiweiRequest) -> ZiweiResult:
    """Zi Wei Dou Shu: the lunar date and hour, the twelve palaces with their stems, the
    five-elements class, the 14 major, 14 minor and 38 adjective stars with brightness and the
    birth-year transformations, the decadal ranges, the soul and body stars; with ``on_date``
    the decadal, yearly and monthly horoscopes; readings and a disclaimer en/th. Names in en,
    th or Chinese (zh/zh-Hans simplified, zh-Hant traditional). ``sensitivity`` adds how close
    the hour and the life and body palaces are to changing, charged as
    ``chinese.ziwei.sensitivity`` (+1 credit)."""
    return ziwei_result(data.chart())


@route(
    "POST /api/v3/chinese/ziwei/chart",
    "chineseZiweiChart",
    picture=True,
    price="chinese.ziwei_chart",
    body=ZiweiPictureRequest,
    names_subject=True,
)
def chinese_ziwei_chart(data: ZiweiPictureRequest) -> str:
    """The Zi Wei Dou Shu chart as the classic 4x4 square (SVG, or PNG with ``format``): the
    twelve palaces around the centre block (birth data, lunar date, class, soul and body
    stars), stars with brightness and transformation marks; with ``on_date`` the horoscope
    palaces are tagged. Labels in en, th or Chinese characters."""
    return ziwei_chart_svg(
        data.chart(),
        theme=data.theme,
        colors=data.colors.given() if data.colors else None,
        size_px=data.size_px,
    )
