"""Birth-time sensitivity of the Thai birth day and the Taksa birth planet.

Results: ``thai.birth_day`` (``sunday`` .. ``saturday`` or ``wednesday_night``) and
``taksa.birth_planet``, from :func:`astro_calc.thai.taksa.thai_birth_day` and
:func:`astro_calc.thai.taksa.wheel_for_day`, the functions :func:`astro_calc.thai.taksa_wheel`
calls: the Thai day begins at 06:00 local time and Wednesday night runs from 18:00 to 06:00.
Both are step functions of the local clock (changes at 06:00, and at 18:00 on a Wednesday),
stepped every three hours (a birth day lasts at least twelve) and bisected to 1 second.
"""

from __future__ import annotations

from astro_calc.ephemeris import julian_day
from astro_calc.sensitivity._search import (
    Sensitivity,
    Shift,
    State,
    check_window,
    discrete_changes,
    item,
    sensitivity,
)
from astro_calc.thai.taksa import thai_birth_day, wheel_for_day
from astro_calc.time import ResolvedTime

STEP_S: float = 3.0 * 3600.0


def thai_sensitivity(
    resolved: ResolvedTime,
    *,
    uncertainty_minutes: float = 0.0,
    horizon_minutes: float | None = None,
) -> Sensitivity:
    """How close the Thai birth day and Taksa birth planet of a resolved birth (the local clock
    of ``resolved``, as the Taksa wheel reads it) are to changing: value, nearest change before
    and after within ``horizon_minutes`` (default 780), and whether each is certain within
    ``uncertainty_minutes`` (0..720); to 1 second."""
    horizon = check_window(uncertainty_minutes, horizon_minutes)
    shift = Shift(resolved.utc, resolved.local, julian_day(resolved.utc))

    def state(s: float) -> State:
        local = shift.local(s)
        day_key, _civil = thai_birth_day(local.date(), local.time())
        planet = wheel_for_day(day_key)[0].planet
        return ((day_key, day_key), (planet, planet))

    first = state(0.0)
    horizon_s = horizon * 60.0
    before = discrete_changes(state, -1, horizon_s, STEP_S, first=first)
    after = discrete_changes(state, 1, horizon_s, STEP_S, first=first)
    items = [
        item(result, first[k][1], shift.utc0, before[k], after[k], uncertainty_minutes)
        for k, result in enumerate(("thai.birth_day", "taksa.birth_planet"))
    ]
    return sensitivity(items, uncertainty_minutes, horizon)
