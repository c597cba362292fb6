"""The visual-reading flow shared by the API-key routes: grant -> signed PUT -> complete ->
reading job -> reading; retention and deletion. Photos never reach a log or an event body."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import logging
import secrets
import tempfile
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
import numpy as np

from astro_server.features.visual import writer
from astro_server.features.visual.models import VisualReading, VisualUpload
from astro_server.platform import clock, files
from astro_server.platform.billing.ledger import Charge
from astro_server.platform.caller import Caller
from astro_server.platform.delivery.events import emit_account_event
from astro_server.platform.errors import APIError, not_found
from astro_server.platform.files import service as file_service
from astro_server.platform.jobs import Concurrency, JobKind, creator_of, enqueue_job
from astro_server.platform.models.files import StoredFile
from astro_server.platform.owned import owned, owned_query, require_manage
from astro_server.platform.paging import newest_first

log = logging.getLogger("astro_server.visual")

GRANT_TTL = timedelta(minutes=15)
JOB_KIND = "visual_readings.reading"
SPOOL_BYTES = 256 * 1024
"""How much of an upload's body stays in memory before its spool moves to a temporary file."""


def put_path(upload_id: str, expires: int) -> str:
    signature = file_service.url_signature(upload_id, expires)
    return f"/uploads/{upload_id}?expires={expires}&signature={signature}"


async def create_grant(
    caller: Caller, *, content_length: int, sha256: str, content_type: str, kind: str
) -> dict[str, Any]:
    """A grant owned by the caller's account and mode (and login, for a session)."""
    now = file_service.now()
    upload = await VisualUpload.create(
        id="upl_" + secrets.token_hex(12),
        account_id=caller.account_id,
        livemode=caller.livemode,
        created_by=caller.customer_id,
        kind=kind,
        content_type=content_type,
        content_length=content_length,
        sha256=sha256,
        expires_at=now + GRANT_TTL,
        created_at=now,
    )
    expires = int(upload.expires_at.timestamp())
    base = file_service._base_url(file_service.current_settings())
    return {
        "upload_id": upload.id,
        "method": "PUT",
        "upload_url": base + put_path(upload.id, expires),
        "required_headers": {"Content-Type": content_type, "Content-Length": str(content_length)},
        "expires_at": clock.iso(upload.expires_at),
    }


async def receive_upload(
    upload_id: str, expires: int, signature: str, body: Any, declared_length: int | None = None
) -> None:
    """Store the PUT body; refuses a bad signature, an expired grant, a second PUT, an
    oversized body (413, nothing kept).

    The body streams in chunks into a spooled temporary file (in memory up to
    :data:`SPOOL_BYTES`, then on disk) and from it to storage, so the server never holds the
    whole photo: 413 as soon as more than the grant's ``content_length`` has arrived. On any
    failure (413, a disconnect, storage down) the spool is gone, nothing is stored and the
    grant can take a PUT again. A ``Content-Length`` (``declared_length``) above the grant's is
    413 before any byte is read."""
    if not signature or not files.signature_valid(upload_id, expires, signature):
        raise APIError(403, "This upload URL's signature is not valid.", error="forbidden")
    upload = await VisualUpload.get_or_none(id=upload_id)
    if upload is None:
        raise not_found("Upload")
    if expires < file_service.now().timestamp() or upload.expires_at < file_service.now():
        raise APIError(410, "This upload grant has expired; ask for a new one.", error="gone")
    too_long = APIError(
        413,
        f"The body is longer than the grant's content_length ({upload.content_length}).",
        error="payload_too_large",
    )
    if upload.status == "granted" and (declared_length or 0) > upload.content_length:
        raise too_long
    claimed = await VisualUpload.filter(id=upload_id, status="granted").update(status="receiving")
    if not claimed:
        raise APIError(409, "This upload has already received its bytes.", error="conflict")
    key = f"{upload_id}.raw"
    storing: asyncio.Future[int] | None = None
    with tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES) as spool:
        try:
            received = 0
            async for chunk in body:
                received += len(chunk)
                if received > upload.content_length:
                    raise too_long
                spool.write(chunk)
            # Shielded: if the request is cancelled meanwhile, the copy (a worker thread) is let
            # finish (the spool still open) and then deleted, so no object outlives a failed PUT.
            storing = asyncio.ensure_future(files.storage().put(key, spool, upload.content_type))
            await asyncio.shield(storing)
        except BaseException:
            if storing is not None:
                with contextlib.suppress(BaseException):
                    await storing
                await files.storage().delete(key)
            await VisualUpload.filter(id=upload_id, status="receiving").update(status="granted")
            raise
    await VisualUpload.filter(id=upload_id).update(
        status="uploaded", raw_key=key, uploaded_at=file_service.now()
    )


