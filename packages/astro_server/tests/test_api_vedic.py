"""Vedic endpoints: chart, kundli matching (single and batch job), dasha, panchanga, remedies.

In-process app on SQLite (InMemoryBroker). Batch limits at their edges (0, 1, 50, 51 records),
record-level validation before any charge (400 naming the record index and field), per-record
errors inside a succeeded job, pricing per record, 401 and 402.
"""

from __future__ import annotations

import asyncio
from datetime import date
from typing import Any

import pytest
from _platform_support import key_headers, new_account
from quart.typing import TestClientProtocol as Client

from astro_calc.vedic import BirthSubject, kundli_match
from astro_server.platform.models.accounts import Account

# Tests here queue in-process jobs: the app waits for them before it stops.
pytestmark = pytest.mark.drain_jobs

BOY = {
    "date": "1990-05-17",
    "time": "10:30",
    "latitude": 28.61,
    "longitude": 77.21,
    "timezoneOffsetMinutes": 330,
    "ayanamsa": "lahiri",
}
GIRL = {
    "date": "1992-08-02",
    "time": "06:15:30",
    "latitude": 19.07,
    "longitude": 72.88,
    "timezoneOffsetMinutes": 330,
}


async def _poll(client: Client, key: str, job_id: str) -> dict[str, Any]:
    body: dict[str, Any] = {}
    for _ in range(500):
        response = await client.get(f"/api/v3/jobs/{job_id}", headers=key_headers(key))
        body = await response.get_json()
        if body["status"] in ("succeeded", "failed"):
            return body
        await asyncio.sleep(0.02)
    raise AssertionError(f"job stayed {body.get('status')}")


def _records(n: int) -> list[dict[str, Any]]:
    return [{"id": f"r{i}", "boy": BOY, "girl": GIRL} for i in range(n)]


async def test_kundli_matching_returns_the_spec_shape(client: Client) -> None:
    _id, key = await new_account("free", 5)
    response = await client.post(
        "/api/v3/vedic/kundli-matching", json={"boy": BOY, "girl": GIRL}, headers=key_headers(key)
    )
    assert response.status_code == 200
    body = await response.get_json()
    assert {"total", "max", "kootas", "boy", "girl", "doshas", "cancellations", "verdict"} <= set(
        body
    )
    assert body["max"] == 36.0
    assert [k["name"] for k in body["kootas"]][:2] == ["varna", "vashya"]
    assert set(body["boy"]) >= {"moon_sign", "nakshatra", "pada"}
    expected = kundli_match(
        BirthSubject(date(1990, 5, 17), "10:30", 28.61, 77.21, 330),
        BirthSubject(date(1992, 8, 2), "06:15:30", 19.07, 72.88, 330),
    )
    assert body["total"] == expected.total
    assert response.headers["X-Credits-Charged"] == "1"


@pytest.mark.parametrize("count", [1, 50])
async def test_batch_accepts_one_to_fifty_records_and_prices_per_record(
    client: Client, count: int
) -> None:
    account_id, key = await new_account("starter", 200)
    response = await client.post(
        "/api/v3/vedic/kundli-matching/batch",
        json={"records": _records(count)},
        headers=key_headers(key),
    )
    assert response.status_code == 202
    handle = await response.get_json()
    assert handle["status"] == "queued"
    assert handle["poll"] == f"/api/v3/jobs/{handle['job_id']}"
    assert response.headers["X-Credits-Charged"] == str(2 * count)
    job = await _poll(client, key, handle["job_id"])
    assert job["status"] == "succeeded"
    ids = [r["id"] for r in job["result"]["results"]]
    assert ids == [f"r{i}" for i in range(count)]
    assert all(r["status"] == "succeeded" for r in job["result"]["results"])
    assert (await Account.get(id=account_id)).credits == 200 - 2 * count


@pytest.mark.parametrize("count", [0, 51])
async def test_batch_refuses_zero_or_fifty_one_records_without_charge(
    client: Client, count: int
) -> None:
    account_id, key = await new_account("starter", 200)
    response = await client.post(
        "/api/v3/vedic/kundli-matching/batch",
        json={"records": _records(count)},
        headers=key_headers(key),
    )
    assert response.status_code == 400
    body = await response.get_json()
    assert body["details"][0]["field"] == "records"
    assert (await Account.get(id=account_id)).credits == 200


async def test_a_bad_record_is_named_before_anything_is_charged(client: Client) -> None:
    account_id, key = await new_account("starter", 200)
    records = _records(5)
    records[3] = {"id": "r3", "boy": BOY, "girl": {**GIRL, "time": "6:15"}}
    response = await client.post(
        "/api/v3/vedic/kundli-matching/batch", json={"records": records}, headers=key_headers(key)
    )
    assert response.status_code == 400
    body = await response.get_json()
    assert body["details"][0]["field"] == "records[3].girl.time"
    assert (await Account.get(id=account_id)).credits == 200


async def test_a_repeated_record_id_is_named_at_the_repeat(client: Client) -> None:
    account_id, key = await new_account("starter", 200)
    records = _records(3)
    records[2] = {**records[2], "id": records[0]["id"]}
    response = await client.post(
        "/api/v3/vedic/kundli-matching/batch", json={"records": records}, headers=key_headers(key)
    )
    assert response.status_code == 400
    body = await response.get_json()
    assert [d["field"] for d in body["details"]] == ["records[2].id"]
    assert "repeated" in body["details"][0]["message"]
    assert (await Account.get(id=account_id)).credits == 200


