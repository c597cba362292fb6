"""Horoscope feed subscriptions: the delivery pipeline (schedule, dispatch, attempt, record).

Pipeline (times come in as ``now``, so tests drive it with a controllable clock):

1. :func:`schedule_due` (periodic, in the scheduler): subscriptions whose indexed
   ``next_due_at`` has passed get one ``FeedDelivery`` row per due local date, inserted with
   ON CONFLICT DO NOTHING on the unique (subscription, local_date); then ``next_due_at`` moves to
   the next due instant. Dates more than six hours late are skipped (``schedule.CATCH_UP``).
2. :func:`dispatch_due` (same tick, after every batch of 1,000 scheduled subscriptions): rows
   whose indexed ``next_attempt_at`` has passed are taken by one ``UPDATE ... WHERE id IN (SELECT
   ... FOR UPDATE SKIP LOCKED) RETURNING`` (two schedulers never take the same row), get a
   ``lease_token`` and go to the workers as one ``astro.deliver`` message per
   :data:`MESSAGE_BATCH` rows. ``next_attempt_at`` moves :data:`DISPATCH_GRACE` ahead, so rows
   whose message was lost are handed out again. A row handed out again KEEPS its token: a
   message still queued for it stays valid (the duplicate becomes a no-op), so a long queue is
   never invalidated wholesale. Only a row whose claim lease expired gets a new token.
3. :func:`deliver_batch` (a worker): claims the message's rows with one conditional UPDATE that
   needs the token, so of any duplicate messages exactly one attempts each row; builds each body
   once (the published horoscope for the sign, local date and language, cached per process since
   published content never changes) and keeps it for retries; signs it with every secret in use;
   sends it through :class:`DeliveryClient` (at most :data:`ATTEMPT_CONCURRENCY` attempts at
   once per process); then writes the batch's outcomes in one transaction: the attempt log rows
   and each delivery's new state, only for rows the claim still holds (locked while written).

Account events (:mod:`.events`) ride the same rows (kind ``event``, ``endpoint`` set instead of
``subscription``, the body written when the event is emitted): dispatch, claim, attempt, record,
failure counting and disabling are this module's, for either owner.

Failure counting is done in SQL (``consecutive_failures = consecutive_failures + 1``, only while
the owner is active and below ``disable_after``) and the disable is a conditional UPDATE, so
concurrent deliveries of one subscription cannot lose counts nor push one past the threshold.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections import Counter, OrderedDict, defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

import msgspec
from tortoise import connections
from tortoise.expressions import Q
from tortoise.transactions import in_transaction

from astro_server.platform import clock, db, runtime
from astro_server.platform.delivery.common import (
    FINISHED,
    client,
    current_settings,
    delivery_view,
    secrets_in_use,
)
from astro_server.platform.delivery.http import AttemptResult, DeliveryClient
from astro_server.platform.delivery.retry import (
    DEFAULT_POLICY,
    AttemptDecision,
    RetryPolicy,
    SubscriptionHealth,
)
from astro_server.platform.delivery.schedule import (
    DueDelivery,
    delivery_zone,
    due_deliveries,
    next_due,
)
from astro_server.platform.delivery.signing import new_message_id, sign_headers
from astro_server.platform.errors import APIError
from astro_server.platform.models.delivery import (
    FeedDelivery,
    FeedDeliveryAttempt,
    HoroscopeFeedSubscription,
    WebhookEndpoint,
)
from astro_server.settings import Settings

log = logging.getLogger("astro_server.delivery")

EVENT_TYPE = "horoscope.daily"
DELIVER_TASK = "astro.deliver"
# Deliveries per message: one claim, one read and one outcome write per batch, not per delivery.
MESSAGE_BATCH = 50
SCHEDULE_BATCH = 1000
DISPATCH_CHUNK = 1000
DISPATCH_LIMIT = 20_000
# Lost messages come back from the Redis stream (unacknowledged entries are claimed by another
# worker); this is the last net, for a stream that lost them. Handing a row out again keeps its
# token, so even a queue longer than this is not invalidated.
DISPATCH_GRACE = timedelta(minutes=5)
# A claimed batch must be attempted within this: attempts not started by LEASE - timeout -
# START_MARGIN after the claim are handed back instead of racing a second holder.
LEASE = timedelta(minutes=2)
START_MARGIN = timedelta(seconds=30)
ATTEMPT_CONCURRENCY = 64
#: Attempts of one account in flight at once per process: one account's slow or hanging
#: receivers hold at most this many of the process's slots, never all of them.
ATTEMPTS_PER_ACCOUNT = 4
CONTENT_RETRY = timedelta(minutes=5)
CONTENT_CACHE_SIZE = 1024

Kick = Callable[[list[str], str], Awaitable[None]]
#: Who a delivery belongs to: a feed subscription, or an account's webhook endpoint.
Owner = HoroscopeFeedSubscription | WebhookEndpoint


def owner_id(delivery: FeedDelivery) -> str:
    """The id of the delivery's owner (``hfs_`` or ``whe_``: the prefixes keep them apart)."""
    return str(delivery.subscription_id or delivery.endpoint_id)  # type: ignore[attr-defined]


