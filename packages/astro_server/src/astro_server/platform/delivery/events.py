"""Account webhooks: endpoints (``whe_``) receiving account events, and :func:`emit_account_event`.

An endpoint belongs to an account; every lookup is scoped to it (another account's id is "not
found"). Its signing secret is generated here, stored encrypted bound to the endpoint id, shown
once at creation and once per rotation (the previous one keeps signing beside it for 24 h).

An event is one JSON body ``{id, type, created_at, livemode, data}`` (``id``: ``evt_`` + 24 hex,
the same for every endpoint it goes to). Emitting writes one delivery row per active endpoint of
the account (same livemode) subscribed to the type, with the exact bytes to send, and hands
them to the workers; from there the feeds' pipeline (:mod:`.feed_pipeline`) attempts, signs,
retries, counts failures and disables, exactly as it does for horoscope feeds.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.transactions import in_transaction

from astro_server.platform import clock
from astro_server.platform.caller import Caller
from astro_server.platform.delivery import common
from astro_server.platform.delivery import engine as feed_pipeline
from astro_server.platform.delivery.common import (
    bad_request,
    delivery_state,
    secret_box,
    unsafe_destination_message,
)
from astro_server.platform.delivery.http import DeliveryClient
from astro_server.platform.delivery.signing import (
    ROTATION_OVERLAP,
    new_message_id,
    new_signing_secret,
    sign_headers,
)
from astro_server.platform.delivery.ssrf import UnsafeDestination, canonical_url, check_destination
from astro_server.platform.errors import APIError
from astro_server.platform.models.delivery import (
    FeedDelivery,
    FeedDeliveryAttempt,
)
from astro_server.platform.models.delivery import (
    WebhookEndpoint as WebhookEndpoint,  # re-exported: routes name it through this service
)
from astro_server.platform.owned import owned, owned_query
from astro_server.platform.paging import newest_first
from astro_server.settings import Settings

log = logging.getLogger("astro_server.delivery")

EVENT_TYPES = (
    "report.succeeded",
    "report.failed",
    "visual_reading.succeeded",
    "visual_reading.failed",
    "visual_upload.validated",
    "visual_upload.rejected",
    "campaign.content_ready",
)
MAX_ENDPOINTS_PER_ACCOUNT = 20


def endpoint_view(endpoint: WebhookEndpoint) -> dict[str, Any]:
    return {
        "id": endpoint.id,
        "url": endpoint.destination_url,
        "event_types": list(endpoint.event_types),
        "active": endpoint.active,
        "livemode": endpoint.livemode,
        "consecutive_failures": endpoint.consecutive_failures,
        "disabled_at": clock.iso(endpoint.disabled_at),
        "created_at": clock.iso(endpoint.created_at),
        "updated_at": clock.iso(endpoint.updated_at),
    }


def _checked_event_types(event_types: Sequence[str]) -> list[str]:
    unknown = [t for t in event_types if t not in EVENT_TYPES]
    if unknown:
        raise bad_request(
            "unknown_event_type",
            "event_types",
            f"Unknown event type {unknown[0]!r}; known: {', '.join(EVENT_TYPES)}.",
        )
    if not event_types:
        raise bad_request("invalid_event_types", "event_types", "Name at least one event type.")
    return list(dict.fromkeys(event_types))


async def create_endpoint(
    *, account_id: str, url: str, event_types: Sequence[str], livemode: bool, settings: Settings
) -> tuple[WebhookEndpoint, str]:
    """Create an endpoint; returns it with its signing secret (shown to the caller once)."""
    problems: list[tuple[str, str, str]] = []
    try:
        types = _checked_event_types(event_types)
    except APIError as exc:
        detail = (exc.details or [{}])[0]
        problems.append((exc.code or "", "event_types", detail.get("message", exc.message)))
    try:
        await check_destination(url, allow_loopback=settings.allow_loopback_destinations)
    except UnsafeDestination as exc:
        message = await unsafe_destination_message(url, exc, settings)
        problems.append(("unsafe_destination", "url", message))
    if problems:
        raise bad_request(*problems[0], *problems[1:])
    endpoint_id = "whe_" + secrets.token_hex(12)
    secret = new_signing_secret()
    async with in_transaction() as conn:
        # Creations for one account take turns, so concurrent requests cannot pass the limit.
        if conn.capabilities.dialect == "postgres":
            await conn.execute_query(
                "SELECT id FROM accounts WHERE id = $1 FOR UPDATE", [account_id]
            )
        held = await WebhookEndpoint.filter(account_id=account_id).using_db(conn).count()
        if held >= MAX_ENDPOINTS_PER_ACCOUNT:
            raise APIError(
                409,
                f"This account already has {MAX_ENDPOINTS_PER_ACCOUNT} webhook endpoints, the "
                "most allowed; delete one to make room.",
                error="conflict",
                code="endpoint_limit",
            )
        endpoint = await WebhookEndpoint.create(
            id=endpoint_id,
            account_id=account_id,
            livemode=livemode,
            destination_url=canonical_url(url),
            event_types=types,
            secret_ciphertext=secret_box(settings).encrypt(secret, bound_to=endpoint_id),
            using_db=conn,
        )
    return endpoint, secret


async def owned_endpoint(caller: Caller, endpoint_id: str) -> WebhookEndpoint:
    """The caller's endpoint (same account and mode: a test key never reaches a live one)."""
    return await owned(caller, WebhookEndpoint, endpoint_id, "Webhook endpoint", purpose="account")


