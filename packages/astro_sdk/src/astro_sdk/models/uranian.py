"""Models of the Uranian tag group (``/api/v3/uranian/...``): the spec's Uranian chart request
and response tables, and the midpoints and planetary-pictures variants."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from astro_sdk.models._base import RequestModel, ResponseModel
from astro_sdk.models.sensitivity import Sensitivity, SensitivityOptions

__all__ = [
    "Midpoint",
    "PlanetaryPicture",
    "UranianChart",
    "UranianChartRequest",
    "UranianMeta",
    "UranianMidpoints",
    "UranianPictures",
    "UranianPosition",
]


class UranianChartRequest(RequestModel):
    """The spec's Uranian chart request (plus an optional offset or IANA zone)."""

    birth_date: dt.date
    birth_time: str = Field(pattern=r"^\d{2}:\d{2}$")
    """Local time ``HH:MM``."""
    birth_lat: float = Field(ge=-90, le=90)
    birth_lon: float = Field(ge=-180, le=180)
    birth_place: str = Field(min_length=1, max_length=200)
    dial_mode: Literal[90, 45, 22.5] = 90  # type: ignore[valid-type]
    orb_max: float = Field(default=1.0, ge=0.25, le=3)
    timezone_offset_minutes: int | None = Field(
        default=None, alias="timezoneOffsetMinutes", ge=-1080, le=1080
    )
    timezone: str | None = Field(default=None, max_length=64)


class UranianPosition(ResponseModel):
    name: str
    longitude: float
    dial_position: float
    is_hamburg: bool


class Midpoint(ResponseModel):
    pair: tuple[str, str]
    longitude: float
    dial_position: float
    interpretation_en: str
    interpretation_th: str


class PlanetaryPicture(ResponseModel):
    factors: list[str]
    """``[A, B, C]`` for C = A/B; ``[A, B, C, D]`` for A + B - C = D."""
    dial_position: float
    orb_total: float
    interpretation_key: str
    interpretation_en: str
    interpretation_th: str


class UranianMeta(ResponseModel):
    orb_max: float
    computed_at: dt.datetime
    dial_mode: float
    utc: dt.datetime
    local: dt.datetime
    offset_minutes: int
    timezone: str | None
    time_source: str
    julian_day: float
    node: str
    ephemeris: str
    warnings: list[str]


class UranianChart(ResponseModel):
    birth_place: str
    meta: UranianMeta
    positions: list[UranianPosition]
    midpoints: list[Midpoint]
    planetary_pictures: list[PlanetaryPicture]
    sensitivity: Sensitivity | None = None
    """The personal points' pictures' birth-time sensitivity, when asked for."""


class UranianSensitiveChartRequest(UranianChartRequest, SensitivityOptions):
    """The chart request plus the birth-time sensitivity option (the chart route only)."""


class UranianMidpoints(ResponseModel):
    birth_place: str
    meta: UranianMeta
    positions: list[UranianPosition]
    midpoints: list[Midpoint]


class UranianPictures(ResponseModel):
    birth_place: str
    meta: UranianMeta
    positions: list[UranianPosition]
    planetary_pictures: list[PlanetaryPicture]
