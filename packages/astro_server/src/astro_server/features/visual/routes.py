"""Visual readings (API key) and the signed upload PUT.

``POST /api/v3/visual-readings/uploads`` grants an upload; ``PUT /uploads/{id}?expires&
signature`` (the URL is the credential) receives the bytes; ``POST .../uploads/{id}/complete``
validates them; ``POST /api/v3/visual-readings`` queues the reading (billed at queue, refunded
once if it fails); ``GET``/``DELETE /api/v3/visual-readings/{id}``. Without the ``visual`` extra
every route here answers 503 ``service_unavailable`` naming it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field
from quart import Blueprint, Response, request
from quart_schema import (
    document_querystring,
    document_response,
    operation_id,
    tag,
    validate_request,
)
from werkzeug.exceptions import RequestEntityTooLarge

from astro_server.features.visual import EXTRA_HINT, missing_visual_dependencies
from astro_server.features.visual import service as visual
from astro_server.platform import files
from astro_server.platform.auth.guards import require_api_key
from astro_server.platform.billing.billable import billable, current_charge
from astro_server.platform.billing.ledger import forbidden_for_tier
from astro_server.platform.billing.pricing import OPERATIONS, tier_allows
from astro_server.platform.caller import Caller
from astro_server.platform.errors import APIError
from astro_server.platform.responses import job_accepted, json_response
from astro_server.platform.schemas import ErrorBody, JobHandle

blueprint = Blueprint("visual_readings", __name__)
TAG = ["Visual readings"]
OPERATION = "visual_readings.upload"
MAX_UPLOAD_BYTES = 10_000_000


@blueprint.before_request
async def _require_extra() -> None:
    missing = missing_visual_dependencies()
    if missing:
        raise APIError(
            503,
            f"Visual readings are not installed on this server ({', '.join(missing)} missing): "
            f"{EXTRA_HINT}.",
            error="service_unavailable",
        )


class SignedUploadQuery(BaseModel):
    expires: int = Field(description="Unix time (seconds) after which the URL is refused")
    signature: str = Field(
        description="Unpadded base64url HMAC-SHA256 of '{upload_id}.{expires}' (server key)"
    )


class UploadGrantRequest(BaseModel):
    content_length: int = Field(ge=1, le=MAX_UPLOAD_BYTES, description="Exact size in bytes")
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$", description="Lowercase hex SHA-256 of the bytes")
    content_type: Literal["image/jpeg", "image/png", "image/webp"]
    kind: Literal["palm", "face"]


class UploadGrant(BaseModel):
    upload_id: str = Field(pattern=r"^upl_[a-f0-9]{24}$")
    method: Literal["PUT"]
    upload_url: str = Field(description="Signed URL: the only credential the PUT needs")
    required_headers: dict[str, str]
    expires_at: datetime


class ValidationCheck(BaseModel):
    check: str
    value: Any
    verdict: Literal["pass", "fail"]
    message: str


class UploadValidation(BaseModel):
    valid: bool
    checks: list[ValidationCheck]
    problems: list[str]


class VisualUploadOut(BaseModel):
    id: str
    kind: str
    status: str
    byte_size: int | None
    expires_at: datetime
    validation: UploadValidation | None


class UploadEnvelope(BaseModel):
    upload: VisualUploadOut


class UploadRejected(ErrorBody):
    validation: UploadValidation
    upload: VisualUploadOut


class ReadingRequest(BaseModel):
    upload_id: str = Field(pattern=r"^upl_[a-f0-9]{24}$")
    language: Literal["en", "th"] = "en"
    hand: Literal["left", "right"] | None = Field(default=None, description="Palm readings only")


class VisualReadingOut(BaseModel):
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


class ReadingAccepted(JobHandle):
    reading_id: str = Field(pattern=r"^vr_[a-f0-9]{24}$")


def _check_tier(caller: Caller) -> None:
    op = OPERATIONS[OPERATION]
    if not tier_allows(caller.tier, op.tier):
        raise forbidden_for_tier(OPERATION, op, caller.tier)


# --- the operations, one definition each: registered below under the API key and in
# customer_routes.py under a session (the caller says which account and mode) ---------------


async def grant_upload(caller: Caller, data: UploadGrantRequest) -> Response:
    _check_tier(caller)
    return json_response(await visual.create_grant(caller, **data.model_dump()), 201)


async def validate_upload(caller: Caller, upload_id: str) -> Response:
    status, body = await visual.complete_upload(caller, upload_id)
    return json_response(body, status)


async def queue_reading(caller: Caller, data: ReadingRequest) -> tuple[str, dict[str, Any]]:
    """The queued reading's id and its job handle (billed by the route's ``@billable``)."""
    reading, handle = await visual.create_reading(
        caller, data.upload_id, data.language, data.hand, charge=current_charge()
    )
    return reading.id, handle


async def show_reading(caller: Caller, reading_id: str) -> Response:
    return json_response(await visual.reading_view(await visual.owned_reading(caller, reading_id)))


async def delete_images(caller: Caller, reading_id: str) -> Response:
    reading = await visual.delete_reading_images(caller, reading_id)
    return json_response(await visual.reading_view(reading))


@blueprint.post("/api/v3/visual-readings/uploads")
@require_api_key
@validate_request(UploadGrantRequest)
@document_response(UploadGrant, 201)
@document_response(ErrorBody, 400)
@document_response(ErrorBody, 401)
@document_response(ErrorBody, 403)
@document_response(ErrorBody, 503)
@tag(TAG)
@operation_id("createVisualUploadGrant")
async def create_upload_grant(data: UploadGrantRequest, caller: Caller) -> Response:
    """Grant a private upload of one palm or face photo (spec 7).

    ``content_length`` 1..10,000,000 bytes, ``sha256`` 64 lowercase hex, ``content_type``
    image/jpeg, image/png or image/webp. The grant lasts 15 minutes: PUT the exact bytes to
    ``upload_url`` with ``required_headers``, then call complete. 403: the tier is too low.
    """
    return await grant_upload(caller, data)


@blueprint.put("/uploads/<upload_id>")
@document_querystring(SignedUploadQuery)
@document_response(ErrorBody, 403)
@document_response(ErrorBody, 409)
@document_response(ErrorBody, 410)
@document_response(ErrorBody, 413)
@tag(TAG)
@operation_id("putVisualUpload")
async def put_upload(upload_id: str) -> Response:
    """Send the photo's bytes to a signed upload URL (no other credential).

    403 bad signature; 409 the bytes already arrived; 410 the grant expired; 413 the body is
    longer than the grant's ``content_length``: refused at once for a larger
    ``Content-Length``, at the first byte past it for a chunked body (nothing is kept; the
    grant takes another PUT). The body streams to storage (never held whole). Answers 204."""
    raw_expires = request.args.get("expires", "")
    if not raw_expires.isdigit() or len(raw_expires) > 12:
        raise APIError(403, "This upload URL is not signed.", error="forbidden")
    body = request.body
    # The app-wide JSON body limit (ASTRO_MAX_BODY_BYTES) does not apply: the grant's
    # content_length (at most 10 MB) bounds this body, enforced while it streams in (the
    # receiver buffers at most streaming.HIGH_WATER unread bytes; see
    # astro_server.platform.streaming).
    body._max_content_length = MAX_UPLOAD_BYTES + 1
    if isinstance(body._must_raise, RequestEntityTooLarge):
        body._must_raise = None
    await visual.receive_upload(
        upload_id,
        int(raw_expires),
        request.args.get("signature", ""),
        body,
        declared_length=request.content_length,
    )
    return Response(b"", status=204)


@blueprint.post("/api/v3/visual-readings/uploads/<upload_id>/complete")
@require_api_key
@document_response(UploadEnvelope, 200)
@document_response(ErrorBody, 401)
@document_response(ErrorBody, 404)
@document_response(ErrorBody, 409)
@document_response(ErrorBody, 410)
@document_response(UploadRejected, 422)
@tag(TAG)
@operation_id("completeVisualUpload")
async def complete_upload(upload_id: str, caller: Caller) -> Response:
    """Validate an uploaded photo (spec 8): size and SHA-256 equal the grant, format from the
    bytes, full decode under a decompression-bomb limit, short side >= 320 px, sharpness,
    exposure, exactly one face or hand of the declared kind. The kept copy is upright and
    stripped of every metadata block. 404 unknown or another account's upload; 409 nothing
    uploaded yet or already completed; 410 the grant expired; 422 validation failed
    (``validation.problems``)."""
    return await validate_upload(caller, upload_id)


@blueprint.post("/api/v3/visual-readings")
@require_api_key
@billable(OPERATION, body=ReadingRequest)
@document_response(ReadingAccepted, 202)
@document_response(ErrorBody, 400)
@document_response(ErrorBody, 402)
@document_response(ErrorBody, 404)
@document_response(ErrorBody, 409)
@tag(TAG)
@operation_id("createVisualReading")
async def create_reading(data: ReadingRequest, caller: Caller) -> Response:
    """Queue a palm or face reading of a validated upload; billed at queue, refunded once if
    the reading fails. Poll the job, or ``GET /api/v3/visual-readings/{id}``."""
    reading_id, handle = await queue_reading(caller, data)
    return job_accepted({**handle, "reading_id": reading_id})


@blueprint.get("/api/v3/visual-readings/<reading_id>")
@require_api_key
@document_response(VisualReadingOut, 200)
@document_response(ErrorBody, 404)
@tag(TAG)
@operation_id("getVisualReading")
async def get_reading(reading_id: str, caller: Caller) -> Response:
    """A reading: status, measured features with confidences, texts, overlay URL, costs."""
    return await show_reading(caller, reading_id)


@blueprint.delete("/api/v3/visual-readings/<reading_id>")
@require_api_key
@document_response(VisualReadingOut, 200)
@document_response(ErrorBody, 404)
@tag(TAG)
@operation_id("deleteVisualReadingImages")
async def delete_reading(reading_id: str, caller: Caller) -> Response:
    """Delete the reading's photo and overlay now; the reading's text stays."""
    return await delete_images(caller, reading_id)


__all__ = ["blueprint", "files"]
