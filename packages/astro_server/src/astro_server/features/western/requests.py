"""The Western tag group's request bodies (and the progressions answer): what
:mod:`astro_server.features.western.routes` validates before anything is charged.

A birth subject is the spec's object (``date``, ``time`` HH:MM or HH:MM:SS, ``latitude``,
``longitude``, ``timezoneOffsetMinutes``) plus an optional IANA ``timezone`` and ``fold``; with
neither offset nor zone, the zone is found from the coordinates.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

import msgspec
from pydantic import BaseModel, Field, field_validator

from astro_calc import western
from astro_calc.ephemeris import FIRST_YEAR, LAST_YEAR
from astro_calc.western import (
    ALL_ASPECTS,
    DEFAULT_BODIES,
    NatalChart,
    SecondaryProgressions,
    SolarArcDirections,
)
from astro_calc.western.traditional import Lot
from astro_server.features.common.interpretations import InterpretationOptions
from astro_server.features.common.pictures import PictureOptions
from astro_server.features.common.routing import SPAN_TEXT, in_ephemeris_span
from astro_server.features.common.sensitivity import SensitivityOptions
from astro_server.features.common.subject import (
    TIME_PATTERN,
    BirthSubject,
    check_zone,
    offset_minutes_field,
    timezone_field,
)

HouseSystem = Literal["P", "K", "W", "E", "O", "R", "C", "B", "A", "M", "T", "X"]
Body = Literal[
    "sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto",
    "mean_node", "true_node", "mean_lilith", "chiron",
]  # fmt: skip
AspectName = Literal[
    "conjunction", "opposition", "trine", "square", "sextile", "quincunx", "semisextile",
    "semisquare", "sesquiquadrate", "quintile", "biquintile",
]  # fmt: skip
assert set(DEFAULT_BODIES) == set(Body.__args__)  # type: ignore[attr-defined]
assert set(ALL_ASPECTS) == set(AspectName.__args__)  # type: ignore[attr-defined]


class WesternSubject(BirthSubject):
    timezone: str | None = timezone_field("Europe/London")
    fold: Literal[0, 1] = Field(
        default=0, description="For a local time repeated at the end of DST: 0 earlier, 1 later"
    )

    def repeated_time_fold(self) -> int:
        return self.fold

    def to_calc(self) -> western.BirthSubject:
        return western.BirthSubject(
            date=self.date,
            time=self.time,
            latitude=self.latitude,
            longitude=self.longitude,
            timezone_offset_minutes=self.timezoneOffsetMinutes,
            timezone=self.timezone,
            fold=self.fold,
        )


def _orbs_field() -> dict[AspectName, float] | None:
    return Field(
        default=None,
        description="Orb in degrees (0 to 15) per aspect name, overriding the defaults",
    )


class NatalFields(BaseModel):
    """The natal chart's fields, shared by the calculation and its wheel picture."""

    subject: WesternSubject
    house_system: HouseSystem = Field(default="P", description="P Placidus (default), K, W, E, ...")
    bodies: list[Body] | None = Field(
        default=None, min_length=1, max_length=14, description="Default: all bodies"
    )
    aspects: list[AspectName] | None = Field(
        default=None, max_length=11, description="Default: all eleven (or the five major)"
    )
    orbs: dict[AspectName, float] | None = _orbs_field()
    include_minor: bool = Field(default=True, description="Find minor aspects too")

    @field_validator("orbs")
    @classmethod
    def _orb_range(cls, value: dict[str, float] | None) -> dict[str, float] | None:
        for name, orb in (value or {}).items():
            if not 0 <= orb <= 15:
                raise ValueError(f"orb of {name} must be between 0 and 15 degrees")
        return value


class NatalRequest(NatalFields, InterpretationOptions, SensitivityOptions):
    """The natal calculation: the chart's fields plus the traditional ``lots`` option, the
    interpretation and birth-time sensitivity options."""

    lots: bool = Field(
        default=False,
        description=(
            "Adds the traditional layer: ``sect`` (day/night) and the seven Hermetic ``lots`` "
            "(fortune, spirit, eros, necessity, courage, victory, nemesis; reversed by night), "
            "and each classical planet's ``dignities`` gain ``triplicity``, ``bound`` and "
            "``face`` with their points in ``dignity_score``. Needs the seven classical "
            "planets in ``bodies``. Same price; without it the answer is unchanged"
        ),
    )


class PairFields(BaseModel):
    subject_a: WesternSubject
    subject_b: WesternSubject
    house_system: HouseSystem = "P"
    include_minor: bool = Field(default=False, description="Count minor aspects too")


class PairRequest(PairFields, InterpretationOptions, SensitivityOptions):
    """The synastry calculation: the pair plus the interpretation and sensitivity options."""


class CompositeRequest(InterpretationOptions, SensitivityOptions):
    subject_a: WesternSubject
    subject_b: WesternSubject
    method: Literal["midpoint", "davison"] = Field(
        default="midpoint",
        description=(
            "midpoint: bodies and midheaven at the shorter-arc midpoints, houses and ascendant "
            "derived from that midheaven at the mean latitude (Robert Hand's method); davison: "
            "the chart for the midpoint in time and place"
        ),
    )
    house_system: HouseSystem = "P"