async def test_a_record_failing_in_the_calculation_gets_its_own_error(client: Client) -> None:
    _id, key = await new_account("starter", 200)
    # 02:30 on 2021-03-14 does not exist in New York (clocks jumped from 02:00 to 03:00).
    gap = {"date": "2021-03-14", "time": "02:30", "latitude": 40.7, "longitude": -74.0,
           "timezone": "America/New_York"}  # fmt: skip
    records = [*_records(2), {"id": "dst", "boy": BOY, "girl": gap}]
    response = await client.post(
        "/api/v3/vedic/kundli-matching/batch", json={"records": records}, headers=key_headers(key)
    )
    job = await _poll(client, key, (await response.get_json())["job_id"])
    assert job["status"] == "succeeded"
    results = {r["id"]: r for r in job["result"]["results"]}
    assert results["r0"]["status"] == results["r1"]["status"] == "succeeded"
    assert results["dst"]["status"] == "failed"
    assert results["dst"]["error"]["field"] == "records[2].girl.time"
    assert (job["result"]["succeeded"], job["result"]["failed"]) == (2, 1)


async def test_batch_needs_an_api_key_and_enough_credits(client: Client) -> None:
    response = await client.post(
        "/api/v3/vedic/kundli-matching/batch", json={"records": _records(1)}
    )
    assert response.status_code == 401
    _id, key = await new_account("starter", 3)
    response = await client.post(
        "/api/v3/vedic/kundli-matching/batch",
        json={"records": _records(2)},
        headers=key_headers(key),
    )
    assert response.status_code == 402
    assert (await response.get_json())["error"] == "payment_required"


async def test_chart_dasha_panchanga_and_remedies(client: Client) -> None:
    _id, key = await new_account("free", 10)
    h = key_headers(key)
    chart = await client.post("/api/v3/vedic/chart", json={"subject": BOY}, headers=h)
    assert chart.status_code == 200
    body = await chart.get_json()
    assert body["house_system"] == "whole_sign"
    assert len(body["grahas"]) == 9
    assert set(body["divisional_charts"]) >= {"D1", "D9", "D60"}
    dasha = await client.post(
        "/api/v3/vedic/dasha",
        json={"subject": BOY, "depth": 2, "at": "2024-01-01T00:00:00Z"},
        headers=h,
    )
    assert dasha.status_code == 200
    assert (await dasha.get_json())["current"]["mahadasha"]
    pan = await client.post(
        "/api/v3/vedic/panchanga",
        json={"date": "2023-11-13", "time": "10:00", "latitude": 28.6139, "longitude": 77.209,
              "timezoneOffsetMinutes": 330},
        headers=h,
    )  # fmt: skip
    assert pan.status_code == 200
    assert (await pan.get_json())["tithi"]["name"] == "Amavasya"
    rem = await client.post(
        "/api/v3/vedic/remedies", json={"subject": BOY, "language": "th"}, headers=h
    )
    assert rem.status_code == 200
    assert (await rem.get_json())["language"] == "th"


async def test_unknown_timezone_is_a_field_error(client: Client) -> None:
    _id, key = await new_account("free", 10)
    response = await client.post(
        "/api/v3/vedic/chart",
        json={"subject": {**BOY, "timezoneOffsetMinutes": None, "timezone": "Mars/Olympus"}},
        headers=key_headers(key),
    )
    assert response.status_code == 400
    assert (await response.get_json())["details"][0]["field"] == "subject.timezone"


async def test_openapi_documents_the_vedic_routes_and_required_fields(client: Client) -> None:
    spec = await (await client.get("/openapi.json")).get_json()
    paths = spec["paths"]
    for path in ("chart", "kundli-matching", "kundli-matching/batch", "dasha", "panchanga",
                 "remedies"):  # fmt: skip
        assert f"/api/v3/vedic/{path}" in paths
    subject = spec["components"]["schemas"]["BirthSubjectIn"]
    # latitude and longitude are required unless the subject names a place (issue 44).
    assert set(subject["required"]) == {"date", "time"}
    assert {"latitude", "longitude", "place"} <= set(subject["properties"])
    assert "required unless place" in subject["properties"]["latitude"]["description"]
    assert subject["properties"]["time"]["pattern"]


# 02:30 on 2021-03-14 does not exist in New York (clocks jumped from 02:00 to 03:00).
DST_GAP = {"date": "2021-03-14", "time": "02:30", "latitude": 40.7, "longitude": -74.0,
           "timezone": "America/New_York"}  # fmt: skip


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        # Past the ephemeris (years 100-2999); schemathesis found "at": 7428 answered with a 500.
        ("/api/v3/vedic/remedies", {"subject": BOY, "at": "7428-11-19T16:12:37Z"}, "at"),
        ("/api/v3/vedic/dasha", {"subject": BOY, "at": "3000-01-01T00:00:00Z"}, "at"),
        ("/api/v3/vedic/chart", {"subject": {**BOY, "date": "3000-01-01"}}, "subject.date"),
        ("/api/v3/vedic/chart", {"subject": DST_GAP}, "subject.time"),
        ("/api/v3/vedic/dasha", {"subject": DST_GAP}, "subject.time"),
        ("/api/v3/vedic/remedies", {"subject": DST_GAP}, "subject.time"),
        ("/api/v3/vedic/kundli-matching", {"boy": DST_GAP, "girl": GIRL}, "boy.time"),
        ("/api/v3/vedic/kundli-matching", {"boy": BOY, "girl": DST_GAP}, "girl.time"),
    ],
)
async def test_refused_fields_are_named_by_their_path(
    client: Client, path: str, body: dict[str, Any], field: str
) -> None:
    _id, key = await new_account("starter", 100)
    response = await client.post(path, json=body, headers=key_headers(key))
    assert response.status_code == 400
    assert (await response.get_json())["details"][0]["field"] == field
