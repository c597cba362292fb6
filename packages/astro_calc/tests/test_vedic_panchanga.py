"""Panchanga against a published almanac and PyJHora.

Almanac: Drik Panchang (drikpanchang.com) festival pages for New Delhi, times in IST, printed to
the minute (truncated). Tolerance: 2 minutes.

* Diwali, Lakshmi Puja 2023: Amavasya tithi begins 02:44 PM Nov 12, ends 02:56 PM Nov 13, 2023.
* Guru Purnima 2023: Purnima tithi begins 08:21 PM Jul 02, ends 05:08 PM Jul 03, 2023.
* Krishna Janmashtami 2023: Ashtami tithi begins 03:37 PM Sep 06, ends 04:14 PM Sep 07;
  Rohini nakshatra begins 09:20 AM Sep 06, ends 10:25 AM Sep 07, 2023.
* Maha Shivaratri 2024: Chaturdashi tithi begins 09:57 PM Mar 08, ends 06:17 PM Mar 09, 2024.

PyJHora 4.8 (``drik.tithi``, ``nakshatra``, ``yogam``, ``karana``, Lahiri) gives the numbers of
the five limbs at the same moments.
"""

from __future__ import annotations

import sys
import types
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from astro_calc import CalcInputError, ephemeris
from astro_calc.vedic import panchanga_at
from astro_calc.vedic.panchanga import karana_name

IST = timezone(timedelta(hours=5, minutes=30))
DELHI = (28.6139, 77.2090)
_SWE_FLG_TRUEPOS = 16


def _ist(y: int, mo: int, d: int, h: int, mi: int) -> datetime:
    return datetime(y, mo, d, h, mi, tzinfo=IST)


def _close(actual: datetime, expected: datetime) -> bool:
    return abs(actual - expected) <= timedelta(minutes=2)


@pytest.mark.parametrize(
    ("moment", "number", "start", "end"),
    [
        (_ist(2023, 11, 13, 10, 0), 30, _ist(2023, 11, 12, 14, 44), _ist(2023, 11, 13, 14, 56)),
        (_ist(2023, 7, 3, 10, 0), 15, _ist(2023, 7, 2, 20, 21), _ist(2023, 7, 3, 17, 8)),
        (_ist(2023, 9, 6, 18, 0), 23, _ist(2023, 9, 6, 15, 37), _ist(2023, 9, 7, 16, 14)),
        (_ist(2024, 3, 9, 10, 0), 29, _ist(2024, 3, 8, 21, 57), _ist(2024, 3, 9, 18, 17)),
    ],
)
def test_tithi_and_its_times_match_drik_panchang(
    moment: datetime, number: int, start: datetime, end: datetime
) -> None:
    p = panchanga_at(ephemeris.julian_day(moment), *DELHI)
    assert p.tithi.number == number
    assert _close(p.tithi.start, start)
    assert _close(p.tithi.end, end)


def test_rohini_on_janmashtami_2023_matches_drik_panchang() -> None:
    p = panchanga_at(ephemeris.julian_day(_ist(2023, 9, 6, 18, 0)), *DELHI)
    assert (p.nakshatra.number, p.nakshatra.name) == (4, "Rohini")
    assert _close(p.nakshatra.start, _ist(2023, 9, 6, 9, 20))
    assert _close(p.nakshatra.end, _ist(2023, 9, 7, 10, 25))


def test_names_of_the_tithis_around_the_full_and_new_moon() -> None:
    diwali = panchanga_at(ephemeris.julian_day(_ist(2023, 11, 13, 10, 0)), *DELHI)
    assert (diwali.tithi.name, diwali.tithi.paksha) == ("Amavasya", "krishna")
    purnima = panchanga_at(ephemeris.julian_day(_ist(2023, 7, 3, 10, 0)), *DELHI)
    assert (purnima.tithi.name, purnima.tithi.paksha) == ("Purnima", "shukla")


def _jhora() -> Any:
    # PyJHora imports geocoding packages it does not use here; empty stand-ins suffice.
    sys.modules.setdefault("geocoder", types.ModuleType("geocoder"))
    if "geopy" not in sys.modules:
        geopy = types.ModuleType("geopy")
        geocoders = types.ModuleType("geopy.geocoders")
        geocoders.Nominatim = object  # type: ignore[attr-defined]
        geopy.geocoders = geocoders  # type: ignore[attr-defined]
        sys.modules["geopy"] = geopy
        sys.modules["geopy.geocoders"] = geocoders
    from jhora import utils
    from jhora.panchanga import drik

    drik.set_ayanamsa_mode("LAHIRI")
    drik.PLANET_FLAGS &= ~_SWE_FLG_TRUEPOS
    return types.SimpleNamespace(utils=utils, drik=drik)


