"""The delivery pipeline on a real database with a controllable clock: scheduling, exactly-once,
retries on schedule, failure counting, disabling after 10 failures or a 410, resuming.

Receivers are local HTTPS servers (trustme CA); horoscope content is a stand-in here (the
end-to-end test uses the published horoscopes).
"""

from __future__ import annotations

import asyncio
import itertools
import secrets
from collections.abc import AsyncIterator, Callable, Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import trustme
from _delivery_support import Clock, Receiver, fake_horoscope, start_receiver, stop_receiver
from _platform_support import running_app, settings_for
from standardwebhooks.webhooks import Webhook

from astro_server.features.feeds import service as feeds
from astro_server.platform.auth import accounts
from astro_server.platform.delivery import common as delivery_common
from astro_server.platform.delivery import engine as feed_pipeline
from astro_server.platform.delivery.http import DeliveryClient
from astro_server.platform.delivery.signing import verify
from astro_server.platform.models.delivery import (
    FeedDelivery,
    FeedDeliveryAttempt,
    HoroscopeFeedSubscription,
)
from astro_server.settings import Settings


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA()


@pytest.fixture
def receiver(ca: trustme.CA) -> Iterator[Receiver]:
    started = start_receiver(ca)
    yield started
    stop_receiver(started)


@pytest.fixture
async def settings(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Settings]:
    async def published(
        sign: str, local_date: Any, language: str, timezone: str = "UTC"
    ) -> dict[str, Any]:
        return fake_horoscope(sign, local_date, language)

    monkeypatch.setattr(feed_pipeline, "published_horoscope", published)
    # Up to 120 subscriptions of one customer below: past the default limit of 100.
    config = settings_for(
        database_url, tmp_path, allow_loopback_destinations=True, max_subscriptions_per_customer=500
    )
    async with running_app(config):
        yield config


@pytest.fixture
async def client(receiver: Receiver) -> AsyncIterator[DeliveryClient]:
    delivery_client = receiver.client()
    yield delivery_client
    await delivery_client.aclose()


Message = tuple[list[str], str]


class Kicks:
    """Stands in for the broker: records (delivery ids, token) messages."""

    def __init__(self) -> None:
        self.sent: list[Message] = []

    async def __call__(self, delivery_ids: list[str], token: str) -> None:
        self.sent.append((list(delivery_ids), token))

    def take(self) -> list[Message]:
        sent, self.sent = self.sent, []
        return sent


async def subscribe(
    settings: Settings,
    receiver: Receiver,
    now: datetime,
    *,
    timezone: str = "UTC",
    delivery_time: str = "08:00",
    sign: str = "leo",
) -> tuple[HoroscopeFeedSubscription, str]:
    account, _ = await accounts.create_account("t", "free", 0)
    email = f"{secrets.token_hex(6)}@example.com"
    customer = await accounts.create_customer(account.id, email, "long enough password")
    return await feeds.create_subscription(
        account_id=account.id,
        customer_id=customer.id,
        destination_url=receiver.url(),
        sign=sign,
        language="en",
        timezone=timezone,
        delivery_time=delivery_time,
        now=now,
        settings=settings,
    )


async def run_tick(clock: Clock, kicks: Kicks) -> list[Message]:
    await feed_pipeline.tick(clock(), kick=kicks)
    return kicks.take()


async def deliver_all(
    messages: list[Message],
    clock: Callable[[], datetime],
    settings: Settings,
    client: DeliveryClient,
) -> list[str | None]:
    """Run every message; the statuses of the rows they claimed, in message order."""
    statuses: list[str | None] = []
    for delivery_ids, token in messages:
        claimed = await feed_pipeline.deliver_batch(
            delivery_ids, token, clock=clock, settings=settings, delivery_client=client
        )
        statuses.extend(claimed[i] for i in delivery_ids if i in claimed)
    return statuses


