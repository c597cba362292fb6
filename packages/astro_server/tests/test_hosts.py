"""Absolute URLs and Host headers (issue 36): links come from ``ASTRO_PUBLIC_URL`` whatever
``Host`` a client sends; with ``ASTRO_ALLOWED_HOSTS`` an unknown ``Host`` is refused (400)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _platform_support import key_headers, new_account, running_app, settings_for

from astro_server.platform.hosts import host_allowed
from astro_server.settings import Settings


@pytest.mark.parametrize(
    ("host", "allowed"),
    [
        ("api.example.test", True),
        ("API.Example.Test", True),
        ("api.example.test:8443", True),  # a name without a port allows every port
        ("localhost:8000", True),
        ("localhost:9000", False),
        ("attacker.invalid", False),
        ("api.example.test.attacker.invalid", False),
    ],
)
def test_host_allowed(host: str, allowed: bool) -> None:
    assert host_allowed(host, ("api.example.test", "localhost:8000")) is allowed


def test_allowed_hosts_are_read_from_the_environment(tmp_path: Path) -> None:
    env = {"ASTRO_DATA_DIR": str(tmp_path), "ASTRO_ALLOWED_HOSTS": " API.example.test, ,x:1"}
    assert Settings.from_env(env).allowed_hosts == ("api.example.test", "x:1")


async def test_an_unknown_host_is_refused(tmp_path: Path) -> None:
    settings = settings_for(
        f"sqlite://{tmp_path / 'db.sqlite3'}", tmp_path, allowed_hosts=("api.example.test",)
    )
    async with running_app(settings) as app:
        client = app.test_client()
        refused = await client.get("/healthz", headers={"Host": "attacker.invalid"})
        served = await client.get("/healthz", headers={"Host": "api.example.test"})
    assert refused.status_code == 400
    assert served.status_code == 200


async def test_links_use_the_public_url_whatever_the_host(tmp_path: Path) -> None:
    settings = settings_for(
        f"sqlite://{tmp_path / 'db.sqlite3'}", tmp_path, public_url="https://api.example.test"
    )
    async with running_app(settings) as app:
        _, key = await new_account("enterprise", 0)
        made = await app.test_client().post(
            "/api/v3/team/members",
            json={"email": "new@example.test", "role": "member"},
            headers={**key_headers(key), "Host": "attacker.invalid"},
        )
    assert made.status_code == 201
    link = (await made.get_json())["link"]
    assert link.startswith("https://api.example.test/auth/accept-invitation?token=")
