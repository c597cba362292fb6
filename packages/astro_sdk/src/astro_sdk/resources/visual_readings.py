"""``client.visual_readings``: private palm and face readings (API key).

``upload(photo, kind=...)`` does the whole upload: it computes the SHA-256, asks for the grant,
PUTs the bytes to the signed URL (no key is sent there) and completes; a photo that fails
validation raises an ``APIStatusError`` (422) whose ``body["validation"]["problems"]`` says why.
``create`` queues a reading (billed at queue, refunded if it fails), ``wait`` polls the reading
to the end, ``delete`` removes its photo and overlay at once.
"""

from __future__ import annotations

import dataclasses
import hashlib
import time
from functools import partial
from pathlib import Path
from typing import Any, Literal
from urllib.parse import parse_qs, urlsplit

from astro_sdk._base import build_call, validate_request
from astro_sdk._exceptions import status_error
from astro_sdk._operation import Credential, Operation, route
from astro_sdk._resource import AsyncResource, SyncResource
from astro_sdk.models.visual_readings import (
    CreateVisualReadingRequest,
    UploadEnvelope,
    UploadGrant,
    UploadGrantRequest,
    VisualReading,
    VisualReadingAccepted,
    VisualUpload,
    VisualUploadPut,
    VisualUploadQuery,
)

__all__ = ["AsyncVisualReadings", "VisualReadings"]

BASE = "/api/v3/visual-readings"
Photo = bytes | str | Path
_TYPES = {b"\xff\xd8\xff": "image/jpeg", b"\x89PNG": "image/png"}


_op = partial(route, credential=Credential.API_KEY)


GRANT: Operation[UploadGrant] = _op(
    "createVisualUploadGrant",
    "POST",
    BASE + "/uploads",
    UploadGrant,
    request=UploadGrantRequest,
    status=201,
)
PUT: Operation[VisualUploadPut] = _op(
    "putVisualUpload",
    "PUT",
    "/uploads/{upload_id}",
    VisualUploadPut,
    query=VisualUploadQuery,
    credential=Credential.NONE,
    status=204,
)
COMPLETE: Operation[UploadEnvelope] = _op(
    "completeVisualUpload", "POST", BASE + "/uploads/{upload_id}/complete", UploadEnvelope
)
CREATE: Operation[VisualReadingAccepted] = _op(
    "createVisualReading",
    "POST",
    BASE,
    VisualReadingAccepted,
    request=CreateVisualReadingRequest,
    status=202,
    billable=True,
)
GET: Operation[VisualReading] = _op(
    "getVisualReading", "GET", BASE + "/{reading_id}", VisualReading
)
DELETE: Operation[VisualReading] = _op(
    "deleteVisualReadingImages", "DELETE", BASE + "/{reading_id}", VisualReading
)
OPERATIONS = (GRANT, PUT, COMPLETE, CREATE, GET, DELETE)


def _photo_bytes(photo: Photo) -> bytes:
    return photo if isinstance(photo, bytes) else Path(photo).read_bytes()


def _content_type(data: bytes, given: str | None) -> str:
    if given:
        return given
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    for magic, media_type in _TYPES.items():
        if data.startswith(magic):
            return media_type
    raise ValueError("not a JPEG, PNG or WebP photo; pass content_type= to send it anyway")


def _grant_body(data: bytes, kind: str, content_type: str | None) -> UploadGrantRequest:
    return validate_request(
        UploadGrantRequest,
        {
            "content_length": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
            "content_type": _content_type(data, content_type),
            "kind": kind,
        },
    )


def _put_parts(grant: UploadGrant) -> tuple[dict[str, str], VisualUploadQuery]:
    query = parse_qs(urlsplit(grant.upload_url).query)
    fields = {name: values[0] for name, values in query.items() if name in ("expires", "signature")}
    return {"upload_id": grant.upload_id}, validate_request(VisualUploadQuery, fields)


