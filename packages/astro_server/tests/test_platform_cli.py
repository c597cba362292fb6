"""``astro-server`` operator commands and migrations, on SQLite and PostgreSQL."""

from __future__ import annotations

import io
import json
import os
import secrets
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from unittest import mock

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


def _cli(
    env: dict[str, str], *args: str, check: bool = True, separate: bool = False
) -> subprocess.CompletedProcess[str]:
    """Run ``astro-server`` with ``env`` as the whole environment. ``separate``: in its own
    process (``python -m astro_server.cli``, the entry point itself); otherwise ``cli.main`` in
    this process with stdout and stderr captured: the same parser, commands and exit statuses,
    without a second or two of interpreter and import start-up for each of the many calls."""
    if separate:
        return subprocess.run(
            [sys.executable, "-m", "astro_server.cli", *args],
            env=env,
            capture_output=True,
            text=True,
            check=check,
            timeout=120,
        )
    from astro_server import cli

    out, err = io.StringIO(), io.StringIO()
    with mock.patch.dict(os.environ, env, clear=True), redirect_stdout(out), redirect_stderr(err):
        try:
            code = cli.main(list(args))
        except SystemExit as exc:  # argparse's usage errors
            code = exc.code if isinstance(exc.code, int) else 1
    done = subprocess.CompletedProcess(
        ["astro-server", *args], code, out.getvalue(), err.getvalue()
    )
    if check:
        done.check_returncode()
    return done


@pytest.mark.slow
def test_operator_commands_from_an_empty_database(empty_database_url: str, tmp_path: Path) -> None:
    import asyncio

    from astro_server.platform.db import close_db, init_db
    from astro_server.platform.models.accounts import Account, ApiKey, Customer
    from astro_server.platform.models.billing import LedgerEntry
    from astro_server.settings import Settings

    database_url = empty_database_url
    env = _env(database_url, tmp_path)
    assert _cli(env, "migrate", separate=True).stdout.startswith("created the schema (")
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
    unknown = _cli(env, "revoke-key", "ak_live_zzzz", check=False)
    assert unknown.returncode == 2  # an error, not "revoked 0 key(s)"
    assert unknown.stdout == ""
    assert unknown.stderr.strip() == (
        "astro-server: no unrevoked API key is ak_live_zzzz or starts with it"
    )
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


@pytest.mark.slow
def test_account_inspection_tier_and_password_commands(database_url: str, tmp_path: Path) -> None:
    """set-tier, list-accounts, show-account, list-customers and reset-password, text and JSON;
    unknown accounts and logins are one-line errors (exit 2)."""
    import asyncio

    from astro_server.platform.db import close_db, init_db
    from astro_server.platform.models.accounts import Customer, CustomerSession
    from astro_server.platform.models.audit import AuditEvent
    from astro_server.settings import Settings

    env = _env(database_url, tmp_path)
    _cli(env, "migrate", separate=True)
    made = json.loads(
        _cli(
            env, "create-account", "--name", "Rue", "--tier", "starter", "--credits", "7", "--json"
        ).stdout
    )
    account = made["account_id"]
    _cli(env, "create-key", "--account", account, "--environment", "test", "--name", "ci")
    _cli(
        env, "create-customer", "--account", account, "--email", "rue@example.com",
        "--password", "long enough pw",
    )  # fmt: skip

    changed = json.loads(
        _cli(env, "set-tier", "--account", account, "--tier", "pro", "--json").stdout
    )
    assert changed == {"account_id": account, "tier": "pro", "previous_tier": "starter"}
    assert "(unchanged)" in _cli(env, "set-tier", "--account", account, "--tier", "pro").stdout
    assert (
        _cli(env, "set-tier", "--account", account, "--tier", "gold", check=False).returncode == 2
    )

    accounts = json.loads(_cli(env, "list-accounts", "--json").stdout)["accounts"]
    mine = next(a for a in accounts if a["id"] == account)
    assert (mine["name"], mine["tier"], mine["credits"]) == ("Rue", "pro", 7)
    assert f"{account}  pro" in _cli(env, "list-accounts").stdout

    shown = json.loads(_cli(env, "show-account", "--account", account, "--json").stdout)
    assert (shown["id"], shown["tier"], shown["credits"]) == (account, "pro", 7)
    assert sorted(k["environment"] for k in shown["keys"]) == ["live", "test"]
    assert made["api_key"][:12] in {k["prefix"] for k in shown["keys"]}
    assert made["api_key"] not in json.dumps(shown)  # a prefix, never the secret
    assert [c["email"] for c in shown["customers"]] == ["rue@example.com"]
    text = _cli(env, "show-account", "--account", account).stdout
    assert "tier: pro" in text
    assert "balance: 7 credits" in text
    assert made["api_key"][:12] + "..." in text
    missing = _cli(env, "show-account", "--account", "acct_nope", check=False)
    assert (missing.returncode, missing.stderr.strip()) == (2, "astro-server: no account acct_nope")

    logins = json.loads(_cli(env, "list-customers", "--account", account, "--json").stdout)
    assert [(c["email"], c["role"]) for c in logins["customers"]] == [("rue@example.com", "owner")]
    assert "rue@example.com" in _cli(env, "list-customers").stdout

    async def sessions(action: str) -> tuple[int, str, int]:
        from datetime import UTC, datetime, timedelta

        from astro_server.platform.auth import credentials

        await init_db(Settings.from_env(env))
        try:
            customer = await Customer.get(email="rue@example.com")
            if action == "login":
                await CustomerSession.create(
                    id=credentials.new_id("sess_"),
                    customer_id=customer.id,
                    token_hash=credentials.digest(credentials.new_session_token()),
                    expires_at=datetime.now(UTC) + timedelta(hours=1),
                )
            open_ = await CustomerSession.filter(customer_id=customer.id, revoked_at=None).count()
            audited = await AuditEvent.filter(
                account_id=account, action__in=("account.tier_changed", "customer.password_reset")
            ).count()
            return open_, customer.password_hash, audited
        finally:
            await close_db()

    before, old_hash, _ = asyncio.run(sessions("login"))
    assert before == 1
    weak = _cli(
        env, "reset-password", "--email", "rue@example.com", "--password", "short", check=False
    )
    assert weak.returncode == 2
    assert weak.stderr.startswith("astro-server: password ")
    reset = json.loads(
        _cli(
            {**env, "ASTRO_NEW_PASSWORD": "another long passphrase"},
            "reset-password", "--email", "Rue@Example.com", "--json",
        ).stdout
    )  # fmt: skip
    assert reset["sessions_ended"] == 1
    after, new_hash, audited = asyncio.run(sessions("read"))
    assert after == 0
    assert new_hash != old_hash
    assert audited == 2  # the tier change and the reset (the unchanged set-tier wrote nothing)
    nobody = _cli(
        env, "reset-password", "--email", "nobody@example.com", "--password", "x" * 20,
        check=False,
    )  # fmt: skip
    assert (nobody.returncode, nobody.stderr.strip()) == (
        2,
        "astro-server: no customer with the e-mail nobody@example.com",
    )