async def test_scheduled_delivery_arrives_once_signed_at_its_local_time(
    settings: Settings, receiver: Receiver, client: DeliveryClient
) -> None:
    today = datetime.now(UTC).date()
    created = datetime.combine(today, datetime.min.time(), UTC)
    clock = Clock(created)
    sub, secret = await subscribe(
        settings, receiver, created, timezone="Asia/Bangkok", delivery_time="09:30"
    )
    kicks = Kicks()
    # 09:30 in Bangkok (UTC+7) is 02:30 UTC: nothing at 02:29, the delivery at 02:30.
    clock.set(created + timedelta(hours=2, minutes=29))
    assert await run_tick(clock, kicks) == []
    clock.set(created + timedelta(hours=2, minutes=30))
    messages = await run_tick(clock, kicks)
    assert len(messages) == 1
    assert await deliver_all(messages, clock, settings, client) == ["succeeded"]
    (got,) = receiver.received
    verify(got.body, got.headers, secret, now=clock())
    event = got.json()
    assert event["type"] == "horoscope.daily"
    assert event["data"] == fake_horoscope("leo", today, "en")
    assert set(event) == {"id", "type", "created_at", "data"}
    assert event["id"] == got.headers["Webhook-Id"]
    row = await FeedDelivery.get(subscription_id=sub.id)
    assert (row.local_date, row.status, row.attempts) == (today, "succeeded", 1)
    # Later ticks the same day schedule nothing more.
    clock.advance(hours=3)
    assert await run_tick(clock, kicks) == []
    assert await FeedDelivery.filter(subscription_id=sub.id).count() == 1


async def test_two_schedulers_and_duplicate_messages_deliver_once(
    settings: Settings, receiver: Receiver, client: DeliveryClient
) -> None:
    start = datetime(2030, 1, 1, 7, 0, tzinfo=UTC)
    clock = Clock(start)
    sub, _ = await subscribe(settings, receiver, start)
    clock.set(start + timedelta(hours=1))
    kicks_a, kicks_b = Kicks(), Kicks()
    await asyncio.gather(
        feed_pipeline.tick(clock(), kick=kicks_a), feed_pipeline.tick(clock(), kick=kicks_b)
    )
    assert await FeedDelivery.filter(subscription_id=sub.id).count() == 1
    messages = kicks_a.take() + kicks_b.take()
    assert 1 <= len(messages) <= 2
    # Every message twice (a redelivered stream entry, a retried task): one attempt in total.
    outcomes = await asyncio.gather(
        *[
            feed_pipeline.deliver_batch(
                ids, token, clock=clock, settings=settings, delivery_client=client
            )
            for ids, token in messages + messages
        ]
    )
    assert [status for claimed in outcomes for status in claimed.values()] == ["succeeded"]
    assert len(receiver.received) == 1
    assert await FeedDeliveryAttempt.all().count() == 1


async def next_event(sub_id: str) -> datetime:
    """The earliest instant anything is due for this subscription (an attempt or a schedule)."""
    pending = await FeedDelivery.filter(
        subscription_id=sub_id, next_attempt_at__not_isnull=True
    ).values_list("next_attempt_at", flat=True)
    sub = await HoroscopeFeedSubscription.get(id=sub_id)
    candidates = [*pending, *([sub.next_due_at] if sub.next_due_at else [])]
    return min(candidates)


async def run_until(
    sub_id: str, clock: Clock, settings: Settings, client: DeliveryClient, done: Any
) -> None:
    """Jump the clock from one due instant to the next, ticking and delivering, until ``done``."""
    kicks = Kicks()
    while not await done():
        due = await next_event(sub_id)
        # Nothing is dispatched a second early; at the due instant it is.
        clock.set(due - timedelta(seconds=1))
        assert await run_tick(clock, kicks) == []
        clock.set(due)
        messages = await run_tick(clock, kicks)
        assert messages
        await deliver_all(messages, clock, settings, client)


