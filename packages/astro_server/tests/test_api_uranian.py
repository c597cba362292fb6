"""Uranian endpoints: the spec's chart (endpoint 12) with every bound at its edges, midpoints,
planetary pictures, 401, 402, and the 500 body (``internal_server_error``, code ``internal``).

In-process app on SQLite. The body the server answers is compared with astro_calc's own result
for the same input, which the calculation tests check against pyswisseph.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import msgspec
import pytest
from _platform_support import key_headers, new_account
from quart.typing import TestClientProtocol as Client

from astro_calc.uranian import (
    PictureHits,
    uranian_chart,
    uranian_factors,
    uranian_midpoints,
    uranian_planetary_pictures,
)
from astro_server.platform.models.accounts import Account

CHART = "/api/v3/uranian/chart"
BODY: dict[str, Any] = {
    "birth_date": "1962-09-24",
    "birth_time": "16:05",
    "birth_lat": 53.55,
    "birth_lon": 9.99,
    "birth_place": "Hamburg",
    "dial_mode": 90,
    "orb_max": 1.0,
    "timezone": "Europe/Berlin",
}


@pytest.fixture
async def key() -> str:
    _id, api_key = await new_account("free", 1000)
    return api_key


async def test_chart_answers_the_spec_response_table(client: Client, key: str) -> None:
    response = await client.post(CHART, json=BODY, headers=key_headers(key))
    assert response.status_code == 200
    body = await response.get_json()
    assert set(body) == {"birth_place", "meta", "positions", "midpoints", "planetary_pictures"}
    assert body["birth_place"] == "Hamburg"
    assert body["meta"]["orb_max"] == 1.0
    assert body["meta"]["computed_at"].endswith("Z")
    assert body["meta"]["utc"] == "1962-09-24T15:05:00Z"
    assert body["meta"]["offset_minutes"] == 60
    assert set(body["positions"][0]) == {"name", "longitude", "dial_position", "is_hamburg"}
    assert sum(p["is_hamburg"] for p in body["positions"]) == 8
    assert len(body["midpoints"]) == 231
    assert set(body["midpoints"][0]) == {
        "pair", "longitude", "dial_position", "interpretation_en", "interpretation_th",
    }  # fmt: skip
    assert set(body["planetary_pictures"][0]) == {
        "factors", "dial_position", "orb_total", "interpretation_key", "interpretation_en",
        "interpretation_th",
    }  # fmt: skip
    expected = uranian_chart(
        dt.date(1962, 9, 24), "16:05", 53.55, 9.99, "Hamburg", timezone="Europe/Berlin"
    )
    assert [p["interpretation_key"] for p in body["planetary_pictures"]] == [
        p.interpretation_key for p in expected.planetary_pictures
    ]
    assert body["positions"][0]["longitude"] == pytest.approx(expected.positions[0].longitude)
    assert response.headers["X-Credits-Charged"] == "2"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("birth_lat", -90), ("birth_lat", 90), ("birth_lon", -180), ("birth_lon", 180),
        ("birth_place", "x"), ("birth_place", "x" * 200), ("dial_mode", 45), ("dial_mode", 22.5),
        ("dial_mode", 90.0), ("orb_max", 0.25), ("orb_max", 3), ("birth_date", "2999-12-31"),
    ],
)  # fmt: skip
async def test_values_on_the_bounds_are_accepted(
    client: Client, key: str, field: str, value: object
) -> None:
    response = await client.post(CHART, json={**BODY, field: value}, headers=key_headers(key))
    assert response.status_code == 200, await response.get_data(as_text=True)
    body = await response.get_json()
    if field == "dial_mode":
        assert all(0 <= p["dial_position"] < float(value) for p in body["positions"])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("birth_lat", -90.01), ("birth_lat", 90.01), ("birth_lon", -180.01), ("birth_lon", 180.01),
        ("birth_place", ""), ("birth_place", "x" * 201), ("dial_mode", 30), ("dial_mode", "90"),
        ("orb_max", 0.24), ("orb_max", 3.01), ("birth_time", "7:30"), ("birth_time", "07:30:00"),
        ("birth_date", "1962-13-01"), ("birth_date", "3000-01-01"), ("timezone", "Mars/Olympus"),
        # Each field has its documented JSON type (strict validation; lax pydantic took these):
        ("birth_lat", "53.55"), ("birth_date", 0), ("timezoneOffsetMinutes", False),
        ("timezoneOffsetMinutes", 1081),
    ],
)  # fmt: skip
async def test_values_past_the_bounds_are_400s_naming_the_field(
    client: Client, key: str, field: str, value: object
) -> None:
    account = await Account.get(id=(await _account_of(key)))
    before = account.credits
    response = await client.post(CHART, json={**BODY, field: value}, headers=key_headers(key))
    assert response.status_code == 400
    body = await response.get_json()
    assert body["error"] == "validation_error"
    assert [d["field"] for d in body["details"]] == [field]
    assert (await Account.get(id=account.id)).credits == before


async def test_time_matching_the_pattern_but_impossible_is_a_400(client: Client, key: str) -> None:
    response = await client.post(
        CHART, json={**BODY, "birth_time": "25:61"}, headers=key_headers(key)
    )
    assert response.status_code == 400
    assert (await response.get_json())["details"][0]["field"] == "birth_time"


async def test_a_local_time_skipped_by_daylight_saving_names_birth_time(
    client: Client, key: str
) -> None:
    body = {**BODY, "birth_date": "2021-03-28", "birth_time": "02:30", "timezone": "Europe/Berlin"}
    body.pop("timezoneOffsetMinutes", None)
    response = await client.post(CHART, json=body, headers=key_headers(key))
    assert response.status_code == 400
    assert (await response.get_json())["details"][0]["field"] == "birth_time"


@pytest.mark.parametrize(
    "missing", ["birth_date", "birth_time", "birth_lat", "birth_lon", "birth_place"]
)
async def test_required_fields(client: Client, key: str, missing: str) -> None:
    body = {k: v for k, v in BODY.items() if k != missing}
    response = await client.post(CHART, json=body, headers=key_headers(key))
    assert response.status_code == 400
    assert (await response.get_json())["details"][0]["field"] == missing


async def test_zone_from_coordinates_when_no_offset_or_zone(client: Client, key: str) -> None:
    body = {k: v for k, v in BODY.items() if k != "timezone"}
    response = await client.post(CHART, json=body, headers=key_headers(key))
    meta = (await response.get_json())["meta"]
    assert meta["timezone"] == "Europe/Berlin"
    assert meta["time_source"] == "coordinates"


async def test_midpoints_and_planetary_pictures_routes(client: Client, key: str) -> None:
    mids = await client.post("/api/v3/uranian/midpoints", json=BODY, headers=key_headers(key))
    assert mids.status_code == 200
    assert len((await mids.get_json())["midpoints"]) == 231
    assert mids.headers["X-Credits-Charged"] == "1"
    pics = await client.post(
        "/api/v3/uranian/planetary-pictures", json={**BODY, "dial_mode": 45, "orb_max": 0.5},
        headers=key_headers(key),
    )  # fmt: skip
    body = await pics.get_json()
    assert pics.status_code == 200
    assert "midpoints" not in body
    assert all(p["orb_total"] <= 0.5 for p in body["planetary_pictures"])


async def test_missing_key_is_401(client: Client) -> None:
    response = await client.post(CHART, json=BODY)
    assert response.status_code == 401
    assert (await response.get_json())["error"] == "unauthorized"


async def test_insufficient_credits_is_402(client: Client) -> None:
    _id, poor = await new_account("free", 1)
    response = await client.post(CHART, json=BODY, headers=key_headers(poor))
    assert response.status_code == 402
    assert (await response.get_json())["error"] == "payment_required"


async def test_calculation_failure_is_a_500_internal_and_refunded(
    client: Client, key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from astro_server.features.uranian import routes as api

    def broken(**_: object) -> None:
        raise RuntimeError("ephemeris exploded")

    monkeypatch.setattr(api, "uranian_factors", broken)
    account_id = await _account_of(key)
    before = (await Account.get(id=account_id)).credits
    response = await client.post(CHART, json=BODY, headers=key_headers(key))
    assert response.status_code == 500
    body = await response.get_json()
    assert (body["error"], body["code"]) == ("internal_server_error", "internal")
    assert "exploded" not in body["message"]
    assert (await Account.get(id=account_id)).credits == before


async def test_openapi_documents_the_spec_bounds(client: Client) -> None:
    doc = await (await client.get("/openapi.json")).get_json()
    op = doc["paths"][CHART]["post"]
    schema = op["requestBody"]["content"]["application/json"]["schema"]
    props = schema["properties"]
    assert props["birth_time"]["pattern"] == r"^\d{2}:\d{2}$"
    assert (props["birth_lat"]["minimum"], props["birth_lat"]["maximum"]) == (-90, 90)
    assert (props["birth_lon"]["minimum"], props["birth_lon"]["maximum"]) == (-180, 180)
    assert (props["birth_place"]["minLength"], props["birth_place"]["maxLength"]) == (1, 200)
    assert props["dial_mode"]["enum"] == [90, 45, 22.5]
    assert (props["orb_max"]["minimum"], props["orb_max"]["maximum"]) == (0.25, 3)
    assert {"401", "402", "500"} <= set(op["responses"])
    assert op["tags"] == ["Uranian"]


@pytest.mark.parametrize("seed", range(3))
def test_response_bodies_are_msgspecs_encoding_of_the_calculation_byte_for_byte(seed: int) -> None:
    """The server joins pre-encoded picture fragments instead of encoding structs: over random
    births, dials and orbs (including charts with no pictures) each body is exactly
    msgspec.json.encode of astro_calc's result for the same input."""
    from astro_server.features.uranian import routes as api

    rng = random.Random(seed)
    computed_at = dt.datetime(2025, 1, 2, 3, 4, 5, tzinfo=dt.UTC)
    for trial in range(8):
        kwargs = {
            "birth_date": dt.date(rng.randrange(1900, 2100), rng.randrange(1, 13), 15),
            "birth_time": f"{rng.randrange(24):02d}:{rng.randrange(60):02d}",
            "birth_lat": rng.uniform(-60, 60),
            "birth_lon": rng.uniform(-180, 180),
            "birth_place": rng.choice(["Hamburg", "กรุงเทพฯ", 'a "quoted" \\ place']),
            "dial_mode": (90.0, 45.0, 22.5)[trial % 3],
            "orb_max": rng.choice([0.25, 3.0, rng.uniform(0.25, 3.0)]),
            "timezone_offset_minutes": rng.randrange(-720, 841, 15),
            "computed_at": computed_at,
        }
        factors = uranian_factors(**kwargs)  # type: ignore[arg-type]
        assert api.chart_body(factors) == msgspec.json.encode(uranian_chart(**kwargs))  # type: ignore[arg-type]
        assert api.pictures_body(factors) == msgspec.json.encode(
            uranian_planetary_pictures(**kwargs)  # type: ignore[arg-type]
        )
        assert api.midpoints_body(factors) == msgspec.json.encode(uranian_midpoints(**kwargs))  # type: ignore[arg-type]
    # No picture at all: an empty array, as msgspec writes an empty tuple.
    assert msgspec.json.encode(api.pictures_json(PictureHits([], [], []))) == b"[]"


async def _account_of(key: str) -> str:
    from astro_server.platform.auth import credentials
    from astro_server.platform.models.accounts import ApiKey

    api_key = await ApiKey.get(key_hash=credentials.digest(key))
    return str(api_key.account_id)  # type: ignore[attr-defined]
