"""ASTRO_TRUSTED_PROXIES (platform/proxy.py): forwarding headers count from trusted peers only.

Both ways on the in-process app (SQLite): a trusted peer's X-Forwarded-For/-Proto/-Host (or
Forwarded) give the client address (login throttling, the audit log), the scheme (the portal's
``Secure`` cookie) and the host (absolute links); the same headers from any other peer change
nothing. Addresses are private (RFC 1918) ones: nothing is sent anywhere, they only label peers.
"""

from __future__ import annotations

import ipaddress
from pathlib import Path

import pytest
from _platform_support import key_headers, new_account, running_app
from quart import Blueprint, Response, jsonify, request

from astro_server.platform.proxy import TrustedProxyMiddleware, _forwarded_elements
from astro_server.settings import Settings, parse_trusted_proxies

PROXY = ("10.0.0.5", 41000)  # in the trusted 10.0.0.0/8
STRANGER = ("172.20.0.9", 41000)  # not trusted
CLIENT = "192.168.7.20"
FORWARDED = {
    "X-Forwarded-For": CLIENT,
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "api.test",
}

echo = Blueprint("echo", __name__)


@echo.get("/_echo")
async def _echo() -> Response:
    return jsonify(
        {"addr": request.remote_addr, "scheme": request.scheme, "host_url": request.host_url}
    )


def _settings(tmp_path: Path, **changes: object) -> Settings:
    return Settings(
        data_dir=tmp_path / "var",
        secret_key="k" * 32,
        trusted_proxies=parse_trusted_proxies("10.0.0.0/8, fd00::1"),
    ).with_overrides(**changes)


def test_parse_trusted_proxies_takes_addresses_and_cidrs() -> None:
    assert parse_trusted_proxies(" 127.0.0.1,10.0.0.0/8  fd00::/8 ") == (
        ipaddress.ip_network("127.0.0.1/32"),
        ipaddress.ip_network("10.0.0.0/8"),
        ipaddress.ip_network("fd00::/8"),
    )
    assert parse_trusted_proxies("") == ()
    with pytest.raises(ValueError, match="ASTRO_TRUSTED_PROXIES: 'nginx'"):
        parse_trusted_proxies("127.0.0.1, nginx")
    env = {"ASTRO_DATA_DIR": "/nonexistent", "ASTRO_SECRET_KEY": "k" * 32}
    assert Settings.from_env({**env, "ASTRO_TRUSTED_PROXIES": "10.1.0.0/16"}).trusted_proxies == (
        ipaddress.ip_network("10.1.0.0/16"),
    )


def test_the_client_is_the_rightmost_address_that_is_not_a_trusted_proxy() -> None:
    middleware = TrustedProxyMiddleware(None, parse_trusted_proxies("10.0.0.0/8"))
    # The client wrote the first entry itself; the proxy appended the address it saw.
    assert middleware.client_from(["127.0.0.1", CLIENT]) == CLIENT
    assert middleware.client_from([CLIENT, "10.0.0.7"]) == CLIENT  # two proxies in a row
    assert middleware.client_from(["10.0.0.8", "10.0.0.7"]) == "10.0.0.8"  # all trusted
    assert middleware.client_from([CLIENT + ":5123"]) == CLIENT  # a port is dropped
    assert middleware.client_from(["[fd00::7]:80"]) == "fd00::7"
    assert middleware.client_from(["unknown"]) is None  # no address: the peer stays
    assert middleware.client_from([CLIENT, "garbage", "10.0.0.7"]) == "10.0.0.7"


def test_forwarded_header_values_are_unquoted_per_rfc_7239() -> None:
    elements = _forwarded_elements(
        ['for="[fd00::17]:4711";proto=https;host="a.test", for=10.0.0.2', "For=_hidden"]
    )
    assert elements == [
        {"for": "[fd00::17]:4711", "proto": "https", "host": "a.test"},
        {"for": "10.0.0.2"},
        {"for": "_hidden"},
    ]


