"""Birth-time sensitivity of the Uranian personal points, checked by brute force.

The result ``<point>.midpoints`` is the set of the chart's midpoint pictures ``point = A/B``
(``astro_calc.sensitivity.uranian``). 200 random births (seeded; 1900-2100, latitudes within
+-55 degrees, every dial, orbs 0.5-2 degrees), each crossing checked at ``at`` -+ 1 s with
:func:`factor_longitudes` (the chart's positions) and a plain-Python brute force over every
pair, which :func:`uranian_chart`'s own midpoint pictures are tied to below; the set is sampled
from the birth to each crossing every ``20 * orb`` seconds (a midpoint needs at least about
``100 * orb`` seconds to cross the orb window around a point at these latitudes).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta

from sensitivity_check import check_sensitivity, local_clock

from astro_calc.ephemeris import julian_day
from astro_calc.sensitivity import uranian_sensitivity
from astro_calc.sensitivity.uranian import PERSONAL_POINTS, midpoints_at_point
from astro_calc.uranian import uranian_chart
from astro_calc.uranian.chart import FACTORS, dial_distance, factor_longitudes
from astro_calc.western.subject import midpoint


def _births(n: int, seed: int) -> list[tuple[date, str, float, float, int, float, float]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        day = date(1900, 1, 1) + timedelta(days=rng.randrange(0, 73_000))
        seconds = rng.randrange(0, 86_400)
        clock = f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
        lon = rng.uniform(-180.0, 180.0)
        dial = rng.choice((90.0, 45.0, 22.5))
        orb = rng.choice((0.5, 1.0, 1.5, 2.0))
        out.append((day, clock, rng.uniform(-55.0, 55.0), lon, round(lon / 15) * 60, dial, orb))
    return out


def _pictures_at(lons: dict[str, float], dial: float, orb: float) -> dict[str, str]:
    """Brute force over every pair of the other factors, for each personal point."""
    mids = {
        (a, b): midpoint(lons[a], lons[b]) % dial
        for i, a in enumerate(FACTORS)
        for b in FACTORS[i + 1 :]
    }
    out = {}
    for point in PERSONAL_POINTS:
        at = lons[point] % dial
        hits = [
            f"{a}/{b}"
            for (a, b), mid in mids.items()
            if point not in (a, b) and dial_distance(at, mid, dial) <= orb
        ]
        out[f"{point}.midpoints"] = ", ".join(sorted(hits))
    return out


def test_the_chart_s_midpoint_pictures_at_each_point_are_every_pair_within_the_orb() -> None:
    for day, clock, lat, lon, offset, dial, orb in _births(40, seed=35):
        chart = uranian_chart(
            day,
            clock,
            lat,
            lon,
            "here",
            dial_mode=dial,
            orb_max=orb,
            timezone_offset_minutes=offset,
        )
        lons = {p.name: p.longitude for p in chart.positions}
        for point in PERSONAL_POINTS:
            pictures = sorted(
                f"{p.factors[0]}/{p.factors[1]}"
                for p in chart.planetary_pictures
                if len(p.factors) == 3 and p.factors[2] == point
            )
            assert _pictures_at(lons, dial, orb)[f"{point}.midpoints"] == ", ".join(pictures)
            assert midpoints_at_point(lons, point, dial, orb) == ", ".join(pictures)


def _values(lat: float, lon: float, dial: float, orb: float) -> Callable[[datetime, str], str]:
    cache: dict[datetime, dict[str, str]] = {}

    def value(moment: datetime, result: str) -> str:
        if moment not in cache:
            lons = factor_longitudes(julian_day(moment), lat, lon)[0]
            cache[moment] = _pictures_at(lons, dial, orb)
        return cache[moment][result]

    return value


def test_every_crossing_of_200_random_uranian_charts_matches_brute_force() -> None:
    problems: list[str] = []
    changes = 0
    for day, clock, lat, lon, offset, dial, orb in _births(200, seed=34):
        answer = uranian_sensitivity(
            day,
            clock,
            lat,
            lon,
            dial_mode=dial,
            orb_max=orb,
            timezone_offset_minutes=offset,
            uncertainty_minutes=5,
        )
        local = datetime.fromisoformat(f"{day.isoformat()}T{clock}")
        birth = (local - timedelta(minutes=offset)).replace(tzinfo=UTC)
        value = _values(lat, lon, dial, orb)
        steps = {f"{p}.midpoints": 20.0 * orb for p in PERSONAL_POINTS}
        problems += check_sensitivity(
            answer, birth, value, steps, f"{day} {clock} {lat:.1f} {dial} {orb}"
        )
        changes += sum(
            c is not None for i in answer.items for c in (i.changes_before, i.changes_after)
        )
        assert local_clock(offset, birth) == local
    assert not problems, "\n".join(problems[:20])
    assert changes > 200 * 5
