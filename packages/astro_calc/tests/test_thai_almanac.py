"""The default year-type source: the published almanac table (1914-2157), the rule outside it.

Reference: the ``holidays`` package (test dependency only), whose ``_ThaiLunisolar`` carries the
year types of myhora.com's Thai lunar calendar B.E. 2300-2700 for 1914-2157, its first day of
lunar year 1914 (28 Nov 1913) and the festival dates built from them, and whose
``holidays.Thailand`` calendar lists the days as holidays (public from 1938 for Makha Bucha, from
1954 as single days for Visakha Bucha and Khao Phansa, from 1962 for Asarnha Bucha; Loy Krathong
as a national observance every year). Dates are compared exactly (civil days).
"""

from __future__ import annotations

from datetime import date

import holidays
import pytest
from holidays.calendars.thai import _ThaiLunisolar
from thai_published_table import NOT_REPRODUCED, reference_type

from astro_calc.errors import CalcInputError
from astro_calc.thai import (
    auspicious_times,
    lunar_info,
    thai_festivals,
    thai_lunar_date,
    wan_phra_days,
)
from astro_calc.thai.calendar import month1_start
from astro_calc.thai.suriyayatra import (
    ALMANAC_JOIN,
    almanac_table,
    year_type,
    year_type_decided_by,
)

TABLE_YEARS = range(1914, 2158)
_LUNISOLAR = _ThaiLunisolar()
_TABLE_FESTIVALS = {
    "makha_bucha": _LUNISOLAR.makha_bucha_date,
    "visakha_bucha": _LUNISOLAR.visakha_bucha_date,
    "asanha_bucha": _LUNISOLAR.asarnha_bucha_date,
    "khao_phansa": _LUNISOLAR.khao_phansa_date,
    "ok_phansa": _LUNISOLAR.ok_phansa_date,
    "loy_krathong": _LUNISOLAR.loy_krathong_date,
}


def _dates(year: int) -> dict[str, date]:
    return {f.key: f.date for f in thai_festivals(year).festivals if f.key in _TABLE_FESTIVALS}


def test_shipped_table_names_its_source_and_span() -> None:
    table = almanac_table()
    assert "myhora" in table.source
    assert (table.first_year, table.last_year) == (1914, 2157)
    assert sorted(table.year_types) == list(TABLE_YEARS)
    assert table.month1_start_of_first_year == _ThaiLunisolar.START_DATE


@pytest.mark.parametrize("year", TABLE_YEARS)
def test_default_year_type_is_the_table_every_year(year: int) -> None:
    assert year_type(year - 638) == reference_type(year)
    assert year_type_decided_by(year - 638) == "almanac"
    assert month1_start(year) == _ThaiLunisolar._get_start_date(year)


@pytest.mark.parametrize("year", TABLE_YEARS)
def test_default_festivals_are_the_tables_every_year(year: int) -> None:
    got = _dates(year)
    for key, reference in _TABLE_FESTIVALS.items():
        assert got[key] == reference(year), (year, key)


@pytest.mark.parametrize("year", range(1914, 2158, 7))
def test_default_wan_phra_are_the_tables(year: int) -> None:
    assert set(wan_phra_days(year)) == _ThaiLunisolar.buddhist_sabbath_dates(year)


def test_default_festivals_are_holidays_thailands_listed_days() -> None:
    # Only the years in which holidays.Thailand lists the day once under its own name (before,
    # the days around it share the name); in-lieu days are left out. Its calendar ends in 2100.
    first = {
        "Makha Bucha": ("makha_bucha", 1938),
        "Visakha Bucha": ("visakha_bucha", 1954),
        "Asarnha Bucha": ("asanha_bucha", 1962),
        "Buddhist Lent Day": ("khao_phansa", 1954),
        "Loy Krathong": ("loy_krathong", 1914),
    }
    calendar = holidays.Thailand(
        years=TABLE_YEARS, categories=(holidays.PUBLIC, holidays.WORKDAY), language="en_US"
    )
    checked = 0
    for day, label in calendar.items():
        for name in label.split("; "):
            if name in first and day.year >= first[name][1]:
                assert _dates(day.year)[first[name][0]] == day, (day, name)
                checked += 1
    assert checked == (2100 - 1938 + 1) + 2 * (2100 - 1954 + 1) + (2100 - 1962 + 1) + 187


def test_makha_bucha_1985_follows_the_table() -> None:
    # Both make 1985 athikamat (Makha Bucha in month 4), but the table gives 1984 no extra day
    # where the rule gives it one: waxing 15 of month 4 is Tuesday 5 March 1985 by the table,
    # Wednesday 6 March by the rule.
    festival = next(f for f in thai_festivals(1985).festivals if f.key == "makha_bucha")
    assert festival.date == date(1985, 3, 5) == _LUNISOLAR.makha_bucha_date(1985)
    lunar = festival.lunar_date
    assert lunar is not None
    assert (lunar.weekday, lunar.lunar_month, lunar.phase, lunar.kham) == (
        "tuesday", 4, "waxing", 15
    )  # fmt: skip
    assert (lunar.year_type, lunar.year_type_decided_by) == ("athikamat", "almanac")
    rule = next(
        f for f in thai_festivals(1985, year_type_source="rule").festivals if f.key == "makha_bucha"
    )
    assert rule.date == date(1985, 3, 6)