# --- content ---------------------------------------------------------------------------------


async def published_horoscope(
    sign: str, local_date: date, language: str, timezone: str = "UTC"
) -> Any:
    """The published horoscope as JSON-able data (from the platform's source, the horoscopes
    feature's, wired by the registry: the platform does not import features), its texts' times
    in ``timezone`` (the subscription's: a Bangkok reader reads Thai local times)."""
    source = runtime.current().horoscope_source
    if source is None:
        raise RuntimeError("no horoscope source: build_platform() wires one")
    published = await source(sign, local_date, language, timezone)
    if hasattr(published, "model_dump"):
        return published.model_dump(mode="json")
    return msgspec.to_builtins(published)


_ContentKey = tuple[Callable[..., Awaitable[Any]], str, date, str, str]
_content: OrderedDict[_ContentKey, Any] = OrderedDict()
_content_loading: dict[_ContentKey, asyncio.Task[Any]] = {}


async def cached_horoscope(
    sign: str, local_date: date, language: str, timezone: str = "UTC"
) -> Any:
    """:func:`published_horoscope`, kept per process: published content never changes.

    Concurrent first requests for one key share one load; a failed load is not kept.
    """
    loader = published_horoscope  # looked up at call time (tests replace it)
    key: _ContentKey = (loader, sign, local_date, language, timezone)
    if key in _content:
        _content.move_to_end(key)
        return _content[key]
    loading = _content_loading.get(key)
    if loading is None or loading.get_loop() is not asyncio.get_running_loop():
        loading = asyncio.ensure_future(loader(sign, local_date, language, timezone))
        _content_loading[key] = loading
        loading.add_done_callback(lambda done: _content_loaded(key, done))
    return await asyncio.shield(loading)


def _content_loaded(key: _ContentKey, loading: asyncio.Task[Any]) -> None:
    if _content_loading.get(key) is loading:
        del _content_loading[key]
    if loading.cancelled() or loading.exception() is not None:
        return
    _content[key] = loading.result()
    while len(_content) > CONTENT_CACHE_SIZE:
        _content.popitem(last=False)


def event_body(message_id: str, created_at: datetime, data: Any, *, test: bool = False) -> str:
    event: dict[str, Any] = {
        "id": message_id,
        "type": EVENT_TYPE,
        "created_at": clock.iso(created_at),
        "data": data,
    }
    if test:
        event["test"] = True
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"))


# --- scheduling and dispatch -----------------------------------------------------------------


async def _schedule_batch(now: datetime, batch: int) -> int:
    """Materialise the due deliveries of up to ``batch`` subscriptions; returns how many."""
    subs = (
        await HoroscopeFeedSubscription.filter(next_due_at__lte=now, active=True)
        .order_by("next_due_at")
        .limit(batch)
        .only("id", "timezone", "delivery_time", "next_due_at")
    )
    rows: list[FeedDelivery] = []
    moves: dict[tuple[datetime, datetime], list[str]] = defaultdict(list)
    # Subscriptions sharing zone, time and due instant share the answer (a popular 08:00).
    plans: dict[tuple[str, str, datetime], tuple[list[DueDelivery], datetime]] = {}
    for sub in subs:
        assert sub.next_due_at is not None
        plan_key = (sub.timezone, sub.delivery_time, sub.next_due_at)
        plan = plans.get(plan_key)
        if plan is None:
            plan = plans[plan_key] = (
                due_deliveries(sub.timezone, sub.delivery_time, now, not_before=sub.next_due_at),
                next_due(sub.timezone, sub.delivery_time, now).due_at,
            )
        dues, following = plan
        for due in dues:
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
        moves[(sub.next_due_at, following)].append(sub.id)
    if rows:
        # The unique (subscription, local_date) makes a second scheduler's insert a no-op.
        await FeedDelivery.bulk_create(rows, batch_size=1000, ignore_conflicts=True)
    for (previous, following), ids in moves.items():
        for start in range(0, len(ids), 1000):
            await HoroscopeFeedSubscription.filter(
                id__in=ids[start : start + 1000], next_due_at=previous
            ).update(next_due_at=following)
    return len(subs)