def upload_view(upload: VisualUpload) -> dict[str, Any]:
    return {
        "id": upload.id,
        "kind": upload.kind,
        "status": upload.status,
        "byte_size": upload.byte_size,
        "expires_at": clock.iso(upload.expires_at),
        "validation": upload.validation,
    }


async def complete_upload(caller: Caller, upload_id: str) -> tuple[int, dict[str, Any]]:
    """Validate the uploaded bytes: (200, body) or (422, body with ``validation.problems``).
    Only the caller's upload (same account and mode); a member completes only its own."""
    from astro_server.features.visual.validate import validate_photo

    upload = await owned(caller, VisualUpload, upload_id, "Upload")
    require_manage(caller, upload.created_by, "upload")
    account_id = caller.account_id
    if upload.status in ("validated", "rejected"):
        raise APIError(409, "This upload was already completed.", error="conflict")
    if upload.status != "uploaded":
        if upload.expires_at < file_service.now():
            raise APIError(410, "This upload grant expired before any bytes arrived.", error="gone")
        raise APIError(409, "Nothing has been uploaded to this grant yet.", error="conflict")
    claimed = await VisualUpload.filter(id=upload.id, status="uploaded").update(status="checking")
    if not claimed:
        raise APIError(409, "This upload is being completed.", error="conflict")
    assert upload.raw_key is not None
    backend = files.storage()
    try:
        data = await backend.read(upload.raw_key)
        outcome = await asyncio.to_thread(
            validate_photo,
            data,
            content_length=upload.content_length,
            sha256=upload.sha256,
            content_type=upload.content_type,
            kind=upload.kind,
        )
        photo_id = None
        if outcome.valid:
            assert outcome.clean_bytes is not None
            assert outcome.clean_type is not None
            retention = timedelta(hours=file_service.current_settings().visual_retention_hours)
            photo = await files.store_file(
                account_id,
                outcome.clean_bytes,
                outcome.clean_type,
                f"{upload.id}.img",
                "visual_photo",
                livemode=upload.livemode,
                retention=retention,
            )
            photo_id = photo.id
    except BaseException:
        await VisualUpload.filter(id=upload.id, status="checking").update(status="uploaded")
        raise
    await backend.delete(upload.raw_key)
    validation = outcome.view()
    status = "validated" if outcome.valid else "rejected"
    await VisualUpload.filter(id=upload.id).update(
        status=status,
        validation=validation,
        byte_size=len(data),
        photo_file_id=photo_id,
        raw_key=None,
        completed_at=file_service.now(),
    )
    upload = await VisualUpload.get(id=upload.id)
    await emit_account_event(
        account_id,
        f"visual_upload.{status}",
        {"upload_id": upload.id, "kind": upload.kind, "problems": validation["problems"]},
        upload.livemode,
    )
    body = {"upload": upload_view(upload)}
    if outcome.valid:
        return 200, body
    return 422, {
        "error": "validation_failed",
        "message": "The photo failed validation: " + "; ".join(validation["problems"]),
        "validation": validation,
        **body,
    }


