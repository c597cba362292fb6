"""Account webhooks (API key): endpoints receiving account events (reports, visual readings,
campaigns), their attempt log and the retry operation for a failed delivery.

Another account's endpoint or delivery is 404. The signing secret is returned by create and by
rotate-secret, never again. Deliveries are Standard Webhooks messages sent by the feeds' engine.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from quart import Blueprint, Response
from quart_schema import (
    document_response,
    operation_id,
    tag,
    validate_querystring,
    validate_request,
)

from astro_server.platform import clock
from astro_server.platform.auth.guards import require_api_key
from astro_server.platform.caller import Caller
from astro_server.platform.delivery import common as delivery
from astro_server.platform.delivery import engine as feed_pipeline
from astro_server.platform.delivery import events
from astro_server.platform.delivery import tasks as delivery_tasks
from astro_server.platform.delivery.retry import utc_now
from astro_server.platform.errors import not_found
from astro_server.platform.responses import json_response
from astro_server.platform.schemas import ErrorBody

blueprint = Blueprint("webhook_endpoints", __name__)
TAGS = ["Reports"]
BASE = "/api/v3/webhook-endpoints"
ENDPOINT_ID = r"^whe_[a-f0-9]{24}$"
DELIVERY_ID = r"^dlv_[a-f0-9]{24}$"

EventType = Literal[
    "report.succeeded",
    "report.failed",
    "visual_reading.succeeded",
    "visual_reading.failed",
    "visual_upload.validated",
    "visual_upload.rejected",
    "campaign.content_ready",
]


class CreateEndpointRequest(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    url: str = Field(
        min_length=9,
        max_length=2048,
        description="HTTPS address that resolves only to public IP addresses",
        json_schema_extra={"pattern": "^https://", "format": "uri"},
    )
    event_types: list[EventType] = Field(min_length=1, max_length=len(events.EVENT_TYPES) * 2)


class UpdateEndpointRequest(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    active: bool | None = Field(
        default=None, description="false pauses; true resumes and clears disabled_at"
    )
    event_types: list[EventType] | None = Field(
        default=None, min_length=1, max_length=len(events.EVENT_TYPES) * 2
    )


class Endpoint(BaseModel):
    id: str = Field(pattern=ENDPOINT_ID)
    url: str = Field(json_schema_extra={"pattern": "^https://", "format": "uri"})
    event_types: list[EventType]
    active: bool
    livemode: bool = Field(description="false for endpoints made with a test key (ak_test_)")
    consecutive_failures: int = Field(ge=0)
    disabled_at: datetime | None = Field(description="When deliveries were stopped automatically")
    created_at: datetime | None
    updated_at: datetime | None


class CreatedEndpoint(BaseModel):
    endpoint: Endpoint
    signing_secret: str = Field(
        pattern=r"^whsec_[A-Za-z0-9+/=]+$", description="Shown only in this response"
    )


class EndpointEnvelope(BaseModel):
    endpoint: Endpoint


class EndpointList(BaseModel):
    endpoints: list[Endpoint]
    next_cursor: str | None = Field(description="Pass as cursor for the next page; null at end")


class ListQuery(BaseModel):
    limit: int = Field(default=20, ge=1, le=100)
    cursor: str | None = Field(default=None, max_length=40)


class RotatedEndpointSecret(BaseModel):
    endpoint: Endpoint
    signing_secret: str = Field(description="The new secret, shown only in this response")
    previous_secret_expires_at: datetime = Field(
        description="Until then deliveries carry a signature with the old secret as well"
    )


class EventAttempt(BaseModel):
    number: int
    started_at: datetime | None
    status_code: int | None
    duration_ms: int
    response_body: str = Field(description="First 2048 characters of the receiver's answer")
    error: str | None
    succeeded: bool


class EventDelivery(BaseModel):
    id: str = Field(pattern=DELIVERY_ID)
    endpoint_id: str = Field(pattern=ENDPOINT_ID)
    event_id: str | None = Field(description="The event's id (the body's id)")
    event_type: EventType | None
    message_id: str = Field(description="The webhook-id header; the same on every retry")
    status: Literal["pending", "delivering", "retrying", "succeeded", "failed", "abandoned"]
    attempts: int
    next_attempt_at: datetime | None
    last_status_code: int | None
    last_error: str | None
    created_at: datetime | None
    delivered_at: datetime | None
    attempt_log: list[EventAttempt]


class EventDeliveryEnvelope(BaseModel):
    delivery: EventDelivery


class EventDeliveryList(BaseModel):
    deliveries: list[EventDelivery]
    next_cursor: str | None


async def _endpoint(caller: Caller, endpoint_id: str) -> events.WebhookEndpoint:
    if not endpoint_id.startswith("whe_") or len(endpoint_id) != 28:
        raise not_found("Webhook endpoint")
    return await events.owned_endpoint(caller, endpoint_id)


def _view(endpoint: events.WebhookEndpoint) -> dict[str, Any]:
    return events.endpoint_view(endpoint)


@blueprint.post(BASE)
@require_api_key
@validate_request(CreateEndpointRequest)
@document_response(CreatedEndpoint, 201)
@document_response(ErrorBody, 400)
@document_response(ErrorBody, 409)
@tag(TAGS)
@operation_id("createWebhookEndpoint")
async def create_endpoint(data: CreateEndpointRequest, caller: Caller) -> Response:
    """Register an HTTPS endpoint for account events (``report.succeeded``, ...).

    Deliveries are signed with Standard Webhooks headers under the returned ``signing_secret``
    (shown only here). 400 codes: ``unsafe_destination`` (field ``url``: not https, or resolves
    to a non-public address), ``unknown_event_type``. 409 code ``endpoint_limit``: the account
    has 20 endpoints.
    """
    endpoint, secret = await events.create_endpoint(
        account_id=caller.account_id,
        url=data.url,
        event_types=data.event_types,
        livemode=caller.livemode,
        settings=delivery.current_settings(),
    )
    return json_response({"endpoint": _view(endpoint), "signing_secret": secret}, 201)


@blueprint.get(BASE)
@require_api_key
@validate_querystring(ListQuery)
@document_response(EndpointList, 200)
@tag(TAGS)
@operation_id("listWebhookEndpoints")
async def list_endpoints(query_args: ListQuery, caller: Caller) -> Response:
    """The account's webhook endpoints, newest first, paged with ``cursor``."""
    page, next_cursor = await events.list_endpoints(
        caller, limit=query_args.limit, cursor=query_args.cursor
    )
    return json_response({"endpoints": [_view(e) for e in page], "next_cursor": next_cursor})


