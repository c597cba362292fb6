"""Operator actions on accounts, keys and customers (the CLI calls these)."""

from __future__ import annotations

from tortoise.exceptions import IntegrityError

from astro_server.platform.auth import credentials, keys, scopes
from astro_server.platform.auth.passwords import password_problem
from astro_server.platform.billing import ledger as billing
from astro_server.platform.billing.pricing import TIERS
from astro_server.platform.caller import Caller
from astro_server.platform.models.accounts import Account, Customer


async def create_account(name: str, tier: str, credits: int) -> tuple[Account, str]:
    """A new account with one live API key; returns (account, api key shown once)."""
    if tier not in TIERS:
        raise ValueError(f"tier must be one of {', '.join(TIERS)}")
    if credits < 0:
        raise ValueError("credits must be >= 0")
    account = await Account.create(id=credentials.new_id("acct_"), name=name, tier=tier)
    if credits:
        await billing.add_credits(account.id, credits, note="initial credits")
        await account.refresh_from_db()
    key = await create_api_key(account.id)
    return account, key


async def create_api_key(
    account_id: str,
    environment: str = "live",
    *,
    name: str = "",
    scopes_wanted: frozenset[str] = frozenset({scopes.ALL}),
) -> str:
    """The operator's key creation (CLI): the same service as ``POST /api/v3/keys``."""
    _key, secret = await keys.create_key(
        account_id,
        name=name,
        environment=environment,
        wanted=scopes_wanted,
        caller=Caller.operator(account_id),
    )
    return secret


async def revoke_api_key(key_or_prefix: str) -> int:
    """Revoke one key, named by the whole key or by its display prefix (the CLI's
    ``revoke-key``; see :func:`astro_server.platform.auth.keys.revoke_by_secret_or_prefix`)."""
    return await keys.revoke_by_secret_or_prefix(key_or_prefix)


async def create_customer(account_id: str, email: str, password: str) -> Customer:
    if not await Account.exists(id=account_id):
        raise LookupError(f"no account {account_id}")
    email = email.strip().lower()
    problem = password_problem(password, email)
    if problem is not None:
        raise ValueError(f"password {problem}")
    try:
        return await Customer.create(
            id=credentials.new_id("cus_"),
            account_id=account_id,
            email=email,
            password_hash=credentials.hash_password(password),
        )
    except IntegrityError:
        # E-mails are unique across the service (a login names no account): say only that.
        raise ValueError(f"a customer with the e-mail {email} already exists") from None