async def schedule_due(now: datetime, *, batch: int = SCHEDULE_BATCH) -> int:
    """Materialise due deliveries (step 1). Returns the number of subscriptions handled."""
    handled = 0
    while True:
        count = await _schedule_batch(now, batch)
        handled += count
        if count < batch:
            return handled


def dispatch_sql(dialect: str) -> str:
    """Step 2 as one statement: take due rows, give them a token, return (id, lease_token).

    A row keeps the token it has unless it has none or its claim lease expired (``delivering``).
    On PostgreSQL the inner SELECT locks with SKIP LOCKED: concurrent dispatchers split the rows.
    """
    return _DISPATCH_SQL_PG if dialect == "postgres" else _DISPATCH_SQL


_DISPATCH_SQL = (
    "UPDATE horoscope_feed_deliveries SET lease_token = CASE WHEN lease_token IS NULL"
    " OR status = 'delivering' THEN ? ELSE lease_token END, next_attempt_at = ?"
    " WHERE id IN (SELECT id FROM horoscope_feed_deliveries WHERE next_attempt_at <= ?"
    " ORDER BY next_attempt_at LIMIT ?) RETURNING id, lease_token"
)
_DISPATCH_SQL_PG = _DISPATCH_SQL.replace("LIMIT ?)", "LIMIT ? FOR UPDATE SKIP LOCKED)")


async def _kick_rows(rows: Sequence[dict[str, Any]], kick: Kick) -> None:
    by_token: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        by_token[str(row["lease_token"])].append(str(row["id"]))
    for token, ids in by_token.items():
        for start in range(0, len(ids), MESSAGE_BATCH):
            await kick(ids[start : start + MESSAGE_BATCH], token)


async def dispatch_due(now: datetime, *, kick: Kick, limit: int = DISPATCH_LIMIT) -> int:
    """Hand every delivery whose ``next_attempt_at`` has passed to the workers (step 2)."""
    conn = connections.get("default")
    sql = dispatch_sql(conn.capabilities.dialect)
    dispatched = 0
    while dispatched < limit:
        chunk = min(DISPATCH_CHUNK, limit - dispatched)
        rows = await db.fetch(sql, [secrets.token_hex(8), now + DISPATCH_GRACE, now, chunk], conn)
        await _kick_rows(rows, kick)
        dispatched += len(rows)
        if len(rows) < chunk:
            break
    return dispatched


async def dispatch_ids(ids: Sequence[str], *, now: datetime, kick: Kick) -> int:
    """Hand ``ids`` (rows with no token, e.g. a manual retry) to the workers now."""
    if not ids:
        return 0
    token = secrets.token_hex(8)
    await FeedDelivery.filter(id__in=list(ids), lease_token__isnull=True).update(
        lease_token=token, next_attempt_at=now + DISPATCH_GRACE
    )
    # Rows the periodic dispatch took first already went out with its token.
    mine = await FeedDelivery.filter(id__in=list(ids), lease_token=token).values_list(
        "id", flat=True
    )
    await _kick_rows([{"id": i, "lease_token": token} for i in mine], kick)
    return len(mine)


async def tick(now: datetime, *, kick: Kick) -> tuple[int, int]:
    """One scheduler tick: schedule what fell due, dispatch what is due to be attempted.

    Dispatch runs after every scheduled batch, so workers start on the first thousand while
    the rest are being scheduled.
    """
    scheduled = dispatched = 0
    while True:
        count = await _schedule_batch(now, SCHEDULE_BATCH)
        scheduled += count
        dispatched += await dispatch_due(now, kick=kick)
        if count < SCHEDULE_BATCH:
            return scheduled, dispatched


# --- the attempt -----------------------------------------------------------------------------


@dataclass(slots=True)
class _Attempted:
    delivery: FeedDelivery
    sub: Owner
    result: AttemptResult
    started: datetime
    finished: datetime


_slots: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None
_account_slots: tuple[asyncio.AbstractEventLoop, dict[str, asyncio.Semaphore]] | None = None


