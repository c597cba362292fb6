"""Auspicious days and hours (ฤกษ์) for a purpose over a date range, by Thai rules.

Rules applied (each result names the rules that decided it, in Thai and English):

* The last day of a lunar month (dark moon, วันดับ) is avoided for every purpose. (Not วันจม:
  the almanacs' วันจม/วันฟู are set by weekday and lunar day, a different rule we do not apply;
  issue 47.)
* Buddhist holy days (wan phra) are avoided for weddings, business openings and moving house,
  and favoured for ordinations.
* Tuesday and Saturday ("hard days", วันแข็ง) are avoided for weddings, business openings and
  moving house.
* Waxing-moon days are favoured; for weddings, business openings and moving house a waning-moon
  day is avoided.
* Weddings: even lunar months and month 9 favoured, the other odd months avoided.
* Ordination: months 5-8 (before the rains retreat) favoured; the retreat itself (Khao Phansa to
  Ok Phansa) avoided.
* With a birth moment: the weekday whose planet is the person's kalakini is avoided, and a weekday
  whose planet sits in the person's si, det or montri is favoured.
* Hours: the daytime 06:00-18:00 is divided into eight watches of 90 minutes (ยามอัฏฐกาล); the
  first is ruled by the weekday's planet and the next ones follow the order Sun, Venus, Mercury,
  Moon, Saturn, Jupiter, Mars. A watch is auspicious when its planet sits in si, det, montri or
  ayu of the person's wheel (of the day's own wheel without a person) and is not its kalakini.

The lunar dates (and the rains retreat) follow ``year_type_source`` (default ``"almanac"``, the
published table for 1914-2157; ``"rule"``, the Suriyayatra rule; see
:mod:`astro_calc.thai.suriyayatra`). A day is auspicious when no rule avoids it and at least one
favours it. Ranges are at most 366
days. The lunar calendar tables are built once per year and cached, so a 366-day search costs a
few milliseconds (``benchmarks/thai_calendar.py``).
"""

from __future__ import annotations

from datetime import date, time, timedelta
from functools import lru_cache
from typing import Final, Literal

import msgspec

from astro_calc.errors import CalcInputError
from astro_calc.thai.calendar import ThaiLunarDate, lunar_to_gregorian, thai_lunar_date
from astro_calc.thai.suriyayatra import (
    CS_TO_CE,
    YearTypeSource,
    check_year_type_source,
    year_type,
)
from astro_calc.thai.taksa import (
    FAVOURED_POSITIONS,
    TaksaPosition,
    taksa_data,
    taksa_wheel,
    wheel_for_day,
)
from astro_calc.thai.texts import text

Purpose = Literal["wedding", "business_opening", "moving_house", "travel", "ordination"]
PURPOSES: Final = ("wedding", "business_opening", "moving_house", "travel", "ordination")
MAX_RANGE_DAYS: Final = 366
_CEREMONIES: Final = frozenset({"wedding", "business_opening", "moving_house"})
_WEEKDAY_KEYS: Final = (
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
)  # fmt: skip
_GOOD_DAY_POSITIONS: Final = ("si", "det", "montri")


class Reason(msgspec.Struct, frozen=True):
    key: str
    effect: Literal["favour", "avoid"]
    th: str
    en: str


class TimeWindow(msgspec.Struct, frozen=True):
    start: str  # HH:MM local
    end: str
    planet: str
    position: str
    reason: Reason


class AuspiciousDay(msgspec.Struct, frozen=True):
    date: date
    weekday: str
    auspicious: bool
    lunar_date: ThaiLunarDate
    reasons: tuple[Reason, ...]
    windows: tuple[TimeWindow, ...]


class AuspiciousSearch(msgspec.Struct, frozen=True):
    purpose: str
    purpose_th: str
    purpose_en: str
    start: date
    end: date
    days_examined: int
    year_type_source: YearTypeSource  # the source requested for the lunar dates
    auspicious_days: tuple[AuspiciousDay, ...]
    avoided_days: tuple[AuspiciousDay, ...]


@lru_cache(maxsize=64)
def _reason(key: str, effect: Literal["favour", "avoid"]) -> Reason:
    label = text("reason", key)
    return Reason(key, effect, label.th, label.en)


@lru_cache(maxsize=128)
def _windows(day_planet: str, wheel_day: str) -> tuple[TimeWindow, ...]:
    data = taksa_data()
    order: list[str] = data["yam_day_order"]
    wheel = {p.planet: p for p in wheel_for_day(wheel_day)}
    start = order.index(day_planet)
    out: list[TimeWindow] = []
    for i in range(8):
        planet = order[(start + i) % 7]
        position = wheel[planet].position
        if position not in FAVOURED_POSITIONS:
            continue
        begin = 6 * 60 + 90 * i
        end = begin + 90
        out.append(
            TimeWindow(
                start=f"{begin // 60:02d}:{begin % 60:02d}",
                end=f"{end // 60:02d}:{end % 60:02d}",
                planet=planet,
                position=position,
                reason=_reason("hour_good_planet", "favour"),
            )
        )
    return tuple(out)


