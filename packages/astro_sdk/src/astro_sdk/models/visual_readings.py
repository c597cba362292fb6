"""Models of visual readings (``/api/v3/visual-readings``, API key): upload grants, the
validated upload, the reading and its job handle."""

from __future__ import annotations

from datetime import date as date_type
from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from astro_sdk.models._base import RequestModel, ResponseModel

__all__ = [
    "AnalyticsQuery",
    "CreateVisualReadingRequest",
    "DayUsage",
    "ProductUsage",
    "UploadEnvelope",
    "UploadGrant",
    "UploadGrantRequest",
    "UploadValidation",
    "ValidationCheck",
    "VisualReading",
    "VisualReadingAccepted",
    "VisualReadingAnalytics",
    "VisualReadingList",
    "VisualReadingListQuery",
    "VisualUpload",
    "VisualUploadPut",
    "VisualUploadQuery",
]


class UploadGrantRequest(RequestModel):
    content_length: int = Field(ge=1, le=10_000_000)
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    content_type: Literal["image/jpeg", "image/png", "image/webp"]
    kind: Literal["palm", "face"]


class UploadGrant(ResponseModel):
    upload_id: str
    method: str
    upload_url: str
    required_headers: dict[str, str]
    expires_at: datetime


class VisualUploadQuery(RequestModel):
    expires: int
    signature: str


class VisualUploadPut(ResponseModel):
    """The PUT answers 204 with no body."""


class ValidationCheck(ResponseModel):
    check: str
    value: Any
    verdict: str
    message: str


class UploadValidation(ResponseModel):
    valid: bool
    checks: list[ValidationCheck]
    problems: list[str]


class VisualUpload(ResponseModel):
    id: str
    kind: str
    status: str
    byte_size: int | None
    expires_at: datetime
    validation: UploadValidation | None


class UploadEnvelope(ResponseModel):
    upload: VisualUpload


class CreateVisualReadingRequest(RequestModel):
    upload_id: str = Field(pattern=r"^upl_[a-f0-9]{24}$")
    language: Literal["en", "th"] = "en"
    hand: Literal["left", "right"] | None = None


class VisualReadingAccepted(ResponseModel):
    job_id: str
    status: str
    poll: str
    reading_id: str


class VisualReading(ResponseModel):
    id: str
    upload_id: str
    kind: str
    language: str
    hand: str | None
    status: str
    job_id: str | None
    reading: dict[str, Any] | None
    error: dict[str, Any] | None
    overlay_url: str | None
    writer: str
    credits_charged: int
    input_tokens: int
    output_tokens: int
    estimated_cost_micros: int
    actual_cost_micros: int
    created_at: datetime
    finished_at: datetime | None
    images_deleted_at: datetime | None


class CustomerVisualReadingAccepted(VisualReadingAccepted):
    """``poll`` is the reading's path (``/v1/visual-readings/{id}``)."""


class VisualReadingList(ResponseModel):
    readings: list[VisualReading]
    next_cursor: str | None


class VisualReadingListQuery(RequestModel):
    limit: int = Field(default=20, ge=1, le=100)
    cursor: str | None = Field(default=None, max_length=40)


class AnalyticsQuery(RequestModel):
    from_: datetime | None = Field(default=None, alias="from")
    to: datetime | None = None
    group_by: Literal["day"] | None = None


class ProductUsage(ResponseModel):
    product: str
    jobs: int
    credits_charged: int
    credits_refunded: int
    succeeded: int
    failed: int
    input_tokens: int
    output_tokens: int
    actual_cost_micros: int
    estimated_cost_micros: int


class DayUsage(ResponseModel):
    date: date_type
    by_product: list[ProductUsage]


class VisualReadingAnalytics(ResponseModel):
    by_product: list[ProductUsage]
    by_day: list[DayUsage] | None = None
    from_: datetime = Field(alias="from")
    to: datetime
