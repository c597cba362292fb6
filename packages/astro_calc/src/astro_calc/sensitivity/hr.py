"""Birth-time sensitivity of the HR talent assessment's inputs.

The assessment (:func:`astro_calc.hr.assessment.hr_facts`) reads the birth time in two places:
the BaZi chart (:func:`astro_calc.chinese.bazi_from_instant` with the BaZi endpoint's defaults:
the day changes at 23:00, the civil clock decides day and hour) and the Thai birth day of the
Taksa outlook (:func:`astro_calc.thai.taksa_wheel`). So the results are the four pillars
(``pillar.year`` .. ``pillar.hour``, :func:`astro_calc.sensitivity.pillar_sensitivity_at` with
those defaults) and ``thai.birth_day`` and ``taksa.birth_planet``
(:func:`astro_calc.sensitivity.thai_sensitivity`); a change of any of them can move the
balance, the position match, the company fit or the outlook, and so the score. Without a birth
time the assessment reads 12:00 and has no hour pillar: there is nothing to be sensitive to,
and asking is an input error naming ``birth_time``.
"""

from __future__ import annotations

from datetime import date, time

from astro_calc.errors import CalcInputError
from astro_calc.sensitivity._search import Sensitivity, check_window, combined
from astro_calc.sensitivity.chinese import pillar_sensitivity_at
from astro_calc.sensitivity.thai import thai_sensitivity
from astro_calc.time import resolve


def hr_sensitivity(
    birth_date: date,
    birth_time: time | None,
    *,
    latitude: float,
    longitude: float,
    offset_minutes: int | None = None,
    timezone_name: str | None = None,
    uncertainty_minutes: float = 0.0,
    horizon_minutes: float | None = None,
) -> Sensitivity:
    """How close the birth-time inputs of :func:`astro_calc.hr.hr_assessment` (same birth) are
    to changing: the four BaZi pillars and the Thai birth day and Taksa planet (module
    docstring), each with its nearest change before and after within ``horizon_minutes``
    (default 780) and whether it is certain within ``uncertainty_minutes`` (0..720); to 1
    second, by the same searches as the BaZi and Thai answers."""
    if birth_time is None:
        raise CalcInputError("birth_time", "required for birth-time sensitivity")
    horizon = check_window(uncertainty_minutes, horizon_minutes)
    resolved = resolve(
        birth_date,
        birth_time,
        latitude=latitude,
        longitude=longitude,
        offset_minutes=offset_minutes,
        timezone_name=timezone_name,
    )
    pillars = pillar_sensitivity_at(
        resolved,
        longitude=longitude,
        day_boundary="zi",
        solar_time="clock",
        uncertainty_minutes=uncertainty_minutes,
        horizon_minutes=horizon,
    )
    thai = thai_sensitivity(
        resolved, uncertainty_minutes=uncertainty_minutes, horizon_minutes=horizon
    )
    return combined((("", pillars), ("", thai)))
