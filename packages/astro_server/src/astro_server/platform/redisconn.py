"""Redis clients that survive a Redis restart: every client of ours is built from here.

redis-py keeps a pooled connection after Redis went away and fails the next command on it; with
no retry, each dead connection in the pool costs one failed request after Redis is back. So every
connection is built with:

- ``health_check_interval``: a connection idle that long is PINGed before it is used again;
- ``retry_on_error=[ConnectionError, TimeoutError]`` and ``retry=Retry(ExponentialBackoff(), N)``:
  a command that fails on a broken connection reconnects and runs again (a few times, backing
  off up to about a second), so the first request after a restart succeeds;
- ``socket_keepalive``: the kernel notices a peer that vanished without closing (TCP only: a
  ``unix://`` URL, Redis on the same machine, takes no TCP options);
- ``socket_connect_timeout`` / ``socket_timeout``: a Redis that does not answer fails the request
  (503) in bounded time instead of holding it.

Used by the rate limiter (and the key revocation counter it carries), the job broker
(taskiq-redis passes these to its connection pool), the scheduler's lock client and ``/readyz``.
"""

from __future__ import annotations

from typing import Any, Final

#: Retries of a command that failed on a connection error (backoff 8 ms, 16 ms, ... capped at 1 s).
RETRIES: Final = 3
HEALTH_CHECK_INTERVAL_S: Final = 5


def client_options(url: str, *, socket_timeout: float | None = 5.0) -> dict[str, Any]:
    """The connection options above for ``url``, as keyword arguments of redis-py's
    ``from_url`` and ``ConnectionPool``. ``socket_timeout`` None: blocking reads (the broker's
    XREADGROUP) wait as long as they ask to."""
    from redis.asyncio.retry import Retry
    from redis.backoff import ExponentialBackoff
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    options: dict[str, Any] = {
        "health_check_interval": HEALTH_CHECK_INTERVAL_S,
        "retry_on_error": [RedisConnectionError, RedisTimeoutError],
        "retry": Retry(ExponentialBackoff(cap=1.0, base=0.008), RETRIES),
        "socket_connect_timeout": 2.0,
        "socket_timeout": socket_timeout,
    }
    if not url.startswith("unix:"):
        # redis-py's Unix-socket connection refuses TCP options (a TypeError on every command).
        options["socket_keepalive"] = True
    return options


def make_client(url: str, *, socket_timeout: float | None = 5.0) -> Any:
    """A ``redis.asyncio.Redis`` for ``url`` with the options above."""
    import redis.asyncio as aioredis

    return aioredis.from_url(url, **client_options(url, socket_timeout=socket_timeout))