def _put(client: Any, grant: UploadGrant, photo: Photo) -> None:
    path_params, query = _put_parts(grant)
    call = build_call(
        client._config, PUT, query=query, path_params=path_params,
        extra_headers=grant.required_headers,
    )  # fmt: skip
    response, _ = client._send(dataclasses.replace(call, content=_photo_bytes(photo)))
    if not response.is_success:
        raise status_error(response)


async def _async_put(client: Any, grant: UploadGrant, photo: Photo) -> None:
    path_params, query = _put_parts(grant)
    call = build_call(
        client._config, PUT, query=query, path_params=path_params,
        extra_headers=grant.required_headers,
    )  # fmt: skip
    response, _ = await client._send(dataclasses.replace(call, content=_photo_bytes(photo)))
    if not response.is_success:
        raise status_error(response)


def _finished(reading: VisualReading) -> bool:
    return reading.status in ("succeeded", "failed")


class AsyncVisualReadings(AsyncResource):
    """``client.visual_readings`` (API key): private palm and face readings. Upload a photo
    (``upload``: digest, grant, PUT, complete), queue a reading (``create``, billed at queue and
    refunded once if it fails), then ``wait``/``get`` it; ``delete`` removes the photo now."""

    operations = OPERATIONS

    async def create_upload_grant(
        self, photo: Photo, *, kind: Literal["palm", "face"], content_type: str | None = None
    ) -> UploadGrant:
        """``POST /api/v3/visual-readings/uploads``: a 15-minute grant to PUT ``photo``'s bytes
        (its size and SHA-256 are computed here)."""
        body = _grant_body(_photo_bytes(photo), kind, content_type)
        return await self._client.request(GRANT, body=body)

    async def put_upload(self, grant: UploadGrant, photo: Photo) -> None:
        """PUT the bytes to the grant's signed URL (the URL is the credential)."""
        await _async_put(self._client, grant, photo)

    async def complete_upload(self, upload_id: str) -> VisualUpload:
        """``POST /api/v3/visual-readings/uploads/{id}/complete``: validate the uploaded bytes;
        ``ConflictError`` if nothing was uploaded or it was completed already, 410 when the grant
        expired, 422 with ``validation.problems`` when the photo fails a check."""
        envelope = await self._client.request(COMPLETE, path_params={"upload_id": upload_id})
        return envelope.upload

    async def upload(
        self, photo: Photo, *, kind: Literal["palm", "face"], content_type: str | None = None
    ) -> VisualUpload:
        """Digest, grant, PUT and complete: the validated upload."""
        data = _photo_bytes(photo)
        grant = await self.create_upload_grant(data, kind=kind, content_type=content_type)
        await self.put_upload(grant, data)
        return await self.complete_upload(grant.upload_id)

    async def create(
        self,
        upload_id: str,
        *,
        language: Literal["en", "th"] = "en",
        hand: Literal["left", "right"] | None = None,
        idempotency_key: str | None = None,
    ) -> VisualReadingAccepted:
        """``POST /api/v3/visual-readings``: queue a reading of a validated upload (202, a job);
        ``hand`` for palms only."""
        body = validate_request(
            CreateVisualReadingRequest, {"upload_id": upload_id, "language": language, "hand": hand}
        )
        return await self._client.request(CREATE, body=body, idempotency_key=idempotency_key)

    async def get(self, reading_id: str) -> VisualReading:
        """``GET /api/v3/visual-readings/{id}``: the reading, its measured features, texts and
        overlay URL (``NotFoundError`` for another account's)."""
        return await self._client.request(GET, path_params={"reading_id": reading_id})

    async def delete(self, reading_id: str) -> VisualReading:
        """Delete the reading's photo and overlay now; the reading's text stays."""
        return await self._client.request(DELETE, path_params={"reading_id": reading_id})

    async def wait(
        self, reading_id: str, *, timeout_s: float = 120.0, poll_interval_s: float = 0.5
    ) -> VisualReading:
        """Poll until the reading has succeeded or failed (a failed one is returned, with
        ``error``); ``TimeoutError`` after ``timeout_s``."""
        deadline = time.monotonic() + timeout_s
        while True:
            reading = await self.get(reading_id)
            if _finished(reading):
                return reading
            if time.monotonic() >= deadline:
                raise TimeoutError(f"reading {reading_id} is still {reading.status}")
            await self._client.sleep(poll_interval_s)


