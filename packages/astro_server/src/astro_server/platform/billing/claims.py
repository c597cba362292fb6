"""Claim and debit: the idempotency claim, the tier check and the debit of one request, together.

:func:`claim_and_debit` writes, all or nothing: the ``Idempotency-Key`` claim (when the request
sent one), the conditional debit and its ledger row (:mod:`astro_server.platform.billing.ledger`).
It returns the request's :class:`~astro_server.platform.billing.ledger.Charge` and claim id, or
the response to give instead (a replay of the first response with the same key, or a 409
``idempotency_conflict``). :func:`release_claim` undoes it (refund and release the key) for a
request that failed.

- SQLite (one writer at a time): one explicit transaction per request (``ledger.debit``).
- PostgreSQL: the claims of every request that arrived while the previous call was running go
  to the database together, as ONE call of the ``astro_claim_and_debit`` function (migration
  0005): one round trip and one commit serve the batch, and an account's row lock is taken once
  per batch instead of once per request. Alone, a request is sent at once (no waiting for
  company). Items are processed in account order (so two processes lock accounts in the same
  order) and, per account, in arrival order; each item's own outcome comes back (``ok``,
  ``refused``: tier or balance, ``conflict``: the key is taken). Nothing of a refused or
  conflicting item is written.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import cast

from quart import Response
from tortoise import connections
from tortoise.exceptions import IntegrityError, OperationalError
from tortoise.transactions import in_transaction

from astro_server.platform import db
from astro_server.platform.batching import LoopCoalescers, coalescer_for_loop
from astro_server.platform.billing import idempotency
from astro_server.platform.billing.ledger import (
    Charge,
    debit,
    forbidden_for_tier,
    insufficient_credits,
    refund,
)
from astro_server.platform.billing.pricing import OPERATIONS, TIERS, tier_allows
from astro_server.platform.errors import APIError
from astro_server.platform.models.billing import IdempotencyRecord
from astro_server.platform.outages import dependency_of

log = logging.getLogger("astro_server.billing")

# A key that expired between our failed claim and our read of it is claimed again, this often.
_CLAIM_ATTEMPTS = 5


@dataclass(frozen=True)
class Claimant:
    """Who is charged: the account, the credential that made the call and the request's id."""

    account_id: str
    credential_id: str | None
    request_id: str | None


async def claim_and_debit(
    claimant: Claimant,
    operation_name: str,
    cost: int,
    scope: idempotency.Scope | None,
    the_request_hash: str,
) -> tuple[Charge, int | None] | Response:
    """Claim the key (if any), check the tier and debit ``cost``: (charge, claim id), or the
    replay / 409 response for a key already used. Raises 403, 402 or 409 in progress."""
    if connections.get("default").capabilities.dialect == "postgres":
        return await _pg_claim_and_debit(claimant, operation_name, cost, scope, the_request_hash)
    # SQLite (one writer at a time): the same steps as one explicit transaction.
    for _ in range(_CLAIM_ATTEMPTS):
        try:
            async with in_transaction() as conn:
                record_id = None
                if scope is not None:
                    record_id = (await idempotency.claim(scope, the_request_hash, conn)).id
                ledger_id, balance = await debit(
                    conn,
                    claimant.account_id,
                    cost,
                    operation_name,
                    credential_id=claimant.credential_id,
                    request_id=claimant.request_id,
                )
                if record_id is not None and ledger_id is not None:
                    await (
                        IdempotencyRecord.filter(id=record_id)
                        .using_db(conn)
                        .update(ledger_entry_id=ledger_id)
                    )
        except IntegrityError:
            # The key is taken (or expired and not yet purged): read its record.
            assert scope is not None
            existing = await idempotency.find(scope)
            if existing is not None:
                return await idempotency.reject_or_replay(existing, the_request_hash)
            continue
        return Charge(claimant.account_id, operation_name, cost, ledger_id, balance), record_id
    raise _still_in_progress()


#: Refunds that failed because the database went away, retried in the background until it is
#: back (a task per refund, kept here so it is not collected).
_PENDING_REFUNDS: set[asyncio.Task[None]] = set()
#: How long a refund is retried (with backoff up to 5 s) before it is left to the operator.
REFUND_RETRY_S = 600.0


