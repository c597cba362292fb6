"""Every error path answers with the JSON error body and the request id, never HTML."""

from __future__ import annotations

from pathlib import Path

import pytest
from _platform_support import key_headers, new_account, settings_for
from pydantic import BaseModel, Field
from quart import Blueprint, Response
from quart.typing import TestClientProtocol as Client
from quart_schema import validate_request

from astro_server.platform.auth.guards import checks_credential, require_api_key
from astro_server.platform.responses import json_response
from astro_server.settings import Settings

routes = Blueprint("errors_test_routes", __name__)


class Shape(BaseModel):
    name: str = Field(min_length=1, max_length=5)
    count: int = Field(ge=1, le=3)


# The body checks are the subject here, not the keyless limit (3 a minute in these settings).
@routes.post("/test/validated")
@checks_credential
@validate_request(Shape)
async def validated(data: Shape) -> Response:
    return json_response({"ok": True})


@routes.get("/test/crash")
@checks_credential
async def crash() -> Response:
    raise RuntimeError("SELECT password FROM secrets -- must never reach the client")


@routes.get("/test/limited")
@require_api_key
async def limited() -> Response:
    return json_response({"ok": True})


@pytest.fixture
def app_settings(tmp_path: Path) -> Settings:
    return settings_for(
        f"sqlite://{tmp_path / 'db.sqlite3'}",
        tmp_path,
        max_body_bytes=8192,
        rate_limits={"free": 3, "starter": 5, "pro": 10, "enterprise": 20},
    )


@pytest.fixture
def app_blueprints() -> list[Blueprint]:
    return [routes]


def _is_error_body(body: dict[str, object], request_id: str, slug: str) -> None:
    assert body["error"] == slug
    assert isinstance(body["message"], str)
    assert body["message"]
    assert body["request_id"] == request_id


async def test_unknown_route_is_404_not_found(client: Client) -> None:
    response = await client.get("/no/such/route")
    assert response.status_code == 404
    assert response.content_type == "application/json"
    _is_error_body(await response.get_json(), response.headers["X-Request-Id"], "not_found")


async def test_wrong_method_is_405_with_allow(client: Client) -> None:
    response = await client.delete("/healthz")
    assert response.status_code == 405
    assert "GET" in response.headers["Allow"]
    _is_error_body(
        await response.get_json(), response.headers["X-Request-Id"], "method_not_allowed"
    )


