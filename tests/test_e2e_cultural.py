"""The Cultural Intelligence endpoints end to end: the SDK (sync and async) against the live stack
(hypercorn API on PostgreSQL and Redis). Only the SDK talks to the server.

Reference values: Chinese New Year 2025 on 29 January (乙巳年正月初一, Purple Mountain
Observatory's calendar; lunar-python agrees); Songkran 13 April 2025, a Thai public holiday (the
holidays package); Diwali 20 October 2025 in the Government of India's holiday list.
"""

from __future__ import annotations

import datetime as dt

import pytest

import astro_sdk
from astro_sdk import AstroClient, AsyncAstroClient
from tests._support.accounts import create_account
from tests._support.stack import ServerProcess, Stack

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


def test_every_cultural_route_through_the_sdk(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="starter", credits=20, name="cultural-e2e")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        listed = client.cultural.markets()
        codes = {m.code for m in listed.markets}
        assert {"TH", "CN", "HK", "TW", "SG", "MY", "KR", "IN", "US"} <= codes
        assert listed.api_response.credits_charged in (None, 0)

        calendar = client.cultural.calendar(market="CN", start="2025-01-27", end="2025-02-02")
        assert calendar.api_response.credits_charged == 3
        new_year = next(d for d in calendar.days if d.date == dt.date(2025, 1, 29))
        assert new_year.chinese is not None
        assert new_year.chinese.label == "乙巳年正月初一"
        assert [f.key for f in new_year.festivals] == ["spring_festival"]
        assert new_year.public_holidays

        thai = client.cultural.calendar(
            market="TH", start="2025-04-13", end="2025-04-13", language="th"
        )
        songkran = thai.days[0]
        assert "สงกรานต์" in songkran.public_holidays[0].text
        assert songkran.thai is not None
        assert songkran.thai.colour == "แดง"

        india = client.cultural.calendar(market="IN", start="2025-10-20", end="2025-10-20")
        assert "diwali" in [f.key for f in india.days[0].festivals]
        assert india.days[0].hindu is not None
        # Amavasya begins at 15:44 IST: the day's tithi (at sunrise) is still Chaturdashi.
        assert india.days[0].hindu.tithi == 29

        best = client.cultural.best_dates(
            markets=["TH", "CN", "IN"],
            start="2025-03-01",
            end="2025-03-31",
            activity="contract_signing",
            count=3,
        )
        assert best.api_response.credits_charged == 5
        assert len(best.dates) == 3
        assert [d.rank for d in best.dates] == [1, 2, 3]
        assert best.dates[0].score >= best.dates[-1].score
        for result in (listed, calendar, thai, india, best):
            assert result.model_extra == {}  # every field the server sends is declared

        with pytest.raises(astro_sdk.BadRequestError) as caught:
            client.cultural.calendar(market="US", start="2024-01-01", end="2025-01-01")
    assert caught.value.status_code == 400
    assert [d["field"] for d in caught.value.details] == ["end"]
    assert caught.value.response.headers.get("X-Credits-Charged") in (None, "0")


async def test_async_client_tier_and_missing_key(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="starter", credits=10, name="cultural-e2e")
    async with AsyncAstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as aio:
        best = await aio.cultural.best_dates(
            markets=["KR"], start="2025-06-01", end="2025-06-30", activity="moving", count=5
        )
        listed = await aio.cultural.markets()
    assert listed.markets
    assert any(
        f.key == "son_free" for d in best.dates for m in d.markets for f in m.reasons
    )  # Korean spirit-free moving days rank first
    free = create_account(shared_stack, tier="free", credits=10, name="cultural-e2e")
    with AstroClient(api_key=free["api_key"], base_url=shared_server.base_url) as client:
        with pytest.raises(astro_sdk.PermissionDeniedError) as denied:
            client.cultural.calendar(market="US", start="2025-01-01", end="2025-01-01")
        assert denied.value.status_code == 403
    with (
        AstroClient(api_key="ak_test_" + "0" * 32, base_url=shared_server.base_url) as stranger,
        pytest.raises(astro_sdk.AuthenticationError) as caught,
    ):
        stranger.cultural.markets()
    assert caught.value.status_code == 401
