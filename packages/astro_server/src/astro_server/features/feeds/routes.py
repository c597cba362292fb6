"""Customer delivery: horoscope feed subscriptions (create, list and get, plus the operations an
integrator of a webhook service expects: get, delete, rotate-secret, test, deliveries, retry).

Session bearer only; an API key gets 401. Another customer's subscription is 404. The signing
secret is returned by create and by rotate-secret, never again.
"""

from __future__ import annotations

from datetime import date, datetime
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

from astro_server.features.feeds import service as feeds
from astro_server.platform import clock
from astro_server.platform.auth.guards import require_session
from astro_server.platform.caller import Caller
from astro_server.platform.delivery import common as delivery
from astro_server.platform.delivery import engine as feed_pipeline
from astro_server.platform.delivery import tasks as delivery_tasks
from astro_server.platform.delivery.retry import utc_now
from astro_server.platform.delivery.schedule import DELIVERY_TIME_PATTERN
from astro_server.platform.errors import not_found
from astro_server.platform.responses import json_response
from astro_server.platform.schemas import ErrorBody

blueprint = Blueprint("horoscope_feeds", __name__)
TAGS = ["Customer delivery"]
BASE = "/v1/horoscope-feed-subscriptions"
SUBSCRIPTION_ID = r"^hfs_[a-f0-9]{24}$"
DELIVERY_ID = r"^dlv_[a-f0-9]{24}$"

Sign = Literal[
    "aries",
    "taurus",
    "gemini",
    "cancer",
    "leo",
    "virgo",
    "libra",
    "scorpio",
    "sagittarius",
    "capricorn",
    "aquarius",
    "pisces",
]


class CreateSubscriptionRequest(BaseModel):
    model_config = ConfigDict(strict=True)  # documented JSON types only (see decisions.md)

    destination_url: str = Field(
        min_length=9,
        max_length=2048,
        description="HTTPS address that resolves only to public IP addresses",
        json_schema_extra={"pattern": "^https://", "format": "uri"},
    )
    sign: Sign
    language: Literal["en", "th"] = "en"
    timezone: str = Field(
        default="UTC", min_length=1, max_length=64, description="IANA Area/City name, or UTC"
    )
    delivery_time: str = Field(
        default="08:00", pattern=DELIVERY_TIME_PATTERN, description="24-hour HH:MM, local time"
    )


class UpdateSubscriptionRequest(BaseModel):
    # "false" or 0 is not a boolean; a field this route does not change (delivery_time, ...) is
    # refused by name instead of answering 200 with nothing changed.
    model_config = ConfigDict(strict=True, extra="forbid")

    active: bool


class Subscription(BaseModel):
    id: str = Field(pattern=SUBSCRIPTION_ID)
    destination_url: str = Field(json_schema_extra={"pattern": "^https://", "format": "uri"})
    sign: Sign
    language: Literal["en", "th"]
    timezone: str
    delivery_time: str = Field(pattern=DELIVERY_TIME_PATTERN)
    active: bool
    consecutive_failures: int = Field(ge=0)
    disabled_at: datetime | None = Field(description="When deliveries were stopped automatically")
    created_at: datetime | None
    updated_at: datetime | None


class CreatedSubscription(BaseModel):
    subscription: Subscription
    signing_secret: str = Field(
        pattern=r"^whsec_[A-Za-z0-9+/=]+$", description="Shown only in this response"
    )


class SubscriptionEnvelope(BaseModel):
    subscription: Subscription


class SubscriptionList(BaseModel):
    subscriptions: list[Subscription]
    next_cursor: str | None = Field(description="Pass as cursor for the next page; null at end")


class ListQuery(BaseModel):
    limit: int = Field(default=20, ge=1, le=100)
    cursor: str | None = Field(default=None, max_length=40)


class RotatedSecret(BaseModel):
    subscription: Subscription
    signing_secret: str = Field(description="The new secret, shown only in this response")
    previous_secret_expires_at: datetime = Field(
        description="Until then deliveries carry a signature with the old secret as well"
    )


