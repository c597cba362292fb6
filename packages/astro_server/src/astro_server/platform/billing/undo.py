"""Work a request started under its charge, undone when that charge is refunded.

No work without its charge: a request that queued a job and then failed (a 503 after the debit,
its client gone while it was being answered) is refunded by ``@billable``'s error path, and the
job it queued must not run for free. The service that starts such work registers how to undo it
with :func:`on_refund` (``enqueue_job`` does: the job is canceled); ``@billable`` opens the
request's list with :func:`collect` and runs it with :func:`undo` right after the refund.

A context variable, not the request object: services are plain code (no Quart), and the list is
the request task's own.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from contextvars import ContextVar, Token

log = logging.getLogger("astro_server.billing")

Undo = Callable[[], Awaitable[None]]
_pending: ContextVar[list[Undo] | None] = ContextVar("astro_charge_undo", default=None)


def collect() -> tuple[list[Undo], Token[list[Undo] | None]]:
    """Open the current request's list (``@billable``, before its handler runs)."""
    undos: list[Undo] = []
    return undos, _pending.set(undos)


def finish(token: Token[list[Undo] | None]) -> None:
    _pending.reset(token)


def on_refund(undo_work: Undo) -> None:
    """Run ``undo_work`` if the current request's charge is refunded (nothing outside a
    billable request: no charge, nothing to undo)."""
    undos = _pending.get()
    if undos is not None:
        undos.append(undo_work)


async def undo(undos: list[Undo]) -> None:
    """Undo each piece of work, newest first; a failure is logged and the others still run
    (each undo retries on its own when a dependency is down)."""
    while undos:
        work = undos.pop()
        try:
            await work()
        except Exception:
            log.exception("undoing the work of a refunded request failed")
