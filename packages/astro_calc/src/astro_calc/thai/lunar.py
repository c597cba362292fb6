"""The Moon for a moment and place: phase, illumination, age, the Thai lunar date and the next new
and full moons.

Conventions: the phase angle is the Moon-Sun apparent elongation (0 new, 180 full); the age is the
time since the last new moon (conjunction in longitude) in days; the named phase is the eighth of
the cycle the elongation falls in, the four principal phases owning +-22.5 degrees around them; the
Thai lunar date is that of the local civil day at the place (its IANA zone found from the
coordinates unless given), its year type from ``year_type_source`` (default ``"almanac"``, see
:mod:`astro_calc.thai.suriyayatra`). Checked against USNO published phase instants in
``tests/test_thai_lunar.py`` (tolerance 2 minutes).
"""

from __future__ import annotations

from datetime import datetime

import msgspec

from astro_calc.ephemeris import datetime_from_jd, illuminated_fraction, julian_day
from astro_calc.errors import CalcInputError
from astro_calc.search import elongation, next_lunar_phase, previous_lunar_phase
from astro_calc.thai.calendar import ThaiLunarDate, thai_lunar_date
from astro_calc.thai.suriyayatra import YearTypeSource, check_year_type_source
from astro_calc.thai.texts import text
from astro_calc.time import timezone_at, zone

_PHASES = (
    "new_moon", "waxing_crescent", "first_quarter", "waxing_gibbous",
    "full_moon", "waning_gibbous", "last_quarter", "waning_crescent",
)  # fmt: skip


class LunarInfo(msgspec.Struct, frozen=True):
    moment_utc: datetime
    timezone: str
    local_date: str
    phase: str
    phase_th: str
    phase_en: str
    phase_angle_deg: float
    illumination: float  # 0-1
    age_days: float
    previous_new_moon_utc: datetime
    next_new_moon_utc: datetime
    next_full_moon_utc: datetime
    year_type_source: YearTypeSource  # requested for thai_lunar_date
    thai_lunar_date: ThaiLunarDate


def phase_name(elongation_deg: float) -> str:
    return _PHASES[int(((elongation_deg + 22.5) % 360.0) // 45.0)]


def lunar_info(
    moment: datetime,
    latitude: float,
    longitude: float,
    *,
    timezone_name: str | None = None,
    year_type_source: YearTypeSource = "almanac",
) -> LunarInfo:
    """Moon phase, illumination, age and Thai lunar date for an aware moment at a place."""
    if moment.tzinfo is None:
        raise CalcInputError("datetime", "a timezone-aware datetime is required")
    source = check_year_type_source(year_type_source)
    zone_name = timezone_name or timezone_at(latitude, longitude)
    local = moment.astimezone(zone(zone_name))
    jd = julian_day(moment)
    angle = elongation(jd)
    name = phase_name(angle)
    label = text("moon_phase", name)
    previous_new = previous_lunar_phase(jd, 0.0)
    return LunarInfo(
        moment_utc=datetime_from_jd(jd),
        timezone=zone_name,
        local_date=local.date().isoformat(),
        phase=name,
        phase_th=label.th,
        phase_en=label.en,
        phase_angle_deg=round(angle, 4),
        illumination=round(illuminated_fraction(jd), 5),
        age_days=round(jd - previous_new, 4),
        previous_new_moon_utc=datetime_from_jd(previous_new),
        next_new_moon_utc=datetime_from_jd(next_lunar_phase(jd, 0.0)),
        next_full_moon_utc=datetime_from_jd(next_lunar_phase(jd, 180.0)),
        year_type_source=source,
        thai_lunar_date=thai_lunar_date(local.date(), year_type_source=source),
    )
