"""Customer visual readings (session routes): the API-key flow under ``/v1/visual-readings``
for a logged-in customer, billed to the customer's account, plus the usage and
cost analytics. Every handler calls the same service as the API-key routes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from datetime import date as date_type
from typing import Literal

from pydantic import BaseModel, Field
from quart import Blueprint, Response
from quart_schema import (
    document_querystring,
    document_response,
    operation_id,
    tag,
    validate_querystring,
    validate_request,
)

from astro_server.features.visual import service as visual
from astro_server.features.visual.routes import (
    OPERATION,
    ReadingAccepted,
    ReadingRequest,
    UploadEnvelope,
    UploadGrant,
    UploadGrantRequest,
    UploadRejected,
    VisualReadingOut,
    _require_extra,
    delete_images,
    grant_upload,
    queue_reading,
    show_reading,
    validate_upload,
)
from astro_server.platform import clock
from astro_server.platform.auth.guards import require_session
from astro_server.platform.billing.billable import billable
from astro_server.platform.caller import Caller
from astro_server.platform.errors import validation_error
from astro_server.platform.responses import json_response
from astro_server.platform.schemas import ErrorBody

blueprint = Blueprint("customer_visual_readings", __name__)
TAG = ["Customer visual readings"]
BASE = "/v1/visual-readings"
MAX_SPAN = timedelta(days=366)

blueprint.before_request(_require_extra)


class ReadingList(BaseModel):
    readings: list[VisualReadingOut]
    next_cursor: str | None = Field(description="Pass as cursor for the next page; null at end")


class ListQuery(BaseModel):
    limit: int = Field(default=20, ge=1, le=100)
    cursor: str | None = Field(default=None, max_length=40)


class AnalyticsQuery(BaseModel):
    from_: datetime | None = Field(
        default=None, alias="from", description="Start (inclusive); default 30 days before to"
    )
    to: datetime | None = Field(default=None, description="End (exclusive); default now")
    group_by: Literal["day"] | None = Field(
        default=None,
        description="day: also by_day, the same sums per UTC calendar day of the window",
    )


class ProductUsage(BaseModel):
    product: str = Field(description="palm_reading or face_reading")
    jobs: int
    credits_charged: int
    credits_refunded: int
    succeeded: int
    failed: int
    input_tokens: int
    output_tokens: int
    actual_cost_micros: int
    estimated_cost_micros: int


class DayUsage(BaseModel):
    date: date_type = Field(description="A UTC calendar day (readings created that day)")
    by_product: list[ProductUsage]


class Analytics(BaseModel):
    by_product: list[ProductUsage]
    by_day: list[DayUsage] | None = Field(
        default=None,
        description="With group_by=day only: every UTC day the window touches, oldest first "
        "(days with no reading included, with zeros)",
    )
    from_: datetime = Field(alias="from")
    to: datetime


@blueprint.post(f"{BASE}/uploads")
@require_session
@validate_request(UploadGrantRequest)
@document_response(UploadGrant, 201)
@document_response(ErrorBody, 400)
@document_response(ErrorBody, 401)
@document_response(ErrorBody, 403)
@tag(TAG)
@operation_id("createCustomerVisualUploadGrant")
async def create_upload_grant(data: UploadGrantRequest, caller: Caller) -> Response:
    """Grant a private upload for the customer's account (as ``POST /api/v3/visual-readings/
    uploads``)."""
    return await grant_upload(caller, data)


@blueprint.post(f"{BASE}/uploads/<upload_id>/complete")
@require_session
@document_response(UploadEnvelope, 200)
@document_response(ErrorBody, 401)
@document_response(ErrorBody, 404)
@document_response(ErrorBody, 409)
@document_response(ErrorBody, 410)
@document_response(UploadRejected, 422)
@tag(TAG)
@operation_id("completeCustomerVisualUpload")
async def complete_upload(upload_id: str, caller: Caller) -> Response:
    """Validate the uploaded photo (as the API-key complete)."""
    return await validate_upload(caller, upload_id)


@blueprint.post(BASE)
@require_session
@billable(OPERATION, body=ReadingRequest)
@document_response(ReadingAccepted, 202)
@document_response(ErrorBody, 400)
@document_response(ErrorBody, 402)
@document_response(ErrorBody, 404)
@document_response(ErrorBody, 409)
@tag(TAG)
@operation_id("createCustomerVisualReading")
async def create_reading(data: ReadingRequest, caller: Caller) -> Response:
    """Queue a reading billed to the customer's account; poll ``/v1/visual-readings/{id}``."""
    reading_id, handle = await queue_reading(caller, data)
    poll = f"{BASE}/{reading_id}"
    body = {**handle, "poll": poll, "reading_id": reading_id}
    return json_response(body, 202, {"Location": poll})


