"""Horoscopes endpoints and the publishing service: stored once, served unchanged, range limits."""

from __future__ import annotations

import asyncio
from datetime import date

import pytest
from _platform_support import key_headers, new_account
from quart import Quart
from quart.typing import TestClientProtocol as Client

from astro_calc.horoscope import daily_horoscope
from astro_server.features.horoscopes import service as horoscopes
from astro_server.features.horoscopes.models import PublishedHoroscope
from astro_server.registry import PERIODIC_TASKS


@pytest.fixture
async def key(app: Quart) -> str:
    _account, api_key = await new_account("free", credits=1000)
    return api_key


async def test_daily_serves_the_published_horoscope(app: Quart, key: str) -> None:
    client: Client = app.test_client()
    response = await client.get(
        "/api/v3/horoscopes/daily?sign=leo&date=2025-03-15&language=th", headers=key_headers(key)
    )
    assert response.status_code == 200
    data = await response.get_json()
    expected = daily_horoscope("leo", date(2025, 3, 15), "th")
    assert data["overall"]["text"] == expected.overall.text
    assert data["moon_sign"] == expected.moon_sign
    assert data["published_at"].endswith("Z")


async def test_times_are_printed_in_the_requested_zone(app: Quart, key: str) -> None:
    """Issue 35: ``timezone`` (IANA, default UTC) sets the zone of the times the texts print.
    Mercury stations direct at 06:46 UTC on 2025-03-15: 13:46 in Bangkok, 23:46 of the 14th
    in Los Angeles (PDT, UTC-7). Thai prints the Royal Institute's dot ("13.46 น.",
    docs/content-review.md)."""
    client: Client = app.test_client()
    base = "/api/v3/horoscopes/daily?sign=virgo&date=2025-03-15"
    utc = await (await client.get(f"{base}&language=th", headers=key_headers(key))).get_json()
    assert utc["timezone"] == "UTC"
    assert "06.46 น. ตามเวลาสากล" in utc["overall"]["text"]
    assert "(UTC)" not in utc["overall"]["text"]
    response = await client.get(
        f"{base}&language=th&timezone=Asia/Bangkok", headers=key_headers(key)
    )
    bangkok = await response.get_json()
    assert bangkok["timezone"] == "Asia/Bangkok"
    assert "13.46 น." in bangkok["overall"]["text"]
    assert "UTC" not in bangkok["overall"]["text"]
    assert "เวลาสากล" not in bangkok["overall"]["text"]
    assert bangkok["facts"] == utc["facts"]  # the facts keep their UTC instants
    response = await client.get(
        f"{base}&language=en&timezone=America/Los_Angeles", headers=key_headers(key)
    )
    assert "23:46 on 14 Mar" in (await response.get_json())["overall"]["text"]
    ranged = await client.get(
        "/api/v3/horoscopes/range?sign=virgo&start=2025-03-14&end=2025-03-15&language=th"
        "&timezone=Asia/Bangkok",
        headers=key_headers(key),
    )
    body = await ranged.get_json()
    assert body["timezone"] == "Asia/Bangkok"
    assert body["horoscopes"][1]["overall"]["text"] == bangkok["overall"]["text"]


@pytest.mark.parametrize("zone", ["Mars/Olympus", "EST", "", "Asia/Bangkok/x"])
async def test_an_unknown_zone_is_400_naming_the_field_and_charges_nothing(
    app: Quart, zone: str
) -> None:
    from astro_server.platform.models.accounts import Account

    account_id, api_key = await new_account("free", credits=10)
    client: Client = app.test_client()
    queries = (
        ("daily", {"sign": "leo", "date": "2025-03-15"}),
        ("range", {"sign": "leo", "start": "2025-03-15", "end": "2025-03-16"}),
    )
    for path, query in queries:
        response = await client.get(
            f"/api/v3/horoscopes/{path}", query_string={**query, "timezone": zone},
            headers=key_headers(api_key),
        )  # fmt: skip
        assert response.status_code == 400, (path, zone)
        body = await response.get_json()
        assert [d["field"] for d in body["details"]] == ["timezone"], body
    assert (await Account.get(id=account_id)).credits == 10


