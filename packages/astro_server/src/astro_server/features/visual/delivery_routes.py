"""Visual-reading deliveries (session): ``POST /v1/visual-reading-deliveries``
``{destination, event_types}`` -> 201 ``{subscription}`` (+ ``signing_secret`` for a webhook);
list (paged: ``limit`` 1..100, ``cursor``, ``next_cursor``), get, ``PATCH {active}``, delete,
and each subscription's delivery log (``/{id}/deliveries``, paged the same way). See
:mod:`astro_server.features.visual.deliveries`."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

from pydantic import BaseModel, Field
from quart import Blueprint, Response, current_app
from quart_schema import (
    document_response,
    operation_id,
    tag,
    validate_querystring,
    validate_request,
)

from astro_server.features.visual import deliveries
from astro_server.features.webhooks.routes import EventDeliveryList
from astro_server.platform.auth.guards import require_session
from astro_server.platform.auth.roles import require_role
from astro_server.platform.caller import Caller
from astro_server.platform.delivery import events
from astro_server.platform.responses import json_response
from astro_server.platform.schemas import ErrorBody

blueprint = Blueprint("visual_reading_deliveries", __name__)
TAG = ["Customer visual readings"]
BASE = "/v1/visual-reading-deliveries"
EventType = Literal[
    "visual_reading.succeeded",
    "visual_reading.failed",
    "visual_upload.validated",
    "visual_upload.rejected",
]


class CreateDeliveryRequest(BaseModel):
    destination: str = Field(
        min_length=3, max_length=2048, description="An https webhook URL or an e-mail address"
    )
    event_types: list[EventType] = Field(min_length=1, max_length=4)


class UpdateDeliveryRequest(BaseModel):
    active: bool


class DeliverySubscription(BaseModel):
    id: str
    destination: str
    channel: Literal["webhook", "email"]
    event_types: list[str]
    active: bool
    consecutive_failures: int
    disabled_at: datetime | None
    created_at: datetime


class CreatedDelivery(BaseModel):
    subscription: DeliverySubscription
    signing_secret: str | None = Field(
        default=None, description="Webhooks only, shown only in this response"
    )


class DeliveryEnvelope(BaseModel):
    subscription: DeliverySubscription


class DeliveryList(BaseModel):
    subscriptions: list[DeliverySubscription]
    next_cursor: str | None = Field(description="Pass as cursor for the next page; null at end")


class ListQuery(BaseModel):
    limit: int = Field(default=20, ge=1, le=100, description="Page size, 1..100")
    cursor: str | None = Field(
        default=None, max_length=40, description="The next_cursor of the previous page"
    )


@blueprint.post(BASE)
@require_session
@require_role("admin")  # the account's deliveries: every reading's summary goes there
@validate_request(CreateDeliveryRequest)
@document_response(CreatedDelivery, 201)
@document_response(ErrorBody, 400)
@document_response(ErrorBody, 401)
@document_response(ErrorBody, 409)
@tag(TAG)
@document_response(ErrorBody, 403)
@operation_id("createVisualReadingDelivery")
async def create_delivery(data: CreateDeliveryRequest, caller: Caller) -> Response:
    """Spec 5: deliver the account's visual events to a webhook (https, SSRF rules, Standard
    Webhooks signing; ``signing_secret`` shown once) or an e-mail address (SMTP; bilingual text
    and HTML with the summary and a link, never the photo)."""
    settings = current_app.config["ASTRO_SETTINGS"]
    endpoint, secret = await deliveries.create_subscription(
        caller, data.destination, list(data.event_types), settings
    )
    await endpoint.refresh_from_db()
    body: dict[str, object] = {"subscription": deliveries.subscription_view(endpoint)}
    if secret is not None:
        body["signing_secret"] = secret
    return json_response(body, 201)


@blueprint.get(BASE)
@require_session
@validate_querystring(ListQuery)
@document_response(DeliveryList, 200)
@document_response(ErrorBody, 400)
@document_response(ErrorBody, 401)
@tag(TAG)
@operation_id("listVisualReadingDeliveries")
async def list_deliveries(query_args: ListQuery, caller: Caller) -> Response:
    """The account's visual-reading deliveries, newest first, a page at a time: pass the
    answer's ``next_cursor`` as ``cursor`` for the next page (null on the last). 400 names
    ``limit`` outside 1..100 or an unknown ``cursor``."""
    rows, next_cursor = await deliveries.list_subscriptions(
        caller, limit=query_args.limit, cursor=query_args.cursor
    )
    return json_response(
        {
            "subscriptions": [deliveries.subscription_view(r) for r in rows],
            "next_cursor": next_cursor,
        }
    )


@blueprint.get(f"{BASE}/<subscription_id>/deliveries")
@require_session
@validate_querystring(ListQuery)
@document_response(EventDeliveryList, 200)
@document_response(ErrorBody, 400)
@document_response(ErrorBody, 401)
@document_response(ErrorBody, 404)
@tag(TAG)
@operation_id("listVisualReadingDeliveryLog")
async def list_delivery_log(
    subscription_id: str, query_args: ListQuery, caller: Caller
) -> Response:
    """The subscription's delivery log, newest first: each event message (webhook POST or
    e-mail) with every attempt, a page at a time (``limit``, ``cursor``, ``next_cursor``).
    404 for another account's subscription; 400 names ``limit`` outside 1..100 or an unknown
    ``cursor``."""
    endpoint = await deliveries.owned_subscription(caller, subscription_id)
    page, next_cursor = await events.list_deliveries(
        endpoint, limit=query_args.limit, cursor=query_args.cursor
    )
    return json_response({"deliveries": page, "next_cursor": next_cursor})


@blueprint.get(f"{BASE}/<subscription_id>")
@require_session
@document_response(DeliveryEnvelope, 200)
@document_response(ErrorBody, 404)
@tag(TAG)
@operation_id("getVisualReadingDelivery")
async def get_delivery(subscription_id: str, caller: Caller) -> Response:
    """One delivery subscription of the account."""
    endpoint = await deliveries.owned_subscription(caller, subscription_id)
    return json_response({"subscription": deliveries.subscription_view(endpoint)})


@blueprint.patch(f"{BASE}/<subscription_id>")
@require_session
@require_role("admin")
@validate_request(UpdateDeliveryRequest)
@document_response(DeliveryEnvelope, 200)
@document_response(ErrorBody, 400)
@document_response(ErrorBody, 404)
@tag(TAG)
@document_response(ErrorBody, 403)
@operation_id("updateVisualReadingDelivery")
async def update_delivery(
    subscription_id: str, data: UpdateDeliveryRequest, caller: Caller
) -> Response:
    """Pause (``active: false``) or resume; resuming clears ``disabled_at`` and the failures."""
    endpoint = await deliveries.owned_subscription(caller, subscription_id)
    endpoint = await events.update_endpoint(
        endpoint, active=data.active, event_types=None, now=datetime.now(UTC)
    )
    return json_response({"subscription": deliveries.subscription_view(endpoint)})


@blueprint.delete(f"{BASE}/<subscription_id>")
@require_session
@require_role("admin")
@document_response(ErrorBody, 404)
@tag(TAG)
@document_response(ErrorBody, 403)
@operation_id("deleteVisualReadingDelivery")
async def delete_delivery(subscription_id: str, caller: Caller) -> Response:
    """Delete the subscription (its pending deliveries go with it)."""
    endpoint = await deliveries.owned_subscription(caller, subscription_id)
    await endpoint.delete()
    return Response(status=204)
