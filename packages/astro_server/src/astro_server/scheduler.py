"""Periodic tasks: a small registry and the loop that runs them.

Register a coroutine function with no arguments::

    @periodic(every_s=60)
    async def publish_daily_horoscopes() -> None: ...

``astro-server scheduler`` runs the loop in production (run ONE scheduler; with Redis a lock per
task and period also stops a second one from running a task twice); in embedded mode the API
process runs it. The module defining a periodic task must be imported by the app (as job
handlers are). ``every_s`` may be a number or a function of the Settings (for intervals that are
configurable).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from astro_server.settings import Settings

log = logging.getLogger("astro_server.scheduler")

PeriodicFunction = Callable[[], Awaitable[Any]]
Interval = float | Callable[[Settings], float]


@dataclass(frozen=True)
class PeriodicTask:
    name: str
    every: Interval
    function: PeriodicFunction

    def interval_s(self, settings: Settings) -> float:
        value = self.every(settings) if callable(self.every) else self.every
        return max(0.05, float(value))


_PERIODIC: dict[str, PeriodicTask] = {}


def periodic(
    every_s: Interval, name: str | None = None
) -> Callable[[PeriodicFunction], PeriodicFunction]:
    def decorator(fn: PeriodicFunction) -> PeriodicFunction:
        task_name = name or f"{fn.__module__}.{fn.__qualname__}"
        _PERIODIC[task_name] = PeriodicTask(task_name, every_s, fn)
        return fn

    return decorator


def registered_periodic_tasks() -> dict[str, PeriodicTask]:
    return dict(_PERIODIC)


class Scheduler:
    """Runs every registered periodic task at its interval until ``stop`` is set."""

    def __init__(
        self,
        settings: Settings,
        redis_client: Any | None = None,
        tasks: dict[str, PeriodicTask] | None = None,
    ) -> None:
        self.settings = settings
        self.redis = redis_client
        self.tasks = tasks  # None: every registered task
        self.runs: dict[str, int] = {}

    def _tasks(self) -> dict[str, PeriodicTask]:
        return dict(self.tasks) if self.tasks is not None else registered_periodic_tasks()

    async def _locked(self, task: PeriodicTask, interval_s: float) -> bool:
        if self.redis is None:
            return True
        key = f"astro:periodic:{task.name}"
        ttl_ms = max(50, int(interval_s * 1000 * 0.9))
        return bool(await self.redis.set(key, "1", nx=True, px=ttl_ms))

    async def run_once(self, task: PeriodicTask) -> None:
        interval = task.interval_s(self.settings)
        try:
            if not await self._locked(task, interval):
                return
            await task.function()
            self.runs[task.name] = self.runs.get(task.name, 0) + 1
        except Exception:
            log.exception("periodic task %s failed", task.name)

    async def run(self, stop: asyncio.Event) -> None:
        next_run = {name: time.monotonic() for name in self._tasks()}
        log.info("scheduler started with %d periodic tasks", len(next_run))
        while not stop.is_set():
            now = time.monotonic()
            for name, task in self._tasks().items():
                due = next_run.setdefault(name, now)
                if due <= now:
                    await self.run_once(task)
                    next_run[name] = time.monotonic() + task.interval_s(self.settings)
            wait = max(0.05, min(next_run.values(), default=now + 1) - time.monotonic())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=min(wait, 1.0))