def _slots_of_account(account_id: str) -> asyncio.Semaphore:
    """The account's bound on attempts in flight in this process (:data:`ATTEMPTS_PER_ACCOUNT`)."""
    global _account_slots
    loop = asyncio.get_running_loop()
    if _account_slots is None or _account_slots[0] is not loop:
        _account_slots = (loop, {})
    by_account = _account_slots[1]
    if len(by_account) > 10_000:
        # Forget the idle ones (a semaphore nobody holds or waits for).
        for key in [
            k
            for k, sem in by_account.items()
            if not sem.locked() and sem._value == ATTEMPTS_PER_ACCOUNT
        ]:
            del by_account[key]
    slots = by_account.get(account_id)
    if slots is None:
        slots = by_account[account_id] = asyncio.Semaphore(ATTEMPTS_PER_ACCOUNT)
    return slots


def _attempt_slots() -> asyncio.Semaphore:
    """The process's bound on attempts in flight (one semaphore per event loop)."""
    global _slots
    loop = asyncio.get_running_loop()
    if _slots is None or _slots[0] is not loop:
        _slots = (loop, asyncio.Semaphore(ATTEMPT_CONCURRENCY))
    return _slots[1]


async def _claim(ids: Sequence[str], token: str, now: datetime) -> tuple[str, list[FeedDelivery]]:
    claim = secrets.token_hex(8)
    claimable = Q(status__in=("pending", "retrying")) | Q(
        status="delivering", lease_expires_at__lte=now
    )
    updated = await FeedDelivery.filter(claimable, id__in=list(ids), lease_token=token).update(
        status="delivering",
        lease_token=claim,
        lease_expires_at=now + LEASE,
        next_attempt_at=now + LEASE,
    )
    if not updated:
        return claim, []
    return claim, await FeedDelivery.filter(id__in=list(ids), lease_token=claim)


async def deliver(
    delivery_id: str,
    token: str,
    *,
    clock: Callable[[], datetime],
    settings: Settings | None = None,
    delivery_client: DeliveryClient | None = None,
    policy: RetryPolicy = DEFAULT_POLICY,
) -> str | None:
    """One delivery: :func:`deliver_batch` of one. Returns its new status, or None."""
    statuses = await deliver_batch(
        [delivery_id],
        token,
        clock=clock,
        settings=settings,
        delivery_client=delivery_client,
        policy=policy,
    )
    return statuses.get(delivery_id)


async def deliver_batch(
    delivery_ids: Sequence[str],
    token: str,
    *,
    clock: Callable[[], datetime],
    settings: Settings | None = None,
    delivery_client: DeliveryClient | None = None,
    policy: RetryPolicy = DEFAULT_POLICY,
) -> dict[str, str | None]:
    """Attempt the rows of ``delivery_ids`` that ``token`` still holds (step 3).

    Returns the new status of each row this call claimed (None when it was handed back: content
    not published yet, or not started in time); rows it did not claim are absent.
    """
    settings = settings or current_settings()
    sender = delivery_client or client()
    now = clock()
    claim, claimed = await _claim(list(dict.fromkeys(delivery_ids)), token, now)
    if not claimed:
        return {}  # duplicate messages, or already handled
    # Separate queries: select_related left fields of the subscription unset on PostgreSQL.
    owner_ids = {owner_id(d) for d in claimed}
    subs: dict[str, Owner] = {}
    for model in (HoroscopeFeedSubscription, WebhookEndpoint):
        prefix = "hfs_" if model is HoroscopeFeedSubscription else "whe_"
        wanted = [i for i in owner_ids if i.startswith(prefix)]
        if wanted:
            subs.update({owner.id: owner for owner in await model.filter(id__in=wanted)})
    start_by = now + LEASE - timedelta(seconds=sender.timeout_s) - START_MARGIN
    statuses: dict[str, str | None] = {}

    async def attempt(delivery: FeedDelivery) -> _Attempted | None:
        sub = subs[owner_id(delivery)]
        held = FeedDelivery.filter(id=delivery.id, lease_token=claim)
        if not sub.active and delivery.kind in ("scheduled", "event"):
            await held.update(
                status="abandoned",
                next_attempt_at=None,
                lease_token=None,
                last_error=f"{_owner_word(sub)} paused"
                if sub.disabled_at is None
                else f"{_owner_word(sub)} disabled",
            )
            statuses[delivery.id] = "abandoned"
            return None
        if delivery.body is None:
            try:
                assert delivery.local_date is not None
                assert isinstance(sub, HoroscopeFeedSubscription)
                data = await cached_horoscope(
                    sub.sign, delivery.local_date, sub.language, sub.timezone
                )
            except Exception:
                log.exception("horoscope content unavailable for delivery %s", delivery.id)
                await held.update(
                    status="retrying" if delivery.attempts else "pending",
                    next_attempt_at=now + CONTENT_RETRY,
                    lease_token=None,
                    last_error="content not available yet",
                )
                statuses[delivery.id] = None
                return None
            # Stored with the outcome: the body is a pure function of the row and the published
            # content, so an attempt cut short rebuilds the same bytes.
            delivery.body = event_body(delivery.message_id, delivery.created_at, data)
        body = delivery.body.encode()
        # The account's slots first: an account whose receivers hang waits on its own slots and
        # holds none of the process's.
        async with _slots_of_account(sub.account_id), _attempt_slots():
            started = clock()
            if started > start_by:
                # Too late to finish inside the lease: give the row back for a prompt dispatch.
                await held.update(
                    status="retrying" if delivery.attempts else "pending",
                    next_attempt_at=started,
                    lease_token=None,
                    lease_expires_at=None,
                )
                statuses[delivery.id] = None
                return None
            headers = sign_headers(
                secrets_in_use(sub, started, settings),
                delivery.message_id,
                int(started.timestamp()),
                body,
            )
            if sub.destination_url.startswith("mailto:"):
                from astro_server.platform.delivery.mail import send_event_mail

                result = await send_event_mail(sub.destination_url[7:], body, settings)
            else:
                result = await sender.post(sub.destination_url, body, headers)
        return _Attempted(delivery, sub, result, started, clock())

    outcomes: list[_Attempted] = []
    for delivery, outcome in zip(
        claimed,
        await asyncio.gather(*(attempt(d) for d in claimed), return_exceptions=True),
        strict=True,
    ):
        if isinstance(outcome, BaseException):
            # The row stays claimed; it is handed out again when the lease expires.
            log.error("delivery %s failed", delivery.id, exc_info=outcome)
        elif outcome is not None:
            outcomes.append(outcome)
    statuses.update(await _record(outcomes, claim, policy))
    return statuses


