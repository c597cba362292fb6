"""Per-application runtime objects (rate limiter, job broker), built at startup from Settings.

Handlers and services reach them through :func:`platform` (``current_app.extensions["astro"]``).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import multiprocessing
import os
import signal
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from quart import current_app

from astro_server.settings import Settings

if TYPE_CHECKING:
    from taskiq import AsyncBroker

    from astro_server.platform.ratelimit import RateLimiter


@dataclass
class Platform:
    settings: Settings
    rate_limiter: RateLimiter
    broker: AsyncBroker | None = None
    # The highest API-key revocation generation seen by this app (platform/auth/guards.py).
    key_generation_seen: int = 0
    background: list[object] = field(default_factory=list)


_settings: Settings | None = None


def configure(settings: Settings) -> None:
    """This process's settings, for code that runs outside a request as well as inside one
    (the worker's jobs, the scheduler, the CLI); set once by
    :func:`astro_server.registry.build_platform`."""
    global _settings
    _settings = settings


def settings() -> Settings:
    """The settings :func:`configure` was given (the environment's if it was never called)."""
    global _settings
    if _settings is None:
        _settings = Settings.from_env()
    return _settings


def platform() -> Platform:
    state: Platform = current_app.extensions["astro"]
    return state


def make_rate_limiter(settings: Settings) -> RateLimiter:
    from astro_server.platform.ratelimit import MemoryRateLimiter, RedisRateLimiter

    if settings.redis_url:
        return RedisRateLimiter.from_url(settings.redis_url)
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
