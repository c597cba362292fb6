"""Festival dates against official Thai announcements.

Buddhist holidays: ประกาศสำนักนายกรัฐมนตรี เรื่อง วันหยุดราชการประจำปี (the Prime Minister's Office
announcement of official holidays, Royal Thai Government Gazette) for B.E. 2558-2569
(2015-2026), which list Makha Bucha, Visakha Bucha, Asanha Bucha and Khao Phansa.
Maha Songkran: ประกาศสงกรานต์ of the Bureau of the Royal Household for B.E. 2566-2568.
Every year 1914-2156: the ``holidays`` package's Thai lunisolar festival dates (published B.E.
2300-2700 table) wherever its year types agree with the rule's; ``holidays.Thailand`` public
holidays for 1997-2025 (checked by its authors against the Bank of Thailand lists). Tests of the
Suriyayatra rule pass ``year_type_source="rule"``; the default almanac source is checked against
the whole table in ``test_thai_almanac.py``.
"""

from __future__ import annotations

from datetime import date, timedelta, timezone

import holidays
import pytest
from holidays.calendars.thai import _ThaiLunisolar
from thai_published_table import NOT_REPRODUCED, reference_type

from astro_calc.thai.calendar import month1_start
from astro_calc.thai.festivals import maha_songkran_instant, thai_festivals
from astro_calc.thai.suriyayatra import YEAR_TYPE_SOURCES, YearTypeSource
from astro_calc.thai.texts import texts

OFFICIAL = {
    # year: (makha, visakha, asanha, khao phansa)
    2015: ("2015-03-04", "2015-06-01", "2015-07-30", "2015-07-31"),
    2016: ("2016-02-22", "2016-05-20", "2016-07-19", "2016-07-20"),
    2017: ("2017-02-11", "2017-05-10", "2017-07-08", "2017-07-09"),
    2018: ("2018-03-01", "2018-05-29", "2018-07-27", "2018-07-28"),
    2019: ("2019-02-19", "2019-05-18", "2019-07-16", "2019-07-17"),
    2020: ("2020-02-08", "2020-05-06", "2020-07-05", "2020-07-06"),
    2021: ("2021-02-26", "2021-05-26", "2021-07-24", "2021-07-25"),
    2022: ("2022-02-16", "2022-05-15", "2022-07-13", "2022-07-14"),
    2023: ("2023-03-06", "2023-06-03", "2023-08-01", "2023-08-02"),
    2024: ("2024-02-24", "2024-05-22", "2024-07-20", "2024-07-21"),
    2025: ("2025-02-12", "2025-05-11", "2025-07-10", "2025-07-11"),
    2026: ("2026-03-03", "2026-05-31", "2026-07-29", "2026-07-30"),
}


def _dates(year: int, source: YearTypeSource = "almanac") -> dict[str, list[date]]:
    out: dict[str, list[date]] = {}
    for f in thai_festivals(year, year_type_source=source).festivals:
        out.setdefault(f.key, []).append(f.date)
    return out


@pytest.mark.parametrize("source", YEAR_TYPE_SOURCES)
@pytest.mark.parametrize("year", sorted(OFFICIAL))
def test_buddhist_holidays_match_official_announcement(year: int, source: YearTypeSource) -> None:
    got = _dates(year, source)
    expected = [date.fromisoformat(s) for s in OFFICIAL[year]]
    keys = ("makha_bucha", "visakha_bucha", "asanha_bucha", "khao_phansa")
    assert [got[k][0] for k in keys] == expected


@pytest.mark.parametrize("source", YEAR_TYPE_SOURCES)
def test_loy_krathong_and_ok_phansa_2024(source: YearTypeSource) -> None:
    got = _dates(2024, source)
    assert got["ok_phansa"] == [date(2024, 10, 17)]
    assert got["loy_krathong"] == [date(2024, 11, 15)]


def test_songkran_public_holidays() -> None:
    assert _dates(2024)["songkran"] == [date(2024, 4, 13), date(2024, 4, 14), date(2024, 4, 15)]
    assert _dates(1995)["songkran"] == [date(1995, 4, 12), date(1995, 4, 13), date(1995, 4, 14)]


@pytest.mark.parametrize(
    ("year", "day"),
    [(2023, date(2023, 4, 14)), (2024, date(2024, 4, 13)), (2025, date(2025, 4, 14))],
)
def test_maha_songkran_day_matches_royal_household_announcement(year: int, day: date) -> None:
    assert _dates(year)["maha_songkran"] == [day]


