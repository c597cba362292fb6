"""The Chinese lunisolar calendar (农历), computed astronomically.

Rules (those of the Chinese national standard GB/T 33661-2017 "Calculation and promulgation of
the Chinese calendar"):

* a month begins on the civil day of the new moon (the astronomical conjunction);
* the month that contains the winter solstice (冬至) is month 11;
* when 13 new moons begin between two consecutive months 11, the first month of that span whose
  days contain no major solar term (中气) is a leap month and repeats the previous number;
* a day "contains" an instant when the instant's civil date, in the reference time, is that day.

Reference meridian: the one the official calendar used at the time. China Standard Time, UTC+8
(120 deg E), from 1929; before that the Qing and early Republican almanacs reckoned in Beijing
local mean time (116 deg 25' E, UTC+7:45:40). The difference decides four months in 1900-1928
(new moons within 15 minutes after midnight CST on 1914-11-18, 1916-02-04 and 1920-11-11 fell
before midnight in Beijing time), and we follow the calendars as promulgated, as lunar-python
does; ``data/chinese/calendar_exceptions.json`` lists the one month (1906) where the Qing almanac
itself departs from the astronomical rule. The tests check every month and day of 1900-2100
against lunar-python; the one difference is 2097-08-07/08, whose new moon falls about a minute
and a half after midnight CST by our ephemeris and just before it by lunar-python's: it depends
on the extrapolated Delta T, so that month is uncertain in every source.

New moons come from :func:`astro_calc.search.next_lunar_phase`; a span of months is cached per
year.
"""

from __future__ import annotations

import bisect
import json
import threading
from datetime import date, timedelta
from importlib import resources
from typing import Final

import msgspec

from astro_calc.chinese.solar_terms import civil_date, solar_terms
from astro_calc.chinese.symbols import BRANCHES, STEMS, ganzhi, year_cycle_index
from astro_calc.errors import CalcInputError
from astro_calc.search import next_lunar_phase

#: China Standard Time, the calendar's reference from 1929 (minutes east of UTC).
REFERENCE_OFFSET_MINUTES: Final = 480.0
#: Beijing local mean time (116 deg 25' E), the reference before 1929.
BEIJING_MEAN_TIME_OFFSET_MINUTES: Final = 465.0 + 40.0 / 60.0
#: 1929-01-01T00:00 CST as a Julian day (UT).
_CST_ADOPTED_JD: Final = 2425612.1666666665


def reference_offset_minutes(jd_ut: float) -> float:
    """Offset east of UTC of the calendar's reference meridian at an instant."""
    return (
        REFERENCE_OFFSET_MINUTES if jd_ut >= _CST_ADOPTED_JD else BEIJING_MEAN_TIME_OFFSET_MINUTES
    )


#: Range of lunar years offered (the computation itself is good well beyond it).
MIN_LUNAR_YEAR: Final = 1900
MAX_LUNAR_YEAR: Final = 2100

_DIGITS: Final = "一二三四五六七八九十"
#: 初一 .. 初十, 十一 .. 二十, 廿一 .. 三十.
_DAY_NAMES: Final = (
    *("初" + d for d in _DIGITS),
    *("十" + d for d in _DIGITS[:9]),
    "二十",
    *("廿" + d for d in _DIGITS[:9]),
    "三十",
)
_MONTH_NAMES: Final = ["正", "二", "三", "四", "五", "六", "七", "八", "九", "十", "冬", "腊"]


class LunarMonth(msgspec.Struct, frozen=True):
    lunar_year: int  # the year whose month 1 opens at or after Lichun's new year
    month: int  # 1..12
    is_leap: bool
    first_day: date  # Gregorian civil date (UTC+8) of day 1
    days: int  # 29 or 30
    new_moon_jd_ut: float


class ChineseDate(msgspec.Struct, frozen=True):
    gregorian: date
    lunar_year: int
    month: int
    day: int
    is_leap_month: bool
    month_days: int
    year_ganzhi: str  # of the lunar year (changes at the lunar new year, not at Lichun)
    zodiac_animal: str
    label: str  # e.g. "甲辰年正月初一"


def _new_moons(start_jd: float, end_jd: float) -> list[float]:
    """Every new moon in [start_jd, end_jd]."""
    out: list[float] = []
    jd = next_lunar_phase(start_jd, 0.0)
    while jd <= end_jd:
        out.append(jd)
        # Synodic months last at least 29.26 days: skip most of the next one.
        jd = next_lunar_phase(jd + 27.0, 0.0)
    return out


def _load_exceptions() -> dict[date, date]:
    text = resources.files("astro_calc").joinpath("data/chinese/calendar_exceptions.json")
    rows = json.loads(text.read_text("utf-8"))["exceptions"]
    return {
        date.fromisoformat(r["astronomical_first_day"]): date.fromisoformat(
            r["promulgated_first_day"]
        )
        for r in rows
    }


#: Historical months where the promulgated almanac departs from the astronomical rule.
_PROMULGATED: Final = _load_exceptions()


