"""Redis clients that survive a Redis restart: every client of ours is built from here.

redis-py keeps a pooled connection after Redis went away and fails the next command on it; with
no retry, each dead connection in the pool costs one failed request after Redis is back. So every
connection is built with:

- ``health_check_interval``: a connection idle that long is PINGed before it is used again;
- ``retry_on_error=[ConnectionError]`` and ``retry=Retry(ExponentialBackoff(), N)``: a command
  that fails on a broken connection reconnects and runs again (a few times, backing off up to
  about a second), so the first request after a restart succeeds. A *timeout* is not retried:
  a Redis that stopped answering (a hang) would cost every request N + 1 socket timeouts;
- ``socket_keepalive``: the kernel notices a peer that vanished without closing (TCP only: a
  ``unix://`` URL, Redis on the same machine, takes no TCP options);
- ``socket_connect_timeout`` / ``socket_timeout`` (``ASTRO_REDIS_CONNECT_TIMEOUT_S``,
  ``ASTRO_REDIS_SOCKET_TIMEOUT_S``): a Redis that does not answer fails the request (503) in
  bounded time instead of holding it.

Used by the rate limiter (and the key revocation counter it carries), the job broker
(taskiq-redis passes these to its connection pool), the scheduler's lock client and ``/readyz``.
"""

from __future__ import annotations

from typing import Any, Final

#: Retries of a command that failed on a connection error (backoff 8 ms, 16 ms, ... capped at 1 s).
RETRIES: Final = 3
HEALTH_CHECK_INTERVAL_S: Final = 5


#: The defaults of ``ASTRO_REDIS_SOCKET_TIMEOUT_S`` and ``ASTRO_REDIS_CONNECT_TIMEOUT_S``.
SOCKET_TIMEOUT_S: Final = 2.0
CONNECT_TIMEOUT_S: Final = 2.0


def client_options(
    url: str,
    *,
    socket_timeout: float = SOCKET_TIMEOUT_S,
    connect_timeout: float = CONNECT_TIMEOUT_S,
) -> dict[str, Any]:
    """The connection options above for ``url``, as keyword arguments of redis-py's
    ``from_url`` and ``ConnectionPool``."""
    from redis.asyncio.retry import Retry
    from redis.backoff import ExponentialBackoff
    from redis.exceptions import ConnectionError as RedisConnectionError

    options: dict[str, Any] = {
        "health_check_interval": HEALTH_CHECK_INTERVAL_S,
        "retry_on_error": [RedisConnectionError],
        "retry_on_timeout": False,
        # Only connection errors: redis-py's default also retries timeouts.
        "retry": Retry(
            ExponentialBackoff(cap=1.0, base=0.008),
            RETRIES,
            supported_errors=(RedisConnectionError,),
        ),
        "socket_connect_timeout": connect_timeout,
        "socket_timeout": socket_timeout,
    }
    if not url.startswith("unix:"):
        # redis-py's Unix-socket connection refuses TCP options (a TypeError on every command).
        options["socket_keepalive"] = True
    return options


def make_client(
    url: str,
    *,
    socket_timeout: float = SOCKET_TIMEOUT_S,
    connect_timeout: float = CONNECT_TIMEOUT_S,
) -> Any:
    """A ``redis.asyncio.Redis`` for ``url`` with the options above."""
    import redis.asyncio as aioredis

    return aioredis.from_url(
        url, **client_options(url, socket_timeout=socket_timeout, connect_timeout=connect_timeout)
    )


def settings_client(settings: Any) -> Any:
    """:func:`make_client` for ``settings.redis_url`` with the settings' timeouts."""
    return make_client(
        settings.redis_url,
        socket_timeout=settings.redis_socket_timeout_s,
        connect_timeout=settings.redis_connect_timeout_s,
    )