@pytest.mark.parametrize(
    "local",
    [(2023, 11, 13, 10, 0), (2023, 7, 3, 10, 0), (2024, 3, 9, 10, 0), (2019, 1, 15, 16, 30)],
)
def test_limb_numbers_match_pyjhora(local: tuple[int, ...]) -> None:
    jh = _jhora()
    y, mo, d, h, mi = local
    place = jh.drik.Place("Delhi", *DELHI, 5.5)
    jd_local = jh.utils.julian_day_number(jh.drik.Date(y, mo, d), (h, mi, 0))
    p = panchanga_at(jd_local - 5.5 / 24, *DELHI)
    assert p.tithi.number == jh.drik.tithi(jd_local, place)[0]
    assert p.nakshatra.number == jh.drik.nakshatra(jd_local, place)[0]
    assert p.yoga.number == jh.drik.yogam(jd_local, place)[0]
    assert p.karana.number == jh.drik.karana(jd_local, place)[0]


def test_vara_runs_from_sunrise_to_sunrise() -> None:
    # 2023-11-13 was a Monday. At 04:00 IST, before sunrise, the Hindu day is still Sunday's.
    before = panchanga_at(ephemeris.julian_day(_ist(2023, 11, 13, 4, 0)), *DELHI)
    after = panchanga_at(ephemeris.julian_day(_ist(2023, 11, 13, 10, 0)), *DELHI)
    assert (before.vara.weekday, before.vara.name) == ("Sunday", "Ravivara")
    assert (after.vara.weekday, after.vara.name) == ("Monday", "Somavara")
    assert before.vara.end == after.vara.start == after.sunrise
    assert after.sunrise < after.sunset < after.next_sunrise


def test_disc_center_sunrise_is_later_than_upper_limb() -> None:
    jd = ephemeris.julian_day(_ist(2023, 11, 13, 10, 0))
    upper = panchanga_at(jd, *DELHI)
    centre = panchanga_at(jd, *DELHI, sunrise="disc_center")
    # The Sun's semi-diameter (16') takes about a minute to rise at Delhi in November.
    gap = centre.sunrise - upper.sunrise
    assert timedelta(seconds=40) < gap < timedelta(seconds=120)


def test_karana_names() -> None:
    assert [karana_name(i) for i in (0, 1, 7, 8, 56, 57, 58, 59)] == [
        "Kimstughna",
        "Bava",
        "Vishti",
        "Bava",
        "Vishti",
        "Shakuni",
        "Chatushpada",
        "Naga",
    ]


def test_polar_night_is_an_input_error() -> None:
    jd = ephemeris.julian_day(datetime(2023, 12, 21, 12, tzinfo=UTC))
    with pytest.raises(CalcInputError) as err:
        panchanga_at(jd, 78.2, 15.6)
    assert err.value.field == "latitude"


@pytest.mark.parametrize("day", [(2023, 11, 13), (2024, 6, 21), (2024, 12, 21), (2025, 3, 20)])
def test_hindu_sunrise_matches_pyjhora(day: tuple[int, int, int]) -> None:
    # PyJHora's sunrise is the classical Hindu one (disc centre, no refraction, geocentric).
    jh = _jhora()
    place = jh.drik.Place("Delhi", *DELHI, 5.5)
    jd_local = jh.utils.julian_day_number(jh.drik.Date(*day), (10, 0, 0))
    ref_hours = jh.drik.sunrise(jd_local, place)[0]
    p = panchanga_at(jd_local - 5.5 / 24, *DELHI, sunrise="hindu")
    local = p.sunrise + timedelta(hours=5.5)
    ours_hours = local.hour + local.minute / 60 + (local.second + local.microsecond / 1e6) / 3600
    assert abs(ours_hours - ref_hours) * 3600 < 2.0
    upper = panchanga_at(jd_local - 5.5 / 24, *DELHI)
    # Three to eight minutes after the almanac sunrise (upper limb, refraction) at Delhi.
    assert timedelta(minutes=2) < p.sunrise - upper.sunrise < timedelta(minutes=8)