@pytest.mark.parametrize(
    ("year", "day"),
    [(2023, date(2023, 4, 14)), (2024, date(2024, 4, 13)), (2025, date(2025, 4, 14))],
)
def test_maha_songkran_day_by_the_ephemeris_method_agrees_in_these_years(
    year: int, day: date
) -> None:
    # The ephemeris entry into Lahiri-sidereal Aries (an option) falls on the same civil days.
    got = {f.key: f.date for f in thai_festivals(year, ayanamsa="lahiri").festivals}
    assert got["maha_songkran"] == day


def test_maha_songkran_2024_ephemeris_instant_within_30_minutes_of_announced_22_24() -> None:
    bangkok = timezone(timedelta(hours=7))
    got = maha_songkran_instant(2024, ayanamsa="lahiri").astimezone(bangkok)
    announced = got.replace(hour=22, minute=24, second=0, microsecond=0)
    assert abs((got - announced).total_seconds()) < 30 * 60


def test_wan_nao_lies_between_maha_songkran_and_thaloeng_sok() -> None:
    got = _dates(2024)
    assert got["wan_thaloeng_sok"] == [date(2024, 4, 16)]
    assert got["wan_nao"] == [date(2024, 4, 14), date(2024, 4, 15)]


def test_every_festival_has_thai_and_english_names() -> None:
    for f in thai_festivals(2023).festivals:
        assert f.name_th
        assert f.name_en
    for key, entry in texts()["festival"].items():
        assert entry["th"], key
        assert entry["en"], key


def _calendars_align(year: int) -> bool:
    """The rule's calendar and the table's give the same lunar year ``year``."""
    return (
        month1_start(year, "rule") == _ThaiLunisolar._get_start_date(year)
        and month1_start(year + 1, "rule") == _ThaiLunisolar._get_start_date(year + 1)
        and thai_festivals(year, year_type_source="rule").year_type == reference_type(year)
    )


_LUNISOLAR = _ThaiLunisolar()
_TABLE_FESTIVALS = {
    "makha_bucha": _LUNISOLAR.makha_bucha_date,
    "visakha_bucha": _LUNISOLAR.visakha_bucha_date,
    "asanha_bucha": _LUNISOLAR.asarnha_bucha_date,
    "khao_phansa": _LUNISOLAR.khao_phansa_date,
    "ok_phansa": _LUNISOLAR.ok_phansa_date,
    "loy_krathong": _LUNISOLAR.loy_krathong_date,
}


@pytest.mark.parametrize("year", range(1914, 2157))
def test_rule_festivals_match_published_table_where_year_types_agree(year: int) -> None:
    # Years whose calendar differs from the table are those listed, with their reasons, in
    # test_thai_calendar.NOT_REPRODUCED (or a neighbour of one, whose start date moves with it).
    if not _calendars_align(year):
        assert {year - 1, year, year + 1} & NOT_REPRODUCED, year
        return
    got = _dates(year, "rule")
    for key, reference in _TABLE_FESTIVALS.items():
        assert got[key] == [reference(year)], (year, key)


def test_rule_festivals_align_with_published_table_in_151_years_and_1991_to_2029() -> None:
    aligned = {y for y in range(1914, 2157) if _calendars_align(y)}
    assert len(aligned) == 151
    assert set(range(1991, 2030)) <= aligned


@pytest.mark.parametrize("source", YEAR_TYPE_SOURCES)
def test_buddhist_public_holidays_match_holidays_thailand_1997_to_2025(
    source: YearTypeSource,
) -> None:
    # holidays.Thailand: "100% accurate for 1997-2025" (checked against the Bank of Thailand).
    names = {
        "Makha Bucha": "makha_bucha",
        "Visakha Bucha": "visakha_bucha",
        "Asarnha Bucha": "asanha_bucha",
        "Buddhist Lent Day": "khao_phansa",
    }
    checked = 0
    for day, label in holidays.Thailand(years=range(1997, 2026)).items():
        for name in label.split("; "):
            if name in names:
                assert _dates(day.year, source)[names[name]] == [day], (day, name)
                checked += 1
    assert checked == 4 * 29


def test_official_songkran_days_follow_the_holidays_acts_in_every_year() -> None:
    # Oracle: the holidays package's Thailand calendar (it cites the Royal Gazette acts and the
    # cabinet resolutions); in-lieu days for weekend holidays are not Songkran days.
    import holidays

    for year in range(1914, 2101):
        calendar = holidays.Thailand(years=year, language="en_US")
        expected = sorted(
            day
            for day, name in calendar.items()
            if "Songkran" in name and ("in lieu" not in name or year == 2020)
        )
        assert _dates(year).get("songkran", []) == expected, year
