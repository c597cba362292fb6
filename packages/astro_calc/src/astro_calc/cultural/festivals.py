"""Chinese and Korean lunar festivals, and the Chinese ghost month.

Each festival is its traditional date in the Chinese lunisolar calendar
(:mod:`astro_calc.chinese.calendar`, GB/T 33661-2017, civil day at UTC+8); Qingming is the civil
day (China) of the solar term 清明. Korean Seollal, Jeongwol Daeboreum and Chuseok keep the same
lunar dates; the Korean calendar is reckoned at UTC+9, which moves a new moon across midnight in
rare months (none between 1950 and 2050 for these festivals, checked against the ``holidays``
package's KR lunar holidays). Names (Chinese, Korean, English, Thai) are in
``data/cultural/festivals.json``. Checked against lunar-python's festival dates.
"""

from __future__ import annotations

import bisect
from datetime import date, timedelta
from functools import lru_cache
from typing import Final, Literal

import msgspec

from astro_calc.chinese.calendar import lunar_year_months, reference_offset_minutes
from astro_calc.chinese.solar_terms import civil_date, solar_terms
from astro_calc.cultural._data import load
from astro_calc.errors import CalcInputError

Language = Literal["en", "th"]
Tradition = Literal["chinese", "korean"]
#: Korea Standard Time, the Korean calendar's reckoning (minutes east of UTC).
KOREA_OFFSET_MINUTES: Final = 540.0


class LunarFestival(msgspec.Struct, frozen=True):
    key: str
    tradition: Tradition
    date: date
    name: str  # in the requested language
    native_name: str  # Chinese or Korean


@lru_cache(maxsize=64)
def _year(year: int, tradition: Tradition) -> tuple[tuple[str, date], ...]:
    out: list[tuple[str, date]] = []
    for entry in load("festivals")[tradition]:
        if "solar_term" in entry:
            term = solar_terms(year)[entry["solar_term"]]
            out.append((entry["key"], civil_date(term.jd_ut, reference_offset_minutes(term.jd_ut))))
            continue
        try:
            months = lunar_year_months(year)
        except CalcInputError:  # outside the calendar's span
            continue
        month = next(m for m in months if m.month == entry["month"] and not m.is_leap)
        if tradition == "korean":
            first = civil_date(month.new_moon_jd_ut, KOREA_OFFSET_MINUTES)
        else:
            first = month.first_day
        out.append((entry["key"], first + timedelta(days=entry["day"] - 1)))
    return tuple(out)


def lunar_festivals(
    start: date, end: date, tradition: Tradition, language: Language = "en"
) -> tuple[LunarFestival, ...]:
    """The festivals of a tradition on the days ``start..end``, in date order."""
    entries = {e["key"]: e for e in load("festivals")[tradition]}
    native = "zh" if tradition == "chinese" else "ko"
    out: list[LunarFestival] = []
    # A lunar year's festivals fall from late January of its year to the next February.
    for year in range(start.year - 1, end.year + 1):
        for key, day in _year(year, tradition):
            if start <= day <= end and (key != "qingming" or year == day.year):
                e = entries[key]
                out.append(LunarFestival(key, tradition, day, e[language], e[native]))
    return tuple(sorted(out, key=lambda f: (f.date, f.key)))


class KoreanLunarDate(msgspec.Struct, frozen=True):
    lunar_year: int
    month: int
    day: int
    is_leap_month: bool
    label: str  # e.g. 음력 2027년 1월 1일


@lru_cache(maxsize=16)
def _korean_months(year: int) -> tuple[tuple[date, int, int, bool], ...]:
    """(first day at KST, lunar year, month, leap) of the lunar years ``year - 1`` and ``year``:
    the Chinese months, each opening on the civil day in Korea of its new moon (the two
    calendars can also place a leap month differently, which no year 1901-2099 shows among
    the festivals' months)."""
    out = []
    for y in (year - 1, year):
        for m in lunar_year_months(y):
            first = civil_date(m.new_moon_jd_ut, KOREA_OFFSET_MINUTES)
            out.append((first, m.lunar_year, m.month, m.is_leap))
    return tuple(out)


def korean_lunar_date(day: date) -> KoreanLunarDate:
    """The date in the Korean lunisolar calendar (days counted at KST, UTC+9)."""
    months = _korean_months(day.year)
    i = bisect.bisect_right([m[0] for m in months], day) - 1
    first, lunar_year, month, leap = months[i]
    number = (day - first).days + 1
    label = f"음력 {lunar_year}년 {'윤' if leap else ''}{month}월 {number}일"
    return KoreanLunarDate(lunar_year, month, number, leap, label)
