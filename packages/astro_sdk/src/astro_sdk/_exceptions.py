"""Every error the SDK raises, in one tree.

    AstroError                              base of everything below
    ├── RequestValidationError              a request refused before sending (also ValueError)
    ├── MissingCredentialError              the route takes a credential this client lacks
    ├── APIError                            an HTTP exchange went wrong
    │   ├── APIConnectionError              no response: refused, reset, DNS, TLS
    │   │   └── APITimeoutError             no response in time
    │   ├── APIResponseValidationError      a 2xx body not of the documented shape
    │   └── APIStatusError                  a non-2xx response with the JSON error body
    │       ├── BadRequestError             400 bad_request, validation_error (``details``)
    │       ├── AuthenticationError         401 unauthorized
    │       ├── InsufficientCreditsError    402 payment_required
    │       ├── PermissionDeniedError       403 forbidden (tier too low)
    │       ├── NotFoundError               404 not_found
    │       ├── ConflictError               409
    │       │   ├── IdempotencyConflictError    idempotency_conflict (never retried)
    │       │   └── IdempotencyInProgressError  idempotency_in_progress (retried)
    │       ├── UnprocessableEntityError    422
    │       ├── RateLimitError              429 rate_limited (``retry_after_s``)
    │       └── InternalServerError         5xx
    ├── JobError                            an asynchronous job did not give a result
    │   ├── JobFailedError                  status ``failed`` (``job.error`` says why)
    │   │   └── JobCanceledError            status ``canceled``
    │   └── JobTimeoutError                 still running when ``wait`` gave up
    └── WebhookVerificationError            a webhook delivery that must not be trusted
        ├── WebhookHeaderError              a webhook header missing or malformed
        ├── WebhookSecretError              the secret is not ``whsec_<base64>`` (also ValueError)
        ├── WebhookTimestampError           timestamp outside the tolerance (old or future)
        └── WebhookSignatureError           no signature matches the secret

Every ``APIStatusError`` carries ``status_code``, ``error`` (the server's slug), ``message``,
``code``, ``request_id``, ``details`` and the raw ``response`` (an ``httpx.Response``).

``code`` is always a string: the error body's ``code`` when the server sends one (``"401"``,
``"402"``, ``"internal"``, ``"subscription_limit"``, ``"unsafe_destination"``, ...), otherwise the
HTTP status as a string (``"400"``, ``"404"``). Branch on the class or on ``error`` (the slug) for
the kind of failure; ``code`` refines it where the server has more to say.

A 400 with ``details`` names its first failing field and why in ``message``
(``Invalid request: year: must be between 1900 and 2100``); ``details`` lists them all.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import httpx

if TYPE_CHECKING:
    from astro_sdk.models.jobs import Job

__all__ = [
    "APIConnectionError",
    "APIError",
    "APIResponseValidationError",
    "APIStatusError",
    "APITimeoutError",
    "AstroError",
    "AuthenticationError",
    "BadRequestError",
    "ConflictError",
    "IdempotencyConflictError",
    "IdempotencyInProgressError",
    "InsufficientCreditsError",
    "InternalServerError",
    "JobCanceledError",
    "JobError",
    "JobFailedError",
    "JobTimeoutError",
    "MissingCredentialError",
    "NotFoundError",
    "PermissionDeniedError",
    "RateLimitError",
    "RequestValidationError",
    "UnprocessableEntityError",
    "WebhookHeaderError",
    "WebhookSecretError",
    "WebhookSignatureError",
    "WebhookTimestampError",
    "WebhookVerificationError",
]


class AstroError(Exception):
    """Base class of every error raised by ``astro_sdk``."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class RequestValidationError(AstroError, ValueError):
    """The arguments of a call do not satisfy the request model; nothing was sent.

    ``details`` has the server's 400 shape: ``[{"field": "records[0].boy.date", "message": ...}]``.
    """

    def __init__(self, message: str, details: Sequence[Mapping[str, str]]) -> None:
        super().__init__(message)
        self.details = [dict(d) for d in details]


class MissingCredentialError(AstroError):
    """The route takes a credential kind (API key or session token) the client was not given."""


class APIError(AstroError):
    """An HTTP exchange with the API failed."""

    def __init__(self, message: str, *, request: httpx.Request | None = None) -> None:
        super().__init__(message)
        self.request = request


class APIConnectionError(APIError):
    """No response came back (connection refused or reset, DNS or TLS failure)."""

    def __init__(
        self, message: str = "Connection error.", *, request: httpx.Request | None = None
    ) -> None:
        super().__init__(message, request=request)


class APITimeoutError(APIConnectionError):
    """No response came back within the timeout."""

    def __init__(self, *, request: httpx.Request | None = None) -> None:
        super().__init__("Request timed out.", request=request)


class APIResponseValidationError(APIError):
    """A successful response whose body does not have the documented shape."""

    def __init__(self, message: str, *, response: httpx.Response) -> None:
        super().__init__(message, request=response.request)
        self.response = response
        self.status_code = response.status_code


class APIStatusError(APIError):
    """A non-2xx response. Subclasses name the status; all carry the error body's fields."""

    def __init__(self, message: str, *, response: httpx.Response, body: object) -> None:
        super().__init__(message, request=response.request)
        self.response = response
        self.status_code = response.status_code
        self.body = body
        fields: Mapping[str, Any] = body if isinstance(body, Mapping) else {}
        error = fields.get("error")
        self.error: str = error if isinstance(error, str) else f"http_{response.status_code}"
        code = fields.get("code")
        self.code: str = str(response.status_code) if code is None else str(code)
        request_id = fields.get("request_id") or response.headers.get("X-Request-Id")
        self.request_id: str | None = request_id if isinstance(request_id, str) else None
        details = fields.get("details")
        self.details: list[dict[str, Any]] = (
            [d for d in details if isinstance(d, dict)] if isinstance(details, list) else []
        )

    def __str__(self) -> str:
        suffix = f" (request_id {self.request_id})" if self.request_id else ""
        return f"{self.status_code} {self.error}: {self.message}{suffix}"