# Counted only while the owner is active and below the disable threshold: attempts that were in
# flight when the threshold was reached (other batches, other workers) or that finish after the
# disable do not push the count past the documented 10 (issue 29: it reached 12).
_COUNT_FAILURE_SQL = (
    "UPDATE {table} SET consecutive_failures = CASE"
    " WHEN active AND consecutive_failures < ? THEN consecutive_failures + 1"
    " ELSE consecutive_failures END"
    " WHERE id = ? RETURNING active, consecutive_failures"
)


def _owner_model(owner: Owner) -> type[HoroscopeFeedSubscription] | type[WebhookEndpoint]:
    return type(owner)


def _owner_word(owner: Owner) -> str:
    return "subscription" if isinstance(owner, HoroscopeFeedSubscription) else "endpoint"


_RECORD_SQL = (
    "UPDATE horoscope_feed_deliveries SET status = ?, body = ?, attempts = ?,"
    " round_attempts = ?, next_attempt_at = ?, lease_token = NULL, lease_expires_at = NULL,"
    " last_status_code = ?, last_error = ?, delivered_at = ?, updated_at = ?"
    " WHERE id = ? AND lease_token = ?"
)


async def _record(outcomes: list[_Attempted], claim: str, policy: RetryPolicy) -> dict[str, str]:
    """Count failures, decide each message's fate, and write the batch's outcomes."""
    if not outcomes:
        return {}
    for model in (HoroscopeFeedSubscription, WebhookEndpoint):
        recovered = {
            o.sub.id
            for o in outcomes
            if o.result.succeeded and o.sub.consecutive_failures and isinstance(o.sub, model)
        }
        if recovered:
            await model.filter(id__in=list(recovered)).update(consecutive_failures=0)
    decisions: list[AttemptDecision] = []
    for outcome in outcomes:
        sub, result = outcome.sub, outcome.result
        if result.succeeded:
            health = SubscriptionHealth(sub.active, 0, sub.disabled_at)
        else:
            # Counted in SQL and read back in the same statement: concurrent failures of one
            # subscription (other batches, other workers) each see their own count.
            table = _owner_model(sub)._meta.db_table
            (counted,) = await db.fetch(
                _COUNT_FAILURE_SQL.format(table=table), [policy.disable_after, sub.id]
            )
            sub.active = bool(counted["active"])
            sub.consecutive_failures = int(counted["consecutive_failures"])
            health = SubscriptionHealth(sub.active, sub.consecutive_failures - 1, sub.disabled_at)
        decisions.append(
            policy.after_attempt(
                health,
                attempt_number=outcome.delivery.round_attempts + 1,
                succeeded=result.succeeded,
                http_status=result.status,
                now=outcome.finished,
            )
        )
    async with in_transaction() as conn:
        # Only rows the claim still holds, locked until written: a row whose lease ran out and
        # was claimed again belongs to its new holder.
        held = {
            d.id
            for d in await FeedDelivery.filter(
                id__in=[o.delivery.id for o in outcomes], lease_token=claim
            )
            .select_for_update()
            .only("id")
            .using_db(conn)
        }
        pairs = zip(outcomes, decisions, strict=True)
        written = [(o, d) for o, d in pairs if o.delivery.id in held]
        await FeedDeliveryAttempt.bulk_create(
            [
                FeedDeliveryAttempt(
                    delivery_id=o.delivery.id,
                    number=o.delivery.attempts + 1,
                    started_at=o.started,
                    status_code=o.result.status,
                    duration_ms=o.result.duration_ms,
                    response_body=o.result.response_body,
                    error=(o.result.error or None) and o.result.error[:500],
                    succeeded=o.result.succeeded,
                )
                for o, _ in written
            ],
            using_db=conn,
        )
        await db.execute_many(
            _RECORD_SQL,
            [
                [
                    d.message_status,
                    o.delivery.body,
                    o.delivery.attempts + 1,
                    o.delivery.round_attempts + 1,
                    d.retry_at,
                    o.result.status,
                    (o.result.error or None) and o.result.error[:500],
                    o.finished if o.result.succeeded else None,
                    o.finished,
                    o.delivery.id,
                    claim,
                ]
                for o, d in written
            ],
            conn,
        )
    for outcome, decision in zip(outcomes, decisions, strict=True):
        if decision.disabled_now:
            await _disable(outcome, decision)
    return {o.delivery.id: d.message_status for o, d in zip(outcomes, decisions, strict=True)}