async def release_claim(charge: Charge, record_id: int | None, request_id: str | None) -> None:
    """Refund the request's debit (a ledger row; at most once) and release its key.

    When the database is down (the request failed because it went away after the debit), the
    refund cannot be written now: it is retried in the background until the database is back
    (at most :data:`REFUND_RETRY_S`), so the client's 503 is not charged; the error is raised as
    before. A refund is made at most once whatever happens (``refund_of`` is unique).
    """
    try:
        await _release(charge, record_id, request_id)
    except Exception as exc:
        if dependency_of(exc) is not None:
            task = asyncio.create_task(_release_later(charge, record_id, request_id))
            _PENDING_REFUNDS.add(task)
            task.add_done_callback(_PENDING_REFUNDS.discard)
        raise


async def _release_later(charge: Charge, record_id: int | None, request_id: str | None) -> None:
    deadline = time.monotonic() + REFUND_RETRY_S
    delay = 0.25
    while time.monotonic() < deadline:
        await asyncio.sleep(delay)
        delay = min(5.0, delay * 2)
        try:
            await _release(charge, record_id, request_id)
        except Exception as exc:
            if dependency_of(exc) is None:
                log.exception("refund of ledger entry %s failed", charge.ledger_entry_id)
                return
            continue
        log.warning(
            "refund of ledger entry %s made once the database was back", charge.ledger_entry_id
        )
        return
    log.error(
        "refund of ledger entry %s (%s credits, account %s) not made: the database did not come "
        "back within %.0f s; refund it by hand",
        charge.ledger_entry_id,
        charge.credits,
        charge.account_id,
        REFUND_RETRY_S,
    )


async def _release(charge: Charge, record_id: int | None, request_id: str | None) -> None:
    try:
        async with in_transaction() as conn:
            if charge.ledger_entry_id is not None and charge.credits > 0:
                await refund(
                    conn,
                    charge.account_id,
                    charge.ledger_entry_id,
                    charge.credits,
                    charge.operation,
                    request_id=request_id,
                )
            if record_id is not None:
                await idempotency.release(record_id, conn)
    except IntegrityError:
        log.warning("refund of ledger entry %s was already made", charge.ledger_entry_id)


#: Claims this process holds for requests still running (record id -> how many requests; one).
_HELD: dict[int, int] = {}


def hold(record_id: int | None) -> None:
    """The request of ``record_id`` is running here: :func:`renew_claim_leases` renews it."""
    if record_id is not None:
        _HELD[record_id] = _HELD.get(record_id, 0) + 1


def let_go(record_id: int | None) -> None:
    """The request of ``record_id`` finished (completed or released)."""
    if record_id is not None and record_id in _HELD:
        _HELD[record_id] -= 1
        if _HELD[record_id] <= 0:
            del _HELD[record_id]


async def renew_claim_leases(lease_s: float, stop: asyncio.Event) -> None:
    """The API process's heartbeat: every third of a lease, the claims of its running requests
    get a new lease (one UPDATE), so only the claims of a dead process run out
    (``ledger.refund_abandoned_claims``). A failure (the database away) is retried next beat."""
    interval = max(0.2, lease_s / 3)
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), interval)
        held = list(_HELD)
        if not held or stop.is_set():
            continue
        try:
            await IdempotencyRecord.filter(id__in=held, status="in_progress").update(
                lease_expires_at=datetime.now(UTC) + timedelta(seconds=lease_s)
            )
        except Exception as exc:
            if dependency_of(exc) is None:
                log.exception("renewing the leases of %d claims failed", len(held))


def _still_in_progress() -> APIError:
    return APIError(
        409,
        "The first request with this Idempotency-Key is still being processed.",
        error="idempotency_in_progress",
        headers={"Retry-After": str(idempotency.IN_PROGRESS_RETRY_AFTER_S)},
    )


# PostgreSQL: the batched call (see the module docstring).
_DEADLOCK_DETECTED = "40P01"


@dataclass(frozen=True)
class _ClaimItem:
    account_id: str
    credential_id: str | None
    scope: idempotency.Scope | None
    request_hash: str
    cost: int
    min_rank: int
    operation: str
    request_id: str | None


@dataclass(frozen=True)
class _ClaimOutcome:
    outcome: str
    claim_id: int | None
    balance: int | None
    ledger_id: int | None