@lru_cache(maxsize=1024)
def _phansa(lunar_year: int, source: YearTypeSource) -> tuple[date, date]:
    """Khao Phansa and Ok Phansa of a lunar year (the rains retreat)."""
    leap = year_type(lunar_year - CS_TO_CE, source=source) == "athikamat"
    khao = lunar_to_gregorian(
        lunar_year, 8, "waning", 1, second_month_8=leap, year_type_source=source
    )
    return khao, lunar_to_gregorian(lunar_year, 11, "waxing", 15, year_type_source=source)


def _evaluate(
    day: date,
    purpose: str,
    person: tuple[TaksaPosition, ...] | None,
    wheel_day_key: str | None,
    source: YearTypeSource,
) -> AuspiciousDay:
    lunar = thai_lunar_date(day, year_type_source=source)
    weekday = _WEEKDAY_KEYS[day.weekday()]
    day_planet: str = taksa_data()["day_planet"][weekday]
    reasons: list[Reason] = []
    if lunar.day_of_month == lunar.month_days:
        reasons.append(_reason("dark_moon_day", "avoid"))
    if lunar.wan_phra and lunar.day_of_month != lunar.month_days:
        if purpose in _CEREMONIES:
            reasons.append(_reason("wan_phra_avoid", "avoid"))
        elif purpose == "ordination":
            reasons.append(_reason("wan_phra_merit", "favour"))
    if purpose in _CEREMONIES and weekday in ("tuesday", "saturday"):
        reasons.append(_reason("strong_day", "avoid"))
    if lunar.phase == "waxing":
        reasons.append(_reason("waxing_moon", "favour"))
    elif purpose in _CEREMONIES:
        reasons.append(_reason("waning_moon", "avoid"))
    if purpose == "wedding":
        if lunar.lunar_month % 2 == 0 or lunar.lunar_month == 9:
            reasons.append(_reason("month_favoured_wedding", "favour"))
        else:
            reasons.append(_reason("month_odd_wedding", "avoid"))
    if purpose == "ordination":
        khao, ok = _phansa(lunar.lunar_year, source)
        if khao <= day <= ok:
            reasons.append(_reason("phansa_ordination", "avoid"))
        elif 5 <= lunar.lunar_month <= 8:
            reasons.append(_reason("month_before_phansa_ordination", "favour"))
    if person is not None:
        position = next(p.position for p in person if p.planet == day_planet)
        if position == "kalakini":
            reasons.append(_reason("person_kalakini_day", "avoid"))
        elif position in _GOOD_DAY_POSITIONS:
            reasons.append(_reason("person_good_day", "favour"))
    avoided = any(r.effect == "avoid" for r in reasons)
    auspicious = not avoided and any(r.effect == "favour" for r in reasons)
    windows = _windows(day_planet, wheel_day_key or weekday) if auspicious else ()
    return AuspiciousDay(
        date=day,
        weekday=weekday,
        auspicious=auspicious,
        lunar_date=lunar,
        reasons=tuple(reasons),
        windows=windows,
    )


def auspicious_times(
    start: date,
    end: date,
    purpose: str,
    *,
    birth_date: date | None = None,
    birth_time: time | None = None,
    year_type_source: YearTypeSource = "almanac",
) -> AuspiciousSearch:
    """Auspicious days and daytime watches in ``[start, end]`` (at most 366 days) for a purpose,
    optionally for a person born at a local date and time (rules in the module docstring)."""
    if purpose not in PURPOSES:
        raise CalcInputError(
            "purpose", f"unknown purpose {purpose!r}; one of {', '.join(PURPOSES)}"
        )
    source = check_year_type_source(year_type_source)
    if end < start:
        raise CalcInputError("end_date", "must not be before start_date")
    span = (end - start).days + 1
    if span > MAX_RANGE_DAYS:
        raise CalcInputError("end_date", f"the range is {span} days; at most {MAX_RANGE_DAYS}")
    person = None
    wheel_key = None
    if birth_date is not None:
        wheel = taksa_wheel(birth_date, birth_time or time(12, 0))
        person = wheel.positions
        wheel_key = wheel.birth_day
    days = [
        _evaluate(start + timedelta(days=i), purpose, person, wheel_key, source)
        for i in range(span)
    ]
    label = text("purpose", purpose)
    return AuspiciousSearch(
        purpose=purpose,
        purpose_th=label.th,
        purpose_en=label.en,
        start=start,
        end=end,
        days_examined=span,
        year_type_source=source,
        auspicious_days=tuple(d for d in days if d.auspicious),
        avoided_days=tuple(d for d in days if not d.auspicious),
    )


__all__ = [
    "MAX_RANGE_DAYS",
    "PURPOSES",
    "AuspiciousDay",
    "AuspiciousSearch",
    "Reason",
    "TimeWindow",
    "auspicious_times",
]