async def create_reading(
    caller: Caller,
    upload_id: str,
    language: str,
    hand: str | None,
    *,
    charge: Charge | None,
) -> tuple[VisualReading, dict[str, str]]:
    """The reading row and its queued job, paid by ``charge`` (refunded once if it fails). The
    upload is the caller's (same account and mode; a member's own)."""
    credits = charge.credits if charge else 0
    account_id, livemode = caller.account_id, caller.livemode
    upload = await owned(caller, VisualUpload, upload_id, "Upload")
    require_manage(caller, upload.created_by, "upload")
    if upload.status != "validated" or upload.photo_file_id is None:
        raise APIError(409, "This upload has not passed validation.", error="conflict")
    if upload.kind == "face" and hand is not None:
        raise APIError(
            400,
            "hand is for palm readings only.",
            error="validation_error",
            details=[{"field": "hand", "message": "only for palm uploads"}],
        )
    if upload.kind == "palm" and hand is None:
        raise APIError(
            400,
            "hand is required for a palm reading.",
            error="validation_error",
            details=[{"field": "hand", "message": "required for palm uploads"}],
        )
    if await VisualReading.exists(upload_id=upload_id):
        raise APIError(409, "This upload already has a reading.", error="conflict")
    settings = file_service.current_settings()
    reading = await VisualReading.create(
        id="vr_" + secrets.token_hex(12),
        account_id=account_id,
        livemode=livemode,
        created_by=caller.customer_id,
        upload_id=upload_id,
        kind=upload.kind,
        language=language,
        hand=hand,
        photo_file_id=upload.photo_file_id,
        credits_charged=credits,
        writer="llm" if settings.llm_base_url and settings.llm_model else "builtin",
        estimated_cost_micros=writer.estimate_cost_micros(settings, upload.kind),
        created_at=file_service.now(),
    )
    try:
        handle = await enqueue_job(
            READING,
            ReadingParams(reading_id=reading.id),
            account_id=account_id,
            livemode=livemode,
            charge=charge,
            created_by=creator_of(caller),
        )
    except BaseException:
        await VisualReading.filter(id=reading.id).delete()  # 429 or 503: no reading was queued
        raise
    await VisualReading.filter(id=reading.id).update(job_id=handle["job_id"])
    reading.job_id = handle["job_id"]
    return reading, handle


def _analyse(kind: str, rgb: np.ndarray) -> tuple[dict[str, Any], bytes]:
    from astro_server.features.visual import face, overlay, palm
    from astro_server.features.visual.detect import detect

    detection = detect(rgb, kind)
    if detection.count != 1 or detection.points is None:
        what = "face" if kind == "face" else "hand"
        raise APIError(
            422,
            f"Exactly one {what} must be visible; found {detection.count}.",
            error="subject_not_found",
        )
    if kind == "face":
        features = face.measure_face(detection.points)
        return features, overlay.face_overlay(rgb, detection.points)
    features = palm.measure_hand(detection.points)
    lines, traces = palm.find_lines(rgb, detection.points)
    features["lines"] = lines
    features["detected_hand"] = detection.handedness
    return features, overlay.palm_overlay(rgb, detection.points, traces)


async def _reading_failed(job: Any, error: dict[str, Any], status: str) -> None:
    """The job's failure hook: runs once the job is failed (or canceled) and refunded, so a
    reading shows ``failed`` only when its refund can be seen; then ``visual_reading.failed``."""
    reading = await VisualReading.get_or_none(id=(job.params or {}).get("reading_id"))
    if reading is None or reading.status in ("succeeded", "failed"):
        return
    if error.get("error") == "job_failed":  # not one of ours: say what failed
        error = {"error": "reading_failed", "message": "The reading could not be completed."}
    else:
        error = {"error": error.get("error", status), "message": error.get("message", "")}
    await VisualReading.filter(id=reading.id).update(
        status="failed", error=error, finished_at=file_service.now()
    )
    await emit_account_event(
        reading.account_id,
        "visual_reading.failed",
        {"reading_id": reading.id, "kind": reading.kind, "error": error},
        reading.livemode,
    )


class ReadingParams(msgspec.Struct, frozen=True):
    reading_id: str


