"""Finding instants: when a body (or the Sun-Moon elongation) reaches a longitude.

All searches bracket a sign change of the signed angular difference and then refine it by the
secant method with bisection safeguards, to ``tolerance_s`` seconds (default 0.5 s). Angles are
unwrapped with :func:`astro_calc.ephemeris.angle_diff`, so crossings of 0/360 are handled.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from astro_calc.ephemeris import angle_diff, body_position, ephemeris_path, held_tropical

_SECOND: Final = 1.0 / 86400.0


def refine_root(
    f: Callable[[float], float],
    lo: float,
    hi: float,
    *,
    tolerance_s: float = 0.5,
    known: tuple[float, float] | None = None,
) -> float:
    """Root of ``f`` on [lo, hi] where f(lo) and f(hi) differ in sign (Illinois false position).
    ``known``: f(lo) and f(hi) when the caller has them already (a bracketing search just
    computed both), which saves two evaluations and changes nothing else."""
    f_lo, f_hi = known if known is not None else (f(lo), f(hi))
    if f_lo == 0.0:
        return lo
    if f_hi == 0.0:
        return hi
    if (f_lo > 0) == (f_hi > 0):
        raise ValueError("root is not bracketed")
    side = 0
    tol = tolerance_s * _SECOND
    for _ in range(100):
        mid = (lo * f_hi - hi * f_lo) / (f_hi - f_lo)
        if not lo < mid < hi:
            mid = 0.5 * (lo + hi)
        f_mid = f(mid)
        if f_mid == 0.0 or hi - lo < tol:
            return mid
        if (f_mid > 0) == (f_hi > 0):
            hi, f_hi = mid, f_mid
            if side == -1:
                f_lo *= 0.5
            side = -1
        else:
            lo, f_lo = mid, f_mid
            if side == 1:
                f_hi *= 0.5
            side = 1
        if hi - lo < tol:
            return 0.5 * (lo + hi)
    return 0.5 * (lo + hi)


def find_crossings(
    f: Callable[[float], float],
    start: float,
    end: float,
    step_days: float,
    *,
    tolerance_s: float = 0.5,
) -> list[float]:
    """Every instant in [start, end] where the signed angle ``f`` passes upward or downward
    through zero (not the +-180 wrap), found by stepping ``step_days`` and refining."""
    roots: list[float] = []
    t0, v0 = start, f(start)
    while t0 < end:
        t1 = min(t0 + step_days, end)
        v1 = f(t1)
        if v0 == 0.0:
            roots.append(t0)
        elif (v0 < 0 < v1 or v1 < 0 < v0) and abs(v0 - v1) < 180.0:
            roots.append(refine_root(f, t0, t1, tolerance_s=tolerance_s, known=(v0, v1)))
        t0, v0 = t1, v1
    return roots


def next_longitude(
    name: str,
    target_deg: float,
    jd_start: float,
    *,
    ayanamsa: str | None = None,
    step_days: float | None = None,
    max_days: float = 800.0,
    tolerance_s: float = 0.5,
) -> float:
    """First instant after ``jd_start`` when a body's longitude equals ``target_deg``.

    ``step_days`` must be shorter than the time the body needs to move 180 degrees; the default
    suits the Sun (5 days) and the Moon (0.5 day)."""
    step = step_days or (0.5 if name == "moon" else 5.0)

    def f(jd: float) -> float:
        return angle_diff(body_position(jd, name, ayanamsa=ayanamsa).longitude, target_deg)

    t0, v0 = jd_start, f(jd_start)
    limit = jd_start + max_days
    while t0 < limit:
        t1 = t0 + step
        v1 = f(t1)
        if v0 < 0 <= v1 and v1 - v0 < 180.0:
            return refine_root(f, t0, t1, tolerance_s=tolerance_s, known=(v0, v1))
        t0, v0 = t1, v1
    raise ValueError(f"{name} does not reach {target_deg} within {max_days} days")


def elongation(jd_ut: float) -> float:
    """Moon minus Sun apparent longitude in [0, 360): 0 new moon, 180 full moon."""
    moon = body_position(jd_ut, "moon").longitude
    sun = body_position(jd_ut, "sun").longitude
    return (moon - sun) % 360.0


#: Elongations by Julian day per ephemeris path, shared by the lunar phase searches: searches
#: stepping by half days from a new moon found by another search (the Chinese months from 27
#: days after one, the Hindu months from 25) evaluate the same instants, and yearly spans
#: overlap. The values are those computed; the memo only saves computing them again.
_ELONGATIONS: dict[str | None, dict[float, float]] = {}
_ELONGATIONS_SIZE: Final = 8192


def next_lunar_phase(jd_start: float, phase_deg: float, *, tolerance_s: float = 0.5) -> float:
    """First instant after ``jd_start`` when the Moon-Sun elongation equals ``phase_deg``
    (0 new moon, 90 first quarter, 180 full moon, 270 last quarter)."""

    path = ephemeris_path()
    # The ephemeris is held for the search (body_position's values without its per-call set-up).
    with held_tropical() as position:
        memo = _ELONGATIONS.get(path)
        if memo is None or len(memo) > _ELONGATIONS_SIZE:
            _ELONGATIONS.clear()
            memo = _ELONGATIONS[path] = {}

        def f(jd: float) -> float:
            value = memo.get(jd)
            if value is None:
                moon = position(jd, "moon").longitude
                sun = position(jd, "sun").longitude
                value = memo[jd] = (moon - sun) % 360.0  # elongation(jd)
            return angle_diff(value, phase_deg)

        t0, v0 = jd_start, f(jd_start)
        for _ in range(80):  # 80 half-day steps > one synodic month
            t1 = t0 + 0.5
            v1 = f(t1)
            if v0 < 0 <= v1 and v1 - v0 < 180.0:
                return refine_root(f, t0, t1, tolerance_s=tolerance_s, known=(v0, v1))
            t0, v0 = t1, v1
    raise ValueError("lunar phase not found within 40 days")


def previous_lunar_phase(jd_start: float, phase_deg: float, *, tolerance_s: float = 0.5) -> float:
    """Last instant at or before ``jd_start`` when the elongation equals ``phase_deg``."""
    last = next_lunar_phase(jd_start - 31.0, phase_deg, tolerance_s=tolerance_s)
    while True:
        nxt = next_lunar_phase(last + 1.0, phase_deg, tolerance_s=tolerance_s)
        if nxt > jd_start:
            return last
        last = nxt
