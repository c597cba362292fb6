"""``astro-server`` operator commands and migrations, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest


def _env(database_url: str, tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASTRO_")}
    env.update(
        {
            "ASTRO_DATA_DIR": str(tmp_path / "var"),
            "ASTRO_DATABASE_URL": database_url,
            "ASTRO_SECRET_KEY": secrets.token_urlsafe(48),  # production refuses a weak one
        }
    )
    return env


def _cli(env: dict[str, str], *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "astro_server.cli", *args],
        env=env,
        capture_output=True,
        text=True,
        check=check,
        timeout=120,
    )


@pytest.mark.slow
def test_operator_commands_from_an_empty_database(empty_database_url: str, tmp_path: Path) -> None:
    import asyncio

    from astro_server.platform.db import close_db, init_db
    from astro_server.platform.models.accounts import Account, ApiKey, Customer
    from astro_server.platform.models.billing import LedgerEntry
    from astro_server.settings import Settings

    database_url = empty_database_url
    env = _env(database_url, tmp_path)
    assert _cli(env, "migrate").stdout.startswith("created the schema (")
    assert "already current" in _cli(env, "migrate").stdout  # idempotent
    created = json.loads(
        _cli(
            env, "create-account", "--name", "Acme", "--tier", "pro", "--credits", "50", "--json"
        ).stdout
    )
    assert created["account_id"].startswith("acct_")
    assert created["api_key"].startswith("ak_live_")
    second = json.loads(
        _cli(env, "create-key", "--account", created["account_id"], "--json").stdout
    )
    customer = json.loads(
        _cli(
            env,
            "create-customer",
            "--account",
            created["account_id"],
            "--email",
            "Owner@Acme.test",
            "--password",
            "long enough pw",
            "--json",
        ).stdout
    )
    assert customer["customer_id"].startswith("cus_")
    again = _cli(
        env,
        "create-customer",
        "--account",
        created["account_id"],
        "--email",
        "owner@acme.test",
        "--password",
        "long enough pw",
        check=False,
    )
    assert again.returncode == 2
    assert "already exists" in again.stderr
    assert "Traceback" not in again.stderr
    topped = json.loads(
        _cli(
            env, "add-credits", "--account", created["account_id"], "--credits", "25", "--json"
        ).stdout
    )
    assert topped == {"account_id": created["account_id"], "credits": 75}
    revoked = _cli(env, "revoke-key", second["api_key"][:12], "--json")
    assert json.loads(revoked.stdout) == {"revoked": 1}
    assert _cli(env, "revoke-key", "ak_live_zzzz", check=False).returncode == 1
    bad = _cli(env, "create-account", "--name", "x", "--credits", "-1", check=False)
    assert bad.returncode == 2

    async def check() -> None:
        await init_db(Settings.from_env(env))
        try:
            account = await Account.get(id=created["account_id"])
            assert (account.tier, account.credits) == ("pro", 75)
            keys = await ApiKey.filter(account_id=account.id).order_by("created_at")
            assert [k.revoked_at is None for k in keys] == [True, False]
            assert (await Customer.get(id=customer["customer_id"])).email == "owner@acme.test"
            top_ups = await LedgerEntry.filter(account_id=account.id, kind="top_up")
            assert sorted(e.amount for e in top_ups) == [25, 50]
        finally:
            await close_db()

    asyncio.run(check())
