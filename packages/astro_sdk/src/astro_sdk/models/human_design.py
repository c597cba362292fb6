"""Models of the Human Design tag group (``/api/v3/human-design/...``).

Requests mirror the server's bodies field by field (names, required flags, bounds); responses
mirror the documented result shapes, with enumerations read as plain strings (their values are
listed on each field) so a value added later breaks nothing. Conventions (the server's): the
design moment is the Sun 88 degrees of longitude before birth; the true node by default
(``node="mean"`` for the mean node); gate 25 begins at 28 deg 15' Pisces, 5.625 degrees a gate,
0.9375 a line. Longitudes are tropical degrees in [0, 360), times UTC.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import Field

from astro_sdk.models._base import RequestModel, ResponseModel
from astro_sdk.models.interpretations import InterpretationOptions, Interpretations
from astro_sdk.models.pictures import PictureOptions
from astro_sdk.models.profiles import (
    ProfileReference,
    ReferenceShape,
    SubjectOrReference,
    SubjectShape,
)
from astro_sdk.models.sensitivity import Sensitivity, SensitivityOptions

__all__ = [
    "Activation",
    "Activations",
    "BodygraphRequest",
    "Center",
    "ChartRequest",
    "CompositeCenter",
    "CompositeRequest",
    "Connection",
    "Disclaimer",
    "HumanDesignChart",
    "HumanDesignComposite",
    "HumanDesignSubject",
    "HumanDesignSubjectOrReference",
    "HumanDesignTransits",
    "IncarnationCross",
    "InterpretedHumanDesignChart",
    "Node",
    "TransitChannel",
    "TransitsRequest",
]

_TIME_PATTERN = r"^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$"
Node = Literal["true", "mean"]


# --- requests ------------------------------------------------------------------------------------


class HumanDesignSubject(RequestModel):
    """A birth: local date and time at a place; with neither offset nor zone the server finds the
    zone from the coordinates and applies its historical offset."""

    date: dt.date
    """Local date, years 100 to 2999."""
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
    """IANA zone, e.g. ``Europe/Zurich``."""
    fold: Literal[0, 1] = 0
    """For a local time repeated at the end of daylight saving: 0 the earlier, 1 the later."""


HumanDesignSubjectOrReference = Annotated[
    Annotated[HumanDesignSubject, SubjectShape] | Annotated[ProfileReference, ReferenceShape],
    SubjectOrReference,
]
"""A HumanDesignSubject or ``{"profile_id": "prof_..."}`` (a stored client profile's birth)."""


class ChartRequest(InterpretationOptions, SensitivityOptions):
    subject: HumanDesignSubjectOrReference
    node: Node = "true"
    """The lunar node of the node activations: ``true`` (default) or ``mean``."""


class CompositeRequest(RequestModel):
    subject_a: HumanDesignSubjectOrReference
    subject_b: HumanDesignSubjectOrReference
    node: Node = "true"
    language: Literal["en", "th"] = "en"
    """Language of the disclaimer."""


class TransitsRequest(RequestModel):
    subject: HumanDesignSubjectOrReference
    moment: dt.datetime | None = None
    """The transit instant (UTC if naive; the server's now when left out)."""
    node: Node = "true"
    language: Literal["en", "th"] = "en"
    """Language of the disclaimer."""


class BodygraphRequest(PictureOptions):
    subject: HumanDesignSubjectOrReference
    node: Node = "true"


# --- responses ---------------------------------------------------------------------------------


class Disclaimer(ResponseModel):
    """What a Human Design answer is and is not, in the request's language."""

    code: str
    """``human_design``."""
    text: str


class Activation(ResponseModel):
    """One body's place on the wheel."""

    body: str
    """``sun``, ``earth``, ``north_node``, ``south_node``, ``moon``, ``mercury`` .. ``pluto``."""
    longitude: float
    gate: int
    """1 to 64."""
    line: int
    """1 to 6."""
    color: int
    """1 to 6."""
    tone: int
    """1 to 6."""
    base: int
    """1 to 5."""


class Activations(ResponseModel):
    """The thirteen activations of each side, in the order of ``Activation.body``."""

    personality: list[Activation]
    design: list[Activation]


class Center(ResponseModel):
    name: str
    """``head``, ``ajna``, ``throat``, ``g``, ``heart``, ``sacral``, ``spleen``,
    ``solar_plexus`` or ``root``."""
    defined: bool
    gates: list[int]
    """The centre's activated gates."""


class IncarnationCross(ResponseModel):
    angle: str
    """``right``, ``left`` or ``juxtaposition``."""
    gates: tuple[int, int, int, int]
    """Personality Sun, personality Earth, design Sun, design Earth."""
    name: str


class HumanDesignChart(ResponseModel):
    type: str
    """``generator``, ``manifesting_generator``, ``projector``, ``manifestor`` or
    ``reflector``."""
    strategy: str
    signature: str
    not_self_theme: str
    authority: str
    """``emotional``, ``sacral``, ``splenic``, ``ego``, ``self_projected``, ``mental`` or
    ``lunar``."""
    profile: str
    """Personality Sun line / design Sun line, e.g. ``"3/5"``."""
    definition: str
    """``none``, ``single``, ``split``, ``triple_split`` or ``quadruple_split``."""
    incarnation_cross: IncarnationCross
    birth_utc: dt.datetime
    design_utc: dt.datetime
    """When the Sun stood 88 degrees before its birth place, to the second."""
    centers: list[Center]
    """All nine, in bodygraph order."""
    channels: list[str]
    """Defined channels, lower gate first (``"13-33"``)."""
    gates: list[int]
    activations: Activations
    node: str
    ephemeris: str


class InterpretedHumanDesignChart(HumanDesignChart):
    """HumanDesignChart with its ``disclaimer``, and the ``interpretations`` and
    ``sensitivity`` asked for (``None`` without the option)."""

    disclaimer: Disclaimer
    interpretations: Interpretations | None = None
    sensitivity: Sensitivity | None = None


class Connection(ResponseModel):
    """A channel of the composite and its kind: ``electromagnetic`` (each has one gate),
    ``compromise`` (the ``holder`` has the channel, the other one gate), ``dominance`` (the
    ``holder`` has the channel, the other neither gate) or ``companionship`` (both have it)."""

    channel: str
    kind: str
    holder: str | None
    """``a``, ``b`` or ``None``."""
    gates_a: list[int]
    gates_b: list[int]


class CompositeCenter(ResponseModel):
    name: str
    defined: bool
    defined_a: bool
    defined_b: bool


class HumanDesignComposite(ResponseModel):
    channels: list[str]
    """Every channel defined with the two charts together."""
    electromagnetic: list[str]
    connections: list[Connection]
    centers: list[CompositeCenter]
    definition: str
    chart_a: HumanDesignChart
    chart_b: HumanDesignChart
    disclaimer: Disclaimer


class TransitChannel(ResponseModel):
    channel: str
    kind: str
    """``natal`` (the chart's own), ``completed`` (the chart has one gate, the transit the
    other) or ``transit`` (the transit's own)."""


class HumanDesignTransits(ResponseModel):
    moment: dt.datetime
    activations: list[Activation]
    gates: list[int]
    channels: list[TransitChannel]
    defined_centers: list[str]
    centers_defined_by_transit: list[str]
    disclaimer: Disclaimer