async def attempt_times(delivery_id: str) -> list[datetime]:
    log = await FeedDeliveryAttempt.filter(delivery_id=delivery_id).order_by("number")
    return [a.started_at for a in log]


async def test_a_failing_message_is_retried_on_the_whole_schedule(
    settings: Settings, receiver: Receiver, client: DeliveryClient
) -> None:
    from werkzeug import Request, Response

    start = datetime(2030, 3, 1, 7, 0, tzinfo=UTC)
    clock = Clock(start)
    sub, _ = await subscribe(settings, receiver, start)

    def fail_first_day(request: Request) -> Response:
        first_day = request.get_json()["data"]["date"] == "2030-03-01"
        return Response("no" if first_day else "ok", status=500 if first_day else 200)

    receiver.answer = fail_first_day

    async def first_finished() -> bool:
        rows = await FeedDelivery.filter(subscription_id=sub.id, local_date=date(2030, 3, 1))
        return bool(rows) and rows[0].status in ("failed", "succeeded", "abandoned")

    await run_until(sub.id, clock, settings, client, first_finished)
    first = await FeedDelivery.get(subscription_id=sub.id, local_date=date(2030, 3, 1))
    times = await attempt_times(first.id)
    assert times[0] == datetime(2030, 3, 1, 8, 0, tzinfo=UTC)
    assert [b - a for a, b in itertools.pairwise(times)] == [
        timedelta(seconds=5),
        timedelta(minutes=5),
        timedelta(minutes=30),
        timedelta(hours=2),
        timedelta(hours=5),
        timedelta(hours=10),
        timedelta(hours=10),
    ]
    assert times[-1] == datetime(2030, 3, 2, 11, 35, 5, tzinfo=UTC)
    assert (first.status, first.attempts, first.last_status_code) == ("failed", 8, 500)
    assert first.next_attempt_at is None
    # 2 Mar 08:00 succeeded between the 7th and 8th attempts and reset the count.
    second = await FeedDelivery.get(subscription_id=sub.id, local_date=date(2030, 3, 2))
    assert (second.status, second.attempts) == ("succeeded", 1)
    sub = await HoroscopeFeedSubscription.get(id=sub.id)
    assert (sub.active, sub.consecutive_failures) == (True, 1)
    # Every retry carried the same message: same webhook-id and body.
    bodies = {(r.headers["Webhook-Id"], r.body) for r in receiver.received if b"03-01" in r.body}
    assert len(bodies) == 1


async def test_ten_consecutive_failures_disable(
    settings: Settings, receiver: Receiver, client: DeliveryClient
) -> None:
    start = datetime(2030, 3, 1, 7, 0, tzinfo=UTC)
    clock = Clock(start)
    sub, _ = await subscribe(settings, receiver, start)
    receiver.status = 500

    async def disabled() -> bool:
        return not (await HoroscopeFeedSubscription.get(id=sub.id)).active

    await run_until(sub.id, clock, settings, client, disabled)
    # 1 Mar: attempts at 08:00:00 ... 2 Mar 01:35:05 (7 failures); 2 Mar: 08:00:00 (8),
    # 08:00:05 (9), 08:05:05 (10): disabled, and the first message's last retry is abandoned.
    tenth_at = datetime(2030, 3, 2, 8, 5, 5, tzinfo=UTC)
    sub = await HoroscopeFeedSubscription.get(id=sub.id)
    assert (sub.active, sub.consecutive_failures, sub.disabled_at) == (False, 10, tenth_at)
    assert sub.next_due_at is None
    first = await FeedDelivery.get(subscription_id=sub.id, local_date=date(2030, 3, 1))
    second = await FeedDelivery.get(subscription_id=sub.id, local_date=date(2030, 3, 2))
    assert (first.status, first.attempts, first.next_attempt_at) == ("abandoned", 7, None)
    assert (second.status, second.attempts, second.next_attempt_at) == ("abandoned", 3, None)
    kicks = Kicks()
    # Disabled: no more deliveries are scheduled or attempted.
    clock.set(datetime(2030, 3, 3, 9, 0, tzinfo=UTC))
    assert await run_tick(clock, kicks) == []
    assert len(receiver.received) == 10
    assert await FeedDeliveryAttempt.all().count() == 10
    # Resuming clears the disable state and schedules again.
    resumed = await feeds.set_active(sub, True, now=clock())
    assert (resumed.active, resumed.consecutive_failures, resumed.disabled_at) == (True, 0, None)
    receiver.status = 200
    clock.set(datetime(2030, 3, 4, 8, 0, tzinfo=UTC))
    assert await deliver_all(await run_tick(clock, kicks), clock, settings, client) == ["succeeded"]