async def list_endpoints(
    caller: Caller, *, limit: int, cursor: str | None
) -> tuple[list[WebhookEndpoint], str | None]:
    """The caller's endpoints (its mode only), newest first; ``cursor`` is the id of the last
    item of the previous page."""
    query = owned_query(caller, WebhookEndpoint, purpose="account")
    return await newest_first(query, limit=limit, cursor=cursor)


async def update_endpoint(
    endpoint: WebhookEndpoint,
    *,
    active: bool | None,
    event_types: Sequence[str] | None,
    now: datetime,
) -> WebhookEndpoint:
    """Change ``active`` and/or ``event_types``; reactivating clears ``disabled_at`` and the
    failure count."""
    changes: dict[str, Any] = {}
    if event_types is not None:
        changes["event_types"] = _checked_event_types(event_types)
    if active is True:
        changes.update(active=True, disabled_at=None, consecutive_failures=0)
    elif active is False:
        changes["active"] = False
    if changes:
        await WebhookEndpoint.filter(id=endpoint.id).update(**changes, updated_at=now)
        await endpoint.refresh_from_db()
    return endpoint


async def rotate_secret(
    endpoint: WebhookEndpoint, *, now: datetime, settings: Settings
) -> tuple[WebhookEndpoint, str, datetime]:
    """A new secret; the current one keeps signing beside it for 24 h (returned: ``until``)."""
    secret = new_signing_secret()
    until = now + ROTATION_OVERLAP
    await WebhookEndpoint.filter(id=endpoint.id).update(
        secret_ciphertext=secret_box(settings).encrypt(secret, bound_to=endpoint.id),
        previous_secret_ciphertext=endpoint.secret_ciphertext,
        previous_secret_expires_at=until,
        updated_at=now,
    )
    await endpoint.refresh_from_db()
    return endpoint, secret, until


# --- events ----------------------------------------------------------------------------------


def event_body(
    event_id: str, event_type: str, created_at: datetime, livemode: bool, data: Any
) -> str:
    event = {
        "id": event_id,
        "type": event_type,
        "created_at": clock.iso(created_at),
        "livemode": livemode,
        "data": data,
    }
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"))


async def emit_account_event(
    account_id: str,
    type: str,
    data: Any,
    livemode: bool,
    *,
    now: datetime | None = None,
    kick: feed_pipeline.Kick | None = None,
) -> str:
    """Send an account event to every active endpoint of the account listening for ``type``
    whose mode is ``livemode``: the mode of the object that caused it (a test key's upload
    reaches only test endpoints, and its body says ``"livemode": false``). No default, so no
    caller can forget it.

    Returns the event id (``evt_`` + 24 hex). The deliveries are written at once and handed to
    the workers (``kick``; by default the broker). If the hand-over fails they stay due, and the
    scheduler's delivery tick dispatches them within seconds. ``data`` must be JSON-able and
    carry no personal data a receiver should not have.
    """
    if type not in EVENT_TYPES:
        raise ValueError(f"unknown account event type {type!r}")
    from astro_server.platform.delivery.retry import utc_now

    created = now or utc_now()
    event_id = "evt_" + secrets.token_hex(12)
    rows = await event_deliveries(account_id, type, event_id, data, livemode, created)
    if rows:
        await FeedDelivery.bulk_create(rows)
        await hand_over([r.id for r in rows], event_id, created, kick)
    return event_id


