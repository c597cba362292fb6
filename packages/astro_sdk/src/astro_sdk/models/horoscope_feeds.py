"""Models of horoscope feed subscriptions (``/v1/horoscope-feed-subscriptions``, session routes)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import Field

from astro_sdk.models._base import RequestModel, ResponseModel

__all__ = [
    "CreateSubscriptionRequest",
    "CreatedSubscription",
    "DeletedSubscription",
    "DeliveryAttempt",
    "DeliveryListQuery",
    "DeliveryPage",
    "FeedDelivery",
    "FeedDeliveryEnvelope",
    "RotatedSecret",
    "Sign",
    "Subscription",
    "SubscriptionEnvelope",
    "SubscriptionListQuery",
    "SubscriptionPage",
    "UpdateSubscriptionRequest",
]

DELIVERY_TIME_PATTERN = r"^([01]\d|2[0-3]):[0-5]\d$"

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


class CreateSubscriptionRequest(RequestModel):
    destination_url: str = Field(
        min_length=9,
        max_length=2048,
        json_schema_extra={"pattern": "^https://", "format": "uri"},
    )
    """HTTPS address that resolves only to public IP addresses."""
    sign: Sign
    language: Literal["en", "th"] = "en"
    timezone: str = Field(default="UTC", min_length=1, max_length=64)
    """IANA Area/City name, or UTC."""
    delivery_time: str = Field(default="08:00", pattern=DELIVERY_TIME_PATTERN)
    """24-hour HH:MM in ``timezone``."""


class UpdateSubscriptionRequest(RequestModel):
    active: bool


class SubscriptionListQuery(RequestModel):
    limit: int = Field(default=20, ge=1, le=100)
    cursor: str | None = Field(default=None, max_length=40)


class DeliveryListQuery(RequestModel):
    limit: int = Field(default=20, ge=1, le=100)
    cursor: str | None = Field(default=None, max_length=40)


class Subscription(ResponseModel):
    """A horoscope feed subscription. ``disabled_at`` is set when deliveries were stopped
    automatically (10 consecutive failed attempts, or an HTTP 410 from the destination)."""

    id: str
    destination_url: str = Field(json_schema_extra={"format": "uri"})
    sign: str
    language: str
    timezone: str
    delivery_time: str
    active: bool
    consecutive_failures: int
    disabled_at: datetime | None
    created_at: datetime | None
    updated_at: datetime | None


class CreatedSubscription(ResponseModel):
    """The new subscription and its signing secret: store the secret now, it is not shown again."""

    subscription: Subscription
    signing_secret: str


class SubscriptionEnvelope(ResponseModel):
    subscription: Subscription


class SubscriptionPage(ResponseModel):
    subscriptions: list[Subscription]
    next_cursor: str | None


class RotatedSecret(ResponseModel):
    """A new secret; deliveries carry a signature with the old one as well until
    ``previous_secret_expires_at`` (24 hours)."""

    subscription: Subscription
    signing_secret: str
    previous_secret_expires_at: datetime


class DeletedSubscription(ResponseModel):
    """``DELETE`` answers 204 with no body: the subscription and its log are gone."""


class DeliveryAttempt(ResponseModel):
    number: int
    started_at: datetime | None
    status_code: int | None
    duration_ms: int
    response_body: str
    """The first 2048 characters of the destination's answer."""
    error: str | None
    succeeded: bool


class FeedDelivery(ResponseModel):
    """One message: ``status`` is pending, delivering, retrying, succeeded, failed or
    abandoned; ``message_id`` is the ``webhook-id`` header, the same on every retry."""

    id: str
    subscription_id: str
    message_id: str
    kind: str
    local_date: date | None
    status: str
    attempts: int
    next_attempt_at: datetime | None
    last_status_code: int | None
    last_error: str | None
    created_at: datetime | None
    delivered_at: datetime | None
    attempt_log: list[DeliveryAttempt]


class FeedDeliveryEnvelope(ResponseModel):
    delivery: FeedDelivery


class DeliveryPage(ResponseModel):
    deliveries: list[FeedDelivery]
    next_cursor: str | None
