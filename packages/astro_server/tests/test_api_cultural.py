"""Cultural Intelligence endpoints: markets, market calendars and best dates; every limit at its
edge (the 366-day range, years 1901 and 2099, 1-9 markets, count 1-50), unknown market or
activity, 401 without a key, field-level 400s that cost nothing, the starter tier, Thai text, and
the OpenAPI document.

In-process app on SQLite. Bodies are compared with astro_calc's own results for the same input,
which ``packages/astro_calc/tests/test_cultural_*.py`` check against lunar-python, the holidays
package and the Government of India's gazetted holidays.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from _platform_support import key_headers, new_account
from quart.typing import TestClientProtocol as Client

from astro_server.platform.auth import credentials
from astro_server.platform.models.accounts import Account, ApiKey

MARKETS = "/api/v3/cultural/markets"
CALENDAR = "/api/v3/cultural/calendar"
BEST = "/api/v3/cultural/best-dates"
CAL_BODY: dict[str, Any] = {"market": "CN", "start": "2025-01-27", "end": "2025-02-02"}
BEST_BODY: dict[str, Any] = {
    "markets": ["TH", "CN", "IN"],
    "start": "2025-03-01",
    "end": "2025-03-31",
    "activity": "store_opening",
    "count": 5,
}


@pytest.fixture
async def key() -> str:
    _id, api_key = await new_account("starter", 1000)
    return api_key


async def _credits(key: str) -> int:
    api_key = await ApiKey.get(key_hash=credentials.digest(key))
    return (await Account.get(id=api_key.account_id)).credits  # type: ignore[attr-defined]


async def _post(client: Client, key: str, path: str, body: dict[str, Any]) -> Any:
    response = await client.post(path, json=body, headers=key_headers(key))
    return response, await response.get_json()


async def test_markets_lists_what_each_offers_for_free(client: Client, key: str) -> None:
    before = await _credits(key)
    response = await client.get(MARKETS, headers=key_headers(key))
    assert response.status_code == 200
    body = await response.get_json()
    by_code = {m["code"]: m for m in body["markets"]}
    assert {"TH", "CN", "HK", "TW", "SG", "MY", "KR", "IN", "US"} <= set(by_code)
    assert "day_officer" in by_code["CN"]["offers"]
    assert "colour_of_the_day" in by_code["TH"]["offers"]
    assert "rahu_kalam" in by_code["IN"]["offers"]
    assert "public_holidays" in by_code["US"]["offers"]
    assert by_code["TH"]["public_holidays"].startswith("holidays (python-holidays)")
    assert await _credits(key) == before


async def test_calendar_of_chinese_new_year_week(client: Client, key: str) -> None:
    response, body = await _post(client, key, CALENDAR, CAL_BODY)
    assert response.status_code == 200
    assert response.headers["X-Credits-Charged"] == "3"
    days = {d["date"]: d for d in body["days"]}
    assert len(days) == 7
    new_year = days["2025-01-29"]
    assert [f["key"] for f in new_year["festivals"]] == ["spring_festival"]
    assert new_year["public_holidays"]  # Spring Festival is a public holiday in mainland China
    assert new_year["chinese"]["label"] == "乙巳年正月初一"
    assert new_year["chinese"]["day_ganzhi"] == "戊戌"
    for day in body["days"]:
        assert day["rating"] in ("good", "neutral", "bad")
        assert day["score"] == sum(f["weight"] for f in day["facts"])
        for fact in (*day["facts"], *day["festivals"], *day["public_holidays"]):
            assert fact["tradition"]
            assert fact["source"]


async def test_thai_calendar_speaks_thai(client: Client, key: str) -> None:
    body = {"market": "TH", "start": "2025-04-12", "end": "2025-04-16", "language": "th"}
    response, answer = await _post(client, key, CALENDAR, body)
    assert response.status_code == 200
    songkran = {d["date"]: d for d in answer["days"]}["2025-04-13"]
    assert "สงกรานต์" in songkran["public_holidays"][0]["text"]
    assert songkran["thai"]["label"].startswith("แรม")
    assert songkran["weekday"] == "วันอาทิตย์"
    assert songkran["thai"]["colour"] == "แดง"
    assert answer["market_name"] == "ไทย"


@pytest.mark.parametrize(
    ("start", "end"),
    [("2024-01-01", "2024-12-31"), ("2099-12-31", "2099-12-31"), ("1901-01-01", "1901-01-01")],
)
async def test_calendar_limits_at_their_edges_are_accepted(
    client: Client, key: str, start: str, end: str
) -> None:
    response, body = await _post(
        client, key, CALENDAR, {"market": "US", "start": start, "end": end}
    )
    assert response.status_code == 200, body
    assert len(body["days"]) == (dt.date.fromisoformat(end) - dt.date.fromisoformat(start)).days + 1


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("end", "2025-01-01", "367"),  # 2024 is a leap year: 367 days counting both ends
        ("end", "2023-12-31", "before"),
        ("start", "1900-12-31", "1901"),
        ("market", "FR", ""),
        ("language", "de", ""),
    ],
)
async def test_calendar_bad_fields_are_free_400s(
    client: Client, key: str, field: str, value: str, message: str
) -> None:
    before = await _credits(key)
    body = {"market": "US", "start": "2024-01-01", "end": "2024-12-31", field: value}
    response, answer = await _post(client, key, CALENDAR, body)
    assert response.status_code == 400
    assert [d["field"] for d in answer["details"]] == [field]
    assert message in answer["details"][0]["message"]
    assert await _credits(key) == before


async def test_best_dates_rank_by_the_documented_score(client: Client, key: str) -> None:
    response, body = await _post(client, key, BEST, BEST_BODY)
    assert response.status_code == 200
    assert response.headers["X-Credits-Charged"] == "5"
    assert body["days_examined"] == 31
    assert len(body["dates"]) == 5
    scores = [(d["score"], d["worst_market_score"]) for d in body["dates"]]
    assert scores == sorted(scores, reverse=True)
    for d in body["dates"]:
        assert [m["market"] for m in d["markets"]] == ["TH", "CN", "IN"]
        assert d["score"] == sum(m["score"] for m in d["markets"])
        for m in d["markets"]:
            assert all(f["effect"] == "favour" for f in m["reasons"])
            assert all(f["effect"] == "avoid" for f in m["warnings"])
    assert "Sum over the markets" in body["scoring"]


async def test_best_dates_warn_of_ghost_month_and_lent(client: Client, key: str) -> None:
    body = {**BEST_BODY, "markets": ["TH", "HK"], "activity": "wedding", "count": 50,
            "start": "2025-08-23", "end": "2025-09-21"}  # fmt: skip
    response, answer = await _post(client, key, BEST, body)
    assert response.status_code == 200
    warnings = {f["key"] for d in answer["dates"] for m in d["markets"] for f in m["warnings"]}
    assert {"ghost_month", "buddhist_lent"} <= warnings


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("markets", [], "markets"),
        ("markets", ["TH", "TH"], "markets"),
        ("markets", ["TH", "FR"], "markets[1]"),
        ("activity", "haircut", "activity"),
        ("count", 0, "count"),
        ("count", 51, "count"),
        ("end", "2026-03-02", "end"),  # 367 days
        ("end", "2025-02-28", "end"),
    ],
)
async def test_best_dates_bad_fields_are_free_400s(
    client: Client, key: str, field: str, value: object, named: str
) -> None:
    before = await _credits(key)
    response, answer = await _post(client, key, BEST, {**BEST_BODY, field: value})
    assert response.status_code == 400
    assert [d["field"] for d in answer["details"]] == [named]
    assert await _credits(key) == before


@pytest.mark.parametrize(("field", "value"), [("count", 1), ("count", 50), ("end", "2026-03-01")])
async def test_best_dates_bounds_are_accepted(
    client: Client, key: str, field: str, value: object
) -> None:
    response, answer = await _post(client, key, BEST, {**BEST_BODY, field: value})
    assert response.status_code == 200, answer


async def test_nine_markets_are_accepted(client: Client, key: str) -> None:
    all_nine = ["TH", "CN", "HK", "TW", "SG", "MY", "KR", "IN", "US"]
    body = {**BEST_BODY, "markets": all_nine, "end": "2025-03-03"}
    response, answer = await _post(client, key, BEST, body)
    assert response.status_code == 200
    assert len(answer["dates"][0]["markets"]) == 9


async def test_free_tier_is_403_and_no_key_is_401(client: Client) -> None:
    _id, free_key = await new_account("free", 100)
    response, _body = await _post(client, free_key, CALENDAR, CAL_BODY)
    assert response.status_code == 403
    assert (await client.post(CALENDAR, json=CAL_BODY)).status_code == 401
    assert (await client.get(MARKETS)).status_code == 401


async def test_openapi_documents_the_group(client: Client) -> None:
    doc = await (await client.get("/openapi.json")).get_json()
    for path, method, op_id in (
        (MARKETS, "get", "culturalMarkets"),
        (CALENDAR, "post", "culturalCalendar"),
        (BEST, "post", "culturalBestDates"),
    ):
        op = doc["paths"][path][method]
        assert op["operationId"] == op_id
        assert op["tags"] == ["Cultural Intelligence"]
        assert op["summary"]
        assert op["description"]
    assert {"400", "401", "402"} <= set(doc["paths"][CALENDAR]["post"]["responses"])
