"""Sampled longitudes of one body and the root polishing every event search shares.

A :class:`Track` holds a body's apparent geocentric longitude and speed (pyswisseph through
:func:`astro_calc.ephemeris.held_tropical`) on an even grid. Between two samples the longitude
is the cubic Hermite curve through both values and both speeds, which follows the Moon to about
an arcsecond over twelve hours and the planets far better over their steps. A search brackets a
sign change on the samples, takes the interpolant's root as its first guess and polishes it
with Newton steps on the ephemeris itself (longitude and speed from one call), kept inside the
bracket (a step that leaves it falls back to bisection), until a step is below
:data:`TOLERANCE_DAYS`. Every reported instant is therefore an ephemeris root, not an
interpolated one.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Final

from astro_calc.ephemeris import BodyPosition, angle_diff, datetime_from_jd

#: Polishing stops when a Newton step moves less than this (0.05 s): instants are reported
#: rounded to the second.
TOLERANCE_DAYS: Final = 0.05 / 86400.0

Position = Callable[[float, str], BodyPosition]


class Track:
    """A body sampled every ``step`` days from ``first`` to at least ``last``."""

    __slots__ = ("body", "first", "lons", "n", "position", "speeds", "step", "times")

    def __init__(
        self, body: str, first: float, last: float, step: float, position: Position
    ) -> None:
        self.body = body
        self.position = position
        self.step = step
        self.first = first
        self.n = max(2, math.ceil((last - first) / step) + 1)
        self.times = [first + i * step for i in range(self.n)]
        lons: list[float] = []
        speeds: list[float] = []
        for t in self.times:
            p = position(t, body)
            lons.append(p.longitude)
            speeds.append(p.speed)
        self.lons = lons
        self.speeds = speeds

    def index(self, jd: float) -> int:
        """Index of the sample at or before ``jd`` (clamped to the grid)."""
        return min(self.n - 2, max(0, bisect.bisect_right(self.times, jd) - 1))

    def longitude(self, jd: float) -> float:
        """Interpolated longitude (cubic Hermite on the two samples around ``jd``)."""
        i = self.index(jd)
        h = self.step
        s = (jd - self.times[i]) / h
        l0 = self.lons[i]
        d = angle_diff(self.lons[i + 1], l0)
        m0 = self.speeds[i] * h
        m1 = self.speeds[i + 1] * h
        s2 = s * s
        s3 = s2 * s
        value = (s3 - 2 * s2 + s) * m0 + (-2 * s3 + 3 * s2) * d + (s3 - s2) * m1
        return (l0 + value) % 360.0

    def speed(self, jd: float) -> float:
        """Interpolated speed (derivative of the Hermite curve), degrees per day."""
        i = self.index(jd)
        h = self.step
        s = (jd - self.times[i]) / h
        d = angle_diff(self.lons[i + 1], self.lons[i])
        m0 = self.speeds[i] * h
        m1 = self.speeds[i + 1] * h
        ds = (3 * s * s - 4 * s + 1) * m0 + (-6 * s * s + 6 * s) * d + (3 * s * s - 2 * s) * m1
        return ds / h


def polish(
    exact: Callable[[float], tuple[float, float]],
    guess: float,
    lo: float,
    hi: float,
    rising: bool,
) -> float:
    """Root of a function whose value and derivative ``exact(t)`` gives, bracketed by
    [``lo``, ``hi``] (negative at ``lo`` when ``rising``, positive when not), from ``guess``:
    Newton steps kept inside the bracket (bisection when a step leaves it)."""
    t = min(max(guess, lo), hi)
    for _ in range(60):
        value, slope = exact(t)
        if value == 0.0:
            return t
        if (value < 0) == rising:
            lo = t
        else:
            hi = t
        nxt = t - value / slope if slope != 0.0 else math.nan
        if not lo <= nxt <= hi:
            nxt = 0.5 * (lo + hi)
        if abs(nxt - t) < TOLERANCE_DAYS or hi - lo < TOLERANCE_DAYS:
            return nxt
        t = nxt
    return t


def first_guess(
    values: Callable[[float], float], speed: Callable[[float], float], lo: float, hi: float
) -> float:
    """A root estimate of an interpolated signed function on [lo, hi]: two Newton steps on the
    interpolant from the linear estimate (cheap: no ephemeris call)."""
    f_lo = values(lo)
    f_hi = values(hi)
    t = lo if f_hi == f_lo else lo + (hi - lo) * f_lo / (f_lo - f_hi)
    for _ in range(2):
        slope = speed(t)
        if slope == 0.0:
            break
        nxt = t - values(t) / slope
        if not lo <= nxt <= hi:
            break
        t = nxt
    return t


def utc_second(jd_ut: float) -> datetime:
    """The UTC instant of a Julian day, rounded to the second."""
    moment = datetime_from_jd(jd_ut)
    return (moment + timedelta(microseconds=500_000)).replace(microsecond=0)
