"""Tortoise ORM configuration: one app ("astro") over SQLite (embedded) or PostgreSQL."""

from __future__ import annotations

from typing import Any

from tortoise import Tortoise, connections

from astro_server.settings import Settings

MODELS_MODULE = "astro_server.models"
MIGRATIONS_MODULE = "astro_server.models.migrations"


def tortoise_config(settings: Settings) -> dict[str, Any]:
    url = settings.effective_database_url
    if settings.embedded:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    return {
        "connections": {"default": url},
        "apps": {
            "astro": {
                "models": [MODELS_MODULE],
                "default_connection": "default",
                "migrations": MIGRATIONS_MODULE,
            }
        },
        "use_tz": True,
        "timezone": "UTC",
    }


async def init_db(settings: Settings) -> None:
    # Quart serves requests in tasks other than the startup task: the global fallback context
    # makes the connections visible to all of them (tortoise >= 1.0 keeps state in contextvars).
    await Tortoise.init(config=tortoise_config(settings), _enable_global_fallback=True)


async def close_db() -> None:
    await Tortoise.close_connections()


async def ping_db() -> None:
    """Raise if the database does not answer a trivial query."""
    await connections.get("default").execute_query("SELECT 1")
