"""Solar and lunar returns: the instant the transiting Sun (Moon) comes back to its natal
tropical longitude, and the chart of that instant at a chosen place.

Convention: tropical longitudes, apparent geocentric, no precession correction (the usual
tropical return). The solar return "for a year" is the one that falls within two days before or
any time after the birthday's anniversary in that year (UT); the lunar return is the first one
after the given instant. The instant is found by bracketing and refining the root of
``angle_diff(longitude(t), natal_longitude)`` to 0.5 s (:mod:`astro_calc.search`).

Checked against: an independent brute-force scan with pyswisseph in
``tests/test_western_returns.py``, to one minute (the root itself is finer than one second).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, date, datetime, timedelta
from typing import Final, Literal

import msgspec

from astro_calc import ephemeris, search
from astro_calc.errors import CalcInputError
from astro_calc.western.natal import DEFAULT_BODIES, NatalChart, chart_at, check_house_system
from astro_calc.western.subject import (
    BirthSubject,
    SubjectTime,
    aware,
    check_location,
    instant_time,
    resolve_subject,
)

ReturnKind = Literal["solar", "lunar"]
_TOLERANCE_S: Final = 0.5


class ReturnChart(msgspec.Struct, frozen=True):
    """``return_utc`` is the exact instant; ``chart`` the chart of that instant at the chosen
    place (its ``meta`` echoes the instant and the place's local clock); ``meta`` echoes the
    birth."""

    kind: str
    return_utc: datetime
    return_julian_day: float
    natal_longitude: float
    chart: NatalChart
    meta: SubjectTime


def _place(
    subject: BirthSubject, latitude: float | None, longitude: float | None
) -> tuple[float, float]:
    lat = subject.latitude if latitude is None else latitude
    lon = subject.longitude if longitude is None else longitude
    check_location(lat, lon)
    return lat, lon


def _finish(
    kind: ReturnKind,
    jd: float,
    natal_longitude: float,
    birth: SubjectTime,
    latitude: float,
    longitude: float,
    timezone: str | None,
    house_system: str,
    bodies: Iterable[str],
    orbs: Mapping[str, float] | None,
) -> ReturnChart:
    moment = ephemeris.datetime_from_jd(jd)
    echo = msgspec.structs.replace(
        instant_time(moment, latitude, longitude, timezone), julian_day=jd
    )
    chart = chart_at(echo, latitude, longitude, house_system=house_system, bodies=bodies, orbs=orbs)
    return ReturnChart(kind, echo.utc, jd, natal_longitude, chart, birth)


def solar_return_instant(natal_sun_longitude: float, year: int, birthday: date) -> float:
    """Julian day (UT) of the solar return in ``year``: the Sun's one crossing of its natal
    longitude within ten days either side of the birthday's anniversary (a 29 February birthday
    uses 28 February). The calendar date of a return wanders: the leap-year cycle moves it by up
    to two days, the Gregorian year's excess over the tropical year by about a day per 3,000
    years, and a birth's local date can be a day off its UT date; returns of an early-1900s birth
    in the 2090s come about three days before the birthday."""
    day = 28 if (birthday.month, birthday.day) == (2, 29) else birthday.day
    start = datetime(year, birthday.month, day, tzinfo=UTC) - timedelta(days=10)
    return search.next_longitude(
        "sun",
        natal_sun_longitude,
        ephemeris.julian_day(start),
        step_days=5.0,
        max_days=20.0,
        tolerance_s=_TOLERANCE_S,
    )


def solar_return(
    subject: BirthSubject,
    year: int,
    *,
    latitude: float | None = None,
    longitude: float | None = None,
    timezone: str | None = None,
    house_system: str = "P",
    bodies: Iterable[str] = DEFAULT_BODIES,
    orbs: Mapping[str, float] | None = None,
) -> ReturnChart:
    """Solar return for ``year`` at a place (default: the birthplace); the exact instant is
    refined to under one second. See the module docstring for the convention."""
    check_house_system(house_system)
    if not 1 <= year <= 9999:
        raise CalcInputError("year", "must be between 1 and 9999")
    birth = resolve_subject(subject)
    if year < birth.utc.year:
        raise CalcInputError("year", "must not be before the birth year")
    lat, lon = _place(subject, latitude, longitude)
    natal_sun = ephemeris.body_position(birth.julian_day, "sun").longitude
    jd = solar_return_instant(natal_sun, year, birth.local.date())
    return _finish("solar", jd, natal_sun, birth, lat, lon, timezone, house_system, bodies, orbs)


def lunar_return(
    subject: BirthSubject,
    after: datetime | date,
    *,
    latitude: float | None = None,
    longitude: float | None = None,
    timezone: str | None = None,
    house_system: str = "P",
    bodies: Iterable[str] = DEFAULT_BODIES,
    orbs: Mapping[str, float] | None = None,
) -> ReturnChart:
    """The first lunar return after ``after`` (an aware date-time, or a date meaning 00:00 UTC)
    at a place (default: the birthplace), refined to under one second."""
    check_house_system(house_system)
    birth = resolve_subject(subject)
    start = aware(after, "after")
    if start < birth.utc:
        raise CalcInputError("after", "must not be before the birth")
    lat, lon = _place(subject, latitude, longitude)
    natal_moon = ephemeris.body_position(birth.julian_day, "moon").longitude
    jd = search.next_longitude(
        "moon",
        natal_moon,
        ephemeris.julian_day(start),
        step_days=0.5,
        max_days=30.0,
        tolerance_s=_TOLERANCE_S,
    )
    return _finish("lunar", jd, natal_moon, birth, lat, lon, timezone, house_system, bodies, orbs)
