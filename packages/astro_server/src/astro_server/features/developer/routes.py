"""Developer workflow and key management (API key): the account, its usage and ledger, its API
keys, and the audit log.

``/account``, ``/usage`` and ``/ledger`` are free and rate limited and need no scope; ``/keys``
needs the ``keys`` scope and ``/audit-log`` the ``team`` scope (platform/auth/scopes.py). A test key
(``ak_test_``) sees its account and only test keys; test calls leave no ledger rows, so its
usage and ledger are empty.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from quart import Blueprint, Response
from quart_schema import (
    document_response,
    operation_id,
    tag,
    validate_querystring,
    validate_request,
)

from astro_server.features.common.routing import as_utc
from astro_server.platform import audit, clock
from astro_server.platform.auth import accounts, keys, scopes
from astro_server.platform.auth.guards import (
    announce_key_change,
    rate_limit_for,
    require_api_key,
)
from astro_server.platform.auth.roles import require_role
from astro_server.platform.billing import usage
from astro_server.platform.caller import Caller
from astro_server.platform.responses import json_response
from astro_server.platform.schemas import ErrorBody

blueprint = Blueprint("developer", __name__)
TAG = ["Developer workflow"]
KEY_ID = r"^key_[a-f0-9]{24}$"
if TYPE_CHECKING:
    ScopeName = str
else:
    # The one list of scopes is platform/auth/scopes.py's ("*" first); the API's enum is built
    # from it, so the two cannot drift.
    ScopeName = Literal[(scopes.ALL, *scopes.SCOPES)]


# --- models ------------------------------------------------------------------------------------


def _every_scope() -> list[ScopeName]:
    return ["*"]


class AccountInfo(BaseModel):
    id: str
    name: str
    tier: Literal["free", "starter", "pro", "enterprise"]
    credits_balance: int
    rate_limit_per_minute: int = Field(description="The calling key's limit (test keys: own)")
    created_at: dt.datetime


class ApiKeyInfo(BaseModel):
    id: str = Field(pattern=KEY_ID)
    prefix: str = Field(description="The key's first 12 characters, e.g. ak_live_AbCd")
    name: str
    environment: Literal["live", "test"]
    scopes: list[ScopeName]
    created_at: dt.datetime
    last_used_at: dt.datetime | None = Field(description="Updated at most once a minute")
    expires_at: dt.datetime | None = Field(description="End of a rotated key's grace period")
    revoked_at: dt.datetime | None


class AccountResponse(BaseModel):
    account: AccountInfo
    key: ApiKeyInfo = Field(description="The key making this call")


class UsageQuery(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    from_: dt.datetime | None = Field(
        default=None, alias="from", description="Start (inclusive); default 30 days before to"
    )
    to: dt.datetime | None = Field(default=None, description="End (exclusive); default now")
    group_by: Literal["operation", "day"] = "operation"


class UsageGroup(BaseModel):
    key: str = Field(description="The operation, or the UTC day (YYYY-MM-DD)")
    calls: int = Field(description="Billed calls (debits)")
    credits_charged: int
    refunds: int
    credits_refunded: int
    net_credits: int


class UsageResponse(BaseModel):
    from_: dt.datetime = Field(alias="from")
    to: dt.datetime
    group_by: Literal["operation", "day"]
    groups: list[UsageGroup]


class PageQuery(BaseModel):
    limit: int = Field(default=20, ge=1, le=100)
    cursor: str | None = Field(default=None, max_length=40)


class LedgerRow(BaseModel):
    id: str
    type: Literal["debit", "refund", "top_up"]
    operation: str
    credits: int = Field(description="Signed: debits negative")
    balance_after: int | None = Field(description="The balance this row left (null before 0009)")
    request_id: str | None
    job_id: str | None
    created_at: dt.datetime


class LedgerPage(BaseModel):
    entries: list[LedgerRow]
    next_cursor: str | None = Field(description="Pass as cursor for the next page; null at end")


class KeyPage(BaseModel):
    keys: list[ApiKeyInfo]
    next_cursor: str | None = Field(description="Pass as cursor for the next page; null at end")


class CreateKeyRequest(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    name: str = Field(default="", max_length=100)
    environment: Literal["live", "test"] | None = Field(
        default=None, description="Default: the calling key's (a key manages its own only)"
    )
    scopes: list[ScopeName] = Field(
        default_factory=_every_scope, min_length=1, max_length=len(scopes.SCOPES) + 1
    )

    @field_validator("name")
    @classmethod
    def _printable(cls, value: str) -> str:
        if any(not ch.isprintable() for ch in value):
            raise ValueError("must hold printable characters only")
        return value


class CreatedKey(BaseModel):
    key: ApiKeyInfo
    secret: str = Field(description="The API key itself: shown this once, stored only hashed")


class RotateKeyRequest(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    grace_s: int = Field(
        default=0,
        ge=0,
        le=keys.MAX_GRACE_S,
        description="Seconds the old secret keeps working (0: stops now; at most 7 days)",
    )


class RotatedKey(BaseModel):
    key: ApiKeyInfo = Field(description="The new key")
    secret: str = Field(description="The new key's secret: shown this once")
    previous: ApiKeyInfo = Field(description="The old key, working until its expires_at")


class AuditQuery(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    from_: dt.datetime | None = Field(default=None, alias="from")
    to: dt.datetime | None = None
    action: str | None = Field(default=None, max_length=64, description="e.g. key.revoked")
    actor: str | None = Field(default=None, max_length=40, description="A key id or customer id")
    limit: int = Field(default=50, ge=1, le=200)
    cursor: str | None = Field(default=None, max_length=20)


class AuditActor(BaseModel):
    id: str
    kind: Literal["api_key", "customer", "operator"]


class AuditEventModel(BaseModel):
    id: int
    action: str
    object_id: str | None
    actor: AuditActor
    livemode: bool
    request_id: str | None
    client_address: str | None
    created_at: dt.datetime


class AuditPage(BaseModel):
    events: list[AuditEventModel]
    next_cursor: str | None = Field(description="Pass as cursor for the next page; null at end")


# --- account, usage, ledger ---------------------------------------------------------------------


@blueprint.get("/api/v3/account")
@require_api_key
@document_response(AccountResponse, 200)
@tag(TAG)
@operation_id("getAccount")
async def get_account(caller: Caller) -> Response:
    """The calling account (fresh balance) and the key making the call. Free."""
    account = await accounts.caller_account(caller)
    key = await keys.get_key(caller, account.id, caller.credential_id)
    return json_response(
        {
            "account": {
                "id": account.id,
                "name": account.name,
                "tier": account.tier,
                "credits_balance": account.credits,
                "rate_limit_per_minute": rate_limit_for(account.tier, caller.livemode),
                "created_at": clock.iso(account.created_at),
            },
            "key": keys.key_view(key),
        }
    )


@blueprint.get("/api/v3/usage")
@require_api_key
@validate_querystring(UsageQuery)
@document_response(UsageResponse, 200)
@tag(TAG)
@operation_id("getUsage")
async def get_usage(query_args: UsageQuery, caller: Caller) -> Response:
    """Billed calls, credits charged and refunded in ``[from, to)``, grouped by operation or by
    UTC day, from the ledger. At most 366 days; free."""
    end = as_utc(query_args.to) if query_args.to else dt.datetime.now(dt.UTC)
    start = as_utc(query_args.from_) if query_args.from_ else end - dt.timedelta(days=30)
    usage.check_range(start, end)
    groups = (
        await usage.usage(caller.account_id, start, end, query_args.group_by)
        if caller.livemode
        else []
    )
    return json_response(
        {
            "from": clock.iso(start),
            "to": clock.iso(end),
            "group_by": query_args.group_by,
            "groups": groups,
        }
    )


@blueprint.get("/api/v3/ledger")
@require_api_key
@validate_querystring(PageQuery)
@document_response(LedgerPage, 200)
@tag(TAG)
@operation_id("listLedgerEntries")
async def list_ledger(query_args: PageQuery, caller: Caller) -> Response:
    """The account's ledger rows (debits, refunds, top-ups), newest first, paged with
    ``cursor``. Free."""
    if not caller.livemode:
        return json_response({"entries": [], "next_cursor": None})
    rows, next_cursor = await usage.ledger_page(
        caller.account_id, query_args.limit, query_args.cursor
    )
    return json_response(
        {"entries": [usage.ledger_view(r) for r in rows], "next_cursor": next_cursor}
    )


# --- keys --------------------------------------------------------------------------------------


@blueprint.get("/api/v3/keys")
@require_api_key
@validate_querystring(PageQuery)
@document_response(KeyPage, 200)
@document_response(ErrorBody, 403)
@tag(TAG)
@operation_id("listApiKeys")
async def list_api_keys(query_args: PageQuery, caller: Caller) -> Response:
    """The account's API keys of the caller's environment (revoked ones too), newest first.
    Needs the ``keys`` scope."""
    rows, next_cursor = await keys.list_keys(
        caller, caller.account_id, limit=query_args.limit, cursor=query_args.cursor
    )
    return json_response({"keys": [keys.key_view(k) for k in rows], "next_cursor": next_cursor})


@blueprint.post("/api/v3/keys")
@require_api_key
@require_role("admin")
@validate_request(CreateKeyRequest)
@document_response(CreatedKey, 201)
@document_response(ErrorBody, 403)
@document_response(ErrorBody, 409)
@tag(TAG)
@operation_id("createApiKey")
async def create_api_key(data: CreateKeyRequest, caller: Caller) -> Response:
    """A new API key; its secret is in this response only. Needs the ``keys`` scope; the new
    key's scopes must be within the caller's (403 otherwise), its environment the caller's."""
    key, secret = await keys.create_key(
        caller,
        caller.account_id,
        name=data.name,
        environment=data.environment or ("live" if caller.livemode else "test"),
        wanted=keys.check_scopes(list(data.scopes)),
    )
    return json_response({"key": keys.key_view(key), "secret": secret}, 201)


