"""Developer workflow for a signed-in customer (session token only): the portal's Developers area.

The same account, usage, ledger, API keys, webhook endpoints and audit log the API-key routes
(:mod:`.routes`, ``features/webhooks``) offer, under ``/v1/developer/...`` for a customer
session (spec, Authentication: a session route takes a session token, never an API key). They
call the same services with the session's :class:`~astro_server.platform.caller.Caller`.

Test mode: a session is neither live nor test, so each route takes ``mode=live|test`` (default
``live``), as a dashboard's test-mode switch does: test keys and test webhook endpoints are
listed and made in test mode only (another mode's id is 404, as another account's is). Test
calls leave no ledger rows, so test mode's usage and ledger are empty.

Roles (platform/auth/roles.py, one table): every login may read (viewer and up); creating,
rotating and revoking keys and changing webhook endpoints needs ``admin`` (owner and admin
manage the account's developer objects).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from quart import Blueprint, Response
from quart_schema import (
    document_response,
    operation_id,
    tag,
    validate_querystring,
    validate_request,
)

from astro_server.features.common.routing import as_utc
from astro_server.features.developer import service
from astro_server.features.developer.jobs_routes import JobRecord
from astro_server.features.developer.routes import (
    ApiKeyInfo,
    AuditPage,
    AuditQuery,
    CreatedKey,
    KeyPage,
    RotatedKey,
    RotateKeyRequest,
    ScopeName,
    UsageResponse,
)
from astro_server.features.webhooks.routes import (
    CreatedEndpoint,
    CreateEndpointRequest,
    EndpointEnvelope,
    EndpointList,
    EventDelivery,
    EventDeliveryEnvelope,
    EventDeliveryList,
    RotatedEndpointSecret,
    UpdateEndpointRequest,
)
from astro_server.platform import audit, clock, jobs
from astro_server.platform.auth import keys, scopes
from astro_server.platform.auth.guards import (
    announce_key_change,
    require_session,
)
from astro_server.platform.auth.roles import require_role
from astro_server.platform.billing import usage
from astro_server.platform.caller import Caller
from astro_server.platform.delivery import common as delivery
from astro_server.platform.delivery import engine as feed_pipeline
from astro_server.platform.delivery import events
from astro_server.platform.delivery import tasks as delivery_tasks
from astro_server.platform.delivery.retry import utc_now
from astro_server.platform.errors import not_found
from astro_server.platform.responses import json_response
from astro_server.platform.schemas import ErrorBody

blueprint = Blueprint("developer_session", __name__)
TAG = ["Developer workflow"]
BASE = "/v1/developer"
HOOKS = f"{BASE}/webhook-endpoints"
Mode = Literal["live", "test"]


# --- models ------------------------------------------------------------------------------------


class ModeQuery(BaseModel):
    mode: Mode = Field(default="live", description="live, or test for test keys and endpoints")


class ModePageQuery(ModeQuery):
    limit: int = Field(default=20, ge=1, le=100)
    cursor: str | None = Field(default=None, max_length=40)


class SessionUsageQuery(ModeQuery):
    model_config = ConfigDict(populate_by_name=True)

    from_: dt.datetime | None = Field(
        default=None, alias="from", description="Start (inclusive); default 30 days before to"
    )
    to: dt.datetime | None = Field(default=None, description="End (exclusive); default now")
    group_by: Literal["operation", "day"] = "operation"


class OverviewAccount(BaseModel):
    id: str
    name: str
    tier: Literal["free", "starter", "pro", "enterprise"]
    credits_balance: int
    created_at: dt.datetime


class MonthSpend(BaseModel):
    from_: dt.datetime = Field(alias="from", description="The first instant of this UTC month")
    to: dt.datetime
    calls: int = Field(description="Billed calls (debits) this month")
    credits_charged: int
    credits_refunded: int
    net_credits: int = Field(description="What this month cost: charged minus refunded")


class KeyCounts(BaseModel):
    active: int = Field(description="Unrevoked keys of the mode, rotated ones in grace included")
    revoked: int


class DeveloperOverview(BaseModel):
    mode: Mode
    account: OverviewAccount
    month: MonthSpend
    keys: KeyCounts
    webhook_endpoints: int
    buy_credits_url: str | None = Field(
        description="Where this deployment sells credits (ASTRO_BUY_CREDITS_URL); null: none"
    )


class SessionLedgerRow(BaseModel):
    id: str
    type: Literal["debit", "refund", "top_up"]
    operation: str
    credits: int = Field(description="Signed: debits negative")
    balance_after: int | None
    request_id: str | None
    job_id: str | None
    report_id: str | None = Field(description="The report the row's job made, if any")
    created_at: dt.datetime


class SessionLedgerPage(BaseModel):
    entries: list[SessionLedgerRow]
    next_cursor: str | None = Field(description="Pass as cursor for the next page; null at end")


class SessionJob(JobRecord):
    report_id: str | None = Field(description="The report this job made, if any")


def _all_scopes() -> list[ScopeName]:
    return ["*"]


class CreateSessionKeyRequest(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    name: str = Field(default="", max_length=100)
    environment: Literal["live", "test"] = "live"
    scopes: list[ScopeName] = Field(
        default_factory=_all_scopes, min_length=1, max_length=len(scopes.SCOPES) + 1
    )


class TestEventEnvelope(BaseModel):
    delivery: EventDelivery


# --- helpers -----------------------------------------------------------------------------------


def _in_mode(caller: Caller, mode: str) -> Caller:
    """The session's caller in the chosen mode (sessions themselves are live)."""
    return replace(caller, livemode=mode == "live")


