"""The Thai lunar calendar day by day: month, waxing or waning day (kham), wan phra, and the
Buddhist Era, Chulasakarat and animal years.

Conventions
-----------
* Lunar year ``G`` (named by the Gregorian year holding its months 7 and 8) runs from 1st waxing
  of month 1 (late November or December of ``G - 1``) to the last day of month 12. Odd months
  have 29 days, even months 30; an athikawan year gives month 7 thirty days; an athikamat year
  repeats month 8 (the second is reported as month 8 with ``second_month_8 = true``, "8/8").
  Year types come from :mod:`astro_calc.thai.suriyayatra`: by default
  (``year_type_source="almanac"``) the published almanac table for 1914-2157 (myhora.com's B.E.
  2300-2700 calendar) and the Suriyayatra rule outside it; with ``year_type_source="rule"`` the
  Suriyayatra rule with its recorded exceptions everywhere. Each date names the source that
  decided its lunar year's type (``year_type_decided_by``).
* Waxing days run 1-15, waning days 1-14 in a 29-day month and 1-15 in a 30-day month.
* Wan phra (Buddhist holy days): waxing 8, waxing 15 (full moon), waning 8 and the last day of
  the month (waning 14 or 15).
* Buddhist Era: Gregorian + 543; before 1941 the BE year began on 1 April, so January-March of
  1900-1940 belong to the BE year before, and BE 2483 (1940) lasted nine months.
* Chulasakarat changes on Thaloeng Sok (the Suriyayatra new-year day, about 16 April); the animal
  year changes on 1st waxing of month 5, the traditional Thai rule.
* Civil days: the lunar date belongs to the whole civil day (midnight to midnight, local).

Tables are built once per Gregorian year and source and cached, so a lookup is a dictionary access.
Checked against the ``holidays`` package's Thai lunisolar data (1914-2157) and official Thai
holiday announcements in ``tests/test_thai_calendar.py``.
"""

from __future__ import annotations

from datetime import date, timedelta
from functools import lru_cache
from typing import Final, Literal

import msgspec

from astro_calc.errors import CalcInputError
from astro_calc.thai.suriyayatra import (
    CS_EPOCH_JDN,
    CS_TO_CE,
    YearType,
    YearTypeSource,
    check_year_type_source,
    month5_start_jdn,
    year_type,
    year_type_decided_by,
)

Phase = Literal["waxing", "waning"]

MIN_YEAR: Final = 1900
MAX_YEAR: Final = 2200
_JDN_OF_ORDINAL_0: Final = 1721425  # JD number = date.toordinal() + this

ANIMALS: Final = (
    "rat", "ox", "tiger", "rabbit", "dragon", "snake",
    "horse", "goat", "monkey", "rooster", "dog", "pig",
)  # fmt: skip
WEEKDAYS: Final = (
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
)  # fmt: skip


class ThaiLunarDate(msgspec.Struct, frozen=True):
    """A civil day in the Thai lunar calendar."""

    date: date
    weekday: str
    lunar_year: int  # Gregorian year naming the lunar year (months 1-12)
    lunar_month: int  # 1-12
    second_month_8: bool  # the repeated month 8 of an athikamat year ("8/8")
    phase: Phase
    kham: int  # day of the waxing or waning half, 1-15
    day_of_month: int  # 1-30
    month_days: int  # 29 or 30
    wan_phra: bool
    year_type: YearType
    year_type_decided_by: YearTypeSource  # the source that decided year_type ("almanac"/"rule")
    buddhist_era: int
    chulasakarat: int
    animal_year: str


def date_to_jdn(day: date) -> int:
    return day.toordinal() + _JDN_OF_ORDINAL_0


def jdn_to_date(jdn: int) -> date:
    return date.fromordinal(jdn - _JDN_OF_ORDINAL_0)


def check_year(year: int, field: str = "year") -> None:
    if not MIN_YEAR <= year <= MAX_YEAR:
        raise CalcInputError(field, f"must be between {MIN_YEAR} and {MAX_YEAR}")


def month1_start(lunar_year: int, year_type_source: YearTypeSource = "almanac") -> date:
    """1st waxing of month 1 of lunar year ``lunar_year``."""
    return jdn_to_date(month5_start_jdn(lunar_year - CS_TO_CE, year_type_source) - 118)


def month_lengths(
    lunar_year: int, year_type_source: YearTypeSource = "almanac"
) -> tuple[tuple[int, bool, int], ...]:
    """(month, second_month_8, days) for each month of a lunar year, in order."""
    kind = year_type(lunar_year - CS_TO_CE, source=year_type_source)
    months: list[tuple[int, bool, int]] = []
    for month in range(1, 13):
        days = 30 if month % 2 == 0 else 29
        if month == 7 and kind == "athikawan":
            days = 30
        months.append((month, False, days))
        if month == 8 and kind == "athikamat":
            months.append((8, True, 30))
    return tuple(months)


