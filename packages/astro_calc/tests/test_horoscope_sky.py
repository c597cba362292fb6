"""The day's sky against the ephemeris, an independent fine scan, kerykeion and published times."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from astro_calc import ephemeris
from astro_calc.horoscope import daily_horoscope, daily_sky
from astro_calc.horoscope.sky import ASPECTS, LUNATIONS, PLANETS, SIGNS, STATIONING, phase_name

_KERYKEION_SIGNS = {
    "Ari": "aries",
    "Tau": "taurus",
    "Gem": "gemini",
    "Can": "cancer",
    "Leo": "leo",
    "Vir": "virgo",
    "Lib": "libra",
    "Sco": "scorpio",
    "Sag": "sagittarius",
    "Cap": "capricorn",
    "Aqu": "aquarius",
    "Pis": "pisces",
}
_DAYS = [date(2024, 1, 1) + timedelta(days=17 * i) for i in range(40)]


def _kerykeion_noon(day: date):  # type: ignore[no-untyped-def]
    from kerykeion import AstrologicalSubjectFactory

    return AstrologicalSubjectFactory.from_birth_data(
        "sky",
        day.year,
        day.month,
        day.day,
        12,
        0,
        lng=0.0,
        lat=51.5,
        tz_str="Etc/UTC",
        online=False,
    )


@pytest.mark.parametrize("day", _DAYS[::4])
def test_moon_and_planet_signs_at_noon_match_kerykeion(day: date) -> None:
    subject = _kerykeion_noon(day)
    sky = daily_sky(day)
    assert sky.moon_sign == _KERYKEION_SIGNS[subject.moon.sign]
    for body in ("sun", "mercury", "venus", "mars", "jupiter", "saturn"):
        point = getattr(subject, body)
        placement = sky.placement(body)
        # Same sign unless the body sits within 0.01 degree of a cusp (ephemeris differences).
        if min(placement.degree_in_sign, 30 - placement.degree_in_sign) > 0.01:
            assert placement.sign == _KERYKEION_SIGNS[point.sign], body
        assert placement.retrograde == bool(point.retrograde), body


@pytest.mark.parametrize("day", _DAYS[:10])
def test_horoscope_moon_sign_is_the_moon_sign_that_day(day: date) -> None:
    # The horoscope's stated Moon sign (and its moon_sign fact) against kerykeion at 12:00 UTC.
    expected = _KERYKEION_SIGNS[_kerykeion_noon(day).moon.sign]
    for language in ("en", "th"):
        horoscope = daily_horoscope("leo", day, language)
        assert horoscope.moon_sign == expected
        moon_fact = next(f for f in horoscope.facts if f.kind == "moon_sign")
        assert moon_fact.sign == expected
        assert moon_fact.at == f"{day.isoformat()}T12:00:00Z"


def _fine_scan(day: date) -> list[tuple[str, frozenset[str], str, datetime]]:
    """Every event of the day found by 10-minute sampling and linear interpolation, written
    independently of the 3-hour grid and root refinement of the code under test."""
    start = datetime.combine(day, datetime.min.time(), tzinfo=UTC)
    jd0 = ephemeris.julian_day(start)
    n = 144
    jds = [jd0 + i / n for i in range(n + 1)]
    pos = [{b: ephemeris.body_position(jd, b) for b in PLANETS} for jd in jds]
    found: list[tuple[str, frozenset[str], str, datetime]] = []

    def crossings(values: list[float], kind: str, bodies: frozenset[str], label: str) -> None:
        for i in range(n):
            v0, v1 = values[i], values[i + 1]
            if (v0 < 0 <= v1 or v1 < 0 <= v0) and abs(v1 - v0) < 90:
                frac = v0 / (v0 - v1)
                found.append((kind, bodies, label, start + timedelta(days=(i + frac) / n)))

    for b in PLANETS:
        lons = [p[b].longitude for p in pos]
        for i in range(n):
            if int(lons[i] // 30) != int(lons[i + 1] // 30):
                to = SIGNS[int(lons[i + 1] // 30)]
                edge = (
                    (lons[i + 1] // 30) * 30
                    if (lons[i + 1] - lons[i]) % 360 < 180
                    else (lons[i] // 30) * 30
                )
                d0 = ephemeris.angle_diff(lons[i], edge)
                d1 = ephemeris.angle_diff(lons[i + 1], edge)
                found.append(
                    (
                        "ingress",
                        frozenset({b}),
                        to,
                        start + timedelta(days=(i + d0 / (d0 - d1)) / n),
                    )
                )
    for b in STATIONING:
        crossings([p[b].speed for p in pos], "station", frozenset({b}), "")
    for ia, a in enumerate(PLANETS):
        for b in PLANETS[ia + 1 :]:
            for aspect, angle in ASPECTS.items():
                if {a, b} == {"sun", "moon"} and aspect in {"conjunction", "square", "opposition"}:
                    continue
                for target in {angle, (360 - angle) % 360}:
                    values = [
                        ephemeris.angle_diff((p[a].longitude - p[b].longitude) % 360, target)
                        for p in pos
                    ]
                    crossings(values, "aspect", frozenset({a, b}), aspect)
    for lunation, angle in LUNATIONS.items():
        values = [
            ephemeris.angle_diff((p["moon"].longitude - p["sun"].longitude) % 360, angle)
            for p in pos
        ]
        crossings(values, "lunation", frozenset({"moon"}), lunation)
    return found


@pytest.mark.parametrize(
    "day",
    [date(2025, 3, 15), date(2025, 3, 20), date(2024, 4, 8), date(2025, 3, 30), *_DAYS[:8]],
)
def test_events_match_an_independent_fine_scan(day: date) -> None:
    sky = daily_sky(day)
    ours = [
        (e.kind, frozenset(e.bodies), e.aspect or e.sign or "", e.at)
        if e.kind != "lunation"
        else (e.kind, frozenset(e.bodies), e.lunation or "", e.at)
        for e in sky.events
    ]
    ours = [(k, b, (lab if k != "station" else ""), t) for k, b, lab, t in ours]
    scan = _fine_scan(day)
    assert len(ours) == len(scan), (sorted(ours, key=str), sorted(scan, key=str))
    for kind, bodies, label, moment in scan:
        matches = [
            t
            for k, b, lab, t in ours
            if (k, b, lab) == (kind, bodies, label) and abs((t - moment).total_seconds()) < 120
        ]
        assert matches, (kind, bodies, label, moment)


def test_mercury_station_of_march_2025_published_time() -> None:
    # Mercury stationed retrograde 2025 March 15 06:46 UT (almanac tables).
    station = next(e for e in daily_sky(date(2025, 3, 15)).events if e.kind == "station")
    assert station.bodies == ("mercury",)
    assert station.direction == "retrograde"
    assert abs(station.at - datetime(2025, 3, 15, 6, 46, tzinfo=UTC)) < timedelta(minutes=2)


def test_march_equinox_2025_is_the_suns_ingress_into_aries() -> None:
    # USNO Earth's Seasons: equinox 2025 March 20 09:01 UT.
    ingress = next(
        e
        for e in daily_sky(date(2025, 3, 20)).events
        if e.kind == "ingress" and e.bodies == ("sun",)
    )
    assert (ingress.sign, ingress.previous_sign) == ("aries", "pisces")
    assert abs(ingress.at - datetime(2025, 3, 20, 9, 1, tzinfo=UTC)) < timedelta(minutes=1)


def test_new_moon_of_the_april_2024_eclipse() -> None:
    # USNO Phases of the Moon: new moon 2024 April 8 18:21 UT.
    lunation = next(e for e in daily_sky(date(2024, 4, 8)).events if e.kind == "lunation")
    assert lunation.lunation == "new_moon"
    assert lunation.sign == "aries"
    assert abs(lunation.at - datetime(2024, 4, 8, 18, 21, tzinfo=UTC)) < timedelta(minutes=1)
    assert daily_sky(date(2024, 4, 8)).moon_phase == "new_moon"


@pytest.mark.parametrize(
    ("elongation", "phase"),
    [
        (0, "new_moon"),
        (350, "new_moon"),
        (30, "waxing_crescent"),
        (90, "first_quarter"),
        (150, "waxing_gibbous"),
        (180, "full_moon"),
        (220, "waning_gibbous"),
        (270, "last_quarter"),
        (300, "waning_crescent"),
    ],
)
def test_phase_sectors(elongation: float, phase: str) -> None:
    assert phase_name(elongation) == phase