async def _endpoint(caller: Caller, endpoint_id: str, mode: str) -> events.WebhookEndpoint:
    if not endpoint_id.startswith("whe_") or len(endpoint_id) != 28:
        raise not_found("Webhook endpoint")
    return await events.owned_endpoint(_in_mode(caller, mode), endpoint_id)


# --- account, usage, ledger, jobs --------------------------------------------------------------


@blueprint.get(f"{BASE}/overview")
@require_session
@validate_querystring(ModeQuery)
@document_response(DeveloperOverview, 200)
@tag(TAG)
@operation_id("getDeveloperOverview")
async def get_overview(query_args: ModeQuery, caller: Caller) -> Response:
    """The dashboard's head: balance, tier, this UTC month's spend, key and endpoint counts, and
    where credits are bought (if the deployment says). Free."""
    caller = _in_mode(caller, query_args.mode)
    view = await service.overview(caller, delivery.current_settings().buy_credits_url)
    return json_response({"mode": query_args.mode, **view})


@blueprint.get(f"{BASE}/usage")
@require_session
@validate_querystring(SessionUsageQuery)
@document_response(UsageResponse, 200)
@tag(TAG)
@operation_id("getDeveloperUsage")
async def get_usage(query_args: SessionUsageQuery, caller: Caller) -> Response:
    """Billed calls, credits charged and refunded in ``[from, to)``, grouped by operation or by
    UTC day (at most 366 days). Empty in test mode. Free."""
    end = as_utc(query_args.to) if query_args.to else dt.datetime.now(dt.UTC)
    start = as_utc(query_args.from_) if query_args.from_ else end - dt.timedelta(days=30)
    usage.check_range(start, end)
    caller = _in_mode(caller, query_args.mode)
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


@blueprint.get(f"{BASE}/ledger")
@require_session
@validate_querystring(ModePageQuery)
@document_response(SessionLedgerPage, 200)
@tag(TAG)
@operation_id("listDeveloperLedgerEntries")
async def list_ledger(query_args: ModePageQuery, caller: Caller) -> Response:
    """The ledger, newest first, paged with ``cursor``; each row names its job and, when the
    job made one, its report. Empty in test mode. Free."""
    caller = _in_mode(caller, query_args.mode)
    if not caller.livemode:
        return json_response({"entries": [], "next_cursor": None})
    entries, next_cursor = await service.ledger_page(
        caller.account_id, query_args.limit, query_args.cursor
    )
    return json_response({"entries": entries, "next_cursor": next_cursor})


