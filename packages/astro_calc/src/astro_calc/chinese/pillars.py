"""The four pillars (四柱) of a moment: the calendar core shared by BaZi, Saju and Qi Men.

* Year pillar: changes at Lichun (立春, Sun at 315 deg), not at 1 January or the lunar new year.
* Month pillar: changes at each of the twelve jie (节) to the second; the month stem follows the
  year stem (五虎遁: a 甲 or 己 year opens with 丙寅).
* Day pillar: the continuous sexagenary day count of the civil date in the pillar time (below).
* Hour pillar: twelve double hours, 子 from 23:00 to 01:00; the stem follows the day stem
  (五鼠遁: a 甲 or 己 day opens with 甲子).

``day_boundary``:
  ``zi`` (default for BaZi): the day changes at 23:00, the start of the Zi hour (子时换日);
  ``midnight``: the day pillar changes at 00:00; a birth between 23:00 and 24:00 keeps the day
  pillar of its date and takes the hour pillar of the next day's Zi hour (夜子时), as lunar-python
  (sect 2) and the Korean 야자시 practice do.

The pillar time (the clock reading that decides day and hour) is the local civil time unless the
caller asks for local mean or true (apparent) solar time; the year and month pillars depend only
on the instant. Checked against lunar-python's EightChar for thousands of random moments.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Final, Literal

import msgspec

from astro_calc.chinese.solar_terms import SolarTerm, jie_bracket, solar_terms
from astro_calc.chinese.symbols import cycle_index, day_cycle_index, year_cycle_index
from astro_calc.ephemeris import equation_of_time_minutes, julian_day
from astro_calc.errors import CalcInputError

DayBoundary = Literal["zi", "midnight"]
SolarTimeMode = Literal["clock", "mean", "true"]

DAY_BOUNDARIES: Final = ("zi", "midnight")
SOLAR_TIME_MODES: Final = ("clock", "mean", "true")


class PillarIndices(msgspec.Struct, frozen=True):
    """Sexagenary indices (0..59) of the four pillars and the terms that frame the month."""

    year: int
    month: int
    day: int
    hour: int
    bazi_year: int  # Gregorian year whose Lichun opened the pillar year
    previous_jie: SolarTerm
    next_jie: SolarTerm
    jd_ut: float


def pillar_time(
    utc: datetime,
    local: datetime,
    longitude: float,
    mode: SolarTimeMode,
    jd_ut: float | None = None,
) -> tuple[datetime, float]:
    """The naive clock reading used for the day and hour pillars, and the equation of time used
    (minutes; 0 unless ``mode`` is ``true``).

    ``mean``: UT + 4 min per degree of east longitude. ``true``: mean plus the equation of time
    (:func:`astro_calc.ephemeris.equation_of_time_minutes`)."""
    if mode == "clock":
        return local.replace(tzinfo=None), 0.0
    if mode not in SOLAR_TIME_MODES:
        raise CalcInputError("solar_time", f"must be one of {', '.join(SOLAR_TIME_MODES)}")
    eot = 0.0
    if mode == "true":
        eot = equation_of_time_minutes(jd_ut if jd_ut is not None else julian_day(utc))
    shifted = utc + timedelta(minutes=longitude * 4.0 + eot)
    return shifted.replace(tzinfo=None), eot


def four_pillars(utc: datetime, pillar_local: datetime, day_boundary: DayBoundary) -> PillarIndices:
    """Pillar indices of the instant ``utc`` whose pillar time (a naive clock reading) is
    ``pillar_local``."""
    if day_boundary not in DAY_BOUNDARIES:
        raise CalcInputError("day_boundary", "must be 'zi' or 'midnight'")
    utc = utc.astimezone(UTC)
    jd = julian_day(utc)
    previous_jie, next_jie = jie_bracket(jd, utc.year)
    # The jie index is even, 0 = 小寒 (丑 month) ... 22 = 大雪 (子 month).
    month_branch = (previous_jie.index // 2 + 1) % 12
    lichun = solar_terms(utc.year)[2].jd_ut
    bazi_year = utc.year if jd >= lichun else utc.year - 1
    year = year_cycle_index(bazi_year)
    # 寅 month n = 0; 丑 (n = 11) still belongs to the pillar year that began at the last Lichun.
    n = (month_branch - 2) % 12
    month_stem = (year % 10 % 5 * 2 + 2 + n) % 10
    month = cycle_index(month_stem, month_branch)

    day_date: date = pillar_local.date()
    late_zi = pillar_local.hour == 23
    if late_zi and day_boundary == "zi":
        day_date += timedelta(days=1)
    day = day_cycle_index(day_date)
    hour_branch = (pillar_local.hour + 1) // 2 % 12
    # The Zi hour's stem follows the day that the Zi hour opens; from 23:00 that is tomorrow.
    stem_day = day if not (late_zi and day_boundary == "midnight") else (day + 1) % 60
    hour_stem = (stem_day % 10 % 5 * 2 + hour_branch) % 10
    hour = cycle_index(hour_stem, hour_branch)
    return PillarIndices(year, month, day, hour, bazi_year, previous_jie, next_jie, jd)