def _day(jd_ut: float) -> date:
    return civil_date(jd_ut, reference_offset_minutes(jd_ut))


_SUI_CACHE: dict[int, tuple[LunarMonth, ...]] = {}
_LOCK: Final = threading.Lock()


def _months_of_sui(year: int) -> tuple[LunarMonth, ...]:
    """The months from month 11 of ``year - 1`` up to (not including) month 11 of ``year``."""
    cached = _SUI_CACHE.get(year)
    if cached is not None:
        return cached
    ws_prev = solar_terms(year - 1)[23]
    ws_this = solar_terms(year)[23]
    moons = _new_moons(ws_prev.jd_ut - 31.0, ws_this.jd_ut + 31.0)
    starts = [_PROMULGATED.get(d, d) for d in (_day(jd) for jd in moons)]
    ws_prev_day, ws_this_day = _day(ws_prev.jd_ut), _day(ws_this.jd_ut)
    i11 = bisect.bisect_right(starts, ws_prev_day) - 1
    j11 = bisect.bisect_right(starts, ws_this_day) - 1
    span = j11 - i11
    major_days = sorted(
        _day(t.jd_ut) for y in (year - 1, year) for t in solar_terms(y) if not t.is_jie
    )
    leap_at = -1
    if span == 13:
        for k in range(i11, j11):
            lo = bisect.bisect_left(major_days, starts[k])
            if lo >= len(major_days) or major_days[lo] >= starts[k + 1]:
                leap_at = k
                break
    months: list[LunarMonth] = []
    number = 10  # becomes 11 at the first month
    for k in range(i11, j11):
        is_leap = k == leap_at
        if not is_leap:
            number = number % 12 + 1
        lunar_year = year if number < 11 else year - 1
        months.append(
            LunarMonth(
                lunar_year,
                number,
                is_leap,
                starts[k],
                (starts[k + 1] - starts[k]).days,
                moons[k],
            )
        )
    result = tuple(months)
    with _LOCK:
        _SUI_CACHE[year] = result
    return result


def lunar_year_months(lunar_year: int) -> tuple[LunarMonth, ...]:
    """The months of one lunar year, month 1 to month 12 with any leap month, in order.

    Checked against lunar-python (LunarYear.getMonths) for every year 1900-2100."""
    if not MIN_LUNAR_YEAR <= lunar_year <= MAX_LUNAR_YEAR:
        raise CalcInputError("year", f"must be between {MIN_LUNAR_YEAR} and {MAX_LUNAR_YEAR}")
    months = [*_months_of_sui(lunar_year), *_months_of_sui(lunar_year + 1)]
    return tuple(m for m in months if m.lunar_year == lunar_year)


def chinese_date(gregorian: date) -> ChineseDate:
    """The Chinese calendar date of a Gregorian civil date (read as a day in China, UTC+8).

    Checked against lunar-python (Solar.getLunar) for every day 1900-2100."""
    if not date(MIN_LUNAR_YEAR, 2, 1) <= gregorian <= date(MAX_LUNAR_YEAR, 12, 31):
        raise CalcInputError(
            "date", f"must be between {MIN_LUNAR_YEAR}-02-01 and {MAX_LUNAR_YEAR}-12-31"
        )
    # Month 11 of the Gregorian year begins after mid-November at the earliest.
    sui = gregorian.year + 1 if gregorian >= date(gregorian.year, 11, 15) else gregorian.year
    months = _months_of_sui(sui)
    if gregorian < months[0].first_day:
        months = _months_of_sui(sui - 1)
    elif gregorian >= months[-1].first_day + timedelta(days=months[-1].days):
        months = _months_of_sui(sui + 1)
    firsts = [m.first_day for m in months]
    m = months[bisect.bisect_right(firsts, gregorian) - 1]
    day = (gregorian - m.first_day).days + 1
    year_index = year_cycle_index(m.lunar_year)
    label = (
        f"{ganzhi(year_index)}年{'闰' if m.is_leap else ''}{_MONTH_NAMES[m.month - 1]}月"
        f"{_DAY_NAMES[day - 1]}"
    )
    return ChineseDate(
        gregorian,
        m.lunar_year,
        m.month,
        day,
        m.is_leap,
        m.days,
        STEMS[year_index % 10].character + BRANCHES[year_index % 12].character,
        BRANCHES[year_index % 12].animal,
        label,
    )


def gregorian_date(lunar_year: int, month: int, day: int, *, is_leap_month: bool = False) -> date:
    """The Gregorian date of a Chinese calendar date; an impossible date names its field."""
    if not 1 <= month <= 12:
        raise CalcInputError("month", "must be between 1 and 12")
    for m in lunar_year_months(lunar_year):
        if m.month == month and m.is_leap == is_leap_month:
            if not 1 <= day <= m.days:
                raise CalcInputError("day", f"this month has {m.days} days")
            return m.first_day + timedelta(days=day - 1)
    raise CalcInputError("is_leap_month", f"{lunar_year} has no leap month {month}")
