"""Western electional warnings for a range of days: Mercury retrograde and the void-of-course
Moon.

Conventions
-----------
* Mercury is retrograde on a day when its geocentric apparent longitude decreases at the day's
  local noon (speed < 0); the stations are the instants the speed changes sign.
* Void-of-course Moon (modern usage, as the published ephemerides of Jim Maynard's Celestial
  Guide and Llewellyn's Daily Planetary Guide define it): from the Moon's last exact Ptolemaic
  aspect (conjunction, sextile, square, trine, opposition) to the Sun, Mercury, Venus, Mars,
  Jupiter, Saturn, Uranus, Neptune or Pluto while in a sign, until it enters the next sign.
* The Moon is sampled every twelve hours (the other bodies less often, interpolated) and each
  event refined to 20 seconds (:func:`astro_calc.search.refine_root`); results are cached per UTC
  month.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from typing import Final

import msgspec

from astro_calc import ephemeris
from astro_calc.ephemeris import angle_diff
from astro_calc.search import refine_root

_Station = tuple[float, bool]  # (Julian day, turns retrograde)
BODIES: Final = (
    "sun", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto",
)  # fmt: skip
ASPECTS: Final = (0.0, 60.0, 90.0, 120.0, 180.0, 240.0, 270.0, 300.0)
_STEP: Final = 0.5  # days
#: Precision of the instants (published tables give minutes).
_TOL_S: Final = 20.0
#: Bound on the error of a crossing's linear estimate within a step, in days (the Moon's
#: motion is near-linear over 12 hours; the slow bodies' interpolation errs by minutes).
_MARGIN: Final = 0.1
#: Sampling of the other bodies, in Moon steps (interpolated between).
_SLOW_STEP: Final = {"sun": 4, "mercury": 2, "venus": 4, "mars": 8}
_SLOW_STEP.update(dict.fromkeys(("jupiter", "saturn", "uranus", "neptune", "pluto"), 24))


class VoidPeriod(msgspec.Struct, frozen=True):
    start: datetime
    end: datetime  # the Moon's ingress
    last_aspect_body: str
    last_aspect_deg: int  # 0, 60, 90, 120 or 180
    next_sign: str


class SkyRange(msgspec.Struct, frozen=True):
    mercury_retrograde_days: frozenset[date]
    void_periods: tuple[VoidPeriod, ...]


SIGNS: Final = (
    "aries", "taurus", "gemini", "cancer", "leo", "virgo",
    "libra", "scorpio", "sagittarius", "capricorn", "aquarius", "pisces",
)  # fmt: skip


Longitude = Callable[[float, str], float]


def _samples(body: str, times: list[float], _lon: Longitude) -> list[float]:
    """Longitudes at ``times``: the Moon computed at each, the others every ``_SLOW_STEP[body]``
    samples and interpolated linearly between (their motion over a day is near-linear; the
    crossings found are then refined with exact positions)."""
    every = _SLOW_STEP.get(body, 1)
    out: list[float] = []
    anchors = list(range(0, len(times), every))
    if anchors[-1] != len(times) - 1:
        anchors.append(len(times) - 1)
    values = [_lon(times[i], body) for i in anchors]
    for k in range(len(anchors) - 1):
        i0, i1 = anchors[k], anchors[k + 1]
        v0, delta = values[k], angle_diff(values[k + 1], values[k])
        for i in range(i0, i1):
            out.append((v0 + delta * (i - i0) / (i1 - i0)) % 360.0)
    out.append(values[-1])
    return out


def _aspects_near() -> dict[tuple[int, int], tuple[float, ...]]:
    """Per pair of 30-degree sectors (of the separation at the start and the end of a step): the
    aspects a crossing in that step can be of. A crossing of ``asp`` needs the separation to
    pass ``asp`` within the step, and a step moves it less than 90 degrees (the test below):
    so ``asp`` lies on the shorter arc between the two separations, which lies in the sectors
    from the first to the last going the short way round. Every aspect within one degree of
    those sectors is kept (the exact test decides), so this only skips aspects that cannot
    cross; the remaining ones are tested exactly as before, in the same order."""
    out: dict[tuple[int, int], tuple[float, ...]] = {}
    for s0 in range(12):
        for s1 in range(12):
            forward = (s1 - s0) % 12
            sectors = (
                [(s0 + k) % 12 for k in range(forward + 1)]
                if forward <= 6
                else [(s0 - k) % 12 for k in range((12 - forward) % 12 + 1)]
            )
            near = []
            for asp in ASPECTS:
                for sector in sectors:
                    lo = 30.0 * sector - 1.0
                    if (asp - lo) % 360.0 <= 32.0:
                        near.append(asp)
                        break
            out[s0, s1] = tuple(near)
    return out


_ASPECTS_NEAR: Final = _aspects_near()


def _month_start(year: int, month: int) -> datetime:
    return datetime(year + (month - 1) // 12, (month - 1) % 12 + 1, 1, tzinfo=UTC)


@lru_cache(maxsize=64)
def _month_sky(
    year: int, month: int
) -> tuple[tuple[tuple[float, bool], ...], tuple[VoidPeriod, ...]]:
    """Mercury's stations (Julian day, True when it turns retrograde) and the void-of-course
    periods whose ingress falls in one UTC calendar month (one cache entry per month).

    The ephemeris is held for the month (about 15 ms) and every position is computed once (a
    memo by instant and body: the searches start from the sampled instants, Mercury's daily
    speeds fall on samples too, and a month's first three days of samples are the end of the
    previous month's grid), with the same values as :func:`astro_calc.ephemeris.body_position`,
    so the results do not change."""
    path = ephemeris.ephemeris_path()
    with ephemeris.held_tropical() as position:
        memo = _MEMO.get(path)
        if memo is None or len(memo) > _MEMO_SIZE:
            _MEMO.clear()  # one path at a time, and bounded: a few months of positions
            memo = _MEMO[path] = {}

        # One frame per position (the memo read inline): a year reads about 6,000 of them.
        def lon(jd: float, body: str) -> float:
            value = memo.get((jd, body))
            if value is None:
                value = memo[jd, body] = position(jd, body)
            return value.longitude

        def speed(jd: float) -> float:
            value = memo.get((jd, "mercury"))
            if value is None:
                value = memo[jd, "mercury"] = position(jd, "mercury")
            return value.speed

        return _month_sky_held(year, month, lon, speed)


#: Positions by (Julian day, body) per ephemeris path, shared by the months (see _month_sky).
_MEMO: dict[str | None, dict[tuple[float, str], ephemeris.BodyPosition]] = {}
#: About three months of a month's 400 positions.
_MEMO_SIZE: Final = 1500


def _month_sky_held(
    year: int, month: int, _lon: Longitude, mercury_speed: Callable[[float], float]
) -> tuple[tuple[tuple[float, bool], ...], tuple[VoidPeriod, ...]]:
    t0 = ephemeris.julian_day(_month_start(year, month))
    t1 = ephemeris.julian_day(_month_start(year, month + 1))
    stations: list[tuple[float, bool]] = []
    prev = mercury_speed(t0)
    for k in range(1, int(t1 - t0) + 1):
        cur = mercury_speed(t0 + k)
        if (prev < 0) != (cur < 0):
            jd = refine_root(mercury_speed, t0 + k - 1, t0 + k)
            stations.append((jd, cur < 0))
        prev = cur
    grid_start = t0 - 3.0  # the last aspect before an ingress early in the month
    n = int((t1 - grid_start) / _STEP) + 1
    times = [grid_start + i * _STEP for i in range(n)]
    moon = [_lon(t, "moon") for t in times]
    others = {b: _samples(b, times, _lon) for b in BODIES}
    periods: list[VoidPeriod] = []
    for i in range(1, n):
        if int(moon[i] // 30) == int(moon[i - 1] // 30):
            continue
        if times[i] < t0:  # the ingress (between times[i - 1] and times[i]) is last month's
            continue
        boundary = 30.0 * int(moon[i] // 30)

        def to_boundary(t: float, b: float = boundary) -> float:
            return angle_diff(_lon(t, "moon"), b)

        ingress = refine_root(to_boundary, times[i - 1], times[i], tolerance_s=_TOL_S)
        if not t0 <= ingress < t1:
            continue
        # The latest aspect before the ingress: walk the sample steps back from the ingress;
        # in the first step holding a crossing before it, refine that step's crossings.
        last: tuple[float, str, float] | None = None
        j = i
        while j > 0 and last is None:
            # The step's crossings, latest first by their linear estimate; only those that can
            # still be the latest before the ingress are refined (_MARGIN bounds the estimate's
            # error, so the refined instants and the choice are those of refining them all).
            # The sector key of _ASPECTS_NEAR and angle_diff inlined (the same arithmetic): a
            # year runs this body loop about 1,500 times.
            candidates: list[tuple[float, str, float]] = []
            moon0, moon1 = moon[j - 1], moon[j]
            for body in BODIES:
                series = others[body]
                x0 = (moon0 - series[j - 1]) % 360.0
                x1 = (moon1 - series[j]) % 360.0
                for asp in _ASPECTS_NEAR[int(x0 // 30.0) % 12, int(x1 // 30.0) % 12]:
                    a = (x0 - asp) % 360.0
                    if a > 180.0:
                        a -= 360.0
                    b = (x1 - asp) % 360.0
                    if b > 180.0:
                        b -= 360.0
                    if (a <= 0 < b or b <= 0 < a) and abs(a - b) < 90.0:
                        candidates.append((times[j - 1] + _STEP * a / (a - b), body, asp))
            for estimate, body, asp in sorted(candidates, key=lambda c: -c[0]):
                if estimate > ingress + _MARGIN:
                    continue
                if last is not None and estimate < last[0] - _MARGIN:
                    break

                def f(t: float, body: str = body, asp: float = asp) -> float:
                    return angle_diff((_lon(t, "moon") - _lon(t, body)) % 360.0, asp)

                try:
                    hit = refine_root(f, times[j - 1], times[j], tolerance_s=_TOL_S)
                except ValueError:  # an interpolation artefact: no exact crossing
                    continue
                if hit < ingress and (last is None or hit > last[0]):
                    last = (hit, body, asp)
            j -= 1
        if last is None:  # cannot happen: the Moon aspects the Sun every ~2.5 days
            continue
        periods.append(
            VoidPeriod(
                start=ephemeris.datetime_from_jd(last[0]).replace(microsecond=0),
                end=ephemeris.datetime_from_jd(ingress).replace(microsecond=0),
                last_aspect_body=last[1],
                last_aspect_deg=int(last[2] if last[2] <= 180 else 360 - last[2]),
                next_sign=SIGNS[int(moon[i] // 30) % 12],
            )
        )
    return tuple(stations), tuple(periods)


def mercury_retrograde(moment: datetime) -> bool:
    """Mercury moves backwards at ``moment`` (between a retrograde and a direct station)."""
    jd = ephemeris.julian_day(moment)
    last: bool | None = None
    for back in range(4, -1, -1):  # Mercury stations come every two months or less
        first = _month_start(moment.year, moment.month - back)
        for station_jd, turns_retro in _month_sky(first.year, first.month)[0]:
            if station_jd <= jd:
                last = turns_retro
    if last is None:
        return ephemeris.body_position(jd, "mercury").speed < 0
    return last


def sky_range(start: date, end: date, utc_offset: timedelta) -> SkyRange:
    """Mercury-retrograde days (at local noon) and void-of-course periods touching the local
    days ``start..end`` of a place ``utc_offset`` east of UTC (cached per UTC month)."""
    first = datetime(start.year, start.month, start.day, tzinfo=UTC) - utc_offset
    last = datetime(end.year, end.month, end.day, tzinfo=UTC) - utc_offset + timedelta(days=1)
    stations: list[tuple[float, bool]] = []
    voids: list[VoidPeriod] = []
    # A void period ends at its ingress, at most ~2.5 days after it starts.
    cursor = datetime(first.year, first.month, 1, tzinfo=UTC)
    stop = last + timedelta(days=3)
    while cursor < stop:
        month_stations, month_voids = _month_sky(cursor.year, cursor.month)
        stations.extend(month_stations)
        voids.extend(v for v in month_voids if v.end > first and v.start < last)
        cursor = _month_start(cursor.year, cursor.month + 1)
    retro: set[date] = set()
    noon = ephemeris.julian_day(first + timedelta(hours=12))
    state = ephemeris.body_position(noon, "mercury").speed < 0
    index = 0
    # Walk the days with the stations after the first noon, in order.
    later = [s for s in stations if s[0] > noon]
    for k in range((end - start).days + 1):
        jd = noon + k
        while index < len(later) and later[index][0] <= jd:
            state = later[index][1]
            index += 1
        if state:
            retro.add(start + timedelta(days=k))
    return SkyRange(frozenset(retro), tuple(voids))
