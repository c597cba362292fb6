"""Transits against an independent brute-force scan with pyswisseph.

For each body the scan steps hour by hour through the range, calling pyswisseph directly, and
records every crossing of a target longitude (natal point +- aspect angle, sign boundaries) and
every change of sign of the speed; each is then located to the minute. Our events must be the
same set, each within one minute of the scanned instant.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
import swisseph as swe

from astro_calc.errors import CalcInputError
from astro_calc.western import BirthSubject, natal_chart, transits

FLAGS = swe.FLG_MOSEPH | swe.FLG_SPEED
HOUR = 1.0 / 24.0
MINUTE = 1.0 / 1440.0
IDS = {"sun": 0, "mercury": 2, "mars": 4, "jupiter": 5}
ASPECT_ANGLES = {"conjunction": 0, "sextile": 60, "square": 90, "trine": 120, "opposition": 180}

SUBJECT = BirthSubject(date(1978, 4, 12), "05:45", -33.87, 151.21, timezone="Australia/Sydney")
START = datetime(2024, 1, 1, tzinfo=UTC)
END = datetime(2024, 12, 31, tzinfo=UTC)


def _calc(jd: float, body: int) -> tuple[float, float]:
    v = swe.calc_ut(jd, body, FLAGS)[0]
    return float(v[0]), float(v[3])


def _signed(a: float, b: float) -> float:
    return (a - b + 180.0) % 360.0 - 180.0


def _refine_minute(g: object, t0: float) -> float:
    """Walk minute by minute from t0 until g changes sign; return the middle of that minute."""
    assert callable(g)
    s0 = g(t0) < 0
    m = t0
    while (g(m + MINUTE) < 0) == s0:
        m += MINUTE
    return m + MINUTE / 2


def _brute_force(
    body: str, targets: list[tuple[float, str]], jd0: float, jd1: float
) -> list[tuple[float, str]]:
    ipl = IDS[body]
    found: list[tuple[float, str]] = []
    t = jd0
    lon0, spd0 = _calc(t, ipl)
    while t < jd1:
        t1 = min(t + HOUR, jd1)
        lon1, spd1 = _calc(t1, ipl)
        for target, label in targets:
            a, b = _signed(lon0, target), _signed(lon1, target)
            if ((a < 0 <= b) or (b < 0 <= a)) and abs(a - b) < 180:
                when = _refine_minute(lambda jd, tg=target: _signed(_calc(jd, ipl)[0], tg), t)
                found.append((when, label))
        if (spd0 < 0) != (spd1 < 0):
            found.append((_refine_minute(lambda jd: _calc(jd, ipl)[1], t), "station"))
        t, lon0, spd0 = t1, lon1, spd1
    return found


@pytest.mark.parametrize("body", ["sun", "mercury", "mars", "jupiter"])
def test_events_match_a_brute_force_hourly_scan(body: str) -> None:
    natal = natal_chart(SUBJECT)
    points = {
        p.name: p.longitude
        for p in natal.planets
        if p.name
        in {
            "sun",
            "moon",
            "mercury",
            "venus",
            "mars",
            "jupiter",
            "saturn",
            "uranus",
            "neptune",
            "pluto",
        }
    }
    points["ascendant"] = natal.angles.ascendant.longitude
    points["midheaven"] = natal.angles.midheaven.longitude
    targets = []
    for point, lon in points.items():
        seen = set()
        for name, angle in ASPECT_ANGLES.items():
            for t in ((lon + angle) % 360, (lon - angle) % 360):
                if round(t, 9) not in seen:
                    seen.add(round(t, 9))
                    targets.append((t, f"{name}:{point}"))
    targets += [(30.0 * i, "ingress") for i in range(12)]
    jd0 = swe.julday(2024, 1, 1, 0.0)
    jd1 = swe.julday(2024, 12, 31, 0.0)
    expected = sorted(_brute_force(body, targets, jd0, jd1))

    report = transits(SUBJECT, START, END, transiting_bodies=(body,))
    ours = []
    for e in report.events:
        if e.kind == "aspect":
            ours.append((e.julian_day, f"{e.aspect}:{e.natal_point}"))
        else:
            ours.append((e.julian_day, e.kind))
    assert [label for _, label in ours] == [label for _, label in expected]
    for (jd_ours, _), (jd_scan, _) in zip(ours, expected, strict=True):
        assert abs(jd_ours - jd_scan) * 1440 < 1.0


def test_events_are_in_time_order_and_stations_have_a_direction() -> None:
    report = transits(SUBJECT, START, END)
    times = [e.julian_day for e in report.events]
    assert times == sorted(times)
    stations = [e for e in report.events if e.kind == "station"]
    # 2024: Mercury turned retrograde on 1 Apr, 5 Aug and 26 Nov (UT), Mars on 6 Dec.
    mercury_retro = [
        e.utc.date() for e in stations if e.transiting == "mercury" and e.station == "retrograde"
    ]
    assert mercury_retro == [date(2024, 4, 1), date(2024, 8, 5), date(2024, 11, 26)]
    assert any(
        e.transiting == "mars" and e.station == "retrograde" and e.utc.date() == date(2024, 12, 6)
        for e in stations
    )


def test_ingress_names_the_sign_entered() -> None:
    report = transits(SUBJECT, START, END, transiting_bodies=("sun",))
    ingresses = [(e.utc.date(), e.sign) for e in report.events if e.kind == "ingress"]
    # The Sun entered Aries at the March equinox, 2024-03-20 03:06 UT (USNO).
    assert (date(2024, 3, 20), "aries") in ingresses
    assert len(ingresses) == 12


def test_range_longer_than_a_year_is_refused() -> None:
    with pytest.raises(CalcInputError) as info:
        transits(SUBJECT, date(2024, 1, 1), date(2025, 1, 3))
    assert info.value.field == "end"


def test_end_before_start_is_refused() -> None:
    with pytest.raises(CalcInputError) as info:
        transits(SUBJECT, date(2024, 2, 1), date(2024, 1, 1))
    assert info.value.field == "end"


def test_short_direct_loops_of_the_true_node_are_found_wherever_the_range_starts() -> None:
    # In July 2014 the true node turned direct for about five hours; a half-day grid started at
    # 07:13:16 stepped over the whole loop. Reference: the sign changes of pyswisseph's speed,
    # scanned here minute by minute over the two days.
    subject = BirthSubject(date(1994, 4, 10), "17:59", -16.959, -162.532, timezone_offset_minutes=0)
    t0 = swe.julday(2014, 7, 18, 0.0)
    expected = []
    previous = _calc(t0, swe.TRUE_NODE)[1]
    for i in range(1, 2 * 1440):
        speed = _calc(t0 + i * MINUTE, swe.TRUE_NODE)[1]
        if (speed < 0) != (previous < 0):
            expected.append((t0 + i * MINUTE, "retrograde" if speed < 0 else "direct"))
        previous = speed
    assert [kind for _jd, kind in expected] == ["direct", "retrograde"]
    for start in (datetime(2014, 3, 20, 7, 13, 16, tzinfo=UTC), datetime(2014, 7, 10, tzinfo=UTC)):
        report = transits(
            subject, start, datetime(2015, 3, 20, tzinfo=UTC), transiting_bodies=["true_node"]
        )
        found = [
            (e.julian_day, e.station)
            for e in report.events
            if e.kind == "station" and abs(e.julian_day - t0 - 1) < 1
        ]
        assert [s for _jd, s in found] == [kind for _jd, kind in expected], start
        for (jd, _s), (ref, _k) in zip(found, expected, strict=True):
            assert abs(jd - ref) * 1440 < 2