# --- Generated by scripts/unasync.py from the Async classes above: do not edit below. ---


class VisualReadings(SyncResource):
    """``client.visual_readings`` (API key): private palm and face readings. Upload a photo
    (``upload``: digest, grant, PUT, complete), queue a reading (``create``, billed at queue and
    refunded once if it fails), then ``wait``/``get`` it; ``delete`` removes the photo now."""

    operations = OPERATIONS

    def create_upload_grant(
        self, photo: Photo, *, kind: Literal["palm", "face"], content_type: str | None = None
    ) -> UploadGrant:
        """``POST /api/v3/visual-readings/uploads``: a 15-minute grant to PUT ``photo``'s bytes
        (its size and SHA-256 are computed here)."""
        body = _grant_body(_photo_bytes(photo), kind, content_type)
        return self._client.request(GRANT, body=body)

    def put_upload(self, grant: UploadGrant, photo: Photo) -> None:
        """PUT the bytes to the grant's signed URL (the URL is the credential)."""
        _put(self._client, grant, photo)

    def complete_upload(self, upload_id: str) -> VisualUpload:
        """``POST /api/v3/visual-readings/uploads/{id}/complete``: validate the uploaded bytes;
        ``ConflictError`` if nothing was uploaded or it was completed already, 410 when the grant
        expired, 422 with ``validation.problems`` when the photo fails a check."""
        envelope = self._client.request(COMPLETE, path_params={"upload_id": upload_id})
        return envelope.upload

    def upload(
        self, photo: Photo, *, kind: Literal["palm", "face"], content_type: str | None = None
    ) -> VisualUpload:
        """Digest, grant, PUT and complete: the validated upload."""
        data = _photo_bytes(photo)
        grant = self.create_upload_grant(data, kind=kind, content_type=content_type)
        self.put_upload(grant, data)
        return self.complete_upload(grant.upload_id)

    def create(
        self,
        upload_id: str,
        *,
        language: Literal["en", "th"] = "en",
        hand: Literal["left", "right"] | None = None,
        idempotency_key: str | None = None,
    ) -> VisualReadingAccepted:
        """``POST /api/v3/visual-readings``: queue a reading of a validated upload (202, a job);
        ``hand`` for palms only."""
        body = validate_request(
            CreateVisualReadingRequest, {"upload_id": upload_id, "language": language, "hand": hand}
        )
        return self._client.request(CREATE, body=body, idempotency_key=idempotency_key)

    def get(self, reading_id: str) -> VisualReading:
        """``GET /api/v3/visual-readings/{id}``: the reading, its measured features, texts and
        overlay URL (``NotFoundError`` for another account's)."""
        return self._client.request(GET, path_params={"reading_id": reading_id})

    def delete(self, reading_id: str) -> VisualReading:
        """Delete the reading's photo and overlay now; the reading's text stays."""
        return self._client.request(DELETE, path_params={"reading_id": reading_id})

    def wait(
        self, reading_id: str, *, timeout_s: float = 120.0, poll_interval_s: float = 0.5
    ) -> VisualReading:
        """Poll until the reading has succeeded or failed (a failed one is returned, with
        ``error``); ``TimeoutError`` after ``timeout_s``."""
        deadline = time.monotonic() + timeout_s
        while True:
            reading = self.get(reading_id)
            if _finished(reading):
                return reading
            if time.monotonic() >= deadline:
                raise TimeoutError(f"reading {reading_id} is still {reading.status}")
            self._client.sleep(poll_interval_s)