async def test_malformed_json_is_400_bad_request(client: Client) -> None:
    response = await client.post(
        "/test/validated", data="{not json", headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 400
    _is_error_body(await response.get_json(), response.headers["X-Request-Id"], "bad_request")


async def test_a_body_that_is_not_utf8_is_400_bad_request(client: Client) -> None:
    response = await client.post(
        "/test/validated", data=b"\xdd\xa0{", headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 400
    _is_error_body(await response.get_json(), response.headers["X-Request-Id"], "bad_request")


async def test_json_nested_too_deep_to_parse_is_400_bad_request(client: Client) -> None:
    # json.loads gives up near a thousand levels with RecursionError: it was a 500 with a
    # traceback in the log, for anyone, two kilobytes at a time.
    deep = "[" * 1500 + "]" * 1500
    for path, body in (
        ("/test/validated", deep),
        ("/auth/login", deep),
        ("/auth/login", '{"email": ' + "[" * 1500 + '"\\u0000"' + "]" * 1500 + "}"),
    ):
        response = await client.post(path, data=body, headers={"Content-Type": "application/json"})
        assert response.status_code == 400, path
        _is_error_body(await response.get_json(), response.headers["X-Request-Id"], "bad_request")


async def test_json_nesting_is_limited_at_64_levels_whatever_the_recursion_limit(
    client: Client,
) -> None:
    """The limit is ours, not the interpreter's: with a recursion limit raised (as hypothesis
    raises it in a shared test process), 1,500 levels parsed and answered a validation error;
    now 65 levels are a 400 ``bad_request`` naming the limit, and 64 are parsed."""
    import sys

    from astro_server.app import MAX_JSON_DEPTH

    assert MAX_JSON_DEPTH == 64
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    try:
        for levels, slug in ((65, "bad_request"), (1500, "bad_request"), (64, "validation_error")):
            body = "[" * levels + "]" * levels
            response = await client.post(
                "/test/validated", data=body, headers={"Content-Type": "application/json"}
            )
            assert response.status_code == 400, levels
            answer = await response.get_json()
            _is_error_body(answer, response.headers["X-Request-Id"], slug)
            if slug == "bad_request":
                assert "deeper than 64 levels" in answer["message"]
        # Brackets inside strings are text, not nesting: parsed, then the name is too long.
        text = '{"name": "' + "[" * 200 + '", "count": 1}'
        response = await client.post(
            "/test/validated", data=text, headers={"Content-Type": "application/json"}
        )
        answer = await response.get_json()
        assert (response.status_code, answer["error"]) == (400, "validation_error")
        assert [d["field"] for d in answer["details"]] == ["name"]
    finally:
        sys.setrecursionlimit(limit)


async def test_a_nul_character_anywhere_is_a_400_naming_where(client: Client) -> None:
    # PostgreSQL cannot hold or compare text with NUL; on the production stack a NUL in a login
    # e-mail, a job id or a cursor failed inside the query as a 500.
    cases = [
        ("POST", "/test/validated", {"name": "a\x00", "count": 1}, "name"),
        ("POST", "/test/validated", {"name": "a", "count": 1, "x": [{"y": "\x00"}]}, "x[0].y"),
        ("GET", "/test/limited?cursor=ab%00", None, "cursor"),
        ("GET", "/no/such%00route", None, "path"),
    ]
    for method, path, body, field in cases:
        response = await client.open(path, method=method, json=body)
        answer = await response.get_json()
        assert response.status_code == 400, (path, answer)
        assert answer["details"] == [{"field": field, "message": answer["details"][0]["message"]}]
        assert "NUL" in answer["details"][0]["message"]
    # The six characters backslash-u-0000 are ordinary text (in JSON: "\\\\u0000").
    ok = await client.post("/test/validated", json={"name": "a", "count": 1, "x": "\\u0000"})
    assert ok.status_code == 200


async def test_wrong_content_type_is_415(client: Client) -> None:
    response = await client.post(
        "/test/validated", data="name=a&count=1", headers={"Content-Type": "text/plain"}
    )
    assert response.status_code == 415
    _is_error_body(
        await response.get_json(), response.headers["X-Request-Id"], "unsupported_media_type"
    )


async def test_oversized_body_is_413(client: Client) -> None:
    response = await client.post(
        "/test/validated",
        data='{"name": "' + "x" * 9000 + '"}',
        headers={"Content-Type": "application/json"},
    )
    assert response.status_code == 413
    _is_error_body(await response.get_json(), response.headers["X-Request-Id"], "payload_too_large")


async def test_field_errors_name_every_failing_field(client: Client) -> None:
    response = await client.post("/test/validated", json={"name": "toolong", "count": 9})
    body = await response.get_json()
    assert response.status_code == 400
    _is_error_body(body, response.headers["X-Request-Id"], "validation_error")
    assert [d["field"] for d in body["details"]] == ["name", "count"]
    assert all(d["message"] for d in body["details"])


async def test_unhandled_exception_is_500_internal_without_a_trace(client: Client) -> None:
    response = await client.get("/test/crash")
    body = await response.get_json()
    assert response.status_code == 500
    _is_error_body(body, response.headers["X-Request-Id"], "internal_server_error")
    assert body["code"] == "internal"
    text = (await response.get_data()).decode()
    assert "SELECT" not in text
    assert "Traceback" not in text


async def test_incoming_request_id_is_echoed(client: Client) -> None:
    response = await client.get("/nope", headers={"X-Request-Id": "abc-123"})
    assert response.headers["X-Request-Id"] == "abc-123"
    assert (await response.get_json())["request_id"] == "abc-123"


@pytest.mark.usefixtures("fresh_rate_window")
async def test_rate_limit_headers_count_down_to_429_with_retry_after(client: Client) -> None:
    _, key = await new_account("free", 0)
    remaining = []
    for _ in range(3):
        response = await client.get("/test/limited", headers=key_headers(key))
        assert response.status_code == 200
        assert response.headers["RateLimit-Limit"] == "3"
        assert 1 <= int(response.headers["RateLimit-Reset"]) <= 60
        remaining.append(response.headers["RateLimit-Remaining"])
    assert remaining == ["2", "1", "0"]
    response = await client.get("/test/limited", headers=key_headers(key))
    body = await response.get_json()
    assert response.status_code == 429
    _is_error_body(body, response.headers["X-Request-Id"], "rate_limited")
    assert 1 <= int(response.headers["Retry-After"]) <= 60
    assert response.headers["RateLimit-Remaining"] == "0"


@pytest.mark.usefixtures("fresh_rate_window")
async def test_rate_limit_is_per_credential_and_per_tier(client: Client) -> None:
    _, first = await new_account("free", 0)
    _, starter = await new_account("starter", 0)
    for _ in range(3):
        await client.get("/test/limited", headers=key_headers(first))
    assert (await client.get("/test/limited", headers=key_headers(first))).status_code == 429
    response = await client.get("/test/limited", headers=key_headers(starter))
    assert response.headers["RateLimit-Limit"] == "5"
    assert response.status_code == 200