async def test_a_trusted_peer_sets_client_scheme_and_host(tmp_path: Path) -> None:
    async with running_app(_settings(tmp_path), [echo]) as app:
        client = app.test_client()
        trusted = await client.get("/_echo", headers=FORWARDED, scope_base={"client": PROXY})
        assert await trusted.get_json() == {
            "addr": CLIENT,
            "scheme": "https",
            "host_url": "https://api.test/",
        }
        # RFC 7239 instead of the X- headers, from an IPv6 proxy.
        modern = await client.get(
            "/_echo",
            headers={"Forwarded": f'for="{CLIENT}:1234";proto=https;host=api.test'},
            scope_base={"client": ("fd00::1", 41000)},
        )
        assert await modern.get_json() == {
            "addr": CLIENT,
            "scheme": "https",
            "host_url": "https://api.test/",
        }
        # A scheme other than http/https and a malformed host are not taken.
        odd = await client.get(
            "/_echo",
            headers={"X-Forwarded-Proto": "gopher", "X-Forwarded-Host": "a b/c", "Host": "h.test"},
            scope_base={"client": PROXY},
        )
        assert await odd.get_json() == {
            "addr": PROXY[0],
            "scheme": "http",
            "host_url": "http://h.test/",
        }


async def test_an_untrusted_peer_headers_are_ignored(tmp_path: Path) -> None:
    for settings in (_settings(tmp_path), _settings(tmp_path, trusted_proxies=())):
        async with running_app(settings, [echo]) as app:
            client = app.test_client()
            response = await client.get(
                "/_echo",
                headers={**FORWARDED, "Forwarded": "for=192.168.7.21;proto=https"},
                scope_base={"client": STRANGER},
            )
            body = await response.get_json()
            assert body["addr"] == STRANGER[0]
            assert body["scheme"] == "http"
            assert "api.test" not in body["host_url"]


async def test_portal_cookie_is_secure_only_behind_a_trusted_https_proxy(tmp_path: Path) -> None:
    async with running_app(_settings(tmp_path)) as app:
        client = app.test_client()
        proto = {"X-Forwarded-Proto": "https"}
        behind = await client.get("/portal/login", headers=proto, scope_base={"client": PROXY})
        spoofed = await client.get("/portal/login", headers=proto, scope_base={"client": STRANGER})
        assert behind.status_code == spoofed.status_code == 200
        cookies = [behind.headers.get_all("Set-Cookie"), spoofed.headers.get_all("Set-Cookie")]
        assert cookies[0]
        assert all("Secure" in c for c in cookies[0])
        assert cookies[1]
        assert not any("Secure" in c for c in cookies[1])


async def test_login_throttling_counts_the_forwarded_client(tmp_path: Path) -> None:
    async with running_app(_settings(tmp_path, login_rate_limit=2)) as app:
        client = app.test_client()
        emails = iter(range(100))

        async def attempt(peer: tuple[str, int], forwarded_for: str) -> int:
            # A new e-mail each time: logins are also limited per e-mail, not tested here.
            body = {"email": f"nobody{next(emails)}@example.test", "password": "wrong-password"}
            response = await client.post(
                "/auth/login",
                json=body,
                headers={"X-Forwarded-For": forwarded_for},
                scope_base={"client": peer},
            )
            return response.status_code

        # Behind the trusted proxy each client has its own bucket.
        assert [await attempt(PROXY, "192.168.7.1") for _ in range(3)] == [401, 401, 429]
        assert await attempt(PROXY, "192.168.7.2") == 401
        # An untrusted peer cannot escape its bucket by inventing X-Forwarded-For.
        assert [await attempt(STRANGER, f"192.168.8.{i}") for i in range(3)] == [401, 401, 429]


async def test_the_audit_log_records_the_forwarded_client(tmp_path: Path) -> None:
    async with running_app(_settings(tmp_path)) as app:
        client = app.test_client()
        _, key = await new_account("pro")
        for peer, name in ((PROXY, "via-proxy"), (STRANGER, "direct")):
            created = await client.post(
                "/api/v3/keys",
                json={"name": name},
                headers=key_headers(key, **{"X-Forwarded-For": CLIENT}),
                scope_base={"client": peer},
            )
            assert created.status_code == 201, await created.get_json()
        listed = await client.get("/api/v3/audit-log", headers=key_headers(key))
        events = (await listed.get_json())["events"]
        # The account's first key was made without a request (no address).
        addresses = [e["client_address"] for e in events if e["action"] == "key.created"]
        assert sorted(a for a in addresses if a) == sorted([CLIENT, STRANGER[0]])