async def test_failures_in_flight_at_the_threshold_do_not_push_the_count_past_it(
    settings: Settings, receiver: Receiver, client: DeliveryClient
) -> None:
    """Issue 29: attempts that fail after the 10th failure was counted (in flight in another
    batch or worker, before the disable was written) left the count at 11 or 12; it stops at
    the documented 10."""
    start = datetime(2030, 3, 1, 7, 0, tzinfo=UTC)
    clock = Clock(start)
    sub, _ = await subscribe(settings, receiver, start)
    receiver.status = 500
    # Another batch has just counted the 10th failure and not yet written the disable.
    await HoroscopeFeedSubscription.filter(id=sub.id).update(consecutive_failures=10)
    kicks = Kicks()
    clock.set(start + timedelta(hours=1))
    assert await deliver_all(await run_tick(clock, kicks), clock, settings, client) == ["abandoned"]
    sub = await HoroscopeFeedSubscription.get(id=sub.id)
    assert (sub.active, sub.consecutive_failures) == (False, 10)


async def test_success_resets_the_failure_count(
    settings: Settings, receiver: Receiver, client: DeliveryClient
) -> None:
    start = datetime(2030, 4, 1, 7, 0, tzinfo=UTC)
    clock = Clock(start)
    sub, _ = await subscribe(settings, receiver, start)
    receiver.status = 503
    kicks = Kicks()
    clock.set(start + timedelta(hours=1))
    await deliver_all(await run_tick(clock, kicks), clock, settings, client)
    clock.advance(seconds=5)
    await deliver_all(await run_tick(clock, kicks), clock, settings, client)
    assert (await HoroscopeFeedSubscription.get(id=sub.id)).consecutive_failures == 2
    receiver.status = 204
    clock.advance(minutes=5)
    assert await deliver_all(await run_tick(clock, kicks), clock, settings, client) == ["succeeded"]
    assert (await HoroscopeFeedSubscription.get(id=sub.id)).consecutive_failures == 0
    attempts = await FeedDeliveryAttempt.all().order_by("number")
    assert [(a.number, a.status_code, a.succeeded) for a in attempts] == [
        (1, 503, False),
        (2, 503, False),
        (3, 204, True),
    ]
    assert all(a.duration_ms >= 0 for a in attempts)


async def test_410_disables_at_once(
    settings: Settings, receiver: Receiver, client: DeliveryClient
) -> None:
    start = datetime(2030, 5, 1, 7, 0, tzinfo=UTC)
    clock = Clock(start)
    sub, _ = await subscribe(settings, receiver, start)
    receiver.status = 410
    kicks = Kicks()
    clock.set(start + timedelta(hours=1))
    assert await deliver_all(await run_tick(clock, kicks), clock, settings, client) == ["abandoned"]
    sub = await HoroscopeFeedSubscription.get(id=sub.id)
    assert (sub.active, sub.consecutive_failures, sub.disabled_at) == (False, 1, clock())
    clock.advance(minutes=10)
    assert await run_tick(clock, kicks) == []


