"""Accounts, customers and keys for the end-to-end tests, made the way an operator makes them:
through the ``astro-server`` CLI of the stack under test (``create-account``, ``create-customer``),
so each test starts from its own tenant on a shared server."""

from __future__ import annotations

import json
from typing import Any

from tests._support.stack import Stack

#: The password of every customer these helpers create.
PASSWORD = "correct horse battery staple"


def create_account(
    stack: Stack,
    *,
    tier: str = "free",
    credits: int = 0,
    name: str = "e2e",
    customer_email: str | None = None,
    password: str = PASSWORD,
) -> dict[str, Any]:
    """A new account (``create-account --json``: ``account_id``, ``api_key``, ...) with ``credits``
    on ``tier``; with ``customer_email``, also a customer of it who signs in with ``password``."""
    out = stack.run_cli(
        "create-account", "--name", name, "--tier", tier, "--credits", str(credits), "--json",
        check=False,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    account: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    if customer_email is not None:
        create_customer(stack, account["account_id"], customer_email, password)
    return account


def create_customer(
    stack: Stack, account_id: str, email: str, password: str = PASSWORD
) -> dict[str, Any]:
    """A customer of ``account_id`` (``create-customer --json``)."""
    out = stack.run_cli(
        "create-customer", "--account", account_id, "--email", email, "--password", password,
        "--json", check=False,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    customer: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return customer