@blueprint.get(BASE)
@require_session
@validate_querystring(ListQuery)
@document_response(ReadingList, 200)
@document_response(ErrorBody, 400)
@tag(TAG)
@operation_id("listCustomerVisualReadings")
async def list_readings(query_args: ListQuery, caller: Caller) -> Response:
    """The account's readings, newest first."""
    rows, next_cursor = await visual.list_readings(caller, query_args.limit, query_args.cursor)
    views = [await visual.reading_view(r) for r in rows]
    return json_response({"readings": views, "next_cursor": next_cursor})


@blueprint.get(f"{BASE}/analytics")
@require_session
@document_querystring(AnalyticsQuery)
@document_response(Analytics, 200)
@document_response(ErrorBody, 400)
@document_response(ErrorBody, 401)
@tag(TAG)
@operation_id("getVisualReadingAnalytics")
async def get_analytics(caller: Caller) -> Response:
    """Spec 6: per product (``palm_reading``, ``face_reading``) the readings created in
    ``[from, to)``: jobs, credits charged and refunded (from the ledger), outcomes, tokens and
    costs in micros. At most 366 days; default the last 30. ``group_by=day`` adds ``by_day``,
    the same sums per UTC calendar day (every day of the window, zeros included)."""
    from quart import request

    try:
        query = AnalyticsQuery.model_validate(dict(request.args))
    except Exception as exc:
        fields = {str(e["loc"][0]) for e in getattr(exc, "errors", list)() if e.get("loc")}
        if "group_by" in fields:
            raise validation_error(
                [{"field": "group_by", "message": "must be day or left out"}]
            ) from None
        raise validation_error(
            [{"field": "from", "message": "from and to must be ISO 8601 date-times"}]
        ) from None
    end = query.to or datetime.now(UTC)
    start = query.from_ or end - timedelta(days=30)
    if end.tzinfo is None:
        end = end.replace(tzinfo=UTC)
    if start.tzinfo is None:
        start = start.replace(tzinfo=UTC)
    if start >= end:
        raise validation_error([{"field": "from", "message": "must be before to"}])
    if end - start > MAX_SPAN:
        raise validation_error([{"field": "to", "message": "at most 366 days after from"}])
    rows, per_day = await visual.analytics(caller, start, end, by_day=query.group_by == "day")
    body: dict[str, object] = {"by_product": rows, "from": clock.iso(start), "to": clock.iso(end)}
    if per_day is not None:
        body["by_day"] = per_day
    return json_response(body)


@blueprint.get(f"{BASE}/<reading_id>")
@require_session
@document_response(VisualReadingOut, 200)
@document_response(ErrorBody, 404)
@tag(TAG)
@operation_id("getCustomerVisualReading")
async def get_reading(reading_id: str, caller: Caller) -> Response:
    """One reading of the account."""
    return await show_reading(caller, reading_id)


@blueprint.delete(f"{BASE}/<reading_id>")
@require_session
@document_response(VisualReadingOut, 200)
@document_response(ErrorBody, 404)
@tag(TAG)
@document_response(ErrorBody, 403)
@operation_id("deleteCustomerVisualReadingImages")
async def delete_reading(reading_id: str, caller: Caller) -> Response:
    """Delete the reading's photo and overlay now; the text stays. A member deletes only the
    readings it made (403 otherwise); an admin any of the account's."""
    return await delete_images(caller, reading_id)
