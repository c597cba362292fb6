"""The tuned cultural searches against plain references kept here: identical results (``==`` on
the Julian days and instants, not a tolerance).

* Void-of-course Moon and Mercury stations per month (:mod:`astro_calc.cultural.sky`): the
  module memoizes positions across months, skips the ingresses of the three lead-in days that
  belong to the previous month, and tries only the aspects near the Moon-body separation. The
  reference below is the plain search (every position from ``ephemeris.body_position``, every
  aspect tried at every step), with the same sampling, interpolation and refinement.
* New moons, quarters and full moons (:func:`astro_calc.search.next_lunar_phase`, which holds
  the ephemeris, memoizes elongations and hands the bracket's values to the refinement) and the
  solar terms (``_term_jd``) against the plain bracketing search.
"""

from __future__ import annotations

import importlib
import random
from datetime import UTC, datetime

import pytest

from astro_calc import ephemeris
from astro_calc.cultural import sky
from astro_calc.ephemeris import angle_diff
from astro_calc.search import next_lunar_phase, refine_root

# The module (``astro_calc.chinese`` exports a function of the same name).
solar_terms = importlib.import_module("astro_calc.chinese.solar_terms")


@pytest.fixture(autouse=True)
def moshier(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ASTRO_EPHE_PATH", raising=False)


def _lon(jd: float, body: str) -> float:
    return ephemeris.body_position(jd, body).longitude


def _plain_month_sky(
    year: int, month: int
) -> tuple[tuple[tuple[float, bool], ...], tuple[sky.VoidPeriod, ...]]:
    """The month's Mercury stations and void periods, the plain way (module docstring)."""
    t0 = ephemeris.julian_day(sky._month_start(year, month))
    t1 = ephemeris.julian_day(sky._month_start(year, month + 1))

    def mercury_speed(jd: float) -> float:
        return ephemeris.body_position(jd, "mercury").speed

    stations = []
    for k in range(1, int(t1 - t0) + 1):
        before, after = mercury_speed(t0 + k - 1), mercury_speed(t0 + k)
        if (before < 0) != (after < 0):
            stations.append((refine_root(mercury_speed, t0 + k - 1, t0 + k), after < 0))
    start = t0 - 3.0
    n = int((t1 - start) / sky._STEP) + 1
    times = [start + i * sky._STEP for i in range(n)]
    moon = [_lon(t, "moon") for t in times]
    others = {b: sky._samples(b, times, _lon) for b in sky.BODIES}
    periods = []
    for i in range(1, n):
        sign = int(moon[i] // 30)
        if sign == int(moon[i - 1] // 30):
            continue

        def to_boundary(t: float, b: float = 30.0 * sign) -> float:
            return angle_diff(_lon(t, "moon"), b)

        ingress = refine_root(to_boundary, times[i - 1], times[i], tolerance_s=sky._TOL_S)
        if not t0 <= ingress < t1:
            continue
        last: tuple[float, str, float] | None = None
        j = i
        while j > 0 and last is None:
            found = []
            for body in sky.BODIES:
                for asp in sky.ASPECTS:
                    a = angle_diff((moon[j - 1] - others[body][j - 1]) % 360.0, asp)
                    b = angle_diff((moon[j] - others[body][j]) % 360.0, asp)
                    if (a <= 0 < b or b <= 0 < a) and abs(a - b) < 90.0:
                        found.append((times[j - 1] + sky._STEP * a / (a - b), body, asp))
            for estimate, body, asp in sorted(found, key=lambda c: -c[0]):
                if estimate > ingress + sky._MARGIN:
                    continue
                if last is not None and estimate < last[0] - sky._MARGIN:
                    break

                def f(t: float, body: str = body, asp: float = asp) -> float:
                    return angle_diff((_lon(t, "moon") - _lon(t, body)) % 360.0, asp)

                try:
                    hit = refine_root(f, times[j - 1], times[j], tolerance_s=sky._TOL_S)
                except ValueError:
                    continue
                if hit < ingress and (last is None or hit > last[0]):
                    last = (hit, body, asp)
            j -= 1
        assert last is not None
        periods.append(
            sky.VoidPeriod(
                start=ephemeris.datetime_from_jd(last[0]).replace(microsecond=0),
                end=ephemeris.datetime_from_jd(ingress).replace(microsecond=0),
                last_aspect_body=last[1],
                last_aspect_deg=int(last[2] if last[2] <= 180 else 360 - last[2]),
                next_sign=sky.SIGNS[sign % 12],
            )
        )
    return tuple(stations), tuple(periods)


def test_void_of_course_and_stations_equal_the_plain_search() -> None:
    rng = random.Random(33)
    # Two runs of consecutive months (the memo carries positions from month to month) and
    # scattered single months, 1900-2100.
    months = [(2027, m) for m in range(1, 13)] + [(1951, m) for m in range(6, 12)]
    months += [(rng.randint(1900, 2100), rng.randint(1, 12)) for _ in range(14)]
    sky._month_sky.cache_clear()
    periods = stations = 0
    for year, month in months:
        expected = _plain_month_sky(year, month)
        assert sky._month_sky(year, month) == expected, (year, month)
        stations += len(expected[0])
        periods += len(expected[1])
    assert periods > 300
    assert stations > 5


def _plain_phase(jd_start: float, phase: float) -> float:
    def f(jd: float) -> float:
        return angle_diff((_lon(jd, "moon") - _lon(jd, "sun")) % 360.0, phase)

    t0, v0 = jd_start, f(jd_start)
    while True:
        t1 = t0 + 0.5
        v1 = f(t1)
        if v0 < 0 <= v1 and v1 - v0 < 180.0:
            return refine_root(f, t0, t1)
        t0, v0 = t1, v1


def test_lunar_phases_equal_the_plain_search() -> None:
    rng = random.Random(8)
    jd = ephemeris.julian_day(datetime(1990, 1, 1, tzinfo=UTC))
    for _ in range(120):
        phase = rng.choice((0.0, 90.0, 180.0, 270.0))
        # Steps of 25 to 27 days after a new moon, as the Hindu and Chinese months search, so
        # the memo is hit; and random starts.
        jd += rng.choice((25.0, 27.0, rng.uniform(0.0, 40.0)))
        found = next_lunar_phase(jd, phase)
        assert found == _plain_phase(jd, phase), (jd, phase)
        jd = found


def test_solar_terms_equal_the_plain_search() -> None:
    for year in (1901, 1984, 2024, 2099):
        for index in range(24):
            target = float(solar_terms.term_longitude(index))

            def f(jd: float, target: float = target) -> float:
                return angle_diff(_lon(jd, "sun"), target)

            jan1 = datetime(year, 1, 1, tzinfo=UTC)
            estimate = 2451545.0 + (jan1 - solar_terms._J2000).total_seconds() / 86400.0
            estimate += 4.8 + index * solar_terms._TROPICAL_YEAR_DAYS / 24.0
            lo, hi = estimate - 4.0, estimate + 4.0
            while f(lo) > 0:
                lo -= 4.0
            while f(hi) < 0:
                hi += 4.0
            plain = refine_root(f, lo, hi, tolerance_s=0.1)
            assert solar_terms._term_jd(year, index) == plain, (year, index)
