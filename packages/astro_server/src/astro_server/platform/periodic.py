"""Periodic tasks: what one is, and the loop that runs them.

A task is declared once and listed in :mod:`astro_server.registry`::

    async def publish_coming_days() -> None: ...

    PUBLISH = PeriodicTask("horoscopes.publish_coming_days", 3600, publish_coming_days)

``astro-server scheduler`` runs the loop in production (run ONE scheduler; with Redis a lock per
task and period also stops a second one from running a task twice); in embedded mode the API
process runs it. ``every`` may be a number of seconds or a function of the Settings (for
intervals that are configurable). :meth:`Scheduler.run_due` runs every task once, now: tests drive
the scheduler with it instead of waiting for the clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
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


class Scheduler:
    """Runs each of ``tasks`` at its interval until ``stop`` is set."""

    def __init__(
        self,
        settings: Settings,
        tasks: Iterable[PeriodicTask],
        redis_client: Any | None = None,
    ) -> None:
        self.settings = settings
        self.redis = redis_client
        self.tasks = {task.name: task for task in tasks}
        self.runs: dict[str, int] = {}

    def _tasks(self) -> dict[str, PeriodicTask]:
        return self.tasks

    async def run_due(self) -> None:
        """Run every task once, now, in order (tests: "the scheduler's next tick")."""
        for task in self.tasks.values():
            await self.run_once(task)

    async def _locked(self, task: PeriodicTask, interval_s: float) -> bool:
        if self.redis is None:
            return True
        key = f"astro:periodic:{task.name}"
        ttl_ms = max(50, int(interval_s * 1000 * 0.9))
        return bool(await self.redis.set(key, "1", nx=True, px=ttl_ms))

    async def run_once(self, task: PeriodicTask) -> bool:
        """Run ``task`` (unless another scheduler holds its lock); False when it failed."""
        from astro_server.platform.outages import dependency_of, outages

        interval = task.interval_s(self.settings)
        try:
            if not await self._locked(task, interval):
                return True
            await task.function()
            self.runs[task.name] = self.runs.get(task.name, 0) + 1
        except Exception as exc:
            dependency = dependency_of(exc)
            if dependency is None:
                log.exception("periodic task %s failed", task.name)
            else:  # one line per outage, not a traceback per task and tick
                outages.note(dependency, exc)
            return False
        return True

    async def run(self, stop: asyncio.Event) -> None:
        next_run = {name: time.monotonic() for name in self._tasks()}
        log.info("scheduler started with %d periodic tasks", len(next_run))
        while not stop.is_set():
            now = time.monotonic()
            for name, task in self._tasks().items():
                due = next_run.setdefault(name, now)
                if due <= now:
                    ok = await self.run_once(task)
                    interval = task.interval_s(self.settings)
                    # A task that failed (a dependency down) runs again soon, not an interval
                    # later: the job sweep after a Redis restart must not wait a whole period.
                    next_run[name] = time.monotonic() + (interval if ok else min(interval, 2.0))
            wait = max(0.05, min(next_run.values(), default=now + 1) - time.monotonic())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=min(wait, 1.0))
