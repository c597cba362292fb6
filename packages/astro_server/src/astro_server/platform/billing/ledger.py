"""The credit ledger: every change of an account's balance, one row each.

Rules (the billable pipeline, the job runner, the CLI and the scheduler all keep them):

1. The balance lives in ``accounts.credits``; every change of it writes one ``ledger_entries``
   row in the same transaction: ``debit`` (negative amount), ``refund`` (positive) or
   ``top_up`` (positive). The rows of an account sum to its balance.
2. A debit is one conditional UPDATE, never read-then-write:
   ``UPDATE accounts SET credits = credits - cost WHERE id = ? AND credits >= cost AND tier IN
   (the tiers allowed)``. When no row changes, one read says why: the tier (403 ``forbidden``,
   :func:`forbidden_for_tier`) or the balance (402 ``payment_required``,
   :func:`insufficient_credits`). The balance never goes below zero.
3. A debit of 0 credits (a test key, ``livemode`` False) checks the tier and writes no row.
4. A refund names the debit it gives back (``refund_of``, unique): a debit is refunded at most
   once; a second refund fails with IntegrityError and its transaction changes nothing.
5. Each row records ``balance_after``, the balance its change left (read from the UPDATE's
   ``RETURNING``: no extra read).
6. A debit whose request never finished (its in-progress idempotency record's lease ran out:
   the process died) is refunded by :func:`refund_abandoned_claims` (scheduler).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.exceptions import IntegrityError
from tortoise.expressions import Q
from tortoise.transactions import in_transaction

from astro_server.platform import db
from astro_server.platform.billing import idempotency
from astro_server.platform.billing.pricing import OPERATIONS, TIERS, Operation, tier_allows
from astro_server.platform.errors import APIError, payment_required
from astro_server.platform.models.billing import IdempotencyRecord, LedgerEntry


@dataclass(frozen=True)
class Charge:
    """What one request paid (a route reads it with ``billable.current_charge()``)."""

    account_id: str
    operation: str
    credits: int
    ledger_entry_id: int | None
    balance_after: int


def forbidden_for_tier(operation_name: str, op: Operation, tier: str) -> APIError:
    """403 ``forbidden`` naming the tier the operation needs and the account's own."""
    return APIError(
        403,
        f"Operation {operation_name!r} needs the {op.tier!r} tier or higher; "
        f"this account is on {tier!r}.",
        error="forbidden",
        code="tier_required",  # a client tells this from a role's refusal (the portal does)
    )


def _credits(count: int) -> str:
    return f"{count} credit" if count == 1 else f"{count} credits"


def insufficient_credits(operation: str, cost: int, balance: int) -> APIError:
    """402 naming the price and the balance: ``Insufficient credits: 'vedic.dasha' costs
    1 credit; the balance is 0.`` (the same figures an estimate gives)."""
    return payment_required(
        f"Insufficient credits: {operation!r} costs {_credits(cost)}; the balance is {balance}."
    )


async def debit(
    conn: BaseDBAsyncClient,
    account_id: str,
    credits: int,
    operation: str,
    *,
    credential_id: str | None = None,
    request_id: str | None = None,
) -> tuple[int | None, int]:
    """Tier check, conditional debit and ledger row; returns (ledger id, balance after).

    One UPDATE decides both: the row changes only if the account's tier allows the operation
    and the balance covers the cost, so a concurrent tier change or debit cannot slip between a
    read and a write. Raises 403 ``forbidden`` or 402 ``payment_required``.
    """
    op = OPERATIONS[operation]
    allowed = [t for t in TIERS if tier_allows(t, op.tier)]
    marks = ", ".join("?" for _ in allowed)
    rows = await db.fetch(
        f"UPDATE accounts SET credits = credits - ? "  # noqa: S608 (placeholders only)
        f"WHERE id = ? AND credits >= ? AND tier IN ({marks}) RETURNING credits",
        [credits, account_id, credits, *allowed],
        conn,
    )
    if not rows:
        current = await db.fetch(
            "SELECT tier, credits FROM accounts WHERE id = ?", [account_id], conn
        )
        tier = str(current[0]["tier"]) if current else "none"
        if not tier_allows(tier, op.tier):
            raise forbidden_for_tier(operation, op, tier)
        balance = int(current[0]["credits"]) if current else 0
        raise insufficient_credits(operation, credits, balance)
    if credits == 0:
        return None, int(rows[0]["credits"])
    balance = int(rows[0]["credits"])
    entry = await LedgerEntry.create(
        account_id=account_id,
        kind="debit",
        amount=-credits,
        operation=operation,
        credential_id=credential_id,
        request_id=request_id,
        balance_after=balance,
        using_db=conn,
    )
    return entry.id, balance


async def refund(
    conn: BaseDBAsyncClient,
    account_id: str,
    debit_entry_id: int,
    credits: int,
    operation: str,
    *,
    job_id: str | None = None,
    request_id: str | None = None,
) -> bool:
    """Give back one debit, at most once (the ledger's unique ``refund_of``); True if refunded.

    Call inside a transaction you own: on a second refund of the same debit the INSERT fails,
    raising IntegrityError, and the caller's transaction is rolled back with nothing changed.
    """
    rows = await db.fetch(
        "UPDATE accounts SET credits = credits + ? WHERE id = ? RETURNING credits",
        [credits, account_id],
        conn,
    )
    await LedgerEntry.create(
        account_id=account_id,
        kind="refund",
        amount=credits,
        operation=operation,
        job_id=job_id,
        request_id=request_id,
        refund_of=debit_entry_id,
        balance_after=int(rows[0]["credits"]) if rows else None,
        using_db=conn,
    )
    return True


async def add_credits(account_id: str, credits: int, note: str = "top_up") -> int:
    """Top up an account (CLI ``add-credits``); a ledger row; returns the new balance."""
    if credits <= 0:
        raise ValueError("credits must be positive")
    async with in_transaction() as conn:
        rows = await db.fetch(
            "UPDATE accounts SET credits = credits + ? WHERE id = ? RETURNING credits",
            [credits, account_id],
            conn,
        )
        if not rows:
            raise LookupError(f"no account {account_id}")
        await LedgerEntry.create(
            account_id=account_id,
            kind="top_up",
            amount=credits,
            operation=note,
            balance_after=int(rows[0]["credits"]),
            using_db=conn,
        )
    return int(rows[0]["credits"])


async def refund_abandoned_claims(lease: timedelta) -> int:
    """Refund debits whose request never finished (the API process died mid-request).

    An in-progress idempotency record whose lease ran out belongs to a request that is no
    longer running: its process renews the lease of every claim it holds while the request
    runs (:func:`astro_server.platform.billing.claims.renew_claim_leases`), and a record never
    renewed holds it for ``lease`` from its creation. Its debit is refunded (once) and the key
    released. Run by the scheduler every few seconds.
    """
    now = datetime.now(UTC)
    stale = await IdempotencyRecord.filter(
        Q(lease_expires_at__lt=now) | Q(lease_expires_at__isnull=True, created_at__lt=now - lease),
        status="in_progress",
    )
    refunded = 0
    for record in stale:
        entry = (
            await LedgerEntry.get_or_none(id=record.ledger_entry_id)
            if record.ledger_entry_id is not None
            else None
        )
        try:
            async with in_transaction() as conn:
                if entry is not None:
                    await refund(conn, entry.account_id, entry.id, -entry.amount, entry.operation)
                    refunded += 1
                await idempotency.release(record.id, conn)
        except IntegrityError:
            await idempotency.release(record.id)
    return refunded
