"""Helpers for the platform tests: a migrated app on SQLite or PostgreSQL, seeded accounts."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from quart import Blueprint, Quart

from astro_server.app import create_app
from astro_server.platform.auth import accounts
from astro_server.platform.db import migrate_db
from astro_server.settings import DEFAULT_RATE_LIMITS, Settings


def settings_for(database_url: str, tmp_path: Path, **overrides: Any) -> Settings:
    base = Settings(
        data_dir=tmp_path / "var",
        database_url=database_url,
        secret_key="k" * 32,
        rate_limits=dict(DEFAULT_RATE_LIMITS),
    )
    return base.with_overrides(**overrides)


@asynccontextmanager
async def running_app(
    settings: Settings, blueprints: Iterable[Blueprint] = ()
) -> AsyncIterator[Quart]:
    await migrate_db(settings)
    app = create_app(settings)
    for blueprint in blueprints:
        app.register_blueprint(blueprint)
    async with app.test_app():
        yield app


async def new_account(tier: str = "free", credits: int = 0) -> tuple[str, str]:
    account, key = await accounts.create_account("test", tier, credits)
    return account.id, key


def key_headers(api_key: str, **extra: str) -> dict[str, str]:
    return {"X-API-Key": api_key, **extra}