@blueprint.get(f"{BASE}/jobs/<job_id>")
@require_session
@validate_querystring(ModeQuery)
@document_response(SessionJob, 200)
@document_response(ErrorBody, 404)
@tag(TAG)
@operation_id("getDeveloperJob")
async def get_job(job_id: str, query_args: ModeQuery, caller: Caller) -> Response:
    """One of the account's jobs (the ledger links to it) with the report it made, if any."""
    job = await jobs.get_owned_job(_in_mode(caller, query_args.mode), job_id)
    report_id = await service.report_of_job(job.account_id, job.id)
    return json_response({**jobs.job_view(job), "report_id": report_id})


# --- keys --------------------------------------------------------------------------------------


@blueprint.get(f"{BASE}/keys")
@require_session
@validate_querystring(ModePageQuery)
@document_response(KeyPage, 200)
@tag(TAG)
@operation_id("listDeveloperApiKeys")
async def list_keys(query_args: ModePageQuery, caller: Caller) -> Response:
    """The account's API keys of the mode (revoked ones too), newest first."""
    caller = _in_mode(caller, query_args.mode)
    rows, next_cursor = await keys.list_keys(
        caller, caller.account_id, limit=query_args.limit, cursor=query_args.cursor
    )
    return json_response({"keys": [keys.key_view(k) for k in rows], "next_cursor": next_cursor})


@blueprint.post(f"{BASE}/keys")
@require_session
@require_role("admin")
@validate_request(CreateSessionKeyRequest)
@document_response(CreatedKey, 201)
@document_response(ErrorBody, 409)
@tag(TAG)
@operation_id("createDeveloperApiKey")
async def create_key(data: CreateSessionKeyRequest, caller: Caller) -> Response:
    """A new live or test API key with the given scopes; its secret is in this response only.
    Owner or admin."""
    caller = _in_mode(caller, data.environment)
    key, secret = await keys.create_key(
        caller,
        caller.account_id,
        name=data.name,
        environment=data.environment,
        wanted=keys.check_scopes(list(data.scopes)),
    )
    return json_response({"key": keys.key_view(key), "secret": secret}, 201)


@blueprint.post(f"{BASE}/keys/<key_id>/rotate")
@require_session
@require_role("admin")
@validate_request(RotateKeyRequest)
@validate_querystring(ModeQuery)
@document_response(RotatedKey, 200)
@document_response(ErrorBody, 404)
@document_response(ErrorBody, 409)
@tag(TAG)
@operation_id("rotateDeveloperApiKey")
async def rotate_key(
    key_id: str, data: RotateKeyRequest, query_args: ModeQuery, caller: Caller
) -> Response:
    """A new secret replacing the key; the old one keeps working for ``grace_s`` seconds (at
    most 7 days). Owner or admin."""
    caller = _in_mode(caller, query_args.mode)
    new, secret, old = await keys.rotate_key(
        caller, caller.account_id, key_id, data.grace_s, announce_key_change
    )
    return json_response(
        {"key": keys.key_view(new), "secret": secret, "previous": keys.key_view(old)}
    )


@blueprint.delete(f"{BASE}/keys/<key_id>")
@require_session
@require_role("admin")
@validate_querystring(ModeQuery)
@document_response(ApiKeyInfo, 200)
@document_response(ErrorBody, 404)
@tag(TAG)
@operation_id("revokeDeveloperApiKey")
async def revoke_key(key_id: str, query_args: ModeQuery, caller: Caller) -> Response:
    """Revoke the key at once, in every API process. Owner or admin."""
    caller = _in_mode(caller, query_args.mode)
    key = await keys.revoke_key(caller, caller.account_id, key_id, announce_key_change)
    return json_response(keys.key_view(key))


# --- audit log ---------------------------------------------------------------------------------


