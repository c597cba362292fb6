"""Models of account webhook endpoints (``/api/v3/webhook-endpoints``, API key)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from astro_sdk.models._base import RequestModel, ResponseModel

__all__ = [
    "CreateWebhookEndpointRequest",
    "CreatedWebhookEndpoint",
    "DeletedWebhookEndpoint",
    "EventDelivery",
    "EventDeliveryAttempt",
    "EventDeliveryEnvelope",
    "EventDeliveryPage",
    "EventType",
    "RotatedWebhookEndpointSecret",
    "UpdateWebhookEndpointRequest",
    "WebhookEndpoint",
    "WebhookEndpointEnvelope",
    "WebhookEndpointListQuery",
    "WebhookEndpointPage",
]

EventType = Literal[
    "report.succeeded",
    "report.failed",
    "visual_reading.succeeded",
    "visual_reading.failed",
    "visual_upload.validated",
    "visual_upload.rejected",
    "campaign.content_ready",
]


class CreateWebhookEndpointRequest(RequestModel):
    url: str = Field(
        min_length=9,
        max_length=2048,
        json_schema_extra={"pattern": "^https://", "format": "uri"},
    )
    """HTTPS address that resolves only to public IP addresses."""
    event_types: list[EventType] = Field(min_length=1, max_length=14)


class UpdateWebhookEndpointRequest(RequestModel):
    active: bool | None = None
    """False pauses; true resumes and clears ``disabled_at``."""
    event_types: list[EventType] | None = Field(default=None, min_length=1, max_length=14)


class WebhookEndpointListQuery(RequestModel):
    limit: int = Field(default=20, ge=1, le=100)
    cursor: str | None = Field(default=None, max_length=40)


class WebhookEndpoint(ResponseModel):
    """An endpoint receiving account events. ``disabled_at`` is set when deliveries were
    stopped automatically (10 consecutive failed attempts, or an HTTP 410)."""

    id: str
    url: str = Field(json_schema_extra={"format": "uri"})
    event_types: list[str]
    active: bool
    livemode: bool
    consecutive_failures: int
    disabled_at: datetime | None
    created_at: datetime | None
    updated_at: datetime | None


class CreatedWebhookEndpoint(ResponseModel):
    """The new endpoint and its signing secret: store the secret now, it is not shown again."""

    endpoint: WebhookEndpoint
    signing_secret: str


class WebhookEndpointEnvelope(ResponseModel):
    endpoint: WebhookEndpoint


class WebhookEndpointPage(ResponseModel):
    endpoints: list[WebhookEndpoint]
    next_cursor: str | None


class RotatedWebhookEndpointSecret(ResponseModel):
    """A new secret; deliveries carry a signature with the old one as well until
    ``previous_secret_expires_at`` (24 hours)."""

    endpoint: WebhookEndpoint
    signing_secret: str
    previous_secret_expires_at: datetime


class DeletedWebhookEndpoint(ResponseModel):
    """``DELETE`` answers 204 with no body: the endpoint and its log are gone."""


class EventDeliveryAttempt(ResponseModel):
    number: int
    started_at: datetime | None
    status_code: int | None
    duration_ms: int
    response_body: str
    """The first 2048 characters of the endpoint's answer."""
    error: str | None
    succeeded: bool


class EventDelivery(ResponseModel):
    """One event message to one endpoint: ``status`` is pending, delivering, retrying,
    succeeded, failed or abandoned; ``message_id`` is the ``webhook-id`` header, the same on
    every retry; ``event_id`` is the body's ``id``."""

    id: str
    endpoint_id: str
    event_id: str | None
    event_type: str | None
    message_id: str
    status: str
    attempts: int
    next_attempt_at: datetime | None
    last_status_code: int | None
    last_error: str | None
    created_at: datetime | None
    delivered_at: datetime | None
    attempt_log: list[EventDeliveryAttempt]


class EventDeliveryEnvelope(ResponseModel):
    delivery: EventDelivery


class EventDeliveryPage(ResponseModel):
    deliveries: list[EventDelivery]
    next_cursor: str | None
