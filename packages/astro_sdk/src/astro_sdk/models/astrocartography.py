"""Models of astrocartography, its world map and relocation (``/api/v3/western/...``).

Lines are in mundo by default (each body's apparent right ascension and declination at birth,
no refraction); points are degrees of latitude (north positive) and longitude (east positive).
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from astro_sdk.models._base import RequestModel, ResponseModel
from astro_sdk.models.interpretations import InterpretationOptions, Interpretations
from astro_sdk.models.pictures import PictureOptions
from astro_sdk.models.western import (
    AnglePoint,
    Body,
    HouseSystem,
    NatalChart,
    WesternSubjectOrReference,
)

__all__ = [
    "AcgLine",
    "AcgMeta",
    "AngleShift",
    "Astrocartography",
    "AstrocartographyMapRequest",
    "AstrocartographyRequest",
    "BodyEquatorial",
    "Circumpolar",
    "GeoPoint",
    "HouseChange",
    "InterpretedAstrocartography",
    "InterpretedRelocatedChart",
    "LocalSpaceLine",
    "MapCity",
    "NearLine",
    "Paran",
    "RelocatedChart",
    "RelocationDetails",
    "RelocationRequest",
]

AcgAngle = Literal["mc", "ic", "asc", "dsc"]


# --- requests ----------------------------------------------------------------------------------


class AcgFields(RequestModel):
    subject: WesternSubjectOrReference
    bodies: list[Body] | None = Field(default=None, min_length=1, max_length=14)
    """Default: the ten planets and the true node."""
    zodiacal: bool = False
    """Lines of each body's ecliptic degree (in zodiaco) instead of in mundo."""
    step_deg: float = Field(default=1.0, ge=0.1, le=2.0)
    """Latitude step of the points."""


class AstrocartographyRequest(AcgFields, InterpretationOptions):
    parans: bool = False
    local_space: bool = False
    paran_orb_deg: float = Field(default=1.0, ge=0, le=5)


class MapCity(RequestModel):
    name: str = Field(min_length=1, max_length=60)
    latitude: float = Field(ge=-90, le=90)
    longitude: float = Field(ge=-180, le=180)


class AstrocartographyMapRequest(AcgFields, PictureOptions):
    size_px: int = Field(default=1600, ge=200, le=2000)
    cities: list[int | MapCity] = Field(default_factory=list, max_length=20)
    """Place ids from ``client.places.search`` or ``{name, latitude, longitude}``."""


class RelocationRequest(InterpretationOptions):
    subject: WesternSubjectOrReference
    latitude: float | None = Field(default=None, ge=-90, le=90)
    longitude: float | None = Field(default=None, ge=-180, le=180)
    place: int | None = None
    """A place id instead of ``latitude`` and ``longitude``."""
    house_system: HouseSystem = "P"
    bodies: list[Body] | None = Field(default=None, min_length=1, max_length=14)
    line_bodies: list[Body] | None = Field(default=None, min_length=1, max_length=14)
    line_orb_km: float = Field(default=700.0, ge=0, le=2000)


# --- responses ---------------------------------------------------------------------------------


class GeoPoint(ResponseModel):
    latitude: float
    longitude: float


class AcgLine(ResponseModel):
    """``body`` on ``angle``; a curve crossing the antimeridian comes as several lines."""

    body: str
    angle: str
    points: list[GeoPoint]


class BodyEquatorial(ResponseModel):
    body: str
    right_ascension: float
    declination: float
    longitude: float


class Circumpolar(ResponseModel):
    body: str
    latitude_limit: float
    always_above: str


class Paran(ResponseModel):
    body_a: str
    angle_a: str
    body_b: str
    angle_b: str
    latitude: float
    latitude_min: float
    latitude_max: float
    sidereal_time_deg: float


class LocalSpaceLine(ResponseModel):
    body: str
    azimuth: float
    altitude: float
    points: list[GeoPoint]


class AcgMeta(ResponseModel):
    utc: dt.datetime
    julian_day: float
    sidereal_time_deg: float
    latitude: float
    longitude: float
    method: str
    step_deg: float
    ephemeris: str
    warnings: list[str]


class Astrocartography(ResponseModel):
    lines: list[AcgLine]
    bodies: list[BodyEquatorial]
    circumpolar: list[Circumpolar]
    parans: list[Paran]
    local_space: list[LocalSpaceLine]
    meta: AcgMeta


class InterpretedAstrocartography(Astrocartography):
    """Astrocartography with the ``interpretations`` asked for (``None`` without)."""

    interpretations: Interpretations | None = None


class AngleShift(ResponseModel):
    angle: str
    natal: AnglePoint
    relocated: AnglePoint
    shift_deg: float
    sign_changed: bool


class HouseChange(ResponseModel):
    body: str
    natal_house: int
    relocated_house: int


class NearLine(ResponseModel):
    body: str
    angle: str
    distance_km: float
    nearest: tuple[float, float]
    """The line's nearest point, (latitude, longitude)."""


class RelocationDetails(ResponseModel):
    natal_latitude: float
    natal_longitude: float
    angles: list[AngleShift]
    house_changes: list[HouseChange]
    lines: list[NearLine]
    interpretations: Interpretations | None = None


class RelocatedChart(NatalChart):
    """The natal chart's fields at the new place, plus what moved."""

    relocation: RelocationDetails


class InterpretedRelocatedChart(RelocatedChart):
    """RelocatedChart with the natal ``interpretations`` of the relocated chart when asked
    for (``None`` without)."""

    interpretations: Interpretations | None = None
