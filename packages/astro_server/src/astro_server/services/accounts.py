"""Operator actions on accounts, keys and customers (the CLI calls these)."""

from __future__ import annotations

from datetime import UTC, datetime

from astro_server.models import Account, ApiKey, Customer
from astro_server.services import auth, billing, credentials
from astro_server.services.pricing import TIERS


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


async def create_api_key(account_id: str, environment: str = "live") -> str:
    if not await Account.exists(id=account_id):
        raise LookupError(f"no account {account_id}")
    secret = credentials.new_api_key(environment)
    await ApiKey.create(
        id=credentials.new_id("key_"),
        account_id=account_id,
        prefix=credentials.display_prefix(secret),
        key_hash=credentials.digest(secret),
        environment=environment,
    )
    return secret


async def revoke_api_key(prefix: str) -> int:
    """Revoke the keys whose display prefix (first 12 characters) is ``prefix``; returns count."""
    if len(prefix) < credentials.KEY_DISPLAY_CHARS:
        raise ValueError(f"give the first {credentials.KEY_DISPLAY_CHARS} characters of the key")
    prefix = prefix[: credentials.KEY_DISPLAY_CHARS]
    count = await ApiKey.filter(prefix=prefix, revoked_at=None).update(revoked_at=datetime.now(UTC))
    # This process stops accepting the key at once; other API processes within
    # Settings.api_key_cache_s seconds (their cached lookups expire).
    auth.forget_api_keys()
    return count


async def create_customer(account_id: str, email: str, password: str) -> Customer:
    if not await Account.exists(id=account_id):
        raise LookupError(f"no account {account_id}")
    if len(password) < 8:
        raise ValueError("password must be at least 8 characters")
    return await Customer.create(
        id=credentials.new_id("cus_"),
        account_id=account_id,
        email=email.strip().lower(),
        password_hash=credentials.hash_password(password),
    )
