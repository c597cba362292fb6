"""``client.developer``: the developer workflow for a signed-in customer (session routes
``/v1/developer/...``, the portal's Developers area).

Log in first (``client.auth.login(email, password)``); an API key is refused on these routes.
Every method takes ``mode="live"`` or ``"test"``: test keys and test webhook endpoints are seen
and made in test mode only (another mode's id is a ``NotFoundError``), and test mode's usage and
ledger are empty. Every login reads; making, rotating and revoking keys and changing webhook
endpoints need the owner or admin role (``PermissionDeniedError`` otherwise).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import partial

from astro_sdk._base import validate_request
from astro_sdk._operation import Credential, Operation, route
from astro_sdk._resource import AsyncResource, SyncResource
from astro_sdk.models.developer import (
    ApiKey,
    ApiKeyPage,
    AuditEventPage,
    CreatedApiKey,
    RotateApiKeyRequest,
    RotatedApiKey,
    Scope,
    UsageReport,
)
from astro_sdk.models.developer_session import (
    CreateSessionApiKeyRequest,
    DeveloperJob,
    DeveloperOverview,
    ModePageQuery,
    ModeQuery,
    SessionAuditQuery,
    SessionLedgerPage,
    SessionUsageQuery,
    TestEventEnvelope,
)
from astro_sdk.models.webhook_endpoints import (
    CreatedWebhookEndpoint,
    CreateWebhookEndpointRequest,
    DeletedWebhookEndpoint,
    EventDelivery,
    EventDeliveryEnvelope,
    EventDeliveryPage,
    EventType,
    RotatedWebhookEndpointSecret,
    UpdateWebhookEndpointRequest,
    WebhookEndpoint,
    WebhookEndpointEnvelope,
    WebhookEndpointPage,
)

__all__ = ["AsyncDeveloper", "Developer"]

BASE = "/v1/developer"
HOOKS = BASE + "/webhook-endpoints"
HOOK = HOOKS + "/{id}"


_op = partial(route, credential=Credential.SESSION, query=ModeQuery)


OVERVIEW: Operation[DeveloperOverview] = _op(
    "getDeveloperOverview", "GET", BASE + "/overview", DeveloperOverview
)
USAGE: Operation[UsageReport] = _op(
    "getDeveloperUsage", "GET", BASE + "/usage", UsageReport, query=SessionUsageQuery
)
LEDGER: Operation[SessionLedgerPage] = _op(
    "listDeveloperLedgerEntries", "GET", BASE + "/ledger", SessionLedgerPage, query=ModePageQuery
)
JOB: Operation[DeveloperJob] = _op("getDeveloperJob", "GET", BASE + "/jobs/{job_id}", DeveloperJob)
LIST_KEYS: Operation[ApiKeyPage] = _op(
    "listDeveloperApiKeys", "GET", BASE + "/keys", ApiKeyPage, query=ModePageQuery
)
CREATE_KEY: Operation[CreatedApiKey] = _op(
    "createDeveloperApiKey", "POST", BASE + "/keys", CreatedApiKey,
    request=CreateSessionApiKeyRequest, query=None, status=201,
)  # fmt: skip
ROTATE_KEY: Operation[RotatedApiKey] = _op(
    "rotateDeveloperApiKey", "POST", BASE + "/keys/{key_id}/rotate", RotatedApiKey,
    request=RotateApiKeyRequest,
)  # fmt: skip
REVOKE_KEY: Operation[ApiKey] = _op(
    "revokeDeveloperApiKey", "DELETE", BASE + "/keys/{key_id}", ApiKey
)
AUDIT: Operation[AuditEventPage] = _op(
    "listDeveloperAuditEvents", "GET", BASE + "/audit-log", AuditEventPage, query=SessionAuditQuery
)
LIST_HOOKS: Operation[WebhookEndpointPage] = _op(
    "listDeveloperWebhookEndpoints", "GET", HOOKS, WebhookEndpointPage, query=ModePageQuery
)
CREATE_HOOK: Operation[CreatedWebhookEndpoint] = _op(
    "createDeveloperWebhookEndpoint", "POST", HOOKS, CreatedWebhookEndpoint,
    request=CreateWebhookEndpointRequest, status=201,
)  # fmt: skip
GET_HOOK: Operation[WebhookEndpointEnvelope] = _op(
    "getDeveloperWebhookEndpoint", "GET", HOOK, WebhookEndpointEnvelope
)
UPDATE_HOOK: Operation[WebhookEndpointEnvelope] = _op(
    "updateDeveloperWebhookEndpoint", "PATCH", HOOK, WebhookEndpointEnvelope,
    request=UpdateWebhookEndpointRequest,
)  # fmt: skip
DELETE_HOOK: Operation[DeletedWebhookEndpoint] = _op(
    "deleteDeveloperWebhookEndpoint", "DELETE", HOOK, DeletedWebhookEndpoint, status=204
)
ROTATE_HOOK: Operation[RotatedWebhookEndpointSecret] = _op(
    "rotateDeveloperWebhookEndpointSecret", "POST", HOOK + "/rotate-secret",
    RotatedWebhookEndpointSecret,
)  # fmt: skip
TEST_HOOK: Operation[TestEventEnvelope] = _op(
    "sendDeveloperWebhookTestEvent", "POST", HOOK + "/test", TestEventEnvelope
)
DELIVERIES: Operation[EventDeliveryPage] = _op(
    "listDeveloperWebhookDeliveries", "GET", HOOK + "/deliveries", EventDeliveryPage,
    query=ModePageQuery,
)  # fmt: skip
RETRY: Operation[EventDeliveryEnvelope] = _op(
    "retryDeveloperWebhookDelivery", "POST", HOOK + "/deliveries/{delivery_id}/retry",
    EventDeliveryEnvelope, status=202,
)  # fmt: skip

OPERATIONS = (
    OVERVIEW, USAGE, LEDGER, JOB, LIST_KEYS, CREATE_KEY, ROTATE_KEY, REVOKE_KEY, AUDIT,
    LIST_HOOKS, CREATE_HOOK, GET_HOOK, UPDATE_HOOK, DELETE_HOOK, ROTATE_HOOK, TEST_HOOK,
    DELIVERIES, RETRY,
)  # fmt: skip


def _mode(mode: str) -> ModeQuery:
    return validate_request(ModeQuery, {"mode": mode})


def _page(mode: str, limit: int | None, cursor: str | None) -> ModePageQuery:
    return validate_request(ModePageQuery, {"mode": mode, "limit": limit, "cursor": cursor})


class AsyncDeveloper(AsyncResource):
    """``client.developer``: balance, usage, ledger, API keys, webhook endpoints and the audit
    log of the signed-in customer's account (session token)."""

    operations = OPERATIONS

    async def overview(self, *, mode: str = "live") -> DeveloperOverview:
        """``GET /v1/developer/overview``: balance, tier, this UTC month's spend, key and
        endpoint counts of the mode, and ``buy_credits_url`` when the deployment sets one."""
        return await self._client.request(OVERVIEW, query=_mode(mode))

    async def usage(
        self,
        *,
        start: datetime | str | None = None,
        end: datetime | str | None = None,
        group_by: str | None = None,
        mode: str = "live",
    ) -> UsageReport:
        """``GET /v1/developer/usage``: billed calls and credits in ``[start, end)`` (default
        the last 30 days) per ``operation`` or UTC ``day``. Empty in test mode."""
        query = validate_request(
            SessionUsageQuery, {"mode": mode, "from": start, "to": end, "group_by": group_by}
        )
        return await self._client.request(USAGE, query=query)

    async def ledger(
        self, *, limit: int | None = None, cursor: str | None = None, mode: str = "live"
    ) -> SessionLedgerPage:
        """``GET /v1/developer/ledger``: one page of ledger rows, newest first, each with its
        ``job_id`` and ``report_id``; pass ``next_cursor`` as ``cursor`` for the next."""
        return await self._client.request(LEDGER, query=_page(mode, limit, cursor))

    async def job(self, job_id: str, *, mode: str = "live") -> DeveloperJob:
        """``GET /v1/developer/jobs/{job_id}``: one of the account's jobs with its report."""
        return await self._client.request(JOB, query=_mode(mode), path_params={"job_id": job_id})

    async def list_keys(
        self, *, limit: int | None = None, cursor: str | None = None, mode: str = "live"
    ) -> ApiKeyPage:
        """``GET /v1/developer/keys``: one page of the mode's keys (revoked ones too)."""
        return await self._client.request(LIST_KEYS, query=_page(mode, limit, cursor))

    async def create_key(
        self,
        *,
        name: str | None = None,
        environment: str | None = None,
        scopes: Sequence[Scope] | None = None,
    ) -> CreatedApiKey:
        """``POST /v1/developer/keys``: a new ``live`` (default) or ``test`` key with
        ``scopes`` (default every scope); ``.secret`` is shown this once. Owner or admin."""
        body = validate_request(
            CreateSessionApiKeyRequest,
            {"name": name, "environment": environment, "scopes": list(scopes) if scopes else None},
        )
        return await self._client.request(CREATE_KEY, body=body)

    async def rotate_key(
        self, key_id: str, *, grace_s: int | None = None, mode: str = "live"
    ) -> RotatedApiKey:
        """``POST /v1/developer/keys/{key_id}/rotate``: a new secret; the old one works
        ``grace_s`` more seconds (at most 7 days). Owner or admin."""
        body = validate_request(RotateApiKeyRequest, {"grace_s": grace_s})
        return await self._client.request(
            ROTATE_KEY, body=body, query=_mode(mode), path_params={"key_id": key_id}
        )

    async def revoke_key(self, key_id: str, *, mode: str = "live") -> ApiKey:
        """``DELETE /v1/developer/keys/{key_id}``: revoked at once. Owner or admin."""
        return await self._client.request(
            REVOKE_KEY, query=_mode(mode), path_params={"key_id": key_id}
        )

    async def audit_log(
        self,
        *,
        start: datetime | str | None = None,
        end: datetime | str | None = None,
        action: str | None = None,
        actor: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> AuditEventPage:
        """``GET /v1/developer/audit-log``: one page of the account's audit rows (both modes),
        newest first, filtered by time, ``action`` and ``actor``."""
        query = validate_request(
            SessionAuditQuery,
            {"from": start, "to": end, "action": action, "actor": actor, "limit": limit,
             "cursor": cursor},
        )  # fmt: skip
        return await self._client.request(AUDIT, query=query)

    async def list_webhook_endpoints(
        self, *, limit: int | None = None, cursor: str | None = None, mode: str = "live"
    ) -> WebhookEndpointPage:
        """``GET /v1/developer/webhook-endpoints``: one page of the mode's endpoints."""
        return await self._client.request(LIST_HOOKS, query=_page(mode, limit, cursor))

    async def create_webhook_endpoint(
        self, *, url: str, event_types: Sequence[EventType], mode: str = "live"
    ) -> CreatedWebhookEndpoint:
        """``POST /v1/developer/webhook-endpoints``: a new endpoint of the mode; keep
        ``signing_secret``, shown only here. Owner or admin."""
        body = validate_request(
            CreateWebhookEndpointRequest, {"url": url, "event_types": list(event_types)}
        )
        return await self._client.request(CREATE_HOOK, body=body, query=_mode(mode))

    async def get_webhook_endpoint(
        self, endpoint_id: str, *, mode: str = "live"
    ) -> WebhookEndpoint:
        """``GET /v1/developer/webhook-endpoints/{id}``."""
        envelope = await self._client.request(
            GET_HOOK, query=_mode(mode), path_params={"id": endpoint_id}
        )
        return envelope.endpoint

    async def update_webhook_endpoint(
        self,
        endpoint_id: str,
        *,
        active: bool | None = None,
        event_types: Sequence[EventType] | None = None,
        mode: str = "live",
    ) -> WebhookEndpoint:
        """``PATCH /v1/developer/webhook-endpoints/{id}``: pause or resume and/or replace
        ``event_types``. Owner or admin."""
        body = validate_request(
            UpdateWebhookEndpointRequest,
            {"active": active, "event_types": None if event_types is None else list(event_types)},
        )
        envelope = await self._client.request(
            UPDATE_HOOK, body=body, query=_mode(mode), path_params={"id": endpoint_id}
        )
        return envelope.endpoint

    async def delete_webhook_endpoint(
        self, endpoint_id: str, *, mode: str = "live"
    ) -> DeletedWebhookEndpoint:
        """``DELETE /v1/developer/webhook-endpoints/{id}`` (204). Owner or admin."""
        return await self._client.request(
            DELETE_HOOK, query=_mode(mode), path_params={"id": endpoint_id}
        )

    async def rotate_webhook_secret(
        self, endpoint_id: str, *, mode: str = "live"
    ) -> RotatedWebhookEndpointSecret:
        """``POST /v1/developer/webhook-endpoints/{id}/rotate-secret``: a new signing secret;
        the old one signs beside it for 24 hours. Owner or admin."""
        return await self._client.request(
            ROTATE_HOOK, query=_mode(mode), path_params={"id": endpoint_id}
        )

    async def send_webhook_test(self, endpoint_id: str, *, mode: str = "live") -> EventDelivery:
        """``POST /v1/developer/webhook-endpoints/{id}/test``: one signed event marked
        ``"test": true`` sent now; returns the delivery with its attempt. Owner or admin."""
        envelope = await self._client.request(
            TEST_HOOK, query=_mode(mode), path_params={"id": endpoint_id}
        )
        return envelope.delivery

    async def webhook_deliveries(
        self,
        endpoint_id: str,
        *,
        limit: int | None = None,
        cursor: str | None = None,
        mode: str = "live",
    ) -> EventDeliveryPage:
        """``GET /v1/developer/webhook-endpoints/{id}/deliveries``: one page of the delivery
        log, each message with every attempt (status, duration, the answer's start)."""
        return await self._client.request(
            DELIVERIES, query=_page(mode, limit, cursor), path_params={"id": endpoint_id}
        )

    async def retry_webhook_delivery(
        self, endpoint_id: str, delivery_id: str, *, mode: str = "live"
    ) -> EventDelivery:
        """``POST .../webhook-endpoints/{id}/deliveries/{delivery_id}/retry``: a failed delivery
        sent again now. ``ConflictError`` when it succeeded, is in progress or was a test."""
        envelope = await self._client.request(
            RETRY, query=_mode(mode), path_params={"id": endpoint_id, "delivery_id": delivery_id}
        )
        return envelope.delivery


# --- Generated by scripts/unasync.py from the Async classes above: do not edit below. ---


class Developer(SyncResource):
    """``client.developer``: balance, usage, ledger, API keys, webhook endpoints and the audit
    log of the signed-in customer's account (session token)."""

    operations = OPERATIONS

    def overview(self, *, mode: str = "live") -> DeveloperOverview:
        """``GET /v1/developer/overview``: balance, tier, this UTC month's spend, key and
        endpoint counts of the mode, and ``buy_credits_url`` when the deployment sets one."""
        return self._client.request(OVERVIEW, query=_mode(mode))

    def usage(
        self,
        *,
        start: datetime | str | None = None,
        end: datetime | str | None = None,
        group_by: str | None = None,
        mode: str = "live",
    ) -> UsageReport:
        """``GET /v1/developer/usage``: billed calls and credits in ``[start, end)`` (default
        the last 30 days) per ``operation`` or UTC ``day``. Empty in test mode."""
        query = validate_request(
            SessionUsageQuery, {"mode": mode, "from": start, "to": end, "group_by": group_by}
        )
        return self._client.request(USAGE, query=query)

    def ledger(
        self, *, limit: int | None = None, cursor: str | None = None, mode: str = "live"
    ) -> SessionLedgerPage:
        """``GET /v1/developer/ledger``: one page of ledger rows, newest first, each with its
        ``job_id`` and ``report_id``; pass ``next_cursor`` as ``cursor`` for the next."""
        return self._client.request(LEDGER, query=_page(mode, limit, cursor))

    def job(self, job_id: str, *, mode: str = "live") -> DeveloperJob:
        """``GET /v1/developer/jobs/{job_id}``: one of the account's jobs with its report."""
        return self._client.request(JOB, query=_mode(mode), path_params={"job_id": job_id})

    def list_keys(
        self, *, limit: int | None = None, cursor: str | None = None, mode: str = "live"
    ) -> ApiKeyPage:
        """``GET /v1/developer/keys``: one page of the mode's keys (revoked ones too)."""
        return self._client.request(LIST_KEYS, query=_page(mode, limit, cursor))

    def create_key(
        self,
        *,
        name: str | None = None,
        environment: str | None = None,
        scopes: Sequence[Scope] | None = None,
    ) -> CreatedApiKey:
        """``POST /v1/developer/keys``: a new ``live`` (default) or ``test`` key with
        ``scopes`` (default every scope); ``.secret`` is shown this once. Owner or admin."""
        body = validate_request(
            CreateSessionApiKeyRequest,
            {"name": name, "environment": environment, "scopes": list(scopes) if scopes else None},
        )
        return self._client.request(CREATE_KEY, body=body)

    def rotate_key(
        self, key_id: str, *, grace_s: int | None = None, mode: str = "live"
    ) -> RotatedApiKey:
        """``POST /v1/developer/keys/{key_id}/rotate``: a new secret; the old one works
        ``grace_s`` more seconds (at most 7 days). Owner or admin."""
        body = validate_request(RotateApiKeyRequest, {"grace_s": grace_s})
        return self._client.request(
            ROTATE_KEY, body=body, query=_mode(mode), path_params={"key_id": key_id}
        )

    def revoke_key(self, key_id: str, *, mode: str = "live") -> ApiKey:
        """``DELETE /v1/developer/keys/{key_id}``: revoked at once. Owner or admin."""
        return self._client.request(REVOKE_KEY, query=_mode(mode), path_params={"key_id": key_id})

    def audit_log(
        self,
        *,
        start: datetime | str | None = None,
        end: datetime | str | None = None,
        action: str | None = None,
        actor: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> AuditEventPage:
        """``GET /v1/developer/audit-log``: one page of the account's audit rows (both modes),
        newest first, filtered by time, ``action`` and ``actor``."""
        query = validate_request(
            SessionAuditQuery,
            {"from": start, "to": end, "action": action, "actor": actor, "limit": limit,
             "cursor": cursor},
        )  # fmt: skip
        return self._client.request(AUDIT, query=query)

    def list_webhook_endpoints(
        self, *, limit: int | None = None, cursor: str | None = None, mode: str = "live"
    ) -> WebhookEndpointPage:
        """``GET /v1/developer/webhook-endpoints``: one page of the mode's endpoints."""
        return self._client.request(LIST_HOOKS, query=_page(mode, limit, cursor))

    def create_webhook_endpoint(
        self, *, url: str, event_types: Sequence[EventType], mode: str = "live"
    ) -> CreatedWebhookEndpoint:
        """``POST /v1/developer/webhook-endpoints``: a new endpoint of the mode; keep
        ``signing_secret``, shown only here. Owner or admin."""
        body = validate_request(
            CreateWebhookEndpointRequest, {"url": url, "event_types": list(event_types)}
        )
        return self._client.request(CREATE_HOOK, body=body, query=_mode(mode))

    def get_webhook_endpoint(self, endpoint_id: str, *, mode: str = "live") -> WebhookEndpoint:
        """``GET /v1/developer/webhook-endpoints/{id}``."""
        envelope = self._client.request(
            GET_HOOK, query=_mode(mode), path_params={"id": endpoint_id}
        )
        return envelope.endpoint

    def update_webhook_endpoint(
        self,
        endpoint_id: str,
        *,
        active: bool | None = None,
        event_types: Sequence[EventType] | None = None,
        mode: str = "live",
    ) -> WebhookEndpoint:
        """``PATCH /v1/developer/webhook-endpoints/{id}``: pause or resume and/or replace
        ``event_types``. Owner or admin."""
        body = validate_request(
            UpdateWebhookEndpointRequest,
            {"active": active, "event_types": None if event_types is None else list(event_types)},
        )
        envelope = self._client.request(
            UPDATE_HOOK, body=body, query=_mode(mode), path_params={"id": endpoint_id}
        )
        return envelope.endpoint

    def delete_webhook_endpoint(
        self, endpoint_id: str, *, mode: str = "live"
    ) -> DeletedWebhookEndpoint:
        """``DELETE /v1/developer/webhook-endpoints/{id}`` (204). Owner or admin."""
        return self._client.request(DELETE_HOOK, query=_mode(mode), path_params={"id": endpoint_id})

    def rotate_webhook_secret(
        self, endpoint_id: str, *, mode: str = "live"
    ) -> RotatedWebhookEndpointSecret:
        """``POST /v1/developer/webhook-endpoints/{id}/rotate-secret``: a new signing secret;
        the old one signs beside it for 24 hours. Owner or admin."""
        return self._client.request(ROTATE_HOOK, query=_mode(mode), path_params={"id": endpoint_id})

    def send_webhook_test(self, endpoint_id: str, *, mode: str = "live") -> EventDelivery:
        """``POST /v1/developer/webhook-endpoints/{id}/test``: one signed event marked
        ``"test": true`` sent now; returns the delivery with its attempt. Owner or admin."""
        envelope = self._client.request(
            TEST_HOOK, query=_mode(mode), path_params={"id": endpoint_id}
        )
        return envelope.delivery

    def webhook_deliveries(
        self,
        endpoint_id: str,
        *,
        limit: int | None = None,
        cursor: str | None = None,
        mode: str = "live",
    ) -> EventDeliveryPage:
        """``GET /v1/developer/webhook-endpoints/{id}/deliveries``: one page of the delivery
        log, each message with every attempt (status, duration, the answer's start)."""
        return self._client.request(
            DELIVERIES, query=_page(mode, limit, cursor), path_params={"id": endpoint_id}
        )

    def retry_webhook_delivery(
        self, endpoint_id: str, delivery_id: str, *, mode: str = "live"
    ) -> EventDelivery:
        """``POST .../webhook-endpoints/{id}/deliveries/{delivery_id}/retry``: a failed delivery
        sent again now. ``ConflictError`` when it succeeded, is in progress or was a test."""
        envelope = self._client.request(
            RETRY, query=_mode(mode), path_params={"id": endpoint_id, "delivery_id": delivery_id}
        )
        return envelope.delivery