async def _disable(outcome: _Attempted, decision: AttemptDecision) -> None:
    sub, finished = outcome.sub, outcome.finished
    changes: dict[str, Any] = {"active": False, "disabled_at": finished, "updated_at": finished}
    if isinstance(sub, HoroscopeFeedSubscription):
        changes["next_due_at"] = None
    disabled = await _owner_model(sub).filter(id=sub.id, active=True).update(**changes)
    if disabled:
        failures = decision.health.consecutive_failures
        reason = "HTTP 410" if outcome.result.gone else f"{failures} failures"
        word = _owner_word(sub)
        log.warning("%s %s disabled after %s", word, sub.id, reason)
        owned = (
            {"subscription_id": sub.id}
            if isinstance(sub, HoroscopeFeedSubscription)
            else {"endpoint_id": sub.id}
        )
        await FeedDelivery.filter(**owned, status__in=("pending", "retrying")).update(
            status="abandoned", next_attempt_at=None, last_error=f"{word} disabled"
        )


def batch_summary(statuses: dict[str, str | None]) -> str:
    counts = Counter(status or "handed back" for status in statuses.values())
    return ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))


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
    data = await published_horoscope(sub.sign, local_date, sub.language, sub.timezone)
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


async def retry_delivery(
    delivery: FeedDelivery, *, now: datetime, kick: Kick, unless_succeeded: bool = False
) -> FeedDelivery:
    """Send a finished message again now, with a fresh retry round (same id and body).

    ``unless_succeeded`` (account events): a delivery that succeeded is a 409, not sent again.
    """
    if delivery.kind == "test":
        raise APIError(409, "Test deliveries cannot be retried; send a new test.", error="conflict")
    finished: tuple[str, ...] = FINISHED
    if unless_succeeded:
        if delivery.status == "succeeded":
            raise APIError(
                409,
                "This delivery already succeeded; it is not sent again.",
                error="conflict",
                code="delivery_succeeded",
            )
        finished = tuple(status for status in FINISHED if status != "succeeded")
    updated = await FeedDelivery.filter(id=delivery.id, status__in=finished).update(
        status="pending", round_attempts=0, next_attempt_at=now, lease_token=None, updated_at=now
    )
    if not updated:
        raise APIError(
            409, "This delivery is still in progress; retry it after it finished.", error="conflict"
        )
    await dispatch_ids([delivery.id], now=now, kick=kick)
    await delivery.refresh_from_db()
    return delivery
