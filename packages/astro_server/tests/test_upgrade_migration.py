"""Upgrading a database of the previous release, with data in it (docs/operations.md, Upgrades).

The database is brought to the migration before the newest one (the previous release's schema:
each release adds migrations at the end), filled through the platform's own functions (an
account with its key, a top-up in the ledger, a customer login), then ``migrate_db`` applies the
rest. Checks: exactly the newest migration is applied; the schema is the same as a database
migrated from empty (columns with types, defaults and nullability, indexes, constraints, on
PostgreSQL); the old rows are intact and the app serves them (the old key authenticates, the
balance and the ledger rows are there, a billable call charges, the customer logs in with the
old password); ``migrate`` again is a no-op.
"""

from __future__ import annotations

import itertools
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from _platform_support import key_headers, running_app, settings_for
from tortoise import Tortoise, connections

from astro_server.platform import db
from astro_server.platform.auth import credentials
from astro_server.platform.auth.accounts import create_account
from astro_server.platform.billing.ledger import add_credits
from astro_server.platform.db import close_db, init_db, migrate_db, tortoise_config
from astro_server.platform.models import migrations as migrations_package
from astro_server.registry import build_platform
from astro_server.settings import Settings


@pytest.fixture(autouse=True)
def _platform(tmp_path: Path) -> None:
    """The process's platform (the model modules tortoise_config reads), as a CLI command's."""
    build_platform(Settings(data_dir=tmp_path / "platform"))


pytestmark = pytest.mark.slow

NUMEROLOGY = {"name": "Somchai Jaidee", "birth_date": "1990-05-01"}
PASSWORD = "correct horse battery"


def migration_names() -> list[str]:
    folder = Path(migrations_package.__file__).parent
    return sorted(p.stem for p in folder.glob("[0-9][0-9][0-9][0-9]_*.py"))


async def _migrate_to(database_url: str, tmp_path: Path, target: str) -> None:
    from tortoise.migrations.api import migrate

    await migrate(config=tortoise_config(settings_for(database_url, tmp_path)), target=target)
    await Tortoise.close_connections()


async def _schema(database_url: str, tmp_path: Path) -> dict[str, Any]:
    """The PostgreSQL schema as comparable rows (names of the database itself left out)."""
    await init_db(settings_for(database_url, tmp_path))
    try:
        conn = connections.get("default")
        columns = await conn.execute_query_dict(
            "SELECT table_name, column_name, data_type, is_nullable, column_default "
            "FROM information_schema.columns WHERE table_schema = 'public' "
            "ORDER BY table_name, column_name"
        )
        indexes = await conn.execute_query_dict(
            "SELECT tablename, indexname, indexdef FROM pg_indexes "
            "WHERE schemaname = 'public' ORDER BY tablename, indexname"
        )
        constraints = await conn.execute_query_dict(
            "SELECT conrelid::regclass::text AS tbl, conname, pg_get_constraintdef(oid) AS def "
            "FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2"
        )
        functions = await conn.execute_query_dict(
            "SELECT proname, pg_get_function_arguments(oid) AS args FROM pg_proc "
            "WHERE pronamespace = 'public'::regnamespace ORDER BY 1, 2"
        )
    finally:
        await close_db()
    return {
        "columns": columns,
        "indexes": indexes,
        "constraints": constraints,
        "functions": functions,
    }


def test_the_migrations_are_numbered_in_order() -> None:
    names = migration_names()
    assert len(names) >= 2
    for earlier, later in itertools.pairwise(names):
        source = (Path(migrations_package.__file__).parent / f"{later}.py").read_text()
        # Each migration depends on the one before it: "the previous release" is well defined.
        assert re.search(rf"\(\s*['\"]astro['\"]\s*,\s*['\"]{earlier}['\"]\s*\)", source), later


async def test_an_embedded_database_of_the_previous_release_upgrades(tmp_path: Path) -> None:
    await _upgrade_and_check(f"sqlite://{tmp_path / 'astro.sqlite3'}", tmp_path, None)


@pytest.mark.postgres
async def test_a_postgres_database_of_the_previous_release_upgrades_to_the_fresh_schema(
    fresh_pg_database: str, migrated_pg_database: str, tmp_path: Path
) -> None:
    # migrated_pg_database: a copy of the session's database made by ``astro-server migrate``.
    await _upgrade_and_check(fresh_pg_database, tmp_path, migrated_pg_database)


async def _upgrade_and_check(url: str, tmp_path: Path, fresh: str | None) -> None:
    names = migration_names()
    previous, newest = names[-2], names[-1]
    await _migrate_to(url, tmp_path, f"astro.{previous}")

    # The previous release's data.
    settings = settings_for(url, tmp_path)
    await init_db(settings)
    try:
        account, key = await create_account("Upgraded Co", "pro", 40)
        balance = await add_credits(account.id, 60)
        # The login as the previous release wrote it: its own columns only (the model may have
        # gained one in the newest migration, which the ORM's insert would name).
        customer_id = credentials.new_id("cus_")
        await db.fetch(
            "INSERT INTO customers (id, account_id, email, password_hash, role, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [
                customer_id, account.id, "owner@upgraded.test",
                credentials.hash_password(PASSWORD), "owner", datetime.now(UTC),
            ],
        )  # fmt: skip
    finally:
        await close_db()
    assert balance == 100
    if fresh is not None:
        # The comparison below sees the newest migration's change (it could fail).
        assert await _schema(url, tmp_path) != await _schema(fresh, tmp_path / "fresh")

    assert await migrate_db(settings) == [newest]
    assert await migrate_db(settings) == []

    if fresh is not None:
        upgraded_schema = await _schema(url, tmp_path)
        assert upgraded_schema == await _schema(fresh, tmp_path / "fresh")
        assert upgraded_schema["columns"]  # not two empty schemas

    async with running_app(settings) as app:
        client = app.test_client()
        me = await client.get("/api/v3/account", headers=key_headers(key))
        assert me.status_code == 200
        body = (await me.get_json())["account"]
        assert body["id"] == account.id
        assert body["credits_balance"] == 100
        charged = await client.post(
            "/api/v3/numerology/profile", json=NUMEROLOGY, headers=key_headers(key)
        )
        assert charged.status_code == 200
        cost = int(charged.headers["X-Credits-Charged"])
        assert cost >= 1
        ledger = await client.get("/api/v3/ledger", headers=key_headers(key))
        entries = (await ledger.get_json())["entries"]
        # Newest first: this call's charge, then the previous release's top-up.
        assert (entries[0]["credits"], entries[0]["balance_after"]) == (-cost, 100 - cost)
        assert (entries[1]["credits"], entries[1]["balance_after"]) == (60, 100), entries
        login = await client.post(
            "/auth/login", json={"email": "owner@upgraded.test", "password": PASSWORD}
        )
        assert login.status_code == 200
        assert (await login.get_json())["customer"]["id"] == customer_id
