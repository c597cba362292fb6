"""The Thai Astrology endpoints end to end: the SDK (sync and async) against the live stack
(hypercorn API on PostgreSQL and Redis). Only the SDK talks to the server.

Reference values: Visakha Bucha 2024 on 22 May 2024 (Prime Minister's Office announcement of the
official holidays for B.E. 2567); Makha Bucha 2024 (24 February) is waxing 15 of month 3; the new
moon of 8 April 2024 at 18:21 UTC (USNO) falls on 9 April in Bangkok, 1st waxing of month 5.
Year-type sources: the published almanac table (the ``holidays`` package's copy of myhora's B.E.
2300-2700 calendar) makes 1944 athikamat, Visakha Bucha on 5 June 1944 and Makha Bucha 1985 on
5 March; the Suriyayatra rule gives 7 May 1944 and 6 March 1985.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

import astro_sdk
from astro_sdk import AstroClient, AsyncAstroClient
from astro_sdk.models.thai import ThaiCalendarRequest, ThaiFestivalsRequest
from astro_sdk.resources.thai import CALENDAR, FESTIVALS
from tests._support.accounts import create_account
from tests._support.stack import ServerProcess, Stack

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

SUBJECT = {
    "date": "1990-05-16",
    "time": "19:30",
    "latitude": 13.75,
    "longitude": 100.5,
    "timezone": "Asia/Bangkok",
}


def test_every_thai_route_through_the_sdk(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=20, name="thai-e2e")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        day = client.thai.calendar(date="2024-02-24")
        assert day.calendar_year is None
        lunar_date = day.lunar_date
        assert lunar_date is not None
        assert (lunar_date.lunar_month, lunar_date.phase, lunar_date.kham) == (3, "waxing", 15)
        assert lunar_date.date == dt.date(2024, 2, 24)
        assert day.api_response.credits_charged == 1

        year = client.thai.calendar(year=2023).calendar_year
        assert year is not None
        assert year.year_type == "athikamat"
        assert [m.month for m in year.months].count(8) == 2  # the repeated month 8

        festivals = client.thai.festivals(year=2024)
        dates = {f.key: f.date for f in festivals.festivals}
        assert dates["visakha_bucha"] == dt.date(2024, 5, 22)
        assert dates["makha_bucha"] == dt.date(2024, 2, 24)

        moon = client.thai.lunar(moment="2024-04-08T18:21:00Z", latitude=13.75, longitude=100.5)
        assert moon.phase == "new_moon"
        assert moon.thai_lunar_date.lunar_month == 5
        assert moon.thai_lunar_date.kham == 1
        assert moon.timezone == "Asia/Bangkok"

        wheel = client.thai.wheel(subject=SUBJECT, on_date="2025-06-01")
        assert wheel.utc == dt.datetime(1990, 5, 16, 12, 30, tzinfo=dt.UTC)
        assert wheel.wheel.birth_day == "wednesday_night"
        assert wheel.wheel.yearly is not None
        assert wheel.wheel.yearly.age_years == 35
        assert len(wheel.wheel.positions) == 8

        found = client.thai.auspicious_times(
            purpose="wedding", start_date="2024-01-01", end_date="2024-12-31"
        )
        assert found.days_examined == 366
        assert len(found.auspicious_days) + len(found.avoided_days) <= 366
        assert all(entry.auspicious for entry in found.auspicious_days)
        assert found.api_response.credits_charged == 2
        for result in (day, festivals, moon, wheel, found):
            assert result.model_extra == {}  # every field the server sends is declared

        with pytest.raises(astro_sdk.BadRequestError) as caught:
            client.thai.auspicious_times(
                purpose="wedding", start_date="2024-01-01", end_date="2025-01-01"
            )
    assert caught.value.status_code == 400
    assert [d["field"] for d in caught.value.details] == ["end_date"]
    assert caught.value.response.headers.get("X-Credits-Charged") in (None, "0")


async def test_async_client_and_missing_key(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=5, name="thai-e2e")
    async with AsyncAstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as aio:
        result = await aio.thai.festivals(year=2025)
    assert any(f.key == "loy_krathong" for f in result.festivals)
    with (
        AstroClient(api_key="ak_test_" + "0" * 32, base_url=shared_server.base_url) as stranger,
        pytest.raises(astro_sdk.AuthenticationError) as caught,
    ):
        stranger.thai.calendar(year=2024)
    assert caught.value.status_code == 401


def test_year_type_source_through_the_sdk(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=20, name="thai-e2e")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        default = client.thai.festivals(year=1944)
        rule = client.thai.festivals(year=1944, year_type_source="rule")
        almanac_1985 = client.thai.festivals(year=1985, year_type_source="almanac")
        day = client.thai.calendar(date="1944-06-05", year_type_source="rule")
        year = client.thai.calendar(year=1905)
        moon = client.thai.lunar(
            moment="1944-06-05T05:00:00Z", latitude=13.75, longitude=100.5, year_type_source="rule"
        )
        found = client.thai.auspicious_times(
            purpose="travel", start_date="1944-06-05", end_date="1944-06-05"
        )
        # The SDK refuses an unknown source before sending, naming the field ...
        bogus: Any = "myhora"
        with pytest.raises(astro_sdk.RequestValidationError) as refused:
            client.thai.festivals(year=1944, year_type_source=bogus)
        # ... and sent anyway (bypassing the SDK's check) the server answers a free 400 naming it.
        with pytest.raises(astro_sdk.BadRequestError) as server_refused:
            client.request(
                FESTIVALS,
                body=ThaiFestivalsRequest.model_construct(year=1944, year_type_source=bogus),
            )
        with pytest.raises(astro_sdk.BadRequestError) as calendar_refused:
            client.request(
                CALENDAR,
                body=ThaiCalendarRequest.model_construct(year=1944, year_type_source=bogus),
            )
    visakha = {f.key: f.date for f in default.festivals}["visakha_bucha"]
    assert (default.year_type_source, default.year_type_decided_by) == ("almanac", "almanac")
    assert (default.year_type, visakha) == ("athikamat", dt.date(1944, 6, 5))
    rule_visakha = {f.key: f.date for f in rule.festivals}["visakha_bucha"]
    assert (rule.year_type_source, rule.year_type, rule_visakha) == (
        "rule", "pakatimat", dt.date(1944, 5, 7)
    )  # fmt: skip
    makha = {f.key: f.date for f in almanac_1985.festivals}["makha_bucha"]
    assert (almanac_1985.year_type_source, makha) == ("almanac", dt.date(1985, 3, 5))
    assert day.year_type_source == "rule"
    assert day.lunar_date is not None
    assert (day.lunar_date.lunar_month, day.lunar_date.kham) == (7, 14)
    assert day.lunar_date.year_type_decided_by == "rule"
    assert year.year_type_source == "almanac"
    assert year.calendar_year is not None
    assert year.calendar_year.year_type_decided_by == "rule"  # outside the table, 1914-2157
    assert (moon.year_type_source, moon.thai_lunar_date.year_type) == ("rule", "pakatimat")
    assert found.year_type_source == "almanac"
    found_days = found.auspicious_days + found.avoided_days
    assert [(d.lunar_date.lunar_month, d.lunar_date.kham) for d in found_days] == [(7, 15)]
    for result in (default, rule, day, year, moon, found):
        assert result.model_extra == {}
    assert [d["field"] for d in refused.value.details] == ["year_type_source"]
    for caught in (server_refused, calendar_refused):
        assert caught.value.status_code == 400
        assert [d["field"] for d in caught.value.details] == ["year_type_source"]
        assert caught.value.response.headers.get("X-Credits-Charged") in (None, "0")


async def test_async_client_passes_the_year_type_source(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=10, name="thai-e2e")
    async with AsyncAstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as aio:
        festivals = await aio.thai.festivals(year=1985, year_type_source="rule")
        day = await aio.thai.calendar(date="1985-03-05")
        moon = await aio.thai.lunar(moment="1985-03-05T05:00:00Z", latitude=13.75, longitude=100.5)
        found = await aio.thai.auspicious_times(
            purpose="travel",
            start_date="1985-03-05",
            end_date="1985-03-05",
            year_type_source="rule",
        )
    makha = {f.key: f.date for f in festivals.festivals}["makha_bucha"]
    assert (festivals.year_type_source, makha) == ("rule", dt.date(1985, 3, 6))
    assert day.year_type_source == "almanac"
    assert day.lunar_date is not None
    assert (day.lunar_date.lunar_month, day.lunar_date.kham) == (4, 15)
    assert (moon.year_type_source, moon.thai_lunar_date.kham) == ("almanac", 15)
    assert found.year_type_source == "rule"
    found_days = found.auspicious_days + found.avoided_days
    assert [(d.lunar_date.lunar_month, d.lunar_date.kham) for d in found_days] == [(4, 14)]