async def _flush_claims(items: list[_ClaimItem]) -> list[_ClaimOutcome]:
    order = sorted(range(len(items)), key=lambda i: items[i].account_id)  # stable per account
    batch = [items[i] for i in order]
    now = datetime.now(UTC)
    args = [
        [item.account_id for item in batch],
        [item.credential_id for item in batch],
        [item.scope.method if item.scope else None for item in batch],
        [item.scope.path if item.scope else None for item in batch],
        [item.scope.key if item.scope else None for item in batch],
        [item.request_hash for item in batch],
        [item.cost for item in batch],
        [item.min_rank for item in batch],
        [item.operation for item in batch],
        [item.request_id for item in batch],
        list(TIERS),
        now,
        now + idempotency.REPLAY_WINDOW,
    ]
    conn = connections.get("default")
    for attempt in range(3):
        try:
            rows = await conn.execute_query_dict(_PG_CLAIM_BATCH, args)
            break
        except OperationalError as exc:
            # Another process's transaction on the same keys (jobs, refunds) can still cross
            # ours: PostgreSQL aborts one of the two, and the batch is simply sent again.
            if getattr(exc.__cause__, "sqlstate", None) != _DEADLOCK_DETECTED or attempt == 2:
                raise
    outcomes: list[_ClaimOutcome | None] = [None] * len(items)
    for index, row in zip(order, rows, strict=True):
        outcomes[index] = _ClaimOutcome(
            row["outcome"], row["claim_id"], row["balance"], row["ledger_id"]
        )
    return cast(list[_ClaimOutcome], outcomes)


_PG_CLAIM_BATCH = (
    "SELECT outcome, claim_id, balance, ledger_id FROM astro_claim_and_debit("
    "$1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], "
    "$8::int[], $9::text[], $10::text[], $11::text[], $12::timestamptz, $13::timestamptz)"
)
_claim_batches: LoopCoalescers[_ClaimItem, _ClaimOutcome] = weakref.WeakKeyDictionary()


# Refunds of claims whose request was cancelled (client gone) while its batch was in flight.
_orphan_refunds: set[asyncio.Task[None]] = set()


async def _submit_claim(item: _ClaimItem) -> _ClaimOutcome:
    """Claim in the current batch. A request cancelled meanwhile (its client went away) cannot
    take its item out of a batch already sent: when that batch debited it, the debit is
    refunded and the key released, so nothing is charged for a request that never ran."""
    future = coalescer_for_loop(_claim_batches, _flush_claims).enqueue(item)
    try:
        return await asyncio.shield(future)
    except asyncio.CancelledError:
        future.add_done_callback(partial(_refund_orphaned_claim, item))
        raise


def _refund_orphaned_claim(item: _ClaimItem, future: asyncio.Future[_ClaimOutcome]) -> None:
    if future.cancelled() or future.exception() is not None:
        return
    outcome = future.result()
    if outcome.outcome != "ok" or outcome.balance is None:
        return
    charge = Charge(item.account_id, item.operation, item.cost, outcome.ledger_id, outcome.balance)
    task = asyncio.get_running_loop().create_task(
        release_claim(charge, outcome.claim_id, item.request_id)
    )
    _orphan_refunds.add(task)
    task.add_done_callback(_orphan_refunds.discard)


async def _pg_claim_and_debit(
    claimant: Claimant,
    operation_name: str,
    cost: int,
    scope: idempotency.Scope | None,
    the_request_hash: str,
) -> tuple[Charge, int | None] | Response:
    op = OPERATIONS[operation_name]
    item = _ClaimItem(
        claimant.account_id,
        claimant.credential_id,
        scope,
        the_request_hash,
        cost,
        TIERS.index(op.tier) + 1,  # array_position() in SQL counts from 1
        operation_name,
        claimant.request_id,
    )
    for _ in range(_CLAIM_ATTEMPTS):
        result = await _submit_claim(item)
        if result.outcome == "refused":
            raise await _refusal(claimant.account_id, operation_name, cost)
        if result.outcome == "conflict":
            assert scope is not None
            existing = await idempotency.find(scope)
            if existing is not None:
                return await idempotency.reject_or_replay(existing, the_request_hash)
            continue  # it expired and was just removed: claim again
        assert result.balance is not None
        charge = Charge(claimant.account_id, operation_name, cost, result.ledger_id, result.balance)
        return charge, result.claim_id
    raise _still_in_progress()


async def _refusal(account_id: str, operation_name: str, cost: int) -> APIError:
    op = OPERATIONS[operation_name]
    rows = await db.fetch("SELECT tier, credits FROM accounts WHERE id = ?", [account_id])
    tier = str(rows[0]["tier"]) if rows else "none"
    if not tier_allows(tier, op.tier):
        return forbidden_for_tier(operation_name, op, tier)
    return insufficient_credits(operation_name, cost, int(rows[0]["credits"]) if rows else 0)
