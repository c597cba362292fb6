"""Synastry and composite charts against positions computed here with pyswisseph directly."""

from __future__ import annotations

import itertools
import random
from datetime import date

import pytest
import swisseph as swe

from astro_calc.errors import CalcInputError
from astro_calc.western import BirthSubject, composite_chart, synastry
from astro_calc.western.aspects import Aspect
from astro_calc.western.relationship import compatibility_score

FLAGS = swe.FLG_MOSEPH | swe.FLG_SPEED
IDS = {"sun": 0, "moon": 1, "mercury": 2, "venus": 3, "mars": 4, "jupiter": 5, "saturn": 6,
       "uranus": 7, "neptune": 8, "pluto": 9}  # fmt: skip
ORBS = {"conjunction": 8, "opposition": 8, "trine": 7, "square": 7, "sextile": 5}
ANGLES = {"conjunction": 0, "opposition": 180, "trine": 120, "square": 90, "sextile": 60}

# Both births in UTC so the Julian days are plain here.
A = BirthSubject(date(1984, 3, 9), "06:10", 48.85, 2.35, timezone_offset_minutes=0)
B = BirthSubject(date(1986, 12, 21), "22:40", 40.42, -3.70, timezone_offset_minutes=0)
JD_A = swe.julday(1984, 3, 9, 6 + 10 / 60)
JD_B = swe.julday(1986, 12, 21, 22 + 40 / 60)


def _positions(jd: float) -> dict[str, float]:
    return {name: float(swe.calc_ut(jd, ipl, FLAGS)[0][0]) for name, ipl in IDS.items()}


def _mid(a: float, b: float) -> float:
    d = (b - a + 180.0) % 360.0 - 180.0
    return (a + d / 2.0) % 360.0


def _close(a: float, b: float, tol: float = 0.01) -> bool:
    return abs((a - b + 180.0) % 360.0 - 180.0) <= tol


def test_inter_aspects_match_a_brute_force_search() -> None:
    s = synastry(A, B, bodies=tuple(IDS))
    pa, pb = _positions(JD_A), _positions(JD_B)
    _, ama = swe.houses_ex(JD_A, A.latitude, A.longitude, b"P", swe.FLG_MOSEPH)
    _, amb = swe.houses_ex(JD_B, B.latitude, B.longitude, b"P", swe.FLG_MOSEPH)
    pa |= {"ascendant": ama[0], "midheaven": ama[1]}
    pb |= {"ascendant": amb[0], "midheaven": amb[1]}
    expected = set()
    for n1, l1 in pa.items():
        for n2, l2 in pb.items():
            sep = abs((l1 - l2 + 180.0) % 360.0 - 180.0)
            hits = [(abs(sep - ANGLES[k]), k) for k in ANGLES if abs(sep - ANGLES[k]) <= ORBS[k]]
            if hits:
                expected.add((n1, n2, min(hits)[1]))
    assert {(a.body1, a.body2, a.aspect) for a in s.aspects} == expected


def test_house_overlays_use_the_other_chart_cusps() -> None:
    s = synastry(A, B, bodies=tuple(IDS))
    cusps_b, _ = swe.houses_ex(JD_B, B.latitude, B.longitude, b"P", swe.FLG_MOSEPH)
    pa = _positions(JD_A)
    for overlay in s.house_overlays:
        if overlay.owner != "a":
            continue
        lon = pa[overlay.body]
        # Independent rule: the house whose cusp is the last one passed going backward from lon.
        back = [((lon - c) % 360.0, i + 1) for i, c in enumerate(cusps_b[:12])]
        assert overlay.house == min(back)[1]


def test_house_overlays_in_regiomontanus_at_tromso_follow_swisseph_house_pos() -> None:
    # At Tromso (69.65 N) Regiomontanus cusps can run out of zodiac order; the overlay house is
    # then Swiss Ephemeris's house_pos on B's house circles.
    b = BirthSubject(date(1967, 9, 19), "16:45", 69.6492, 18.9553, timezone_offset_minutes=0)
    jd_b = swe.julday(1967, 9, 19, 16.75)
    cusps, ascmc = swe.houses_ex(jd_b, b.latitude, b.longitude, b"R", swe.FLG_MOSEPH)
    offsets = [(c - cusps[0]) % 360.0 for c in cusps[:12]]
    assert any(y <= x for x, y in itertools.pairwise(offsets))  # out of order
    eps = swe.calc_ut(jd_b, swe.ECL_NUT, swe.FLG_MOSEPH)[0][0]
    s = synastry(A, b, house_system="R", bodies=tuple(IDS))
    pa = _positions(JD_A)
    houses = set()
    for overlay in s.house_overlays:
        if overlay.owner != "a":
            continue
        ref = swe.house_pos(ascmc[2], b.latitude, eps, (pa[overlay.body], 0.0), b"R")
        assert overlay.house == int(ref), (overlay.body, ref)
        houses.add(overlay.house)
    assert len(houses) > 2


def test_compatibility_score_follows_the_documented_formula() -> None:
    aspects = [
        # sun-moon trine, 2 of 7 degrees orb: personal pair, weight 2 * (1 - 2/7)
        Aspect("sun", "moon", "trine", 120.0, 118.0, 2.0, True),
        # saturn-venus square, exact: weight 1 * 1
        Aspect("saturn", "venus", "square", 90.0, 90.0, 0.0, False),
        # a quincunx does not count
        Aspect("mars", "mars", "quincunx", 150.0, 150.0, 0.0, False),
    ]
    harmonious = 2 * (1 - 2 / 7)
    result = compatibility_score(aspects, {"trine": 7.0, "square": 7.0, "quincunx": 3.0})
    assert result.harmonious_weight == pytest.approx(harmonious, abs=1e-4)
    assert result.challenging_weight == pytest.approx(1.0)
    assert result.score == round(100 * harmonious / (harmonious + 1.0), 1)


