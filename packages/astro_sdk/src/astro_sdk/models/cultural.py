"""Models of the Cultural Intelligence tag group (``/api/v3/cultural/...``).

The request bodies mirror the server's field by field (the drift test checks names, bounds and
required flags); the responses mirror the documented result shapes. Enumerations in responses are
read as plain strings, their values listed on each field, so a value added later breaks nothing.
Texts are in the requested language (``en`` or ``th``); instants carry their offset.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from astro_sdk.models._base import RequestModel, ResponseModel

__all__ = [
    "BestDates",
    "BestDatesRequest",
    "ChineseDay",
    "CulturalActivity",
    "CulturalCalendarRequest",
    "CulturalFact",
    "CulturalLanguage",
    "HinduDayInfo",
    "Market",
    "MarketCalendar",
    "MarketDay",
    "MarketInfo",
    "MarketList",
    "MarketVerdict",
    "RankedDate",
    "ThaiDay",
    "VoidWindow",
    "WesternDay",
]

Market = Literal["TH", "CN", "HK", "TW", "SG", "MY", "KR", "IN", "US"]
CulturalActivity = Literal[
    "product_launch", "store_opening", "contract_signing", "campaign_start", "wedding", "moving"
]
CulturalLanguage = Literal["en", "th"]


class CulturalCalendarRequest(RequestModel):
    market: Market
    start: dt.date
    """Years 1901-2099."""
    end: dt.date
    """At most 366 days after ``start`` counting both ends; longer is a 400 naming ``end``."""
    language: CulturalLanguage = "en"


class BestDatesRequest(RequestModel):
    markets: list[Market] = Field(min_length=1, max_length=9)
    """Distinct markets."""
    start: dt.date
    end: dt.date
    """At most 366 days after ``start`` counting both ends."""
    activity: CulturalActivity
    count: int = Field(default=10, ge=1, le=50)
    language: CulturalLanguage = "en"


class MarketInfo(ResponseModel):
    code: str
    name_en: str
    name_th: str
    timezone: str
    public_holidays: str
    """The source of the public holidays (the holidays package and its version)."""
    public_holiday_years: tuple[int, int]
    """First and last year the source covers for the country."""
    traditions: list[str]
    offers: list[str]
    """e.g. public_holidays, day_officer, colour_of_the_day, rahu_kalam, mercury_retrograde."""


class MarketList(ResponseModel):
    """``GET /api/v3/cultural/markets``."""

    markets: list[MarketInfo]


class CulturalFact(ResponseModel):
    """One fact about a day, naming its tradition and source."""

    tradition: str
    """public_holiday, thai, chinese, korean, hindu or western."""
    key: str
    text: str
    source: str
    effect: str = "info"
    """favour, avoid or info."""
    weight: int = 0
    """Its share of the day's score."""


class ChineseDay(ResponseModel):
    lunar_year: int
    lunar_month: int
    lunar_day: int
    is_leap_month: bool
    label: str
    year_ganzhi: str
    month_ganzhi: str
    day_ganzhi: str
    zodiac_animal: str
    officer: str
    """The day officer (建除十二值星), e.g. 开."""
    officer_name: str
    clash_animal: str
    clash_branch: str
    evil_direction: str
    spirit: str
    yellow_road: bool
    suitable: list[str]
    avoid: list[str]
    suitable_zh: list[str]
    avoid_zh: list[str]


class ThaiDay(ResponseModel):
    lunar_year: int
    lunar_month: int
    second_month_8: bool
    phase: str
    kham: int
    wan_phra: bool
    buddhist_era: int
    label: str
    colour: str
    auspicious_for_business: bool
    buddhist_lent: bool


class HinduDayInfo(ResponseModel):
    tithi: int
    tithi_name: str
    paksha: str
    month: str
    adhika: bool
    tithi_quality: str
    rahu_kalam_start: dt.datetime
    rahu_kalam_end: dt.datetime


class VoidWindow(ResponseModel):
    start: dt.datetime
    end: dt.datetime
    last_aspect_body: str
    last_aspect_deg: int
    next_sign: str


class WesternDay(ResponseModel):
    mercury_retrograde: bool
    void_of_course: list[VoidWindow]


class MarketDay(ResponseModel):
    date: dt.date
    weekday: str
    public_holidays: list[CulturalFact]
    festivals: list[CulturalFact]
    chinese: ChineseDay | None
    thai: ThaiDay | None
    hindu: HinduDayInfo | None
    western: WesternDay
    rating: str
    """good, neutral or bad."""
    score: int
    facts: list[CulturalFact]


class MarketCalendar(ResponseModel):
    """``POST /api/v3/cultural/calendar``: one entry per day."""

    market: str
    market_name: str
    timezone: str
    language: str
    start: dt.date
    end: dt.date
    traditions: list[str]
    notes: list[str]
    """Coverage warnings of the public-holiday source for these years (empty when complete)."""
    days: list[MarketDay]


class MarketVerdict(ResponseModel):
    market: str
    score: int
    rating: str
    reasons: list[CulturalFact]
    warnings: list[CulturalFact]


class RankedDate(ResponseModel):
    date: dt.date
    rank: int
    score: int
    worst_market_score: int
    markets: list[MarketVerdict]


class BestDates(ResponseModel):
    """``POST /api/v3/cultural/best-dates``: dates ranked by ``scoring``."""

    activity: str
    markets: list[str]
    start: dt.date
    end: dt.date
    days_examined: int
    scoring: str
    notes: list[str]
    dates: list[RankedDate]