@blueprint.get(f"{BASE}/audit-log")
@require_session
@validate_querystring(AuditQuery)
@document_response(AuditPage, 200)
@tag(TAG)
@operation_id("listDeveloperAuditEvents")
async def list_audit(query_args: AuditQuery, caller: Caller) -> Response:
    """The account's audit rows (both modes), newest first, filtered by time, action and
    actor."""
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


# --- webhook endpoints -------------------------------------------------------------------------


@blueprint.get(HOOKS)
@require_session
@validate_querystring(ModePageQuery)
@document_response(EndpointList, 200)
@tag(TAG)
@operation_id("listDeveloperWebhookEndpoints")
async def list_endpoints(query_args: ModePageQuery, caller: Caller) -> Response:
    """The account's webhook endpoints of the mode, newest first."""
    page, next_cursor = await events.list_endpoints(
        _in_mode(caller, query_args.mode), limit=query_args.limit, cursor=query_args.cursor
    )
    return json_response(
        {"endpoints": [events.endpoint_view(e) for e in page], "next_cursor": next_cursor}
    )


@blueprint.post(HOOKS)
@require_session
@require_role("admin")
@validate_request(CreateEndpointRequest)
@validate_querystring(ModeQuery)
@document_response(CreatedEndpoint, 201)
@document_response(ErrorBody, 400)
@document_response(ErrorBody, 409)
@tag(TAG)
@operation_id("createDeveloperWebhookEndpoint")
async def create_endpoint(
    data: CreateEndpointRequest, query_args: ModeQuery, caller: Caller
) -> Response:
    """Register an HTTPS endpoint for account events of the mode; ``signing_secret`` is shown
    only here. 400 ``unsafe_destination`` / ``unknown_event_type``; 409 ``endpoint_limit``.
    Owner or admin."""
    caller = _in_mode(caller, query_args.mode)
    endpoint, secret = await events.create_endpoint(
        account_id=caller.account_id,
        url=data.url,
        event_types=data.event_types,
        livemode=caller.livemode,
        settings=delivery.current_settings(),
    )
    return json_response(
        {"endpoint": events.endpoint_view(endpoint), "signing_secret": secret}, 201
    )


@blueprint.get(f"{HOOKS}/<endpoint_id>")
@require_session
@validate_querystring(ModeQuery)
@document_response(EndpointEnvelope, 200)
@document_response(ErrorBody, 404)
@tag(TAG)
@operation_id("getDeveloperWebhookEndpoint")
async def get_endpoint(endpoint_id: str, query_args: ModeQuery, caller: Caller) -> Response:
    """One webhook endpoint of the account and mode."""
    endpoint = await _endpoint(caller, endpoint_id, query_args.mode)
    return json_response({"endpoint": events.endpoint_view(endpoint)})


@blueprint.patch(f"{HOOKS}/<endpoint_id>")
@require_session
@require_role("admin")
@validate_request(UpdateEndpointRequest)
@validate_querystring(ModeQuery)
@document_response(EndpointEnvelope, 200)
@document_response(ErrorBody, 400)
@document_response(ErrorBody, 404)
@tag(TAG)
@operation_id("updateDeveloperWebhookEndpoint")
async def update_endpoint(
    endpoint_id: str,
    data: UpdateEndpointRequest,
    query_args: ModeQuery,
    caller: Caller,
) -> Response:
    """Pause or resume (``active``; resuming clears ``disabled_at`` and the failure count)
    and/or replace ``event_types``. Owner or admin."""
    endpoint = await _endpoint(caller, endpoint_id, query_args.mode)
    endpoint = await events.update_endpoint(
        endpoint, active=data.active, event_types=data.event_types, now=utc_now()
    )
    return json_response({"endpoint": events.endpoint_view(endpoint)})


