"""Probes and the error contract on the in-process app (SQLite)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from quart import Quart

from astro_server.app import create_app
from astro_server.settings import Settings


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[Quart]:
    application = create_app(Settings(data_dir=tmp_path, secret_key="k" * 32))
    async with application.test_app():
        yield application


async def test_healthz_answers_ok(app: Quart) -> None:
    response = await app.test_client().get("/healthz")
    assert response.status_code == 200
    assert (await response.get_json())["status"] == "ok"


async def test_readyz_reports_database_and_in_process_broker(app: Quart) -> None:
    response = await app.test_client().get("/readyz")
    body = await response.get_json()
    assert response.status_code == 200
    assert body["checks"] == {"database": "ok", "broker": "in-process"}


async def test_unknown_route_is_a_json_404_with_request_id(app: Quart) -> None:
    response = await app.test_client().get("/nope")
    body = await response.get_json()
    assert response.status_code == 404
    assert body["error"] == "not_found"
    assert body["request_id"] == response.headers["X-Request-Id"]


async def test_readyz_is_503_when_the_broker_is_unreachable(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, secret_key="k" * 32, redis_url="redis://127.0.0.1:1/0")
    application = create_app(settings)
    async with application.test_app():
        response = await application.test_client().get("/readyz")
    body = await response.get_json()
    assert response.status_code == 503
    assert body["error"] == "service_unavailable"
