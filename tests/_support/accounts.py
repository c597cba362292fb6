"""Accounts, customers and keys for the end-to-end tests, made with the functions the operator's
``astro-server create-account`` and ``create-customer`` run (``astro_server.platform.auth
.accounts``), on the database of the stack under test and with its settings, so each test starts
from its own tenant on a shared server.

They run in this test process, not as a CLI subprocess: a subprocess costs about two seconds of
CPU to import the server for a few milliseconds of work, and the e2e tests make well over a
hundred accounts (on a 2-core machine that was minutes of the suite). The commands themselves,
with their JSON output and errors, are tested in packages/astro_server/tests/test_platform_cli.py,
tests/test_e2e_first_hour.py and the restore drill, which still run them as an operator does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from tests._support.stack import Stack

#: The password of every customer these helpers create.
PASSWORD = "correct horse battery staple"

T = TypeVar("T")


def on_stack_database(stack: Stack, action: Callable[[], Awaitable[T]]) -> T:
    """Run ``action`` connected to ``stack``'s database as the CLI's commands are (an embedded
    stack's SQLite schema brought up to date first), in a thread of its own: an async test's
    event loop is running in this one."""
    from astro_server.platform.db import close_db, init_db, migrate_db
    from astro_server.registry import build_platform
    from astro_server.settings import Settings

    settings = build_platform(Settings.from_env(stack.env)).settings

    async def run() -> T:
        if settings.embedded:
            await migrate_db(settings)
        await init_db(settings)
        try:
            return await action()
        finally:
            await close_db()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, run()).result(timeout=120)


def create_account(
    stack: Stack,
    *,
    tier: str = "free",
    credits: int = 0,
    name: str = "e2e",
    customer_email: str | None = None,
    password: str = PASSWORD,
) -> dict[str, Any]:
    """A new account (``account_id``, ``api_key``: what ``create-account --json`` prints) with
    ``credits`` on ``tier``; with ``customer_email``, also a customer of it who signs in with
    ``password``."""
    from astro_server.platform.auth import accounts

    made, key = on_stack_database(stack, lambda: accounts.create_account(name, tier, credits))
    account: dict[str, Any] = {"account_id": made.id, "api_key": key}
    if customer_email is not None:
        create_customer(stack, account["account_id"], customer_email, password)
    return account


def create_customer(
    stack: Stack, account_id: str, email: str, password: str = PASSWORD
) -> dict[str, Any]:
    """A customer of ``account_id`` (``customer_id``: what ``create-customer --json`` prints)."""
    from astro_server.platform.auth import accounts

    customer = on_stack_database(
        stack, lambda: accounts.create_customer(account_id, email, password)
    )
    return {"customer_id": customer.id}
