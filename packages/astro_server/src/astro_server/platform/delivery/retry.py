"""Retry schedule, failure counting and automatic disabling of delivery subscriptions.

The policy (DESIGN.md, "Webhooks"):

* A message is attempted at once, then retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h,
  each delay counted from the end of the failed attempt: eight attempts over about 28 hours.
  After the last one the message is ``failed`` and can be retried by hand.
* An attempt succeeds on a 2xx answer. Anything else fails: 3xx (redirects are not followed),
  4xx, 5xx, a timeout, a connection or TLS error, or a destination that no longer passes the
  address check.
* ``consecutive_failures`` counts failed attempts (every attempt is a delivery to the receiver)
  and returns to 0 on any success. At ``disable_after`` (10) the subscription is disabled:
  ``active=false``, ``disabled_at`` set, pending retries abandoned.
* HTTP 410 Gone disables at once: the receiver said the endpoint is gone for good.
* A disabled or paused subscription gets no further attempts; resuming it clears
  ``disabled_at`` and ``consecutive_failures`` (see :func:`resumed`).

Time comes from a :data:`Clock` (``utc_now`` in production, a controllable one in tests).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Literal

Clock = Callable[[], datetime]

RETRY_DELAYS: tuple[timedelta, ...] = (
    timedelta(seconds=5),
    timedelta(minutes=5),
    timedelta(minutes=30),
    timedelta(hours=2),
    timedelta(hours=5),
    timedelta(hours=10),
    timedelta(hours=10),
)
DISABLE_AFTER_CONSECUTIVE_FAILURES = 10

MessageStatus = Literal["succeeded", "retrying", "failed", "abandoned"]


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class SubscriptionHealth:
    """The fields of a subscription that delivery outcomes change."""

    active: bool
    consecutive_failures: int = 0
    disabled_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class AttemptDecision:
    """What to do after an attempt: the new health, the message status, when to try again."""

    health: SubscriptionHealth
    message_status: MessageStatus
    retry_at: datetime | None
    disabled_now: bool


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """``delays[i]`` is the wait after failed attempt ``i + 1``; ``len(delays) + 1`` attempts.

    ``disable_after`` consecutive failed attempts, or one HTTP 410, disable the subscription.
    """

    delays: tuple[timedelta, ...] = RETRY_DELAYS
    disable_after: int = DISABLE_AFTER_CONSECUTIVE_FAILURES

    @property
    def max_attempts(self) -> int:
        return len(self.delays) + 1

    def retry_at(self, attempt_number: int, failed_at: datetime) -> datetime | None:
        """When to make attempt ``attempt_number + 1``, or None when attempts are used up."""
        if attempt_number < 1:
            raise ValueError("attempt numbers start at 1")
        if attempt_number > len(self.delays):
            return None
        return failed_at + self.delays[attempt_number - 1]

    def after_attempt(
        self,
        health: SubscriptionHealth,
        *,
        attempt_number: int,
        succeeded: bool,
        http_status: int | None,
        now: datetime,
    ) -> AttemptDecision:
        if succeeded:
            return AttemptDecision(
                replace(health, consecutive_failures=0), "succeeded", None, disabled_now=False
            )
        failures = health.consecutive_failures + 1
        gone = http_status == 410
        if health.active and (gone or failures >= self.disable_after):
            disabled = SubscriptionHealth(False, consecutive_failures=failures, disabled_at=now)
            return AttemptDecision(disabled, "abandoned", None, disabled_now=True)
        updated = replace(health, consecutive_failures=failures)
        if not health.active:
            return AttemptDecision(updated, "abandoned", None, disabled_now=False)
        retry_at = self.retry_at(attempt_number, now)
        status: MessageStatus = "failed" if retry_at is None else "retrying"
        return AttemptDecision(updated, status, retry_at, disabled_now=False)


def resumed() -> SubscriptionHealth:
    """Resuming (``PATCH active=true``) clears the automatic-disable state."""
    return SubscriptionHealth(active=True, consecutive_failures=0, disabled_at=None)


DEFAULT_POLICY = RetryPolicy()
