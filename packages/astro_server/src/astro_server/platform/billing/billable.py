"""Tiers, credits and the ledger; ``@billable`` puts a route behind them.

``@billable(operation, quantity=None)`` (stack it under ``require_api_key``/``require_session``
and above ``validate_request``) does, before the handler runs:

1. validates the JSON body against the route's ``validate_request`` model (a 400 costs nothing),
   after replacing each ``{"profile_id": ...}`` by that profile's birth subject
   (``features/profiles/service.py``: the one place every subject-taking route gets references),
   and computes the price from :data:`astro_server.platform.billing.pricing.OPERATIONS`
   (``quantity(model)`` units for per-unit operations);
2. in ONE database transaction: the tier check (403 ``forbidden`` naming the tier needed), the
   idempotency claim (``Idempotency-Key`` header, optional), the conditional debit
   ``UPDATE accounts SET credits = credits - cost WHERE id = ? AND credits >= cost`` (402
   ``payment_required`` code ``"402"`` when short; never read-then-write), and the debit's ledger
   row.

After the handler: ``X-Credits-Charged``, ``X-Credits-Remaining`` and ``X-Credits-Price`` (what
the call costs) on the response, and the response stored for idempotent replay. A handler that
raises or answers 4xx/5xx after the debit is refunded (a ledger row) and releases its
idempotency key, so nothing is lost.

The handler can read the charge with :func:`current_charge` (``enqueue_job`` does, so a queued job
knows what to refund if it fails).

Test mode (a test key, ``g.livemode`` False): the same steps with a cost of 0, so the tier check,
idempotency and the handler run for real, nothing is debited and no ledger row is written
(``X-Credits-Charged: 0``, ``X-Credits-Price`` the live price).

Each ledger row records ``balance_after``, the balance its change left (the debit's own UPDATE
... RETURNING gives it: no extra read).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import partial, wraps
from typing import Any, TypeVar, cast

from pydantic import BaseModel, ValidationError
from quart import Response, current_app, g, has_request_context, request
from quart_schema import (
    DataSource,
    RequestSchemaValidationError,
    document_response,
    validate_request,
)
from quart_schema.conversion import model_load
from quart_schema.validation import QUART_SCHEMA_REQUEST_ATTRIBUTE
from tortoise import connections
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.exceptions import IntegrityError, OperationalError
from tortoise.transactions import in_transaction

from astro_server.features.profiles.service import resolve_references
from astro_server.platform import db, metrics
from astro_server.platform.batching import LoopCoalescers, coalescer_for_loop
from astro_server.platform.billing import idempotency
from astro_server.platform.billing.pricing import OPERATIONS, TIERS, Operation, price, tier_allows
from astro_server.platform.errors import APIError, payment_required
from astro_server.platform.models.accounts import Account
from astro_server.platform.models.billing import IdempotencyRecord, LedgerEntry
from astro_server.platform.runtime import platform
from astro_server.platform.schemas import ErrorBody

log = logging.getLogger("astro_server.billing")
F = TypeVar("F", bound=Callable[..., Awaitable[Any]])


@dataclass(frozen=True)
class Charge:
    """What one request paid: read it in a handler with :func:`current_charge`."""

    account_id: str
    operation: str
    credits: int
    ledger_entry_id: int | None
    balance_after: int


def current_charge() -> Charge | None:
    charge = getattr(g, "charge", None)
    return charge if isinstance(charge, Charge) else None


def forbidden_for_tier(operation_name: str, op: Operation, tier: str) -> APIError:
    return APIError(
        403,
        f"Operation {operation_name!r} needs the {op.tier!r} tier or higher; "
        f"this account is on {tier!r}.",
        error="forbidden",
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


async def _refund_request(
    charge: Charge, record_id: int | None, request_id: str | None = None
) -> None:
    if request_id is None and has_request_context():
        request_id = getattr(g, "request_id", None)
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


# PostgreSQL: the claim, tier check, conditional debit and ledger row of every request that
# arrived while the previous call was running go to the database together, as ONE call of the
# ``astro_claim_and_debit`` function (migration 0005): one round trip and one commit serve the
# batch, and an account's row lock is taken once per batch instead of once per request. Alone, a
# request is sent at once (no waiting for company). Items are processed in account order (so two
# processes lock accounts in the same order) and, per account, in arrival order; each item's own
# outcome comes back ("ok", "refused": tier or balance, "conflict": the key is taken). Nothing of
# a refused or conflicting item is written.
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
        _refund_request(charge, outcome.claim_id, item.request_id)
    )
    _orphan_refunds.add(task)
    task.add_done_callback(_orphan_refunds.discard)


async def _pg_claim_and_debit(
    operation_name: str, cost: int, scope: idempotency.Scope | None, the_request_hash: str
) -> tuple[Charge, int | None] | Response:
    account: Account = g.account
    op = OPERATIONS[operation_name]
    item = _ClaimItem(
        account.id,
        g.credential_id,
        scope,
        the_request_hash,
        cost,
        TIERS.index(op.tier) + 1,  # array_position() in SQL counts from 1
        operation_name,
        getattr(g, "request_id", None),
    )
    for _ in range(5):
        result = await _submit_claim(item)
        if result.outcome == "refused":
            raise await _refusal(operation_name, cost)
        if result.outcome == "conflict":
            assert scope is not None
            existing = await idempotency.find(scope)
            if existing is not None:
                return idempotency.reject_or_replay(existing, the_request_hash)
            continue  # it expired and was just removed: claim again
        assert result.balance is not None
        charge = Charge(account.id, operation_name, cost, result.ledger_id, result.balance)
        return charge, result.claim_id
    raise _still_in_progress()


async def _refusal(operation_name: str, cost: int) -> APIError:
    op = OPERATIONS[operation_name]
    rows = await db.fetch("SELECT tier, credits FROM accounts WHERE id = ?", [g.account.id])
    tier = str(rows[0]["tier"]) if rows else "none"
    if not tier_allows(tier, op.tier):
        return forbidden_for_tier(operation_name, op, tier)
    return insufficient_credits(operation_name, cost, int(rows[0]["credits"]) if rows else 0)


def _credits(count: int) -> str:
    return f"{count} credit" if count == 1 else f"{count} credits"


def insufficient_credits(operation: str, cost: int, balance: int) -> APIError:
    """402 naming the price and the balance: ``Insufficient credits: 'vedic.dasha' costs
    1 credit; the balance is 0.`` (the same figures an estimate gives)."""
    return payment_required(
        f"Insufficient credits: {operation!r} costs {_credits(cost)}; the balance is {balance}."
    )


def _still_in_progress() -> APIError:
    return APIError(
        409,
        "The first request with this Idempotency-Key is still being processed.",
        error="idempotency_in_progress",
        headers={"Retry-After": str(idempotency.IN_PROGRESS_RETRY_AFTER_S)},
    )


async def _claim_and_debit(
    operation_name: str, cost: int, scope: idempotency.Scope | None, the_request_hash: str
) -> tuple[Charge, int | None] | Response:
    if connections.get("default").capabilities.dialect == "postgres":
        return await _pg_claim_and_debit(operation_name, cost, scope, the_request_hash)
    # SQLite (one writer at a time): the same steps as one explicit transaction.
    account: Account = g.account
    for _ in range(5):
        try:
            async with in_transaction() as conn:
                record_id = None
                if scope is not None:
                    record_id = (await idempotency.claim(scope, the_request_hash, conn)).id
                ledger_id, balance = await debit(
                    conn,
                    account.id,
                    cost,
                    operation_name,
                    credential_id=g.credential_id,
                    request_id=getattr(g, "request_id", None),
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
                return idempotency.reject_or_replay(existing, the_request_hash)
            continue
        return Charge(account.id, operation_name, cost, ledger_id, balance), record_id
    raise _still_in_progress()


def _credit_headers(charged: int, remaining: int, price_: int) -> dict[str, str]:
    return {
        "X-Credits-Charged": str(charged),
        "X-Credits-Remaining": str(remaining),
        "X-Credits-Price": str(price_),
    }


async def _load_body_model(schema: tuple[Any, DataSource] | None) -> Any:
    if schema is None:
        return None
    model_class, source = schema[0], schema[1]
    if source != DataSource.JSON:
        return None
    if not request.is_json:
        raise APIError(415, "Send the body as JSON with Content-Type: application/json.")
    if _is_pydantic_model(model_class) and not current_app.config["QUART_SCHEMA_CONVERT_CASING"]:
        # Strict, from the JSON text: a value must have the documented JSON type, so "13.7" is
        # not a number, 0 is not a date and false is not an integer (lax mode took them, found
        # by schemathesis); dates and instants are read from their ISO 8601 strings. The body is
        # parsed once; Quart's own reading (request.get_json) runs only for the bodies it
        # answers itself: one holding an escaped NUL (named, 400) or one refused as a whole
        # (not JSON: 400 bad_request).
        raw = await request.get_data(as_text=False)
        assert isinstance(raw, bytes)
        if b"\\u0000" in raw:
            await request.get_json()
        # {"profile_id": ...} in place of a birth subject: the profile's subject, before
        # validation (features/profiles/service.py); an unknown profile is a 400 before any debit.
        raw = await resolve_references(
            raw,
            account_id=g.account.id,
            livemode=bool(getattr(g, "livemode", True)),
            key_generation=platform().key_generation_seen,
        )
        try:
            return model_class.model_validate_json(raw, strict=True)
        except ValidationError as error:
            if any(not detail["loc"] for detail in error.errors()):
                await request.get_json()
            raise RequestSchemaValidationError(error) from None
        except TypeError as error:
            raise RequestSchemaValidationError(error) from None
    data = await request.get_json()  # a body that is not JSON is a 400 bad_request here
    return model_load(
        data,
        model_class,
        RequestSchemaValidationError,
        decamelize=current_app.config["QUART_SCHEMA_CONVERT_CASING"],
        preference=current_app.config["QUART_SCHEMA_CONVERSION_PREFERENCE"],
    )


def _is_pydantic_model(model_class: Any) -> bool:
    return isinstance(model_class, type) and issubclass(model_class, BaseModel)


class _Probe(BaseModel):
    pass


async def _probe(data: _Probe) -> None:
    return None


# Every wrapper made by quart-schema's validate_request shares this code object.
_VALIDATE_REQUEST_CODE = validate_request(_Probe)(_probe).__code__


def _unvalidated(func: Callable[..., Any]) -> Callable[..., Any] | None:
    """The handler under ``validate_request`` when ``func`` is exactly that wrapper: billable has
    validated the body already and passes it on as ``data`` (as the wrapper would)."""
    inner = getattr(func, "__wrapped__", None)
    if getattr(func, "__code__", None) is _VALIDATE_REQUEST_CODE and callable(inner):
        return cast(Callable[..., Any], inner)
    return None


def billable(
    operation: str,
    quantity: Callable[[Any], int] | None = None,
    *,
    variant: Callable[[Any], str] | None = None,
) -> Callable[[F], F]:
    """Route decorator: charge ``operation`` from the price table (see module docstring).

    ``quantity`` receives the validated request model and returns the unit count of a per-unit
    operation (``lambda body: len(body.records)``). ``variant`` receives it too and returns the
    operation this request is charged as instead (a row of the same table, e.g.
    ``western.natal.interpretations_full`` for a request asking for interpretations): its tier
    is checked (403 naming it) and its price debited; the ledger row names it.
    """
    op = OPERATIONS[operation]  # a missing row fails at import, not at the first request

    def decorator(func: F) -> F:
        schema = getattr(func, QUART_SCHEMA_REQUEST_ATTRIBUTE, None)
        json_schema = schema is not None and schema[1] == DataSource.JSON
        handler = _unvalidated(func) if json_schema else None

        @wraps(func)
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            if request.method == "HEAD":
                # Quart answers HEAD with the GET handler and drops the body: a billable GET
                # would charge for nothing (link checkers and proxies send HEAD freely).
                raise APIError(
                    405,
                    "HEAD is not served on billable routes: it would charge credits for no body; "
                    "send GET.",
                    headers={"Allow": "GET"},
                )
            account: Account = g.account
            if not tier_allows(account.tier, op.tier):
                raise forbidden_for_tier(operation, op, account.tier)
            model = await _load_body_model(schema)
            charged_as = operation
            charged_op = op
            if variant is not None and model is not None:
                charged_as = variant(model)
                charged_op = OPERATIONS[charged_as]
                if not tier_allows(account.tier, charged_op.tier):
                    raise forbidden_for_tier(charged_as, charged_op, account.tier)
            units = quantity(model) if quantity is not None and model is not None else 1
            list_price = price(charged_op, units)
            # Test keys run the call for real and debit nothing (see module docstring).
            cost = list_price if getattr(g, "livemode", True) else 0
            key = request.headers.get("Idempotency-Key")
            scope = None
            if key is not None:
                scope = idempotency.Scope(
                    g.credential_id, request.method, request.path, idempotency.validate_key(key)
                )
            the_hash = idempotency.request_hash(
                request.method,
                request.path,
                await request.get_data(as_text=False),
                idempotency.canonical_query(request.args.items(multi=True)),
            )
            claimed = await _claim_and_debit(charged_as, cost, scope, the_hash)
            if isinstance(claimed, Response):
                claimed.headers["X-Credits-Charged"] = "0"
                claimed.headers["X-Credits-Price"] = str(list_price)
                # g.account may come from a cached key lookup: read the balance (replays are rare).
                rows = await db.fetch("SELECT credits FROM accounts WHERE id = ?", [account.id])
                claimed.headers["X-Credits-Remaining"] = str(rows[0]["credits"] if rows else 0)
                return claimed
            charge, record_id = claimed
            g.charge = charge
            try:
                if handler is not None and model is not None:
                    result = await current_app.ensure_async(handler)(*args, data=model, **kwargs)
                else:
                    result = await current_app.ensure_async(func)(*args, **kwargs)
                response = cast(Response, await current_app.make_response(result))
            except BaseException:
                await _refund_request(charge, record_id)
                # The error response (built by the app's handlers) still says what was charged.
                g.credit_headers = _credit_headers(0, charge.balance_after + cost, list_price)
                raise
            if response.status_code >= 400:
                await _refund_request(charge, record_id)
                response.headers.update(_credit_headers(0, charge.balance_after + cost, list_price))
                return response
            response.headers.update(_credit_headers(cost, charge.balance_after, list_price))
            if record_id is not None:
                await idempotency.complete(record_id, response)
            if cost:
                metrics.CREDITS_CHARGED.labels(operation=charged_as).inc(cost)
            return response

        for status in (402, 403, 409):
            document_response(ErrorBody, status)(wrapper)
        return cast(F, wrapper)

    return decorator


async def refund_abandoned_claims(older_than: timedelta = timedelta(minutes=10)) -> int:
    """Refund debits whose request never finished (the API process died mid-request).

    An in-progress idempotency record older than ``older_than`` belongs to a request that is no
    longer running; its debit is refunded (once) and the key released. Run by the scheduler.
    """
    cutoff = datetime.now(UTC) - older_than
    stale = await IdempotencyRecord.filter(status="in_progress", created_at__lt=cutoff)
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
