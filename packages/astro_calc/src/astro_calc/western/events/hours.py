"""Planetary hours of one local day.

Conventions
-----------
* The day runs from sunrise to sunset (12 equal day hours) and the night from sunset to the next
  sunrise (12 equal night hours): unequal (temporal) hours, as in the classical and medieval
  tables.
* Sunrise and sunset: the upper limb of the Sun on the horizon with the standard refraction of
  34 arcminutes, i.e. the centre at -(34' + the Sun's semidiameter), seen from the Earth's
  centre (the almanac convention). Found by our own root finding on the Sun's altitude (apparent
  right ascension and declination from the ephemeris, Greenwich mean sidereal time by the IAU
  1982 formula, Meeus ch. 12); the equation of the equinoxes (at most 1.2 s) is left out.
* ``date`` is the local date in ``timezone`` (found from the coordinates when not given); its
  sunrise is the first after local midnight.
* The first hour of a day is ruled by the day's planet (Sunday the Sun, Monday the Moon, ...),
  the following hours by the Chaldean order (Saturn, Jupiter, Mars, Sun, Venus, Mercury, Moon).
* Beyond 66 degrees of latitude the Sun may stay up or down all day: refused.

Checked against: pyswisseph's ``rise_trans`` sunrise and sunset (upper limb, refraction) in
``tests/test_western_events_hours.py``.
"""

from __future__ import annotations

import math
from datetime import UTC, date, datetime, time, timedelta
from typing import Final, Literal

import msgspec

from astro_calc import ephemeris
from astro_calc import time as ltime
from astro_calc.errors import CalcInputError
from astro_calc.search import refine_root
from astro_calc.western.events._geo import altitude
from astro_calc.western.events._track import utc_second

CHALDEAN: Final = ("saturn", "jupiter", "mars", "sun", "venus", "mercury", "moon")
#: Ruler of the first hour by Python weekday (Monday 0).
DAY_RULERS: Final = ("moon", "mars", "mercury", "jupiter", "venus", "saturn", "sun")
MAX_LATITUDE: Final = 66.0
REFRACTION_DEG: Final = 34.0 / 60.0
_SUN_RADIUS_KM: Final = 696_000.0
_AU_KM: Final = 149_597_870.7


class PlanetaryHour(msgspec.Struct, frozen=True, gc=False):
    start: datetime
    end: datetime
    ruler: str
    period: Literal["day", "night"]


class PlanetaryHours(msgspec.Struct, frozen=True):
    date: date
    latitude: float
    longitude: float
    timezone: str
    sunrise: datetime
    sunset: datetime
    next_sunrise: datetime
    day_ruler: str
    hours: tuple[PlanetaryHour, ...]


def sun_altitude(jd_ut: float, latitude: float, longitude: float) -> tuple[float, float]:
    """(geometric altitude of the Sun's centre, its semidiameter), degrees, seen from the
    Earth's centre."""
    p = ephemeris.body_position(jd_ut, "sun")
    semidiameter = math.degrees(math.asin(_SUN_RADIUS_KM / (p.distance_au * _AU_KM)))
    return altitude(jd_ut, p.longitude, p.latitude, latitude, longitude), semidiameter


def _horizon_crossings(
    jd_from: float, jd_to: float, latitude: float, longitude: float
) -> list[tuple[float, bool]]:
    """(Julian day, rising) of every sunrise and sunset in [jd_from, jd_to]."""

    def f(jd: float) -> float:
        altitude, semidiameter = sun_altitude(jd, latitude, longitude)
        return altitude + REFRACTION_DEG + semidiameter

    step = 1.0 / 24.0
    out: list[tuple[float, bool]] = []
    t, v = jd_from, f(jd_from)
    while t < jd_to:
        t1 = t + step
        v1 = f(t1)
        if (v < 0) != (v1 < 0):
            out.append((refine_root(f, t, t1, tolerance_s=0.1, known=(v, v1)), v1 > 0))
        t, v = t1, v1
    return out


def planetary_hours(
    on_date: date, latitude: float, longitude: float, timezone: str | None = None
) -> PlanetaryHours:
    """The 24 planetary hours of the local date ``on_date`` at a place (see the module
    docstring for the conventions)."""
    ltime._check_coordinates(latitude, longitude)
    if abs(latitude) > MAX_LATITUDE:
        raise CalcInputError(
            "latitude",
            f"beyond {MAX_LATITUDE:g} degrees the Sun may not rise or set on a day, and "
            "planetary hours need a sunrise and a sunset",
        )
    name = timezone or ltime.timezone_at(latitude, longitude)
    tz = ltime.zone(name)
    midnight = datetime.combine(on_date, time(0), tzinfo=tz).astimezone(UTC)
    next_midnight = datetime.combine(on_date + timedelta(days=1), time(0), tzinfo=tz)
    jd0 = ephemeris.julian_day(midnight)
    jd1 = ephemeris.julian_day(next_midnight.astimezone(UTC))
    crossings = _horizon_crossings(jd0, jd1 + 1.0, latitude, longitude)
    rises = [jd for jd, up in crossings if up]
    if not rises or rises[0] >= jd1:
        raise CalcInputError("latitude", "the Sun does not rise on that date there")
    sunrise = rises[0]
    sets = [jd for jd, up in crossings if not up and jd > sunrise]
    later = [jd for jd in rises if jd > sunrise]
    if not sets or not later:
        raise CalcInputError("latitude", "the Sun does not set on that date there")
    sunset, next_sunrise = sets[0], later[0]
    day_ruler = DAY_RULERS[on_date.weekday()]
    first = CHALDEAN.index(day_ruler)
    hours: list[PlanetaryHour] = []
    for k in range(24):
        if k < 12:
            a, b, period = sunrise, sunset, "day"
            i = k
        else:
            a, b, period = sunset, next_sunrise, "night"
            i = k - 12
        length = (b - a) / 12.0
        hours.append(
            PlanetaryHour(
                start=utc_second(a + i * length),
                end=utc_second(a + (i + 1) * length),
                ruler=CHALDEAN[(first + k) % 7],
                period=period,  # type: ignore[arg-type]
            )
        )
    return PlanetaryHours(
        date=on_date,
        latitude=latitude,
        longitude=longitude,
        timezone=name,
        sunrise=utc_second(sunrise),
        sunset=utc_second(sunset),
        next_sunrise=utc_second(next_sunrise),
        day_ruler=day_ruler,
        hours=tuple(hours),
    )