@blueprint.delete(f"{HOOKS}/<endpoint_id>")
@require_session
@require_role("admin")
@validate_querystring(ModeQuery)
@document_response(ErrorBody, 404)
@tag(TAG)
@operation_id("deleteDeveloperWebhookEndpoint")
async def delete_endpoint(endpoint_id: str, query_args: ModeQuery, caller: Caller) -> Response:
    """Delete the endpoint and its delivery log. Owner or admin."""
    endpoint = await _endpoint(caller, endpoint_id, query_args.mode)
    await endpoint.delete()
    return Response(status=204)


@blueprint.post(f"{HOOKS}/<endpoint_id>/rotate-secret")
@require_session
@require_role("admin")
@validate_querystring(ModeQuery)
@document_response(RotatedEndpointSecret, 200)
@document_response(ErrorBody, 404)
@tag(TAG)
@operation_id("rotateDeveloperWebhookEndpointSecret")
async def rotate_secret(endpoint_id: str, query_args: ModeQuery, caller: Caller) -> Response:
    """A new signing secret; the old one keeps signing beside it for 24 hours. Owner or
    admin."""
    endpoint = await _endpoint(caller, endpoint_id, query_args.mode)
    endpoint, secret, until = await events.rotate_secret(
        endpoint, now=utc_now(), settings=delivery.current_settings()
    )
    return json_response(
        {
            "endpoint": events.endpoint_view(endpoint),
            "signing_secret": secret,
            "previous_secret_expires_at": clock.iso(until),
        }
    )


@blueprint.post(f"{HOOKS}/<endpoint_id>/test")
@require_session
@require_role("admin")
@validate_querystring(ModeQuery)
@document_response(TestEventEnvelope, 200)
@document_response(ErrorBody, 404)
@tag(TAG)
@operation_id("sendDeveloperWebhookTestEvent")
async def send_test(endpoint_id: str, query_args: ModeQuery, caller: Caller) -> Response:
    """Send one signed event marked ``"test": true`` now and return its attempt (status,
    duration, the receiver's answer). Not retried, not counted as a failure. Owner or admin."""
    endpoint = await _endpoint(caller, endpoint_id, query_args.mode)
    view = await events.send_test_event(
        endpoint, now=utc_now(), settings=delivery.current_settings()
    )
    return json_response({"delivery": view})


@blueprint.get(f"{HOOKS}/<endpoint_id>/deliveries")
@require_session
@validate_querystring(ModePageQuery)
@document_response(EventDeliveryList, 200)
@document_response(ErrorBody, 404)
@tag(TAG)
@operation_id("listDeveloperWebhookDeliveries")
async def list_deliveries(endpoint_id: str, query_args: ModePageQuery, caller: Caller) -> Response:
    """The delivery log, newest first: each message with every attempt (status code, duration,
    the first 2048 characters of the answer)."""
    endpoint = await _endpoint(caller, endpoint_id, query_args.mode)
    page, next_cursor = await events.list_deliveries(
        endpoint, limit=query_args.limit, cursor=query_args.cursor
    )
    return json_response({"deliveries": page, "next_cursor": next_cursor})


@blueprint.post(f"{HOOKS}/<endpoint_id>/deliveries/<delivery_id>/retry")
@require_session
@require_role("admin")
@validate_querystring(ModeQuery)
@document_response(EventDeliveryEnvelope, 202)
@document_response(ErrorBody, 404)
@document_response(ErrorBody, 409)
@tag(TAG)
@operation_id("retryDeveloperWebhookDelivery")
async def retry_delivery(
    endpoint_id: str, delivery_id: str, query_args: ModeQuery, caller: Caller
) -> Response:
    """Retry a failed delivery now (same ``webhook-id`` and body, a fresh retry round). 409
    when it succeeded (code ``delivery_succeeded``), is still being attempted, or was a test.
    Owner or admin."""
    endpoint = await _endpoint(caller, endpoint_id, query_args.mode)
    found = await events.owned_delivery(endpoint, delivery_id)
    retried = await feed_pipeline.retry_delivery(
        found, now=utc_now(), kick=delivery_tasks.kick_delivery, unless_succeeded=True
    )
    return json_response({"delivery": await events.delivery_with_log(retried)}, 202)
