"""Typed Python client for the Astro astrology API, with webhook verification.

from astro_sdk import AstroClient

with AstroClient(api_key="ak_live_...") as client:
    job = client.jobs.get("job_...")
"""

from astro_sdk import webhooks
from astro_sdk._client import NOT_GIVEN, AstroClient, AsyncAstroClient
from astro_sdk._exceptions import (
    APIConnectionError,
    APIError,
    APIResponseValidationError,
    APIStatusError,
    APITimeoutError,
    AstroError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    IdempotencyConflictError,
    IdempotencyInProgressError,
    InsufficientCreditsError,
    InternalServerError,
    JobCanceledError,
    JobError,
    JobFailedError,
    JobTimeoutError,
    MissingCredentialError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    RequestValidationError,
    UnprocessableEntityError,
    WebhookHeaderError,
    WebhookSecretError,
    WebhookSignatureError,
    WebhookTimestampError,
    WebhookVerificationError,
)
from astro_sdk._operation import Credential, Operation
from astro_sdk._pagination import AsyncCursorPage, AsyncCursorPager, CursorPage
from astro_sdk._response import APIResponse, RateLimit
from astro_sdk._retry import RetryPolicy
from astro_sdk._version import __version__
from astro_sdk.models.pictures import ChartImage

__all__ = [
    "NOT_GIVEN",
    "APIConnectionError",
    "APIError",
    "APIResponse",
    "APIResponseValidationError",
    "APIStatusError",
    "APITimeoutError",
    "AstroClient",
    "AstroError",
    "AsyncAstroClient",
    "AsyncCursorPage",
    "AsyncCursorPager",
    "AuthenticationError",
    "BadRequestError",
    "ChartImage",
    "ConflictError",
    "Credential",
    "CursorPage",
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
    "Operation",
    "PermissionDeniedError",
    "RateLimit",
    "RateLimitError",
    "RequestValidationError",
    "RetryPolicy",
    "UnprocessableEntityError",
    "WebhookHeaderError",
    "WebhookSecretError",
    "WebhookSignatureError",
    "WebhookTimestampError",
    "WebhookVerificationError",
    "__version__",
    "webhooks",
]
