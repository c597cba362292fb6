"""Secondary progressions and solar-arc directions, recomputed here with pyswisseph directly.

References: the day-for-a-year rule with the tropical year of 365.242189 days; the Naibod rate
0.985647 degrees a year (59'08", the Sun's mean daily motion) applied to the natal ARMC; the
solar-arc MC = natal MC + (progressed Sun - natal Sun).
"""

from __future__ import annotations

import math
from datetime import UTC, date, datetime

import pytest
import swisseph as swe

from astro_calc.errors import CalcInputError
from astro_calc.western import BirthSubject, secondary_progressions, solar_arc_directions

FLAGS = swe.FLG_MOSEPH | swe.FLG_SPEED
SUBJECT = BirthSubject(date(1970, 8, 15), "03:30", 45.0, 7.0, timezone_offset_minutes=0)
JD_BIRTH = swe.julday(1970, 8, 15, 3.5)
TARGET = datetime(2020, 8, 15, tzinfo=UTC)
JD_TARGET = swe.julday(2020, 8, 15, 0.0)
AGE = (JD_TARGET - JD_BIRTH) / 365.242189
JD_PROG = JD_BIRTH + AGE


def _lon(jd: float, ipl: int) -> float:
    return float(swe.calc_ut(jd, ipl, FLAGS)[0][0])


def _close(a: float, b: float, tol: float = 0.01) -> bool:
    return abs((a - b + 180.0) % 360.0 - 180.0) <= tol


def test_progressed_bodies_are_positions_a_day_per_year_after_birth() -> None:
    p = secondary_progressions(SUBJECT, TARGET)
    assert p.meta.progressed_julian_day == pytest.approx(JD_PROG, abs=1e-9)
    assert p.meta.age_years == pytest.approx(AGE)
    for planet in p.planets:
        ipl = {"sun": 0, "moon": 1, "mercury": 2, "venus": 3, "mars": 4, "jupiter": 5, "saturn": 6,
               "uranus": 7, "neptune": 8, "pluto": 9, "mean_node": 10, "true_node": 11,
               "mean_lilith": 12}[planet.name]  # fmt: skip
        assert _close(planet.longitude, _lon(JD_PROG, ipl)), planet.name


def test_naibod_angles_advance_the_natal_armc() -> None:
    p = secondary_progressions(SUBJECT, TARGET, mc_method="naibod")
    _, natal = swe.houses_ex(JD_BIRTH, 45.0, 7.0, b"P", swe.FLG_MOSEPH)
    eps = swe.calc_ut(JD_PROG, swe.ECL_NUT, swe.FLG_MOSEPH)[0][0]
    cusps, ascmc = swe.houses_armc((natal[2] + AGE * 0.985647) % 360, 45.0, eps, b"P")
    assert _close(p.angles.midheaven.longitude, ascmc[1])
    assert _close(p.angles.ascendant.longitude, ascmc[0])
    for h, c in zip(p.houses, cusps[:12], strict=True):
        assert _close(h.cusp, c)


def test_solar_arc_mc_is_natal_mc_plus_the_solar_arc() -> None:
    p = secondary_progressions(SUBJECT, TARGET, mc_method="solar_arc")
    arc = (_lon(JD_PROG, 0) - _lon(JD_BIRTH, 0)) % 360
    _, natal = swe.houses_ex(JD_BIRTH, 45.0, 7.0, b"P", swe.FLG_MOSEPH)
    assert p.solar_arc == pytest.approx(arc, abs=1e-6)
    assert _close(p.angles.midheaven.longitude, natal[1] + arc)
    # The ascendant follows from that MC at the birth latitude: recompute from its RA.
    eps = swe.calc_ut(JD_PROG, swe.ECL_NUT, swe.FLG_MOSEPH)[0][0]
    lam, e = math.radians(natal[1] + arc), math.radians(eps)
    armc = math.degrees(math.atan2(math.sin(lam) * math.cos(e), math.cos(lam))) % 360
    _, ascmc = swe.houses_armc(armc, 45.0, eps, b"P")
    assert _close(p.angles.ascendant.longitude, ascmc[0])


def test_solar_arc_is_about_one_degree_a_year() -> None:
    p = secondary_progressions(SUBJECT, TARGET)
    assert 47.0 < p.solar_arc < 51.0  # 50 years of age


def test_progressions_at_birth_equal_the_natal_chart() -> None:
    p = secondary_progressions(SUBJECT, datetime(1970, 8, 15, 3, 30, tzinfo=UTC))
    _, natal = swe.houses_ex(JD_BIRTH, 45.0, 7.0, b"P", swe.FLG_MOSEPH)
    assert p.solar_arc == pytest.approx(0.0, abs=1e-9)
    assert _close(p.angles.ascendant.longitude, natal[0], 1e-6)


def test_solar_arc_directions_add_the_arc_to_every_natal_point() -> None:
    d = solar_arc_directions(SUBJECT, TARGET)
    arc = (_lon(JD_PROG, 0) - _lon(JD_BIRTH, 0)) % 360
    assert d.solar_arc == pytest.approx(arc, abs=1e-6)
    by_name = {p.name: p for p in d.points}
    assert _close(by_name["moon"].natal_longitude, _lon(JD_BIRTH, 1))
    assert _close(by_name["moon"].longitude, _lon(JD_BIRTH, 1) + arc)
    _, natal = swe.houses_ex(JD_BIRTH, 45.0, 7.0, b"P", swe.FLG_MOSEPH)
    assert _close(by_name["midheaven"].longitude, natal[1] + arc)
    for a in d.aspects_to_natal:
        assert a.orb <= 1.0


def test_target_before_birth_is_refused() -> None:
    with pytest.raises(CalcInputError) as info:
        secondary_progressions(SUBJECT, date(1960, 1, 1))
    assert info.value.field == "target_date"


def test_unknown_mc_method_is_refused() -> None:
    with pytest.raises(CalcInputError) as info:
        secondary_progressions(SUBJECT, TARGET, mc_method="placidus")  # type: ignore[arg-type]
    assert info.value.field == "mc_method"


def test_progressed_houses_above_the_polar_circle_fall_back_to_porphyry() -> None:
    north = BirthSubject(date(1970, 8, 15), "03:30", 70.0, 25.0, timezone_offset_minutes=0)
    p = secondary_progressions(north, TARGET, house_system="P")
    assert p.meta.house_system == "O"
    assert any("Porphyry" in w for w in p.meta.warnings)