class ReturnsRequest(InterpretationOptions, SensitivityOptions):
    subject: WesternSubject
    kind: Literal["solar", "lunar"] = Field(description="solar: for a year; lunar: after a date")
    year: int | None = Field(
        default=None, ge=FIRST_YEAR, le=LAST_YEAR, description=f"Solar return year ({SPAN_TEXT})"
    )
    after: dt.datetime | None = Field(
        default=None, description="Lunar return: the first one after this instant (UTC if naive)"
    )
    latitude: float | None = Field(default=None, ge=-90, le=90, description="Default: birthplace")
    longitude: float | None = Field(default=None, ge=-180, le=180)
    timezone: str | None = Field(default=None, max_length=64, description="Local clock echoed")
    house_system: HouseSystem = "P"

    _known_zone = field_validator("timezone")(check_zone)
    _in_span = field_validator("after")(in_ephemeris_span)


class ProgressionsRequest(InterpretationOptions, SensitivityOptions):
    subject: WesternSubject
    target_date: dt.datetime = Field(description="Progress to this instant (UTC if naive)")
    method: Literal["secondary", "solar_arc"] = Field(default="secondary")
    mc_method: Literal["naibod", "solar_arc"] = Field(
        default="naibod", description="Progressed angles (secondary progressions only)"
    )
    house_system: HouseSystem = "P"
    orb_deg: float = Field(default=1.0, gt=0, le=5, description="Orb of aspects to natal points")

    _in_span = field_validator("target_date")(in_ephemeris_span)


class TransitsRequest(InterpretationOptions, SensitivityOptions):
    subject: WesternSubject
    start: dt.datetime = Field(description="Range start (UTC if naive)")
    end: dt.datetime = Field(description="Range end, at most 366 days after start")
    transiting_bodies: list[Body] | None = Field(
        default=None, min_length=1, max_length=13, description="Default: sun, mercury..pluto"
    )
    aspects: list[AspectName] | None = Field(
        default=None, min_length=1, max_length=11, description="Default: the five major"
    )
    include_ingresses: bool = True
    include_stations: bool = True

    _in_span = field_validator("start", "end")(in_ephemeris_span)


class ProgressionsResult(msgspec.Struct, frozen=True):
    """``secondary`` for method=secondary, ``solar_arc`` for method=solar_arc."""

    method: str
    secondary: SecondaryProgressions | None
    solar_arc: SolarArcDirections | None


class NatalChartWithLots(NatalChart, frozen=True, gc=False):
    """The natal chart; with ``"lots": true`` also ``sect`` (``day``/``night``, by the Sun's
    altitude) and the seven ``lots`` by name, and the classical planets' ``dignities`` and
    ``dignity_score`` include triplicity, bound and face. Without the option ``sect`` and
    ``lots`` are absent (the answer is the bare natal chart's, byte for byte)."""

    sect: str | None = None
    lots: dict[str, Lot] | None = None


class NatalWheelRequest(NatalFields, PictureOptions):
    """The natal request plus the picture options."""


class SynastryWheelRequest(PairFields, PictureOptions):
    """The synastry request plus the picture options."""


class TransitsWheelRequest(PictureOptions):
    subject: WesternSubject
    at: dt.datetime = Field(description="The moment of the outer (transiting) ring, UTC if naive")
    house_system: HouseSystem = Field(default="P", description="The natal chart's houses")
    transiting_bodies: list[Body] | None = Field(
        default=None, min_length=1, max_length=14, description="Default: sun, mercury..pluto"
    )
    aspects: list[AspectName] | None = Field(
        default=None, min_length=1, max_length=11, description="Default: the five major"
    )

    _in_span = field_validator("at")(in_ephemeris_span)


Ayanamsa = Literal["lahiri", "raman", "krishnamurti", "fagan_bradley", "true_chitra", "yukteshwar"]


class RectificationRequest(BaseModel):
    """A day, a place and a window of local clock times (at most 24 hours)."""

    date: dt.date = Field(description="Local calendar date the window starts on (YYYY-MM-DD)")
    latitude: float = Field(ge=-90, le=90, description="Degrees, north positive")
    longitude: float = Field(ge=-180, le=180, description="Degrees, east positive")
    timezoneOffsetMinutes: int | None = offset_minutes_field(  # the spec's field name
        "Offset from UTC in minutes; wins over timezone when both are given"
    )
    timezone: str | None = timezone_field("Europe/London")
    start_time: str = Field(
        pattern=TIME_PATTERN, description="Window start, local 24-hour HH:MM or HH:MM:SS"
    )
    end_time: str = Field(
        pattern=TIME_PATTERN,
        description=(
            "Window end, local HH:MM or HH:MM:SS; on the next day when not after start_time "
            "(equal to it: a full 24 hours, the longest window)"
        ),
    )
    ayanamsa: Ayanamsa = Field(default="lahiri", description="Sidereal zodiac of the padas")

    _known_zone = field_validator("timezone")(check_zone)
    _in_span = field_validator("date")(in_ephemeris_span)
