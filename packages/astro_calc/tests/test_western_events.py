"""Sky events (astro_calc.western.events.sky) against independent references.

* Eclipses: pyswisseph's own ``sol_eclipse_when_glob`` / ``lun_eclipse_when`` (Moshier, the
  same ephemeris), every eclipse of 2000-2030: same list, same type, greatest eclipse within
  15 s (their search and ours differ in the shadow radii and the minimised distance); and
  NASA/Espenak's Five Millennium Canon (eclipse.gsfc.nasa.gov) for dates, types, gamma and
  magnitude of named eclipses.
* Lunations, ingresses and stations: each instant brackets the event on raw pyswisseph
  positions one second either side, and published almanac times (to the minute) agree.
* Void-of-course Moon: a ten-minute brute-force scan of raw pyswisseph positions.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import msgspec
import pytest
import swisseph as swe

from astro_calc import ephemeris
from astro_calc.errors import CalcInputError
from astro_calc.western.events.sky import (
    EclipseEvent,
    IngressEvent,
    LunationEvent,
    StationEvent,
    VoidOfCourseEvent,
    sky_events,
)

FLAGS = swe.FLG_MOSEPH | swe.FLG_SPEED
SECOND = 1.0 / 86400.0


def _lon(jd: float, ipl: int) -> tuple[float, float]:
    values, _ = swe.calc_ut(jd, ipl, FLAGS)
    return values[0], values[3]


def _diff(a: float, b: float) -> float:
    d = (a - b) % 360.0
    return d - 360.0 if d > 180.0 else d


def _jd(moment: datetime) -> float:
    return ephemeris.julian_day(moment)


def _sol_type(flags: int) -> str:
    if flags & swe.ECL_HYBRID:
        return "hybrid"
    if flags & swe.ECL_TOTAL:
        return "total"
    return "annular" if flags & swe.ECL_ANNULAR else "partial"


def _lun_type(flags: int) -> str:
    if flags & swe.ECL_TOTAL:
        return "total"
    return "partial" if flags & swe.ECL_PARTIAL else "penumbral"


def test_eclipses_2000_2030_match_swiss_ephemeris_in_type_and_within_15_seconds() -> None:
    ours = []
    for year in range(2000, 2031):
        found = sky_events(date(year, 1, 1), date(year, 12, 31), kinds=["eclipse"]).events
        ours += [(_jd(e.at), e.body, e.eclipse_type) for e in found if isinstance(e, EclipseEvent)]
    ref = []
    end = swe.julday(2031, 1, 1, 0.0)
    for body, when, typer in (
        ("sun", lambda jd: swe.sol_eclipse_when_glob(jd, swe.FLG_MOSEPH, 0, False), _sol_type),
        ("moon", lambda jd: swe.lun_eclipse_when(jd, swe.FLG_MOSEPH, 0, False), _lun_type),
    ):
        jd = swe.julday(2000, 1, 1, 0.0)
        while True:
            flags, times = when(jd)
            if times[0] > end:
                break
            ref.append((times[0], body, typer(flags)))
            jd = times[0] + 1.0
    ref.sort()
    assert len(ours) == len(ref) == 141
    for (jd_a, body_a, type_a), (jd_b, body_b, type_b) in zip(ours, ref, strict=True):
        assert (body_a, type_a) == (body_b, type_b), ephemeris.datetime_from_jd(jd_b)
        assert abs(jd_a - jd_b) * 86400.0 < 15.0, ephemeris.datetime_from_jd(jd_b)


# NASA/Espenak, Five Millennium Canon of Solar/Lunar Eclipses: date (UT) and type.
NASA_ECLIPSES = [
    ("2013-11-03", "sun", "hybrid"),
    ("2017-08-21", "sun", "total"),
    ("2019-12-26", "sun", "annular"),
    ("2022-10-25", "sun", "partial"),
    ("2023-04-20", "sun", "hybrid"),
    ("2023-10-14", "sun", "annular"),
    ("2024-04-08", "sun", "total"),
    ("2024-10-02", "sun", "annular"),
    ("2025-03-29", "sun", "partial"),
    ("2026-02-17", "sun", "annular"),
    ("2026-08-12", "sun", "total"),
    ("2031-11-14", "sun", "hybrid"),
    ("2022-11-08", "moon", "total"),
    ("2023-05-05", "moon", "penumbral"),
    ("2023-10-28", "moon", "partial"),
    ("2024-03-25", "moon", "penumbral"),
    ("2024-09-18", "moon", "partial"),
    ("2025-03-14", "moon", "total"),
    ("2025-09-07", "moon", "total"),
    ("2026-03-03", "moon", "total"),
    ("2026-08-28", "moon", "partial"),
]


@pytest.mark.parametrize(("day", "body", "kind"), NASA_ECLIPSES)
def test_eclipse_dates_and_types_of_the_nasa_canon(day: str, body: str, kind: str) -> None:
    d = date.fromisoformat(day)
    found = sky_events(d - timedelta(days=1), d + timedelta(days=1), kinds=["eclipse"]).events
    assert [(e.at.date().isoformat(), e.body, e.eclipse_type) for e in found] == [  # type: ignore[union-attr]
        (day, body, kind)
    ]


def test_total_solar_eclipse_2024_04_08_greatest_eclipse_gamma_and_magnitude_as_nasa() -> None:
    # NASA: greatest eclipse 18:18:29 TD, Delta T 69.1 s -> 18:17:20 UT; gamma 0.3431,
    # magnitude 1.0566. Tolerance: 10 s (ephemeris and Delta T differ), 0.0005.
    (e,) = sky_events(date(2024, 4, 8), date(2024, 4, 8), kinds=["eclipse"]).events
    assert isinstance(e, EclipseEvent)
    assert abs((e.at - datetime(2024, 4, 8, 18, 17, 20, tzinfo=UTC)).total_seconds()) <= 10
    assert e.gamma == pytest.approx(0.3431, abs=5e-4)
    assert e.magnitude == pytest.approx(1.0566, abs=5e-4)


def test_penumbral_lunar_eclipse_2024_03_25_magnitudes_as_nasa() -> None:
    # NASA: penumbral magnitude 0.9577, umbral -0.1304 (Espenak's shadow rule; ours Danjon's).
    (e,) = sky_events(date(2024, 3, 25), date(2024, 3, 25), kinds=["eclipse"]).events
    assert isinstance(e, EclipseEvent)
    assert e.penumbral_magnitude == pytest.approx(0.9577, abs=0.005)
    assert e.magnitude == pytest.approx(-0.1304, abs=0.005)


# USNO (aa.usno.navy.mil) equinoxes/solstices and Moon phases, and the Mercury stations of
# the 2024 almanacs, to the minute (UT).
ALMANAC = [
    ("ingress", "sun", "2024-03-20T03:06"),
    ("ingress", "sun", "2024-06-20T20:51"),
    ("ingress", "sun", "2024-12-21T09:20"),
    ("lunation", "new", "2024-01-11T11:57"),
    ("lunation", "full", "2024-01-25T17:54"),
    ("lunation", "new", "2024-04-08T18:21"),
    ("station", "retrograde", "2024-04-01T22:14"),
    ("station", "direct", "2024-04-25T12:54"),
]


@pytest.mark.parametrize(("kind", "what", "minute"), ALMANAC)
def test_almanac_times_to_the_minute(kind: str, what: str, minute: str) -> None:
    expected = datetime.fromisoformat(minute).replace(tzinfo=UTC)
    found = sky_events(
        expected - timedelta(hours=2),
        expected + timedelta(hours=2),
        kinds=[kind],
        bodies=["sun", "mercury"],
    ).events
    matches = [
        e
        for e in found
        if what
        in (getattr(e, "body", None), getattr(e, "phase", None), getattr(e, "direction", None))
    ]
    assert len(matches) == 1
    assert abs((matches[0].at - expected).total_seconds()) <= 60


@pytest.fixture(scope="module")
def year_2025() -> tuple[object, ...]:
    return sky_events(
        date(2025, 1, 1),
        date(2025, 12, 31),
        bodies=[
            "moon",
            "sun",
            "mercury",
            "venus",
            "mars",
            "jupiter",
            "saturn",
            "uranus",
            "neptune",
            "pluto",
        ],
    ).events


def test_events_are_sorted_by_at_in_utc_to_the_second(year_2025: tuple[object, ...]) -> None:
    ats = [e.at for e in year_2025]  # type: ignore[attr-defined]
    assert ats == sorted(ats)
    assert all(a.microsecond == 0 and a.utcoffset() == timedelta(0) for a in ats)
    encoded = msgspec.json.encode(year_2025[0]).decode()
    assert '"kind":' in encoded
    assert 'Z"' in encoded


def test_every_lunation_brackets_its_elongation_within_a_second(
    year_2025: tuple[object, ...],
) -> None:
    phases = {"new": 0.0, "first_quarter": 90.0, "full": 180.0, "last_quarter": 270.0}
    lunations = [e for e in year_2025 if isinstance(e, LunationEvent)]
    assert len(lunations) == 49
    for e in lunations:
        jd = _jd(e.at)
        before = _diff(_lon(jd - SECOND, 1)[0] - _lon(jd - SECOND, 0)[0], phases[e.phase])
        after = _diff(_lon(jd + SECOND, 1)[0] - _lon(jd + SECOND, 0)[0], phases[e.phase])
        assert before < 0.0 < after, e
        assert (
            e.sign
            == [
                "aries",
                "taurus",
                "gemini",
                "cancer",
                "leo",
                "virgo",
                "libra",
                "scorpio",
                "sagittarius",
                "capricorn",
                "aquarius",
                "pisces",
            ][int(e.longitude // 30)]
        )


def test_every_ingress_crosses_its_boundary_within_a_second(year_2025: tuple[object, ...]) -> None:
    ingresses = [e for e in year_2025 if isinstance(e, IngressEvent)]
    ids = ephemeris.BODY_IDS
    moon = [e for e in ingresses if e.body == "moon"]
    assert 160 <= len(moon) <= 170
    for e in ingresses:
        jd = _jd(e.at)
        a, _ = _lon(jd - SECOND, ids[e.body])
        b, _ = _lon(jd + SECOND, ids[e.body])
        signs = [
            "aries",
            "taurus",
            "gemini",
            "cancer",
            "leo",
            "virgo",
            "libra",
            "scorpio",
            "sagittarius",
            "capricorn",
            "aquarius",
            "pisces",
        ]
        assert signs[int(b // 30)] == e.sign, e
        assert int(a // 30) != int(b // 30), e


def test_stations_and_their_shadows(year_2025: tuple[object, ...]) -> None:
    stations = [e for e in year_2025 if isinstance(e, StationEvent)]
    ids = ephemeris.BODY_IDS
    # 2025: Mercury three loops, Venus one, Mars one, and each outer planet its two stations.
    bodies = sorted(e.body for e in stations)
    assert bodies.count("mercury") == 6
    assert bodies.count("venus") == 2
    for e in stations:
        jd = _jd(e.at)
        _, s0 = _lon(jd - 2 * SECOND, ids[e.body])
        _, s1 = _lon(jd + 2 * SECOND, ids[e.body])
        assert (s0 > 0 > s1) if e.direction == "retrograde" else (s0 < 0 < s1), e
        assert e.shadow_start is not None
        assert e.shadow_end is not None
        assert e.shadow_start < e.at < e.shadow_end
    # The pre-shadow starts where the loop's direct station lies, the post-shadow ends where
    # its retrograde station lies.
    mercury = [e for e in stations if e.body == "mercury"]
    for retro, direct in zip(mercury[::2], mercury[1::2], strict=True):
        assert retro.direction == "retrograde"
        assert direct.direction == "direct"
        start_lon, _ = _lon(_jd(retro.shadow_start), swe.MERCURY)  # type: ignore[arg-type]
        end_lon, _ = _lon(_jd(retro.shadow_end), swe.MERCURY)  # type: ignore[arg-type]
        assert abs(_diff(start_lon, direct.longitude)) < 1e-3
        assert abs(_diff(end_lon, retro.longitude)) < 1e-3


def test_mercury_retrograde_of_april_2024_shadow_dates() -> None:
    # Published (e.g. the 2024 astrological almanacs): pre-shadow from 18-19 March, post-shadow
    # until 13 May 2024.
    found = sky_events(date(2024, 4, 1), date(2024, 4, 2), kinds=["station"], bodies=["mercury"])
    (e,) = found.events
    assert isinstance(e, StationEvent)
    assert e.shadow_start is not None
    assert e.shadow_start.date() in (
        date(2024, 3, 18),
        date(2024, 3, 19),
    )
    assert e.shadow_end is not None
    assert e.shadow_end.date() == date(2024, 5, 13)


@pytest.mark.parametrize(
    ("rule", "bodies"),
    [
        ("traditional", (0, 2, 3, 4, 5, 6)),
        ("modern", (0, 2, 3, 4, 5, 6, 7, 8, 9)),
    ],
)
def test_void_of_course_periods_against_a_brute_force_scan(
    rule: str, bodies: tuple[int, ...]
) -> None:
    found = sky_events(
        date(2025, 3, 1), date(2025, 3, 31), kinds=["void_of_course"], void_of_course_rule=rule
    ).events
    voids = [e for e in found if isinstance(e, VoidOfCourseEvent)]
    assert 12 <= len(voids) <= 15
    aspects = (0.0, 60.0, 90.0, 120.0, 180.0, 240.0, 270.0, 300.0)

    def separations(jd: float) -> list[float]:
        moon = _lon(jd, swe.MOON)[0]
        return [(moon - _lon(jd, ipl)[0]) % 360.0 for ipl in bodies]

    for v in voids:
        start, end = _jd(v.at), _jd(v.end)
        # The start is an exact aspect (bracketed one second either side).
        before, after = separations(start - SECOND), separations(start + SECOND)
        assert any(
            _diff(b, a) < 0.0 < _diff(c, a)
            for b, c in zip(before, after, strict=True)
            for a in aspects
        ), v
        # No exact aspect between the start and the ingress (ten-minute scan).
        t = start + 2 * SECOND
        prev = separations(t)
        while t < end:
            t = min(t + 10.0 / 1440.0, end - SECOND)
            cur = separations(t)
            for p, c in zip(prev, cur, strict=True):
                for a in aspects:
                    assert not (_diff(p, a) < 0.0 <= _diff(c, a)), (v, a)
            prev = cur
            if t >= end - SECOND:
                break
        # The end is the Moon's ingress.
        m0, m1 = _lon(end - SECOND, swe.MOON)[0], _lon(end + SECOND, swe.MOON)[0]
        assert int(m0 // 30) != int(m1 // 30)


def test_the_window_is_at_most_366_days_inclusive() -> None:
    sky_events(date(2024, 1, 1), date(2024, 12, 31), kinds=["station"])  # 366 days
    with pytest.raises(CalcInputError) as err:
        sky_events(date(2024, 1, 1), date(2025, 1, 1), kinds=["station"])
    assert err.value.field == "end"


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"kinds": ["comet"]}, "kinds"),
        ({"bodies": ["chiron"]}, "bodies"),
        ({"void_of_course_rule": "hellenistic"}, "void_of_course_rule"),
        ({"timezone": "Mars/Olympus"}, "timezone"),
    ],
)
def test_bad_input_names_the_field(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(CalcInputError) as err:
        sky_events(date(2025, 1, 1), date(2025, 1, 31), **kwargs)  # type: ignore[arg-type]
    assert err.value.field == field


def test_dates_are_local_dates_in_the_timezone() -> None:
    found = sky_events(date(2024, 3, 20), date(2024, 3, 20), timezone="Asia/Bangkok")
    assert found.start == datetime(2024, 3, 19, 17, 0, tzinfo=UTC)
    assert found.end == datetime(2024, 3, 20, 16, 59, 59, tzinfo=UTC)


def test_moon_ingresses_only_when_the_moon_is_named() -> None:
    default = sky_events(date(2025, 1, 1), date(2025, 1, 31), kinds=["ingress"]).events
    assert all(e.body != "moon" for e in default)  # type: ignore[union-attr]
    named = sky_events(
        date(2025, 1, 1), date(2025, 1, 31), kinds=["ingress"], bodies=["moon"]
    ).events
    assert len(named) >= 13
    assert all(e.body == "moon" for e in named)


# Local circumstances against pyswisseph's sol_eclipse_when_loc (topocentric, sea level):
# maximum and contacts within 5 s, magnitude within 0.001, the Sun's altitude within 0.05 deg.
SOLAR_PLACES = [
    ("2024-04-08", 32.78, -96.8, "total"),  # Dallas, in the path of totality
    ("2024-04-08", 40.71, -74.0, "partial"),  # New York
    ("2023-10-14", 35.08, -106.65, "annular"),  # Albuquerque
    ("2026-08-12", 40.42, -3.7, "partial"),  # Madrid, just outside the path, low Sun
]


@pytest.mark.parametrize(("day", "lat", "lon", "local_type"), SOLAR_PLACES)
def test_solar_local_circumstances_agree_with_sol_eclipse_when_loc(
    day: str, lat: float, lon: float, local_type: str
) -> None:
    d = date.fromisoformat(day)
    (e,) = sky_events(d, d, kinds=["eclipse"], latitude=lat, longitude=lon).events
    assert isinstance(e, EclipseEvent)
    local = e.local
    assert local is not None
    assert local.eclipse_type == local_type
    assert local.visible
    flags, tret, attr = swe.sol_eclipse_when_loc(_jd(e.at) - 1.0, (lon, lat, 0.0), swe.FLG_MOSEPH)
    assert abs((_jd(local.maximum) - tret[0]) * 86400.0) <= 5.0
    names = ("first", "second", "third", "fourth")
    for i, name in enumerate(names, start=1):
        if tret[i] > 0.0:
            assert abs((_jd(local.contacts[name]) - tret[i]) * 86400.0) <= 5.0, name
        else:
            assert name not in local.contacts
    assert local.magnitude == pytest.approx(attr[0], abs=1e-3)
    assert local.altitude_at_maximum == pytest.approx(attr[5], abs=0.05)
    assert bool(flags & swe.ECL_VISIBLE)


def test_a_solar_eclipse_below_the_horizon_is_none_there() -> None:
    (e,) = sky_events(
        date(2024, 4, 8), date(2024, 4, 8), kinds=["eclipse"], latitude=13.75, longitude=100.5
    ).events
    assert isinstance(e, EclipseEvent)
    assert e.local is not None
    assert (e.local.eclipse_type, e.local.visible, e.local.contacts) == ("none", False, {})


@pytest.mark.parametrize(("lat", "lon", "visible"), [(40.71, -74.0, True), (13.75, 100.5, False)])
def test_lunar_local_contacts_and_visibility(lat: float, lon: float, visible: bool) -> None:
    # Contacts against lun_eclipse_when within 40 s (Danjon's shadow against Swiss Ephemeris's
    # own enlargement of the shadow); the Moon's altitude within 0.1 deg of lun_eclipse_when_loc.
    (e,) = sky_events(
        date(2025, 3, 14), date(2025, 3, 14), kinds=["eclipse"], latitude=lat, longitude=lon
    ).events
    assert isinstance(e, EclipseEvent)
    local = e.local
    assert local is not None
    assert local.visible is visible
    _flags, tret = swe.lun_eclipse_when(_jd(e.at) - 1.0, swe.FLG_MOSEPH, 0, False)
    expected = {
        "partial_begin": tret[2],
        "partial_end": tret[3],
        "total_begin": tret[4],
        "total_end": tret[5],
        "penumbral_begin": tret[6],
        "penumbral_end": tret[7],
    }
    assert set(local.contacts) == set(expected)
    for name, jd in expected.items():
        assert abs((_jd(local.contacts[name]) - jd) * 86400.0) <= 40.0, name
    if visible:
        _f, _t, attr = swe.lun_eclipse_when_loc(_jd(e.at) - 1.0, (lon, lat, 0.0), swe.FLG_MOSEPH)
        assert local.altitude_at_maximum == pytest.approx(attr[5], abs=0.1)


def test_local_circumstances_need_both_coordinates() -> None:
    with pytest.raises(CalcInputError) as err:
        sky_events(date(2024, 4, 8), date(2024, 4, 8), kinds=["eclipse"], latitude=10.0)
    assert err.value.field == "longitude"
