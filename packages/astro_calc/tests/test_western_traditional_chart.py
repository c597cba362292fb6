"""Sect, the seven lots and whole-sign houses (astro_calc.western.traditional.chart).

Reference: flatlib (flatlib-fix 0.2.4, test-only): its Hermetic lots (Pars Fortuna, Spirit,
Venus = eros, Mercury = necessity, Mars = courage, Jupiter = victory, Saturn = nemesis) use
Paulus' formulas (Introductory Matters ch. 23, tr. Greenbaum 2001), reversed by night, and its
``isDiurnal`` tests the Sun's altitude. Compared on random births (1900-2050, latitudes within
+-60 degrees) to 0.01 degree; births with the Sun within 0.05 degree of the horizon are skipped
(the two sect conventions can differ there by the Sun's ecliptic latitude).
"""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta

import pytest
from flatlib import const
from flatlib.chart import Chart
from flatlib.datetime import Datetime
from flatlib.geopos import GeoPos
from flatlib.tools import arabicparts

from astro_calc import ephemeris
from astro_calc.errors import CalcInputError
from astro_calc.western.natal import natal_chart
from astro_calc.western.subject import BirthSubject
from astro_calc.western.traditional import (
    in_sect,
    lot_longitudes,
    natal_dignities,
    natal_lots,
    sect_of,
    traditional_chart,
    whole_sign_house,
)
from astro_calc.western.traditional.chart import sect_at, sun_altitude

FLATLIB_LOTS = {
    "fortune": arabicparts.PARS_FORTUNA,
    "spirit": arabicparts.PARS_SPIRIT,
    "eros": arabicparts.PARS_VENUS,
    "necessity": arabicparts.PARS_MERCURY,
    "courage": arabicparts.PARS_MARS,
    "victory": arabicparts.PARS_JUPITER,
    "nemesis": arabicparts.PARS_SATURN,
}


def _births(n: int) -> list[tuple[datetime, float, float]]:
    rng = random.Random(46)
    out = []
    for _ in range(n):
        moment = datetime(1900, 1, 1, tzinfo=UTC) + timedelta(minutes=rng.randrange(150 * 525960))
        out.append((moment, round(rng.uniform(-60, 60), 4), round(rng.uniform(-180, 180), 4)))
    return out


def _diff(a: float, b: float) -> float:
    return abs((a - b + 180.0) % 360.0 - 180.0)


@pytest.mark.parametrize(("moment", "latitude", "longitude"), _births(60))
def test_sect_and_lots_match_flatlib(moment: datetime, latitude: float, longitude: float) -> None:
    chart = traditional_chart(
        BirthSubject(
            moment.date(), moment.strftime("%H:%M"), latitude, longitude, timezone_offset_minutes=0
        )
    )
    theirs = Chart(
        Datetime(moment.strftime("%Y/%m/%d"), moment.strftime("%H:%M"), "+00:00"),
        GeoPos(latitude, longitude),
        IDs=const.LIST_OBJECTS_TRADITIONAL,
    )
    sun = chart.planets[0].longitude
    if min(_diff(sun, chart.ascendant), _diff(sun, chart.ascendant + 180.0)) < 0.05:
        pytest.skip("the Sun is on the horizon")
    assert chart.sect == ("day" if theirs.isDiurnal() else "night")
    for name, pars in FLATLIB_LOTS.items():
        assert _diff(chart.lots[name].longitude, arabicparts.getPart(pars, theirs).lon) < 0.01, name


def test_fortune_and_spirit_swap_by_night() -> None:
    positions = {"sun": 10.0, "moon": 100.0, "mercury": 20.0, "venus": 40.0, "mars": 200.0}
    positions |= {"jupiter": 250.0, "saturn": 300.0}
    day = lot_longitudes(0.0, positions, "day")
    night = lot_longitudes(0.0, positions, "night")
    assert day["fortune"] == 90.0
    assert day["spirit"] == 270.0
    assert night["fortune"] == 270.0
    assert night["spirit"] == 90.0
    # Eros by day: asc + venus - spirit = 40 - 270; nemesis by night: asc + saturn - fortune.
    assert day["eros"] == 130.0
    assert night["nemesis"] == 30.0


