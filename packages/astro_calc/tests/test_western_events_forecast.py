"""The personal forecast against a brute-force scan of raw pyswisseph longitudes: every
contact's enters/exact/leaves instants bracket their crossing one second either side, and a
one-hour scan finds no contact the forecast missed."""

from __future__ import annotations

from datetime import date

import pytest
import swisseph as swe

from astro_calc import ephemeris
from astro_calc.errors import CalcInputError
from astro_calc.western.events.forecast import (
    ASPECT_ANGLES,
    DEFAULT_ORB_DEG,
    forecast,
    natal_points,
)
from astro_calc.western.subject import BirthSubject

SUBJECT = BirthSubject(date=date(1990, 5, 1), time="07:30", latitude=13.75, longitude=100.5)
SECOND = 1.0 / 86400.0


def _lon(jd: float, body: str) -> float:
    values, _ = swe.calc_ut(jd, ephemeris.BODY_IDS[body], swe.FLG_MOSEPH | swe.FLG_SPEED)
    return float(values[0])


def _offset(jd: float, body: str, target: float) -> float:
    d = (_lon(jd, body) - target) % 360.0
    return d - 360.0 if d > 180.0 else d


@pytest.fixture(scope="module")
def report():  # type: ignore[no-untyped-def]
    return forecast(SUBJECT, date(2026, 3, 1), date(2026, 4, 30))


def test_each_instant_brackets_its_crossing(report) -> None:  # type: ignore[no-untyped-def]
    angles = dict(ASPECT_ANGLES)
    assert report.transits
    for t in report.transits:
        orb = DEFAULT_ORB_DEG[t.transiting]
        targets = [(t.natal_longitude + s * angles[t.aspect]) % 360.0 for s in (1, -1)]

        def near(jd: float, level: float, t=t, targets=targets) -> bool:  # type: ignore[no-untyped-def]
            for target in targets:
                a = abs(_offset(jd - SECOND, t.transiting, target))
                b = abs(_offset(jd + SECOND, t.transiting, target))
                if min(a, b) <= level + 1e-9 <= max(a, b) + 1e-9 or abs(a - level) < 1e-4:
                    return True
            return False

        for x in t.exact:
            jd = ephemeris.julian_day(x)
            assert any(
                (_offset(jd - SECOND, t.transiting, tg) > 0)
                != (_offset(jd + SECOND, t.transiting, tg) > 0)
                for tg in targets
            ), t
        for edge in (t.enters, t.leaves):
            if edge is not None:
                assert near(ephemeris.julian_day(edge), orb), t


def test_a_scan_finds_no_missed_contact(report) -> None:  # type: ignore[no-untyped-def]
    _, natal = natal_points(SUBJECT)
    jd0 = ephemeris.julian_day(report.start)
    jd1 = ephemeris.julian_day(report.end)
    listed = {(t.transiting, t.natal, t.aspect) for t in report.transits}
    for body in ("sun", "mars", "saturn"):
        orb = DEFAULT_ORB_DEG[body]
        jd = jd0
        while jd <= jd1:
            lon = _lon(jd, body)
            for point, natal_lon in natal.items():
                for aspect, angle in ASPECT_ANGLES:
                    for target in ((natal_lon + angle) % 360.0, (natal_lon - angle) % 360.0):
                        d = (lon - target) % 360.0
                        d = d - 360.0 if d > 180.0 else d
                        if abs(d) < orb - 0.01:
                            assert (body, point, aspect) in listed, (body, point, aspect, jd)
            jd += 1.0 / 24.0


def test_a_retrograde_loop_gives_three_exact_passes_in_alternating_directions() -> None:
    report = forecast(SUBJECT, date(2026, 1, 1), date(2026, 12, 31))
    loops = [t for t in report.transits if len(t.exact) == 3]
    assert loops, "expected a three-pass contact of a slow planet in a year"
    for t in loops:
        assert t.transiting in (
            "mercury",
            "venus",
            "mars",
            "jupiter",
            "saturn",
            "uranus",
            "neptune",
            "pluto",
        )
        speeds = [
            swe.calc_ut(
                ephemeris.julian_day(x),
                ephemeris.BODY_IDS[t.transiting],
                swe.FLG_MOSEPH | swe.FLG_SPEED,
            )[0][3]
            for x in t.exact
        ]
        assert speeds[0] > 0 > speeds[1], t
        assert speeds[2] > 0, t
        assert t.enters is None or t.enters < t.exact[0]
        assert t.leaves is None or t.exact[-1] < t.leaves


def test_orb_overrides_are_checked() -> None:
    with pytest.raises(CalcInputError) as err:
        forecast(SUBJECT, date(2026, 3, 1), date(2026, 3, 31), orb_deg={"chiron": 1.0})
    assert err.value.field == "orb_deg"
    with pytest.raises(CalcInputError):
        forecast(SUBJECT, date(2026, 3, 1), date(2027, 3, 3))
