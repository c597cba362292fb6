"""HTTP edges a new integrator meets first (issue 16): two credentials on one request,
``RateLimit-*`` headers on every answer of a rate-limited route, ``GET /``, the docs' assets.
(Logout's 204 without a media type is checked over real HTTP in ``tests/test_e2e_first_hour.py``:
Quart's test client adds ``text/html`` to any response that has none.)"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from _platform_support import new_account, running_app, settings_for
from quart.typing import TestClientProtocol as Client

from astro_server.platform.auth import accounts
from astro_server.settings import Settings

RATE_HEADERS = ("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset")


@pytest.fixture
def app_settings(database_url: str, tmp_path: Path) -> Settings:
    return settings_for(database_url, tmp_path, login_rate_limit=5)


async def _key_and_session(client: Client) -> tuple[str, str]:
    account_id, key = await new_account("pro", 100)
    await accounts.create_customer(account_id, "ana@example.com", "correct horse battery")
    login = await client.post(
        "/auth/login", json={"email": "ana@example.com", "password": "correct horse battery"}
    )
    assert login.status_code == 200
    token: str = (await login.get_json())["token"]
    return key, token


@pytest.mark.parametrize(
    ("method", "path"),
    [("GET", "/api/v3/jobs"), ("GET", "/v1/horoscope-feed-subscriptions")],
    ids=["api-key route", "session route"],
)
async def test_an_api_key_beside_a_session_token_is_a_401_naming_the_conflict(
    client: Client, method: str, path: str
) -> None:
    # Spec, Authentication rule 2. Each credential alone opens its own kind of route.
    key, token = await _key_and_session(client)
    both = {"X-API-Key": key, "Authorization": f"Bearer {token}"}
    response = await client.open(path, method=method, headers=both)
    assert response.status_code == 401
    body = await response.get_json()
    assert body["error"] == "unauthorized"
    assert "both X-API-Key and" in body["message"]
    for name in RATE_HEADERS:
        assert name in response.headers
    alone = {"X-API-Key": key} if path.startswith("/api") else {"Authorization": f"Bearer {token}"}
    assert (await client.open(path, method=method, headers=alone)).status_code == 200


async def test_the_same_api_key_in_both_headers_is_one_credential(client: Client) -> None:
    key, _token = await _key_and_session(client)
    response = await client.get(
        "/api/v3/jobs", headers={"X-API-Key": key, "Authorization": f"Bearer {key}"}
    )
    assert response.status_code == 200


async def test_rate_limit_headers_on_401_404_405_of_rate_limited_routes(client: Client) -> None:
    key, _token = await _key_and_session(client)
    answers = {
        "401 no key": await client.get("/api/v3/jobs"),
        "401 unknown key": await client.get("/api/v3/jobs", headers={"X-API-Key": "ak_live_x"}),
        "404 unknown route": await client.get("/api/v3/nope", headers={"X-API-Key": key}),
        "404 unknown job": await client.get(
            "/api/v3/jobs/job_" + "0" * 24, headers={"X-API-Key": key}
        ),
        "405": await client.get("/api/v3/western/natal", headers={"X-API-Key": key}),
        "404 anonymous": await client.get("/nothing-here"),
    }
    for name, response in answers.items():
        assert response.status_code == int(name[:3]), name
        for header in RATE_HEADERS:
            assert header in response.headers, f"{name}: no {header}"
    # A valid key's 404 and 405 count against the key (the pro tier's limit), an unknown
    # credential's against the client address (the free tier's).
    assert answers["404 unknown route"].headers["RateLimit-Limit"] == "1200"
    assert answers["405"].headers["RateLimit-Limit"] == "1200"
    assert answers["401 no key"].headers["RateLimit-Limit"] == "60"


async def test_requests_without_a_valid_credential_are_limited_per_address(
    database_url: str, tmp_path: Path, fresh_rate_window: None
) -> None:
    settings = settings_for(
        database_url, tmp_path, rate_limits={"free": 3, "starter": 3, "pro": 3, "enterprise": 3}
    )
    async with running_app(settings) as application:
        client = application.test_client()
        statuses = [
            (await client.get("/api/v3/jobs", headers={"X-API-Key": f"ak_live_{n}"})).status_code
            for n in range(4)
        ]
    assert statuses == [401, 401, 401, 429]


async def test_every_login_answer_carries_rate_limit_headers(
    client: Client, fresh_rate_window: None
) -> None:
    await _key_and_session(client)  # one login (of 5 per minute from this address)
    answers = [
        await client.post("/auth/login", json={"email": "not an address", "password": "x"}),
        await client.post("/auth/login", json={"email": "ana@example.com", "password": "wrong"}),
    ]
    assert [a.status_code for a in answers] == [400, 401]
    assert [a.headers["RateLimit-Remaining"] for a in answers] == ["3", "2"]
    for answer in answers:
        assert answer.headers["RateLimit-Limit"] == "5"


async def test_the_root_is_a_json_index(client: Client) -> None:
    response = await client.get("/")
    assert response.status_code == 200
    body = await response.get_json()
    assert body["name"] == "Astro API"
    assert body["docs_url"] == "/docs"
    assert body["openapi_url"] == "/openapi.json"
    assert body["version"]
    assert body["api_version"] == "1.1.0"


async def test_the_docs_page_loads_swagger_ui_from_this_server(client: Client) -> None:
    page = (await (await client.get("/docs")).get_data()).decode()
    assert "https://" not in page
    assert "http://" not in page
    for asset in ("/docs/assets/swagger-ui-bundle.js", "/docs/assets/swagger-ui.css"):
        assert asset in page
        response = await client.get(asset)
        assert response.status_code == 200
        assert len(await response.get_data()) > 100_000
    assert (await client.get("/docs/assets/..%2Fcore.py")).status_code == 404
    assert (await client.get("/docs/assets/swagger-editor.js")).status_code == 404


# Issue 52: an answer given before the body was read never closes the connection silently.


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    body = await asyncio.wait_for(reader.readexactly(int(headers.get("content-length", "0"))), 10)
    return status, headers, body


@asynccontextmanager
async def _served(settings: Settings) -> AsyncIterator[int]:
    """The app under hypercorn on a free loopback port (the real HTTP/1.1 keep-alive)."""
    from hypercorn.asyncio import serve
    from hypercorn.config import Config

    async with running_app(settings) as app:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
        config = Config()
        config.bind = [f"127.0.0.1:{port}"]
        config.accesslog = None
        stop = asyncio.Event()
        server = asyncio.create_task(serve(app, config, shutdown_trigger=stop.wait))  # type: ignore[arg-type]
        for _ in range(100):
            try:
                _, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.close()
                break
            except OSError:
                await asyncio.sleep(0.05)
        try:
            yield port
        finally:
            stop.set()
            await asyncio.wait_for(server, 10)


@pytest.mark.parametrize("body_bytes", [2_000, 200_000], ids=["small body", "large body"])
async def test_an_early_401_drains_the_body_or_says_connection_close(
    app_settings: Settings, body_bytes: int
) -> None:
    """A POST with a wrong key whose body is still on its way when the 401 is answered: the
    answer either says ``Connection: close`` or the connection serves the next request (the body
    was read to its end). Without either, the server closed the keep-alive connection after the
    answer and the client's next request on it met a disconnect."""
    async with _served(app_settings) as port:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            body = b'{"records": [' + b" " * (body_bytes - 16) + b"]}  "
            head = (
                "POST /api/v3/vedic/kundli-matching/batch HTTP/1.1\r\n"
                f"Host: 127.0.0.1:{port}\r\nAuthorization: Bearer ak_live_wrong\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
            ).encode()
            writer.write(head + body[:1000])  # the rest follows the answer
            await writer.drain()
            await asyncio.sleep(0.3)
            writer.write(body[1000:])
            await writer.drain()
            status, headers, _ = await _read_response(reader)
            assert status == 401
            if headers.get("connection", "").lower() == "close":
                assert await asyncio.wait_for(reader.read(), 10) == b""  # closed, as announced
                return
            writer.write(f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            await writer.drain()
            status, _, _ = await _read_response(reader)
            assert status == 200
        finally:
            writer.close()


async def test_past_the_concurrency_limit_a_request_is_refused_at_once_with_503(
    database_url: str, tmp_path: Path
) -> None:
    """Issue 52, load shedding: with ``max_concurrent_requests`` 2 and two requests held in
    flight, a third answers 503 ``overloaded`` with Retry-After in well under a second (it does
    not queue behind them); /healthz is still served; once one finishes, requests are admitted
    again. Without the limit the third waits for the held ones."""
    from quart import Blueprint

    held = asyncio.Event()
    entered: list[int] = []
    slow = Blueprint("slow_for_shedding", __name__)

    @slow.get("/test/slow")
    async def slow_route() -> dict[str, bool]:
        entered.append(1)
        await held.wait()
        return {"ok": True}

    settings = settings_for(database_url, tmp_path, max_concurrent_requests=2)
    async with running_app(settings, [slow]) as app:
        client = app.test_client()
        in_flight = [asyncio.create_task(client.get("/test/slow")) for _ in range(2)]
        for _ in range(200):
            if len(entered) == 2:
                break
            await asyncio.sleep(0.01)
        assert len(entered) == 2
        started = asyncio.get_running_loop().time()
        refused = await asyncio.wait_for(client.get("/test/slow"), 5)
        elapsed_s = asyncio.get_running_loop().time() - started
        body = await refused.get_json()
        assert refused.status_code == 503
        assert (body["error"], body["code"]) == ("service_unavailable", "overloaded")
        assert refused.headers["Retry-After"] == "1"
        assert elapsed_s < 0.5
        assert (await client.get("/healthz")).status_code == 200
        held.set()
        assert [(await task).status_code for task in in_flight] == [200, 200]
        assert (await client.get("/test/slow")).status_code == 200
