"""The birth subject of the interface spec: local date and time, place, offset, ayanamsa.

``time`` is ``HH:MM`` or ``HH:MM:SS`` (24-hour). The UT instant comes from
:func:`astro_calc.time.resolve`: an explicit ``timezone_offset_minutes`` wins; else the IANA
``timezone``; else the zone found from the coordinates with its historical offset.
"""

from __future__ import annotations

from datetime import date

import msgspec

from astro_calc import ephemeris
from astro_calc.errors import CalcInputError
from astro_calc.time import ResolvedTime, parse_time_of_day, resolve


class BirthSubject(msgspec.Struct, frozen=True):
    date: date
    time: str
    latitude: float
    longitude: float
    timezone_offset_minutes: int | None = None
    ayanamsa: str = "lahiri"
    timezone: str | None = None


class BirthMoment(msgspec.Struct, frozen=True):
    jd_ut: float
    resolved: ResolvedTime


def birth_moment(subject: BirthSubject) -> BirthMoment:
    """UT Julian day of a birth subject (see the module docstring for the time rules).

    Bad fields raise :class:`CalcInputError` naming the spec's field (``time``, ``latitude``,
    ``longitude``, ``timezoneOffsetMinutes``, ``timezone``, ``ayanamsa``)."""
    if not -90.0 <= subject.latitude <= 90.0:
        raise CalcInputError("latitude", "must be between -90 and 90")
    if not -180.0 <= subject.longitude <= 180.0:
        raise CalcInputError("longitude", "must be between -180 and 180")
    if subject.ayanamsa not in ephemeris.AYANAMSAS:
        raise CalcInputError(
            "ayanamsa",
            f"unknown ayanamsa {subject.ayanamsa!r}; one of {', '.join(ephemeris.AYANAMSAS)}",
        )
    local_time = parse_time_of_day(subject.time, "time")
    resolved = resolve(
        subject.date,
        local_time,
        latitude=subject.latitude,
        longitude=subject.longitude,
        offset_minutes=subject.timezone_offset_minutes,
        timezone_name=subject.timezone,
    )
    return BirthMoment(ephemeris.julian_day(resolved.utc), resolved)
