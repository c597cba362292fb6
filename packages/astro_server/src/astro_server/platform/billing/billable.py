"""``@billable``: the request pipeline of every route that costs credits.

Use it under ``require_api_key``/``require_session`` and give it the body model itself::

    @bp.post("/western/natal")
    @require_api_key
    @billable("western.natal", body=NatalRequest, variant=interpretation_variant("western.natal"))
    @document_response(NatalChart, 200)
    async def natal(data: NatalRequest) -> Response: ...

It owns the body: there is no ``@validate_request`` to stack (``@billable`` over a function that
already has a request schema raises at import), so no decorator order can skip the price. A GET
route has no body; its ``@validate_querystring`` stays below ``@billable``. The OpenAPI document
shows the body as ``validate_request`` would (the same quart-schema attribute), plus the 402,
403 and 409 error responses.

Every request runs these steps, in this order; a step that refuses answers at once, and nothing
is charged before step 6:

1. HEAD is refused (405, ``Allow: GET``): Quart would run the GET handler and drop its body,
   charging for nothing.
2. The caller's tier must allow ``operation`` (403 ``forbidden`` naming the tier needed).
3. The body (``body=`` only) is read and validated: 415 for another content type, 400 naming
   the fields; ``{"profile_id": ...}`` references are replaced by the profile's birth subject
   before validation (:mod:`astro_server.platform.billing.body`).
4. The price: ``variant(model)`` names the operation the request is charged as instead (its
   tier checked as in step 2), ``quantity(model)`` the units of a per-unit operation; the list
   price comes from :data:`astro_server.platform.billing.pricing.OPERATIONS`. A test key
   (``caller.livemode`` False) pays 0 and runs everything else for real.
5. The ``Idempotency-Key`` header (optional) is checked (400) and the request hash taken
   (method, path, canonical query, body).
6. In one database transaction (:mod:`astro_server.platform.billing.claims`): the key's claim,
   the tier check again and the conditional debit with its ledger row (402 when short). A key
   already used replays its first response or answers 409, charging nothing.
7. The handler runs, with ``data=`` the validated model (and ``caller=`` the
   :class:`~astro_server.platform.caller.Caller` when its signature declares ``caller``, as the
   guards pass it); it can read the charge with
   :func:`current_charge` (``enqueue_job`` does, so a
   queued job knows what to refund if it fails).
8. A handler that raises (its client gone included) or answers 4xx/5xx is refunded (a ledger
   row) and its key released, at once, and the work it started under the charge is undone (the
   job it queued is canceled: :mod:`astro_server.platform.billing.undo`); otherwise the
   response is stored for replay under its key. Either way it carries
   ``X-Credits-Charged``, ``X-Credits-Remaining`` and ``X-Credits-Price`` (the list price).

The route's price-table row is on the wrapper as :data:`BILLABLE_ATTRIBUTE` (a
:class:`Billed`), and ``functools.wraps`` carries it onto the decorators above; the OpenAPI
billing note and the MCP tool descriptions read it with :func:`billed`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any, Final, TypeVar, cast

from quart import Response, current_app, g, request
from quart_schema import DataSource, document_response
from quart_schema.validation import QUART_SCHEMA_REQUEST_ATTRIBUTE

from astro_server.platform import db, metrics
from astro_server.platform.billing import idempotency, undo
from astro_server.platform.billing.body import load_body
from astro_server.platform.billing.claims import (
    Claimant,
    claim_and_debit,
    hold,
    let_go,
    release_claim,
)
from astro_server.platform.billing.ledger import Charge, forbidden_for_tier
from astro_server.platform.billing.pricing import OPERATIONS, Operation, price, tier_allows
from astro_server.platform.errors import APIError
from astro_server.platform.handler_args import current_caller, wants_caller
from astro_server.platform.schemas import ErrorBody

F = TypeVar("F", bound=Callable[..., Awaitable[Any]])
#: The attribute of a ``@billable`` route handler holding its :class:`Billed`.
BILLABLE_ATTRIBUTE: Final = "_astro_billable"


@dataclass(frozen=True)
class Billed:
    """What ``@billable`` charges a route as: the price table's row and its name (a request's
    ``variant`` may charge another row of the same table; this is the route's own)."""

    operation: str
    row: Operation


def billed(view: Any) -> Billed | None:
    """The :class:`Billed` of a route handler, through decorators that do not copy attributes
    (``__wrapped__``); ``None`` for a route that costs nothing."""
    func: Any = view
    while func is not None:
        found = getattr(func, BILLABLE_ATTRIBUTE, None)
        if isinstance(found, Billed):
            return found
        func = getattr(func, "__wrapped__", None)
    return None


