"""Operator actions on accounts, keys and customers (the CLI calls these)."""

from __future__ import annotations

from datetime import UTC, datetime

from tortoise.exceptions import IntegrityError

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


async def revoke_api_key(key_or_prefix: str) -> int:
    """Revoke one key, named by the whole key (exactly that key) or by its display prefix (the
    first 12 characters) when no other live key shares it; returns how many were revoked (0 or
    1). The prefix holds only four random characters: among ten thousand keys two share one
    more often than not, so an ambiguous prefix is refused (ValueError) rather than revoking
    another tenant's key too."""
    n = credentials.KEY_DISPLAY_CHARS
    if len(key_or_prefix) < n:
        raise ValueError(f"give the whole key or its first {n} characters")
    now = datetime.now(UTC)
    if len(key_or_prefix) > n:
        count = await ApiKey.filter(
            key_hash=credentials.digest(key_or_prefix), revoked_at=None
        ).update(revoked_at=now)
    else:
        matches = await ApiKey.filter(prefix=key_or_prefix, revoked_at=None).values_list(
            "id", flat=True
        )
        if len(matches) > 1:
            raise ValueError(
                f"{len(matches)} live keys start with {key_or_prefix}: give the whole key"
            )
        count = await ApiKey.filter(id__in=list(matches)).update(revoked_at=now)
    # This process stops accepting the key at once; other API processes within
    # Settings.api_key_cache_s seconds (their cached lookups expire).
    auth.forget_api_keys()
    return count


async def create_customer(account_id: str, email: str, password: str) -> Customer:
    if not await Account.exists(id=account_id):
        raise LookupError(f"no account {account_id}")
    if len(password) < 8:
        raise ValueError("password must be at least 8 characters")
    email = email.strip().lower()
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
