"""The audit log: :func:`record_audit` appends one row; :func:`list_events` reads them.

Features call ``record_audit(action, object_id, caller)`` with the route's caller (the actor,
account, mode, request id and client address come from it), or ``Caller.operator(account_id)``
from the CLI. Actions are ``<object>.<verb>``: ``key.created``, ``key.rotated``,
``key.revoked``; profiles, team, brand profiles and webhooks add theirs. Never pass a secret or
a personal field: the row holds ids and names of actions only.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient

from astro_server.platform import clock
from astro_server.platform.caller import Caller
from astro_server.platform.models.audit import AuditEvent
from astro_server.platform.paging import numeric_cursor


async def record_audit(
    caller: Caller,
    action: str,
    object_id: str | None,
    *,
    using_db: BaseDBAsyncClient | None = None,
) -> AuditEvent:
    """Append one row: the account, actor, mode, request id and client address come from
    ``caller`` (the one a route's guard hands its handler, or
    :meth:`Caller.operator` for the CLI)."""
    actor_id, actor_kind = caller.actor
    return await AuditEvent.create(
        account_id=caller.account_id,
        actor_id=actor_id,
        actor_kind=actor_kind,
        action=action,
        object_id=object_id,
        livemode=caller.livemode,
        request_id=caller.request_id,
        client_address=caller.client_address,
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
        "created_at": clock.iso(event.created_at),
    }


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
        owned = AuditEvent.filter(account_id=account_id)
        query = query.filter(id__lt=await numeric_cursor(owned, cursor))
    rows = await query.order_by("-id").limit(limit + 1)
    next_cursor = str(rows[limit - 1].id) if len(rows) > limit else None
    return rows[:limit], next_cursor