@blueprint.post("/api/v3/keys/<key_id>/rotate")
@require_api_key
@require_role("admin")
@validate_request(RotateKeyRequest)
@document_response(RotatedKey, 200)
@document_response(ErrorBody, 403)
@document_response(ErrorBody, 404)
@document_response(ErrorBody, 409)
@tag(TAG)
@operation_id("rotateApiKey")
async def rotate_api_key(key_id: str, data: RotateKeyRequest, caller: Caller) -> Response:
    """A new secret replacing the key: the old one keeps working for ``grace_s`` seconds (at
    most 7 days), then stops. Needs the ``keys`` scope."""
    new, secret, old = await keys.rotate_key(
        caller, caller.account_id, key_id, data.grace_s, announce_key_change
    )
    return json_response(
        {"key": keys.key_view(new), "secret": secret, "previous": keys.key_view(old)}
    )


@blueprint.delete("/api/v3/keys/<key_id>")
@require_api_key
@require_role("admin")
@document_response(ApiKeyInfo, 200)
@document_response(ErrorBody, 403)
@document_response(ErrorBody, 404)
@tag(TAG)
@operation_id("revokeApiKey")
async def revoke_api_key(key_id: str, caller: Caller) -> Response:
    """Revoke the key at once, in every API process. Needs the ``keys`` scope."""
    key = await keys.revoke_key(caller, caller.account_id, key_id, announce_key_change)
    return json_response(keys.key_view(key))


# --- audit log ---------------------------------------------------------------------------------


@blueprint.get("/api/v3/audit-log")
@require_api_key
@validate_querystring(AuditQuery)
@document_response(AuditPage, 200)
@document_response(ErrorBody, 403)
@tag(TAG)
@operation_id("listAuditEvents")
async def list_audit_events(query_args: AuditQuery, caller: Caller) -> Response:
    """The account's audit rows (who, what, when, request id, client address), newest first,
    filtered by time, action and actor. Needs the ``team`` scope."""
    rows, next_cursor = await audit.list_events(
        caller.account_id,
        limit=query_args.limit,
        cursor=query_args.cursor,
        start=as_utc(query_args.from_) if query_args.from_ else None,
        end=as_utc(query_args.to) if query_args.to else None,
        action=query_args.action,
        actor=query_args.actor,
    )
    return json_response(
        {"events": [audit.event_view(r) for r in rows], "next_cursor": next_cursor}
    )