class Attempt(BaseModel):
    number: int
    started_at: datetime | None
    status_code: int | None
    duration_ms: int
    response_body: str = Field(description="First 2048 characters of the receiver's answer")
    error: str | None
    succeeded: bool


class Delivery(BaseModel):
    id: str = Field(pattern=DELIVERY_ID)
    subscription_id: str = Field(pattern=SUBSCRIPTION_ID)
    message_id: str = Field(description="The webhook-id header; the same on every retry")
    kind: Literal["scheduled", "test"]
    local_date: date | None
    status: Literal["pending", "delivering", "retrying", "succeeded", "failed", "abandoned"]
    attempts: int
    next_attempt_at: datetime | None
    last_status_code: int | None
    last_error: str | None
    created_at: datetime | None
    delivered_at: datetime | None
    attempt_log: list[Attempt]


class DeliveryEnvelope(BaseModel):
    delivery: Delivery


class DeliveryList(BaseModel):
    deliveries: list[Delivery]
    next_cursor: str | None


async def _subscription(caller: Caller, sub_id: str) -> feeds.HoroscopeFeedSubscription:
    if not sub_id.startswith("hfs_") or len(sub_id) != 28:
        raise not_found("Horoscope feed subscription")
    return await feeds.owned_subscription(caller.login_id, sub_id)


@blueprint.post(BASE)
@require_session
@validate_request(CreateSubscriptionRequest)
@document_response(CreatedSubscription, 201)
@document_response(ErrorBody, 400)
@document_response(ErrorBody, 409)
@tag(TAGS)
@operation_id("createHoroscopeFeedSubscription")
async def create_subscription(data: CreateSubscriptionRequest, caller: Caller) -> Response:
    """Subscribe an HTTPS destination to the daily horoscope of one sign.

    400 codes: ``unsafe_destination`` (not https, or resolves to a non-public address),
    ``invalid_timezone``, ``duplicate_subscription`` (same destination, sign and language).
    409 code ``subscription_limit``: the customer holds the most subscriptions allowed
    (``ASTRO_MAX_SUBSCRIPTIONS_PER_CUSTOMER``, 100 by default; paused ones count).
    """
    sub, secret = await feeds.create_subscription(
        account_id=caller.account_id,
        customer_id=caller.login_id,
        destination_url=data.destination_url,
        sign=data.sign,
        language=data.language,
        timezone=data.timezone,
        delivery_time=data.delivery_time,
        now=utc_now(),
        settings=delivery.current_settings(),
    )
    return json_response(
        {"subscription": feeds.subscription_view(sub), "signing_secret": secret}, 201
    )


@blueprint.get(BASE)
@require_session
@validate_querystring(ListQuery)
@document_response(SubscriptionList, 200)
@tag(TAGS)
@operation_id("listHoroscopeFeedSubscriptions")
async def list_subscriptions(query_args: ListQuery, caller: Caller) -> Response:
    """The caller's subscriptions, newest first, paged with ``cursor``."""
    page, next_cursor = await feeds.list_subscriptions(
        caller.login_id, limit=query_args.limit, cursor=query_args.cursor
    )
    return json_response(
        {"subscriptions": [feeds.subscription_view(s) for s in page], "next_cursor": next_cursor}
    )


@blueprint.patch(f"{BASE}/<sub_id>")
@require_session
@validate_request(UpdateSubscriptionRequest)
@document_response(SubscriptionEnvelope, 200)
@document_response(ErrorBody, 404)
@tag(TAGS)
@operation_id("updateHoroscopeFeedSubscription")
async def update_subscription(
    sub_id: str, data: UpdateSubscriptionRequest, caller: Caller
) -> Response:
    """Pause (``active: false``) or resume; resuming clears ``disabled_at`` and failures."""
    sub = await _subscription(caller, sub_id)
    sub = await feeds.set_active(sub, data.active, now=utc_now())
    return json_response({"subscription": feeds.subscription_view(sub)})