@blueprint.get(f"{BASE}/<endpoint_id>")
@require_api_key
@document_response(EndpointEnvelope, 200)
@document_response(ErrorBody, 404)
@tag(TAGS)
@operation_id("getWebhookEndpoint")
async def get_endpoint(endpoint_id: str, caller: Caller) -> Response:
    """One webhook endpoint of the account."""
    return json_response({"endpoint": _view(await _endpoint(caller, endpoint_id))})


@blueprint.patch(f"{BASE}/<endpoint_id>")
@require_api_key
@validate_request(UpdateEndpointRequest)
@document_response(EndpointEnvelope, 200)
@document_response(ErrorBody, 404)
@tag(TAGS)
@operation_id("updateWebhookEndpoint")
async def update_endpoint(
    endpoint_id: str, data: UpdateEndpointRequest, caller: Caller
) -> Response:
    """Pause or resume (``active``; resuming clears ``disabled_at`` and the failure count) and/or
    replace ``event_types``."""
    endpoint = await _endpoint(caller, endpoint_id)
    endpoint = await events.update_endpoint(
        endpoint, active=data.active, event_types=data.event_types, now=utc_now()
    )
    return json_response({"endpoint": _view(endpoint)})


@blueprint.delete(f"{BASE}/<endpoint_id>")
@require_api_key
@document_response(ErrorBody, 404)
@tag(TAGS)
@operation_id("deleteWebhookEndpoint")
async def delete_endpoint(endpoint_id: str, caller: Caller) -> Response:
    """Delete the endpoint and its delivery log; nothing more is sent to it."""
    endpoint = await _endpoint(caller, endpoint_id)
    await endpoint.delete()
    return Response(status=204)


@blueprint.post(f"{BASE}/<endpoint_id>/rotate-secret")
@require_api_key
@document_response(RotatedEndpointSecret, 200)
@document_response(ErrorBody, 404)
@tag(TAGS)
@operation_id("rotateWebhookEndpointSecret")
async def rotate_secret(endpoint_id: str, caller: Caller) -> Response:
    """A new signing secret; the old one keeps signing beside it for 24 hours."""
    endpoint = await _endpoint(caller, endpoint_id)
    endpoint, secret, until = await events.rotate_secret(
        endpoint, now=utc_now(), settings=delivery.current_settings()
    )
    return json_response(
        {
            "endpoint": _view(endpoint),
            "signing_secret": secret,
            "previous_secret_expires_at": clock.iso(until),
        }
    )


@blueprint.get(f"{BASE}/<endpoint_id>/deliveries")
@require_api_key
@validate_querystring(ListQuery)
@document_response(EventDeliveryList, 200)
@document_response(ErrorBody, 404)
@tag(TAGS)
@operation_id("listWebhookEndpointDeliveries")
async def list_deliveries(endpoint_id: str, query_args: ListQuery, caller: Caller) -> Response:
    """The attempt log, newest first: each event message with every attempt."""
    endpoint = await _endpoint(caller, endpoint_id)
    page, next_cursor = await events.list_deliveries(
        endpoint, limit=query_args.limit, cursor=query_args.cursor
    )
    return json_response({"deliveries": page, "next_cursor": next_cursor})


@blueprint.post(f"{BASE}/<endpoint_id>/deliveries/<delivery_id>/retry")
@require_api_key
@document_response(EventDeliveryEnvelope, 202)
@document_response(ErrorBody, 404)
@document_response(ErrorBody, 409)
@tag(TAGS)
@operation_id("retryWebhookEndpointDelivery")
async def retry_delivery(endpoint_id: str, delivery_id: str, caller: Caller) -> Response:
    """Retry a failed event delivery (e.g. ``report.failed``): a new attempt now, same
    ``webhook-id`` and body, with a fresh retry round.

    409 ``conflict``: code ``delivery_succeeded`` when it already succeeded; no code while it is
    still being attempted.
    """
    endpoint = await _endpoint(caller, endpoint_id)
    delivery = await events.owned_delivery(endpoint, delivery_id)
    delivery = await feed_pipeline.retry_delivery(
        delivery, now=utc_now(), kick=delivery_tasks.kick_delivery, unless_succeeded=True
    )
    return json_response({"delivery": await events.delivery_with_log(delivery)}, 202)
