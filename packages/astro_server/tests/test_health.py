"""Probes and the error contract on the in-process app (SQLite)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from _platform_support import running_app
from quart import Quart

from astro_server.app import create_app
from astro_server.features.reports.render.renderer import missing_components
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
    renderer = "missing" if missing_components() else "ok"
    # "visual": the optional extra is installed in the workspace (absent: "missing (...)").
    assert body["checks"] == {
        "database": "ok",
        "broker": "in-process",
        "storage": "ok",
        "pdf_renderer": renderer,
        "visual": "ok",
    }
    assert bool(body["missing"]) == (renderer == "missing")
    # Each dependency's check time, in milliseconds.
    assert set(body["latency_ms"]) == set(body["checks"])
    assert all(isinstance(v, float | int) and 0 <= v < 60_000 for v in body["latency_ms"].values())
    assert body["latency_ms"]["database"] > 0


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


async def test_readyz_is_503_when_the_file_storage_is_unusable(tmp_path: Path) -> None:
    data_dir = tmp_path / "var"
    async with running_app(Settings(data_dir=data_dir, secret_key="k" * 32)) as application:
        # A file where the folder should be (permissions would not stop root).
        (data_dir / "files").write_bytes(b"")
        response = await application.test_client().get("/readyz")
    body = await response.get_json()
    assert response.status_code == 503
    assert body["message"] == "File storage unusable: FileExistsError"


async def test_metrics_answer_a_loopback_scraper_and_refuse_a_remote_one(tmp_path: Path) -> None:
    async with running_app(Settings(data_dir=tmp_path, secret_key="k" * 32)) as migrated:
        await _scrape_without_token(migrated)


async def _scrape_without_token(app: Quart) -> None:
    client = app.test_client()
    local = await client.get("/metrics", scope_base={"client": ("127.0.0.1", 50000)})
    assert local.status_code == 200
    assert "astro_http_requests_total" in (await local.get_data(as_text=True))
    local6 = await client.get("/metrics", scope_base={"client": ("::1", 50000)})
    assert local6.status_code == 200
    remote = await client.get("/metrics", scope_base={"client": ("192.0.2.10", 50000)})
    assert remote.status_code == 403
    body = await remote.get_json()
    assert body["error"] == "forbidden"
    assert "ASTRO_METRICS_TOKEN" in body["message"]


async def test_metrics_with_a_token_need_it_from_everyone(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, secret_key="k" * 32, metrics_token="scrape-me-9f2c")
    async with running_app(settings) as application:
        client = application.test_client()
        loopback = {"client": ("127.0.0.1", 50000)}
        missing = await client.get("/metrics", scope_base=loopback)
        assert missing.status_code == 401
        assert (await missing.get_json())["code"] == "401"
        assert missing.headers["WWW-Authenticate"] == "Bearer"
        wrong = await client.get(
            "/metrics", scope_base=loopback, headers={"Authorization": "Bearer scrape-me-9f2d"}
        )
        assert wrong.status_code == 401
        right = await client.get(
            "/metrics",
            scope_base={"client": ("192.0.2.10", 50000)},
            headers={"Authorization": "Bearer scrape-me-9f2c"},
        )
        assert right.status_code == 200


async def test_invented_http_methods_share_one_metrics_label(tmp_path: Path) -> None:
    async with running_app(Settings(data_dir=tmp_path, secret_key="k" * 32)) as app:
        client = app.test_client()
        for i in range(3):
            response = await client.open("/healthz", method=f"INVENTED{i}")
            assert response.status_code == 405
        scrape = await client.get("/metrics", scope_base={"client": ("127.0.0.1", 50000)})
        text = await scrape.get_data(as_text=True)
        assert "INVENTED" not in text
        assert 'method="OTHER"' in text


async def test_the_embedded_database_file_is_private_to_its_owner(tmp_path: Path) -> None:
    import stat

    async with running_app(Settings(data_dir=tmp_path / "var", secret_key="k" * 32)):
        files = sorted((tmp_path / "var").glob("astro.sqlite3*"))
        assert files
        for f in files:
            assert stat.S_IMODE(f.stat().st_mode) == 0o600, f