async def event_deliveries(
    account_id: str,
    type: str,
    event_id: str,
    data: Any,
    livemode: bool,
    created: datetime,
    conn: BaseDBAsyncClient | None = None,
) -> list[FeedDelivery]:
    """The (unsaved) delivery rows of one event: one per active endpoint of the account (same
    livemode) subscribed to ``type``, each with the exact bytes to send. For callers that write
    them in a transaction of their own (campaign days) and then call :func:`hand_over`."""
    endpoints = (
        await WebhookEndpoint.filter(account_id=account_id, active=True, livemode=livemode)
        .using_db(conn)
        .all()
    )
    body = event_body(event_id, type, created, livemode, data)
    return [
        FeedDelivery(
            id="dlv_" + secrets.token_hex(12),
            endpoint_id=endpoint.id,
            subscription_id=None,
            kind="event",
            event_type=type,
            message_id=new_message_id(),
            status="pending",
            body=body,
            due_at=created,
            next_attempt_at=created,
        )
        for endpoint in endpoints
        if type in endpoint.event_types
    ]


async def hand_over(
    ids: list[str], event_id: str, created: datetime, kick: feed_pipeline.Kick | None = None
) -> None:
    """Give saved event deliveries to the workers now (by default through the broker)."""
    if not ids:
        return
    if kick is None:
        from astro_server.platform.delivery.tasks import kick_delivery

        kick = kick_delivery
    try:
        await feed_pipeline.dispatch_ids(ids, now=created, kick=kick)
    except Exception:
        # Due now and holding no token: the scheduler's delivery tick hands them out (a
        # message that did go out finds its token gone and does nothing).
        await FeedDelivery.filter(id__in=ids, status="pending").update(
            lease_token=None, next_attempt_at=created
        )
        log.warning("event %s: hand-over failed; the delivery tick will send it", event_id)


# --- deliveries ------------------------------------------------------------------------------


def delivery_view(
    delivery: FeedDelivery, attempts: Sequence[FeedDeliveryAttempt] = ()
) -> dict[str, Any]:
    event_id = None
    if delivery.body:
        event_id = json.loads(delivery.body).get("id")
    return {
        "id": delivery.id,
        "endpoint_id": delivery.endpoint_id,  # type: ignore[attr-defined]
        "event_id": event_id,
        "event_type": delivery.event_type,
        "message_id": delivery.message_id,
        **delivery_state(delivery, attempts),
    }


async def list_deliveries(
    endpoint: WebhookEndpoint, *, limit: int, cursor: str | None
) -> tuple[list[dict[str, Any]], str | None]:
    return await common.delivery_log(
        {"endpoint_id": endpoint.id}, delivery_view, limit=limit, cursor=cursor
    )


async def delivery_with_log(delivery: FeedDelivery) -> dict[str, Any]:
    return await common.with_attempt_log(delivery, delivery_view)


async def owned_delivery(endpoint: WebhookEndpoint, delivery_id: str) -> FeedDelivery:
    return await common.owned_delivery({"endpoint_id": endpoint.id}, delivery_id)


async def send_test_event(
    endpoint: WebhookEndpoint,
    *,
    now: datetime,
    settings: Settings,
    delivery_client: DeliveryClient | None = None,
) -> dict[str, Any]:
    """One signed event sent to this endpoint now, marked ``"test": true`` (its type is the
    endpoint's first subscribed type, its ``data`` empty); returns the delivery with its attempt.

    Like a feed's test it does not retry, does not count towards ``consecutive_failures`` and
    cannot be retried (send another test instead); it goes out whether the endpoint is paused
    or not, since checking the receiver is its purpose.
    """
    message_id = new_message_id()
    event: dict[str, Any] = {
        "id": "evt_" + secrets.token_hex(12),
        "type": endpoint.event_types[0] if endpoint.event_types else EVENT_TYPES[0],
        "created_at": clock.iso(now),
        "livemode": endpoint.livemode,
        "test": True,
        "data": {},
    }
    body = json.dumps(event, ensure_ascii=False, separators=(",", ":"))
    delivery = await FeedDelivery.create(
        id="dlv_" + secrets.token_hex(12),
        endpoint_id=endpoint.id,
        subscription_id=None,
        kind="test",
        event_type=event["type"],
        message_id=message_id,
        status="delivering",
        body=body,
    )
    raw = body.encode()
    headers = sign_headers(
        common.secrets_in_use(endpoint, now, settings), message_id, int(now.timestamp()), raw
    )
    result = await (delivery_client or common.client()).post(endpoint.destination_url, raw, headers)
    error = (result.error or None) and result.error[:500]
    attempt = await FeedDeliveryAttempt.create(
        delivery_id=delivery.id,
        number=1,
        started_at=now,
        status_code=result.status,
        duration_ms=result.duration_ms,
        response_body=result.response_body,
        error=error,
        succeeded=result.succeeded,
    )
    delivery.status = "succeeded" if result.succeeded else "failed"
    delivery.attempts = 1
    delivery.last_status_code = result.status
    delivery.last_error = error
    delivery.delivered_at = clock.now() if result.succeeded else None
    await delivery.save()
    return delivery_view(delivery, [attempt])
