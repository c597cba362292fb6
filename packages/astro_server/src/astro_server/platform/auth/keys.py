"""API keys managed by their account: create, list, rotate, revoke (the API and the CLI).

Ids are ``key_`` + 24 hex; the secret (``ak_live_``/``ak_test_`` + 32 url-safe characters) is
shown once, at creation or rotation, and stored only as its SHA-256 digest.

Rules (docs/decisions.md, "Keys, scopes, test mode"):

* Through the API a key manages keys of its own environment only (a test key sees and makes test
  keys, a live key live ones: another environment's key id is a 404, as another account's is),
  and only keys whose scopes its own cover: no key grants, rotates into or revokes a scope it
  lacks (403 ``forbidden``). The ``keys`` scope itself is checked by the route (scopes.py).
* Rotation makes a new key (new id and secret, same name, environment and scopes); the old one
  keeps working for ``grace_s`` seconds (0 to 7 days), then stops. A key already rotated or
  revoked cannot be rotated (409).
* Revocation is immediate in every API process (``auth.announce_key_change``).
* Every change appends an audit row (``key.created``, ``key.rotated``, ``key.revoked``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import timedelta
from typing import Any, Final

from tortoise.transactions import in_transaction

from astro_server.platform import audit, clock
from astro_server.platform.auth import credentials, scopes
from astro_server.platform.auth import guards as auth
from astro_server.platform.caller import Caller
from astro_server.platform.errors import APIError, not_found, validation_error
from astro_server.platform.models.accounts import Account, ApiKey
from astro_server.platform.paging import newest_first

MAX_GRACE_S: Final = 7 * 24 * 3600
MAX_ACTIVE_KEYS: Final = 100  # unrevoked keys per account and environment
ENVIRONMENTS: Final = ("live", "test")


def key_view(key: ApiKey) -> dict[str, Any]:
    return {
        "id": key.id,
        "prefix": key.prefix,
        "name": key.name,
        "environment": key.environment,
        "scopes": scopes.as_list(key.scopes),
        "created_at": clock.iso(key.created_at),
        "last_used_at": clock.iso(key.last_used_at),
        "expires_at": clock.iso(key.expires_at),
        "revoked_at": clock.iso(key.revoked_at),
    }


def _forbidden(message: str) -> APIError:
    return APIError(403, message, error="forbidden")


def check_scopes(wanted: list[str]) -> frozenset[str]:
    unknown = [s for s in wanted if s != scopes.ALL and s not in scopes.SCOPES]
    if unknown:
        raise validation_error(
            [{"field": "scopes", "message": f"unknown scope(s): {', '.join(sorted(unknown))}"}]
        )
    if not wanted:
        raise validation_error([{"field": "scopes", "message": "give at least one scope"}])
    return frozenset(wanted)


def _environment(caller: Caller) -> str:
    return "live" if caller.livemode else "test"


def _is_operator(caller: Caller) -> bool:
    return caller.credential_kind == "operator"


def _may_grant(caller: Caller, wanted: frozenset[str]) -> None:
    held = frozenset(caller.scopes)
    if _is_operator(caller) or scopes.covers(held, wanted):
        return
    missing = sorted(wanted - held) if scopes.ALL not in wanted else [scopes.ALL]
    raise _forbidden(f"This API key cannot grant scopes it lacks: {', '.join(missing)}.")


Announce = Callable[[], Awaitable[None]]


async def announce_from_cli() -> None:
    """Every API process stops trusting cached lookups (revocation, rotation), from outside
    them: bump the shared generation through Redis (production); in embedded mode the server's
    cache lapses within Settings.api_key_cache_s. A route passes
    :func:`~astro_server.platform.auth.guards.announce_key_change` instead."""
    from astro_server.platform import runtime

    auth.forget_api_keys()
    # The CLI's platform's settings (cli.py builds it before any command runs).
    limiter = runtime.make_rate_limiter(runtime.settings())
    try:
        await limiter.bump_generation()
    finally:
        await limiter.close()


async def create_key(
    caller: Caller,
    account_id: str,
    *,
    name: str = "",
    environment: str = "live",
    wanted: frozenset[str] = frozenset({scopes.ALL}),
) -> tuple[ApiKey, str]:
    """A new key; returns (row, secret shown once). ``caller``: the managing key (it grants
    only scopes it holds, in its own environment) or ``Caller.operator(account_id)``."""
    if environment not in ENVIRONMENTS:
        raise validation_error([{"field": "environment", "message": "must be live or test"}])
    mine = _environment(caller)
    if not _is_operator(caller) and environment != mine:
        raise _forbidden(
            f"A {mine} key manages {mine} keys only; make "
            f"{environment} keys with a {environment} key or the operator CLI."
        )
    _may_grant(caller, wanted)
    if not await Account.exists(id=account_id):
        raise LookupError(f"no account {account_id}")
    active = await ApiKey.filter(
        account_id=account_id, environment=environment, revoked_at=None
    ).count()
    if active >= MAX_ACTIVE_KEYS:
        raise APIError(
            409, f"An account holds at most {MAX_ACTIVE_KEYS} unrevoked {environment} keys."
        )
    secret = credentials.new_api_key(environment)
    async with in_transaction() as conn:
        key = await ApiKey.create(
            id=credentials.new_id("key_"),
            account_id=account_id,
            prefix=credentials.display_prefix(secret),
            key_hash=credentials.digest(secret),
            environment=environment,
            name=name,
            scopes=scopes.serialize(wanted),
            using_db=conn,
        )
        await audit.record_audit(
            replace(caller, livemode=environment == "live"), "key.created", key.id, using_db=conn
        )
    return key, secret


async def _owned(caller: Caller, account_id: str, key_id: str) -> ApiKey:
    query = ApiKey.filter(id=key_id, account_id=account_id)
    if not _is_operator(caller):
        query = query.filter(environment=_environment(caller))
    key = await query.first()
    if key is None:
        raise not_found("API key")
    return key


async def list_keys(
    caller: Caller, account_id: str, *, limit: int, cursor: str | None
) -> tuple[list[ApiKey], str | None]:
    """The account's keys of the caller's environment, newest first (revoked ones too)."""
    query = ApiKey.filter(account_id=account_id, environment=_environment(caller))
    return await newest_first(query, limit=limit, cursor=cursor)


async def get_key(caller: Caller, account_id: str, key_id: str) -> ApiKey:
    return await _owned(caller, account_id, key_id)


async def rotate_key(
    caller: Caller,
    account_id: str,
    key_id: str,
    grace_s: int,
    announce: Announce = announce_from_cli,
) -> tuple[ApiKey, str, ApiKey]:
    """A new key replacing ``key_id``; returns (new row, its secret, old row with its end)."""
    if not 0 <= grace_s <= MAX_GRACE_S:
        raise validation_error(
            [{"field": "grace_s", "message": f"must be between 0 and {MAX_GRACE_S}"}]
        )
    old = await _owned(caller, account_id, key_id)
    _may_grant(caller, scopes.parse(old.scopes))
    now = clock.now()
    ends = now + timedelta(seconds=grace_s)
    secret = credentials.new_api_key(old.environment)
    async with in_transaction() as conn:
        # Conditional: of two concurrent rotations of one key, one wins.
        changed = (
            await ApiKey.filter(id=old.id, revoked_at=None, expires_at=None)
            .using_db(conn)
            .update(expires_at=ends)
        )
        if not changed:
            raise APIError(409, "This API key is already revoked or rotated.")
        new = await ApiKey.create(
            id=credentials.new_id("key_"),
            account_id=account_id,
            prefix=credentials.display_prefix(secret),
            key_hash=credentials.digest(secret),
            environment=old.environment,
            name=old.name,
            scopes=old.scopes,
            using_db=conn,
        )
        await audit.record_audit(
            replace(caller, livemode=old.environment == "live"),
            "key.rotated",
            old.id,
            using_db=conn,
        )
    await announce()
    old.expires_at = ends
    return new, secret, old


async def revoke_key(
    caller: Caller, account_id: str, key_id: str, announce: Announce = announce_from_cli
) -> ApiKey:
    """Revoke at once (a key already revoked is answered as it is)."""
    key = await _owned(caller, account_id, key_id)
    _may_grant(caller, scopes.parse(key.scopes))
    if key.revoked_at is not None:
        return key
    now = clock.now()
    async with in_transaction() as conn:
        changed = (
            await ApiKey.filter(id=key.id, revoked_at=None).using_db(conn).update(revoked_at=now)
        )
        if changed:
            await audit.record_audit(
                replace(caller, livemode=key.environment == "live"),
                "key.revoked",
                key.id,
                using_db=conn,
            )
    await announce()
    key.revoked_at = now
    return key


async def revoke_by_secret_or_prefix(key_or_prefix: str) -> int:
    """The CLI's ``revoke-key``: a whole key (exactly that key) or its display prefix (the first
    12 characters) when no other unrevoked key shares it; returns how many were revoked. The
    prefix holds only four random characters, so an ambiguous prefix is refused (ValueError)."""
    n = credentials.KEY_DISPLAY_CHARS
    if len(key_or_prefix) < n:
        raise ValueError(f"give the whole key or its first {n} characters")
    if len(key_or_prefix) > n:
        matches = await ApiKey.filter(
            key_hash=credentials.digest(key_or_prefix), revoked_at=None
        ).values_list("id", "account_id")
    else:
        matches = await ApiKey.filter(prefix=key_or_prefix, revoked_at=None).values_list(
            "id", "account_id"
        )
        if len(matches) > 1:
            raise ValueError(
                f"{len(matches)} live keys start with {key_or_prefix}: give the whole key"
            )
    for key_id, account_id in matches:
        await revoke_key(Caller.operator(str(account_id)), str(account_id), str(key_id))
    return len(matches)
