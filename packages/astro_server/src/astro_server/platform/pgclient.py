"""tortoise's asyncpg client, but a read that meets a dropped connection is run once more.

After a PostgreSQL restart (or a backend terminated) the pool may still hold a connection whose
socket is closed but not yet noticed: the next statement on it fails with
``ConnectionDoesNotExistError`` (or an ``InterfaceError`` "connection is closed"). asyncpg's pool
drops such a connection when it is released and opens a new one on the next acquire, so a
statement run again succeeds once the server is back.

Only what is safe to repeat is repeated, once: a single ``SELECT`` outside a transaction (the
ORM's reads, ``fetch`` of a plain query). Writes, ``SELECT ... FOR UPDATE`` and everything inside
a transaction (tortoise's ``TransactionWrapper`` is not this class) fail as before and answer 503
(:mod:`astro_server.platform.outages`): a write may have been applied before the connection
dropped.

``db.tortoise_config`` names this module as the engine of PostgreSQL URLs.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any, cast

from tortoise.backends.asyncpg.client import AsyncpgDBClient

from astro_server.platform.outages import DATABASE, dependency_of

log = logging.getLogger("astro_server.db")


def _repeatable(query: str) -> bool:
    head = query.lstrip()[:7].upper()
    return head.startswith("SELECT") and "FOR UPDATE" not in query.upper()


class ResilientAsyncpgClient(AsyncpgDBClient):
    """See the module docstring."""

    async def _lost(self, exc: BaseException) -> bool:
        """Whether ``exc`` is a lost or refused connection; if so, every pooled connection is
        replaced on its next use (they all went with the server; asyncpg does not always see
        it, and a dead connection kept in the pool fails the next statement run on it)."""
        if dependency_of(exc) != DATABASE:
            return False
        with contextlib.suppress(Exception):
            await self._expire_connections()
        return True

    async def execute_query(
        self, query: str, values: list[Any] | None = None
    ) -> tuple[int, list[dict[str, Any]]]:
        try:
            return cast(
                tuple[int, list[dict[str, Any]]], await super().execute_query(query, values)
            )
        except Exception as exc:
            if not (await self._lost(exc) and _repeatable(query)):
                raise
            log.info("read retried once on a new connection (%s)", type(exc).__name__)
        return cast(tuple[int, list[dict[str, Any]]], await super().execute_query(query, values))

    async def execute_query_dict(
        self, query: str, values: list[Any] | None = None
    ) -> list[dict[str, Any]]:
        try:
            return cast(list[dict[str, Any]], await super().execute_query_dict(query, values))
        except Exception as exc:
            if not (await self._lost(exc) and _repeatable(query)):
                raise
            log.info("read retried once on a new connection (%s)", type(exc).__name__)
        return cast(list[dict[str, Any]], await super().execute_query_dict(query, values))

    async def execute_insert(self, query: str, values: list[Any]) -> Any:
        try:
            return await super().execute_insert(query, values)
        except Exception as exc:
            await self._lost(exc)  # never repeated: the row may have been written
            raise

    async def execute_many(self, query: str, values: list[Any]) -> None:
        try:
            await super().execute_many(query, values)
        except Exception as exc:
            await self._lost(exc)
            raise


client_class = ResilientAsyncpgClient
