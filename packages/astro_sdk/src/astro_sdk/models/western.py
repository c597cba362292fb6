"""Models of the Western tag group (``/api/v3/western/...``).

Requests mirror the server's bodies field by field (names, required flags, bounds); responses
mirror the documented result shapes. Angles are degrees of ecliptic longitude in [0, 360),
speeds degrees per day, times UTC.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import Field

from astro_sdk.models._base import RequestModel, ResponseModel
from astro_sdk.models.interpretations import InterpretationOptions, Interpretations
from astro_sdk.models.profiles import (
    ProfileReference,
    ReferenceShape,
    SubjectOrReference,
    SubjectShape,
)
from astro_sdk.models.sensitivity import Sensitivity, SensitivityOptions

__all__ = [
    "AnglePoint",
    "Angles",
    "Aspect",
    "AspectName",
    "Body",
    "ChartMeta",
    "CompatibilityScore",
    "CompositeChart",
    "CompositeMeta",
    "CompositeRequest",
    "DirectedPoint",
    "ElementBalance",
    "HouseCusp",
    "HouseOverlay",
    "HouseSystem",
    "InterpretedCompositeChart",
    "InterpretedNatalChart",
    "InterpretedProgressionsResult",
    "InterpretedReturnChart",
    "InterpretedSynastry",
    "InterpretedTransitReport",
    "Lot",
    "ModalityBalance",
    "NatalChart",
    "NatalRequest",
    "PairRequest",
    "PlanetPosition",
    "ProgressionMeta",
    "ProgressionsRequest",
    "ProgressionsResult",
    "ReturnChart",
    "ReturnsRequest",
    "SecondaryProgressions",
    "SolarArcDirections",
    "SolarArcMeta",
    "SubjectTime",
    "Synastry",
    "SynastryMeta",
    "TransitEvent",
    "TransitMeta",
    "TransitReport",
    "TransitsRequest",
    "WesternSubject",
]

_TIME_PATTERN = r"^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$"
HouseSystem = Literal["P", "K", "W", "E", "O", "R", "C", "B", "A", "M", "T", "X"]
Body = Literal[
    "sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto",
    "mean_node", "true_node", "mean_lilith", "chiron",
]  # fmt: skip
AspectName = Literal[
    "conjunction", "opposition", "trine", "square", "sextile", "quincunx", "semisextile",
    "semisquare", "sesquiquadrate", "quintile", "biquintile",
]  # fmt: skip


# --- requests ----------------------------------------------------------------------------------


class WesternSubject(RequestModel):
    """A birth: local date and time at a place; with neither offset nor zone the server finds the
    zone from the coordinates and applies its historical offset."""

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
    """IANA zone, e.g. ``Europe/London``."""
    fold: Literal[0, 1] = 0
    """For a local time repeated at the end of daylight saving: 0 the earlier, 1 the later."""


WesternSubjectOrReference = Annotated[
    Annotated[WesternSubject, SubjectShape] | Annotated[ProfileReference, ReferenceShape],
    SubjectOrReference,
]
"""A WesternSubject or ``{"profile_id": "prof_..."}`` (a stored client profile's birth)."""


class NatalFields(RequestModel):
    """The natal chart's fields, shared by the calculation and its wheel picture."""

    subject: WesternSubjectOrReference
    house_system: HouseSystem = "P"
    bodies: list[Body] | None = Field(default=None, min_length=1, max_length=14)
    aspects: list[AspectName] | None = Field(default=None, max_length=11)
    orbs: dict[AspectName, float] | None = None
    """Orb in degrees (0 to 15) per aspect, overriding the defaults."""
    include_minor: bool = True


class NatalRequest(NatalFields, InterpretationOptions, SensitivityOptions):
    """The natal calculation: the chart's fields plus the traditional ``lots`` option, the
    interpretation and birth-time sensitivity options."""

    lots: bool = False
    """Adds ``sect`` and the seven Hermetic ``lots``, and the classical planets' triplicity,
    bound and face in ``dignities`` (needs the seven planets in ``bodies``)."""


class PairFields(RequestModel):
    """A pair of charts, shared by synastry and its bi-wheel picture."""

    subject_a: WesternSubjectOrReference
    subject_b: WesternSubjectOrReference
    house_system: HouseSystem = "P"
    include_minor: bool = False


class PairRequest(PairFields, InterpretationOptions, SensitivityOptions):
    """The synastry calculation: the pair plus the interpretation option."""


class CompositeRequest(InterpretationOptions, SensitivityOptions):
    subject_a: WesternSubjectOrReference
    subject_b: WesternSubjectOrReference
    method: Literal["midpoint", "davison"] = "midpoint"
    house_system: HouseSystem = "P"


class ReturnsRequest(InterpretationOptions, SensitivityOptions):
    subject: WesternSubjectOrReference
    kind: Literal["solar", "lunar"]
    year: int | None = Field(default=None, ge=100, le=2999)  # the span of dates served
    """Solar return: the year."""
    after: dt.datetime | None = None
    """Lunar return: the first one after this instant."""
    latitude: float | None = Field(default=None, ge=-90, le=90)
    longitude: float | None = Field(default=None, ge=-180, le=180)
    timezone: str | None = Field(default=None, max_length=64)
    house_system: HouseSystem = "P"


class ProgressionsRequest(InterpretationOptions, SensitivityOptions):
    subject: WesternSubjectOrReference
    target_date: dt.datetime
    method: Literal["secondary", "solar_arc"] = "secondary"
    mc_method: Literal["naibod", "solar_arc"] = "naibod"
    house_system: HouseSystem = "P"
    orb_deg: float = Field(default=1.0, gt=0, le=5)


class TransitsRequest(InterpretationOptions, SensitivityOptions):
    subject: WesternSubjectOrReference
    start: dt.datetime
    end: dt.datetime
    """At most 366 days after ``start``."""
    transiting_bodies: list[Body] | None = Field(default=None, min_length=1, max_length=13)
    aspects: list[AspectName] | None = Field(default=None, min_length=1, max_length=11)
    include_ingresses: bool = True
    include_stations: bool = True


# --- responses ---------------------------------------------------------------------------------


class PlanetPosition(ResponseModel):
    name: str
    longitude: float
    latitude: float
    speed: float
    sign: str
    sign_degree: float
    house: int
    retrograde: bool
    dignities: list[str]
    dignity_score: int


class HouseCusp(ResponseModel):
    number: int
    cusp: float
    sign: str
    sign_degree: float


class AnglePoint(ResponseModel):
    longitude: float
    sign: str
    sign_degree: float


class Angles(ResponseModel):
    ascendant: AnglePoint
    midheaven: AnglePoint
    descendant: AnglePoint
    imum_coeli: AnglePoint
    vertex: AnglePoint


class Aspect(ResponseModel):
    body1: str
    body2: str
    aspect: str
    aspect_angle: float
    separation: float
    orb: float
    applying: bool


class ElementBalance(ResponseModel):
    fire: int
    earth: int
    air: int
    water: int


class ModalityBalance(ResponseModel):
    cardinal: int
    fixed: int
    mutable: int


class ChartMeta(ResponseModel):
    utc: dt.datetime
    local: dt.datetime
    offset_minutes: int
    timezone: str | None
    time_source: str
    julian_day: float
    latitude: float
    longitude: float
    house_system: str
    requested_house_system: str
    ephemeris: str
    warnings: list[str]


class NatalChart(ResponseModel):
    planets: list[PlanetPosition]
    houses: list[HouseCusp]
    angles: Angles
    aspects: list[Aspect]
    elements: ElementBalance
    modalities: ModalityBalance
    meta: ChartMeta


class SubjectTime(ResponseModel):
    utc: dt.datetime
    local: dt.datetime
    offset_minutes: int
    timezone: str | None
    time_source: str
    julian_day: float


class HouseOverlay(ResponseModel):
    owner: str
    body: str
    house: int


class CompatibilityScore(ResponseModel):
    score: float
    harmonious_weight: float
    challenging_weight: float
    method: str


class SynastryMeta(ResponseModel):
    subject_a: SubjectTime
    subject_b: SubjectTime
    house_system: str
    ephemeris: str
    warnings: list[str]


class Synastry(ResponseModel):
    chart_a: NatalChart
    chart_b: NatalChart
    aspects: list[Aspect]
    house_overlays: list[HouseOverlay]
    compatibility: CompatibilityScore
    meta: SynastryMeta


class CompositeMeta(ResponseModel):
    method: str
    subject_a: SubjectTime
    subject_b: SubjectTime
    davison: SubjectTime | None
    latitude: float
    longitude: float
    house_system: str
    ephemeris: str
    warnings: list[str]


class CompositeChart(ResponseModel):
    planets: list[PlanetPosition]
    houses: list[HouseCusp]
    angles: Angles
    aspects: list[Aspect]
    elements: ElementBalance
    modalities: ModalityBalance
    meta: CompositeMeta


class ReturnChart(ResponseModel):
    kind: str
    return_utc: dt.datetime
    return_julian_day: float
    natal_longitude: float
    chart: NatalChart
    meta: SubjectTime


class ProgressionMeta(ResponseModel):
    birth: SubjectTime
    target_utc: dt.datetime
    progressed_utc: dt.datetime
    progressed_julian_day: float
    age_years: float
    mc_method: str
    house_system: str
    ephemeris: str
    warnings: list[str]


class SecondaryProgressions(ResponseModel):
    planets: list[PlanetPosition]
    houses: list[HouseCusp]
    angles: Angles
    solar_arc: float
    aspects_to_natal: list[Aspect]
    meta: ProgressionMeta


class DirectedPoint(ResponseModel):
    name: str
    natal_longitude: float
    longitude: float
    sign: str
    sign_degree: float


class SolarArcMeta(ResponseModel):
    birth: SubjectTime
    target_utc: dt.datetime
    age_years: float
    orb_deg: float
    ephemeris: str
    warnings: list[str]


class SolarArcDirections(ResponseModel):
    solar_arc: float
    points: list[DirectedPoint]
    aspects_to_natal: list[Aspect]
    meta: SolarArcMeta


class ProgressionsResult(ResponseModel):
    """``secondary`` for method=secondary, ``solar_arc`` for method=solar_arc."""

    method: str
    secondary: SecondaryProgressions | None
    solar_arc: SolarArcDirections | None


class TransitEvent(ResponseModel):
    utc: dt.datetime
    julian_day: float
    kind: str
    """``aspect``, ``ingress`` or ``station``."""
    transiting: str
    longitude: float
    sign: str
    retrograde: bool
    natal_point: str | None = None
    natal_longitude: float | None = None
    aspect: str | None = None
    station: str | None = None


class TransitMeta(ResponseModel):
    birth: SubjectTime
    start_utc: dt.datetime
    end_utc: dt.datetime
    aspects: list[str]
    ephemeris: str
    warnings: list[str]


class TransitReport(ResponseModel):
    events: list[TransitEvent]
    meta: TransitMeta


class Lot(ResponseModel):
    """A lot of the natal chart (``lots=True``): ``house`` is its whole-sign house,
    ``quadrant_house`` its house on the chart's system, ``formula`` the one used
    (``"asc + moon - sun"``)."""

    longitude: float
    sign: str
    sign_degree: float
    house: int
    quadrant_house: int
    formula: str


class InterpretedNatalChart(NatalChart):
    """NatalChart with the ``interpretations`` and ``sensitivity`` asked for, and ``sect`` and
    ``lots`` with ``lots=True`` (each ``None`` without its option)."""

    sect: str | None = None
    """``day`` or ``night`` (the Sun's altitude), with ``lots=True``."""
    lots: dict[str, Lot] | None = None
    """fortune, spirit, eros, necessity, courage, victory, nemesis, with ``lots=True``."""
    interpretations: Interpretations | None = None
    sensitivity: Sensitivity | None = None


class InterpretedSynastry(Synastry):
    """Synastry with the ``interpretations`` and ``sensitivity`` asked for (``None``
    without the option). ``sensitivity`` is that of the natal chart(s) the answer is computed
    from (results prefixed ``subject_a.`` and ``subject_b.`` for a pair)."""

    interpretations: Interpretations | None = None
    sensitivity: Sensitivity | None = None


class InterpretedCompositeChart(CompositeChart):
    """CompositeChart with the ``interpretations`` and ``sensitivity`` asked for (``None``
    without the option). ``sensitivity`` is that of the natal chart(s) the answer is computed
    from (results prefixed ``subject_a.`` and ``subject_b.`` for a pair)."""

    interpretations: Interpretations | None = None
    sensitivity: Sensitivity | None = None


class InterpretedReturnChart(ReturnChart):
    """ReturnChart with the ``interpretations`` and ``sensitivity`` asked for (``None``
    without the option). ``sensitivity`` is that of the natal chart(s) the answer is computed
    from (results prefixed ``subject_a.`` and ``subject_b.`` for a pair)."""

    interpretations: Interpretations | None = None
    sensitivity: Sensitivity | None = None


class InterpretedProgressionsResult(ProgressionsResult):
    """ProgressionsResult with the ``interpretations`` and ``sensitivity`` asked for (``None``
    without the option). ``sensitivity`` is that of the natal chart(s) the answer is computed
    from (results prefixed ``subject_a.`` and ``subject_b.`` for a pair)."""

    interpretations: Interpretations | None = None
    sensitivity: Sensitivity | None = None


class InterpretedTransitReport(TransitReport):
    """TransitReport with the ``interpretations`` and ``sensitivity`` asked for (``None``
    without the option). ``sensitivity`` is that of the natal chart(s) the answer is computed
    from (results prefixed ``subject_a.`` and ``subject_b.`` for a pair)."""

    interpretations: Interpretations | None = None
    sensitivity: Sensitivity | None = None
