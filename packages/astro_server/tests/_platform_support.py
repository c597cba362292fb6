"""Helpers for the platform tests: a migrated app on SQLite or PostgreSQL, seeded accounts."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
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


_sqlite_template: Path | None = None


async def _migrated_sqlite_template() -> Path:
    """A SQLite database at the current schema, migrated once per test process (``migrate_db``,
    what ``astro-server migrate`` runs) and removed when the process ends."""
    global _sqlite_template
    if _sqlite_template is None:
        folder = Path(tempfile.mkdtemp(prefix="astro-sqlite-template-"))
        atexit.register(shutil.rmtree, folder, True)
        path = folder / "astro.sqlite3"
        await migrate_db(Settings(data_dir=folder, database_url=f"sqlite://{path}"))
        _sqlite_template = path
    return _sqlite_template


def _new_sqlite_file(settings: Settings) -> Path | None:
    """The SQLite file ``settings`` would create, or None (not SQLite, or already there)."""
    url = settings.effective_database_url
    if not url.startswith("sqlite://") or url == "sqlite://:memory:":
        return None
    path = Path(url.removeprefix("sqlite://"))
    if path.exists() or not path.parent.is_absolute():
        return None
    if settings.embedded:
        settings.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path if path.parent.is_dir() else None


def _copy_private(template: Path, path: Path) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as copy, template.open("rb") as original:
        shutil.copyfileobj(original, copy)


async def _start_from_template(settings: Settings) -> None:
    """Put a copy of the migrated template where a new SQLite database of ``settings`` would be
    made (private, 0600, as the server makes it): migrating every test's database from empty
    cost about half a second of CPU per test, over a thousand tests. ``migrate_db`` still runs
    on the copy and finds it current; migrating from empty is tested by test_platform_cli.py,
    test_upgrade_migration.py and every embedded server the end-to-end tests start."""
    path = _new_sqlite_file(settings)
    if path is not None:
        _copy_private(await _migrated_sqlite_template(), path)


@asynccontextmanager
async def running_app(
    settings: Settings, blueprints: Iterable[Blueprint] = ()
) -> AsyncIterator[Quart]:
    app = create_app(settings)  # builds the process's platform (the model modules migrate reads)
    await _start_from_template(settings)
    await migrate_db(settings)
    for blueprint in blueprints:
        app.register_blueprint(blueprint)
    async with app.test_app():
        yield app


async def new_account(tier: str = "free", credits: int = 0) -> tuple[str, str]:
    account, key = await accounts.create_account("test", tier, credits)
    return account.id, key


def key_headers(api_key: str, **extra: str) -> dict[str, str]:
    return {"X-API-Key": api_key, **extra}
