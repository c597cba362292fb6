"""Local time to UT: fixed offsets, IANA zones with history, zones found from coordinates."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

import pytest

from astro_calc import time as ltime
from astro_calc.errors import CalcInputError, NonexistentLocalTimeError


def test_fixed_offset_is_applied() -> None:
    r = ltime.resolve(date(1990, 5, 1), time(7, 0), offset_minutes=420)
    assert r.utc == datetime(1990, 5, 1, 0, 0, tzinfo=UTC)
    assert r.source == "offset"


def test_wartime_paris_uses_german_summer_time() -> None:
    # 1944-06-06 Paris kept UTC+2 (German summer time), per the IANA tz database history.
    r = ltime.resolve(date(1944, 6, 6), time(6, 30), timezone_name="Europe/Paris")
    assert r.offset_minutes == 120
    assert r.utc == datetime(1944, 6, 6, 4, 30, tzinfo=UTC)


def test_zone_found_from_coordinates() -> None:
    r = ltime.resolve(date(2001, 1, 1), time(12, 0), latitude=13.75, longitude=100.5)
    assert r.timezone == "Asia/Bangkok"
    assert r.source == "coordinates"
    assert r.utc == datetime(2001, 1, 1, 5, 0, tzinfo=UTC)


def test_nonexistent_local_time_is_an_error_naming_it() -> None:
    # 2021-03-14 02:30 was skipped in New York (clocks went 02:00 -> 03:00).
    with pytest.raises(NonexistentLocalTimeError, match="02:30"):
        ltime.resolve(date(2021, 3, 14), time(2, 30), timezone_name="America/New_York")


def test_ambiguous_local_time_takes_the_earlier_instant_by_default() -> None:
    # 2021-11-07 01:30 happened twice in New York: first at UTC-4, then at UTC-5.
    first = ltime.resolve(date(2021, 11, 7), time(1, 30), timezone_name="America/New_York")
    second = ltime.resolve(date(2021, 11, 7), time(1, 30), timezone_name="America/New_York", fold=1)
    assert first.utc == datetime(2021, 11, 7, 5, 30, tzinfo=UTC)
    assert second.utc == datetime(2021, 11, 7, 6, 30, tzinfo=UTC)


def test_unknown_zone_names_the_field() -> None:
    with pytest.raises(CalcInputError) as info:
        ltime.resolve(date(2000, 1, 1), time(0, 0), timezone_name="Mars/Olympus")
    assert info.value.field == "timezone"


@pytest.mark.parametrize("text", ["24:00", "7:00", "12:60", "noon"])
def test_bad_time_strings_are_refused(text: str) -> None:
    with pytest.raises(CalcInputError):
        ltime.parse_time_of_day(text)


def test_time_with_seconds_parses() -> None:
    assert ltime.parse_time_of_day("23:59:58") == time(23, 59, 58)


def test_before_standard_time_the_birth_place_keeps_its_own_local_mean_time() -> None:
    # Germany took standard time in 1893; before, the tz database's Europe/Berlin is Berlin's mean
    # time (+0:53:28). Munich (11.575 E) kept its own: 11.575 * 4 min = +0:46:18, so 12:00 local
    # was 11:13:42 UT (astro.com's atlas uses the place's LMT the same way).
    for zone_name in ("Europe/Berlin", None):
        r = ltime.resolve(
            date(1850, 6, 1),
            time(12, 0),
            latitude=48.137,
            longitude=11.575,
            timezone_name=zone_name,
        )
        assert r.utc == datetime(1850, 6, 1, 11, 13, 42, tzinfo=UTC)
        assert r.offset_minutes == 46
        assert r.timezone == "Europe/Berlin"
    # After 1893 the zone's legal time applies to every place in it.
    r = ltime.resolve(date(1900, 6, 1), time(12, 0), latitude=48.137, longitude=11.575)
    assert r.utc == datetime(1900, 6, 1, 11, 0, tzinfo=UTC)


def test_a_named_legal_mean_time_is_kept() -> None:
    # Paris Mean Time (+0:09:21) was France's legal time from 1891 to 1911: it applies in Brest
    # too, whose own mean time would be -0:17:58.
    r = ltime.resolve(date(1900, 6, 1), time(12, 0), latitude=48.39, longitude=-4.49)
    assert r.utc == datetime(1900, 6, 1, 11, 50, 39, tzinfo=UTC)


def test_without_coordinates_the_zone_local_mean_time_stays() -> None:
    r = ltime.resolve(date(1850, 6, 1), time(12, 0), timezone_name="Europe/Berlin")
    assert r.utc == datetime(1850, 6, 1, 11, 6, 32, tzinfo=UTC)


def test_the_error_for_a_skipped_local_time_names_the_callers_field() -> None:
    with pytest.raises(NonexistentLocalTimeError) as info:
        ltime.resolve(
            date(2021, 3, 28), time(2, 30), timezone_name="Europe/Berlin", time_field="birth_time"
        )
    assert info.value.field == "birth_time"
