"""Planetary hours against pyswisseph's ``rise_trans`` (upper limb, refraction at 1013.25 hPa
and 15 C): sunrise and sunset within 8 s up to 52 degrees of latitude, 40 s at 64.8 degrees.
Ours is the almanac's fixed 34' seen from the Earth's centre; rise_trans computes its own
refraction and the Sun's parallax (8.8"), which moves its instants by a few seconds, and the
grazing Sun of high latitudes turns an arcsecond into several seconds of time."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
import swisseph as swe

from astro_calc import ephemeris
from astro_calc.errors import CalcInputError
from astro_calc.western.events.hours import CHALDEAN, planetary_hours


def _rise_trans(jd: float, lat: float, lon: float, kind: int) -> datetime:
    res, times = swe.rise_trans(jd, swe.SUN, kind, (lon, lat, 0.0), 1013.25, 15.0, swe.FLG_MOSEPH)
    assert res == 0
    return ephemeris.datetime_from_jd(times[0])


PLACES = [
    (13.75, 100.5, "Asia/Bangkok", 8.0),
    (51.5, -0.13, "Europe/London", 8.0),
    (-33.87, 151.21, "Australia/Sydney", 8.0),
    (40.71, -74.01, "America/New_York", 8.0),
    (64.8, -147.7, "America/Anchorage", 40.0),
]
DAYS = [
    date(2026, 1, 5),
    date(2026, 3, 20),
    date(2026, 6, 21),
    date(2026, 9, 23),
    date(2026, 12, 21),
]


@pytest.mark.parametrize(("lat", "lon", "tz", "tolerance"), PLACES)
@pytest.mark.parametrize("day", DAYS)
def test_sunrise_and_sunset_agree_with_rise_trans(
    lat: float, lon: float, tz: str, tolerance: float, day: date
) -> None:
    hours = planetary_hours(day, lat, lon, tz)
    jd = ephemeris.julian_day(hours.sunrise) - 0.1
    assert (
        abs((hours.sunrise - _rise_trans(jd, lat, lon, swe.CALC_RISE)).total_seconds()) <= tolerance
    )
    assert (
        abs((hours.sunset - _rise_trans(jd, lat, lon, swe.CALC_SET)).total_seconds()) <= tolerance
    )
    nxt = ephemeris.julian_day(hours.sunset)
    assert (
        abs((hours.next_sunrise - _rise_trans(nxt, lat, lon, swe.CALC_RISE)).total_seconds())
        <= tolerance
    )
    # The sunrise falls on the local date asked for.
    assert hours.sunrise.astimezone(__import__("zoneinfo").ZoneInfo(tz)).date() == day


def test_24_hours_tile_the_day_and_night_in_chaldean_order() -> None:
    hours = planetary_hours(date(2026, 3, 14), 13.75, 100.5, "Asia/Bangkok")  # a Saturday
    assert len(hours.hours) == 24
    assert hours.day_ruler == "saturn"
    assert [h.ruler for h in hours.hours[:8]] == [
        "saturn",
        "jupiter",
        "mars",
        "sun",
        "venus",
        "mercury",
        "moon",
        "saturn",
    ]
    assert [h.period for h in hours.hours] == ["day"] * 12 + ["night"] * 12
    assert hours.hours[0].start == hours.sunrise
    assert hours.hours[12].start == hours.sunset
    assert hours.hours[-1].end == hours.next_sunrise
    for a, b in zip(hours.hours, hours.hours[1:], strict=False):
        assert abs((b.start - a.end).total_seconds()) <= 1
    # The next day's first hour is ruled by the planet after the 24th hour's ruler: Sunday, Sun.
    assert CHALDEAN[(CHALDEAN.index(hours.hours[-1].ruler) + 1) % 7] == "sun"


def test_day_hours_are_longer_than_night_hours_in_a_northern_summer() -> None:
    hours = planetary_hours(date(2026, 6, 21), 51.5, -0.13, "Europe/London")
    day_len = hours.hours[0].end - hours.hours[0].start
    night_len = hours.hours[12].end - hours.hours[12].start
    assert day_len > timedelta(minutes=80) > timedelta(minutes=40) > night_len


def test_results_are_utc_to_the_second() -> None:
    hours = planetary_hours(date(2026, 6, 1), 13.75, 100.5, "Asia/Bangkok")
    for h in hours.hours:
        assert h.start.tzinfo == UTC
        assert h.start.microsecond == 0


@pytest.mark.parametrize("lat", [66.5, -70.0, 89.0])
def test_latitudes_beyond_66_degrees_are_refused_with_a_reason(lat: float) -> None:
    with pytest.raises(CalcInputError) as err:
        planetary_hours(date(2026, 6, 21), lat, 0.0, "UTC")
    assert err.value.field == "latitude"
    assert "66" in err.value.message
    assert "sunrise" in err.value.message


def test_the_zone_is_found_from_the_coordinates_when_omitted() -> None:
    hours = planetary_hours(date(2026, 6, 1), 13.75, 100.5)
    assert hours.timezone == "Asia/Bangkok"
