"""The OpenAPI document describes the Vedic and Thai response bodies exactly.

Each route is called in-process (SQLite, InMemoryBroker) and its real JSON body is checked
against the schema the document gives for that status, strictly: every key the body has is
documented, every required key is present, and types, enums, nullability and date formats
agree. The same is done for the batch's 202 job handle and for a 400. Every ``$ref`` in the
document resolves to a component.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from _platform_support import key_headers, new_account
from quart.typing import TestClientProtocol as Client

# Tests here queue in-process jobs: the app waits for them before it stops.
pytestmark = pytest.mark.drain_jobs

SUBJECT = {
    "date": "1990-05-17",
    "time": "10:30",
    "latitude": 28.61,
    "longitude": 77.21,
    "timezoneOffsetMinutes": 330,
}
GIRL = {"date": "1992-08-02", "time": "06:15:30", "latitude": 19.07, "longitude": 72.88}
THAI_SUBJECT = {
    "date": "1990-05-16",
    "time": "19:30",
    "latitude": 13.75,
    "longitude": 100.5,
    "timezone": "Asia/Bangkok",
}

# (path, body) for every synchronous route; bodies chosen so optional parts are filled
# (dasha ``current``, festival ``lunar_date`` and ``instant_utc``, the wheel's ``yearly``).
ROUTES = [
    ("/api/v3/vedic/chart", {"subject": SUBJECT}),
    ("/api/v3/vedic/chart", {"subject": SUBJECT, "node": "true", "house_system": "P"}),
    ("/api/v3/vedic/kundli-matching", {"boy": SUBJECT, "girl": GIRL, "school": "south"}),
    ("/api/v3/vedic/dasha", {"subject": SUBJECT, "at": "2024-01-01T00:00:00Z"}),
    ("/api/v3/vedic/dasha", {"subject": SUBJECT, "depth": 1}),
    ("/api/v3/vedic/panchanga", {**SUBJECT, "sunrise": "disc_center"}),
    ("/api/v3/vedic/remedies", {"subject": SUBJECT, "at": "2024-01-01T00:00:00Z"}),
    ("/api/v3/vedic/remedies", {"subject": SUBJECT, "language": "th"}),
    ("/api/v3/thai/calendar", {"date": "2024-02-24"}),
    ("/api/v3/thai/calendar", {"year": 2023}),
    ("/api/v3/thai/festivals", {"year": 2024}),
    (
        "/api/v3/thai/lunar",
        {"moment": "2024-04-08T18:21:00Z", "latitude": 13.75, "longitude": 100.5},
    ),
    ("/api/v3/thai/wheel", {"subject": THAI_SUBJECT}),
    ("/api/v3/thai/wheel", {"subject": THAI_SUBJECT, "on_date": "2025-06-01"}),
    (
        "/api/v3/thai/auspicious-times",
        {
            "purpose": "wedding",
            "start_date": "2024-01-01",
            "end_date": "2024-01-31",
            "birth_date": "1990-05-16",
        },
    ),
]
ERROR_STATUSES = {"400", "401", "402", "429"}


@pytest.fixture
async def document(client: Client) -> dict[str, Any]:
    response = await client.get("/openapi.json")
    assert response.status_code == 200
    body: dict[str, Any] = await response.get_json()
    return body


def _resolve(schema: dict[str, Any], doc: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        name = schema["$ref"].removeprefix("#/components/schemas/")
        schema = doc["components"]["schemas"][name]
    return schema


def mismatches(value: Any, schema: dict[str, Any], doc: dict[str, Any], where: str) -> list[str]:
    """Where ``value`` disagrees with ``schema`` (strict: undocumented keys are reported)."""
    schema = _resolve(schema, doc)
    if "anyOf" in schema:
        found = [mismatches(value, alt, doc, where) for alt in schema["anyOf"]]
        if any(not f for f in found):
            return []
        return [f"{where}: matches no alternative ({'; '.join(p for f in found for p in f)})"]
    if "enum" in schema and value not in schema["enum"]:
        return [f"{where}: {value!r} is not one of {schema['enum']}"]
    kind = schema.get("type")
    checks = {
        "null": lambda v: v is None,
        "boolean": lambda v: isinstance(v, bool),
        "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
        "string": lambda v: isinstance(v, str),
        "array": lambda v: isinstance(v, list),
        "object": lambda v: isinstance(v, dict),
    }
    if kind not in checks:
        return [f"{where}: the document gives no type ({schema})"]
    if not checks[kind](value):
        return [f"{where}: {value!r} is not {kind}"]
    problems: list[str] = []
    if kind == "string" and schema.get("format") in ("date", "date-time"):
        parse = dt.date if schema["format"] == "date" else dt.datetime
        try:
            parse.fromisoformat(value)
        except ValueError:
            problems.append(f"{where}: {value!r} is not a {schema['format']}")
    elif kind == "array":
        for i, item in enumerate(value):
            problems += mismatches(item, schema.get("items", {}), doc, f"{where}[{i}]")
    elif kind == "object" and "properties" in schema:
        properties: dict[str, Any] = schema["properties"]
        problems += [f"{where}.{k}: undocumented" for k in sorted(value.keys() - properties)]
        problems += [f"{where}.{k}: required, absent" for k in schema.get("required", [])
                     if k not in value]  # fmt: skip
        for key in value.keys() & properties.keys():
            problems += mismatches(value[key], properties[key], doc, f"{where}.{key}")
    elif kind == "object":
        values = schema.get("additionalProperties")
        if not isinstance(values, dict):
            return [f"{where}: an object without documented properties or values"]
        for key, item in value.items():
            problems += mismatches(item, values, doc, f"{where}{{{key}}}")
    return problems


def _response_schema(doc: dict[str, Any], path: str, status: str) -> dict[str, Any]:
    response = doc["paths"][path]["post"]["responses"][status]
    schema: dict[str, Any] = response["content"]["application/json"]["schema"]
    return schema


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                yield value
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from _refs(item)


def test_the_checker_reports_undocumented_missing_and_mistyped_fields() -> None:
    doc: dict[str, Any] = {"components": {"schemas": {}}}
    schema = {
        "type": "object",
        "properties": {"n": {"type": "integer"}, "at": {"type": "string", "format": "date"}},
        "required": ["n", "at"],
    }
    assert mismatches({"n": 1, "at": "2024-01-01"}, schema, doc, "$") == []
    assert mismatches({"n": True, "x": 1}, schema, doc, "$") == [
        "$.x: undocumented",
        "$.at: required, absent",
        "$.n: True is not integer",
    ]
    assert mismatches({"n": 1, "at": "01/01/2024"}, schema, doc, "$") == [
        "$.at: '01/01/2024' is not a date"
    ]


async def test_every_ref_in_the_document_resolves(document: dict[str, Any]) -> None:
    components = document["components"]["schemas"]
    missing = {
        r for r in _refs(document) if r.removeprefix("#/components/schemas/") not in components
    }
    assert not missing


async def test_every_vedic_and_thai_route_documents_success_and_errors(
    document: dict[str, Any],
) -> None:
    # The picture routes answer an image (their 200 is checked in test_api_pictures.py).
    pictures = {"/api/v3/vedic/chart/diagram", "/api/v3/thai/wheel/diagram"}
    paths = {p for p, _ in ROUTES} | {"/api/v3/vedic/kundli-matching/batch"} | pictures
    assert {p for p in document["paths"] if p.startswith(("/api/v3/vedic/", "/api/v3/thai/"))} == (
        paths
    )
    for path in paths:
        responses = document["paths"][path]["post"]["responses"]
        success = "202" if path.endswith("/batch") else "200"
        assert success in responses, path
        assert set(responses) >= ERROR_STATUSES, path
        for status in ERROR_STATUSES:
            error = _resolve(_response_schema(document, path, status), document)
            assert error["required"] == ["error", "message"], (path, status)
            assert "details" in error["properties"], (path, status)


@pytest.mark.parametrize(("path", "body"), ROUTES)
async def test_the_body_is_exactly_the_documented_schema(
    client: Client, document: dict[str, Any], path: str, body: dict[str, Any]
) -> None:
    _account, key = await new_account("free", 10)
    response = await client.post(path, json=body, headers=key_headers(key))
    assert response.status_code == 200, await response.get_data()
    schema = _response_schema(document, path, "200")
    assert mismatches(await response.get_json(), schema, document, "$") == []


async def test_optional_parts_are_filled_by_these_requests(client: Client) -> None:
    # So the schema test above sees the nullable and defaulted fields with values, not only null.
    _account, key = await new_account("free", 10)

    async def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
        response = await client.post(path, json=body, headers=key_headers(key))
        result: dict[str, Any] = await response.get_json()
        return result

    dasha = await post(*ROUTES[3])
    assert dasha["current"] is not None
    assert dasha["mahadashas"][0]["sub_periods"][0]["sub_periods"]
    festivals = (await post(*ROUTES[10]))["festivals"]
    assert any(f["instant_utc"] for f in festivals)
    assert any(f["lunar_date"] for f in festivals)
    assert (await post(*ROUTES[13]))["wheel"]["yearly"] is not None
    found = await post(*ROUTES[14])
    assert found["auspicious_days"]
    assert any(day["windows"] for day in found["auspicious_days"])


async def test_the_batch_job_handle_is_the_documented_202(
    client: Client, document: dict[str, Any]
) -> None:
    path = "/api/v3/vedic/kundli-matching/batch"
    _account, key = await new_account("starter", 10)  # the batch needs the starter tier
    records = [{"id": "a", "boy": SUBJECT, "girl": GIRL}]
    response = await client.post(path, json={"records": records}, headers=key_headers(key))
    assert response.status_code == 202
    body = await response.get_json()
    assert mismatches(body, _response_schema(document, path, "202"), document, "$") == []


async def test_a_field_error_is_the_documented_400(
    client: Client, document: dict[str, Any]
) -> None:
    path = "/api/v3/thai/festivals"
    _account, key = await new_account("free", 10)
    response = await client.post(path, json={"year": 1899}, headers=key_headers(key))
    assert response.status_code == 400
    body = await response.get_json()
    assert [d["field"] for d in body["details"]] == ["year"]
    assert mismatches(body, _response_schema(document, path, "400"), document, "$") == []
