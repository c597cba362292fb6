"""Market calendars and best dates (astro_calc.cultural.calendar, .best_dates).

References: the public holidays of every market are the ``holidays`` package's own for a year no
test or code names elsewhere (2031), in the market's language for Thai; Chinese New Year 2031 is
23 January (lunar-python); Buddhist Lent 2025 runs from Khao Phansa 11 July to Ok Phansa
7 October (the Thai festival module, checked against the official announcements); the Chinese
ghost month 2025 is lunar month 7, 23 August to 21 September (lunar-python).
"""

from __future__ import annotations

from datetime import date, timedelta

import holidays
import pytest

from astro_calc.cultural.best_dates import best_dates
from astro_calc.cultural.calendar import (
    WEIGHTS,
    in_buddhist_lent,
    market_calendar,
    market_codes,
    market_days,
    markets,
)
from astro_calc.errors import CalcInputError

THAI = range(0x0E00, 0x0E80)


def _has_thai(text: str) -> bool:
    return any(ord(ch) in THAI for ch in text)


@pytest.mark.parametrize("market", ["TH", "CN", "HK", "TW", "SG", "MY", "KR", "IN", "US"])
def test_public_holidays_are_the_holidays_package_for_2031(market: str) -> None:
    calendar = market_calendar(market, date(2031, 1, 1), date(2031, 12, 31))
    ours = {d.date for d in calendar.days if d.public_holidays}
    assert ours == set(holidays.country_holidays(market, years=2031))
    assert len(calendar.days) == 365


def test_thai_calendar_in_thai() -> None:
    calendar = market_calendar("TH", date(2031, 4, 12), date(2031, 4, 16), "th")
    names = holidays.country_holidays("TH", years=2031, language="th")
    songkran = next(d for d in calendar.days if d.date == date(2031, 4, 13))
    assert songkran.public_holidays[0].text.endswith(names[date(2031, 4, 13)])
    for day in calendar.days:
        assert _has_thai(day.weekday)
        assert day.thai is not None
        assert _has_thai(day.thai.label)
        assert _has_thai(day.thai.colour)
        for fact in (*day.facts, *day.festivals, *day.public_holidays):
            assert _has_thai(fact.text)
            assert fact.source


def test_every_fact_names_its_tradition_and_the_score_adds_up() -> None:
    for market in market_codes():
        for day in market_calendar(market, date(2031, 1, 20), date(2031, 1, 26)).days:
            assert day.score == sum(f.weight for f in day.facts)
            assert day.rating == (
                "good" if day.score >= 2 else "bad" if day.score <= -2 else "neutral"
            )
            for fact in (*day.facts, *day.festivals, *day.public_holidays):
                assert fact.tradition in {
                    "public_holiday",
                    "thai",
                    "chinese",
                    "korean",
                    "hindu",
                    "western",
                }
                assert fact.source


def test_chinese_new_year_2031_in_the_chinese_markets() -> None:
    for market in ("CN", "HK", "TW", "SG", "MY"):
        day = market_calendar(market, date(2031, 1, 23), date(2031, 1, 23)).days[0]
        assert "spring_festival" in [f.key for f in day.festivals]
        assert day.chinese is not None
        assert (day.chinese.lunar_month, day.chinese.lunar_day) == (1, 1)
    korea = market_calendar("KR", date(2031, 1, 23), date(2031, 1, 23)).days[0]
    assert "seollal" in [f.key for f in korea.festivals]


def test_markets_say_what_they_offer() -> None:
    by_code = {m.code: m for m in markets()}
    assert set(by_code) == {"TH", "CN", "HK", "TW", "SG", "MY", "KR", "IN", "US"}
    assert "suitable_avoid" in by_code["HK"].offers
    assert "hindu_festivals" in by_code["SG"].offers
    assert by_code["US"].traditions == ("western",)


def test_range_limits_at_their_edges() -> None:
    assert len(market_calendar("US", date(2024, 1, 1), date(2024, 12, 31)).days) == 366
    with pytest.raises(CalcInputError) as caught:
        market_calendar("US", date(2024, 1, 1), date(2025, 1, 1))
    assert (caught.value.field, "367" in caught.value.message) == ("end", True)
    with pytest.raises(CalcInputError) as caught:
        market_calendar("US", date(2024, 1, 2), date(2024, 1, 1))
    assert caught.value.field == "end"
    with pytest.raises(CalcInputError) as caught:
        market_calendar("FR", date(2024, 1, 1), date(2024, 1, 1))
    assert caught.value.field == "market"
    with pytest.raises(CalcInputError) as caught:
        market_days("US", date(2024, 1, 1), date(2024, 1, 1), "en", "haircut")
    assert caught.value.field == "activity"


def test_ghost_month_and_buddhist_lent_warn_weddings() -> None:
    hk = market_days("HK", date(2025, 8, 22), date(2025, 9, 22), "en", "wedding")
    ghost = [d.date for d in hk if any(f.key == "ghost_month" for f in d.facts)]
    assert (ghost[0], ghost[-1], len(ghost)) == (date(2025, 8, 23), date(2025, 9, 21), 30)
    assert in_buddhist_lent(date(2025, 7, 11))
    assert in_buddhist_lent(date(2025, 10, 7))
    assert not in_buddhist_lent(date(2025, 10, 8))
    th = market_days("TH", date(2025, 7, 10), date(2025, 7, 12), "en", "wedding")
    lent = [
        any(f.key == "buddhist_lent" and f.weight == WEIGHTS["buddhist_lent"] for f in d.facts)
        for d in th
    ]
    assert lent == [False, True, True]


