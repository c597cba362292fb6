"""Vimshottari dasha: mahadasha, antardasha and pratyantardasha periods from the Moon's nakshatra.

Convention (BPHS ch. 46): the 120-year cycle of lords Ketu 7, Venus 20, Sun 6, Moon 10, Mars 7,
Rahu 18, Jupiter 16, Saturn 19, Mercury 17 years starts with the lord of the Moon's birth
nakshatra; the part of that mahadasha already elapsed at birth is the fraction of the nakshatra
the Moon has traversed. Each period divides into nine sub-periods in the same order starting
with its own lord, proportional to the lords' years. A dasha year is ``year_days`` days:
365.25 (Julian year, default), 365.2422 (tropical year) or 360 (savana year).

Checked against PyJHora's Vimshottari (with its year length set to ours) to one day in
``test_vedic_dasha.py``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Final

import msgspec

from astro_calc import ephemeris
from astro_calc.errors import CalcInputError
from astro_calc.vedic.zodiac import (
    NAKSHATRA_SPAN_DEG,
    NAKSHATRAS,
    VIMSHOTTARI_ORDER,
    VIMSHOTTARI_YEARS,
    Graha,
    nakshatra_index,
)

YEAR_LENGTHS_DAYS: Final = (365.25, 365.2422, 360.0)
_CYCLE_YEARS: Final = 120.0


class DashaPeriod(msgspec.Struct, frozen=True):
    lord: str
    start: datetime
    end: datetime
    level: int  # 1 mahadasha, 2 antardasha, 3 pratyantardasha
    sub_periods: tuple[DashaPeriod, ...] = ()


class CurrentDasha(msgspec.Struct, frozen=True):
    at: datetime
    mahadasha: str
    antardasha: str
    pratyantardasha: str
    mahadasha_end: datetime
    antardasha_end: datetime
    pratyantardasha_end: datetime


class VimshottariDasha(msgspec.Struct, frozen=True):
    moon_longitude_deg: float
    nakshatra: int
    nakshatra_name: str
    year_days: float
    balance_years: float  # of the first mahadasha, remaining at birth
    mahadashas: tuple[DashaPeriod, ...]
    current: CurrentDasha | None = None


def _order_from(lord: Graha) -> list[Graha]:
    i = VIMSHOTTARI_ORDER.index(lord)
    return [VIMSHOTTARI_ORDER[(i + k) % 9] for k in range(9)]


def _subdivide(
    lord: Graha, start_jd: float, length_days: float, level: int, depth: int
) -> tuple[DashaPeriod, ...]:
    out: list[DashaPeriod] = []
    t = start_jd
    for sub in _order_from(lord):
        span = length_days * VIMSHOTTARI_YEARS[sub] / _CYCLE_YEARS
        children = _subdivide(sub, t, span, level + 1, depth) if level < depth else ()
        out.append(
            DashaPeriod(
                sub,
                ephemeris.datetime_from_jd(t),
                ephemeris.datetime_from_jd(t + span),
                level,
                children,
            )
        )
        t += span
    return tuple(out)


def _current(
    first_lord: Graha, cycle_start_jd: float, year_days: float, at_jd: float
) -> CurrentDasha | None:
    lords: list[Graha] = []
    ends: list[float] = []
    lord, start, length = first_lord, cycle_start_jd, _CYCLE_YEARS * year_days
    # The cycle itself is the level-0 period of 120 years led by the birth lord.
    for _level in range(3):
        t = start
        found = False
        for sub in _order_from(lord):
            span = length * VIMSHOTTARI_YEARS[sub] / _CYCLE_YEARS
            if t <= at_jd < t + span:
                lords.append(sub)
                ends.append(t + span)
                lord, start, length = sub, t, span
                found = True
                break
            t += span
        if not found:
            return None
    return CurrentDasha(
        ephemeris.datetime_from_jd(at_jd),
        lords[0],
        lords[1],
        lords[2],
        ephemeris.datetime_from_jd(ends[0]),
        ephemeris.datetime_from_jd(ends[1]),
        ephemeris.datetime_from_jd(ends[2]),
    )


def vimshottari_from_moon(
    birth_jd_ut: float,
    moon_longitude_deg: float,
    *,
    year_days: float = 365.25,
    depth: int = 3,
    at_jd_ut: float | None = None,
) -> VimshottariDasha:
    """Vimshottari periods from the Moon's sidereal longitude at birth (module docstring).

    ``depth`` 1..3 chooses how many levels are listed; ``at_jd_ut`` adds the current mahadasha,
    antardasha and pratyantardasha at that moment (none before birth or after the cycle).
    Checked against PyJHora to one day."""
    if year_days not in YEAR_LENGTHS_DAYS:
        raise CalcInputError("year_days", "must be one of 365.25, 365.2422, 360")
    if depth not in (1, 2, 3):
        raise CalcInputError("depth", "must be 1, 2 or 3")
    nak = nakshatra_index(moon_longitude_deg)
    first: Graha = VIMSHOTTARI_ORDER[nak % 9]
    elapsed_fraction = (
        (moon_longitude_deg % 360.0) - nak * NAKSHATRA_SPAN_DEG
    ) / NAKSHATRA_SPAN_DEG
    first_years = VIMSHOTTARI_YEARS[first]
    cycle_start = birth_jd_ut - elapsed_fraction * first_years * year_days
    mahadashas: list[DashaPeriod] = []
    t = cycle_start
    for lord in _order_from(first):
        span = VIMSHOTTARI_YEARS[lord] * year_days
        subs = _subdivide(lord, t, span, 2, depth) if depth >= 2 else ()
        mahadashas.append(
            DashaPeriod(
                lord, ephemeris.datetime_from_jd(t), ephemeris.datetime_from_jd(t + span), 1, subs
            )
        )
        t += span
    # No periods run before birth (the first period's unexpired part starts at birth) nor after
    # the 120-year cycle.
    current = (
        _current(first, cycle_start, year_days, at_jd_ut)
        if at_jd_ut is not None and at_jd_ut >= birth_jd_ut
        else None
    )
    return VimshottariDasha(
        moon_longitude_deg=moon_longitude_deg % 360.0,
        nakshatra=nak + 1,
        nakshatra_name=NAKSHATRAS[nak],
        year_days=year_days,
        balance_years=(1.0 - elapsed_fraction) * first_years,
        mahadashas=tuple(mahadashas),
        current=current,
    )


def vimshottari_dasha(
    birth_jd_ut: float,
    *,
    ayanamsa: str = "lahiri",
    year_days: float = 365.25,
    depth: int = 3,
    at_jd_ut: float | None = None,
) -> VimshottariDasha:
    """Vimshottari dasha for a birth moment: the Moon's sidereal longitude (``ayanamsa``) then
    :func:`vimshottari_from_moon`."""
    moon = ephemeris.body_position(birth_jd_ut, "moon", ayanamsa=ayanamsa).longitude
    return vimshottari_from_moon(
        birth_jd_ut, moon, year_days=year_days, depth=depth, at_jd_ut=at_jd_ut
    )