def test_visakha_bucha_1944_follows_the_table() -> None:
    # The table makes 1944 athikamat (tithi 22: the rule keeps it common): Visakha Bucha is waxing
    # 15 of month 7, Monday 5 June 1944, a month after the rule's (month 6, Sunday 7 May).
    year = thai_festivals(1944)
    festival = next(f for f in year.festivals if f.key == "visakha_bucha")
    assert festival.date == date(1944, 6, 5) == _LUNISOLAR.visakha_bucha_date(1944)
    assert (year.year_type, year.year_type_source, year.year_type_decided_by) == (
        "athikamat", "almanac", "almanac"
    )  # fmt: skip
    lunar = festival.lunar_date
    assert lunar is not None
    assert (lunar.weekday, lunar.lunar_month, lunar.phase, lunar.kham) == (
        "monday", 7, "waxing", 15
    )  # fmt: skip
    rule = thai_festivals(1944, year_type_source="rule")
    rule_day = next(f.date for f in rule.festivals if f.key == "visakha_bucha")
    assert (rule.year_type, rule.year_type_decided_by, rule_day) == (
        "pakatimat", "rule", date(1944, 5, 7)
    )  # fmt: skip


def test_rule_decides_outside_the_table_and_the_calendars_meet_there() -> None:
    for year in (*range(1900, 1911), 1912, 1913, *range(2158, 2201)):
        assert year_type(year - 638) == year_type(year - 638, source="rule"), year
        assert year_type_decided_by(year - 638) == "rule"
    for year in (*range(1900, 1912), *range(2158, 2201)):
        # Day for day the same calendar as the rule's before 1912 and after 2157.
        assert month1_start(year) == month1_start(year, "rule"), year
    # The join: the table's 1914 holds the day the rule gives to 1911.
    assert ALMANAC_JOIN == {1911: "pakatimat"}
    assert year_type(1911 - 638, source="rule") == "athikawan"
    assert year_type(1914 - 638, source="rule") == "pakatimat"
    assert reference_type(1914) == "athikawan"
    assert year_type_decided_by(1911 - 638) == "almanac"
    assert year_type_decided_by(1914 - 638, "rule") == "rule"


def test_the_sources_differ_exactly_in_the_years_the_rule_does_not_reproduce() -> None:
    differ = {y for y in TABLE_YEARS if year_type(y - 638) != year_type(y - 638, source="rule")}
    assert differ == NOT_REPRODUCED
    assert len(differ) == 82


def test_lunar_date_echoes_the_deciding_source() -> None:
    almanac = thai_lunar_date(date(1958, 7, 1))
    rule = thai_lunar_date(date(1958, 7, 1), year_type_source="rule")
    assert almanac.year_type_decided_by == "almanac"
    assert rule.year_type_decided_by == "rule"
    assert thai_lunar_date(date(1905, 7, 1)).year_type_decided_by == "rule"


def test_lunar_info_and_auspicious_times_follow_the_source() -> None:
    from datetime import UTC, datetime

    moment = datetime(1944, 6, 5, 5, tzinfo=UTC)
    info = lunar_info(moment, 13.75, 100.5, timezone_name="Asia/Bangkok")
    assert info.year_type_source == "almanac"
    assert (info.thai_lunar_date.lunar_month, info.thai_lunar_date.kham) == (7, 15)
    rule = lunar_info(moment, 13.75, 100.5, timezone_name="Asia/Bangkok", year_type_source="rule")
    assert rule.year_type_source == "rule"
    assert (rule.thai_lunar_date.lunar_month, rule.thai_lunar_date.kham) == (7, 14)
    day = date(1985, 3, 5)
    almanac_day = auspicious_times(day, day, "travel")
    rule_day = auspicious_times(day, day, "travel", year_type_source="rule")
    assert almanac_day.year_type_source == "almanac"
    assert rule_day.year_type_source == "rule"
    days = almanac_day.auspicious_days + almanac_day.avoided_days
    rule_days = rule_day.auspicious_days + rule_day.avoided_days
    assert days[0].lunar_date.kham == 15
    assert rule_days[0].lunar_date.kham != 15


@pytest.mark.parametrize(
    "call",
    [
        lambda: thai_lunar_date(date(2024, 1, 1), year_type_source="printed"),  # type: ignore[arg-type]
        lambda: thai_festivals(2024, year_type_source="printed"),  # type: ignore[arg-type]
        lambda: year_type(1386, source="printed"),  # type: ignore[arg-type]
    ],
)
def test_unknown_source_is_refused_naming_the_field(call: object) -> None:
    with pytest.raises(CalcInputError) as err:
        call()  # type: ignore[operator]
    assert err.value.field == "year_type_source"
