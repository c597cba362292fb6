"""Astrocartography lines, checked point by point against pyswisseph itself.

Independent check: pyswisseph's ``azalt`` (ECL2HOR from the body's ecliptic position, pressure 0
so no refraction) gives the altitude at each ASC/DSC point; ``sidtime`` (Greenwich apparent
sidereal time, hours) and ``calc_ut`` with ``FLG_EQUATORIAL`` give the hour angle at each MC/IC
point. Tolerance 1e-6 degrees (about 0.1 m on the ground); the lines are computed from our own
ecliptic-to-equatorial rotation and the ARMC, not from these calls.
"""

from __future__ import annotations

import itertools
import math
import random
from datetime import date

import pytest
import swisseph as swe

from astro_calc.errors import CalcInputError
from astro_calc.western import BirthSubject
from astro_calc.western.astrocartography import (
    MAX_LATITUDE,
    Astrocartography,
    astrocartography,
    destination,
)

TOL_DEG = 1e-6
BODIES = ("sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune",
          "pluto", "mean_node", "mean_lilith")  # fmt: skip
FLAGS = swe.FLG_MOSEPH


def _subject(rng: random.Random) -> BirthSubject:
    return BirthSubject(
        date(rng.randint(1900, 2060), rng.randint(1, 12), rng.randint(1, 28)),
        f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}",
        rng.uniform(-60, 60),
        rng.uniform(-180, 180),
        timezone_offset_minutes=0,
    )


def _hour_angle(jd: float, body: int, longitude: float) -> float:
    (ra, *_), _ = swe.calc_ut(jd, body, FLAGS | swe.FLG_EQUATORIAL)
    lst = swe.sidtime(jd) * 15.0 + longitude
    return (lst - ra) % 360.0


def _altitude(jd: float, body: int, latitude: float, longitude: float) -> float:
    (lon, lat, dist, *_), _ = swe.calc_ut(jd, body, FLAGS)
    _az, true_alt, _app = swe.azalt(jd, swe.ECL2HOR, (longitude, latitude, 0.0), 0.0, 0.0,
                                    (lon, lat, dist))  # fmt: skip
    return float(true_alt)


def _ids() -> dict[str, int]:
    return {
        **{n: getattr(swe, n.upper()) for n in BODIES[:10]},
        "mean_node": swe.MEAN_NODE,
        "mean_lilith": swe.MEAN_APOG,
    }


def _diff(a: float, b: float) -> float:
    return abs((a - b + 180.0) % 360.0 - 180.0)


@pytest.fixture(scope="module")
def charts() -> list[tuple[BirthSubject, Astrocartography]]:
    rng = random.Random(44)
    subjects = [_subject(rng) for _ in range(12)]
    return [(s, astrocartography(s, bodies=BODIES)) for s in subjects]


def test_every_mc_and_ic_point_has_the_body_at_hour_angle_0_or_180(charts) -> None:
    ids = _ids()
    checked = 0
    for _s, acg in charts:
        jd = acg.meta.julian_day
        for line in acg.lines:
            if line.angle not in ("mc", "ic"):
                continue
            want = 0.0 if line.angle == "mc" else 180.0
            for p in line.points:
                assert _diff(_hour_angle(jd, ids[line.body], p.longitude), want) < TOL_DEG
                checked += 1
    assert checked > 12 * 12 * 2 * 150


def test_every_asc_and_dsc_point_has_the_body_on_the_horizon_rising_or_setting(charts) -> None:
    ids = _ids()
    checked = 0
    for _s, acg in charts:
        jd = acg.meta.julian_day
        for line in acg.lines:
            if line.angle not in ("asc", "dsc"):
                continue
            for p in line.points:
                body = ids[line.body]
                assert abs(_altitude(jd, body, p.latitude, p.longitude)) < TOL_DEG
                h = _hour_angle(jd, body, p.longitude)
                # Rising: hour angle in the east half (180..360); setting: 0..180. At the
                # circumpolar limit the body grazes the horizon at 0 or 180 (both curves meet).
                if 1.0 < h < 179.0:
                    assert line.angle == "dsc"
                elif 181.0 < h < 359.0:
                    assert line.angle == "asc"
                checked += 1
    assert checked > 1000


def test_lines_cover_minus_60_to_60_and_longitudes_stay_in_range(charts) -> None:
    for _s, acg in charts:
        by_key: dict[tuple[str, str], list[float]] = {}
        for line in acg.lines:
            lats = [p.latitude for p in line.points]
            assert all(-180.0 <= p.longitude <= 180.0 for p in line.points)
            # every step is at most 2 degrees of latitude
            assert all(abs(b - a) <= 2.0 + 1e-9 for a, b in itertools.pairwise(lats))
            by_key.setdefault((line.body, line.angle), []).extend(lats)
        limits = {c.body: c.latitude_limit for c in acg.circumpolar}
        for (body, _angle), lats in by_key.items():
            top = min(limits.get(body, MAX_LATITUDE), 60.0)
            assert min(lats) <= -top + 1e-9
            assert max(lats) >= top - 1e-9


