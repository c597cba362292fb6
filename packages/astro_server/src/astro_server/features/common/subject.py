"""The birth subject every chart request shares, and how it becomes astro_calc inputs.

The spec's object is ``date``, ``time`` (24-hour HH:MM or HH:MM:SS), ``latitude`` -90..90,
``longitude`` -180..180 and an optional ``timezoneOffsetMinutes`` -1080..1080, plus our optional
IANA ``timezone`` (checked against the zone database here, so an unknown name is a 400 before any
charge); with neither offset nor zone the zone is found from the coordinates. Instead of the
coordinates a subject may name ``place``, a city id from ``GET /api/v3/places``: its latitude,
longitude and (with neither offset nor zone given) IANA zone are filled in as it is validated;
a place with coordinates as well, or an unknown id, is a 400 naming ``subject.place``.

Each tag group subclasses :class:`BirthSubject` under its own OpenAPI component name and adds only
what differs (Western ``fold``, Vedic ``ayanamsa``, the Chinese birth-year span, an example zone).

A calculation that refuses a subject field raises ``CalcInputError("time", ...)``;
:func:`subject_errors` (or :func:`names_subject_fields` on a handler) renames it
``subject.time``, the field's place in the request body, like request validation does.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any, Final, TypedDict, TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError
from quart import Response

from astro_calc.errors import CalcInputError
from astro_calc.places import place_by_id
from astro_calc.time import ResolvedTime, parse_time_of_day, resolve, zone
from astro_server.features.common.routing import in_ephemeris_span

TIME_PATTERN = r"^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$"
SUBJECT_FIELDS = frozenset(
    {"date", "time", "latitude", "longitude", "timezone", "timezoneOffsetMinutes", "fold", "place"}
)


def check_zone(value: str | None) -> str | None:
    """A pydantic validator body: an unknown IANA zone name is a ``ValueError`` (a 400)."""
    if value is not None:
        try:
            zone(value)
        except CalcInputError as exc:
            raise ValueError(exc.message) from None
    return value


def offset_minutes_field(description: str) -> Any:
    """The spec's ``timezoneOffsetMinutes``: optional, -1080..1080 (UTC-18:00 to UTC+18:00)."""
    return Field(default=None, ge=-1080, le=1080, description=description)


def timezone_field(example: str | None = None) -> Any:
    """The optional IANA ``timezone``, documented with an example zone of the tag group."""
    example_text = f" (e.g. {example})" if example else ""
    return Field(
        default=None,
        max_length=64,
        description=f"IANA zone{example_text}; with neither offset nor zone the zone is "
        "found from the coordinates",
    )


class ZoneInputs(TypedDict):
    """The keyword arguments astro_calc's time resolution takes besides date and time."""

    latitude: float
    longitude: float
    offset_minutes: int | None
    timezone_name: str | None


COORDINATES: Final = ("latitude", "longitude")


def _coordinates_optional(schema: dict[str, Any]) -> None:
    """In OpenAPI, ``latitude`` and ``longitude`` are optional (required unless ``place`` is
    given, which the model's check enforces) without a default."""
    for name in COORDINATES:
        schema["properties"][name].pop("default", None)


def _place_error(message: str) -> PydanticCustomError:
    return PydanticCustomError("place", message, {"member": "place"})


class BirthSubject(BaseModel):
    """Base of the groups' subject models; it is never a request component itself."""

    model_config = ConfigDict(json_schema_extra=_coordinates_optional)

    date: dt.date = Field(description="Local calendar date of birth (YYYY-MM-DD)")
    time: str = Field(pattern=TIME_PATTERN, description="Local time, 24-hour HH:MM or HH:MM:SS")
    # Typed float: after validation both hold a number (from the body or from ``place``).
    latitude: float = Field(  # type: ignore[assignment]
        default=None,
        ge=-90,
        le=90,
        description="Degrees, north positive; required unless place is given",
    )
    longitude: float = Field(  # type: ignore[assignment]
        default=None,
        ge=-180,
        le=180,
        description="Degrees, east positive; required unless place is given",
    )
    # Excluded from dumps: a stored or queued subject keeps the coordinates (and zone) it was
    # filled with, and validates again without "place and coordinates".
    place: int | None = Field(
        default=None,
        exclude=True,
        description="A place id from GET /api/v3/places instead of latitude and longitude: its "
        "coordinates, and its IANA zone when neither timezone nor timezoneOffsetMinutes is given",
    )
    timezoneOffsetMinutes: int | None = offset_minutes_field(  # the spec's field name
        "Offset from UTC in minutes; wins over timezone when both are given"
    )
    timezone: str | None = timezone_field()

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str | None) -> str | None:
        return check_zone(value)

    _in_span = field_validator("date")(in_ephemeris_span)

    @model_validator(mode="after")
    def _place_or_coordinates(self) -> BirthSubject:
        """``place`` -> the city's coordinates (and zone); without it both coordinates."""
        if self.place is None:
            for name in COORDINATES:
                if getattr(self, name) is None:
                    raise PydanticCustomError(
                        "missing", "required unless place is given", {"member": name}
                    )
            return self
        if self.latitude is not None or self.longitude is not None:
            raise _place_error("give place or latitude and longitude, not both")
        try:
            found = place_by_id(self.place)
        except CalcInputError:
            raise _place_error(f"unknown place id {self.place}") from None
        self.latitude = found.latitude
        self.longitude = found.longitude
        if self.timezone is None and self.timezoneOffsetMinutes is None:
            self.timezone = found.timezone
        return self

    def local_time(self, field: str = "time") -> dt.time:
        """``time`` as a time of day; a malformed one is an error naming ``field``."""
        return parse_time_of_day(self.time, field)

    def zone_inputs(self) -> ZoneInputs:
        """Place and zone as astro_calc's ``resolve``-style keyword arguments."""
        return ZoneInputs(
            latitude=self.latitude,
            longitude=self.longitude,
            offset_minutes=self.timezoneOffsetMinutes,
            timezone_name=self.timezone,
        )

    def repeated_time_fold(self) -> int:
        """Which instant a local time repeated at the end of DST means: 0 the earlier."""
        return 0

    def resolve(self, *, time_field: str = "time") -> ResolvedTime:
        """The UTC instant, local time, offset and zone of the birth (astro_calc.time.resolve);
        refused fields are named as the calculation names them (see :func:`subject_errors`)."""
        return resolve(
            self.date,
            self.local_time(time_field),
            **self.zone_inputs(),
            fold=self.repeated_time_fold(),
        )


@contextmanager
def subject_errors(prefix: str = "subject") -> Iterator[None]:
    """Name a subject field the calculation refuses by its place in the body (``subject.time``)."""
    try:
        yield
    except CalcInputError as exc:
        if exc.field in SUBJECT_FIELDS:
            raise type(exc)(f"{prefix}.{exc.field}", exc.message) from None
        raise


Handler = TypeVar("Handler", bound=Callable[[Any], Awaitable[Response]])


def names_subject_fields(handler: Handler) -> Handler:
    """:func:`subject_errors` around a whole request handler."""

    @functools.wraps(handler)
    async def wrapper(data: Any) -> Response:
        with subject_errors():
            return await handler(data)

    return wrapper  # type: ignore[return-value]