async def test_redirect_is_a_failure_and_not_followed(
    settings: Settings, receiver: Receiver, client: DeliveryClient
) -> None:
    from werkzeug import Response

    start = datetime(2030, 5, 2, 7, 0, tzinfo=UTC)
    clock = Clock(start)
    sub, _ = await subscribe(settings, receiver, start)
    receiver.answer = lambda request: Response(
        status=301, headers={"Location": "https://169.254.169.254/latest/meta-data/"}
    )
    kicks = Kicks()
    clock.set(start + timedelta(hours=1))
    assert await deliver_all(await run_tick(clock, kicks), clock, settings, client) == ["retrying"]
    row = await FeedDelivery.get(subscription_id=sub.id)
    assert (row.last_status_code, row.last_error) == (301, "redirect not followed")
    assert len(receiver.received) == 1


async def test_paused_subscription_is_not_delivered(
    settings: Settings, receiver: Receiver, client: DeliveryClient
) -> None:
    start = datetime(2030, 6, 1, 7, 0, tzinfo=UTC)
    clock = Clock(start)
    sub, _ = await subscribe(settings, receiver, start)
    kicks = Kicks()
    clock.set(start + timedelta(hours=1))
    messages = await run_tick(clock, kicks)
    await feeds.set_active(sub, False, now=clock())  # paused between dispatch and attempt
    assert await deliver_all(messages, clock, settings, client) == ["abandoned"]
    clock.set(datetime(2030, 6, 2, 9, 0, tzinfo=UTC))
    assert await run_tick(clock, kicks) == []
    assert receiver.received == []


async def test_catch_up_after_downtime(
    settings: Settings, receiver: Receiver, client: DeliveryClient
) -> None:
    start = datetime(2030, 7, 1, 7, 0, tzinfo=UTC)
    clock = Clock(start)
    late, _ = await subscribe(settings, receiver, start, sign="aries")  # due 08:00
    stale, _ = await subscribe(settings, receiver, start, sign="virgo", delivery_time="07:30")
    kicks = Kicks()
    # The scheduler was down from 07:00 and comes back at 13:45 UTC: 08:00 fell due 5 h 45 min
    # ago (caught up), 07:30 fell due 6 h 15 min ago (skipped).
    clock.set(datetime(2030, 7, 1, 13, 45, tzinfo=UTC))
    messages = await run_tick(clock, kicks)
    assert await deliver_all(messages, clock, settings, client) == ["succeeded"]
    assert await FeedDelivery.filter(subscription_id=late.id).count() == 1
    assert await FeedDelivery.filter(subscription_id=stale.id).count() == 0
    assert (await HoroscopeFeedSubscription.get(id=stale.id)).next_due_at == datetime(
        2030, 7, 2, 7, 30, tzinfo=UTC
    )


async def test_dst_gap_day_is_delivered_at_the_next_valid_minute(
    settings: Settings, receiver: Receiver, client: DeliveryClient
) -> None:
    start = datetime(2030, 3, 9, 12, 0, tzinfo=UTC)  # US DST starts Sun 10 Mar 2030, 02:00
    clock = Clock(start)
    sub, _ = await subscribe(
        settings, receiver, start, timezone="America/New_York", delivery_time="02:30"
    )
    kicks = Kicks()
    clock.set(datetime(2030, 3, 10, 6, 59, tzinfo=UTC))  # 01:59 EST
    assert await run_tick(clock, kicks) == []
    clock.set(datetime(2030, 3, 10, 7, 0, tzinfo=UTC))  # 03:00 EDT
    assert await deliver_all(await run_tick(clock, kicks), clock, settings, client) == ["succeeded"]
    row = await FeedDelivery.get(subscription_id=sub.id)
    assert row.local_date == date(2030, 3, 10)