async def run_reading(params: ReadingParams) -> dict[str, Any]:
    from PIL import Image

    reading = await VisualReading.get(id=params.reading_id)
    settings = file_service.current_settings()
    await VisualReading.filter(id=reading.id).update(status="running")
    # Raising fails the job, which refunds it and then calls _reading_failed.
    photo = await StoredFile.get_or_none(id=reading.photo_file_id, deleted_at=None)
    if photo is None:
        raise APIError(410, "The photo was deleted before the reading ran.", error="gone")
    data = await files.read_file(photo)
    started = time.process_time()
    rgb = np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))
    features, overlay_png = await asyncio.to_thread(_analyse, reading.kind, rgb)
    written = writer.builtin_reading(reading.kind, features, reading.language)
    cpu_s = time.process_time() - started
    if reading.writer == "llm":
        written = await writer.chat_reading(settings, written, reading.language, reading.kind)
    overlay = await files.store_file(
        reading.account_id,
        overlay_png,
        "image/png",
        f"{reading.id}-overlay.png",
        "visual_overlay",
        livemode=reading.livemode,
        retention=timedelta(hours=settings.visual_retention_hours),
    )
    body = {
        "kind": reading.kind,
        "language": reading.language,
        "hand": reading.hand,
        "features": features,
        "summary": written.summary,
        "sections": written.sections,
    }
    await VisualReading.filter(id=reading.id).update(
        status="succeeded",
        reading=body,
        overlay_file_id=overlay.id,
        finished_at=file_service.now(),
        input_tokens=written.input_tokens,
        output_tokens=written.output_tokens,
        actual_cost_micros=writer.actual_cost_micros(settings, written, cpu_s),
    )
    await emit_account_event(
        reading.account_id,
        "visual_reading.succeeded",
        {"reading_id": reading.id, "kind": reading.kind, "summary": written.summary},
        reading.livemode,
    )
    return {"reading_id": reading.id, **body}


async def owned_reading(caller: Caller, reading_id: str) -> VisualReading:
    """The caller's reading (same account and mode; any other: 404)."""
    return await owned(caller, VisualReading, reading_id, "Visual reading")


async def delete_reading_images(caller: Caller, reading_id: str) -> VisualReading:
    """Delete the photo and overlay of the caller's reading; a member deletes only readings it
    made (an admin any, an API key any of its mode). Returns the reading as it is after."""
    reading = await owned_reading(caller, reading_id)
    require_manage(caller, reading.created_by, "visual reading")
    await delete_images(reading)
    return await owned_reading(caller, reading_id)


async def reading_view(reading: VisualReading) -> dict[str, Any]:
    overlay_url = None
    if reading.overlay_file_id and reading.images_deleted_at is None:
        stored = await StoredFile.get_or_none(id=reading.overlay_file_id, deleted_at=None)
        if stored is not None:
            overlay_url = files.signed_url(stored)[0]
    return {
        "id": reading.id,
        "upload_id": reading.upload_id,
        "kind": reading.kind,
        "language": reading.language,
        "hand": reading.hand,
        "status": reading.status,
        "job_id": reading.job_id,
        "reading": reading.reading,
        "error": reading.error,
        "overlay_url": overlay_url,
        "writer": reading.writer,
        "credits_charged": reading.credits_charged,
        "input_tokens": reading.input_tokens,
        "output_tokens": reading.output_tokens,
        "estimated_cost_micros": reading.estimated_cost_micros,
        "actual_cost_micros": reading.actual_cost_micros,
        "created_at": clock.iso(reading.created_at),
        "finished_at": clock.iso(reading.finished_at),
        "images_deleted_at": clock.iso(reading.images_deleted_at),
    }


async def delete_images(reading: VisualReading) -> None:
    """Delete the reading's photo and overlay now (the text stays)."""
    for file_id in (reading.photo_file_id, reading.overlay_file_id):
        if file_id:
            stored = await StoredFile.get_or_none(id=file_id, deleted_at=None)
            if stored is not None:
                await files.delete_file(stored)
    await VisualReading.filter(id=reading.id).update(images_deleted_at=file_service.now())


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


