"""The birth subject, the zodiac, and the time echo every Western and Uranian result carries.

A birth subject is a local date and time at a place plus, optionally, how to read the clock:
``timezone_offset_minutes`` (the API's ``timezoneOffsetMinutes``), an IANA ``timezone``, or
neither (the zone is found from the coordinates). :func:`astro_calc.time.resolve` applies the
rules; the resolved UTC instant and offset are echoed as :class:`SubjectTime`.
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, time
from functools import cache
from importlib.resources import files
from typing import Any, Final

import msgspec

from astro_calc import ephemeris
from astro_calc import time as ltime
from astro_calc.errors import CalcInputError
from astro_calc.zodiac import SIGNS as SIGNS

ELEMENTS: Final = ("fire", "earth", "air", "water")
MODALITIES: Final = ("cardinal", "fixed", "mutable")


def sign_of(longitude: float) -> str:
    """Tropical sign of an ecliptic longitude (30-degree signs from 0 Aries)."""
    return SIGNS[int(longitude // 30.0) % 12]


def element_of(sign: str) -> str:
    """Fire, earth, air, water in the order aries, taurus, gemini, cancer, repeating."""
    return ELEMENTS[SIGNS.index(sign) % 4]


def modality_of(sign: str) -> str:
    """Cardinal, fixed, mutable in the order aries, taurus, gemini, repeating."""
    return MODALITIES[SIGNS.index(sign) % 3]


def midpoint(a: float, b: float) -> float:
    """Midpoint of two longitudes on the shorter arc, in [0, 360). When they are exactly
    opposite, the midpoint lies 90 degrees ahead of ``a``."""
    return (a + ephemeris.angle_diff(b, a) / 2.0) % 360.0


@cache
def load_data(tradition: str, name: str) -> dict[str, Any]:
    """A JSON data file shipped in ``astro_calc/data/<tradition>/<name>``."""
    text = files("astro_calc").joinpath("data", tradition, name).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


class BirthSubject(msgspec.Struct, frozen=True):
    """A birth: local ``date`` and ``time`` (HH:MM or HH:MM:SS), ``latitude`` (north positive)
    and ``longitude`` (east positive), and at most one clock rule (offset or IANA zone); with
    neither the zone is found from the coordinates. ``fold=1`` takes the later of two repeated
    local times at the end of daylight saving."""

    date: date
    time: str | time
    latitude: float
    longitude: float
    timezone_offset_minutes: int | None = None
    timezone: str | None = None
    fold: int = 0


class SubjectTime(msgspec.Struct, frozen=True, gc=False):
    """The resolved instant of a birth: UTC, local time with its offset, and the Julian day."""

    utc: datetime
    local: datetime
    offset_minutes: int
    timezone: str | None
    time_source: str
    julian_day: float


def check_location(latitude: float, longitude: float, prefix: str = "") -> None:
    if not -90.0 <= latitude <= 90.0:
        raise CalcInputError(f"{prefix}latitude", "must be between -90 and 90")
    if not -180.0 <= longitude <= 180.0:
        raise CalcInputError(f"{prefix}longitude", "must be between -180 and 180")


def resolve_subject(subject: BirthSubject, prefix: str = "") -> SubjectTime:
    """Resolve a birth subject to UTC with :func:`astro_calc.time.resolve`. ``prefix`` is put
    before field names in errors (``"subject_b."`` for the second subject of a synastry)."""
    check_location(subject.latitude, subject.longitude, prefix)
    local_time = (
        subject.time
        if isinstance(subject.time, time)
        else ltime.parse_time_of_day(subject.time, f"{prefix}time")
    )
    try:
        resolved = ltime.resolve(
            subject.date,
            local_time,
            latitude=subject.latitude,
            longitude=subject.longitude,
            offset_minutes=subject.timezone_offset_minutes,
            timezone_name=subject.timezone,
            fold=subject.fold,
        )
    except CalcInputError as exc:
        if not prefix:
            raise
        raise type(exc)(prefix + exc.field, exc.message) from None
    jd = ephemeris.julian_day(resolved.utc)
    return SubjectTime(
        utc=resolved.utc,
        local=resolved.local,
        offset_minutes=resolved.offset_minutes,
        timezone=resolved.timezone,
        time_source=resolved.source,
        julian_day=jd,
    )


def instant_time(
    moment: datetime, latitude: float, longitude: float, timezone: str | None = None
) -> SubjectTime:
    """Echo for a computed instant (a return, a Davison moment): UTC plus the local clock of the
    zone at the place (found from the coordinates unless ``timezone`` is given)."""
    if moment.tzinfo is None:
        raise CalcInputError("datetime", "a timezone-aware datetime is required")
    utc = moment.astimezone(UTC)
    name = timezone or ltime.timezone_at(latitude, longitude)
    local = utc.astimezone(ltime.zone(name))
    offset = local.utcoffset()
    assert offset is not None
    return SubjectTime(
        utc=utc,
        local=local,
        offset_minutes=round(offset.total_seconds() / 60),
        timezone=name,
        time_source="timezone" if timezone else "coordinates",
        julian_day=ephemeris.julian_day(utc),
    )


def aware(moment: datetime | date, field: str) -> datetime:
    """A target instant: an aware datetime, or a date meaning 00:00 UTC of that day."""
    if isinstance(moment, datetime):
        if moment.tzinfo is None:
            raise CalcInputError(field, "a timezone-aware date-time is required")
        return moment.astimezone(UTC)
    return datetime(moment.year, moment.month, moment.day, tzinfo=UTC)
