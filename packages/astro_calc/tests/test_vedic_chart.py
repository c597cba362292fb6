"""Sidereal chart, nakshatras, dignities and divisional charts.

Oracle: PyJHora 4.8 (``jhora``, a test-only dependency), Lahiri ayanamsa, true node (PyJHora's
default), Parashara divisional charts (its ``chart_method`` 1, and 2 for the traditional
Sun/Moon hora). Tolerance 0.01 degree for longitudes; signs, nakshatras and padas exactly.
PyJHora asks Swiss Ephemeris for ``FLG_SWIEPH`` without files, which falls back to the same
Moshier ephemeris we use.
"""

from __future__ import annotations

import sys
import types
from datetime import date
from typing import Any

import pytest

from astro_calc import CalcInputError, ephemeris
from astro_calc.vedic import BirthSubject, sidereal_chart, sidereal_chart_at
from astro_calc.vedic.varga import VARGAS, varga_sign
from astro_calc.vedic.zodiac import GRAHAS, SIGNS, dignity

_SWE_FLG_TRUEPOS = 16  # swisseph.FLG_TRUEPOS


def _jhora() -> Any:
    # PyJHora imports geocoding packages at module level that it never uses for these
    # calculations; empty stand-ins keep them out of the dependency tree.
    sys.modules.setdefault("geocoder", types.ModuleType("geocoder"))
    if "geopy" not in sys.modules:
        geopy = types.ModuleType("geopy")
        geocoders = types.ModuleType("geopy.geocoders")
        geocoders.Nominatim = object  # type: ignore[attr-defined]
        geopy.geocoders = geocoders  # type: ignore[attr-defined]
        sys.modules["geopy"] = geopy
        sys.modules["geopy.geocoders"] = geocoders
    from jhora import utils
    from jhora.horoscope.chart import charts
    from jhora.panchanga import drik

    drik.set_ayanamsa_mode("LAHIRI")
    # PyJHora asks for true geometric positions (FLG_TRUEPOS, no light-time or aberration);
    # ours are apparent, as almanacs print. Configure the oracle for apparent positions, else
    # planets differ by up to ~40 arc seconds by convention alone.
    drik.PLANET_FLAGS &= ~_SWE_FLG_TRUEPOS
    return types.SimpleNamespace(utils=utils, charts=charts, drik=drik)


# (local date, local time, latitude, longitude, tz hours)
BIRTHS = [
    ((1985, 7, 21), (14, 35, 0), 13.0827, 80.2707, 5.5),
    ((1962, 1, 3), (5, 10, 0), 28.6139, 77.2090, 5.5),
    ((2003, 11, 29), (22, 47, 30), 51.5072, -0.1276, 0.0),
]
# PyJHora varga function and Parashara chart_method per division.
_JHORA_VARGA = {
    "D2": ("hora_chart", 2),
    "D3": ("drekkana_chart", 1),
    "D4": ("chaturthamsa_chart", 1),
    "D7": ("saptamsa_chart", 1),
    "D9": ("navamsa_chart", 1),
    "D10": ("dasamsa_chart", 1),
    "D12": ("dwadasamsa_chart", 1),
    "D16": ("shodasamsa_chart", 1),
    "D20": ("vimsamsa_chart", 1),
    "D24": ("chaturvimsamsa_chart", 1),
    "D27": ("nakshatramsa_chart", 1),
    "D30": ("trimsamsa_chart", 1),
    "D40": ("khavedamsa_chart", 1),
    "D45": ("akshavedamsa_chart", 1),
    "D60": ("shashtyamsa_chart", 1),
}
_ORDER = ["lagna", *GRAHAS]


@pytest.fixture(scope="module")
def jh() -> Any:
    return _jhora()


@pytest.mark.parametrize("birth", BIRTHS)
def test_sidereal_longitudes_nakshatras_and_vargas_match_pyjhora(
    jh: Any, birth: tuple[Any, ...]
) -> None:
    d, t, lat, lon, tz = birth
    place = jh.drik.Place("p", lat, lon, tz)
    jd_local = jh.utils.julian_day_number(jh.drik.Date(*d), t)
    rasi = jh.charts.rasi_chart(jd_local, place)
    chart = sidereal_chart_at(jd_local - tz / 24.0, lat, lon, node="true")
    ours = {"lagna": chart.lagna.longitude_deg} | {g.name: g.longitude_deg for g in chart.grahas}
    for name, (_p, (sign, deg)) in zip(_ORDER, rasi, strict=True):
        expected = sign * 30.0 + deg
        assert abs(ephemeris.angle_diff(ours[name], expected)) < 0.01, name
        nak, pada, _rem = jh.drik.nakshatra_pada(expected)
        if name != "lagna":
            g = chart.graha(name)
            assert (g.nakshatra, g.pada) == (nak, pada), name
    for varga, (func, method) in _JHORA_VARGA.items():
        theirs = getattr(jh.charts, func)(rasi, chart_method=method)
        for name, (_p, (sign, _deg)) in zip(_ORDER, theirs, strict=True):
            assert chart.divisional_charts[varga][name] == SIGNS[sign], (varga, name)


