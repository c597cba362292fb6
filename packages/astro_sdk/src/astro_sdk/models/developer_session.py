"""Models of the developer workflow for a signed-in customer (``client.developer``, session
routes ``/v1/developer/...``): the overview, the ledger with report ids, a job, and the
``mode`` (live or test) every route takes. Keys, usage, the audit log and webhook endpoints
answer with the models of ``client.keys``, ``client.usage``, ``client.audit_log`` and
``client.webhook_endpoints``."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from astro_sdk.models._base import RequestModel, ResponseModel
from astro_sdk.models.developer import SCOPES, Scope, _every_scope
from astro_sdk.models.webhook_endpoints import EventDelivery

__all__ = [
    "CreateSessionApiKeyRequest",
    "DeveloperJob",
    "DeveloperOverview",
    "KeyCounts",
    "ModePageQuery",
    "ModeQuery",
    "MonthSpend",
    "OverviewAccount",
    "SessionAuditQuery",
    "SessionLedgerEntry",
    "SessionLedgerPage",
    "SessionUsageQuery",
    "TestEventEnvelope",
]

Mode = Literal["live", "test"]


class ModeQuery(RequestModel):
    mode: Mode = "live"


class ModePageQuery(RequestModel):
    mode: Mode = "live"
    limit: int = Field(default=20, ge=1, le=100)
    cursor: str | None = Field(default=None, max_length=40)


class SessionUsageQuery(RequestModel):
    mode: Mode = "live"
    from_: datetime | None = Field(default=None, alias="from")
    to: datetime | None = None
    group_by: Literal["operation", "day"] = "operation"


class SessionAuditQuery(RequestModel):
    from_: datetime | None = Field(default=None, alias="from")
    to: datetime | None = None
    action: str | None = Field(default=None, max_length=64)
    actor: str | None = Field(default=None, max_length=40)
    limit: int = Field(default=50, ge=1, le=200)
    cursor: str | None = Field(default=None, max_length=20)


class OverviewAccount(ResponseModel):
    id: str
    name: str
    tier: str
    credits_balance: int
    created_at: datetime


class MonthSpend(ResponseModel):
    from_: datetime = Field(alias="from")
    """The first instant of this UTC month."""
    to: datetime
    calls: int
    credits_charged: int
    credits_refunded: int
    net_credits: int
    """What this month cost: charged minus refunded."""


class KeyCounts(ResponseModel):
    active: int
    revoked: int


class DeveloperOverview(ResponseModel):
    """``client.developer.overview()``: balance, tier, this month's spend, counts."""

    mode: str
    account: OverviewAccount
    month: MonthSpend
    keys: KeyCounts
    webhook_endpoints: int
    buy_credits_url: str | None
    """Where the deployment sells credits (``ASTRO_BUY_CREDITS_URL``); ``None``: nowhere."""


class SessionLedgerEntry(ResponseModel):
    id: str
    type: str
    """``debit``, ``refund`` or ``top_up``."""
    operation: str
    credits: int
    balance_after: int | None
    request_id: str | None
    job_id: str | None
    report_id: str | None
    """The report the row's job made, if any."""
    created_at: datetime


class SessionLedgerPage(ResponseModel):
    entries: list[SessionLedgerEntry]
    next_cursor: str | None


class DeveloperJob(ResponseModel):
    job_id: str
    status: str
    kind: str
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    progress: float
    result: Any = None
    error: dict[str, Any] | None
    credits_charged: int
    credits_refunded: int
    attempts: int
    livemode: bool
    report_id: str | None
    """The report this job made, if any."""


class CreateSessionApiKeyRequest(RequestModel):
    name: str = Field(default="", max_length=100)
    environment: Literal["live", "test"] = "live"
    scopes: list[Scope] = Field(default_factory=_every_scope, min_length=1, max_length=len(SCOPES))


class TestEventEnvelope(ResponseModel):
    delivery: EventDelivery