def test_public_holiday_closes_shops_for_a_store_opening() -> None:
    day = market_days("US", date(2025, 7, 4), date(2025, 7, 4), "en", "store_opening")[0]
    assert [f.weight for f in day.facts if f.tradition == "public_holiday"] == [-3]
    day = market_days("US", date(2025, 7, 4), date(2025, 7, 4), "en", "campaign_start")[0]
    assert [f.weight for f in day.facts if f.tradition == "public_holiday"] == [-1]


def test_best_dates_are_ranked_by_the_summed_score() -> None:
    result = best_dates(
        ("TH", "CN", "IN"), date(2025, 1, 1), date(2025, 12, 31), "product_launch", 50
    )
    assert result.days_examined == 365
    assert len(result.dates) == 50
    keys = [(-d.score, -d.worst_market_score, d.date) for d in result.dates]
    assert keys == sorted(keys)
    every = market_days("CN", date(2025, 1, 1), date(2025, 12, 31), "en", "product_launch")
    for ranked in result.dates:
        assert ranked.score == sum(m.score for m in ranked.markets)
        cn = next(m for m in ranked.markets if m.market == "CN")
        assert cn.score == every[(ranked.date - date(2025, 1, 1)).days].score


def test_best_dates_field_errors() -> None:
    day = date(2025, 1, 1)
    for kwargs, field in (
        ({"markets": ()}, "markets"),
        ({"markets": ("TH", "TH")}, "markets"),
        ({"markets": ("TH", "XX")}, "markets[1]"),
        ({"count": 0}, "count"),
        ({"count": 51}, "count"),
        ({"end": day + timedelta(days=366)}, "end"),
    ):
        args = {
            "markets": ("TH",),
            "start": day,
            "end": day,
            "activity": "wedding",
            "count": 5,
        } | kwargs
        with pytest.raises(CalcInputError) as caught:
            best_dates(**args)  # type: ignore[arg-type]
        assert caught.value.field == field
    assert len(best_dates(("TH",), day, day + timedelta(days=365), "wedding", 50).dates) == 50


def test_the_holiday_sources_coverage_is_reported() -> None:
    # The holidays package tabulates India's holidays for 2001-2035 only: a 2036 calendar says so.
    india = market_calendar("IN", date(2036, 1, 1), date(2036, 1, 31))
    assert any("2001 to 2035" in note for note in india.notes)
    assert market_calendar("IN", date(2035, 1, 1), date(2035, 1, 31)).notes == ()
    taiwan = market_calendar("TW", date(1990, 1, 1), date(1990, 1, 1))
    assert taiwan.notes == ("holidays (TW): public holidays are known for 1998-2100",)
    by_code = {m.code: m for m in markets()}
    assert by_code["TW"].public_holiday_years == (1998, 2100)
    found = best_dates(("IN", "TH"), date(2036, 1, 1), date(2036, 1, 5), "wedding", 1)
    assert found.notes == india.notes


def test_thai_buddhist_holy_days_are_listed() -> None:
    # Wan phra of May 2025: waxing 8 (4th), full moon (11th, Visakha Bucha), waning 8 (19th),
    # dark moon (26th): the Thai calendar module, checked against the official holy days.
    days = market_calendar("TH", date(2025, 5, 1), date(2025, 5, 31), "th").days
    holy = [d.date.day for d in days if any(f.key == "wan_phra" for f in d.festivals)]
    assert holy == [4, 11, 19, 26]
    assert all(d.thai is not None and d.thai.wan_phra == (d.date.day in holy) for d in days)


def test_the_korean_market_reads_the_korean_lunar_date() -> None:
    # 2027-02-07 is Seollal in Korea (holidays package) and the second day of the year in China.
    korea = market_calendar("KR", date(2027, 2, 7), date(2027, 2, 7)).days[0]
    china = market_calendar("CN", date(2027, 2, 7), date(2027, 2, 7)).days[0]
    assert korea.chinese is not None
    assert china.chinese is not None
    assert (korea.chinese.lunar_month, korea.chinese.lunar_day) == (1, 1)
    assert korea.chinese.label == "음력 2027년 1월 1일"
    assert (china.chinese.lunar_month, china.chinese.lunar_day) == (1, 2)


def test_a_void_window_clipped_at_midnight_ends_at_24_00() -> None:
    """Issue 35: a window that runs to the end of the day prints "24:00", never "00:00". Over a
    year of Thai days, every void-of-course window in business hours is checked against the day's
    void windows (the clipped ends) computed here from the same periods."""
    import re

    from astro_calc.cultural.calendar import market_days

    days = market_days("TH", date(2027, 1, 1), date(2027, 12, 31), "en", "store_opening")
    seen_midnight = 0
    for day in days:
        for fact in day.facts:
            if fact.key != "void_business_hours":
                continue
            start, end = re.search(r"\((\d\d:\d\d)-(\d\d:\d\d)\)", fact.text).groups()  # type: ignore[union-attr]
            assert end != "00:00", (day.date, fact.text)
            assert start < end, (day.date, fact.text)
            seen_midnight += end == "24:00"
    assert seen_midnight > 0  # the case occurs in a year