async def test_destination_now_resolving_privately_is_refused_at_delivery(
    settings: Settings, receiver: Receiver, ca: trustme.CA
) -> None:
    start = datetime(2030, 8, 1, 7, 0, tzinfo=UTC)
    clock = Clock(start)
    sub, _ = await subscribe(settings, receiver, start)

    async def private(host: str, port: int) -> list[str]:
        return ["10.1.2.3"]

    rebound = receiver.client(resolver=private)
    kicks = Kicks()
    clock.set(start + timedelta(hours=1))
    try:
        outcome = await deliver_all(await run_tick(clock, kicks), clock, settings, rebound)
    finally:
        await rebound.aclose()
    assert outcome == ["retrying"]
    row = await FeedDelivery.get(subscription_id=sub.id)
    assert row.last_error is not None
    assert row.last_error.startswith("unsafe_destination:")
    assert "does not resolve to public addresses only" in row.last_error
    assert "10.1.2.3" not in row.last_error  # what the resolver said stays in the server log
    assert receiver.received == []


async def test_rotation_signs_with_both_secrets_for_24_hours(
    settings: Settings, receiver: Receiver, client: DeliveryClient
) -> None:
    start = datetime.now(UTC).replace(microsecond=0)
    sub, old = await subscribe(settings, receiver, start - timedelta(days=2))
    sub, new, until = await feeds.rotate_secret(sub, now=start, settings=settings)
    assert until == start + timedelta(hours=24)
    assert delivery_common.secrets_in_use(sub, start + timedelta(hours=23), settings) == [new, old]
    assert delivery_common.secrets_in_use(sub, start + timedelta(hours=24), settings) == [new]
    view = await feed_pipeline.send_test_delivery(
        sub, now=start, clock=lambda: start, settings=settings, delivery_client=client
    )
    assert view["status"] == "succeeded"
    (got,) = receiver.received
    Webhook(old).verify(got.body, got.headers)
    Webhook(new).verify(got.body, got.headers)


async def subscribe_many(
    settings: Settings, receiver: Receiver, now: datetime, count: int
) -> list[tuple[HoroscopeFeedSubscription, str]]:
    """``count`` subscriptions of one customer (leo, en, 08:00 UTC), one destination each."""
    account, _ = await accounts.create_account("t", "free", 0)
    customer = await accounts.create_customer(
        account.id, f"{secrets.token_hex(6)}@example.com", "long enough password"
    )
    return [
        await feeds.create_subscription(
            account_id=account.id,
            customer_id=customer.id,
            destination_url=receiver.url(f"/hooks/astro?n={n}"),
            sign="leo",
            language="en",
            timezone="UTC",
            delivery_time="08:00",
            now=now,
            settings=settings,
        )
        for n in range(count)
    ]