@blueprint.get(f"{BASE}/<sub_id>")
@require_session
@document_response(SubscriptionEnvelope, 200)
@document_response(ErrorBody, 404)
@tag(TAGS)
@operation_id("getHoroscopeFeedSubscription")
async def get_subscription(sub_id: str, caller: Caller) -> Response:
    """One subscription of the caller."""
    sub = await _subscription(caller, sub_id)
    return json_response({"subscription": feeds.subscription_view(sub)})


@blueprint.delete(f"{BASE}/<sub_id>")
@require_session
@document_response(ErrorBody, 404)
@tag(TAGS)
@operation_id("deleteHoroscopeFeedSubscription")
async def delete_subscription(sub_id: str, caller: Caller) -> Response:
    """Delete the subscription and its delivery log; nothing more is sent."""
    sub = await _subscription(caller, sub_id)
    await feeds.delete_subscription(sub)
    return Response(status=204)


@blueprint.post(f"{BASE}/<sub_id>/rotate-secret")
@require_session
@document_response(RotatedSecret, 200)
@document_response(ErrorBody, 404)
@tag(TAGS)
@operation_id("rotateHoroscopeFeedSubscriptionSecret")
async def rotate_secret(sub_id: str, caller: Caller) -> Response:
    """A new signing secret; the old one keeps signing beside it for 24 hours."""
    sub = await _subscription(caller, sub_id)
    sub, secret, until = await feeds.rotate_secret(
        sub, now=utc_now(), settings=delivery.current_settings()
    )
    return json_response(
        {
            "subscription": feeds.subscription_view(sub),
            "signing_secret": secret,
            "previous_secret_expires_at": clock.iso(until),
        }
    )


@blueprint.post(f"{BASE}/<sub_id>/test")
@require_session
@document_response(DeliveryEnvelope, 200)
@document_response(ErrorBody, 404)
@tag(TAGS)
@operation_id("testHoroscopeFeedSubscription")
async def test_subscription(sub_id: str, caller: Caller) -> Response:
    """Send today's horoscope now, signed, marked ``"test": true``; the attempt is returned.

    A test does not retry and does not count towards ``consecutive_failures``.
    """
    sub = await _subscription(caller, sub_id)
    view = await feed_pipeline.send_test_delivery(
        sub, now=utc_now(), clock=utc_now, settings=delivery.current_settings()
    )
    return json_response({"delivery": view})


@blueprint.get(f"{BASE}/<sub_id>/deliveries")
@require_session
@validate_querystring(ListQuery)
@document_response(DeliveryList, 200)
@document_response(ErrorBody, 404)
@tag(TAGS)
@operation_id("listHoroscopeFeedDeliveries")
async def list_deliveries(sub_id: str, query_args: ListQuery, caller: Caller) -> Response:
    """The delivery log, newest first: each message with every attempt (status, duration, body)."""
    sub = await _subscription(caller, sub_id)
    page, next_cursor = await feeds.list_deliveries(
        sub, limit=query_args.limit, cursor=query_args.cursor
    )
    return json_response({"deliveries": page, "next_cursor": next_cursor})


@blueprint.post(f"{BASE}/<sub_id>/deliveries/<delivery_id>/retry")
@require_session
@document_response(DeliveryEnvelope, 202)
@document_response(ErrorBody, 404)
@document_response(ErrorBody, 409)
@tag(TAGS)
@operation_id("retryHoroscopeFeedDelivery")
async def retry_delivery(sub_id: str, delivery_id: str, caller: Caller) -> Response:
    """Send a finished message again (same ``webhook-id`` and body) with a fresh retry round."""
    sub = await _subscription(caller, sub_id)
    delivery = await feeds.owned_delivery(sub, delivery_id)
    delivery = await feed_pipeline.retry_delivery(
        delivery, now=utc_now(), kick=delivery_tasks.kick_delivery
    )
    return json_response({"delivery": await feeds.delivery_with_log(delivery)}, 202)
