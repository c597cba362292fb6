"""Sky events, planetary hours, forecast and calendar feeds through the API (issue 45).

In-process app on SQLite. Values are checked against astro_calc's own results (which its tests
check against pyswisseph and published tables) and against published figures cited inline;
each request limit is tried just inside and just outside its edge; 400s name the field; the
credits charged are read from the ledger; the iCalendar answers are parsed by ``icalendar``.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import icalendar
import pytest
from _platform_support import key_headers, new_account
from quart.typing import TestClientProtocol as Client

from astro_calc.western.events import planetary_hours, sky_events
from astro_server.platform.auth import accounts
from astro_server.platform.models.accounts import Account
from astro_server.platform.models.billing import LedgerEntry

BANGKOK = {"latitude": 13.7563, "longitude": 100.5018}
SUBJECT = {"date": "1990-05-15", "time": "08:30", "timezone": "Asia/Bangkok", **BANGKOK}


@pytest.fixture
async def account() -> tuple[str, str]:
    return await new_account("free", 1000)


@pytest.fixture
def key(account: tuple[str, str]) -> str:
    return account[1]


async def _post(client: Client, key: str, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    response = await client.post(f"/api/v3/{path}", json=body, headers=key_headers(key))
    return response.status_code, await response.get_json()


def _fields(body: Any) -> list[str]:
    return [d["field"] for d in body["details"]]


async def _balance(account_id: str) -> int:
    return (await Account.get(id=account_id)).credits


# --- sky events -----------------------------------------------------------------------------------


async def test_sky_events_2024_total_solar_eclipse(client: Client, key: str) -> None:
    # NASA/Espenak: the total solar eclipse of 2024-04-08, greatest eclipse 18:17:16 TD (about
    # 18:18 UT with delta T of 69 s); the total lunar eclipse of 2025-03-14 peaks 06:58 UT.
    status, body = await _post(
        client,
        key,
        "western/sky-events",
        {"start": "2024-04-01", "end": "2024-04-30", "kinds": ["eclipse"]},
    )
    assert status == 200
    (eclipse,) = body["events"]
    assert eclipse["kind"] == "eclipse"
    assert eclipse["body"] == "sun"
    assert eclipse["eclipse_type"] == "total"
    assert eclipse["at"].startswith("2024-04-08T18:1")


async def test_sky_events_equal_astro_calc_and_are_sorted(client: Client, key: str) -> None:
    status, body = await _post(
        client, key, "western/sky-events", {"start": "2026-01-01", "end": "2026-01-31"}
    )
    assert status == 200
    expected = sky_events(date(2026, 1, 1), date(2026, 1, 31))
    assert len(body["events"]) == len(expected.events)
    ats = [e["at"] for e in body["events"]]
    assert ats == sorted(ats)
    assert all(at.endswith("Z") for at in ats)
    first = expected.events[0]
    assert body["events"][0]["at"] == first.at.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert body["start"] == "2026-01-01T00:00:00Z"
    assert body["end"] == "2026-01-31T23:59:59Z"


async def test_sky_events_charge_two_credits(client: Client, account: tuple[str, str]) -> None:
    account_id, key = account
    before = await _balance(account_id)
    status, _ = await _post(
        client, key, "western/sky-events",
        {"start": "2026-03-01", "end": "2026-03-02", "kinds": ["lunation"]},
    )  # fmt: skip
    assert status == 200
    assert await _balance(account_id) == before - 2
    row = await LedgerEntry.filter(account_id=account_id, kind="debit").order_by("-id").first()
    assert row is not None
    assert (row.operation, row.amount) == ("western.sky_events", -2)


async def test_sky_events_window_of_366_days_is_accepted(client: Client, key: str) -> None:
    status, _ = await _post(
        client, key, "western/sky-events",
        {"start": "2025-01-01", "end": "2026-01-01", "kinds": ["eclipse"]},
    )  # fmt: skip
    assert status == 200


async def test_sky_events_window_of_367_days_is_refused_before_any_charge(
    client: Client, account: tuple[str, str]
) -> None:
    account_id, key = account
    before = await _balance(account_id)
    status, body = await _post(
        client, key, "western/sky-events",
        {"start": "2025-01-01", "end": "2026-01-02", "kinds": ["eclipse"]},
    )  # fmt: skip
    assert status == 400
    assert _fields(body) == ["end"]
    assert "366 days" in body["details"][0]["message"]
    assert await _balance(account_id) == before


async def test_sky_events_end_before_start_is_refused(client: Client, key: str) -> None:
    status, body = await _post(
        client, key, "western/sky-events", {"start": "2026-02-02", "end": "2026-02-01"}
    )
    assert status == 400
    assert _fields(body) == ["end"]


async def test_sky_events_unknown_kind_is_refused(client: Client, key: str) -> None:
    status, body = await _post(
        client, key, "western/sky-events",
        {"start": "2026-01-01", "end": "2026-01-02", "kinds": ["comet"]},
    )  # fmt: skip
    assert status == 400
    assert _fields(body) == ["kinds[0]"]
    assert "void_of_course" in body["details"][0]["message"]


async def test_sky_events_unknown_body_is_refused(client: Client, key: str) -> None:
    status, body = await _post(
        client, key, "western/sky-events",
        {"start": "2026-01-01", "end": "2026-01-02", "bodies": ["sun", "chiron"]},
    )  # fmt: skip
    assert status == 400
    assert _fields(body) == ["bodies[1]"]


async def test_sky_events_empty_kinds_is_refused(client: Client, key: str) -> None:
    status, body = await _post(
        client, key, "western/sky-events", {"start": "2026-01-01", "end": "2026-01-02", "kinds": []}
    )
    assert status == 400
    assert _fields(body) == ["kinds"]


async def test_sky_events_latitude_without_longitude_is_refused(client: Client, key: str) -> None:
    status, body = await _post(
        client, key, "western/sky-events",
        {"start": "2026-01-01", "end": "2026-01-02", "latitude": 10.0},
    )  # fmt: skip
    assert status == 400
    assert _fields(body) == ["longitude"]


async def test_sky_events_moon_ingresses_only_when_named(client: Client, key: str) -> None:
    window = {"start": "2026-01-01", "end": "2026-01-10", "kinds": ["ingress"]}
    _, default = await _post(client, key, "western/sky-events", window)
    _, moon = await _post(client, key, "western/sky-events", {**window, "bodies": ["moon"]})
    assert all(e["body"] != "moon" for e in default["events"])
    assert len(moon["events"]) >= 4  # the Moon changes sign every 2.5 days
    assert {e["body"] for e in moon["events"]} == {"moon"}


async def test_sky_events_modern_rule_is_echoed(client: Client, key: str) -> None:
    status, body = await _post(
        client, key, "western/sky-events",
        {"start": "2026-01-01", "end": "2026-01-05", "kinds": ["void_of_course"],
         "void_of_course_rule": "modern"},
    )  # fmt: skip
    assert status == 200
    assert body["void_of_course_rule"] == "modern"
    assert all(e["end"] > e["at"] for e in body["events"])


async def test_sky_events_as_icalendar(client: Client, key: str) -> None:
    response = await client.post(
        "/api/v3/western/sky-events",
        json={"start": "2026-01-01", "end": "2026-01-31", "kinds": ["lunation"], "language": "th"},
        headers=key_headers(key, Accept="text/calendar"),
    )
    assert response.status_code == 200
    assert response.content_type == "text/calendar; charset=utf-8"
    parsed = icalendar.Calendar.from_ical(await response.get_data())
    vevents = parsed.walk("VEVENT")
    expected = sky_events(date(2026, 1, 1), date(2026, 1, 31), kinds=["lunation"]).events
    assert len(vevents) == len(expected)
    assert vevents[0].decoded("DTSTART") == expected[0].at
    assert len({str(v["UID"]) for v in vevents}) == len(vevents)


# --- planetary hours ------------------------------------------------------------------------------


async def test_planetary_hours_equal_astro_calc(client: Client, key: str) -> None:
    response = await client.get(
        "/api/v3/western/planetary-hours?date=2026-06-21&latitude=13.7563&longitude=100.5018"
        "&timezone=Asia/Bangkok",
        headers=key_headers(key),
    )
    assert response.status_code == 200
    body = await response.get_json()
    expected = planetary_hours(date(2026, 6, 21), 13.7563, 100.5018, "Asia/Bangkok")
    assert len(body["hours"]) == 24
    # 2026-06-21 is a Sunday: the first hour is the Sun's, the second Venus's (Chaldean order).
    assert [h["ruler"] for h in body["hours"][:3]] == ["sun", "venus", "mercury"]
    assert body["hours"][0]["start"] == expected.sunrise.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert [h["period"] for h in body["hours"]].count("day") == 12


async def test_planetary_hours_at_66_degrees_is_accepted(client: Client, key: str) -> None:
    response = await client.get(
        "/api/v3/western/planetary-hours?date=2026-03-20&latitude=66&longitude=25"
        "&timezone=Europe/Helsinki",
        headers=key_headers(key),
    )
    assert response.status_code == 200


async def test_planetary_hours_beyond_66_degrees_is_refused_saying_why(
    client: Client, account: tuple[str, str]
) -> None:
    account_id, key = account
    before = await _balance(account_id)
    response = await client.get(
        "/api/v3/western/planetary-hours?date=2026-03-20&latitude=-66.01&longitude=25",
        headers=key_headers(key),
    )
    assert response.status_code == 400
    body = await response.get_json()
    assert _fields(body) == ["latitude"]
    assert "sunrise" in body["details"][0]["message"]
    assert await _balance(account_id) == before


async def test_planetary_hours_charge_one_credit(client: Client, account: tuple[str, str]) -> None:
    account_id, key = account
    before = await _balance(account_id)
    response = await client.get(
        "/api/v3/western/planetary-hours?date=2026-01-05&latitude=51.5&longitude=-0.12",
        headers=key_headers(key),
    )
    assert response.status_code == 200
    assert await _balance(account_id) == before - 1


async def test_planetary_hours_as_icalendar(client: Client, key: str) -> None:
    response = await client.get(
        "/api/v3/western/planetary-hours?date=2026-01-05&latitude=51.5&longitude=-0.12",
        headers=key_headers(key, Accept="text/calendar"),
    )
    assert response.content_type == "text/calendar; charset=utf-8"
    parsed = icalendar.Calendar.from_ical(await response.get_data())
    assert len(parsed.walk("VEVENT")) == 24


# --- forecast -------------------------------------------------------------------------------------


async def test_forecast_transits_and_charge(client: Client, account: tuple[str, str]) -> None:
    account_id, key = account
    before = await _balance(account_id)
    status, body = await _post(
        client, key, "western/forecast",
        {"subject": SUBJECT, "start": "2026-01-01", "end": "2026-01-31"},
    )  # fmt: skip
    assert status == 200
    assert await _balance(account_id) == before - 2
    assert body["transits"]
    for transit in body["transits"]:
        assert set(transit) >= {"transiting", "natal", "aspect", "enters", "exact", "leaves"}
        assert transit["aspect"] in {"conjunction", "sextile", "square", "trine", "opposition"}


async def test_forecast_window_of_367_days_is_refused(client: Client, key: str) -> None:
    status, body = await _post(
        client, key, "western/forecast",
        {"subject": SUBJECT, "start": "2026-01-01", "end": "2027-01-02"},
    )  # fmt: skip
    assert status == 400
    assert _fields(body) == ["end"]


async def test_forecast_orb_above_10_is_refused(client: Client, key: str) -> None:
    body = {"subject": SUBJECT, "start": "2026-01-01", "end": "2026-01-02"}
    status, _inside = await _post(
        client, key, "western/forecast", {**body, "orb_deg": {"saturn": 10}}
    )
    assert status == 200
    status, outside = await _post(
        client, key, "western/forecast", {**body, "orb_deg": {"saturn": 10.5}}
    )
    assert status == 400
    assert _fields(outside) == ["orb_deg"]


async def test_forecast_unknown_orb_body_is_refused(client: Client, key: str) -> None:
    status, body = await _post(
        client, key, "western/forecast",
        {"subject": SUBJECT, "start": "2026-01-01", "end": "2026-01-02", "orb_deg": {"moon": 1}},
    )  # fmt: skip
    assert status == 400
    assert _fields(body)[0].startswith("orb_deg")


async def test_forecast_bad_subject_time_is_named(client: Client, key: str) -> None:
    status, body = await _post(
        client, key, "western/forecast",
        {"subject": {**SUBJECT, "time": "25:00"}, "start": "2026-01-01", "end": "2026-01-02"},
    )  # fmt: skip
    assert status == 400
    assert _fields(body) == ["subject.time"]


async def test_forecast_as_icalendar(client: Client, key: str) -> None:
    response = await client.post(
        "/api/v3/western/forecast",
        json={"subject": SUBJECT, "start": "2026-01-01", "end": "2026-01-31"},
        headers=key_headers(key, Accept="text/calendar"),
    )
    assert response.content_type == "text/calendar; charset=utf-8"
    parsed = icalendar.Calendar.from_ical(await response.get_data())
    assert parsed.walk("VEVENT")


# --- estimates and OpenAPI ------------------------------------------------------------------------


async def test_estimate_of_sky_events(client: Client, key: str) -> None:
    response = await client.post(
        "/api/v3/estimates",
        json={"operation": "western.sky_events", "params": {}},
        headers=key_headers(key),
    )
    assert response.status_code == 200
    body = await response.get_json()
    assert body["estimated_credits"] == 2


async def test_openapi_documents_the_calendar_alternative(client: Client) -> None:
    document = await (await client.get("/openapi.json")).get_json()
    for path, method in (
        ("/api/v3/western/sky-events", "post"),
        ("/api/v3/western/planetary-hours", "get"),
        ("/api/v3/western/forecast", "post"),
    ):
        content = document["paths"][path][method]["responses"]["200"]["content"]
        assert set(content) == {"application/json", "text/calendar"}


# --- calendar feeds -------------------------------------------------------------------------------


async def _create_feed(client: Client, key: str, body: dict[str, Any]) -> tuple[int, Any]:
    response = await client.post("/api/v3/calendar-feeds", json=body, headers=key_headers(key))
    return response.status_code, await response.get_json()


async def test_calendar_feed_is_read_without_a_key_and_shows_in_usage(
    client: Client, account: tuple[str, str]
) -> None:
    account_id, key = account
    status, created = await _create_feed(
        client, key, {"kinds": ["lunation", "eclipse"], "name": "Moon"}
    )
    assert status == 201
    url = created["url"]
    assert "/calendar/calt_" in url
    assert url.endswith(".ics")
    assert created["webcal_url"].startswith("webcal://")
    path = url.split("://", 1)[1].split("/", 1)[1]
    before = await _balance(account_id)
    response = await client.get("/" + path)
    assert response.status_code == 200
    assert response.content_type == "text/calendar; charset=utf-8"
    assert response.headers["Cache-Control"] == "private, max-age=86400"
    etag = response.headers["ETag"]
    parsed = icalendar.Calendar.from_ical(await response.get_data())
    assert str(parsed["X-WR-CALNAME"]) == "Moon"
    starts = [v.decoded("DTSTART") for v in parsed.walk("VEVENT")]
    assert len(starts) > 40  # a year of lunations (~49) and the eclipses
    today = datetime.now(UTC)
    assert min(starts) < today < max(starts)
    again = await client.get("/" + path, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert await _balance(account_id) == before  # free
    reads = await LedgerEntry.filter(
        account_id=account_id, operation="western.calendar_feed_read"
    ).count()
    assert reads == 2
    usage = await client.get(
        f"/api/v3/usage?from={today.date().isoformat()}", headers=key_headers(key)
    )
    assert "western.calendar_feed_read" in str(await usage.get_json())
    listed = await client.get("/api/v3/calendar-feeds", headers=key_headers(key))
    (feed,) = (await listed.get_json())["feeds"]
    assert feed["read_count"] == 2
    assert "url" not in feed


async def test_revoked_calendar_feed_stops_answering(client: Client, key: str) -> None:
    _, created = await _create_feed(client, key, {"kinds": ["station"]})
    path = "/" + created["url"].split("://", 1)[1].split("/", 1)[1]
    assert (await client.get(path)).status_code == 200
    deleted = await client.delete(
        f"/api/v3/calendar-feeds/{created['feed']['id']}", headers=key_headers(key)
    )
    assert deleted.status_code == 204
    assert (await client.get(path)).status_code == 403
    listed = await client.get("/api/v3/calendar-feeds", headers=key_headers(key))
    assert (await listed.get_json())["feeds"] == []


async def test_unknown_calendar_feed_token_is_refused(client: Client) -> None:
    response = await client.get("/calendar/calt_" + "A" * 43 + ".ics")
    assert response.status_code == 403


async def test_forecast_feed_needs_a_profile(client: Client, key: str) -> None:
    status, body = await _create_feed(client, key, {"kind": "forecast"})
    assert status == 400
    assert _fields(body) == ["profile_id"]
    status, body = await _create_feed(
        client, key, {"kind": "forecast", "profile_id": "prof_" + "0" * 24}
    )
    assert status == 400
    assert _fields(body) == ["profile_id"]


async def test_forecast_feed_of_a_profile(client: Client, key: str) -> None:
    made = await client.post(
        "/api/v3/profiles", json={"name": "P", "birth": SUBJECT}, headers=key_headers(key)
    )
    profile_id = (await made.get_json())["profile"]["id"]
    status, created = await _create_feed(
        client, key, {"kind": "forecast", "profile_id": profile_id}
    )
    assert status == 201
    path = "/" + created["url"].split("://", 1)[1].split("/", 1)[1]
    response = await client.get(path)
    assert response.status_code == 200
    parsed = icalendar.Calendar.from_ical(await response.get_data())
    assert {str(v["CATEGORIES"].cats[0]) for v in parsed.walk("VEVENT")} == {"transit"}


async def test_sky_feed_refuses_forecast_fields(client: Client, key: str) -> None:
    status, body = await _create_feed(client, key, {"orb_deg": {"sun": 1}})
    assert status == 400
    assert _fields(body) == ["orb_deg"]
    status, body = await _create_feed(client, key, {"kinds": ["comet"]})
    assert status == 400
    assert _fields(body) == ["kinds[0]"]


async def test_test_key_feeds_are_test_objects(client: Client, account: tuple[str, str]) -> None:
    account_id, key = account
    test_key = await accounts.create_api_key(account_id, "test")
    _, created = await _create_feed(client, test_key, {"kinds": ["lunation"]})
    assert created["feed"]["livemode"] is False
    listed = await client.get("/api/v3/calendar-feeds", headers=key_headers(key))
    assert (await listed.get_json())["feeds"] == []
    path = "/" + created["url"].split("://", 1)[1].split("/", 1)[1]
    assert (await client.get(path)).status_code == 200
    reads = await LedgerEntry.filter(operation="western.calendar_feed_read").count()
    assert reads == 0


async def test_calendar_feed_reads_are_limited_per_address(
    client: Client, key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from astro_server.features.western import feed_routes

    monkeypatch.setattr(feed_routes, "READS_PER_ADDRESS_PER_MINUTE", 2)
    _, created = await _create_feed(client, key, {"kinds": ["eclipse"]})
    path = "/" + created["url"].split("://", 1)[1].split("/", 1)[1]
    assert [(await client.get(path)).status_code for _ in range(2)] == [200, 200]
    refused = await client.get(path)
    assert refused.status_code == 429
    assert "Retry-After" in refused.headers


async def test_forecast_feed_needs_the_profiles_scope(
    client: Client, account: tuple[str, str]
) -> None:
    account_id, key = account
    made = await client.post(
        "/api/v3/profiles", json={"name": "P", "birth": SUBJECT}, headers=key_headers(key)
    )
    profile_id = (await made.get_json())["profile"]["id"]
    western_only = await accounts.create_api_key(
        account_id, "live", scopes_wanted=frozenset({"western"})
    )
    status, body = await _create_feed(
        client, western_only, {"kind": "forecast", "profile_id": profile_id}
    )
    assert status == 403
    assert "profiles" in body["message"]
    status, _ = await _create_feed(client, western_only, {"kinds": ["eclipse"]})
    assert status == 201