async def test_many_due_at_once_go_out_in_batches_and_arrive_once_each(
    settings: Settings,
    receiver: Receiver,
    client: DeliveryClient,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    start = datetime(2030, 9, 1, 7, 0, tzinfo=UTC)
    clock = Clock(start)
    subs = await subscribe_many(settings, receiver, start, 120)
    loads: list[tuple[str, date, str]] = []

    async def published(
        sign: str, local_date: date, language: str, timezone: str = "UTC"
    ) -> dict[str, Any]:
        loads.append((sign, local_date, language))
        return fake_horoscope(sign, local_date, language)

    monkeypatch.setattr(feed_pipeline, "published_horoscope", published)
    kicks = Kicks()
    clock.set(datetime(2030, 9, 1, 8, 0, tzinfo=UTC))
    messages = await run_tick(clock, kicks)
    # One message per 50 deliveries, not one per delivery.
    assert sorted(len(ids) for ids, _ in messages) == [20, 50, 50]
    assert await deliver_all(messages, clock, settings, client) == ["succeeded"] * 120
    # The content is loaded once per (sign, date, language) in the process.
    assert loads == [("leo", date(2030, 9, 1), "en")]
    assert len(receiver.received) == 120
    assert len({got.headers["Webhook-Id"] for got in receiver.received}) == 120
    secret_of = {f"/hooks/astro?n={n}": secret for n, (_, secret) in enumerate(subs)}
    assert len(secret_of) == 120
    rows = await FeedDelivery.all()
    assert {(r.status, r.attempts, r.next_attempt_at) for r in rows} == {("succeeded", 1, None)}
    assert await FeedDeliveryAttempt.filter(succeeded=True).count() == 120
    # Each destination got its own subscription's signature.
    for got in receiver.received:
        verify(got.body, got.headers, secret_of[got.target], now=clock())


async def test_handing_a_row_out_again_keeps_its_queued_message_valid(
    settings: Settings, receiver: Receiver, client: DeliveryClient
) -> None:
    """A long queue must not be invalidated by the dispatcher's safety net (issue 10)."""
    start = datetime(2030, 9, 2, 7, 0, tzinfo=UTC)
    clock = Clock(start)
    await subscribe(settings, receiver, start)
    kicks = Kicks()
    clock.set(datetime(2030, 9, 2, 8, 0, tzinfo=UTC))
    (queued,) = await run_tick(clock, kicks)
    # Not picked up within the grace: handed out again, with the same token.
    clock.advance(seconds=feed_pipeline.DISPATCH_GRACE.total_seconds() - 1)
    assert await run_tick(clock, kicks) == []
    clock.advance(seconds=1)
    (again,) = await run_tick(clock, kicks)
    assert again == queued
    # The message queued first delivers; the duplicate is a no-op.
    assert await deliver_all([queued, again], clock, settings, client) == ["succeeded"]
    assert len(receiver.received) == 1


async def test_a_row_whose_holder_died_is_handed_out_with_a_new_token(
    settings: Settings, receiver: Receiver, client: DeliveryClient
) -> None:
    start = datetime(2030, 9, 3, 7, 0, tzinfo=UTC)
    clock = Clock(start)
    sub, _ = await subscribe(settings, receiver, start)
    kicks = Kicks()
    clock.set(datetime(2030, 9, 3, 8, 0, tzinfo=UTC))
    (first,) = await run_tick(clock, kicks)

    class Crashing(DeliveryClient):
        async def post(self, *args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("the worker died mid-attempt")

    crashing = Crashing(allow_loopback=True)
    assert await deliver_all([first], clock, settings, crashing) == []
    row = await FeedDelivery.get(subscription_id=sub.id)
    assert row.status == "delivering"
    # The claim lease runs out: the row goes out again, under a token the old message lacks.
    clock.advance(seconds=feed_pipeline.LEASE.total_seconds() - 1)
    assert await run_tick(clock, kicks) == []
    clock.advance(seconds=1)
    (second,) = await run_tick(clock, kicks)
    assert second[0] == first[0]
    assert second[1] != first[1]
    assert await deliver_all([first, second], clock, settings, client) == ["succeeded"]
    assert len(receiver.received) == 1
    assert await FeedDeliveryAttempt.all().count() == 1


async def test_attempts_not_started_within_the_lease_are_handed_back(
    settings: Settings, receiver: Receiver, client: DeliveryClient
) -> None:
    start = datetime(2030, 9, 4, 7, 0, tzinfo=UTC)
    clock = Clock(start)
    sub, _ = await subscribe(settings, receiver, start)
    kicks = Kicks()
    due = datetime(2030, 9, 4, 8, 0, tzinfo=UTC)
    clock.set(due)
    messages = await run_tick(clock, kicks)
    # Claimed at 08:00, but the attempt could only start two minutes later (a stalled worker):
    # starting then could overlap a second holder after the lease, so it is given back.
    late = due + feed_pipeline.LEASE
    readings = iter([due])

    def stalled() -> datetime:
        return next(readings, late)

    assert await deliver_all(messages, stalled, settings, client) == [None]
    row = await FeedDelivery.get(subscription_id=sub.id)
    assert (row.status, row.lease_token, row.next_attempt_at) == ("pending", None, late)
    assert receiver.received == []
    clock.set(late)
    assert await deliver_all(await run_tick(clock, kicks), clock, settings, client) == ["succeeded"]
    assert len(receiver.received) == 1