def test_a_curve_is_split_at_the_antimeridian_with_both_pieces_ending_on_it(charts) -> None:
    split = 0
    for _s, acg in charts:
        pieces: dict[tuple[str, str], list] = {}
        for line in acg.lines:
            pieces.setdefault((line.body, line.angle), []).append(line)
            for a, b in zip(line.points, line.points[1:], strict=False):
                assert abs(a.longitude - b.longitude) < 180.0  # no jump inside a piece
        for lines in pieces.values():
            if len(lines) > 1:
                split += 1
                ends = {
                    round(abs(p.longitude), 9)
                    for ln in lines
                    for p in (ln.points[0], ln.points[-1])
                }
                assert 180.0 in ends
    assert split > 0


def test_circumpolar_limit_is_90_minus_declination_and_said_in_a_warning(charts) -> None:
    for _s, acg in charts:
        decl = {b.body: b.declination for b in acg.bodies}
        for c in acg.circumpolar:
            assert c.latitude_limit == pytest.approx(90.0 - abs(decl[c.body]), abs=1e-12)
            assert c.always_above == ("north" if decl[c.body] > 0 else "south")
            assert any(w.startswith(f"{c.body}: ASC and DSC") for w in acg.meta.warnings)
            horizon = [p for ln in acg.lines if ln.body == c.body and ln.angle in ("asc", "dsc")
                       for p in ln.points]  # fmt: skip
            assert max(abs(p.latitude) for p in horizon) <= c.latitude_limit + 1e-9


def test_zodiacal_lines_put_the_bodys_longitude_on_the_mc_and_the_ascendant() -> None:
    s = BirthSubject(date(1990, 5, 1), "07:30", 13.75, 100.5, timezone_offset_minutes=420)
    acg = astrocartography(s, bodies=["sun", "moon", "venus"], zodiacal=True)
    assert acg.meta.method == "zodiacal"
    lon = {b.body: b.longitude for b in acg.bodies}
    jd = acg.meta.julian_day
    for line in acg.lines:
        for p in line.points[::7]:
            if abs(p.latitude) > 60:
                continue
            _cusps, ascmc = swe.houses_ex(jd, p.latitude, p.longitude, b"E", FLAGS)
            want = {"mc": ascmc[1], "ic": ascmc[1] + 180, "asc": ascmc[0], "dsc": ascmc[0] + 180}
            assert _diff(want[line.angle], lon[line.body]) < 1e-5


def test_parans_have_both_bodies_on_their_angles_at_the_paran_latitude() -> None:
    ids = _ids()
    s = BirthSubject(date(1975, 3, 9), "22:10", 51.5, -0.12, timezone_offset_minutes=0)
    acg = astrocartography(s, bodies=["sun", "moon", "mars", "jupiter"], parans=True)
    assert acg.parans
    jd = acg.meta.julian_day
    gast = swe.sidtime(jd) * 15.0
    for p in acg.parans:
        lon = (p.sidereal_time_deg - gast + 180.0) % 360.0 - 180.0
        assert p.latitude_max - p.latitude == pytest.approx(1.0)
        for body, angle in ((p.body_a, p.angle_a), (p.body_b, p.angle_b)):
            b = ids[body]
            if angle in ("asc", "dsc"):
                assert abs(_altitude(jd, b, p.latitude, lon)) < 1e-6
            else:
                assert _diff(_hour_angle(jd, b, lon), 0.0 if angle == "mc" else 180.0) < 1e-6


def test_local_space_line_leaves_the_birth_place_at_the_bodys_azimuth() -> None:
    s = BirthSubject(date(2000, 1, 1), "12:00", 13.75, 100.5, timezone_offset_minutes=420)
    acg = astrocartography(s, bodies=["sun", "moon"], local_space=True)
    jd = acg.meta.julian_day
    for ls in acg.local_space:
        (lon, lat, dist, *_), _ = swe.calc_ut(jd, _ids()[ls.body], FLAGS)
        az_south, alt, _ = swe.azalt(jd, swe.ECL2HOR, (100.5, 13.75, 0.0), 0.0, 0.0,
                                     (lon, lat, dist))  # fmt: skip
        assert _diff(ls.azimuth, az_south + 180.0) < 1e-6
        assert ls.altitude == pytest.approx(alt, abs=1e-6)
    first = next(ls for ls in acg.local_space if ls.points[0].latitude == pytest.approx(13.75))
    a, b = first.points[0], first.points[1]
    # The initial bearing from the birth place to the next point (spherical formula).
    p1, p2, dl = (
        math.radians(a.latitude),
        math.radians(b.latitude),
        math.radians(b.longitude - a.longitude),
    )
    bearing = math.degrees(
        math.atan2(math.sin(dl) * math.cos(p2),
                   math.cos(p1) * math.sin(p2) - math.sin(p1) * math.cos(p2) * math.cos(dl))
    )  # fmt: skip
    assert _diff(bearing, first.azimuth) < 1e-9
    assert destination(0.0, 0.0, 90.0, 90.0) == pytest.approx((0.0, 90.0))


