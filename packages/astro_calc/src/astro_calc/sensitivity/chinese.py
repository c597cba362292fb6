"""Birth-time sensitivity of BaZi, Korean Saju and the Qi Men Dun Jia chart.

Results: ``pillar.year``, ``pillar.month``, ``pillar.day``, ``pillar.hour`` (the ganzhi, e.g.
``"甲子"``) for BaZi and Saju; ``qimen.ju`` (``"yang 7"``) for Qi Men. The values come from
:func:`astro_calc.chinese.pillars.four_pillars` with the chart's own pillar time
(:func:`~astro_calc.chinese.pillars.pillar_time`, or the Korean almanac's meridian) and from
:func:`astro_calc.chinese.qimen.ju_selection`, the functions the charts call.

These are step functions of the instant (the year and month pillars change at Lichun and the
jie, to the second of the solar-term search) and of the pillar clock (day and hour), so they
are stepped every hour (no pillar lasts less than two hours; a Qi Men ju's term and yuan never
return within a step) and each change is bisected to 1 second
(:func:`astro_calc.sensitivity._search.discrete_changes`). A ju change is a change of the ju
number or its dun; a new term or yuan that keeps both is passed over.
"""

from __future__ import annotations

from datetime import date, time, timedelta

from astro_calc.chinese.pillars import DayBoundary, SolarTimeMode, four_pillars, pillar_time
from astro_calc.chinese.qimen import QimenMethod, ju_selection
from astro_calc.chinese.saju import ALMANAC_MERIDIAN_OFFSET_MINUTES, HOUR_BASES, HourBasis
from astro_calc.chinese.symbols import ganzhi
from astro_calc.ephemeris import julian_day
from astro_calc.errors import CalcInputError
from astro_calc.sensitivity._search import (
    Sensitivity,
    Shift,
    State,
    check_window,
    discrete_changes,
    item,
    sensitivity,
)
from astro_calc.time import ResolvedTime, resolve

PILLAR_RESULTS: tuple[str, ...] = ("pillar.year", "pillar.month", "pillar.day", "pillar.hour")
#: The stepping interval, seconds: below the two hours of the shortest pillar.
STEP_S: float = 3600.0


def pillar_sensitivity_at(
    resolved: ResolvedTime,
    *,
    longitude: float,
    day_boundary: DayBoundary = "zi",
    solar_time: SolarTimeMode | HourBasis = "clock",
    uncertainty_minutes: float = 0.0,
    horizon_minutes: float | None = None,
) -> Sensitivity:
    """Sensitivity of the four pillars of a resolved birth, to 1 second. ``solar_time`` is
    BaZi's ``clock``, ``mean`` or ``true``, or Saju's ``korean_almanac`` (hours on the
    127.5 deg E meridian)."""
    if solar_time not in ("clock", "mean", "true", "korean_almanac"):
        raise CalcInputError("solar_time", "must be 'clock', 'mean' or 'true'")
    horizon = check_window(uncertainty_minutes, horizon_minutes)
    shift = Shift(resolved.utc, resolved.local, julian_day(resolved.utc))
    almanac = timedelta(minutes=ALMANAC_MERIDIAN_OFFSET_MINUTES)

    def state(s: float) -> State:
        utc = shift.utc(s)
        if solar_time == "korean_almanac":
            reading = (utc + almanac).replace(tzinfo=None)
        else:
            reading, _eot = pillar_time(utc, shift.local(s), longitude, solar_time)
        p = four_pillars(utc, reading, day_boundary)
        names = (ganzhi(p.year), ganzhi(p.month), ganzhi(p.day), ganzhi(p.hour))
        return tuple((n, n) for n in names)

    first = state(0.0)
    horizon_s = horizon * 60.0
    before = discrete_changes(state, -1, horizon_s, STEP_S, first=first)
    after = discrete_changes(state, 1, horizon_s, STEP_S, first=first)
    items = [
        item(result, first[k][1], shift.utc0, before[k], after[k], uncertainty_minutes)
        for k, result in enumerate(PILLAR_RESULTS)
    ]
    return sensitivity(items, uncertainty_minutes, horizon)


