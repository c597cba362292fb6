"""The process's one :class:`Platform`: what it runs and with which settings.

:func:`astro_server.registry.build_platform` builds it from a :class:`Settings` and installs it
here (:func:`install`, the one place it is set); the web app keeps the same object in
``current_app.extensions["astro"]`` and adds its runtime objects (rate limiter, job broker) at
startup. Code outside a request (the worker's jobs, the scheduler, the CLI) reaches it through
:func:`current`, handlers through :func:`platform`. Nothing here reads the environment: a process
that has not built its platform gets an error, not settings read behind its back.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import multiprocessing
import os
import signal
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any

from quart import current_app

from astro_server.settings import Settings

if TYPE_CHECKING:
    from taskiq import AsyncBroker

    from astro_server.platform.ratelimit import RateLimiter

#: ``resolve(raw, account_id=, livemode=, scopes=, key_generation=)``: the body with each
#: ``{"profile_id": ...}`` replaced by that profile's birth subject (the profiles feature's).
ReferenceResolver = Callable[..., Awaitable[bytes]]
#: ``source(sign, local_date, language, timezone)``: the published horoscope a feed delivers,
#: its times in the subscription's zone (the horoscopes feature's).
HoroscopeSource = Callable[[str, date, str, str], Awaitable[Any]]


async def _no_references(raw: bytes, **_: Any) -> bytes:
    return raw


@dataclass(eq=False)
class Platform:
    """What a process of any kind runs, wired by :func:`astro_server.registry.build_platform`.

    The features' parts arrive as values (job kinds, tasks, model modules, the profile
    reference resolver, the horoscope source): the platform imports no feature."""

    settings: Settings
    # platform.jobs.JobKind and platform.periodic.PeriodicTask (not imported: both import this
    # module, and the platform's packages stay acyclic).
    job_kinds: tuple[Any, ...] = ()
    periodic_tasks: tuple[Any, ...] = ()
    broker_tasks: dict[str, Callable[..., Awaitable[Any]]] = field(default_factory=dict)
    #: Every module defining tables, dotted names (tortoise imports them).
    model_modules: tuple[str, ...] = ()
    resolve_references: ReferenceResolver = _no_references
    horoscope_source: HoroscopeSource | None = None
    # The web app's runtime objects, made at startup (app.py):
    broker: AsyncBroker | None = None
    # The highest API-key revocation generation seen by this app (platform/auth/guards.py).
    key_generation_seen: int = 0
    background: list[object] = field(default_factory=list)
    _rate_limiter: RateLimiter | None = field(default=None, repr=False)

    @property
    def rate_limiter(self) -> RateLimiter:
        if self._rate_limiter is None:
            raise RuntimeError("no rate limiter: the web app has not started")
        return self._rate_limiter

    @rate_limiter.setter
    def rate_limiter(self, limiter: RateLimiter | None) -> None:
        self._rate_limiter = limiter


_current: Platform | None = None


def install(wired: Platform) -> None:
    """Make ``wired`` this process's platform (:func:`astro_server.registry.build_platform`
    calls this; nothing else does)."""
    global _current
    _current = wired


def current() -> Platform:
    """This process's platform; an error before :func:`install` (never the environment)."""
    if _current is None:
        raise RuntimeError("no platform: call astro_server.registry.build_platform(settings) first")
    return _current


def settings() -> Settings:
    """The settings this process's platform was built with."""
    return current().settings


def platform() -> Platform:
    """The platform of the app serving the current request."""
    state: Platform = current_app.extensions["astro"]
    return state


def make_rate_limiter(settings: Settings) -> RateLimiter:
    from astro_server.platform.ratelimit import MemoryRateLimiter, RedisRateLimiter

    if settings.redis_url:
        return RedisRateLimiter.from_url(
            settings.redis_url,
            socket_timeout=settings.redis_socket_timeout_s,
            connect_timeout=settings.redis_connect_timeout_s,
        )
    # The key revocation generation of this data directory (see platform/ratelimit.py).
    return MemoryRateLimiter(settings.data_dir / "key-generation")


_PR_SET_PDEATHSIG = 1


def die_with_supervisor() -> None:
    """In a hypercorn worker process (``serve --workers N`` with N > 1), ask Linux to send us
    SIGTERM when the supervising process dies, even by SIGKILL or the OOM killer: an orphaned
    worker would otherwise go on serving, holding its port and database connections."""
    parent = multiprocessing.parent_process()
    if parent is None or not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if parent.pid is not None and os.getppid() != parent.pid:  # it died before we asked
        os.kill(os.getpid(), signal.SIGTERM)
