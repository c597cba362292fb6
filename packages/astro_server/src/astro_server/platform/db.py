"""Tortoise ORM configuration: one app ("astro") over SQLite (embedded) or PostgreSQL."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

from tortoise import Tortoise, connections
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.backends.base.config_generator import expand_db_url

from astro_server.platform import runtime
from astro_server.settings import Settings

MIGRATIONS_MODULE = "astro_server.platform.models.migrations"


async def _keep_session(connection: Any) -> None:
    """Pool reset: asyncpg already rolled back any open transaction; skip the full reset query.

    The default reset (``RESET ALL; UNLISTEN *; pg_advisory_unlock_all() ...``) is one more
    round trip on every query tortoise runs outside a transaction. We never change session
    settings, listen or take session advisory locks, so there is nothing else to reset.
    """


def _create_private(path: Path) -> None:
    """Create the SQLite file readable by its owner only, before SQLite creates it with the
    umask's 0644: it holds password and key digests, customers' birth data in job parameters
    and replayed bodies. SQLite gives its -wal and -shm files the database file's mode."""
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def tortoise_config(settings: Settings) -> dict[str, Any]:
    url = settings.effective_database_url
    if settings.embedded:
        settings.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    if url.startswith("sqlite://") and url != "sqlite://:memory:":
        _create_private(Path(url.removeprefix("sqlite://")))
    connection: str | dict[str, Any] = url
    if url.startswith(("postgres://", "postgresql://", "asyncpg://")):
        expanded = expand_db_url(url)
        expanded["credentials"].update(
            {
                "minsize": 1,
                "maxsize": settings.db_pool_size,
                "reset": _keep_session,
                # Deadlines: a hung server fails the statement (asyncpg's command_timeout), the
                # connect (timeout) and the wait for a pooled connection (platform/pgclient)
                # in seconds; the request answers 503 (platform/outages).
                "command_timeout": settings.db_command_timeout_s,
                "timeout": settings.db_connect_timeout_s,
                "acquire_timeout": settings.db_acquire_timeout_s,
            }
        )
        # asyncpg, but a read that meets a dropped connection runs once more (platform/pgclient).
        expanded["engine"] = "astro_server.platform.pgclient"
        connection = expanded
    return {
        "connections": {"default": connection},
        "apps": {
            "astro": {
                # Every module defining tables: the registry lists them (the platform imports
                # no feature), build_platform hands them over.
                "models": list(runtime.current().model_modules),
                "default_connection": "default",
                "migrations": MIGRATIONS_MODULE,
            }
        },
        "use_tz": True,
        "timezone": "UTC",
    }


def _forget_cached_statements() -> None:
    # tortoise caches each model's INSERT/UPDATE/DELETE SQL per connection *name*, not per
    # dialect: after SQLite, "default" on PostgreSQL would reuse "?" placeholders. A process
    # that opens another database (the test suite, both parametrizations) must start afresh.
    from tortoise.backends.base.executor import EXECUTOR_CACHE

    EXECUTOR_CACHE.clear()


async def init_db(settings: Settings) -> None:
    _forget_cached_statements()
    # Quart serves requests in tasks other than the startup task: the global fallback context
    # makes the connections visible to all of them (tortoise >= 1.0 keeps state in contextvars).
    await Tortoise.init(config=tortoise_config(settings), _enable_global_fallback=True)


async def migrate_db(settings: Settings) -> list[str]:
    """Apply tortoise's migrations: an empty database is brought to the current schema.
    Returns the names of the migrations applied (none when it was already current)."""
    from tortoise.migrations.api import migrate
    from tortoise.migrations.executor import PlanStep

    applied: list[str] = []

    def plan(_connection: str, steps: list[PlanStep], _fake: bool, _dry_run: bool) -> None:
        applied.extend(step.migration.name for step in steps if not step.backward)

    _forget_cached_statements()
    await migrate(config=tortoise_config(settings), reporter=plan)
    await Tortoise.close_connections()
    return applied


async def has_schema() -> bool:
    """Whether the connected database holds our tables (``astro-server migrate`` ran)."""
    from tortoise.exceptions import OperationalError

    try:
        await connections.get("default").execute_query("SELECT 1 FROM accounts LIMIT 1")
    except OperationalError:
        return False
    return True


async def close_db() -> None:
    await Tortoise.close_connections()


async def ping_db() -> None:
    """Raise if the database does not answer a trivial query."""
    await connections.get("default").execute_query("SELECT 1")


def _placeholders(conn: BaseDBAsyncClient, query: str) -> str:
    """Write ``?`` placeholders as the connection's dialect wants them (``$1`` for asyncpg)."""
    if conn.capabilities.dialect != "postgres":
        return query
    parts = query.split("?")
    return "".join(f"{part}${i}" for i, part in enumerate(parts[:-1], start=1)) + parts[-1]


async def fetch(
    query: str, values: list[Any], conn: BaseDBAsyncClient | None = None
) -> list[dict[str, Any]]:
    """Run one statement (``?`` placeholders) and return its rows, on SQLite or PostgreSQL.

    For what the ORM cannot say in one statement, e.g. a conditional
    ``UPDATE ... WHERE credits >= ? RETURNING credits``.
    """
    client = conn or connections.get("default")
    return await client.execute_query_dict(_placeholders(client, query), values)


async def execute_many(
    query: str, rows: list[list[Any]], conn: BaseDBAsyncClient | None = None
) -> None:
    """Run one statement (``?`` placeholders) once per row of values, pipelined, in one
    transaction (or in ``conn``'s), on SQLite or PostgreSQL."""
    if rows:
        client = conn or connections.get("default")
        await client.execute_many(_placeholders(client, query), rows)
