"""Models of Korean Saju (``/api/v3/korean/saju``, tag group Chinese & Korean).

The chart under ``chart.bazi`` is the BaZi chart of :mod:`astro_sdk.models.chinese`; every
symbol in it carries hangul and hanja.
"""

from __future__ import annotations

from typing import Literal

from astro_sdk.models._base import ResponseModel
from astro_sdk.models.chinese import (
    BaziChart,
    ChineseBirthSubjectOrReference,
    DayBoundary,
    LuckOptions,
    Reading,
)
from astro_sdk.models.sensitivity import Sensitivity, SensitivityOptions

__all__ = ["HourBasis", "SajuChart", "SajuRequest", "SajuResult"]

HourBasis = Literal["korean_almanac", "clock", "mean", "true"]


class SajuRequest(LuckOptions, SensitivityOptions):
    subject: ChineseBirthSubjectOrReference
    hour_basis: HourBasis = "korean_almanac"
    """``korean_almanac``: the double hours on the 127.5 deg E meridian (default)."""
    day_boundary: DayBoundary = "midnight"
    """``midnight``: 야자시 separation (default); ``zi``: the day changes at 23:00."""


class SajuChart(ResponseModel):
    hour_basis: str
    standard_meridian_deg: float
    """Of the civil time in force at birth, daylight saving removed."""
    daylight_saving: bool
    pillars_hangul: str
    """e.g. 갑술년 무진월 갑신일 병자시."""
    pillars_hanja: str
    """e.g. 甲戌年 戊辰月 甲申日 丙子時."""
    bazi: BaziChart


class SajuResult(ResponseModel):
    """``POST /api/v3/korean/saju``."""

    chart: SajuChart
    readings: list[Reading]
    sensitivity: Sensitivity | None = None
    """The pillars' birth-time sensitivity, when asked for (``None`` without the option)."""
