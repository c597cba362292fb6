"""Sade Sati: Saturn's transit through the 12th, 1st and 2nd signs from the natal Moon sign.

Convention: sidereal signs of the chosen ayanamsa (``lahiri`` default). A Sade Sati period runs
from Saturn's first entry into the sign before the Moon sign to its final exit from the sign
after it; retrograde exits from the three-sign window that return within 400 days belong to the
same period. Each period lists its three phases (``rising`` = 12th, ``peak`` = Moon sign,
``setting`` = 2nd), each from first entry to final exit within the period. Ingress instants are
refined to 0.5 s.

Checked against the published sidereal (Lahiri) Saturn ingress dates of 2017-2025 in
``test_vedic_dasha.py``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Final, Literal

import msgspec

from astro_calc import ephemeris
from astro_calc.errors import CalcInputError
from astro_calc.search import refine_root
from astro_calc.vedic.zodiac import SIGNS, sign_index

_STEP_DAYS: Final = 4.0
_MERGE_GAP_DAYS: Final = 400.0
Phase = Literal["rising", "peak", "setting"]
_PHASES: Final[tuple[Phase, ...]] = ("rising", "peak", "setting")


class SadeSatiPhase(msgspec.Struct, frozen=True):
    phase: Phase
    sign: str
    start: datetime
    end: datetime


class SadeSatiPeriod(msgspec.Struct, frozen=True):
    start: datetime
    end: datetime
    phases: tuple[SadeSatiPhase, ...]


class SadeSati(msgspec.Struct, frozen=True):
    moon_sign: str
    ayanamsa: str
    periods: tuple[SadeSatiPeriod, ...]

    def active_at(self, moment: datetime) -> SadeSatiPeriod | None:
        for p in self.periods:
            if p.start <= moment < p.end:
                return p
        return None


def saturn_sign_ingresses(
    start_jd: float, end_jd: float, *, ayanamsa: str = "lahiri"
) -> list[tuple[float, int, int]]:
    """Every sidereal sign change of Saturn in [start_jd, end_jd]: (jd, from sign, to sign)."""

    def lon(t: float) -> float:
        return ephemeris.body_position(t, "saturn", ayanamsa=ayanamsa).longitude

    out: list[tuple[float, int, int]] = []
    t0 = start_jd
    s0 = sign_index(lon(t0))
    while t0 < end_jd:
        t1 = min(t0 + _STEP_DAYS, end_jd)
        s1 = sign_index(lon(t1))
        if s1 != s0:
            forward = (s1 - s0) % 12 == 1
            boundary = 30.0 * (s1 if forward else s0)

            def f(t: float, b: float = boundary) -> float:
                return ephemeris.angle_diff(lon(t), b)

            root = refine_root(f, t0, t1) if forward else refine_root(lambda t: -f(t), t0, t1)
            out.append((root, s0, s1))
        t0, s0 = t1, s1
    return out


def sade_sati(
    moon_longitude_deg: float,
    start_jd_ut: float,
    *,
    years: float = 100.0,
    ayanamsa: str = "lahiri",
) -> SadeSati:
    """Sade Sati periods for a natal Moon (sidereal longitude) from ``start_jd_ut`` (usually the
    birth) for ``years`` years, or to the ephemeris's end (module docstring). A period already
    running at the start is reported from the start."""
    if not 0 < years <= 150:
        raise CalcInputError("years", "must be between 0 and 150")
    moon_sign = sign_index(moon_longitude_deg)
    window = {(moon_sign - 1) % 12: 0, moon_sign: 1, (moon_sign + 1) % 12: 2}
    # A lifetime from a birth late in the ephemeris's span stops at its end (3000 CE).
    end_jd = min(start_jd_ut + years * 365.25, ephemeris.LAST_JD - 1.0)
    sat0 = sign_index(ephemeris.body_position(start_jd_ut, "saturn", ayanamsa=ayanamsa).longitude)

    # Segments of time Saturn spends in each window sign: (phase, start, end).
    segments: list[tuple[int, float, float]] = []
    current_phase = window.get(sat0)
    seg_start = start_jd_ut
    for jd, _from, to in saturn_sign_ingresses(start_jd_ut, end_jd, ayanamsa=ayanamsa):
        if current_phase is not None:
            segments.append((current_phase, seg_start, jd))
        current_phase = window.get(to)
        seg_start = jd
    if current_phase is not None:
        segments.append((current_phase, seg_start, end_jd))

    periods: list[list[tuple[int, float, float]]] = []
    for seg in segments:
        if periods and seg[1] - periods[-1][-1][2] <= _MERGE_GAP_DAYS:
            periods[-1].append(seg)
        else:
            periods.append([seg])

    out: list[SadeSatiPeriod] = []
    for group in periods:
        phases: list[SadeSatiPhase] = []
        for idx, name in enumerate(_PHASES):
            parts = [s for s in group if s[0] == idx]
            if parts:
                phases.append(
                    SadeSatiPhase(
                        name,
                        SIGNS[(moon_sign + idx - 1) % 12],
                        ephemeris.datetime_from_jd(min(p[1] for p in parts)),
                        ephemeris.datetime_from_jd(max(p[2] for p in parts)),
                    )
                )
        out.append(
            SadeSatiPeriod(
                ephemeris.datetime_from_jd(group[0][1]),
                ephemeris.datetime_from_jd(group[-1][2]),
                tuple(phases),
            )
        )
    return SadeSati(SIGNS[moon_sign], ayanamsa, tuple(out))