def buddhist_era_year(day: date) -> int:
    """BE year of a civil date, with the pre-1941 New Year on 1 April."""
    if day.year <= 1940 and day.month < 4:
        return day.year + 542
    return day.year + 543


def thaloeng_sok(cs_year: int) -> date:
    """The Thaloeng Sok day (first day of Chulasakarat year ``cs_year``), by the Suriyayatra."""
    return jdn_to_date((292207 * cs_year + 373) // 800 + 1 + CS_EPOCH_JDN)


def _animal_for_cs(cs_year: int) -> str:
    return ANIMALS[(cs_year + 10) % 12]  # CS 1386 (2024-25) is the dragon


def lunar_year_table(
    gregorian_year: int, year_type_source: YearTypeSource = "almanac"
) -> dict[date, ThaiLunarDate]:
    """Every civil day of a Gregorian year mapped to its Thai lunar date (built once per source,
    cached)."""
    return _lunar_year_table(gregorian_year, year_type_source)


@lru_cache(maxsize=1024)
def _lunar_year_table(gregorian_year: int, source: YearTypeSource) -> dict[date, ThaiLunarDate]:
    check_year_type_source(source)  # an unknown source raises and is never cached
    start = date(gregorian_year, 1, 1)
    end = date(gregorian_year, 12, 31)
    table: dict[date, ThaiLunarDate] = {}
    cs_new_year = thaloeng_sok(gregorian_year - CS_TO_CE)
    month5 = jdn_to_date(month5_start_jdn(gregorian_year - CS_TO_CE, source))
    for lunar_year in (gregorian_year, gregorian_year + 1):
        kind = year_type(lunar_year - CS_TO_CE, source=source)
        decided_by = year_type_decided_by(lunar_year - CS_TO_CE, source)
        cursor = month1_start(lunar_year, source)
        for month, second, days in month_lengths(lunar_year, source):
            for index in range(days):
                day = cursor + timedelta(days=index)
                if day < start or day > end:
                    continue
                waxing = index < 15
                kham = index + 1 if waxing else index - 14
                cs = gregorian_year - CS_TO_CE if day >= cs_new_year else gregorian_year - 639
                animal_cs = gregorian_year - CS_TO_CE if day >= month5 else gregorian_year - 639
                table[day] = ThaiLunarDate(
                    date=day,
                    weekday=WEEKDAYS[day.weekday()],
                    lunar_year=lunar_year,
                    lunar_month=month,
                    second_month_8=second,
                    phase="waxing" if waxing else "waning",
                    kham=kham,
                    day_of_month=index + 1,
                    month_days=days,
                    wan_phra=index in (7, 14, 22, days - 1),
                    year_type=kind,
                    year_type_decided_by=decided_by,
                    buddhist_era=buddhist_era_year(day),
                    chulasakarat=cs,
                    animal_year=_animal_for_cs(animal_cs),
                )
            cursor += timedelta(days=days)
    return table


def thai_lunar_date(day: date, *, year_type_source: YearTypeSource = "almanac") -> ThaiLunarDate:
    """The Thai lunar date of a civil day, 1900-2200 (see the module docstring)."""
    check_year(day.year, "date")
    return _lunar_year_table(day.year, year_type_source)[day]  # the source checked on a miss


def lunar_to_gregorian(
    lunar_year: int,
    month: int,
    phase: Phase,
    kham: int,
    *,
    second_month_8: bool = False,
    year_type_source: YearTypeSource = "almanac",
) -> date:
    """The civil date of a lunar date in lunar year ``lunar_year`` (month 1-12)."""
    check_year(lunar_year)
    source = check_year_type_source(year_type_source)
    cursor = month1_start(lunar_year, source)
    for m, second, days in month_lengths(lunar_year, source):
        if m == month and second == second_month_8:
            offset = kham - 1 if phase == "waxing" else 14 + kham
            if not 0 <= offset < days:
                raise CalcInputError("kham", f"month {month} has no {phase} {kham}")
            return cursor + timedelta(days=offset)
        cursor += timedelta(days=days)
    raise CalcInputError("month", f"lunar year {lunar_year} has no such month {month}")


def wan_phra_days(
    gregorian_year: int, *, year_type_source: YearTypeSource = "almanac"
) -> tuple[date, ...]:
    """All Buddhist holy days (wan phra) falling in a Gregorian year."""
    check_year(gregorian_year)
    table = lunar_year_table(gregorian_year, year_type_source)
    return tuple(d for d, info in table.items() if info.wan_phra)


def year_days(
    gregorian_year: int, *, year_type_source: YearTypeSource = "almanac"
) -> tuple[ThaiLunarDate, ...]:
    """Every day of a Gregorian year as Thai lunar dates, in order."""
    check_year(gregorian_year)
    return tuple(lunar_year_table(gregorian_year, year_type_source).values())
