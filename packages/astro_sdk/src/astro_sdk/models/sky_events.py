"""Models of the Western timing routes (issue 45): sky events, planetary hours, the personal
forecast (``/api/v3/western/sky-events``, ``/planetary-hours``, ``/forecast``).

Every instant is UTC to the second. A sky event is one of five shapes, told apart by ``kind``
(``eclipse``, ``lunation``, ``ingress``, ``station``, ``void_of_course``); ``SkyEvent`` is their
union, discriminated on ``kind``.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import Field, field_validator

from astro_sdk.models._base import RequestModel, ResponseModel
from astro_sdk.models.western import SubjectTime, WesternSubjectOrReference

__all__ = [
    "CalendarLanguage",
    "EclipseEvent",
    "EventBody",
    "EventKind",
    "Forecast",
    "ForecastRequest",
    "ForecastTransit",
    "IngressEvent",
    "LastAspect",
    "LocalCircumstances",
    "LunationEvent",
    "PlanetaryHour",
    "PlanetaryHours",
    "PlanetaryHoursQuery",
    "SkyEvent",
    "SkyEvents",
    "SkyEventsRequest",
    "StationEvent",
    "TransitingBody",
    "VoidOfCourseEvent",
    "VoidOfCourseRule",
]

EventKind = Literal["eclipse", "lunation", "ingress", "station", "void_of_course"]
EventBody = Literal[
    "moon", "sun", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto",
]  # fmt: skip
TransitingBody = Literal[
    "sun", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto",
]  # fmt: skip
ALL_KINDS: tuple[EventKind, ...] = ("eclipse", "lunation", "ingress", "station", "void_of_course")
VoidOfCourseRule = Literal["traditional", "modern"]
CalendarLanguage = Literal["en", "th"]
Moment = dt.datetime | dt.date


def _moment(value: object) -> object:
    """``YYYY-MM-DD`` stays a date (a whole local day), not midnight as a date-time."""
    if isinstance(value, str) and len(value) == 10:
        return dt.date.fromisoformat(value)
    return value


# --- requests ------------------------------------------------------------------------------------


class SkyEventsRequest(RequestModel):
    start: Moment
    """A date (local in ``timezone``, UTC when none) or a date-time (UTC when naive)."""
    end: Moment
    """Inclusive (a date counts to its last second); at most 366 days after ``start``."""
    kinds: list[EventKind] = Field(
        default_factory=lambda: list(ALL_KINDS),
        min_length=1,
        max_length=10,
    )
    """Default all five."""
    bodies: list[EventBody] | None = Field(default=None, min_length=1, max_length=20)
    void_of_course_rule: VoidOfCourseRule = "traditional"
    timezone: str | None = Field(default=None, max_length=64)
    latitude: float | None = Field(default=None, ge=-90, le=90)
    longitude: float | None = Field(default=None, ge=-180, le=180)
    language: CalendarLanguage = "en"

    _dates = field_validator("start", "end", mode="before")(_moment)


class PlanetaryHoursQuery(RequestModel):
    date: dt.date
    latitude: float = Field(ge=-90, le=90)
    """Beyond 66 degrees either way the server refuses (the Sun may not rise or set)."""
    longitude: float = Field(ge=-180, le=180)
    timezone: str | None = Field(default=None, max_length=64)
    language: CalendarLanguage = "en"


class ForecastRequest(RequestModel):
    subject: WesternSubjectOrReference
    start: Moment
    end: Moment
    """Inclusive; at most 366 days after ``start``."""
    timezone: str | None = Field(default=None, max_length=64)
    orb_deg: dict[TransitingBody, float] | None = None
    language: CalendarLanguage = "en"

    _dates = field_validator("start", "end", mode="before")(_moment)


# --- responses -----------------------------------------------------------------------------------


class LocalCircumstances(ResponseModel):
    latitude: float
    longitude: float
    eclipse_type: str
    magnitude: float
    maximum: dt.datetime
    contacts: dict[str, dt.datetime]
    altitude_at_maximum: float
    visible: bool


class EclipseEvent(ResponseModel):
    kind: Literal["eclipse"]
    at: dt.datetime
    """The global greatest eclipse."""
    body: str
    eclipse_type: str
    magnitude: float
    gamma: float
    penumbral_magnitude: float | None = None
    local: LocalCircumstances | None = None


class LunationEvent(ResponseModel):
    kind: Literal["lunation"]
    at: dt.datetime
    phase: str
    sign: str
    longitude: float


class IngressEvent(ResponseModel):
    kind: Literal["ingress"]
    at: dt.datetime
    body: str
    sign: str
    retrograde: bool


class StationEvent(ResponseModel):
    kind: Literal["station"]
    at: dt.datetime
    body: str
    direction: str
    longitude: float
    sign: str
    shadow_start: dt.datetime | None
    shadow_end: dt.datetime | None


class LastAspect(ResponseModel):
    body: str
    aspect: str


class VoidOfCourseEvent(ResponseModel):
    kind: Literal["void_of_course"]
    at: dt.datetime
    """The start of the period."""
    end: dt.datetime
    last_aspect: LastAspect
    sign: str
    next_sign: str


SkyEvent = Annotated[
    EclipseEvent | LunationEvent | IngressEvent | StationEvent | VoidOfCourseEvent,
    Field(discriminator="kind"),
]


class SkyEvents(ResponseModel):
    start: dt.datetime
    end: dt.datetime
    kinds: list[str]
    void_of_course_rule: str
    events: list[SkyEvent]


class PlanetaryHour(ResponseModel):
    start: dt.datetime
    end: dt.datetime
    ruler: str
    period: str


class PlanetaryHours(ResponseModel):
    date: dt.date
    latitude: float
    longitude: float
    timezone: str
    sunrise: dt.datetime
    sunset: dt.datetime
    next_sunrise: dt.datetime
    day_ruler: str
    hours: list[PlanetaryHour]


class ForecastTransit(ResponseModel):
    transiting: str
    natal: str
    aspect: str
    natal_longitude: float
    enters: dt.datetime | None
    """Null when already in orb at the window's start."""
    exact: list[dt.datetime]
    leaves: dt.datetime | None
    """Null when still in orb at the window's end."""


class Forecast(ResponseModel):
    birth: SubjectTime
    start: dt.datetime
    end: dt.datetime
    orb_deg: dict[str, float]
    transits: list[ForecastTransit]
