"""``client.cultural``: requests as the server expects them, validation before sending, typed
results (sync and async)."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from sdk_testkit import Script, async_client, reply, sync_client

import astro_sdk

FACT = {"tradition": "chinese", "key": "officer_suits", "text": "t", "source": "s",
        "effect": "favour", "weight": 2}  # fmt: skip
MARKETS = {"markets": [{"code": "TH", "name_en": "Thailand", "name_th": "ไทย",
                        "timezone": "Asia/Bangkok", "public_holidays": "holidays 0.109, TH",
                        "public_holiday_years": [1914, 2100], "traditions": ["thai", "western"],
                        "offers": ["public_holidays", "colour_of_the_day"]}]}  # fmt: skip
DAY = {"date": "2025-01-29", "weekday": "Wednesday", "public_holidays": [], "festivals": [FACT],
       "chinese": None, "thai": None, "hindu": None,
       "western": {"mercury_retrograde": False, "void_of_course": [
           {"start": "2025-01-29T10:00:00+08:00", "end": "2025-01-29T12:00:00+08:00",
            "last_aspect_body": "sun", "last_aspect_deg": 0, "next_sign": "aquarius"}]},
       "rating": "good", "score": 2, "facts": [FACT]}  # fmt: skip
CALENDAR = {"market": "CN", "market_name": "China (mainland)", "timezone": "Asia/Shanghai",
            "language": "en", "start": "2025-01-29", "end": "2025-01-29",
            "traditions": ["public_holiday", "chinese", "western"], "notes": [],
            "days": [DAY]}  # fmt: skip
BEST = {"activity": "wedding", "markets": ["TH", "CN"], "start": "2025-01-01", "end": "2025-01-31",
        "days_examined": 31, "scoring": "Sum over the markets", "notes": [],
        "dates": [{"date": "2025-01-10", "rank": 1, "score": 5, "worst_market_score": 2,
                   "markets": [{"market": "TH", "score": 2, "rating": "good", "reasons": [FACT],
                                "warnings": []}]}]}  # fmt: skip


def test_markets_is_a_free_get() -> None:
    script = Script(reply(200, MARKETS))
    listed = sync_client(script).cultural.markets()
    request = script.requests[0]
    assert (request.method, request.url.path) == ("GET", "/api/v3/cultural/markets")
    assert "Idempotency-Key" not in request.headers
    assert listed.markets[0].public_holiday_years == (1914, 2100)


def test_calendar_sends_only_the_given_fields() -> None:
    script = Script(reply(200, CALENDAR, {"X-Credits-Charged": "3"}))
    calendar = sync_client(script).cultural.calendar(
        market="CN", start=dt.date(2025, 1, 29), end="2025-01-29"
    )
    request = script.requests[0]
    assert (request.method, request.url.path) == ("POST", "/api/v3/cultural/calendar")
    assert request.headers["Idempotency-Key"].startswith("astro-sdk-")
    assert json.loads(request.content) == {
        "market": "CN",
        "start": "2025-01-29",
        "end": "2025-01-29",
    }
    day = calendar.days[0]
    assert day.western.void_of_course[0].start.utcoffset() == dt.timedelta(hours=8)
    assert calendar.api_response.credits_charged == 3


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"count": 0}, "count"),
        ({"count": 51}, "count"),
        ({"markets": []}, "markets"),
        ({"markets": ["TH"] * 10}, "markets"),
        ({"activity": "haircut"}, "activity"),
        ({"language": "de"}, "language"),
    ],
)
def test_best_dates_refuses_what_the_server_refuses_before_sending(
    options: dict[str, Any], field: str
) -> None:
    script = Script()
    args: dict[str, Any] = {"markets": ["TH"], "start": "2025-01-01", "end": "2025-01-31",
                            "activity": "wedding"} | options  # fmt: skip
    with pytest.raises(astro_sdk.RequestValidationError) as caught:
        sync_client(script).cultural.best_dates(**args)
    assert [d["field"] for d in caught.value.details] == [field]
    assert script.requests == []


async def test_async_best_dates() -> None:
    script = Script(reply(200, BEST))
    async with async_client(script) as client:
        best = await client.cultural.best_dates(
            markets=["TH", "CN"], start="2025-01-01", end="2025-01-31", activity="wedding",
            count=1, idempotency_key="c-1",
        )  # fmt: skip
    assert script.requests[0].headers["Idempotency-Key"] == "c-1"
    assert json.loads(script.requests[0].content) == {
        "markets": ["TH", "CN"], "start": "2025-01-01", "end": "2025-01-31",
        "activity": "wedding", "count": 1,
    }  # fmt: skip
    assert best.dates[0].markets[0].reasons[0].weight == 2
