"""Birth-time sensitivity of the Zi Wei Dou Shu chart.

Results: ``ziwei.hour_branch`` (the birth hour's branch, ``"zi"`` .. ``"hai"``; early and late Zi
are one branch), ``ziwei.life_palace_branch`` and ``ziwei.body_palace_branch`` (the branch of the
life and body palaces). Values come from :func:`astro_calc.chinese.ziwei.ziwei_chart` itself,
with the birth moved together with its local clock (the birth's UTC offset kept: the chart
reads the local clock, iztro's convention).

They are step functions of the local clock: the hour changes at every odd hour and at midnight
(early Zi 00:00-01:00 and late Zi 23:00-24:00 last one hour each), the palaces also at midnight
(a new lunar day may be a new month, or the 16th of a leap month) and with the hour. So the state
is the chart's hour index, lunar month and day (its identity) and the three branches (its
values), stepped every 30 minutes (below the one-hour Zi halves) and each change bisected to
1 second (:func:`astro_calc.sensitivity._search.discrete_changes`). A new hour index that keeps
a value (late Zi to early Zi keep the Zi branch) is passed over.
"""

from __future__ import annotations

from datetime import date, time, timedelta

from astro_calc.chinese.ziwei import MAX_DATE, MIN_DATE, Gender, LateZi, LeapMonth, ziwei_chart
from astro_calc.ephemeris import julian_day
from astro_calc.errors import CalcInputError
from astro_calc.sensitivity._search import (
    MAX_HORIZON_MINUTES,
    Sensitivity,
    Shift,
    State,
    check_window,
    discrete_changes,
    item,
    sensitivity,
)
from astro_calc.time import resolve

ZIWEI_RESULTS: tuple[str, ...] = (
    "ziwei.hour_branch",
    "ziwei.life_palace_branch",
    "ziwei.body_palace_branch",
)
#: The stepping interval, seconds: below the one hour of early and late Zi.
STEP_S: float = 1800.0
#: Births this close to the calendar's ends cannot be moved by the largest horizon.
_MARGIN: timedelta = timedelta(minutes=MAX_HORIZON_MINUTES + 1440)


def ziwei_sensitivity(
    birth_date: date,
    birth_time: time,
    gender: Gender,
    *,
    latitude: float | None = None,
    longitude: float | None = None,
    offset_minutes: int | None = None,
    timezone_name: str | None = None,
    late_zi: LateZi = "next_day_stars",
    leap_month: LeapMonth = "split",
    uncertainty_minutes: float = 0.0,
    horizon_minutes: float | None = None,
) -> Sensitivity:
    """How close the hour branch and the life and body palaces of
    :func:`astro_calc.chinese.ziwei.ziwei_chart` (same birth, ``late_zi`` and ``leap_month``) are
    to changing: value, nearest change before and after within ``horizon_minutes`` (default
    780), and whether each is certain within ``uncertainty_minutes`` (0..720). Bisection on the
    chart function itself, to 1 second; checked by brute force in the tests. The UTC instant
    ``at`` needs the birth's offset (``offset_minutes``, ``timezone_name`` or the coordinates);
    the chart itself reads only the local clock."""
    horizon = check_window(uncertainty_minutes, horizon_minutes)
    if not MIN_DATE + _MARGIN <= birth_date <= MAX_DATE - _MARGIN:
        raise CalcInputError(
            "date", f"must be between {MIN_DATE + _MARGIN} and {MAX_DATE - _MARGIN}"
        )
    resolved = resolve(
        birth_date,
        birth_time,
        latitude=latitude,
        longitude=longitude,
        offset_minutes=offset_minutes,
        timezone_name=timezone_name,
    )
    ziwei_chart(birth_date, birth_time, gender, late_zi=late_zi, leap_month=leap_month)
    shift = Shift(resolved.utc, resolved.local, julian_day(resolved.utc))

    def state(s: float) -> State:
        local = shift.local(s)
        chart = ziwei_chart(
            local.date(), local.time(), gender, late_zi=late_zi, leap_month=leap_month
        )
        ld = chart.lunar_date
        ident = f"{chart.hour_index}|{ld.year}|{ld.month}|{ld.leap}|{ld.day}"
        return (
            (ident, chart.hour_branch),
            (ident, chart.life_palace_branch),
            (ident, chart.body_palace_branch),
        )

    first = state(0.0)
    horizon_s = horizon * 60.0
    before = discrete_changes(state, -1, horizon_s, STEP_S, first=first)
    after = discrete_changes(state, 1, horizon_s, STEP_S, first=first)
    items = [
        item(result, first[k][1], shift.utc0, before[k], after[k], uncertainty_minutes)
        for k, result in enumerate(ZIWEI_RESULTS)
    ]
    return sensitivity(items, uncertainty_minutes, horizon)
