"""``client.horoscopes``: the query the server expects, billable GETs with an Idempotency-Key,
ranges refused before sending when the server would refuse them, typed results."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from sdk_testkit import Script, async_client, error, reply, sync_client

import astro_sdk


def _section(rating: int) -> dict[str, Any]:
    return {"text": "A balanced day.", "rating": rating}


def _horoscope(day: str) -> dict[str, Any]:
    return {
        "sign": "leo", "sign_name": "Leo", "date": day, "language": "en",
        "overall": _section(3), "love": _section(4), "career": _section(2),
        "money": _section(3), "health": _section(5), "lucky_number": 17,
        "lucky_colour": "red", "lucky_planet": "sun", "moon_sign": "libra",
        "moon_phase": "full_moon", "moon_house": 3, "ruler": "sun",
        "facts": [
            {"kind": "moon_sign", "at": f"{day}T12:00:00Z", "bodies": ["moon"], "sign": "libra",
             "house": 3, "aspect": None, "direction": None, "phase": None, "retrograde": None},
            {"kind": "lunation", "at": f"{day}T07:00:20Z", "bodies": ["moon"],
             "phase": "full_moon"},
        ],
        "generator": "horoscope/1", "published_at": "2024-03-23T00:00:01.5Z", "timezone": "UTC",
    }  # fmt: skip


def test_daily_sends_the_query_with_an_idempotency_key_and_returns_a_typed_horoscope() -> None:
    script = Script(reply(200, _horoscope("2024-03-25"), {"X-Credits-Charged": "1"}))
    horoscope = sync_client(script).horoscopes.daily(sign="leo", date=dt.date(2024, 3, 25))
    request = script.requests[0]
    assert (request.method, request.url.path) == ("GET", "/api/v3/horoscopes/daily")
    assert dict(request.url.params) == {"sign": "leo", "date": "2024-03-25"}
    assert request.headers["Idempotency-Key"].startswith("astro-sdk-")
    assert request.content == b""
    assert horoscope.date == dt.date(2024, 3, 25)
    assert (horoscope.moon_sign, horoscope.health.rating) == ("libra", 5)
    assert horoscope.facts[1].at == dt.datetime(2024, 3, 25, 7, 0, 20, tzinfo=dt.UTC)
    assert horoscope.facts[1].sign is None
    assert horoscope.published_at == dt.datetime(2024, 3, 23, 0, 0, 1, 500000, tzinfo=dt.UTC)
    assert horoscope.api_response.credits_charged == 1


def test_range_of_31_days_is_sent() -> None:
    days = [_horoscope(f"2024-01-{d:02d}") for d in range(1, 32)]
    script = Script(
        reply(200, {"sign": "leo", "language": "th", "timezone": "UTC", "horoscopes": days})
    )
    result = sync_client(script).horoscopes.range(
        sign="leo", start="2024-01-01", end=dt.date(2024, 1, 31), language="th"
    )
    assert script.requests[0].url.path == "/api/v3/horoscopes/range"
    assert dict(script.requests[0].url.params) == {
        "sign": "leo", "start": "2024-01-01", "end": "2024-01-31", "language": "th",
    }  # fmt: skip
    assert [h.date.day for h in result.horoscopes] == list(range(1, 32))


@pytest.mark.parametrize(
    ("options", "field", "message"),
    [
        ({"start": "2024-01-01", "end": "2024-02-01"}, "end", "at most 31 days"),
        ({"start": "2024-01-02", "end": "2024-01-01"}, "end", "not be before start"),
        ({"start": "2024-01-01", "end": "2024-01-05", "sign": "ophiuchus"}, "sign", "sign"),
        ({"start": "2024-01-01", "end": "2024-01-05", "language": "de"}, "language", "language"),
    ],
)
def test_range_refuses_what_the_server_refuses_before_sending(
    options: dict[str, Any], field: str, message: str
) -> None:
    script = Script()
    with pytest.raises(astro_sdk.RequestValidationError, match=message) as caught:
        sync_client(script).horoscopes.range(**{"sign": "leo", **options})
    assert [d["field"] for d in caught.value.details] == [field]
    assert script.requests == []


def test_a_server_400_names_the_field() -> None:
    details = [{"field": "date", "message": "outside the supported range"}]
    script = Script(error(400, "validation_error", "bad date", details=details))
    with pytest.raises(astro_sdk.BadRequestError) as caught:
        sync_client(script).horoscopes.daily(sign="aries", date="0001-01-01")
    assert caught.value.details == details
    assert len(script.requests) == 1  # a 400 is never retried


async def test_async_daily_and_range() -> None:
    script = Script(
        reply(200, _horoscope("2024-03-25")),
        reply(
            200,
            {
                "sign": "leo",
                "language": "en",
                "timezone": "UTC",
                "horoscopes": [_horoscope("2024-03-25")],
            },
        ),
    )
    async with async_client(script) as client:
        daily = await client.horoscopes.daily(sign="leo", date="2024-03-25", idempotency_key="h")
        span = await client.horoscopes.range(sign="leo", start="2024-03-25", end="2024-03-25")
    assert script.requests[0].headers["Idempotency-Key"] == "h"
    assert span.horoscopes[0].model_dump() == daily.model_dump()


def test_timezone_is_sent_when_given_and_read_back() -> None:
    script = Script(reply(200, {**_horoscope("2024-03-25"), "timezone": "Asia/Bangkok"}))
    horoscope = sync_client(script).horoscopes.daily(
        sign="leo", date="2024-03-25", language="th", timezone="Asia/Bangkok"
    )
    assert dict(script.requests[0].url.params) == {
        "sign": "leo", "date": "2024-03-25", "language": "th", "timezone": "Asia/Bangkok",
    }  # fmt: skip
    assert horoscope.timezone == "Asia/Bangkok"
