"""Retry schedule, failure counting and disabling (DESIGN.md, "Webhooks")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from astro_server.platform.delivery.retry import (
    DEFAULT_POLICY,
    RetryPolicy,
    SubscriptionHealth,
    resumed,
)

T0 = datetime(2025, 3, 1, 8, 0, tzinfo=UTC)
ACTIVE = SubscriptionHealth(active=True)


def test_schedule_is_5s_5min_30min_2h_5h_10h_10h() -> None:
    waits = [DEFAULT_POLICY.retry_at(n, T0) for n in range(1, 9)]
    assert waits == [
        T0 + timedelta(seconds=5),
        T0 + timedelta(minutes=5),
        T0 + timedelta(minutes=30),
        T0 + timedelta(hours=2),
        T0 + timedelta(hours=5),
        T0 + timedelta(hours=10),
        T0 + timedelta(hours=10),
        None,
    ]
    assert DEFAULT_POLICY.max_attempts == 8
    with pytest.raises(ValueError, match="start at 1"):
        DEFAULT_POLICY.retry_at(0, T0)


def test_one_message_failing_walks_the_whole_schedule_then_fails() -> None:
    """Driven by a clock that jumps to each retry time: eight attempts over 27 h 35 min 5 s."""
    now, health, statuses, times = T0, ACTIVE, [], [T0]
    for attempt in range(1, 9):
        decision = DEFAULT_POLICY.after_attempt(
            health, attempt_number=attempt, succeeded=False, http_status=500, now=now
        )
        health = decision.health
        statuses.append(decision.message_status)
        if decision.retry_at is not None:
            now = decision.retry_at
            times.append(now)
    assert statuses == ["retrying"] * 7 + ["failed"]
    assert health == SubscriptionHealth(active=True, consecutive_failures=8)
    assert times[-1] - T0 == timedelta(hours=27, minutes=35, seconds=5)


def test_tenth_consecutive_failure_disables() -> None:
    health = SubscriptionHealth(active=True, consecutive_failures=8)
    ninth = DEFAULT_POLICY.after_attempt(
        health, attempt_number=1, succeeded=False, http_status=None, now=T0
    )
    assert ninth.health.consecutive_failures == 9
    assert ninth.health.active
    assert ninth.message_status == "retrying"
    assert not ninth.disabled_now
    later = T0 + timedelta(seconds=5)
    tenth = DEFAULT_POLICY.after_attempt(
        ninth.health, attempt_number=2, succeeded=False, http_status=502, now=later
    )
    assert tenth.disabled_now
    assert tenth.health == SubscriptionHealth(
        active=False, consecutive_failures=10, disabled_at=later
    )
    assert tenth.message_status == "abandoned"
    assert tenth.retry_at is None


def test_410_disables_at_once() -> None:
    decision = DEFAULT_POLICY.after_attempt(
        ACTIVE, attempt_number=1, succeeded=False, http_status=410, now=T0
    )
    assert decision.disabled_now
    assert decision.health == SubscriptionHealth(False, consecutive_failures=1, disabled_at=T0)
    assert decision.retry_at is None


def test_success_resets_the_count() -> None:
    health = SubscriptionHealth(active=True, consecutive_failures=7)
    decision = DEFAULT_POLICY.after_attempt(
        health, attempt_number=3, succeeded=True, http_status=200, now=T0
    )
    assert decision.health == SubscriptionHealth(active=True, consecutive_failures=0)
    assert decision.message_status == "succeeded"
    assert decision.retry_at is None


def test_paused_subscription_gets_no_retry() -> None:
    paused = SubscriptionHealth(active=False, consecutive_failures=2)
    decision = DEFAULT_POLICY.after_attempt(
        paused, attempt_number=1, succeeded=False, http_status=500, now=T0
    )
    assert decision.message_status == "abandoned"
    assert decision.retry_at is None
    assert not decision.disabled_now
    assert decision.health.disabled_at is None


def test_resume_clears_disable_state() -> None:
    assert resumed() == SubscriptionHealth(active=True, consecutive_failures=0, disabled_at=None)


def test_custom_policy() -> None:
    policy = RetryPolicy(delays=(timedelta(seconds=1),), disable_after=2)
    first = policy.after_attempt(ACTIVE, attempt_number=1, succeeded=False, http_status=500, now=T0)
    assert first.retry_at == T0 + timedelta(seconds=1)
    second = policy.after_attempt(
        first.health, attempt_number=2, succeeded=False, http_status=500, now=T0
    )
    assert second.disabled_now
