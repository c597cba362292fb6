"""The retry policy: which failures are retried, and how long to wait before the next attempt."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

__all__ = ["DEFAULT_RETRY", "RetryPolicy", "parse_retry_after"]

# Connection errors, timeouts and these statuses are transient: the same request may succeed.
RETRYABLE_STATUSES = frozenset({408, 429, 500, 502, 503, 504})
# 409 is retried only when the first request with the key is still running; a key reused with
# another request (``idempotency_conflict``) would fail the same way every time.
RETRYABLE_CONFLICTS = frozenset({"idempotency_in_progress"})


@dataclass(frozen=True)
class RetryPolicy:
    """How a call is retried. One logical call makes at most ``max_retries + 1`` attempts.

    Retried: connection errors, timeouts, statuses 408, 429, 500, 502, 503, 504 and 409 with the
    slug ``idempotency_in_progress``. Never retried: 400, 401, 402, 403, 404, 409
    ``idempotency_conflict`` and every other status. A billable POST sends the same
    ``Idempotency-Key`` on every attempt, so a retry never charges twice.

    The wait before retry number ``n`` (``n = 0`` for the first retry) is::

        base_s  = min(max_delay_s, initial_delay_s * backoff_factor ** n)
        delay_s = base_s * (1 - jitter * u)          u uniform in [0, 1)

    so it lies in ``[base_s * (1 - jitter), base_s]``. With the defaults the bases are 0.5 s, 1 s,
    2 s, 4 s, 8 s, 8 s, ... When the response carries ``Retry-After`` (seconds or an HTTP-date),
    the wait is exactly that many seconds instead, unless it exceeds ``max_retry_after_s``: then
    the call raises the response's error at once rather than sleeping for minutes or hours (a
    ``RateLimitError`` carries the server's ``retry_after_s``).

    Parameters:
        max_retries: retries after the first attempt; 0 disables retrying.
        initial_delay_s: base wait before the first retry.
        backoff_factor: growth of the base wait per retry.
        max_delay_s: ceiling of the base wait.
        jitter: fraction of the base wait removed at random, spreading clients apart.
        max_retry_after_s: the longest ``Retry-After`` the client will sleep through.
    """

    max_retries: int = 2
    initial_delay_s: float = 0.5
    backoff_factor: float = 2.0
    max_delay_s: float = 8.0
    jitter: float = 0.25
    max_retry_after_s: float = 60.0
    retryable_statuses: frozenset[int] = field(default=RETRYABLE_STATUSES)

    def __post_init__(self) -> None:
        if self.max_retries < 0:
            raise ValueError("max_retries must be >= 0")
        if not 0.0 <= self.jitter <= 1.0:
            raise ValueError("jitter must be within [0, 1]")
        if self.initial_delay_s < 0 or self.max_delay_s < 0 or self.max_retry_after_s < 0:
            raise ValueError("delays must be >= 0")

    def is_retryable_status(self, status_code: int, error_slug: str | None) -> bool:
        """Whether a response with this status (and, for 409, this error slug) is retried."""
        if status_code == 409:
            return error_slug in RETRYABLE_CONFLICTS
        return status_code in self.retryable_statuses

    def backoff_s(self, retry_index: int, *, uniform: float | None = None) -> float:
        """The computed wait before retry ``retry_index`` (0-based), jitter included."""
        base_s = min(self.max_delay_s, self.initial_delay_s * self.backoff_factor**retry_index)
        u = random.random() if uniform is None else uniform
        return base_s * (1.0 - self.jitter * u)


DEFAULT_RETRY = RetryPolicy()


def parse_retry_after(value: str | None, *, now: datetime | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` value: delay-seconds or an HTTP-date (RFC 9110).

    A date in the past gives 0; an unparseable or negative value gives ``None``.
    """
    if value is None:
        return None
    text = value.strip()
    if not text:
        return None
    try:
        seconds = float(text)
    except ValueError:
        pass
    else:
        return seconds if seconds >= 0 and seconds == seconds else None
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    current = now or datetime.now(UTC)
    return max(0.0, (when - current).total_seconds())
