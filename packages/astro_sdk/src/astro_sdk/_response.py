"""What the HTTP response said besides its body: credits, rate limits, request id, raw access."""

from __future__ import annotations

from dataclasses import dataclass

import httpx

from astro_sdk._retry import parse_retry_after

__all__ = ["APIResponse", "RateLimit"]


def _int_header(headers: httpx.Headers, name: str) -> int | None:
    raw = headers.get(name)
    if raw is None:
        return None
    try:
        return int(raw.strip())
    except ValueError:
        return None


@dataclass(frozen=True)
class RateLimit:
    """The ``RateLimit-*`` headers: requests allowed per window, left, seconds until reset."""

    limit: int | None
    remaining: int | None
    reset_s: int | None


class APIResponse:
    """The response behind a parsed result, reachable as ``result.api_response``.

    ``http_response`` is the raw ``httpx.Response`` (body already read); the properties decode
    the headers the API documents.
    """

    __slots__ = ("attempts", "http_response", "idempotency_key")

    def __init__(
        self,
        http_response: httpx.Response,
        *,
        attempts: int = 1,
        idempotency_key: str | None = None,
    ) -> None:
        self.http_response = http_response
        self.attempts = attempts
        self.idempotency_key = idempotency_key

    def __repr__(self) -> str:
        return (
            f"<APIResponse {self.status_code} request_id={self.request_id!r} "
            f"attempts={self.attempts}>"
        )

    @property
    def status_code(self) -> int:
        return self.http_response.status_code

    @property
    def headers(self) -> httpx.Headers:
        return self.http_response.headers

    @property
    def request_id(self) -> str | None:
        """``X-Request-Id``: quote it when asking for support."""
        value: str | None = self.http_response.headers.get("X-Request-Id")
        return value

    @property
    def credits_charged(self) -> int | None:
        """``X-Credits-Charged``: credits this call debited (billable routes only)."""
        return _int_header(self.http_response.headers, "X-Credits-Charged")

    @property
    def credits_remaining(self) -> int | None:
        """``X-Credits-Remaining``: the account's balance after this call (billable routes)."""
        return _int_header(self.http_response.headers, "X-Credits-Remaining")

    @property
    def credits_price(self) -> int | None:
        """``X-Credits-Price``: what this call costs; with a test key (``ak_test_``), which
        debits nothing, the price it would have had (billable routes)."""
        return _int_header(self.http_response.headers, "X-Credits-Price")

    @property
    def rate_limit(self) -> RateLimit:
        headers = self.http_response.headers
        return RateLimit(
            limit=_int_header(headers, "RateLimit-Limit"),
            remaining=_int_header(headers, "RateLimit-Remaining"),
            reset_s=_int_header(headers, "RateLimit-Reset"),
        )

    @property
    def rate_limit_limit(self) -> int | None:
        return self.rate_limit.limit

    @property
    def rate_limit_remaining(self) -> int | None:
        return self.rate_limit.remaining

    @property
    def rate_limit_reset_s(self) -> int | None:
        return self.rate_limit.reset_s

    @property
    def retry_after_s(self) -> float | None:
        """``Retry-After`` in seconds (from either of its forms), when the server sent one."""
        return parse_retry_after(self.http_response.headers.get("Retry-After"))

    @property
    def elapsed_s(self) -> float:
        """Time from sending the last attempt to reading its response."""
        return self.http_response.elapsed.total_seconds()
