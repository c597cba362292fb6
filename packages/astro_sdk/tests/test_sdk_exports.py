"""The public surface: exactly these names, each importable, and the exception tree."""

from __future__ import annotations

import astro_sdk
from astro_sdk import _exceptions

EXPECTED_EXPORTS = {
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
}


def test_all_lists_exactly_the_public_names() -> None:
    assert set(astro_sdk.__all__) == EXPECTED_EXPORTS
    assert len(astro_sdk.__all__) == len(EXPECTED_EXPORTS)


def test_every_exported_name_is_importable() -> None:
    for name in astro_sdk.__all__:
        assert getattr(astro_sdk, name) is not None, name


def test_public_modules_do_not_leak_private_names() -> None:
    leaked = [n for n in dir(astro_sdk) if not n.startswith("_") and n not in EXPECTED_EXPORTS]
    # Subpackages and submodules are reachable as attributes once imported; nothing else.
    assert set(leaked) <= {"models", "resources"}


def test_every_exception_class_is_exported() -> None:
    for name in _exceptions.__all__:
        assert name in astro_sdk.__all__, name


def test_exception_tree_matches_the_docstring() -> None:
    e = astro_sdk
    parents = {
        e.APIError: e.AstroError,
        e.APIConnectionError: e.APIError,
        e.APITimeoutError: e.APIConnectionError,
        e.APIResponseValidationError: e.APIError,
        e.APIStatusError: e.APIError,
        e.BadRequestError: e.APIStatusError,
        e.AuthenticationError: e.APIStatusError,
        e.InsufficientCreditsError: e.APIStatusError,
        e.PermissionDeniedError: e.APIStatusError,
        e.NotFoundError: e.APIStatusError,
        e.ConflictError: e.APIStatusError,
        e.IdempotencyConflictError: e.ConflictError,
        e.IdempotencyInProgressError: e.ConflictError,
        e.UnprocessableEntityError: e.APIStatusError,
        e.RateLimitError: e.APIStatusError,
        e.InternalServerError: e.APIStatusError,
        e.RequestValidationError: e.AstroError,
        e.MissingCredentialError: e.AstroError,
        e.JobError: e.AstroError,
        e.JobFailedError: e.JobError,
        e.JobCanceledError: e.JobFailedError,
        e.JobTimeoutError: e.JobError,
        e.WebhookVerificationError: e.AstroError,
        e.WebhookHeaderError: e.WebhookVerificationError,
        e.WebhookSecretError: e.WebhookVerificationError,
        e.WebhookTimestampError: e.WebhookVerificationError,
        e.WebhookSignatureError: e.WebhookVerificationError,
    }
    for child, parent in parents.items():
        assert child.__bases__[0] is parent, child
        assert child.__name__ in (_exceptions.__doc__ or ""), child
    assert issubclass(e.RequestValidationError, ValueError)