class BadRequestError(APIStatusError):
    """400: the input failed validation; ``details`` names each failing field."""


class AuthenticationError(APIStatusError):
    """401: the credential is missing, invalid, revoked, expired or of the wrong kind."""


class InsufficientCreditsError(APIStatusError):
    """402: the account's credit balance does not cover the operation."""


class PermissionDeniedError(APIStatusError):
    """403: the operation needs a higher tier than the account has."""


class NotFoundError(APIStatusError):
    """404: no such route, or an object the caller does not own."""


class ConflictError(APIStatusError):
    """409: an idempotent request conflicts with an earlier one."""


class IdempotencyConflictError(ConflictError):
    """409 ``idempotency_conflict``: the key was used with another request. Never retried."""


class IdempotencyInProgressError(ConflictError):
    """409 ``idempotency_in_progress``: the first request with this key is still running."""


class UnprocessableEntityError(APIStatusError):
    """422: the request was understood but cannot be processed."""


class RateLimitError(APIStatusError):
    """429: the credential's rate limit is reached; ``retry_after_s`` says for how long."""

    def __init__(
        self,
        message: str,
        *,
        response: httpx.Response,
        body: object,
        retry_after_s: float | None = None,
    ) -> None:
        super().__init__(message, response=response, body=body)
        self.retry_after_s = retry_after_s


class InternalServerError(APIStatusError):
    """5xx: the service could not complete the request."""


class JobError(AstroError):
    """An asynchronous job did not produce a result."""

    def __init__(self, message: str, *, job_id: str, job: Job | None) -> None:
        super().__init__(message)
        self.job_id = job_id
        self.job = job


class JobFailedError(JobError):
    """The job finished with status ``failed``; ``job.error`` holds the server's reason."""

    def __init__(self, job: Job) -> None:
        reason = job.error_message or "no reason given"
        super().__init__(f"Job {job.job_id} {job.status}: {reason}", job_id=job.job_id, job=job)

    @property
    def error(self) -> dict[str, Any] | None:
        """The job's ``error`` object, ``{"error": slug, "message": text}``."""
        return self.job.error if self.job is not None else None


class JobCanceledError(JobFailedError):
    """The job was canceled before it produced a result (its credits are refunded)."""


class JobTimeoutError(JobError):
    """``wait`` gave up while the job was still queued or running; the job goes on."""

    def __init__(self, *, job_id: str, job: Job | None, timeout_s: float) -> None:
        status = job.status if job is not None else "unknown"
        super().__init__(
            f"Job {job_id} still {status} after {timeout_s:g} s", job_id=job_id, job=job
        )
        self.timeout_s = timeout_s


class WebhookVerificationError(AstroError):
    """A webhook delivery failed verification: do not act on its payload."""


class WebhookHeaderError(WebhookVerificationError):
    """A ``webhook-id``, ``webhook-timestamp`` or ``webhook-signature`` header is missing or
    malformed."""


class WebhookSecretError(WebhookVerificationError, ValueError):
    """The secret given to ``verify`` or ``sign`` is not ``whsec_`` followed by base64 (a
    configuration error: no delivery can be trusted with it)."""


class WebhookTimestampError(WebhookVerificationError):
    """The ``webhook-timestamp`` is older or further in the future than the tolerance allows."""


class WebhookSignatureError(WebhookVerificationError):
    """None of the ``v1`` signatures matches the payload under the given secret."""


_STATUS_ERRORS: dict[int, type[APIStatusError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    402: InsufficientCreditsError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    422: UnprocessableEntityError,
    429: RateLimitError,
}
_CONFLICT_ERRORS: dict[str, type[ConflictError]] = {
    "idempotency_conflict": IdempotencyConflictError,
    "idempotency_in_progress": IdempotencyInProgressError,
}


def decode_error_body(response: httpx.Response) -> object:
    """The JSON error body, or the text when the body is not JSON (a proxy's HTML page)."""
    try:
        return json.loads(response.content) if response.content else None
    except ValueError:
        return response.text


def _with_first_detail(message: str, details: object) -> str:
    """``Invalid request: year`` becomes ``Invalid request: year: must be ...``: the first
    failing field with its reason, and how many more fields failed."""
    if not isinstance(details, list):
        return message
    found = [d for d in details if isinstance(d, Mapping) and "field" in d and "message" in d]
    if not found:
        return message
    first = f"{found[0]['field']}: {found[0]['message']}"
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    if message.startswith("Invalid request"):
        return f"Invalid request: {first}{more}"
    return f"{message} ({first}{more})"


def status_error(response: httpx.Response, *, retry_after_s: float | None = None) -> APIStatusError:
    """The exception for a non-2xx response, chosen by status and, for 409, by slug."""
    body = decode_error_body(response)
    fields: Mapping[str, Any] = body if isinstance(body, Mapping) else {}
    message = fields.get("message")
    if not isinstance(message, str):
        message = f"HTTP {response.status_code}"
    message = _with_first_detail(message, fields.get("details"))
    status = response.status_code
    if status == 429:
        return RateLimitError(message, response=response, body=body, retry_after_s=retry_after_s)
    cls: type[APIStatusError]
    if status == 409:
        cls = _CONFLICT_ERRORS.get(str(fields.get("error")), ConflictError)
    elif status >= 500:
        cls = InternalServerError
    else:
        cls = _STATUS_ERRORS.get(status, APIStatusError)
    return cls(message, response=response, body=body)
