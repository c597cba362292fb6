"""The decision layer shared by the sync and async clients.

Everything here is pure: build the request for an operation (URL, credential header, idempotency
key, body), decide what a response or a transport error means (return, retry after a delay, or
raise), and parse a success. ``_client.py`` only runs the loop around it, with ``httpx.Client``
or ``httpx.AsyncClient``.
"""

from __future__ import annotations

import platform
import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import quote

import httpx
from pydantic import ValidationError

from astro_sdk._exceptions import (
    APIConnectionError,
    APIError,
    APIResponseValidationError,
    APITimeoutError,
    AstroError,
    MissingCredentialError,
    RequestValidationError,
    status_error,
)
from astro_sdk._operation import Credential, Operation
from astro_sdk._response import APIResponse
from astro_sdk._retry import RetryPolicy, parse_retry_after
from astro_sdk._version import __version__
from astro_sdk.models._base import RequestModel, ResponseModel
from astro_sdk.models.pictures import ChartImage
from astro_sdk.models.profiles import UNION_TAGS

__all__ = [
    "ClientConfig",
    "Outcome",
    "PreparedCall",
    "build_call",
    "decide_on_exception",
    "decide_on_response",
    "parse_image",
    "parse_success",
    "validate_request",
]

ModelT = TypeVar("ModelT", bound=RequestModel)
ResponseT = TypeVar("ResponseT", bound=ResponseModel)

DEFAULT_BASE_URL = "http://127.0.0.1:8000"
DEFAULT_TIMEOUT = httpx.Timeout(60.0, connect=10.0)
SESSION_TOKEN_PREFIX = "service_sess_"  # noqa: S105 - a prefix, not a secret
_USER_AGENT = (
    f"astro-sdk/{__version__} python/{platform.python_version()} httpx/{httpx.__version__}"
)
_PATH_PARAM = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


@dataclass(frozen=True)
class ClientConfig:
    """Everything a client instance decides with; ``with_options`` makes a changed copy."""

    base_url: str
    api_key: str | None
    session_token: str | None
    timeout: httpx.Timeout
    retry: RetryPolicy
    default_headers: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.api_key is not None and self.api_key.startswith(SESSION_TOKEN_PREFIX):
            raise ValueError(
                "api_key looks like a session token (service_sess_...): pass it as session_token"
            )


@dataclass(frozen=True)
class PreparedCall:
    """One logical call: built once, sent once per attempt with the same idempotency key."""

    operation: Operation[Any]
    method: str
    url: str
    headers: dict[str, str]
    params: dict[str, str | list[str]] | None
    content: bytes | None
    idempotency_key: str | None


@dataclass(frozen=True)
class Outcome:
    """What to do after an attempt: ``retry_after_s`` set means sleep then retry; ``error`` set
    means raise it; neither means the response is a success."""

    retry_after_s: float | None = None
    error: AstroError | None = None


def timeout_from(value: float | httpx.Timeout | None) -> httpx.Timeout:
    if isinstance(value, httpx.Timeout):
        return value
    if value is None:
        return httpx.Timeout(None)
    return httpx.Timeout(value, connect=min(10.0, value))


def _field_path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for item in loc:
        if item in UNION_TAGS:  # which shape of a subject was validated: not a field
            continue
        out += f"[{item}]" if isinstance(item, int) else (f".{item}" if out else str(item))
    return out or "body"


def _error_message(err: Any) -> str:
    # A validator's own ValueError reads better without pydantic's "Value error, " prefix.
    if err.get("type") == "value_error" and "error" in err.get("ctx", {}):
        return str(err["ctx"]["error"])
    return str(err["msg"])


def validate_request(model: type[ModelT], fields: Mapping[str, Any]) -> ModelT:
    """Build a request model from keyword arguments; ``None`` means "not given" (the server's
    default applies). Raises ``RequestValidationError`` naming each failing field."""
    given = {name: value for name, value in fields.items() if value is not None}
    try:
        return model.model_validate(given)
    except ValidationError as exc:
        details = [
            {"field": _field_path(tuple(err["loc"])), "message": _error_message(err)}
            for err in exc.errors(include_url=False)
        ]
        summary = "; ".join(f"{d['field']}: {d['message']}" for d in details)
        raise RequestValidationError(f"Invalid request: {summary}", details) from exc


def _credential_headers(config: ClientConfig, operation: Operation[Any]) -> dict[str, str]:
    if operation.credential is Credential.API_KEY:
        if not config.api_key:
            raise MissingCredentialError(
                f"{operation.describe()} takes an API key: pass api_key=... or set ASTRO_API_KEY"
            )
        return {"X-API-Key": config.api_key}
    if operation.credential is Credential.SESSION:
        if not config.session_token:
            raise MissingCredentialError(
                f"{operation.describe()} takes a customer session token: use the client "
                "returned by client.auth.login(email, password), or pass session_token=..."
            )
        return {"Authorization": f"Bearer {config.session_token}"}
    return {}


def _expand_path(operation: Operation[Any], path_params: Mapping[str, str]) -> str:
    def substitute(match: re.Match[str]) -> str:
        name = match.group(1)
        value = path_params.get(name)
        if not value:
            raise RequestValidationError(
                f"{operation.describe()} needs a non-empty {name}",
                [{"field": name, "message": "must be a non-empty string"}],
            )
        return quote(value, safe="")

    return _PATH_PARAM.sub(substitute, operation.path)