def billable(
    operation: str,
    *,
    body: type[Any] | None = None,
    quantity: Callable[[Any], int] | None = None,
    variant: Callable[[Any], str] | None = None,
) -> Callable[[F], F]:
    """Route decorator: validate ``body``, price, charge ``operation``, run (module docstring).

    ``body`` is the request's JSON body model; the handler receives the validated instance as
    ``data``. ``quantity`` receives it and returns the unit count of a per-unit operation
    (``lambda body: len(body.records)``). ``variant`` receives it too and returns the operation
    this request is charged as instead (a row of the same table, e.g.
    ``western.natal.interpretations_full`` for a request asking for interpretations): its tier
    is checked (403 naming it) and its price debited; the ledger row names it.
    """
    op = OPERATIONS[operation]  # a missing row fails at import, not at the first request
    if body is None and (quantity is not None or variant is not None):
        raise TypeError(
            f"@billable({operation!r}): quantity and variant read the request body; "
            "pass its model as body="
        )

    def decorator(func: F) -> F:
        inject = wants_caller(func)
        if getattr(func, QUART_SCHEMA_REQUEST_ATTRIBUTE, None) is not None:
            raise TypeError(
                f"@billable({operation!r}) over {func.__qualname__}, which already has a request "
                "schema (validate_request): pass the model as @billable(..., body=Model) and "
                "remove validate_request, so that the body is validated and priced in one place"
            )

        @wraps(func)
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            if "data" in kwargs:
                raise TypeError(
                    f"validate_request above @billable({operation!r}) on {func.__qualname__}: "
                    "pass the model as @billable(..., body=Model) instead"
                )
            # 1. HEAD
            if request.method == "HEAD":
                raise APIError(
                    405,
                    "HEAD is not served on billable routes: it would charge credits for no body; "
                    "send GET.",
                    headers={"Allow": "GET"},
                )
            # 2. The operation's tier (from the caller's account as authenticated).
            caller = current_caller()
            if not tier_allows(caller.tier, op.tier):
                raise forbidden_for_tier(operation, op, caller.tier)
            # 3. The body.
            model = await load_body(body) if body is not None else None
            # 4. The price.
            charged_as = operation
            charged_op = op
            if variant is not None:
                charged_as = variant(model)
                charged_op = OPERATIONS[charged_as]
                if not tier_allows(caller.tier, charged_op.tier):
                    raise forbidden_for_tier(charged_as, charged_op, caller.tier)
            units = quantity(model) if quantity is not None else 1
            list_price = price(charged_op, units)
            cost = list_price if caller.livemode else 0
            # 5. The idempotency key and the request hash.
            key = request.headers.get("Idempotency-Key")
            scope = None
            if key is not None:
                scope = idempotency.Scope(
                    caller.credential_id,
                    request.method,
                    request.path,
                    idempotency.validate_key(key),
                )
            the_hash = idempotency.request_hash(
                request.method,
                request.path,
                await request.get_data(as_text=False),
                idempotency.canonical_query(request.args.items(multi=True)),
            )
            # 6. Claim and debit.
            request_id = caller.request_id
            claimant = Claimant(caller.account_id, caller.credential_id, request_id)
            claimed = await claim_and_debit(claimant, charged_as, cost, scope, the_hash)
            if isinstance(claimed, Response):
                claimed.headers["X-Credits-Charged"] = "0"
                claimed.headers["X-Credits-Price"] = str(list_price)
                # The caller may come from a cached key lookup: read the balance (replays are rare).
                rows = await db.fetch(
                    "SELECT credits FROM accounts WHERE id = ?", [caller.account_id]
                )
                claimed.headers["X-Credits-Remaining"] = str(rows[0]["credits"] if rows else 0)
                return claimed
            charge, record_id = claimed
            hold(record_id)  # its lease is renewed while it runs here
            try:
                g.charge = charge
                # 7. The handler.
                if model is not None:
                    kwargs["data"] = model
                if inject:
                    kwargs.setdefault("caller", caller)
                started, token = undo.collect()
                try:
                    result = await current_app.ensure_async(func)(*args, **kwargs)
                    response = cast(Response, await current_app.make_response(result))
                except BaseException:
                    # 8. Refund and undo; the error response (built by the app's handlers) still
                    # says what was charged.
                    await _refund_and_undo(charge, record_id, request_id, started)
                    g.credit_headers = _credit_headers(0, charge.balance_after + cost, list_price)
                    raise
                finally:
                    undo.finish(token)
                # 8. Refund a failure, or keep the response for replay.
                if response.status_code >= 400:
                    await _refund_and_undo(charge, record_id, request_id, started)
                    response.headers.update(
                        _credit_headers(0, charge.balance_after + cost, list_price)
                    )
                    return response
                response.headers.update(_credit_headers(cost, charge.balance_after, list_price))
                if record_id is not None:
                    await idempotency.complete(record_id, response, caller.account_id)
                if cost:
                    metrics.CREDITS_CHARGED.labels(operation=charged_as).inc(cost)
                return response
            finally:
                let_go(record_id)

        if body is not None:
            # What validate_request records: the OpenAPI document reads the body schema here.
            setattr(wrapper, QUART_SCHEMA_REQUEST_ATTRIBUTE, (body, DataSource.JSON))
        setattr(wrapper, BILLABLE_ATTRIBUTE, Billed(operation, op))
        for status in (402, 403, 409):
            document_response(ErrorBody, status)(wrapper)
        return cast(F, wrapper)

    return decorator


async def _refund_and_undo(
    charge: Charge, record_id: int | None, request_id: str | None, started: list[undo.Undo]
) -> None:
    """The refund first (it retries in the background when the database is gone), then the
    undo of the work started under the charge, even when the refund raised."""
    try:
        await release_claim(charge, record_id, request_id)
    finally:
        await undo.undo(started)


def current_charge() -> Charge | None:
    """The charge of the request being served (set by ``@billable`` before its handler runs);
    a route hands it to the service that queues the job it pays for."""
    charge = getattr(g, "charge", None)
    return charge if isinstance(charge, Charge) else None


def _credit_headers(charged: int, remaining: int, price_: int) -> dict[str, str]:
    return {
        "X-Credits-Charged": str(charged),
        "X-Credits-Remaining": str(remaining),
        "X-Credits-Price": str(price_),
    }
