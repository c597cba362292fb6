"""Credential rules of the spec's Authentication section, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from _platform_support import key_headers, new_account, running_app, settings_for
from quart import Blueprint, Response
from quart.typing import TestClientProtocol as Client
from werkzeug.datastructures import Headers

from astro_server.platform.auth import accounts, credentials
from astro_server.platform.auth.guards import require_api_key, require_session
from astro_server.platform.caller import Caller
from astro_server.platform.models.accounts import ApiKey, CustomerSession
from astro_server.platform.responses import json_response
from astro_server.settings import Settings

routes = Blueprint("auth_test_routes", __name__)


@routes.get("/test/key-route")
@require_api_key
async def key_route(caller: Caller) -> Response:
    return json_response({"account_id": caller.account_id, "credential_id": caller.credential_id})


@routes.get("/test/session-route")
@require_session
async def session_route(caller: Caller) -> Response:
    return json_response({"customer_id": caller.customer_id, "account_id": caller.account_id})


@pytest.fixture
def app_settings(database_url: str, tmp_path: Path) -> Settings:
    return settings_for(database_url, tmp_path, login_rate_limit=5)


@pytest.fixture
def app_blueprints() -> list[Blueprint]:
    return [routes]


async def _customer(account_id: str, email: str = "ana@example.com") -> None:
    await accounts.create_customer(account_id, email, "correct horse battery")


async def _login(client: Client, email: str = "ana@example.com") -> str:
    response = await client.post(
        "/auth/login", json={"email": email, "password": "correct horse battery"}
    )
    assert response.status_code == 200
    token: str = (await response.get_json())["token"]
    return token


def _assert_401(body: dict[str, str], response_headers: Headers) -> None:
    assert body["error"] == "unauthorized"
    assert body["code"] == "401"
    assert body["request_id"] == response_headers["X-Request-Id"]


async def test_api_key_in_x_api_key_header_authenticates(client: Client) -> None:
    account_id, key = await new_account()
    response = await client.get("/test/key-route", headers=key_headers(key))
    assert response.status_code == 200
    assert (await response.get_json())["account_id"] == account_id


async def test_api_key_as_bearer_token_authenticates(client: Client) -> None:
    account_id, key = await new_account()
    response = await client.get("/test/key-route", headers={"Authorization": f"Bearer {key}"})
    assert response.status_code == 200
    assert (await response.get_json())["account_id"] == account_id


async def test_keys_have_the_documented_shape_and_are_stored_only_hashed(
    client: Client,
) -> None:
    _, key = await new_account()
    assert key.startswith("ak_live_")
    assert len(key) == len("ak_live_") + 32
    stored = await ApiKey.get(prefix=key[:12])
    assert stored.key_hash == credentials.digest(key)
    assert key not in {stored.key_hash, stored.prefix, stored.id}


async def test_missing_api_key_is_401(client: Client) -> None:
    response = await client.get("/test/key-route")
    assert response.status_code == 401
    _assert_401(await response.get_json(), response.headers)


async def test_unknown_api_key_is_401(client: Client) -> None:
    response = await client.get("/test/key-route", headers=key_headers("ak_live_" + "x" * 32))
    body = await response.get_json()
    assert response.status_code == 401
    _assert_401(body, response.headers)
    assert body["message"] == "Invalid API key."


async def test_revoked_api_key_is_401(client: Client) -> None:
    _, key = await new_account()
    assert await accounts.revoke_api_key(key[:12]) == 1
    response = await client.get("/test/key-route", headers=key_headers(key))
    assert response.status_code == 401
    assert "revoked" in (await response.get_json())["message"]


async def test_revoking_never_touches_another_tenants_key_sharing_the_prefix(
    client: Client,
) -> None:
    # The display prefix holds four random characters: two tenants' keys can share it.
    _a, key_a = await new_account("free", credits=5)
    _b, key_b = await new_account("free", credits=5)
    clash = key_b[:8] + "Zz9_"
    await ApiKey.filter(key_hash=credentials.digest(key_a)).update(prefix=clash)
    await ApiKey.filter(key_hash=credentials.digest(key_b)).update(prefix=clash)
    with pytest.raises(ValueError, match="give the whole key"):
        await accounts.revoke_api_key(clash)
    assert await accounts.revoke_api_key(key_b) == 1  # the whole key: exactly that one
    assert (await client.get("/test/key-route", headers=key_headers(key_b))).status_code == 401
    assert (await client.get("/test/key-route", headers=key_headers(key_a))).status_code == 200
    assert await accounts.revoke_api_key(clash) == 1  # now the prefix names one live key
    assert (await client.get("/test/key-route", headers=key_headers(key_a))).status_code == 401


async def test_a_key_revoked_in_this_process_is_refused_at_once_though_cached(
    client: Client,
) -> None:
    _, key = await new_account()
    assert (await client.get("/test/key-route", headers=key_headers(key))).status_code == 200
    assert await accounts.revoke_api_key(key[:12]) == 1
    response = await client.get("/test/key-route", headers=key_headers(key))
    assert response.status_code == 401
    assert "revoked" in (await response.get_json())["message"]


async def test_a_key_revoked_elsewhere_is_refused_once_the_cached_lookup_expires(
    database_url: str, tmp_path: Path
) -> None:
    # Another process (the CLI) revokes with a plain UPDATE: this process trusts its cached
    # lookup for at most api_key_cache_s seconds, then asks the database again.
    settings = settings_for(database_url, tmp_path, api_key_cache_s=0.5)
    async with running_app(settings, [routes]) as application:
        client = application.test_client()
        _, key = await new_account()
        assert (await client.get("/test/key-route", headers=key_headers(key))).status_code == 200
        await ApiKey.filter(prefix=key[:12]).update(revoked_at=datetime.now(UTC))
        cached = await client.get("/test/key-route", headers=key_headers(key))
        assert cached.status_code == 200
        await asyncio.sleep(0.6)
        response = await client.get("/test/key-route", headers=key_headers(key))
        assert response.status_code == 401
        assert "revoked" in (await response.get_json())["message"]


async def test_without_a_cache_a_revocation_elsewhere_is_refused_on_the_next_request(
    database_url: str, tmp_path: Path
) -> None:
    settings = settings_for(database_url, tmp_path, api_key_cache_s=0)
    async with running_app(settings, [routes]) as application:
        client = application.test_client()
        _, key = await new_account()
        assert (await client.get("/test/key-route", headers=key_headers(key))).status_code == 200
        await ApiKey.filter(prefix=key[:12]).update(revoked_at=datetime.now(UTC))
        assert (await client.get("/test/key-route", headers=key_headers(key))).status_code == 401


async def test_session_token_on_api_key_route_is_401_naming_the_api_key(
    client: Client,
) -> None:
    account_id, _ = await new_account()
    await _customer(account_id)
    token = await _login(client)
    response = await client.get("/test/key-route", headers={"Authorization": f"Bearer {token}"})
    body = await response.get_json()
    assert response.status_code == 401
    _assert_401(body, response.headers)
    assert "takes an API key" in body["message"]


async def test_api_key_on_session_route_is_401_naming_the_session_token(
    client: Client,
) -> None:
    _, key = await new_account()
    for headers in (key_headers(key), {"Authorization": f"Bearer {key}"}):
        response = await client.get("/test/session-route", headers=headers)
        body = await response.get_json()
        assert response.status_code == 401
        _assert_401(body, response.headers)
        assert "takes a customer session token" in body["message"]


async def test_login_returns_a_session_token_that_opens_session_routes(
    client: Client,
) -> None:
    account_id, _ = await new_account()
    await _customer(account_id)
    response = await client.post(
        "/auth/login", json={"email": "ANA@example.com", "password": "correct horse battery"}
    )
    body = await response.get_json()
    assert response.status_code == 200
    assert body["token"].startswith("service_sess_")
    assert body["customer"]["email"] == "ana@example.com"
    assert body["customer"]["account_id"] == account_id
    expires = datetime.fromisoformat(body["expires_at"].replace("Z", "+00:00"))
    assert timedelta(hours=23, minutes=59) < expires - datetime.now(UTC) <= timedelta(hours=24)
    me = await client.get(
        "/test/session-route", headers={"Authorization": f"Bearer {body['token']}"}
    )
    assert me.status_code == 200
    assert (await me.get_json())["customer_id"] == body["customer"]["id"]
    stored = await CustomerSession.get(customer_id=body["customer"]["id"])
    assert stored.token_hash == credentials.digest(body["token"])


async def test_wrong_password_and_unknown_email_are_the_same_401(
    client: Client,
) -> None:
    account_id, _ = await new_account()
    await _customer(account_id)
    wrong = await client.post("/auth/login", json={"email": "ana@example.com", "password": "x"})
    unknown = await client.post("/auth/login", json={"email": "bo@example.com", "password": "x"})
    assert wrong.status_code == unknown.status_code == 401
    wrong_body, unknown_body = await wrong.get_json(), await unknown.get_json()
    assert wrong_body["message"] == unknown_body["message"] == "Invalid e-mail or password."


async def test_expired_session_is_401(client: Client) -> None:
    account_id, _ = await new_account()
    await _customer(account_id)
    token = await _login(client)
    await CustomerSession.filter(token_hash=credentials.digest(token)).update(
        expires_at=datetime.now(UTC) - timedelta(seconds=1)
    )
    response = await client.get("/test/session-route", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 401
    assert "expired" in (await response.get_json())["message"]


async def test_logout_ends_the_session(client: Client) -> None:
    account_id, _ = await new_account()
    await _customer(account_id)
    token = await _login(client)
    headers = {"Authorization": f"Bearer {token}"}
    assert (await client.post("/auth/logout", headers=headers)).status_code == 204
    response = await client.get("/test/session-route", headers=headers)
    assert response.status_code == 401


@pytest.mark.usefixtures("fresh_rate_window")
async def test_login_is_rate_limited_per_email(client: Client) -> None:
    account_id, _ = await new_account()
    await _customer(account_id)
    statuses = []
    for _ in range(6):
        response = await client.post(
            "/auth/login", json={"email": "ana@example.com", "password": "wrong"}
        )
        statuses.append(response.status_code)
    assert statuses == [401] * 5 + [429]
    assert int(response.headers["Retry-After"]) >= 1
    assert (await response.get_json())["error"] == "rate_limited"


async def test_login_body_is_validated_field_by_field(client: Client) -> None:
    response = await client.post("/auth/login", json={"email": "not-an-email"})
    body = await response.get_json()
    assert response.status_code == 400
    assert body["error"] == "validation_error"
    assert {d["field"] for d in body["details"]} == {"email", "password"}


async def test_a_nul_in_the_login_email_is_a_400_not_a_database_error(client: Client) -> None:
    # PostgreSQL cannot compare text holding NUL: this was a 500 on the production stack.
    response = await client.post("/auth/login", json={"email": "a\x00b@x.com", "password": "x"})
    body = await response.get_json()
    assert response.status_code == 400
    assert [d["field"] for d in body["details"]] == ["email"]