def _query_params(query: RequestModel | None) -> dict[str, str | list[str]] | None:
    if query is None:
        return None
    params: dict[str, str | list[str]] = {}
    for name, value in query.model_dump(mode="json", by_alias=True, exclude_unset=True).items():
        if value is None:
            continue
        if isinstance(value, list):
            params[name] = [_query_value(v) for v in value]
        else:
            params[name] = _query_value(value)
    return params or None


def _query_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def build_call(
    config: ClientConfig,
    operation: Operation[Any],
    *,
    body: RequestModel | None = None,
    query: RequestModel | None = None,
    path_params: Mapping[str, str] | None = None,
    idempotency_key: str | None = None,
    extra_headers: Mapping[str, str] | None = None,
) -> PreparedCall:
    """The request for one logical call. Raises before any I/O when the credential is missing
    or a path parameter is empty."""
    headers = {"Accept": "application/json", "User-Agent": _USER_AGENT}
    headers.update(config.default_headers)
    headers.update(_credential_headers(config, operation))
    content = None
    if body is not None:
        content = body.model_dump_json(by_alias=True, exclude_unset=True).encode()
        headers["Content-Type"] = "application/json"
    key = None
    if operation.billable:
        # One key per logical call, generated here once, so every retry is the same request.
        key = idempotency_key or f"astro-sdk-{uuid.uuid4().hex}"
        headers["Idempotency-Key"] = key
    elif idempotency_key is not None:
        raise ValueError(f"{operation.describe()} is not billable and takes no idempotency key")
    if extra_headers:
        headers.update(extra_headers)
    url = config.base_url + _expand_path(operation, path_params or {})
    return PreparedCall(
        operation=operation,
        method=operation.method,
        url=url,
        headers=headers,
        params=_query_params(query),
        content=content,
        idempotency_key=key,
    )


def _error_slug(response: httpx.Response) -> str | None:
    if response.status_code != 409:
        return None
    try:
        body = response.json()
    except ValueError:
        return None
    slug = body.get("error") if isinstance(body, dict) else None
    return slug if isinstance(slug, str) else None


def decide_on_response(
    config: ClientConfig, response: httpx.Response, retries_done: int
) -> Outcome:
    """Success, retry after a delay, or the error to raise, for one response."""
    if response.is_success:
        return Outcome()
    retry_after_s = parse_retry_after(response.headers.get("Retry-After"))
    error = status_error(response, retry_after_s=retry_after_s)
    policy = config.retry
    if retries_done >= policy.max_retries or not policy.is_retryable_status(
        response.status_code, _error_slug(response)
    ):
        return Outcome(error=error)
    if retry_after_s is None:
        return Outcome(retry_after_s=policy.backoff_s(retries_done))
    if retry_after_s > policy.max_retry_after_s:
        # Sleeping for minutes inside a library call hides the problem; raise and let the
        # caller decide (the error carries the server's wait).
        return Outcome(error=error)
    return Outcome(retry_after_s=retry_after_s)


_RETRYABLE_TRANSPORT_ERRORS = (
    httpx.TimeoutException,
    httpx.NetworkError,
    httpx.RemoteProtocolError,
)


def decide_on_exception(
    config: ClientConfig, exc: httpx.TransportError, retries_done: int
) -> Outcome:
    """Retry or raise for an attempt that got no response."""
    request = _request_of(exc)
    error: APIError
    if isinstance(exc, httpx.TimeoutException):
        error = APITimeoutError(request=request)
    else:
        error = APIConnectionError(f"Connection error: {exc}", request=request)
    retryable = isinstance(exc, _RETRYABLE_TRANSPORT_ERRORS)
    if retryable and retries_done < config.retry.max_retries:
        return Outcome(retry_after_s=config.retry.backoff_s(retries_done))
    return Outcome(error=error)


def _request_of(exc: httpx.TransportError) -> httpx.Request | None:
    try:
        return exc.request
    except RuntimeError:
        return None


def parse_success(
    call: PreparedCall,
    response: httpx.Response,
    cast_to: type[ResponseT],
    *,
    attempts: int,
) -> ResponseT:
    """Parse a 2xx body into ``cast_to`` and attach the response's headers to it."""
    try:
        result = cast_to.model_validate_json(response.content or b"{}")
    except ValidationError as exc:
        raise APIResponseValidationError(
            f"{call.operation.describe()} returned a body that is not a "
            f"{cast_to.__name__}: {exc.error_count()} error(s), first: "
            f"{_field_path(tuple(exc.errors()[0]['loc']))}: {exc.errors()[0]['msg']}",
            response=response,
        ) from exc
    result._api_response = APIResponse(
        response, attempts=attempts, idempotency_key=call.idempotency_key
    )
    return result


def parse_image(call: PreparedCall, response: httpx.Response, *, attempts: int) -> ChartImage:
    """A 2xx image body (SVG or PNG) with its content type and the response's headers."""
    content_type = response.headers.get("Content-Type", "").split(";")[0].strip()
    if not content_type.startswith("image/"):
        raise APIResponseValidationError(
            f"{call.operation.describe()} returned {content_type or 'no content type'}, "
            "not an image",
            response=response,
        )
    api_response = APIResponse(response, attempts=attempts, idempotency_key=call.idempotency_key)
    return ChartImage(response.content, content_type, api_response)


def parse_calendar(call: PreparedCall, response: httpx.Response) -> str:
    """A 2xx iCalendar body (``text/calendar``, RFC 5545) as text."""
    content_type = response.headers.get("Content-Type", "").split(";")[0].strip()
    if content_type != "text/calendar":
        raise APIResponseValidationError(
            f"{call.operation.describe()} returned {content_type or 'no content type'}, "
            "not text/calendar",
            response=response,
        )
    return response.content.decode("utf-8")