def test_twelve_bodies_make_48_lines_at_least_and_chiron_is_left_out_with_a_warning() -> None:
    s = BirthSubject(date(1990, 5, 1), "07:30", 13.75, 100.5, timezone_offset_minutes=420)
    acg = astrocartography(s, bodies=[*BODIES, "chiron"])
    assert len({(ln.body, ln.angle) for ln in acg.lines}) == 48
    assert any("chiron omitted" in w for w in acg.meta.warnings)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"bodies": ["vulcan"]}, "bodies"),
        ({"bodies": []}, "bodies"),
        ({"step_deg": 3.0}, "step_deg"),
        ({"paran_orb_deg": -1.0}, "paran_orb_deg"),
    ],
)
def test_bad_options_name_their_field(kwargs: dict, field: str) -> None:
    s = BirthSubject(date(1990, 5, 1), "07:30", 13.75, 100.5)
    with pytest.raises(CalcInputError) as err:
        astrocartography(s, **kwargs)
    assert err.value.field == field


def test_every_meridian_horizon_paran_is_found_as_the_closed_form_predicts() -> None:
    # One body on the MC or IC fixes the sidereal time c; the other is rising (setting) there
    # where its hour angle is -H0 (+H0): cos H0 = -tan(lat) tan(dec) has one solution when
    # that hour angle lies in the right half of the circle (Meeus eq. 15.1 inverted).
    s = BirthSubject(date(1984, 11, 23), "05:40", -33.9, 18.4, timezone_offset_minutes=120)
    acg = astrocartography(s, bodies=BODIES, parans=True)
    equ = {b.body: b for b in acg.bodies}
    order = [b.body for b in acg.bodies]
    expected = set()
    for i, first in enumerate(order):
        for second in order[i + 1 :]:
            for meridian_body, horizon_body, meridian_first in (
                (first, second, True),
                (second, first, False),
            ):
                m, h = equ[meridian_body], equ[horizon_body]
                for m_angle, offset in (("mc", 0.0), ("ic", 180.0)):
                    c = m.right_ascension + offset
                    for h_angle, sign in (("asc", -1.0), ("dsc", 1.0)):
                        h0 = (sign * (c - h.right_ascension)) % 360.0
                        if not 0.0 < h0 < 180.0:
                            continue
                        lat = math.degrees(
                            math.atan(
                                -math.cos(math.radians(h0)) / math.tan(math.radians(h.declination))
                            )
                        )
                        if abs(lat) > MAX_LATITUDE:
                            continue
                        key = (
                            (meridian_body, m_angle, horizon_body, h_angle)
                            if meridian_first
                            else (horizon_body, h_angle, meridian_body, m_angle)
                        )
                        expected.add((*key, round(lat, 6)))
    found = {
        (p.body_a, p.angle_a, p.body_b, p.angle_b, round(p.latitude, 6))
        for p in acg.parans
        if "mc" in (p.angle_a, p.angle_b) or "ic" in (p.angle_a, p.angle_b)
    }
    assert found == expected
    assert len(expected) > 50


def test_local_space_circles_stay_in_range_and_split_at_the_antimeridian() -> None:
    s = BirthSubject(date(1969, 7, 20), "20:17", 28.6, -80.6, timezone_offset_minutes=0)
    acg = astrocartography(s, bodies=BODIES, local_space=True)
    for ls in acg.local_space:
        assert all(-180.0 <= p.longitude <= 180.0 for p in ls.points)
        for a, b in itertools.pairwise(ls.points):
            assert abs(a.longitude - b.longitude) < 180.0
    pieces = {}
    for ls in acg.local_space:
        pieces.setdefault(ls.body, []).append(ls)
    assert set(pieces) == set(BODIES)
    for body, parts in pieces.items():
        # a great circle crosses the antimeridian once or twice (more pieces), never zero times
        # unless it runs along a meridian; each cut ends exactly on +-180
        ends = [abs(p.longitude) for ln in parts for p in (ln.points[0], ln.points[-1])]
        assert len(parts) >= 2, body
        assert ends.count(180.0) >= 2, body


def test_meta_sidereal_time_is_greenwich_apparent_sidereal_time() -> None:
    s = BirthSubject(date(1990, 5, 1), "07:30", 13.75, 100.5, timezone_offset_minutes=420)
    acg = astrocartography(s, bodies=["sun"])
    assert acg.meta.sidereal_time_deg == pytest.approx(
        swe.sidtime(acg.meta.julian_day) * 15.0, abs=1e-9
    )