def bazi_sensitivity(
    local_date: date,
    local_time: time,
    *,
    latitude: float,
    longitude: float,
    offset_minutes: int | None = None,
    timezone_name: str | None = None,
    day_boundary: DayBoundary = "zi",
    solar_time: SolarTimeMode = "clock",
    uncertainty_minutes: float = 0.0,
    horizon_minutes: float | None = None,
) -> Sensitivity:
    """How close each pillar of :func:`astro_calc.chinese.bazi_chart` (same birth, same
    ``day_boundary`` and ``solar_time``) is to changing: value, nearest change before and after
    within ``horizon_minutes`` (default 780), and whether it is certain within
    ``uncertainty_minutes`` (0..720). Bisection on the chart's own pillar function, to 1 second;
    month-pillar changes checked against lunar-python's jie times in the tests."""
    if not 1800 <= local_date.year <= 2200:
        raise CalcInputError("date", "year must be between 1800 and 2200")
    resolved = resolve(
        local_date,
        local_time,
        latitude=latitude,
        longitude=longitude,
        offset_minutes=offset_minutes,
        timezone_name=timezone_name,
    )
    return pillar_sensitivity_at(
        resolved,
        longitude=longitude,
        day_boundary=day_boundary,
        solar_time=solar_time,
        uncertainty_minutes=uncertainty_minutes,
        horizon_minutes=horizon_minutes,
    )


def saju_sensitivity(
    local_date: date,
    local_time: time,
    *,
    latitude: float = 37.5665,
    longitude: float = 126.978,
    offset_minutes: int | None = None,
    timezone_name: str | None = "Asia/Seoul",
    hour_basis: HourBasis = "korean_almanac",
    day_boundary: DayBoundary = "midnight",
    uncertainty_minutes: float = 0.0,
    horizon_minutes: float | None = None,
) -> Sensitivity:
    """:func:`bazi_sensitivity` for :func:`astro_calc.chinese.korean_saju` (same defaults:
    Seoul, hours on 127.5 deg E, the 야자시 day boundary), to 1 second."""
    if hour_basis not in HOUR_BASES:
        raise CalcInputError("hour_basis", f"must be one of {', '.join(HOUR_BASES)}")
    resolved = resolve(
        local_date,
        local_time,
        latitude=latitude,
        longitude=longitude,
        offset_minutes=offset_minutes,
        timezone_name=timezone_name if offset_minutes is None else None,
    )
    return pillar_sensitivity_at(
        resolved,
        longitude=longitude,
        day_boundary=day_boundary,
        solar_time=hour_basis,
        uncertainty_minutes=uncertainty_minutes,
        horizon_minutes=horizon_minutes,
    )


def qimen_sensitivity(
    local_date: date,
    local_time: time,
    *,
    latitude: float | None = None,
    longitude: float | None = None,
    offset_minutes: int | None = None,
    timezone_name: str | None = None,
    method: QimenMethod = "chai_bu",
    day_boundary: DayBoundary = "zi",
    uncertainty_minutes: float = 0.0,
    horizon_minutes: float | None = None,
) -> Sensitivity:
    """How close the ju of :func:`astro_calc.chinese.qimen_chart` (same moment, ``method`` and
    ``day_boundary``) is to changing (see the module docstring), to 1 second."""
    if method not in ("chai_bu", "zhi_run"):
        raise CalcInputError("method", "must be 'chai_bu' or 'zhi_run'")
    horizon = check_window(uncertainty_minutes, horizon_minutes)
    resolved = resolve(
        local_date,
        local_time,
        latitude=latitude,
        longitude=longitude,
        offset_minutes=offset_minutes,
        timezone_name=timezone_name,
    )
    shift = Shift(resolved.utc, resolved.local, julian_day(resolved.utc))
    offset = resolved.offset_minutes

    def state(s: float) -> State:
        j = ju_selection(shift.utc(s), shift.local(s), offset, method, day_boundary)
        return ((f"{j.ju_term.key}|{j.ju_term.jd_ut}|{j.yuan}", f"{j.dun} {j.ju}"),)

    first = state(0.0)
    horizon_s = horizon * 60.0
    before = discrete_changes(state, -1, horizon_s, STEP_S, first=first)[0]
    after = discrete_changes(state, 1, horizon_s, STEP_S, first=first)[0]
    items = [item("qimen.ju", first[0][1], shift.utc0, before, after, uncertainty_minutes)]
    return sensitivity(items, uncertainty_minutes, horizon)
