"""Operator actions on accounts, keys and customers (the CLI calls these)."""

from __future__ import annotations

from typing import Any

from tortoise.exceptions import IntegrityError
from tortoise.transactions import in_transaction

from astro_server.platform import clock
from astro_server.platform.audit import record_audit
from astro_server.platform.auth import credentials, keys, scopes
from astro_server.platform.auth.passwords import password_problem
from astro_server.platform.billing import ledger as billing
from astro_server.platform.billing.pricing import TIERS
from astro_server.platform.caller import Caller
from astro_server.platform.models.accounts import Account, ApiKey, Customer, CustomerSession


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
        Caller.operator(account_id),
        account_id,
        name=name,
        environment=environment,
        wanted=scopes_wanted,
    )
    return secret


async def revoke_api_key(key_or_prefix: str) -> int:
    """Revoke one key, named by the whole key or by its display prefix (the CLI's
    ``revoke-key``; see :func:`astro_server.platform.auth.keys.revoke_by_secret_or_prefix`).
    No unrevoked key matching is a :class:`LookupError` (the CLI's one-line error, exit 2)."""
    count = await keys.revoke_by_secret_or_prefix(key_or_prefix)
    if not count:
        raise LookupError(f"no unrevoked API key is {key_or_prefix} or starts with it")
    return count


async def caller_account(caller: Caller) -> Account:
    """The caller's account as stored now: a fresh balance (the guard's may come from a cached
    key lookup)."""
    return await Account.get(id=caller.account_id)


async def _account(account_id: str) -> Account:
    account = await Account.get_or_none(id=account_id)
    if account is None:
        raise LookupError(f"no account {account_id}")
    return account


async def set_tier(account_id: str, tier: str) -> tuple[str, str]:
    """Move an account to ``tier``; returns (previous tier, new tier). Audited as
    ``account.tier_changed``; every API process stops trusting its cached key lookups (they carry
    the tier), as after a revocation."""
    if tier not in TIERS:
        raise ValueError(f"tier must be one of {', '.join(TIERS)}")
    account = await _account(account_id)
    previous = account.tier
    if previous != tier:
        async with in_transaction() as conn:
            await Account.filter(id=account_id).using_db(conn).update(tier=tier)
            await record_audit(
                Caller.operator(account_id), "account.tier_changed", account_id, using_db=conn
            )
        await keys.announce_from_cli()
    return previous, tier


def account_view(account: Account) -> dict[str, Any]:
    return {
        "id": account.id,
        "name": account.name,
        "tier": account.tier,
        "credits": account.credits,
        "created_at": clock.iso(account.created_at),
    }


def customer_view(customer: Customer) -> dict[str, Any]:
    return {
        "id": customer.id,
        "account_id": customer.account_id,  # type: ignore[attr-defined]
        "email": customer.email,
        "role": customer.role,
        "created_at": clock.iso(customer.created_at),
        "disabled_at": clock.iso(customer.disabled_at),
    }


async def list_accounts() -> list[dict[str, Any]]:
    """Every account, oldest first (the operator's ``list-accounts``)."""
    return [account_view(a) for a in await Account.all().order_by("created_at", "id")]


async def list_customers(account_id: str | None = None) -> list[dict[str, Any]]:
    """Every login, or one account's, oldest first (``list-customers``)."""
    query = Customer.all()
    if account_id is not None:
        await _account(account_id)
        query = query.filter(account_id=account_id)
    return [customer_view(c) for c in await query.order_by("created_at", "id")]


async def show_account(account_id: str) -> dict[str, Any]:
    """One account: balance, tier, its keys (prefixes and metadata, never a secret) and its
    logins (``show-account``)."""
    account = await _account(account_id)
    listed = await ApiKey.filter(account_id=account_id).order_by("created_at", "id")
    return {
        **account_view(account),
        "keys": [keys.key_view(k) for k in listed],
        "customers": await list_customers(account_id),
    }


async def reset_password(email: str, password: str) -> tuple[Customer, int]:
    """Set a login's password (the same policy as everywhere) and end its open sessions;
    returns (customer, sessions ended). Audited as ``customer.password_reset``."""
    email = email.strip().lower()
    customer = await Customer.get_or_none(email=email)
    if customer is None:
        raise LookupError(f"no customer with the e-mail {email}")
    problem = password_problem(password, email)
    if problem is not None:
        raise ValueError(f"password {problem}")
    account_id = str(customer.account_id)  # type: ignore[attr-defined]
    async with in_transaction() as conn:
        await (
            Customer.filter(id=customer.id)
            .using_db(conn)
            .update(password_hash=credentials.hash_password(password))
        )
        ended = (
            await CustomerSession.filter(customer_id=customer.id, revoked_at=None)
            .using_db(conn)
            .update(revoked_at=clock.now())
        )
        await record_audit(
            Caller.operator(account_id), "customer.password_reset", customer.id, using_db=conn
        )
    return customer, ended


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
