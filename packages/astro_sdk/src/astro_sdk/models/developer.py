"""Models of the developer workflow: the account, usage, the ledger, API keys, the audit log."""

from __future__ import annotations

from datetime import datetime
from typing import Literal, get_args

from pydantic import Field

from astro_sdk.models._base import RequestModel, ResponseModel

__all__ = [
    "SCOPES",
    "AccountDetails",
    "AccountInfo",
    "ApiKey",
    "ApiKeyPage",
    "AuditActor",
    "AuditEvent",
    "AuditEventPage",
    "AuditLogQuery",
    "CreateApiKeyRequest",
    "CreatedApiKey",
    "LedgerEntry",
    "LedgerPage",
    "PageQuery",
    "RotateApiKeyRequest",
    "RotatedApiKey",
    "UsageGroup",
    "UsageQuery",
    "UsageReport",
]

Scope = Literal[
    "*",
    "western",
    "vedic",
    "thai",
    "chinese",
    "uranian",
    "tarot",
    "human_design",
    "horoscopes",
    "reports",
    "visual_readings",
    "cultural",
    "profiles",
    "team",
    "keys",
    "webhooks",
]
#: Every scope a key may hold; ``*`` is all of them.
SCOPES: tuple[str, ...] = get_args(Scope)


def _every_scope() -> list[Scope]:
    return ["*"]


class AccountInfo(ResponseModel):
    id: str
    name: str
    tier: str
    credits_balance: int
    rate_limit_per_minute: int
    """The calling key's limit per minute (test keys have their own)."""
    created_at: datetime


class ApiKey(ResponseModel):
    """An API key as listed (never its secret)."""

    id: str
    prefix: str
    """The first 12 characters, e.g. ``ak_live_AbCd``."""
    name: str
    environment: str
    """``live`` or ``test``."""
    scopes: list[str]
    created_at: datetime
    last_used_at: datetime | None
    """Updated at most once a minute."""
    expires_at: datetime | None
    """When a rotated key stops working."""
    revoked_at: datetime | None


class AccountDetails(ResponseModel):
    """``client.account.get()``: the account and the key making the call."""

    account: AccountInfo
    key: ApiKey


class UsageQuery(RequestModel):
    from_: datetime | None = Field(default=None, alias="from")
    to: datetime | None = None
    group_by: Literal["operation", "day"] = "operation"


class UsageGroup(ResponseModel):
    key: str
    """The operation, or the UTC day (``YYYY-MM-DD``)."""
    calls: int
    credits_charged: int
    refunds: int
    credits_refunded: int
    net_credits: int


class UsageReport(ResponseModel):
    from_: datetime = Field(alias="from")
    to: datetime
    group_by: str
    groups: list[UsageGroup]


class PageQuery(RequestModel):
    limit: int = Field(default=20, ge=1, le=100)
    cursor: str | None = Field(default=None, max_length=40)


class LedgerEntry(ResponseModel):
    id: str
    type: str
    """``debit``, ``refund`` or ``top_up``."""
    operation: str
    credits: int
    """Signed: debits are negative."""
    balance_after: int | None
    request_id: str | None
    job_id: str | None
    created_at: datetime


class LedgerPage(ResponseModel):
    entries: list[LedgerEntry]
    next_cursor: str | None


class ApiKeyPage(ResponseModel):
    keys: list[ApiKey]
    next_cursor: str | None


class CreateApiKeyRequest(RequestModel):
    name: str = Field(default="", max_length=100)
    environment: Literal["live", "test"] | None = None
    scopes: list[Scope] = Field(default_factory=_every_scope, min_length=1, max_length=len(SCOPES))


class CreatedApiKey(ResponseModel):
    key: ApiKey
    secret: str
    """The API key itself: shown this once."""


class RotateApiKeyRequest(RequestModel):
    grace_s: int = Field(default=0, ge=0, le=604800)


class RotatedApiKey(ResponseModel):
    key: ApiKey
    """The new key."""
    secret: str
    """The new key's secret: shown this once."""
    previous: ApiKey
    """The old key, working until its ``expires_at``."""


class AuditLogQuery(RequestModel):
    from_: datetime | None = Field(default=None, alias="from")
    to: datetime | None = None
    action: str | None = Field(default=None, max_length=64)
    actor: str | None = Field(default=None, max_length=40)
    limit: int = Field(default=50, ge=1, le=200)
    cursor: str | None = Field(default=None, max_length=20)


class AuditActor(ResponseModel):
    id: str
    kind: str
    """``api_key``, ``customer`` or ``operator``."""


class AuditEvent(ResponseModel):
    id: int
    action: str
    object_id: str | None
    actor: AuditActor
    livemode: bool
    request_id: str | None
    client_address: str | None
    created_at: datetime


class AuditEventPage(ResponseModel):
    events: list[AuditEvent]
    next_cursor: str | None
