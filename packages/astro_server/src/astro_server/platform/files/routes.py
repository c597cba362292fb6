"""``GET /files/{file_id}?expires=&signature=``: generated files behind signed URLs.

The URL is the credential (no header): a missing, malformed or wrong signature, or an expiry in
the past, is 403 ``forbidden``; a file deleted after its retention is 410 ``gone`` (also when
the validly signed URL has expired: a URL never outlives its file's retention). One byte
range (``Range: bytes=a-b``, ``a-``, ``-n``) is answered 206 with ``Content-Range``; a range
past the end is 416; several ranges get the whole file (RFC 9110 lets a server ignore Range).
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field
from quart import Blueprint, Response, request
from quart_schema import document_querystring, document_response, operation_id, tag

from astro_server.platform import files
from astro_server.platform.errors import APIError, not_found
from astro_server.platform.models.files import StoredFile
from astro_server.platform.schemas import ErrorBody

blueprint = Blueprint("files", __name__)
_RANGE = re.compile(r"^bytes=(\d*)-(\d*)$")
# Shown in the browser; anything else (HTML, SVG) is downloaded, never rendered on our origin.
_INLINE = frozenset({"application/pdf", "image/png", "image/jpeg"})


class SignedFileQuery(BaseModel):
    expires: int = Field(description="Unix time (seconds) after which the URL is refused")
    signature: str = Field(
        description="Unpadded base64url HMAC-SHA256 of '{file_id}.{expires}' (server key)"
    )


def _forbidden(message: str) -> APIError:
    return APIError(403, message, error="forbidden")


def _byte_range(header: str, size: int) -> tuple[int, int] | None:
    """The inclusive range asked for, None for the whole file; 416 when unsatisfiable."""
    match = _RANGE.match(header.strip().replace(" ", ""))
    if match is None:
        return None  # several ranges, or another unit: the whole file
    first, last = match.groups()
    if not first and not last:
        return None
    if not first:  # the last n bytes
        suffix = int(last)
        if suffix == 0 or size == 0:
            raise _unsatisfiable(size)
        return max(0, size - suffix), size - 1
    start = int(first)
    end = min(int(last), size - 1) if last else size - 1
    if start >= size or (last and int(last) < start):
        raise _unsatisfiable(size)
    return start, end


def _unsatisfiable(size: int) -> APIError:
    return APIError(
        416,
        "The requested range is outside the file.",
        error="range_not_satisfiable",
        headers={"Content-Range": f"bytes */{size}"},
    )


@blueprint.get("/files/<file_id>")
@document_querystring(SignedFileQuery)
@document_response(ErrorBody, 403)
@document_response(ErrorBody, 404)
@document_response(ErrorBody, 410)
@document_response(ErrorBody, 416)
@tag(["Reports"])
@operation_id("getFile")
async def get_file(file_id: str) -> Response:
    """Download a generated file through its signed URL (no other credential).

    Answers the bytes with ``Content-Type``, ``Content-Length`` and ``Content-Disposition``
    (the file's name; RFC 5987 ``filename*`` when it is not ASCII), or 206 for one byte range.
    403 ``forbidden``: the signature is missing or wrong, or ``expires`` has passed.
    410 ``gone``: the file was deleted after its retention (``ASTRO_FILE_RETENTION_HOURS``).
    416 ``range_not_satisfiable``: the range starts past the end of the file.
    """
    raw_expires = request.args.get("expires", "")
    signature = request.args.get("signature", "")
    if not raw_expires.isdigit() or len(raw_expires) > 12 or not signature:
        raise _forbidden("This file URL is not signed; ask for a fresh URL.")
    expires = int(raw_expires)
    if not files.signature_valid(file_id, expires, signature):
        raise _forbidden("This file URL's signature is not valid.")
    stored = await StoredFile.get_or_none(id=file_id)
    if stored is None:
        raise not_found("File")
    # Before the expiry: a URL never outlives its file's retention, so an old URL of a deleted
    # file would otherwise always read "expired" and never "gone". The signature proves we
    # issued it, so telling its holder the file is gone reveals nothing more.
    if stored.deleted_at is not None:
        raise APIError(410, "This file was deleted after its retention period.", error="gone")
    if expires < files.service.now().timestamp():
        raise _forbidden("This file URL has expired; ask for a fresh URL.")
    size = stored.byte_size
    wanted = _byte_range(request.headers["Range"], size) if "Range" in request.headers else None
    try:
        if wanted is None:
            body = await files.storage().read(stored.storage_key)
        else:
            body = await files.storage().read(stored.storage_key, wanted[0], wanted[1])
    except FileNotFoundError:
        raise APIError(410, "This file is no longer stored.", error="gone") from None
    disposition = "inline" if stored.content_type in _INLINE else "attachment"
    headers = {
        "Content-Disposition": files.content_disposition(stored.filename, disposition),
        "Accept-Ranges": "bytes",
        "Cache-Control": "private, no-store",
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'; img-src data:; style-src 'unsafe-inline'",
    }
    status = 200
    if wanted is not None:
        status = 206
        headers["Content-Range"] = f"bytes {wanted[0]}-{wanted[1]}/{size}"
    response = Response(body, status=status, headers=headers, content_type=stored.content_type)
    response.content_length = len(body)
    return response
