"""A loopback destination refused on the embedded server names ``ASTRO_LOCAL_WEBHOOKS`` and
``webhook-listen`` (issue 32); a production server (a database URL set) never suggests it, and a
destination refused for another reason gets no hint either."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from _platform_support import key_headers, new_account, running_app, settings_for

from astro_server.features.feeds import service as feeds
from astro_server.platform import runtime
from astro_server.platform.delivery import events
from astro_server.platform.errors import APIError
from astro_server.settings import Settings

HINT = "ASTRO_LOCAL_WEBHOOKS=1 and use astro-server webhook-listen"
LOOPBACK = ["https://127.0.0.1:8765/hooks", "https://[::1]:8765/hooks", "https://localhost/in"]


def embedded(tmp_path: Path) -> Settings:
    settings = settings_for("sqlite://unused", tmp_path).with_overrides(database_url=None)
    assert settings.embedded
    assert not settings.allow_loopback_destinations
    return settings


def production(tmp_path: Path) -> Settings:
    settings = settings_for(f"sqlite://{tmp_path / 'p.sqlite3'}", tmp_path)
    assert not settings.embedded
    return settings


async def endpoint_refusal(url: str, settings: Settings) -> APIError:
    with pytest.raises(APIError) as info:
        await events.create_endpoint(
            account_id="acct_x", url=url, event_types=["report.succeeded"], livemode=False,
            settings=settings,
        )  # fmt: skip
    return info.value


async def subscription_refusal(url: str, settings: Settings) -> APIError:
    with pytest.raises(APIError) as info:
        await feeds.create_subscription(
            account_id="acct_x", customer_id="cus_x", destination_url=url, sign="leo",
            language="en", timezone="Asia/Bangkok", delivery_time="08:00",
            now=datetime(2026, 11, 27, tzinfo=UTC), settings=settings,
        )  # fmt: skip
    return info.value


@pytest.mark.parametrize("url", LOOPBACK)
async def test_embedded_loopback_refusal_names_the_setting(tmp_path: Path, url: str) -> None:
    for refuse in (endpoint_refusal, subscription_refusal):
        error = await refuse(url, embedded(tmp_path))
        assert (error.status, error.code) == (400, "unsafe_destination")
        assert "loopback" in error.message
        assert HINT in error.message, error.message
        assert HINT in error.details[0]["message"]  # type: ignore[index]


@pytest.mark.parametrize("url", LOOPBACK)
async def test_production_never_suggests_loopback(tmp_path: Path, url: str) -> None:
    for refuse in (endpoint_refusal, subscription_refusal):
        error = await refuse(url, production(tmp_path))
        assert error.code == "unsafe_destination"
        assert "ASTRO_LOCAL_WEBHOOKS" not in error.message


@pytest.mark.parametrize(
    "url", ["https://10.0.0.1/in", "http://127.0.0.1:8765/hooks", "https://169.254.169.254/"]
)
async def test_other_refusals_get_no_hint(tmp_path: Path, url: str) -> None:
    # http:// to loopback stays refused with the flag (deliveries are https), so no hint.
    for refuse in (endpoint_refusal, subscription_refusal):
        error = await refuse(url, embedded(tmp_path))
        assert error.code == "unsafe_destination"
        assert "ASTRO_LOCAL_WEBHOOKS" not in error.message


async def test_the_embedded_api_answers_with_the_hint(tmp_path: Path) -> None:
    async with running_app(embedded(tmp_path)) as app:
        runtime.install(app.extensions["astro"])  # this app's platform, whatever ran before
        _account, key = await new_account("pro", 100)
        response = await app.test_client().post(
            "/api/v3/webhook-endpoints",
            json={"url": "https://127.0.0.1:8765/hooks", "event_types": ["report.succeeded"]},
            headers=key_headers(key),
        )
        body = await response.get_json()
    assert response.status_code == 400, body
    assert HINT in body["message"]
