"""The whole wiring: a hypercorn process on PostgreSQL and Redis, reached through the SDK."""

from __future__ import annotations

import httpx

from astro_sdk import AstroClient
from astro_server.features.reports.render.renderer import missing_components
from tests._support.stack import ServerProcess


def test_sdk_reaches_live_server_healthz(shared_server: ServerProcess) -> None:
    with AstroClient(base_url=shared_server.base_url) as client:
        assert client.health()["status"] == "ok"


def test_live_server_is_ready_on_postgres_and_redis(shared_server: ServerProcess) -> None:
    response = httpx.get(shared_server.base_url + "/readyz")
    assert response.status_code == 200
    renderer = "missing" if missing_components() else "ok"
    assert response.json()["checks"] == {
        "database": "ok",
        "broker": "ok",
        "storage": "ok",
        "pdf_renderer": renderer,
        "visual": "ok",
    }
    # Each dependency's check time in milliseconds: Redis and PostgreSQL answered over loopback.
    latency = response.json()["latency_ms"]
    assert set(latency) == set(response.json()["checks"])
    assert 0 < latency["database"] < 10_000
    assert 0 < latency["broker"] < 10_000
