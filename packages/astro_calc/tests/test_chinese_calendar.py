"""The Chinese lunisolar calendar against lunar-python (6tail) and published facts.

lunar-python reproduces the calendars as promulgated (Beijing mean time before 1929, UTC+8
after), as does the Hong Kong Observatory's table. The one month where we differ, 2097 month 7,
is a new moon 1.5 minutes after midnight CST by our ephemeris (see calendar.py): it is excluded
by name below, not by tolerance.
"""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from lunar_python import LunarYear, Solar

from astro_calc.chinese.calendar import chinese_date, gregorian_date, lunar_year_months
from astro_calc.errors import CalcInputError

UNCERTAIN_YEARS = {2097}


def _lunar_python_months(year: int) -> list[tuple[int, bool, date, int]]:
    out = []
    for lm in LunarYear.fromYear(year).getMonthsInYear():
        s = Solar.fromJulianDay(lm.getFirstJulianDay())
        out.append(
            (
                abs(lm.getMonth()),
                lm.getMonth() < 0,
                date(s.getYear(), s.getMonth(), s.getDay()),
                lm.getDayCount(),
            )
        )
    return out


def test_every_month_1900_2100_matches_lunar_python() -> None:
    for year in range(1900, 2101):
        ours = [(m.month, m.is_leap, m.first_day, m.days) for m in lunar_year_months(year)]
        if year in UNCERTAIN_YEARS:
            assert len(ours) == len(_lunar_python_months(year))
            continue
        assert ours == _lunar_python_months(year), year


def test_2097_differs_only_in_the_month_of_the_midnight_new_moon() -> None:
    ours = {(m.month, m.is_leap): m.first_day for m in lunar_year_months(2097)}
    theirs = {(m, leap): first for m, leap, first, _ in _lunar_python_months(2097)}
    assert {k for k in ours if ours[k] != theirs[k]} == {(7, False)}
    assert ours[(7, False)] - theirs[(7, False)] == timedelta(days=1)


def test_every_fifth_day_1900_2100_matches_lunar_python() -> None:
    day = date(1900, 2, 1)
    while day <= date(2100, 12, 31):
        if not (date(2097, 7, 1) <= day <= date(2097, 9, 10)):
            ours = chinese_date(day)
            lunar = Solar.fromYmd(day.year, day.month, day.day).getLunar()
            assert (ours.lunar_year, ours.month, ours.day, ours.is_leap_month) == (
                lunar.getYear(),
                abs(lunar.getMonth()),
                lunar.getDay(),
                lunar.getMonth() < 0,
            ), day
        day += timedelta(days=5)


@pytest.mark.parametrize(
    ("year", "leap_month"),
    [
        # Published leap months (Hong Kong Observatory / Purple Mountain Observatory almanacs).
        (2017, 6),
        (2020, 4),
        (2023, 2),
        (2025, 6),
        # The "2033 problem": the leap month is the 11th, after the winter solstice month
        # (GB/T 33661-2017), not the 7th.
        (2033, 11),
    ],
)
def test_published_leap_months(year: int, leap_month: int) -> None:
    leaps = [m.month for m in lunar_year_months(year) if m.is_leap]
    assert leaps == [leap_month]


def test_new_year_2024_is_10_february() -> None:
    d = chinese_date(date(2024, 2, 10))
    assert (d.lunar_year, d.month, d.day, d.is_leap_month) == (2024, 1, 1, False)
    assert d.year_ganzhi == "甲辰"
    assert d.zodiac_animal == "dragon"
    assert d.label == "甲辰年正月初一"


def test_leap_month_label_and_round_trip() -> None:
    d = chinese_date(date(2023, 3, 22))  # 1st day of leap 2nd month 2023
    assert (d.month, d.day, d.is_leap_month) == (2, 1, True)
    assert d.label == "癸卯年闰二月初一"
    assert gregorian_date(2023, 2, 1, is_leap_month=True) == date(2023, 3, 22)
    assert gregorian_date(2024, 1, 1) == date(2024, 2, 10)


def test_impossible_dates_name_the_field() -> None:
    with pytest.raises(CalcInputError) as err:
        gregorian_date(2024, 3, 1, is_leap_month=True)
    assert err.value.field == "is_leap_month"
    with pytest.raises(CalcInputError) as err:
        gregorian_date(2024, 1, 31)
    assert err.value.field == "day"
    with pytest.raises(CalcInputError) as err:
        chinese_date(date(1850, 1, 1))
    assert err.value.field == "date"
