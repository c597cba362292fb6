"""Western endpoints: natal, synastry, composite, returns, progressions, transits.

In-process app on SQLite. Bodies are compared with astro_calc's result for the same input (the
calculation tests check those against pyswisseph, kerykeion and published charts); every request
limit is tried at and past its edge; 401 and 402.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from _platform_support import key_headers, new_account
from quart.typing import TestClientProtocol as Client

from astro_calc.western import BirthSubject, natal_chart

SUBJECT: dict[str, Any] = {
    "date": "1961-07-01",
    "time": "19:45",
    "latitude": 52.8333,
    "longitude": 0.5,
    "timezone": "Europe/London",
}
OTHER: dict[str, Any] = {
    "date": "1948-11-14",
    "time": "21:14",
    "latitude": 51.501,
    "longitude": -0.142,
    "timezoneOffsetMinutes": 0,
}


@pytest.fixture
async def key() -> str:
    _id, api_key = await new_account("free", 1000)
    return api_key


async def _post(client: Client, key: str, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    response = await client.post(f"/api/v3/western/{path}", json=body, headers=key_headers(key))
    return response.status_code, await response.get_json()


async def test_natal_answers_the_issue_shape(client: Client, key: str) -> None:
    status, body = await _post(client, key, "natal", {"subject": SUBJECT})
    assert status == 200
    assert set(body) >= {"planets", "houses", "angles", "aspects", "meta"}
    sun = body["planets"][0]
    assert set(sun) >= {
        "name", "longitude", "latitude", "speed", "sign", "sign_degree", "house", "retrograde",
    }  # fmt: skip
    assert set(body["houses"][0]) >= {"number", "cusp", "sign"}
    assert set(body["angles"]) == {"ascendant", "midheaven", "descendant", "imum_coeli", "vertex"}
    assert body["meta"]["utc"] == "1961-07-01T18:45:00Z"
    assert body["meta"]["offset_minutes"] == 60
    assert body["meta"]["house_system"] == "P"
    assert body["meta"]["ephemeris"] == "moshier"
    expected = natal_chart(
        BirthSubject(dt.date(1961, 7, 1), "19:45", 52.8333, 0.5, timezone="Europe/London")
    )
    assert sun["longitude"] == pytest.approx(expected.planet("sun").longitude)
    assert body["angles"]["ascendant"]["longitude"] == pytest.approx(
        expected.angles.ascendant.longitude
    )


async def test_natal_options(client: Client, key: str) -> None:
    status, body = await _post(
        client, key, "natal",
        {"subject": SUBJECT, "house_system": "W", "bodies": ["sun", "moon"],
         "include_minor": False, "orbs": {"trine": 1.0}},
    )  # fmt: skip
    assert status == 200
    assert [p["name"] for p in body["planets"]] == ["sun", "moon"]
    assert body["meta"]["house_system"] == "W"
    assert all(h["cusp"] % 30 == pytest.approx(0, abs=1e-9) for h in body["houses"])


async def test_polar_placidus_falls_back_with_a_warning(client: Client, key: str) -> None:
    status, body = await _post(
        client, key, "natal", {"subject": {**SUBJECT, "latitude": 78.22, "longitude": 15.65}}
    )
    assert status == 200
    assert body["meta"]["house_system"] == "O"
    assert body["meta"]["requested_house_system"] == "P"
    assert any("Porphyry" in w for w in body["meta"]["warnings"])


@pytest.mark.parametrize(
    ("subject_override", "field"),
    [
        ({"latitude": 90.01}, "subject.latitude"),
        ({"latitude": -90.01}, "subject.latitude"),
        ({"longitude": 180.01}, "subject.longitude"),
        ({"longitude": -180.01}, "subject.longitude"),
        ({"time": "24:00"}, "subject.time"),
        ({"time": "7:45"}, "subject.time"),
        ({"timezone": "Nowhere/City"}, "subject.timezone"),
        ({"timezoneOffsetMinutes": -1081}, "subject.timezoneOffsetMinutes"),
        ({"timezoneOffsetMinutes": 1081}, "subject.timezoneOffsetMinutes"),
        ({"fold": 2}, "subject.fold"),
        ({"date": "3000-01-01"}, "subject.date"),  # past the ephemeris (years 100-2999)
        ({"date": "0099-12-31"}, "subject.date"),
    ],
)
async def test_subject_limits_are_field_level_400s(
    client: Client, key: str, subject_override: dict[str, Any], field: str
) -> None:
    status, body = await _post(client, key, "natal", {"subject": {**SUBJECT, **subject_override}})
    assert status == 400
    assert body["details"][0]["field"] == field


@pytest.mark.parametrize(
    "subject_override",
    [{"latitude": 90}, {"latitude": -90}, {"longitude": 180}, {"longitude": -180},
     {"timezoneOffsetMinutes": 1080, "timezone": None}, {"time": "23:59:59"},
     {"date": "2999-12-31"}, {"date": "0100-01-01"}],
)  # fmt: skip
async def test_subject_values_on_the_limits_are_accepted(
    client: Client, key: str, subject_override: dict[str, Any]
) -> None:
    status, _body = await _post(client, key, "natal", {"subject": {**SUBJECT, **subject_override}})
    assert status == 200


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"house_system": "Z"}, "house_system"),
        ({"bodies": []}, "bodies"),
        ({"bodies": ["sun", "vulcan"]}, "bodies.1"),
        ({"orbs": {"trine": 15.5}}, "orbs"),
        ({"orbs": {"novile": 1}}, "orbs.novile.[key]"),
    ],
)
async def test_natal_option_limits(
    client: Client, key: str, extra: dict[str, Any], field: str
) -> None:
    status, body = await _post(client, key, "natal", {"subject": SUBJECT, **extra})
    assert status == 400
    assert body["details"][0]["field"].startswith(field.split(".")[0])


async def test_nonexistent_local_time_is_a_400_naming_time(client: Client, key: str) -> None:
    subject = {"date": "2021-03-28", "time": "02:30", "latitude": 52.52, "longitude": 13.4,
               "timezone": "Europe/Berlin"}  # fmt: skip
    status, body = await _post(client, key, "natal", {"subject": subject})
    assert status == 400
    assert body["details"][0]["field"] == "subject.time"


async def test_synastry(client: Client, key: str) -> None:
    status, body = await _post(client, key, "synastry", {"subject_a": SUBJECT, "subject_b": OTHER})
    assert status == 200
    assert 0 <= body["compatibility"]["score"] <= 100
    assert body["compatibility"]["method"] == "harmonious_share_v1"
    assert {o["owner"] for o in body["house_overlays"]} == {"a", "b"}
    assert body["meta"]["subject_b"]["utc"] == "1948-11-14T21:14:00Z"


async def test_composite_midpoint_and_davison(client: Client, key: str) -> None:
    status, body = await _post(client, key, "composite", {"subject_a": SUBJECT, "subject_b": OTHER})
    assert status == 200
    assert body["meta"]["method"] == "midpoint"
    status, body = await _post(
        client, key, "composite", {"subject_a": SUBJECT, "subject_b": OTHER, "method": "davison"}
    )
    assert status == 200
    assert body["meta"]["davison"]["utc"].startswith("1955-")


async def test_solar_and_lunar_returns(client: Client, key: str) -> None:
    status, body = await _post(
        client, key, "returns", {"subject": SUBJECT, "kind": "solar", "year": 2025}
    )
    assert status == 200
    assert body["kind"] == "solar"
    assert body["return_utc"].startswith("2025-07-0")
    status, body = await _post(
        client, key, "returns",
        {"subject": SUBJECT, "kind": "lunar", "after": "2025-01-01T00:00:00Z",
         "latitude": 13.75, "longitude": 100.5},
    )  # fmt: skip
    assert status == 200
    assert body["chart"]["meta"]["timezone"] == "Asia/Bangkok"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"kind": "solar"}, "year"),
        ({"kind": "lunar"}, "after"),
        ({"kind": "solar", "year": 0}, "year"),
        ({"kind": "solar", "year": 3000}, "year"),  # found by schemathesis: 9998 was a 500
        ({"kind": "lunar", "after": "3000-01-01T00:00:00Z"}, "after"),
        ({"kind": "weekly"}, "kind"),
        ({"kind": "solar", "year": 2020, "latitude": 91}, "latitude"),
    ],
)
async def test_returns_limits(client: Client, key: str, body: dict[str, Any], field: str) -> None:
    status, answer = await _post(client, key, "returns", {"subject": SUBJECT, **body})
    assert status == 400
    assert answer["details"][0]["field"] == field


async def test_progressions_secondary_and_solar_arc(client: Client, key: str) -> None:
    status, body = await _post(
        client, key, "progressions", {"subject": SUBJECT, "target_date": "2001-07-01T00:00:00Z"}
    )
    assert status == 200
    assert body["method"] == "secondary"
    assert body["solar_arc"] is None
    assert 37 < body["secondary"]["solar_arc"] < 41
    status, body = await _post(
        client, key, "progressions",
        {"subject": SUBJECT, "target_date": "2001-07-01T00:00:00Z", "method": "solar_arc"},
    )  # fmt: skip
    assert status == 200
    assert body["secondary"] is None
    assert len(body["solar_arc"]["points"]) >= 10


@pytest.mark.parametrize(("orb", "ok"), [(0, False), (0.01, True), (5, True), (5.01, False)])
async def test_progressions_orb_limits(client: Client, key: str, orb: float, ok: bool) -> None:
    status, _ = await _post(
        client, key, "progressions",
        {"subject": SUBJECT, "target_date": "2001-07-01T00:00:00Z", "orb_deg": orb},
    )  # fmt: skip
    assert (status == 200) is ok


async def test_progressions_before_birth_is_a_400(client: Client, key: str) -> None:
    status, body = await _post(
        client, key, "progressions", {"subject": SUBJECT, "target_date": "1950-01-01T00:00:00Z"}
    )
    assert status == 400
    assert body["details"][0]["field"] == "target_date"


async def test_transits_over_a_month(client: Client, key: str) -> None:
    status, body = await _post(
        client, key, "transits",
        {"subject": SUBJECT, "start": "2024-03-01T00:00:00Z", "end": "2024-04-01T00:00:00Z",
         "transiting_bodies": ["sun", "mars"]},
    )  # fmt: skip
    assert status == 200
    times = [e["julian_day"] for e in body["events"]]
    assert times == sorted(times)
    assert {e["kind"] for e in body["events"]} >= {"aspect", "ingress"}
    assert ("sun", "aries") in {
        (e["transiting"], e["sign"]) for e in body["events"] if e["kind"] == "ingress"
    }


@pytest.mark.parametrize(
    ("end", "ok"), [("2025-01-01T00:00:00Z", True), ("2025-01-01T00:00:01Z", False)]
)
async def test_transit_range_limit_is_366_days(
    client: Client, key: str, end: str, ok: bool
) -> None:
    status, body = await _post(
        client, key, "transits",
        {"subject": SUBJECT, "start": "2024-01-01T00:00:00Z", "end": end,
         "transiting_bodies": ["pluto"]},
    )  # fmt: skip
    assert (status == 200) is ok
    if not ok:
        assert body["details"][0]["field"] == "end"


@pytest.mark.parametrize(
    ("path", "extra", "field"),
    [
        ("transits", {"start": "2999-12-31T00:00:00Z", "end": "3000-01-02T00:00:00Z"}, "end"),
        ("progressions", {"target_date": "3000-01-01T00:00:00Z"}, "target_date"),
    ],
)
async def test_instants_past_the_ephemeris_are_400s(
    client: Client, key: str, path: str, extra: dict[str, Any], field: str
) -> None:
    status, body = await _post(client, key, path, {"subject": SUBJECT, **extra})
    assert status == 400
    assert [d["field"] for d in body["details"]] == [field]


async def test_missing_key_is_401(client: Client) -> None:
    response = await client.post("/api/v3/western/natal", json={"subject": SUBJECT})
    assert response.status_code == 401


async def test_insufficient_credits_is_402(client: Client) -> None:
    _id, poor = await new_account("free", 1)
    status, body = await _post(client, poor, "synastry", {"subject_a": SUBJECT, "subject_b": OTHER})
    assert status == 402
    assert body["error"] == "payment_required"


async def test_every_western_route_is_documented_under_the_western_tag(client: Client) -> None:
    doc = await (await client.get("/openapi.json")).get_json()
    for path in ("natal", "synastry", "composite", "returns", "progressions", "transits"):
        op = doc["paths"][f"/api/v3/western/{path}"]["post"]
        assert op["tags"] == ["Western"]
        assert "200" in op["responses"]
        assert "402" in op["responses"]
