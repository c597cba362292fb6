"""The OpenAPI 3.1 document: security schemes, tag groups, operation ids, error responses."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from _platform_support import running_app, settings_for

from astro_server.app import TAG_GROUPS

SPEC_TAG_GROUPS = {
    "Western",
    "Vedic",
    "Thai Astrology",
    "Chinese & Korean",
    "Horoscopes",
    "Reports",
    "Tarot & Numerology",
    "Uranian",
    "Developer workflow",
    "Visual readings",
    "Customer reports",
    "Customer delivery",
    "Customer visual readings",
    "Cultural Intelligence",
}


@pytest.fixture
async def document(tmp_path: Path) -> dict[str, Any]:
    settings = settings_for(f"sqlite://{tmp_path / 'db.sqlite3'}", tmp_path)
    async with running_app(settings) as app:
        response = await app.test_client().get("/openapi.json")
        assert response.status_code == 200
        body: dict[str, Any] = await response.get_json()
        docs = await app.test_client().get("/docs")
        assert docs.status_code == 200
        return body


def _operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, op)
        for path, item in document["paths"].items()
        for method, op in item.items()
        if method in {"get", "post", "put", "patch", "delete"}
    ]


def _resolve(document: dict[str, Any], media: dict[str, Any]) -> dict[str, Any]:
    schema: dict[str, Any] = media["schema"]
    ref = schema.get("$ref")
    if ref is None:
        return schema
    resolved: dict[str, Any] = document["components"]["schemas"][ref.rsplit("/", 1)[-1]]
    return resolved


def test_document_is_openapi_3_1_with_the_spec_version(document: dict[str, Any]) -> None:
    assert document["openapi"].startswith("3.1")
    assert document["info"]["version"] == "1.1.0"


def test_security_schemes_cover_both_credential_kinds(document: dict[str, Any]) -> None:
    schemes = document["components"]["securitySchemes"]
    assert schemes["ApiKeyHeader"] == {"type": "apiKey", "in": "header", "name": "X-API-Key"}
    assert schemes["ApiKeyBearer"]["scheme"] == "bearer"
    assert schemes["SessionBearer"]["bearerFormat"] == "service_sess_*"


def test_the_spec_tag_groups_are_declared(document: dict[str, Any]) -> None:
    declared = {t["name"] for t in document["tags"]}
    assert declared >= SPEC_TAG_GROUPS
    assert {t["name"] for t in TAG_GROUPS} == declared


def test_platform_operations_have_ids_tags_and_security(document: dict[str, Any]) -> None:
    ops = {(p, m): op for p, m, op in _operations(document)}
    expected = {
        ("/api/v3/estimates", "post"): "createEstimate",
        ("/api/v3/jobs/{job_id}", "get"): "getJob",
        ("/api/v3/jobs", "get"): "listJobs",
        ("/api/v3/jobs/{job_id}/cancel", "post"): "cancelJob",
        ("/auth/login", "post"): "login",
        ("/auth/logout", "post"): "logout",
    }
    for key, operation_id in expected.items():
        assert ops[key]["operationId"] == operation_id
    assert ops[("/api/v3/jobs/{job_id}", "get")]["tags"] == ["Developer workflow"]
    assert ops[("/api/v3/jobs/{job_id}", "get")]["security"] == [
        {"ApiKeyHeader": []},
        {"ApiKeyBearer": []},
    ]
    assert ops[("/auth/logout", "post")]["security"] == [{"SessionBearer": []}]


def test_every_operation_id_is_unique_and_every_operation_is_tagged(
    document: dict[str, Any],
) -> None:
    ids = [op["operationId"] for _, _, op in _operations(document)]
    assert len(ids) == len(set(ids))
    for path, method, op in _operations(document):
        assert op.get("tags"), f"{method.upper()} {path} has no tag group"


def test_authenticated_operations_document_their_error_responses(
    document: dict[str, Any],
) -> None:
    for path, method, op in _operations(document):
        if "security" not in op:
            continue
        for status in ("401", "429"):
            assert status in op["responses"], f"{method.upper()} {path} lacks {status}"
            schema = _resolve(document, op["responses"][status]["content"]["application/json"])
            assert {"error", "message", "code", "request_id"} <= set(schema["properties"])
            assert schema["required"] == ["error", "message"]


def test_every_operation_documents_the_errors_it_can_answer(document: dict[str, Any]) -> None:
    # Found by schemathesis's status-code check: most operations answered 400, 413 and 415
    # without documenting them.
    for path, method, op in _operations(document):
        # 503: a dependency down (issue 29), answered by every operation that needs one.
        expected = {"500", "503"}
        if "requestBody" in op:
            expected |= {"400", "413", "415"}
        elif op.get("parameters"):
            expected.add("400")
        missing = expected - set(op["responses"])
        assert not missing, f"{method.upper()} {path} lacks {sorted(missing)}"
        for status in expected:
            schema = _resolve(document, op["responses"][status]["content"]["application/json"])
            assert {"error", "message", "request_id"} <= set(schema["properties"])


def test_naive_local_times_are_not_documented_as_rfc3339(document: dict[str, Any]) -> None:
    # BaZi's pillar time is a wall-clock reading without an offset (schemathesis: the response
    # violated its documented "date-time" format).
    local = document["components"]["schemas"]["ChinesePillarTime"]["properties"]["local"]
    assert local == {"type": "string"} or "format" not in local


def test_path_parameters_are_named_and_patterned_as_the_spec_has_them(
    document: dict[str, Any],
) -> None:
    # Spec endpoint 3: PATCH /v1/horoscope-feed-subscriptions/{id}, id ^hfs_[a-f0-9]{24}$.
    patch = document["paths"]["/v1/horoscope-feed-subscriptions/{id}"]["patch"]
    (parameter,) = [p for p in patch["parameters"] if p["in"] == "path"]
    assert parameter["name"] == "id"
    assert parameter["schema"]["pattern"] == "^hfs_[a-f0-9]{24}$"
    job = document["paths"]["/api/v3/jobs/{job_id}"]["get"]
    assert job["parameters"][0]["schema"]["pattern"] == "^job_[a-f0-9]{24}$"
    assert not any("sub_id" in path for path in document["paths"])


def test_operations_answering_204_document_it(document: dict[str, Any]) -> None:
    delete = document["paths"]["/v1/horoscope-feed-subscriptions/{id}"]["delete"]
    assert "204" in delete["responses"]
    assert "204" in document["paths"]["/auth/logout"]["post"]["responses"]


# Whole-document rules (issue 16): they hold every operation, including routes added later.


def test_every_operation_has_a_summary_and_a_description(document: dict[str, Any]) -> None:
    for path, method, op in _operations(document):
        where = f"{method.upper()} {path}"
        summary, description = op.get("summary", ""), op.get("description", "")
        assert summary.strip(), f"{where} has no summary"
        assert description.strip(), f"{where} has no description"
        assert description != summary, f"{where}: the description repeats the summary"
        assert "\n" not in summary, f"{where}: the summary is one line"
        assert not summary.endswith("."), f"{where}: the summary is a title, no full stop"
        assert "Credential:" in description, f"{where}: the description names the credential"
        for text in (summary, description):
            assert "``" not in text, f"{where}: RST literal in {text!r}"


def test_every_error_response_refers_to_the_one_json_error_schema(
    document: dict[str, Any],
) -> None:
    schemas = document["components"]["schemas"]
    assert "ErrorBody" not in schemas
    assert set(schemas["JsonError"]["required"]) == {"error", "message"}
    assert schemas["JsonError"]["properties"]["details"]["anyOf"][0]["items"] == {
        "$ref": "#/components/schemas/FieldError"
    }
    for path, method, op in _operations(document):
        for status, response in op["responses"].items():
            if int(status) < 400:
                continue
            schema = response["content"]["application/json"]["schema"]
            assert schema == {"$ref": "#/components/schemas/JsonError"}, (
                f"{method.upper()} {path} {status}"
            )


def test_the_document_names_a_server(document: dict[str, Any]) -> None:
    assert document["servers"] == [
        {"url": "/", "description": "The server that serves this document (same origin)"}
    ]


def _properties(node: Any, where: str = "") -> list[tuple[str, str, dict[str, Any]]]:
    found: list[tuple[str, str, dict[str, Any]]] = []
    if isinstance(node, dict):
        for name, schema in (node.get("properties") or {}).items():
            if isinstance(schema, dict):
                found.append((where, name, schema))
        for key, value in node.items():
            found += _properties(value, f"{where}/{key}")
    elif isinstance(node, list):
        for value in node:
            found += _properties(value, where)
    return found


def _formats(schema: dict[str, Any]) -> set[str | None]:
    variants = schema.get("anyOf") or [schema]
    return {v.get("format") for v in variants if v.get("type") != "null"}


def test_instants_are_documented_as_date_time(document: dict[str, Any]) -> None:
    # Every field named *_at is an instant (created_at, expires_at, ...), in every schema,
    # request or response, pydantic or mirrored msgspec.
    named = [(w, n, s) for w, n, s in _properties(document) if n.endswith("_at")]
    assert len(named) >= 10
    for where, name, schema in named:
        assert _formats(schema) == {"date-time"}, f"{where}.{name}: {schema}"
    schemas = document["components"]["schemas"]
    assert _formats(schemas["SkyFact"]["properties"]["at"]) == {"date-time"}
    assert _formats(schemas["Delivery"]["properties"]["local_date"]) == {"date"}
    login = document["paths"]["/auth/login"]["post"]["responses"]["200"]
    expires = login["content"]["application/json"]["schema"]["properties"]["expires_at"]
    assert _formats(expires) == {"date-time"}
