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

Every wait has a deadline (``db.tortoise_config`` passes the settings): a statement
(asyncpg's ``command_timeout``), a new connection (``timeout``) and the wait for a pooled one
(``acquire_timeout``, :class:`_DeadlinePool`: tortoise acquires without one, in its own queries
and its transactions alike). A hung server (its processes stopped) costs a request a few
seconds and a 503, never an unbounded wait.

``db.tortoise_config`` names this module as the engine of PostgreSQL URLs.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any, cast

import asyncpg  # type: ignore[import-untyped]
from tortoise.backends.asyncpg.client import AsyncpgDBClient

from astro_server.platform.outages import DATABASE, dependency_of

log = logging.getLogger("astro_server.db")


def _repeatable(query: str) -> bool:
    head = query.lstrip()[:7].upper()
    return head.startswith("SELECT") and "FOR UPDATE" not in query.upper()


def _timed_out(exc: BaseException) -> bool:
    seen: BaseException | None = exc
    for _ in range(8):
        if seen is None:
            return False
        if isinstance(seen, TimeoutError):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


class _DeadlinePool(asyncpg.Pool):  # type: ignore[misc]
    """asyncpg's pool whose ``acquire()`` without a timeout waits at most
    ``acquire_timeout_s`` (None: as long as it takes)."""

    __slots__ = ("acquire_timeout_s",)

    def acquire(self, *, timeout: float | None = None) -> Any:
        return super().acquire(timeout=self.acquire_timeout_s if timeout is None else timeout)

    async def release(self, connection: Any, *, timeout: float | None = None) -> None:  # noqa: ASYNC109 (asyncpg's signature)
        # A statement that timed out left its connection waiting for the server to confirm the
        # cancel, which a hung server never does: asyncpg would wait for it (up to the acquire
        # timeout) before giving the connection back. Close it instead; the pool opens another.
        raw: Any = getattr(connection, "_con", None)
        protocol = getattr(raw, "_protocol", None)
        if raw is not None and protocol is not None and protocol._is_cancelling():
            raw.terminate()
        await super().release(connection, timeout=timeout)


#: asyncpg.create_pool's defaults, which the Pool constructor itself does not have.
_POOL_DEFAULTS: dict[str, Any] = {
    "min_size": 10,
    "max_size": 10,
    "max_queries": 50_000,
    "max_inactive_connection_lifetime": 300.0,
    "record_class": asyncpg.Record,
}


class ResilientAsyncpgClient(AsyncpgDBClient):
    """See the module docstring."""

    def __init__(self, *args: Any, acquire_timeout: float | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._acquire_timeout_s = float(acquire_timeout) if acquire_timeout else None

    async def create_pool(self, **kwargs: Any) -> Any:
        pool = _DeadlinePool(None, **{**_POOL_DEFAULTS, **kwargs})
        pool.acquire_timeout_s = self._acquire_timeout_s
        return await pool

    async def _lost(self, exc: BaseException) -> bool:
        """Whether ``exc`` is a lost or refused connection; if so, every pooled connection is
        replaced on its next use (they all went with the server; asyncpg does not always see
        it, and a dead connection kept in the pool fails the next statement run on it)."""
        if dependency_of(exc) != DATABASE:
            return False
        if _timed_out(exc):
            # A hung server, not a dropped connection: running the read again would only wait
            # as long once more. (The timed-out connection is closed by asyncpg's pool.)
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
            log.debug("read retried once on a new connection (%s)", type(exc).__name__)
        return cast(tuple[int, list[dict[str, Any]]], await super().execute_query(query, values))

    async def execute_query_dict(
        self, query: str, values: list[Any] | None = None
    ) -> list[dict[str, Any]]:
        try:
            return cast(list[dict[str, Any]], await super().execute_query_dict(query, values))
        except Exception as exc:
            if not (await self._lost(exc) and _repeatable(query)):
                raise
            log.debug("read retried once on a new connection (%s)", type(exc).__name__)
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
