"""The server's error contract: every non-2xx body is one JSON shape.

    {"error": slug, "message": text, "code"?: str, "request_id"?: str, "details"?: [...]}

Slugs by status:

    400 bad_request            malformed JSON, wrong content type, unparseable input
    400 validation_error       field-level failures, ``details: [{field, message}]``
    401 unauthorized           missing, invalid, revoked or expired credential (code "401")
    402 payment_required       balance too low for the operation (code "402")
    403 forbidden              operation not in the caller's tier; a signed file URL expired or
                               tampered
    404 not_found              unknown route or an object the caller does not own
    405 method_not_allowed     route exists, method does not
    409 idempotency_conflict   same Idempotency-Key, different request
    409 idempotency_in_progress  first request with that key still running (Retry-After)
    409 conflict (code subscription_limit)  the customer holds the most subscriptions allowed
    409 conflict               the webhook delivery already succeeded (retry refused)
    410 gone                   a file deleted after its retention period (signed file URLs)
    413 payload_too_large      body over the configured maximum
    415 unsupported_media_type body is not application/json
    416 range_not_satisfiable  a byte range past the end of a file (Content-Range: bytes */size)
    429 rate_limited           per-credential limit reached (Retry-After)
    500 internal_server_error  code "internal"; never a traceback
    503 service_unavailable    a dependency is unreachable (code database_unavailable,
                               job_queue_unavailable or rate_limiter_unavailable; Retry-After):
                               platform/outages.py

Raise :class:`APIError` anywhere; one handler turns it into the body.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

SLUG_BY_STATUS: dict[int, str] = {
    400: "bad_request",
    401: "unauthorized",
    402: "payment_required",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    410: "gone",
    413: "payload_too_large",
    415: "unsupported_media_type",
    416: "range_not_satisfiable",
    429: "rate_limited",
    500: "internal_server_error",
    503: "service_unavailable",
}


class APIError(Exception):
    """An error that reaches the client as the JSON error body."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        error: str | None = None,
        code: str | None = None,
        details: Sequence[Mapping[str, str]] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.error = error or SLUG_BY_STATUS.get(status, "error")
        self.message = message
        self.code = code
        self.details = list(details) if details is not None else None
        self.headers = dict(headers or {})

    def body(self, request_id: str | None) -> dict[str, Any]:
        out: dict[str, Any] = {"error": self.error, "message": self.message}
        if self.code is not None:
            out["code"] = self.code
        if request_id:
            out["request_id"] = request_id
        if self.details is not None:
            out["details"] = self.details
        return out


def validation_error(details: Sequence[Mapping[str, str]], message: str | None = None) -> APIError:
    fields = ", ".join(d["field"] for d in details)
    return APIError(
        400,
        message or f"Invalid request: {fields}",
        error="validation_error",
        details=details,
    )


def unauthorized(message: str = "Invalid or missing API key.") -> APIError:
    return APIError(401, message, error="unauthorized", code="401")


def payment_required(message: str = "Insufficient credits for this operation.") -> APIError:
    return APIError(402, message, error="payment_required", code="402")


def not_found(what: str = "Resource") -> APIError:
    return APIError(404, f"{what} not found.", error="not_found")
