"""The audit log: :func:`record_audit` appends one row; :func:`list_events` reads them.

Features call ``record_audit(action, object_id)`` inside a request (the actor, account, mode,
request id and client address come from the request), or pass them explicitly (the operator
CLI). Actions are ``<object>.<verb>``: ``key.created``, ``key.rotated``, ``key.revoked`` today;
profiles, team, brand profiles and webhooks add theirs. Never pass a secret or a personal field:
the row holds ids and names of actions only.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from quart import g, has_request_context, request
from tortoise.backends.base.client import BaseDBAsyncClient

from astro_server.platform import clock
from astro_server.platform.errors import APIError
from astro_server.platform.models.audit import AuditEvent

OPERATOR = "operator"  # actor of CLI actions


def _iso(value: datetime) -> str:
    return value.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


async def record_audit(
    action: str,
    object_id: str | None = None,
    *,
    account_id: str | None = None,
    actor_id: str | None = None,
    actor_kind: str | None = None,
    livemode: bool | None = None,
    using_db: BaseDBAsyncClient | None = None,
) -> AuditEvent:
    """Append one row. Inside a request the missing arguments come from it: the account, the
    credential (API key id, or the customer's id for a session), its mode, ``X-Request-Id`` and
    the client's address. Outside one (the CLI) the actor is the operator."""
    in_request = has_request_context()
    if account_id is None:
        if not in_request:
            raise ValueError("record_audit outside a request needs account_id")
        account_id = g.account.id
    if actor_id is None:
        customer = getattr(g, "customer", None) if in_request else None
        if customer is not None:
            actor_id, actor_kind = customer.id, "customer"
        elif in_request and getattr(g, "credential_id", None):
            actor_id, actor_kind = g.credential_id, "api_key"
        else:
            actor_id, actor_kind = OPERATOR, OPERATOR
    if livemode is None:
        livemode = bool(getattr(g, "livemode", True)) if in_request else True
    return await AuditEvent.create(
        account_id=account_id,
        actor_id=actor_id,
        actor_kind=actor_kind or "api_key",
        action=action,
        object_id=object_id,
        livemode=livemode,
        request_id=getattr(g, "request_id", None) if in_request else None,
        client_address=(request.remote_addr or None) if in_request else None,
        created_at=clock.now(),
        using_db=using_db,
    )


def event_view(event: AuditEvent) -> dict[str, Any]:
    return {
        "id": event.id,
        "action": event.action,
        "object_id": event.object_id,
        "actor": {"id": event.actor_id, "kind": event.actor_kind},
        "livemode": event.livemode,
        "request_id": event.request_id,
        "client_address": event.client_address,
        "created_at": _iso(event.created_at),
    }


def _bad_cursor() -> APIError:
    return APIError(
        400,
        "Unknown cursor.",
        error="validation_error",
        details=[{"field": "cursor", "message": "not a cursor from this listing"}],
    )


async def list_events(
    account_id: str,
    *,
    limit: int,
    cursor: str | None,
    start: datetime | None,
    end: datetime | None,
    action: str | None,
    actor: str | None,
) -> tuple[list[AuditEvent], str | None]:
    """The account's rows, newest first; the cursor is the last row's id."""
    query = AuditEvent.filter(account_id=account_id)
    if start is not None:
        query = query.filter(created_at__gte=start)
    if end is not None:
        query = query.filter(created_at__lt=end)
    if action:
        query = query.filter(action=action)
    if actor:
        query = query.filter(actor_id=actor)
    if cursor:
        if not cursor.isdigit():
            raise _bad_cursor()
        query = query.filter(id__lt=int(cursor))
    rows = await query.order_by("-id").limit(limit + 1)
    next_cursor = str(rows[limit - 1].id) if len(rows) > limit else None
    return rows[:limit], next_cursor