async def test_head_on_a_billable_route_is_405_and_charges_nothing(app: Quart) -> None:
    from astro_server.platform.models.accounts import Account

    account_id, api_key = await new_account("free", credits=10)
    client: Client = app.test_client()
    for path in (
        "/api/v3/horoscopes/daily?sign=leo&date=2025-03-15&language=en",
        "/api/v3/horoscopes/range?sign=leo&start=2025-03-15&end=2025-03-16&language=en",
    ):
        response = await client.head(path, headers=key_headers(api_key))
        assert response.status_code == 405, path
        assert response.headers["Allow"] == "GET"
    assert (await Account.get(id=account_id)).credits == 10


async def test_published_content_never_changes(app: Quart) -> None:
    first = await horoscopes.get_or_publish("aries", date(2025, 6, 1), "en")
    row = await PublishedHoroscope.get(sign="aries", date=date(2025, 6, 1), language="en")
    # Simulate a later generator: the stored row, not a fresh computation, is what is served.
    row.content = {**row.content, "overall": {"text": "stored text", "rating": 3}}
    await row.save()
    again = await horoscopes.get_or_publish("aries", date(2025, 6, 1), "en")
    assert again["overall"]["text"] == "stored text"
    assert again["published_at"] == first["published_at"]


async def test_concurrent_publishing_keeps_one_row(app: Quart) -> None:
    results = await asyncio.gather(
        *[horoscopes.get_or_publish("cancer", date(2025, 8, 8), "th") for _ in range(6)]
    )
    assert await PublishedHoroscope.filter(sign="cancer", date=date(2025, 8, 8)).count() == 1
    assert all(r == results[0] for r in results)


async def test_range_of_31_days_is_allowed_and_32_is_400(app: Quart, key: str) -> None:
    client: Client = app.test_client()
    ok = await client.get(
        "/api/v3/horoscopes/range?sign=virgo&start=2025-01-01&end=2025-01-31",
        headers=key_headers(key),
    )
    assert ok.status_code == 200
    items = (await ok.get_json())["horoscopes"]
    assert items[0]["date"] == "2025-01-01"
    assert len(items) == 31
    too_long = await client.get(
        "/api/v3/horoscopes/range?sign=virgo&start=2025-01-01&end=2025-02-01",
        headers=key_headers(key),
    )
    assert too_long.status_code == 400
    body = await too_long.get_json()
    assert body["details"][0]["field"] == "end"
    assert too_long.headers["X-Credits-Charged"] == "0"


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("sign=ophiuchus&date=2025-01-01", "sign"),
        ("sign=leo&date=2025-01-01&language=fr", "language"),
        ("sign=leo&date=not-a-date", "date"),
        ("sign=leo&date=3000-01-01", "date"),  # the ephemeris span: years 100-2999
        ("sign=leo&date=0099-12-31", "date"),
    ],
)
async def test_bad_daily_queries_are_400(app: Quart, key: str, query: str, field: str) -> None:
    response = await app.test_client().get(
        f"/api/v3/horoscopes/daily?{query}", headers=key_headers(key)
    )
    assert response.status_code == 400
    body = await response.get_json()
    assert body["details"][0]["field"] == field


async def test_end_before_start_is_400(app: Quart, key: str) -> None:
    response = await app.test_client().get(
        "/api/v3/horoscopes/range?sign=leo&start=2025-01-02&end=2025-01-01",
        headers=key_headers(key),
    )
    assert response.status_code == 400


async def test_publishing_task_is_registered_and_publishes_coming_days(app: Quart) -> None:
    assert "horoscopes.publish_coming_days" in {task.name for task in PERIODIC_TASKS}
    count = await horoscopes.publish_coming_days(date(2025, 9, 1), days_ahead=1)
    assert count == 2 * 2 * 12
    assert await PublishedHoroscope.filter(date=date(2025, 9, 2)).count() == 24