async def list_readings(
    caller: Caller, limit: int, cursor: str | None
) -> tuple[list[VisualReading], str | None]:
    """The caller's readings (its mode only), newest first; ``cursor`` is the last id of the
    previous page."""

    query = owned_query(caller, VisualReading)
    return await newest_first(query, limit=limit, cursor=cursor)


PRODUCTS = {"palm": "palm_reading", "face": "face_reading"}


def _usage_row(product: str) -> dict[str, Any]:
    row: dict[str, Any] = {
        "product": product, "jobs": 0, "credits_charged": 0, "credits_refunded": 0,
        "succeeded": 0, "failed": 0, "input_tokens": 0, "output_tokens": 0,
        "actual_cost_micros": 0, "estimated_cost_micros": 0,
    }  # fmt: skip
    return row


async def analytics(
    caller: Caller, start: datetime, end: datetime, by_day: bool = False
) -> tuple[list[dict[str, Any]], list[dict[str, Any]] | None]:
    """Per product, the readings created in ``[start, end)``: counts, tokens and costs from the
    readings, credits from the ledger (the debit each reading's job points at, and its refund).

    With ``by_day`` also the same sums per UTC calendar day of ``created_at``, for every day
    the window touches (days with no reading included, with zeros), oldest first. The caller's
    mode only (a session's: live)."""
    from astro_server.platform.models.billing import LedgerEntry
    from astro_server.platform.models.jobs import Job

    readings = await owned_query(caller, VisualReading, created_at__gte=start, created_at__lt=end)
    jobs = {
        j.id: j
        for j in await Job.filter(id__in=[r.job_id for r in readings if r.job_id])
    }  # fmt: skip
    debit_ids = [j.ledger_entry_id for j in jobs.values() if j.ledger_entry_id is not None]
    debits = {e.id: e for e in await LedgerEntry.filter(id__in=debit_ids, kind="debit")}
    refunds = {
        e.refund_of: e for e in await LedgerEntry.filter(refund_of__in=debit_ids, kind="refund")
    }

    def rows() -> dict[str, dict[str, Any]]:
        return {kind: _usage_row(product) for kind, product in PRODUCTS.items()}

    total = rows()
    days: dict[str, dict[str, dict[str, Any]]] = {}
    if by_day:
        day = start.astimezone(UTC).date()
        last = (end.astimezone(UTC) - timedelta(microseconds=1)).date()
        while day <= last:
            days[day.isoformat()] = rows()
            day += timedelta(days=1)
    for reading in readings:
        if reading.kind not in PRODUCTS:
            continue
        targets = [total[reading.kind]]
        if by_day:
            targets.append(
                days[reading.created_at.astimezone(UTC).date().isoformat()][reading.kind]
            )
        job = jobs.get(reading.job_id or "")
        charged = refunded = 0
        if job is not None and job.ledger_entry_id in debits:
            charged = -debits[job.ledger_entry_id].amount
            refund = refunds.get(job.ledger_entry_id)
            refunded = refund.amount if refund is not None else 0
        for row in targets:
            row["jobs"] += 1
            row["succeeded"] += reading.status == "succeeded"
            row["failed"] += reading.status == "failed"
            row["input_tokens"] += reading.input_tokens
            row["output_tokens"] += reading.output_tokens
            row["actual_cost_micros"] += reading.actual_cost_micros
            row["estimated_cost_micros"] += reading.estimated_cost_micros
            row["credits_charged"] += charged
            row["credits_refunded"] += refunded
    per_day = (
        [{"date": d, "by_product": list(r.values())} for d, r in days.items()] if by_day else None
    )
    return list(total.values()), per_day


#: Readings one API key (or one login) may have queued or running at once
#: (``ASTRO_VISUAL_READINGS_PER_KEY``, 4; issue 36).
READINGS = Concurrency("visual readings", "visual_readings_per_key")
READING = JobKind(
    JOB_KIND, ReadingParams, run_reading, on_failure=_reading_failed, concurrency=READINGS
)
