"""Dependency outages: a lost database, job queue or rate limiter answers 503, logged once.

While PostgreSQL or Redis is unreachable every request that needs it answers
``503 service_unavailable`` with ``Retry-After`` and a body naming the dependency
(``code``: ``database_unavailable``, ``job_queue_unavailable``, ``rate_limiter_unavailable``),
never a 500 with a traceback. A billable request that fails this way is refunded like any other
5xx (when the database can take the refund; when it cannot, the debit could not have been written
either).

Logging: one warning line when an outage starts (the first failure after
:data:`QUIET_S` seconds without one), not one per request; the next line after a quiet period
says how many requests the previous outage refused.

:func:`dependency_of` recognises an outage from the exception (or one it was raised from):
redis-py's ``ConnectionError``/``TimeoutError``; asyncpg's lost or refused connections
(``ConnectionDoesNotExistError``, the ``08`` connection-exception class, the ``57P`` shutdown
class: administrator, crash, cannot-connect-now; ``InternalClientError``, a connection whose
protocol state the vanished server left broken) and tortoise's ``DBConnectionError``; and the
operating system's ``OSError`` of a failed connect or a reset socket raised from asyncpg or
tortoise code (asyncpg does not wrap them).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from typing import Final

from astro_server.platform.errors import APIError

log = logging.getLogger("astro_server.outages")

#: Seconds a client is asked to wait before retrying (PostgreSQL and Redis restart in about 1 s).
RETRY_AFTER_S: Final = 5
#: Seconds without a failure after which the next failure starts a new outage (and a log line).
QUIET_S: Final = 10.0

DATABASE: Final = "database"
JOB_QUEUE: Final = "job queue"
RATE_LIMITER: Final = "rate limiter"


class DependencyUnavailable(APIError):
    """503 ``service_unavailable`` naming the dependency, with ``Retry-After``."""

    def __init__(self, dependency: str) -> None:
        super().__init__(
            503,
            f"The {dependency} is unavailable; retry in a few seconds.",
            error="service_unavailable",
            code=dependency.replace(" ", "_") + "_unavailable",
            headers={"Retry-After": str(RETRY_AFTER_S)},
        )
        self.dependency = dependency


class _OutageLog:
    """One log line per outage of each dependency (thread-safe: sync jobs run in threads)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last: dict[str, float] = {}
        self._count: dict[str, int] = {}

    def note(self, dependency: str, cause: BaseException | None) -> bool:
        """Count one refused request; True (and a log line) when it starts a new outage."""
        now = time.monotonic()
        with self._lock:
            last = self._last.get(dependency)
            self._last[dependency] = now
            if last is not None and now - last < QUIET_S:
                self._count[dependency] = self._count.get(dependency, 0) + 1
                return False
            previous = self._count.get(dependency, 0)
            self._count[dependency] = 1
        reason = f"{type(cause).__name__}: {cause}" if cause is not None else "unreachable"
        log.warning(
            "%s unavailable (%s); answering 503 until it is back%s",
            dependency,
            reason[:200],
            f" (the previous outage refused {previous} requests)" if previous else "",
            extra={"dependency": dependency},
        )
        return True

    def reset(self) -> None:
        with self._lock:
            self._last.clear()
            self._count.clear()


outages = _OutageLog()


def _redis_errors() -> tuple[type[BaseException], ...]:
    try:
        from redis.exceptions import ConnectionError as RedisConnectionError
        from redis.exceptions import TimeoutError as RedisTimeoutError
    except ImportError:  # pragma: no cover - redis is a dependency
        return ()
    return (RedisConnectionError, RedisTimeoutError)


def _database_errors() -> tuple[type[BaseException], ...]:
    found: list[type[BaseException]] = []
    try:
        import asyncpg.exceptions as pg  # type: ignore[import-untyped]

        found += [
            pg.ConnectionDoesNotExistError,
            pg.PostgresConnectionError,  # SQLSTATE class 08
            # Class 57P, not all of 57 (57014 is a statement timeout, not an outage).
            pg.AdminShutdownError,
            pg.CrashShutdownError,
            pg.CannotConnectNowError,
            pg.ConnectionFailureError,
            pg.TooManyConnectionsError,
            # The protocol's state broken by a server that went away mid-conversation ("cannot
            # switch to state 12; another operation is in progress"): the connection is lost.
            pg.InternalClientError,
        ]
    except ImportError:  # pragma: no cover - asyncpg is a dependency
        pass
    from tortoise.exceptions import DBConnectionError

    found.append(DBConnectionError)
    return tuple(found)


def _raised_from(exc: BaseException, packages: tuple[str, ...]) -> bool:
    tb = exc.__traceback__
    while tb is not None:
        name = tb.tb_frame.f_globals.get("__name__", "")
        if name.split(".", 1)[0] in packages:
            return True
        tb = tb.tb_next
    return False


def dependency_of(exc: BaseException) -> str | None:
    """The dependency whose outage ``exc`` (or an exception it was raised from) reports, or None
    when it is not an outage."""
    redis_errors, database_errors = _redis_errors(), _database_errors()
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen and len(seen) < 16:
        seen.add(id(current))
        if isinstance(current, DependencyUnavailable):
            return current.dependency
        if redis_errors and isinstance(current, redis_errors):
            # The rate limiter raises its own DependencyUnavailable; the API's other Redis
            # client is the broker's.
            return JOB_QUEUE
        if isinstance(current, database_errors):
            return DATABASE
        if isinstance(current, (OSError, asyncio.TimeoutError)) and _raised_from(
            current, ("asyncpg", "tortoise")
        ):
            return DATABASE
        if (
            type(current).__name__ == "InterfaceError"
            and "connection" in str(current).lower()
            and _raised_from(current, ("asyncpg", "tortoise"))
        ):
            # asyncpg's "cannot perform operation: connection is closed" after the server went.
            return DATABASE
        current = current.__cause__ or current.__context__
    return None
