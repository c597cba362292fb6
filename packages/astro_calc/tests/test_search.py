"""Instant finding against published new moons and equinoxes."""

from __future__ import annotations

from datetime import UTC, datetime

from astro_calc import ephemeris, search


def _minutes_between(jd: float, expected: datetime) -> float:
    return abs((ephemeris.datetime_from_jd(jd) - expected).total_seconds()) / 60


def test_new_moon_of_january_2000() -> None:
    # USNO Phases of the Moon: new moon 2000 Jan 6 18:14 UT.
    jd = search.next_lunar_phase(2451545.0, 0.0)
    assert _minutes_between(jd, datetime(2000, 1, 6, 18, 14, tzinfo=UTC)) < 1.0


def test_full_moon_before_j2000() -> None:
    # USNO: full moon 1999 Dec 22 17:31 UT.
    jd = search.previous_lunar_phase(2451545.0, 180.0)
    assert _minutes_between(jd, datetime(1999, 12, 22, 17, 31, tzinfo=UTC)) < 1.0


def test_march_equinox_2000() -> None:
    # USNO Earth's Seasons: equinox 2000 March 20 07:35 UT.
    jd = search.next_longitude("sun", 0.0, 2451545.0)
    assert _minutes_between(jd, datetime(2000, 3, 20, 7, 35, tzinfo=UTC)) < 1.0
