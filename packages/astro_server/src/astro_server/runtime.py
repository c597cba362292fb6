"""Per-application runtime objects (rate limiter, job broker), built at startup from Settings.

Handlers and services reach them through :func:`platform` (``current_app.extensions["astro"]``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from quart import current_app

from astro_server.settings import Settings

if TYPE_CHECKING:
    from taskiq import AsyncBroker

    from astro_server.services.ratelimit import RateLimiter


@dataclass
class Platform:
    settings: Settings
    rate_limiter: RateLimiter
    broker: AsyncBroker | None = None
    background: list[object] = field(default_factory=list)


def platform() -> Platform:
    state: Platform = current_app.extensions["astro"]
    return state


def make_rate_limiter(settings: Settings) -> RateLimiter:
    from astro_server.services.ratelimit import MemoryRateLimiter, RedisRateLimiter

    if settings.redis_url:
        return RedisRateLimiter.from_url(settings.redis_url)
    return MemoryRateLimiter()
