"""The Thai Astrology endpoints end to end: the SDK (sync and async) against the live stack
(hypercorn API on PostgreSQL and Redis). Only the SDK talks to the server.

Reference values: Visakha Bucha 2024 on 22 May 2024 (Prime Minister's Office announcement of the
official holidays for B.E. 2567); Makha Bucha 2024 (24 February) is waxing 15 of month 3; the new
moon of 8 April 2024 at 18:21 UTC (USNO) falls on 9 April in Bangkok, 1st waxing of month 5.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest

import astro_sdk
from astro_sdk import AstroClient, AsyncAstroClient
from conftest import ServerProcess, Stack

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

SUBJECT = {
    "date": "1990-05-16",
    "time": "19:30",
    "latitude": 13.75,
    "longitude": 100.5,
    "timezone": "Asia/Bangkok",
}


def create_account(stack: Stack, credits: int) -> dict[str, Any]:
    out = stack.run_cli(
        "create-account",
        "--name",
        "thai-e2e",
        "--tier",
        "free",
        "--credits",
        str(credits),
        "--json",
    )
    account: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return account


def test_every_thai_route_through_the_sdk(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, credits=20)
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
    account = create_account(shared_stack, credits=5)
    async with AsyncAstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as aio:
        result = await aio.thai.festivals(year=2025)
    assert any(f.key == "loy_krathong" for f in result.festivals)
    with (
        AstroClient(api_key="ak_test_" + "0" * 32, base_url=shared_server.base_url) as stranger,
        pytest.raises(astro_sdk.AuthenticationError) as caught,
    ):
        stranger.thai.calendar(year=2024)
    assert caught.value.status_code == 401