def test_all_sixteen_vargas_are_offered() -> None:
    assert VARGAS == (
        "D1", "D2", "D3", "D4", "D7", "D9", "D10", "D12",
        "D16", "D20", "D24", "D27", "D30", "D40", "D45", "D60",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("lon", "varga", "sign"),
    [
        # 5 Taurus (fixed: counts from the 9th, Capricorn) -> second navamsa -> Aquarius.
        (35.0, "D9", "aquarius"),
        # 25 Gemini (dual) -> 8th navamsa from Libra (the 5th) = Taurus.
        (85.0, "D9", "taurus"),
        # 12 Leo -> second drekkana -> Sagittarius (5th from Leo).
        (132.0, "D3", "sagittarius"),
        # 3 Aries (odd) -> first trimshamsha -> Mars -> Aries; 3 Taurus (even) -> Venus -> Taurus.
        (3.0, "D30", "aries"),
        (33.0, "D30", "taurus"),
        # 27 Cancer (even) -> Mars's part -> Scorpio.
        (117.0, "D30", "scorpio"),
        # 20 Aries (odd, second half) -> Moon's hora -> Cancer.
        (20.0, "D2", "cancer"),
    ],
)
def test_textbook_varga_placements(lon: float, varga: str, sign: str) -> None:
    assert SIGNS[varga_sign(lon, varga)] == sign


def test_unknown_varga_names_the_field() -> None:
    with pytest.raises(CalcInputError) as err:
        varga_sign(10.0, "D5")
    assert err.value.field == "divisional_charts"


@pytest.mark.parametrize(
    ("graha", "lon", "expected"),
    [
        ("sun", 10.0, "exalted"),
        ("sun", 190.0, "debilitated"),
        ("sun", 125.0, "moolatrikona"),
        ("sun", 145.0, "own"),
        ("moon", 31.0, "exalted"),
        ("moon", 40.0, "moolatrikona"),
        ("moon", 100.0, "own"),
        ("mercury", 160.0, "exalted"),
        ("mercury", 168.0, "moolatrikona"),
        ("mercury", 175.0, "own"),
        ("mercury", 345.0, "debilitated"),
        ("saturn", 200.0, "exalted"),
        ("saturn", 305.0, "moolatrikona"),
        ("saturn", 280.0, "own"),
        ("jupiter", 290.0, "debilitated"),
        ("mars", 50.0, "none"),
        ("rahu", 45.0, "exalted"),
        ("ketu", 45.0, "debilitated"),
    ],
)
def test_dignities_follow_bphs(graha: Any, lon: float, expected: str) -> None:
    assert dignity(graha, lon) == expected


def test_birth_subject_chart_uses_offset_and_ayanamsa() -> None:
    subject = BirthSubject(date(1985, 7, 21), "14:35:00", 13.0827, 80.2707, 330, "raman")
    chart = sidereal_chart(subject)
    jd = ephemeris.julian_day(subject_to_utc())
    sun_tropical = ephemeris.body_position(jd, "sun").longitude
    assert chart.ayanamsa == "raman"
    assert abs(chart.graha("sun").longitude_deg - (sun_tropical - chart.ayanamsa_deg)) < 1e-6
    assert chart.house_system == "whole_sign"
    # Whole-sign: the Sun's house counts from the lagna's sign.
    sun = chart.graha("sun")
    assert sun.house == (sun.sign_number - chart.lagna.sign_number) % 12 + 1
    assert chart.graha("ketu").longitude_deg == pytest.approx(
        (chart.graha("rahu").longitude_deg + 180.0) % 360.0
    )


def subject_to_utc() -> Any:
    from datetime import UTC, datetime

    return datetime(1985, 7, 21, 9, 5, tzinfo=UTC)


def test_mercury_within_fourteen_degrees_of_the_sun_is_combust() -> None:
    # 1985-07-21: Sun 94.9, Mercury 119.9 sidereal (25 degrees apart): not combust; Mars at 93.9
    # is 1 degree from the Sun: combust (orb 17).
    chart = sidereal_chart_at(2446268.0 + 0.378, 13.08, 80.27)
    assert chart.graha("mars").combust
    assert not chart.graha("mercury").combust
    assert not chart.graha("rahu").combust


@pytest.mark.parametrize(
    ("field", "kwargs"),
    [
        ("ayanamsa", {"ayanamsa": "tropical"}),
        ("time", {"time": "25:00"}),
        ("latitude", {"latitude": 91.0}),
        ("longitude", {"longitude": -181.0}),
        ("timezoneOffsetMinutes", {"timezone_offset_minutes": 2000}),
    ],
)
def test_bad_birth_subject_fields_are_named(field: str, kwargs: dict[str, Any]) -> None:
    base: dict[str, Any] = {
        "date": date(1990, 1, 1),
        "time": "10:00",
        "latitude": 13.0,
        "longitude": 100.0,
        "timezone_offset_minutes": 420,
    }
    with pytest.raises(CalcInputError) as err:
        sidereal_chart(BirthSubject(**(base | kwargs)))
    assert err.value.field == field