def test_no_aspects_scores_fifty() -> None:
    assert compatibility_score([], {}).score == 50.0


def _derived_houses(
    jd_a: float, jd_b: float, mc: float, lat: float, system: bytes = b"P"
) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Hand's derived houses, independently: ARMC of the midheaven, then swe.houses_armc."""
    eps = swe.calc_ut((jd_a + jd_b) / 2, swe.ECL_NUT, swe.FLG_MOSEPH)[0][0]
    ra = swe.cotrans((mc, 0.0, 1.0), -eps)[0]
    return swe.houses_armc(ra, lat, eps, system)


def test_midpoint_composite_bodies_are_shorter_arc_midpoints() -> None:
    c = composite_chart(A, B, bodies=tuple(IDS))
    pa, pb = _positions(JD_A), _positions(JD_B)
    for p in c.planets:
        assert _close(p.longitude, _mid(pa[p.name], pb[p.name])), p.name
    _ca, ama = swe.houses_ex(JD_A, A.latitude, A.longitude, b"P", swe.FLG_MOSEPH)
    _cb, amb = swe.houses_ex(JD_B, B.latitude, B.longitude, b"P", swe.FLG_MOSEPH)
    mc = _mid(ama[1], amb[1])
    assert _close(c.angles.midheaven.longitude, mc)
    cusps, ascmc = _derived_houses(JD_A, JD_B, mc, (A.latitude + B.latitude) / 2)
    assert _close(ascmc[1], mc)
    assert _close(c.angles.ascendant.longitude, ascmc[0])
    for h, ref in zip(c.houses, cusps[:12], strict=True):
        assert _close(h.cusp, ref)


def test_composite_houses_are_derived_from_the_composite_midheaven_and_stay_in_order() -> None:
    # Midpoints of natal cusps taken one by one went out of zodiac order for about one pair in
    # twenty (this pair among them: cusps 196.7, 52.2, 88.7, ... and most bodies in house 1).
    rng = random.Random(7)
    pairs = [
        (
            BirthSubject(date(1937, 1, 31), "20:40", -20.1059, -52.9503, timezone_offset_minutes=0),
            BirthSubject(date(1965, 11, 8), "22:17", 28.5641, -172.0143, timezone_offset_minutes=0),
        )
    ]
    for _ in range(80):
        pairs.append(
            tuple(  # type: ignore[arg-type]
                BirthSubject(
                    date(rng.randint(1900, 2020), rng.randint(1, 12), rng.randint(1, 28)),
                    f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}",
                    rng.uniform(-60.0, 60.0),
                    rng.uniform(-180.0, 180.0),
                    timezone_offset_minutes=0,
                )
                for _ in range(2)
            )
        )
    for a, b in pairs:
        c = composite_chart(a, b, bodies=tuple(IDS))
        offsets = [(h.cusp - c.houses[0].cusp) % 360.0 for h in c.houses]
        assert offsets == sorted(offsets), (a, b)
        # The ascendant rises in the east: 0-180 degrees ahead of the midheaven.
        assert 0.0 < (c.angles.ascendant.longitude - c.angles.midheaven.longitude) % 360.0 < 180.0
        cusps = [h.cusp for h in c.houses]
        for p in c.planets:
            back = [((p.longitude - cusp) % 360.0, i + 1) for i, cusp in enumerate(cusps)]
            assert p.house == min(back)[1], p.name


def test_davison_is_cast_for_the_time_and_place_midpoints() -> None:
    c = composite_chart(A, B, method="davison", bodies=tuple(IDS))
    jd = (JD_A + JD_B) / 2
    assert c.meta.davison is not None
    assert c.meta.davison.julian_day == pytest.approx(jd, abs=1e-9)
    assert c.meta.latitude == pytest.approx((48.85 + 40.42) / 2)
    assert c.meta.longitude == pytest.approx((2.35 - 3.70) / 2)
    ref = _positions(jd)
    for p in c.planets:
        assert _close(p.longitude, ref[p.name]), p.name
    _, ascmc = swe.houses_ex(jd, c.meta.latitude, c.meta.longitude, b"P", swe.FLG_MOSEPH)
    assert _close(c.angles.ascendant.longitude, ascmc[0])


def test_davison_longitude_midpoint_crosses_the_date_line_the_short_way() -> None:
    east = BirthSubject(date(1990, 1, 1), "00:00", -36.85, 174.76, timezone_offset_minutes=0)
    west = BirthSubject(date(1991, 1, 1), "00:00", 21.3, -157.86, timezone_offset_minutes=0)
    c = composite_chart(east, west, method="davison")
    assert c.meta.longitude == pytest.approx(-171.55, abs=1e-6)


def test_second_subject_errors_name_their_field() -> None:
    bad = BirthSubject(date(1990, 1, 1), "25:00", 0.0, 0.0, timezone_offset_minutes=0)
    with pytest.raises(CalcInputError) as info:
        synastry(A, bad)
    assert info.value.field == "subject_b.time"


def test_unknown_composite_method_is_refused() -> None:
    with pytest.raises(CalcInputError) as info:
        composite_chart(A, B, method="average")  # type: ignore[arg-type]
    assert info.value.field == "method"
