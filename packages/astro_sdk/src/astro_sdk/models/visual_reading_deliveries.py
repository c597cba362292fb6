"""Models of visual-reading deliveries (``/v1/visual-reading-deliveries``, session; spec 5)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from astro_sdk.models._base import RequestModel, ResponseModel

__all__ = [
    "CreateVisualReadingDeliveryRequest",
    "CreatedVisualReadingDelivery",
    "DeletedVisualReadingDelivery",
    "UpdateVisualReadingDeliveryRequest",
    "VisualReadingDelivery",
    "VisualReadingDeliveryEnvelope",
    "VisualReadingDeliveryList",
    "VisualReadingDeliveryListQuery",
]

VisualEventType = Literal[
    "visual_reading.succeeded",
    "visual_reading.failed",
    "visual_upload.validated",
    "visual_upload.rejected",
]


class CreateVisualReadingDeliveryRequest(RequestModel):
    destination: str = Field(min_length=3, max_length=2048)
    """An https webhook URL or an e-mail address."""
    event_types: list[VisualEventType] = Field(min_length=1, max_length=4)


class UpdateVisualReadingDeliveryRequest(RequestModel):
    active: bool


class VisualReadingDelivery(ResponseModel):
    id: str
    destination: str
    channel: str
    event_types: list[str]
    active: bool
    consecutive_failures: int
    disabled_at: datetime | None
    created_at: datetime


class CreatedVisualReadingDelivery(ResponseModel):
    subscription: VisualReadingDelivery
    signing_secret: str | None = None
    """Webhooks only; shown only in this response."""


class VisualReadingDeliveryEnvelope(ResponseModel):
    subscription: VisualReadingDelivery


class VisualReadingDeliveryListQuery(RequestModel):
    """A page of subscriptions or of a subscription's delivery log."""

    limit: int = Field(default=20, ge=1, le=100)
    cursor: str | None = Field(default=None, max_length=40)
    """The ``next_cursor`` of the previous page."""


class VisualReadingDeliveryList(ResponseModel):
    subscriptions: list[VisualReadingDelivery]
    next_cursor: str | None
    """Pass as ``cursor`` for the next page; None on the last."""


class DeletedVisualReadingDelivery(ResponseModel):
    """``DELETE`` answers 204 with no body."""