def test_sect_is_the_suns_side_of_the_horizon() -> None:
    assert sect_of(sun_longitude=100.0, ascendant=190.0) == "day"  # Sun in the 10th
    assert sect_of(sun_longitude=200.0, ascendant=190.0) == "night"  # Sun in the 1st
    assert sect_of(sun_longitude=190.0, ascendant=190.0) == "day"  # rising
    assert sect_of(sun_longitude=10.0, ascendant=190.0) == "night"  # setting


def test_whole_sign_houses_count_signs_from_the_ascendant() -> None:
    assert whole_sign_house(29.9, 0.5) == 1
    assert whole_sign_house(30.0, 29.9) == 2
    assert whole_sign_house(0.0, 359.0) == 2


def test_mercury_joins_the_day_as_a_morning_star() -> None:
    assert in_sect("mercury", "day", longitude=80.0, sun_longitude=100.0)
    assert not in_sect("mercury", "day", longitude=120.0, sun_longitude=100.0)
    assert in_sect("mars", "night", longitude=0.0, sun_longitude=0.0)


def test_the_chart_lists_whole_sign_and_quadrant_houses() -> None:
    chart = traditional_chart(
        BirthSubject(date(1990, 5, 1), "07:30", 13.75, 100.5, timezone_offset_minutes=420)
    )
    assert chart.sect == "day"
    assert chart.whole_sign_houses[0].sign == chart.ascendant_sign == "gemini"
    assert chart.whole_sign_houses[0].ruler == "mercury"
    assert len(chart.houses) == 12
    assert chart.meta.house_system == "P"
    asc = ephemeris.houses(chart.meta.julian_day, 13.75, 100.5, "P").ascendant
    assert chart.ascendant == pytest.approx(asc)
    sun = chart.planets[0]
    assert sun.name == "sun"
    assert sun.in_sect
    assert sun.sign == "taurus"
    assert sun.house == 12


def test_the_natal_chart_gains_the_same_sect_and_lots() -> None:
    subject = BirthSubject(date(1990, 5, 1), "07:30", 13.75, 100.5, timezone_offset_minutes=420)
    natal = natal_chart(subject)
    extra = natal_lots(natal)
    chart = traditional_chart(subject)
    assert extra.sect == chart.sect
    assert extra.lots == chart.lots
    gains = natal_dignities(natal, extra.sect)
    assert set(gains) == {p.name for p in chart.planets}
    for p in chart.planets:
        assert set(gains[p.name]) == set(p.dignities) & {"triplicity", "bound", "face"}


def test_natal_lots_need_the_seven_planets() -> None:
    subject = BirthSubject(date(1990, 5, 1), "07:30", 13.75, 100.5, timezone_offset_minutes=420)
    with pytest.raises(CalcInputError) as err:
        natal_lots(natal_chart(subject, bodies=("sun", "moon")))
    assert err.value.field == "bodies"


@pytest.mark.parametrize(
    ("day", "clock", "sect"),
    [(date(1990, 1, 1), "12:00", "night"), (date(1990, 6, 21), "00:00", "day")],
)
def test_polar_night_and_midnight_sun(day: date, clock: str, sect: str) -> None:
    # Tromsø-like 80 N: the Sun stays below the horizon at noon in January and above it at
    # midnight in June; the altitude decides, whatever side of the ecliptic the ascendant is.
    chart = traditional_chart(BirthSubject(day, clock, 80.0, 20.0, timezone_offset_minutes=60))
    assert chart.sect == sect


@pytest.mark.parametrize(("moment", "latitude", "longitude"), _births(40))
def test_the_ecliptic_form_agrees_with_the_altitude_below_the_polar_circles(
    moment: datetime, latitude: float, longitude: float
) -> None:
    jd = ephemeris.julian_day(moment)
    h = ephemeris.houses(jd, latitude, longitude, "W")
    sun = ephemeris.body_position(jd, "sun")
    altitude = sun_altitude(jd, latitude, h.armc, sun.longitude, sun.latitude)
    if abs(altitude) < 0.01:
        pytest.skip("the Sun is on the horizon")
    assert sect_at(jd, latitude, h.armc, sun.longitude, sun.latitude) == sect_of(
        sun.longitude, h.ascendant
    )
