"""Newest-first keyset pages: the one listing convention of the API.

Every list is ordered by ``(created_at, id)`` descending and paged by a cursor, the id of the
last item of the previous page (``next_cursor``). A page is the rows strictly after the
cursor's row in that order, so items created while a client pages never shift a page, and
the query uses the ``(…, created_at, id)`` indexes instead of an offset.

A cursor that is not an item of the listing's scope (unknown, another account's, another
environment's) is a 400 naming ``cursor``, the same body on every list.
"""

from __future__ import annotations

from typing import TypeVar

from tortoise.expressions import Q
from tortoise.models import Model
from tortoise.queryset import QuerySet

from astro_server.platform.errors import APIError, validation_error

M = TypeVar("M", bound=Model)


def unknown_cursor() -> APIError:
    """The 400 of a cursor that does not belong to the listing."""
    error = validation_error(
        [{"field": "cursor", "message": "not a cursor from this listing"}], "Unknown cursor."
    )
    error.code = "invalid_cursor"
    return error


async def newest_first(
    query: QuerySet[M], *, limit: int, cursor: str | None, scope: QuerySet[M] | None = None
) -> tuple[list[M], str | None]:
    """One page of ``query``, newest first, and the cursor of the next page (``None`` on the
    last). The cursor must be an item of ``scope`` (by default ``query`` itself); give the
    owner-only query as ``scope`` when ``query`` also filters on something that may change
    between pages, such as a status."""
    if cursor:
        last = await (scope if scope is not None else query).filter(id=cursor).first()
        if last is None:
            raise unknown_cursor()
        created_at = last.created_at  # type: ignore[attr-defined]
        query = query.filter(
            Q(created_at__lt=created_at) | Q(created_at=created_at, id__lt=last.pk)
        )
    rows = await query.order_by("-created_at", "-id").limit(limit + 1)
    next_cursor = str(rows[limit - 1].pk) if len(rows) > limit else None
    return list(rows[:limit]), next_cursor


async def numeric_cursor(scope: QuerySet[M], cursor: str) -> int:
    """The id a numeric cursor names (lists ordered by an integer id: the ledger, the audit
    log), checked like :func:`newest_first`'s: it must be a row of ``scope`` (the owner's rows),
    or the 400 ``invalid_cursor`` naming ``cursor`` (not an empty page)."""
    if not cursor.isdigit() or len(cursor) > 18:  # above 18 digits may not fit a bigint
        raise unknown_cursor()
    row_id = int(cursor)
    if not await scope.filter(id=row_id).exists():
        raise unknown_cursor()
    return row_id
