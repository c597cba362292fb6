"""Horoscope feed subscriptions: create, pause/resume, rotate, and the delivery pipeline.

Pipeline (times come in as ``now``, so tests drive it with a controllable clock):

1. :func:`schedule_due` (periodic, in the scheduler): subscriptions whose indexed
   ``next_due_at`` has passed get one ``FeedDelivery`` row per due local date, inserted with
   ON CONFLICT DO NOTHING on the unique (subscription, local_date); then ``next_due_at`` moves to
   the next due instant. Dates more than six hours late are skipped (``schedule.CATCH_UP``).
2. :func:`dispatch_due` (same tick): rows whose indexed ``next_attempt_at`` has passed get a fresh
   ``lease_token`` and are handed to the workers (``astro.deliver`` task with that token); their
   ``next_attempt_at`` moves :data:`DISPATCH_GRACE` ahead, so a lost message is handed out again.
3. :func:`deliver` (a worker): claims the row with a conditional UPDATE that needs the token, so
   of any duplicate messages exactly one attempts; builds the body once (the published horoscope
   for the sign, local date and language) and keeps it for retries; signs it with every secret in
   use; sends it through :class:`DeliveryClient`; logs the attempt; applies the retry policy.

Failure counting is done in SQL (``consecutive_failures = consecutive_failures + 1``) and the
disable is a conditional UPDATE, so concurrent deliveries of one subscription cannot lose counts.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from datetime import date, datetime, timedelta
from typing import Any

import msgspec
from tortoise.expressions import F, Q

from astro_server.errors import APIError
from astro_server.models.delivery import (
    FeedDelivery,
    FeedDeliveryAttempt,
    HoroscopeFeedSubscription,
)
from astro_server.services.delivery.feeds import (
    FINISHED,
    client,
    current_settings,
    delivery_view,
    iso,
    secrets_in_use,
)
from astro_server.services.delivery.http import AttemptResult, DeliveryClient
from astro_server.services.delivery.retry import DEFAULT_POLICY, RetryPolicy, SubscriptionHealth
from astro_server.services.delivery.schedule import delivery_zone, due_deliveries, next_due
from astro_server.services.delivery.signing import new_message_id, sign_headers
from astro_server.settings import Settings

log = logging.getLogger("astro_server.delivery")

EVENT_TYPE = "horoscope.daily"
DELIVER_TASK = "astro.deliver"
DISPATCH_GRACE = timedelta(seconds=60)
LEASE = timedelta(seconds=60)
CONTENT_RETRY = timedelta(minutes=5)

Kick = Callable[[str, str], Awaitable[None]]


# --- content ---------------------------------------------------------------------------------


async def published_horoscope(sign: str, local_date: date, language: str) -> Any:
    """The published horoscope as JSON-able data (``services.horoscopes.get_or_publish``)."""
    from astro_server.services.horoscopes import get_or_publish  # type: ignore[import-not-found,unused-ignore]

    published = await get_or_publish(sign, local_date, language)
    if hasattr(published, "model_dump"):
        return published.model_dump(mode="json")
    return msgspec.to_builtins(published)


def event_body(message_id: str, created_at: datetime, data: Any, *, test: bool = False) -> str:
    event: dict[str, Any] = {
        "id": message_id,
        "type": EVENT_TYPE,
        "created_at": iso(created_at),
        "data": data,
    }
    if test:
        event["test"] = True
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"))


# --- scheduling and dispatch -----------------------------------------------------------------


async def schedule_due(now: datetime, *, batch: int = 5000) -> int:
    """Materialise due deliveries (step 1). Returns the number of subscriptions handled."""
    handled = 0
    while True:
        subs = (
            await HoroscopeFeedSubscription.filter(next_due_at__lte=now, active=True)
            .order_by("next_due_at")
            .limit(batch)
            .only("id", "timezone", "delivery_time", "next_due_at")
        )
        if not subs:
            return handled
        rows: list[FeedDelivery] = []
        moves: dict[tuple[datetime, datetime], list[str]] = defaultdict(list)
        for sub in subs:
            assert sub.next_due_at is not None
            for due in due_deliveries(
                sub.timezone, sub.delivery_time, now, not_before=sub.next_due_at
            ):
                rows.append(
                    FeedDelivery(
                        id="dlv_" + secrets.token_hex(12),
                        subscription_id=sub.id,
                        kind="scheduled",
                        local_date=due.local_date,
                        message_id=new_message_id(),
                        status="pending",
                        due_at=due.due_at,
                        next_attempt_at=due.due_at,
                    )
                )
            following = next_due(sub.timezone, sub.delivery_time, now).due_at
            moves[(sub.next_due_at, following)].append(sub.id)
        if rows:
            # The unique (subscription, local_date) makes a second scheduler's insert a no-op.
            await FeedDelivery.bulk_create(rows, batch_size=1000, ignore_conflicts=True)
        for (previous, following), ids in moves.items():
            for start in range(0, len(ids), 1000):
                await HoroscopeFeedSubscription.filter(
                    id__in=ids[start : start + 1000], next_due_at=previous
                ).update(next_due_at=following)
        handled += len(subs)
        if len(subs) < batch:
            return handled


async def dispatch_ids(ids: Sequence[str], *, now: datetime, kick: Kick) -> int:
    """Give ``ids`` a fresh token and hand them to the workers."""
    if not ids:
        return 0
    token = secrets.token_hex(8)
    for start in range(0, len(ids), 1000):
        await FeedDelivery.filter(id__in=list(ids[start : start + 1000])).update(
            lease_token=token, next_attempt_at=now + DISPATCH_GRACE
        )
    for delivery_id in ids:
        await kick(delivery_id, token)
    return len(ids)


async def dispatch_due(now: datetime, *, kick: Kick, limit: int = 20000) -> int:
    """Hand every delivery whose ``next_attempt_at`` has passed to the workers (step 2)."""
    ids = await (
        FeedDelivery.filter(next_attempt_at__lte=now)
        .order_by("next_attempt_at")
        .limit(limit)
        .values_list("id", flat=True)
    )
    return await dispatch_ids([str(i) for i in ids], now=now, kick=kick)


async def tick(now: datetime, *, kick: Kick) -> tuple[int, int]:
    """One scheduler tick: schedule what fell due, dispatch what is due to be attempted."""
    scheduled = await schedule_due(now)
    dispatched = await dispatch_due(now, kick=kick)
    return scheduled, dispatched


# --- the attempt -----------------------------------------------------------------------------


async def _claim(delivery_id: str, token: str, now: datetime) -> str | None:
    claim = secrets.token_hex(8)
    claimable = Q(status__in=("pending", "retrying")) | Q(
        status="delivering", lease_expires_at__lte=now
    )
    updated = await FeedDelivery.filter(claimable, id=delivery_id, lease_token=token).update(
        status="delivering",
        lease_token=claim,
        lease_expires_at=now + LEASE,
        next_attempt_at=now + LEASE,
    )
    return claim if updated else None


async def deliver(
    delivery_id: str,
    token: str,
    *,
    clock: Callable[[], datetime],
    settings: Settings | None = None,
    delivery_client: DeliveryClient | None = None,
    policy: RetryPolicy = DEFAULT_POLICY,
) -> str | None:
    """Make one attempt of ``delivery_id`` if ``token`` still holds it. Returns the new status."""
    settings = settings or current_settings()
    now = clock()
    claim = await _claim(delivery_id, token, now)
    if claim is None:
        return None  # a duplicate message, or already handled
    delivery = await FeedDelivery.get(id=delivery_id)
    # A separate query: select_related left fields of the subscription unset on PostgreSQL.
    sub = await HoroscopeFeedSubscription.get(id=delivery.subscription_id)  # type: ignore[attr-defined]
    held = FeedDelivery.filter(id=delivery_id, lease_token=claim)
    if not sub.active and delivery.kind == "scheduled":
        await held.update(
            status="abandoned",
            next_attempt_at=None,
            lease_token=None,
            last_error="subscription paused"
            if sub.disabled_at is None
            else "subscription disabled",
        )
        return "abandoned"
    if delivery.body is None:
        try:
            assert delivery.local_date is not None
            data = await published_horoscope(sub.sign, delivery.local_date, sub.language)
        except Exception:
            log.exception("horoscope content unavailable for delivery %s", delivery_id)
            await held.update(
                status="retrying" if delivery.attempts else "pending",
                next_attempt_at=now + CONTENT_RETRY,
                lease_token=None,
                last_error="content not available yet",
            )
            return None
        delivery.body = event_body(delivery.message_id, delivery.created_at, data)
        # Stored with the outcome: the body is a pure function of the row and the published
        # content, so an attempt cut short rebuilds the same bytes.
    body = delivery.body.encode()
    headers = sign_headers(
        secrets_in_use(sub, now, settings), delivery.message_id, int(now.timestamp()), body
    )
    result = await (delivery_client or client()).post(sub.destination_url, body, headers)
    finished = clock()
    return await _record(delivery, sub, claim, result, now, finished, policy)


async def _record(
    delivery: FeedDelivery,
    sub: HoroscopeFeedSubscription,
    claim: str,
    result: AttemptResult,
    started: datetime,
    finished: datetime,
    policy: RetryPolicy,
) -> str:
    number = delivery.attempts + 1
    await FeedDeliveryAttempt.create(
        delivery_id=delivery.id,
        number=number,
        started_at=started,
        status_code=result.status,
        duration_ms=result.duration_ms,
        response_body=result.response_body,
        error=(result.error or None) and result.error[:500],
        succeeded=result.succeeded,
    )
    if result.succeeded:
        if sub.consecutive_failures:
            await HoroscopeFeedSubscription.filter(id=sub.id).update(consecutive_failures=0)
        health = SubscriptionHealth(sub.active, 0, sub.disabled_at)
    else:
        await HoroscopeFeedSubscription.filter(id=sub.id).update(
            consecutive_failures=F("consecutive_failures") + 1
        )
        await sub.refresh_from_db(fields=["active", "consecutive_failures", "disabled_at"])
        health = SubscriptionHealth(sub.active, sub.consecutive_failures - 1, sub.disabled_at)
    decision = policy.after_attempt(
        health,
        attempt_number=delivery.round_attempts + 1,
        succeeded=result.succeeded,
        http_status=result.status,
        now=finished,
    )
    await FeedDelivery.filter(id=delivery.id, lease_token=claim).update(
        status=decision.message_status,
        body=delivery.body,
        attempts=number,
        round_attempts=delivery.round_attempts + 1,
        next_attempt_at=decision.retry_at,
        lease_token=None,
        lease_expires_at=None,
        last_status_code=result.status,
        last_error=(result.error or None) and result.error[:500],
        delivered_at=finished if result.succeeded else None,
    )
    if decision.disabled_now:
        disabled = await HoroscopeFeedSubscription.filter(id=sub.id, active=True).update(
            active=False, disabled_at=finished, next_due_at=None, updated_at=finished
        )
        if disabled:
            log.warning(
                "subscription %s disabled after %s",
                sub.id,
                "HTTP 410" if result.gone else f"{decision.health.consecutive_failures} failures",
            )
            await FeedDelivery.filter(
                subscription_id=sub.id, status__in=("pending", "retrying")
            ).update(status="abandoned", next_attempt_at=None, last_error="subscription disabled")
    return decision.message_status


async def send_test_delivery(
    sub: HoroscopeFeedSubscription,
    *,
    now: datetime,
    clock: Callable[[], datetime],
    settings: Settings,
    delivery_client: DeliveryClient | None = None,
) -> dict[str, Any]:
    """One signed delivery of today's horoscope, now, marked ``"test": true``.

    It does not retry and does not count towards ``consecutive_failures``.
    """
    local_date = now.astimezone(delivery_zone(sub.timezone)).date()
    data = await published_horoscope(sub.sign, local_date, sub.language)
    message_id = new_message_id()
    body = event_body(message_id, now, data, test=True)
    delivery = await FeedDelivery.create(
        id="dlv_" + secrets.token_hex(12),
        subscription_id=sub.id,
        kind="test",
        local_date=None,
        message_id=message_id,
        status="delivering",
        body=body,
    )
    raw = body.encode()
    headers = sign_headers(
        secrets_in_use(sub, now, settings), message_id, int(now.timestamp()), raw
    )
    result = await (delivery_client or client()).post(sub.destination_url, raw, headers)
    finished = clock()
    attempt = await FeedDeliveryAttempt.create(
        delivery_id=delivery.id,
        number=1,
        started_at=now,
        status_code=result.status,
        duration_ms=result.duration_ms,
        response_body=result.response_body,
        error=(result.error or None) and result.error[:500],
        succeeded=result.succeeded,
    )
    delivery.status = "succeeded" if result.succeeded else "failed"
    delivery.attempts = 1
    delivery.last_status_code = result.status
    delivery.last_error = (result.error or None) and result.error[:500]
    delivery.delivered_at = finished if result.succeeded else None
    await delivery.save()
    return delivery_view(delivery, [attempt])


async def retry_delivery(delivery: FeedDelivery, *, now: datetime, kick: Kick) -> FeedDelivery:
    """Send a finished message again now, with a fresh retry round (same id and body)."""
    if delivery.kind != "scheduled":
        raise APIError(409, "Test deliveries cannot be retried; send a new test.", error="conflict")
    updated = await FeedDelivery.filter(id=delivery.id, status__in=FINISHED).update(
        status="pending", round_attempts=0, next_attempt_at=now, lease_token=None, updated_at=now
    )
    if not updated:
        raise APIError(
            409, "This delivery is still in progress; retry it after it finished.", error="conflict"
        )
    await dispatch_ids([delivery.id], now=now, kick=kick)
    await delivery.refresh_from_db()
    return delivery
