"""Request models of the sky events, planetary hours and forecast routes
(:mod:`astro_server.features.western.sky_routes`) and of the calendar feeds.

Windows: ``start`` and ``end`` are dates (local dates in ``timezone``, UTC when none; the end
day included to its last second) or date-times (UTC when naive); the window spans at most
:data:`MAX_WINDOW_DAYS` days. The window is checked here, so a refused one is a 400 naming
``end`` before anything is charged.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal, Self

from pydantic import BaseModel, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from astro_calc.errors import CalcInputError
from astro_calc.western.events import ALLOWED_BODIES, KINDS, MAX_WINDOW_DAYS
from astro_calc.western.events.forecast import TRANSITING
from astro_calc.western.events.hours import MAX_LATITUDE
from astro_calc.western.events.sky import window
from astro_server.features.common.routing import in_ephemeris_span
from astro_server.features.common.subject import check_zone, timezone_field
from astro_server.features.western.requests import WesternSubject

Kind = Literal["eclipse", "lunation", "ingress", "station", "void_of_course"]
EventBody = Literal[
    "moon", "sun", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto",
]  # fmt: skip
TransitingBody = Literal[
    "sun", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto",
]  # fmt: skip
VoidRule = Literal["traditional", "modern"]
Language = Literal["en", "th"]
assert set(KINDS) == set(Kind.__args__)  # type: ignore[attr-defined]
assert set(ALLOWED_BODIES) == set(EventBody.__args__)  # type: ignore[attr-defined]
assert set(TRANSITING) == set(TransitingBody.__args__)  # type: ignore[attr-defined]

_WINDOW_TEXT = (
    f"at most {MAX_WINDOW_DAYS} days, inclusive: a date (local in timezone, UTC when none; the "
    "end day counts to its last second) or a date-time (UTC when naive)"
)


def _aware(moment: dt.date) -> dt.date:
    """A naive date-time is read as UTC; a date stays a date."""
    if isinstance(moment, dt.datetime) and moment.tzinfo is None:
        return moment.replace(tzinfo=dt.UTC)
    return moment


class EventWindow(BaseModel):
    """``start`` and ``end`` with the zone their dates are read in; checked as one window."""

    start: dt.datetime | dt.date = Field(description=f"Window start; {_WINDOW_TEXT}")
    end: dt.datetime | dt.date = Field(description=f"Window end; {_WINDOW_TEXT}")
    timezone: str | None = Field(
        default=None,
        max_length=64,
        description="IANA zone the dates are local to (e.g. Asia/Bangkok); UTC when omitted",
    )

    _known_zone = field_validator("timezone")(check_zone)
    _in_span = field_validator("start", "end")(in_ephemeris_span)

    @model_validator(mode="after")
    def _window(self) -> Self:
        self.start = _aware(self.start)
        self.end = _aware(self.end)
        try:
            window(self.start, self.end, self.timezone)
        except CalcInputError as exc:
            raise PydanticCustomError(
                "window", "{message}", {"field": exc.field, "message": exc.message}
            ) from None
        return self


class SkyEventsRequest(EventWindow):
    kinds: list[Kind] = Field(
        default_factory=lambda: list(KINDS),
        min_length=1,
        max_length=len(KINDS) * 2,
        description="Event kinds to list; default all five",
    )
    bodies: list[EventBody] | None = Field(
        default=None,
        min_length=1,
        max_length=len(ALLOWED_BODIES) * 2,
        description="Bodies whose ingresses and stations are listed; default the Sun and "
        "Mercury through Pluto (the Moon's ingresses only when named)",
    )
    void_of_course_rule: VoidRule = Field(
        default="traditional",
        description="traditional: the Moon's last exact Ptolemaic aspect to the Sun through "
        "Saturn; modern adds Uranus, Neptune and Pluto",
    )
    latitude: float | None = Field(
        default=None, ge=-90, le=90, description="For local eclipse circumstances (with longitude)"
    )
    longitude: float | None = Field(
        default=None, ge=-180, le=180, description="For local eclipse circumstances (with latitude)"
    )
    language: Language = Field(default="en", description="Language of the iCalendar texts")

    @model_validator(mode="after")
    def _place(self) -> Self:
        if (self.latitude is None) != (self.longitude is None):
            missing = "longitude" if self.longitude is None else "latitude"
            raise PydanticCustomError(
                "place",
                "give both latitude and longitude for local eclipse circumstances, or neither",
                {"field": missing},
            )
        return self


class PlanetaryHoursQuery(BaseModel):
    date: dt.date = Field(description="Local calendar date in timezone (YYYY-MM-DD)")
    latitude: float = Field(
        ge=-90,
        le=90,
        description=f"Degrees, north positive; beyond {MAX_LATITUDE:g} degrees either way it "
        "is refused (the Sun may not rise or set)",
    )
    longitude: float = Field(ge=-180, le=180, description="Degrees, east positive")
    timezone: str | None = timezone_field("Europe/London")
    language: Language = Field(default="en", description="Language of the iCalendar texts")

    _known_zone = field_validator("timezone")(check_zone)
    _in_span = field_validator("date")(in_ephemeris_span)

    @field_validator("latitude")
    @classmethod
    def _not_polar(cls, value: float) -> float:
        if abs(value) > MAX_LATITUDE:
            raise ValueError(
                f"beyond {MAX_LATITUDE:g} degrees the Sun may not rise or set on a day, and "
                "planetary hours need a sunrise and a sunset"
            )
        return value


class ForecastRequest(EventWindow):
    subject: WesternSubject
    orb_deg: dict[TransitingBody, float] | None = Field(
        default=None,
        description="Orb in degrees per transiting body, above 0 and at most 10; default 2 for "
        "the Sun through Mars, 1.5 for Jupiter and Saturn, 1 for Uranus to Pluto",
    )
    language: Language = Field(default="en", description="Language of the iCalendar texts")

    @field_validator("orb_deg")
    @classmethod
    def _orb_range(cls, value: dict[str, float] | None) -> dict[str, float] | None:
        for body, orb in (value or {}).items():
            if not 0.0 < orb <= 10.0:
                raise ValueError(f"the orb of {body} must be above 0 and at most 10")
        return value
