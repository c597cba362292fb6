"""Solar and lunar returns against an independent brute-force scan with pyswisseph.

The scan steps an hour at a time, then a minute at a time inside the bracketing hour, calling
pyswisseph directly; the return instant must lie within one minute of the scanned minute, and
the refined root must leave the body less than one second of its motion from the natal
longitude.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
import swisseph as swe

from astro_calc.errors import CalcInputError
from astro_calc.western import BirthSubject, lunar_return, solar_return

FLAGS = swe.FLG_MOSEPH | swe.FLG_SPEED
MINUTE = 1.0 / 1440.0


def _lon(jd: float, body: int) -> float:
    return float(swe.calc_ut(jd, body, FLAGS)[0][0])


def _signed(a: float, b: float) -> float:
    return (a - b + 180.0) % 360.0 - 180.0


def _scan(body: int, target: float, start: float, days: float) -> float:
    """First upward crossing of ``target`` after ``start``: hourly then by minute."""
    step = 1.0 / 24.0
    t = start
    v = _signed(_lon(t, body), target)
    while t < start + days:
        v1 = _signed(_lon(t + step, body), target)
        if v < 0 <= v1 and v1 - v < 180:
            m = t
            while _signed(_lon(m + MINUTE, body), target) < 0:
                m += MINUTE
            return m + MINUTE / 2
        t, v = t + step, v1
    raise AssertionError("no crossing found")


SUBJECT = BirthSubject(date(1985, 11, 3), "14:20", 13.75, 100.5, timezone="Asia/Bangkok")


def test_solar_return_instant_matches_a_brute_force_scan() -> None:
    r = solar_return(SUBJECT, 2025)
    natal_sun = _lon(swe.julday(1985, 11, 3, 7 + 20 / 60), swe.SUN)
    assert r.natal_longitude == pytest.approx(natal_sun, abs=1e-9)
    scanned = _scan(swe.SUN, natal_sun, swe.julday(2025, 10, 30, 0.0), 10)
    assert abs(r.return_julian_day - scanned) * 1440 < 1.0
    assert r.chart.meta.local.date() == date(2025, 11, 3)  # 06:49 in Bangkok
    # Under one second: the residual angle is less than one second of solar motion.
    sun = swe.calc_ut(r.return_julian_day, swe.SUN, FLAGS)[0]
    assert abs(_signed(sun[0], natal_sun)) / sun[3] * 86400 < 1.0


def test_solar_return_chart_is_cast_for_the_chosen_place() -> None:
    r = solar_return(SUBJECT, 2025, latitude=51.5, longitude=-0.13)
    assert r.chart.meta.latitude == 51.5
    assert r.chart.meta.timezone == "Europe/London"
    assert r.chart.meta.utc == r.return_utc
    _, ascmc = swe.houses_ex(r.return_julian_day, 51.5, -0.13, b"P", swe.FLG_MOSEPH)
    assert r.chart.angles.ascendant.longitude == pytest.approx(ascmc[0] % 360, abs=0.01)
    assert r.chart.planet("sun").longitude == pytest.approx(r.natal_longitude, abs=1e-4)
    assert r.meta.utc == datetime(1985, 11, 3, 7, 20, tzinfo=UTC)


def test_lunar_return_after_a_date_matches_a_brute_force_scan() -> None:
    after = datetime(2024, 6, 10, tzinfo=UTC)
    r = lunar_return(SUBJECT, after)
    natal_moon = _lon(swe.julday(1985, 11, 3, 7 + 20 / 60), swe.MOON)
    scanned = _scan(swe.MOON, natal_moon, swe.julday(2024, 6, 10, 0.0), 30)
    assert abs(r.return_julian_day - scanned) * 1440 < 1.0
    assert r.return_utc > after
    moon = swe.calc_ut(r.return_julian_day, swe.MOON, FLAGS)[0]
    assert abs(_signed(moon[0], natal_moon)) / moon[3] * 86400 < 1.0


@pytest.mark.parametrize("year", [1990, 2000, 2031, 2050])
def test_solar_returns_over_several_years_match_the_scan(year: int) -> None:
    r = solar_return(SUBJECT, year)
    scanned = _scan(swe.SUN, r.natal_longitude, swe.julday(year, 10, 30, 0.0), 10)
    assert abs(r.return_julian_day - scanned) * 1440 < 1.0


def test_solar_return_for_a_29_february_birthday() -> None:
    leapling = BirthSubject(date(2000, 2, 29), "12:00", 40.0, -74.0, timezone_offset_minutes=-300)
    r = solar_return(leapling, 2023)
    scanned = _scan(swe.SUN, r.natal_longitude, swe.julday(2023, 2, 25, 0.0), 10)
    assert abs(r.return_julian_day - scanned) * 1440 < 1.0


def test_year_before_birth_is_refused() -> None:
    with pytest.raises(CalcInputError) as info:
        solar_return(SUBJECT, 1970)
    assert info.value.field == "year"


def test_naive_after_is_refused() -> None:
    with pytest.raises(CalcInputError) as info:
        lunar_return(SUBJECT, datetime(2024, 1, 1))
    assert info.value.field == "after"


@pytest.mark.parametrize(
    ("subject", "year"),
    [
        # Returns of early-1900s births in the 2090s come about three days before the birthday
        # (1900 was no leap year), and east of Greenwich the local birth date is a day ahead of
        # UT: the search window must reach back that far (these failed with "does not reach").
        (BirthSubject(date(1907, 9, 10), "09:30", 35.68, 139.69, timezone="Asia/Tokyo"), 2096),
        (
            BirthSubject(date(1903, 3, 22), "00:30", -36.85, 174.76, timezone_offset_minutes=720),
            2097,
        ),
        (BirthSubject(date(1935, 4, 17), "04:46", 1.29, 103.85, timezone_offset_minutes=435), 2096),
        (BirthSubject(date(150, 6, 15), "12:00", 41.9, 12.5, timezone_offset_minutes=60), 2999),
    ],
)
def test_solar_returns_far_from_birth_match_swisseph_solcross(
    subject: BirthSubject, year: int
) -> None:
    r = solar_return(subject, year)
    natal_sun = r.natal_longitude
    # Swiss Ephemeris's own Sun-crossing search, started a month before the anniversary.
    start = swe.julday(year, subject.date.month, 1, 0.0) - 30
    ref = swe.solcross_ut(natal_sun, start, swe.FLG_MOSEPH)
    assert abs(r.return_julian_day - ref) * 86400 < 1.0


def test_lunar_return_before_birth_is_refused() -> None:
    with pytest.raises(CalcInputError) as info:
        lunar_return(SUBJECT, datetime(1980, 1, 1, tzinfo=UTC))
    assert info.value.field == "after"
