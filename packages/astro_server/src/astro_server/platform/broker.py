"""The taskiq broker of this process, built from Settings.

Embedded mode uses ``InMemoryBroker`` (jobs run in the API process). Production uses
``RedisStreamBroker``: a message is acknowledged only after its task finished, so a message held
by a dead worker is delivered again (after ``idle_timeout``); the scheduler's job sweeper is the
second net (it re-queues jobs whose lease expired).

Two tasks exist, both listed in the registry's ``BROKER_TASKS``: ``astro.run_job`` runs a job row
through :func:`astro_server.platform.jobs.run_job`, ``astro.deliver`` one webhook attempt. Job
kinds are not taskiq tasks of their own: every job goes through ``astro.run_job``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from taskiq import AsyncBroker, InMemoryBroker

from astro_server.settings import Settings

QUEUE_NAME = "astro:jobs"
RUN_JOB_TASK = "astro.run_job"

_current: AsyncBroker | None = None
_extra_tasks: dict[str, Callable[..., Awaitable[Any]]] = {}


def register_task(task_name: str, function: Callable[..., Awaitable[Any]]) -> None:
    """A taskiq task, registered on every broker made after this call (the registry's
    ``BROKER_TASKS``: ``astro.run_job`` and ``astro.deliver``)."""
    _extra_tasks[task_name] = function


def make_broker(settings: Settings) -> AsyncBroker:
    broker: AsyncBroker
    if settings.redis_url:
        from taskiq_redis import RedisStreamBroker

        from astro_server.platform.redisconn import client_options

        broker = RedisStreamBroker(
            url=settings.redis_url,
            queue_name=QUEUE_NAME,
            consumer_group_name="astro-workers",
            # "0": a group created after messages were queued still delivers them.
            consumer_id="0",
            idle_timeout=int(max(settings.job_lease_s * 4, 60) * 1000),
            xread_block=1000,
            # Fetch only what this worker can start: a message read but waiting here is held
            # from idle workers (and is claimed away from us after idle_timeout).
            xread_count=max(1, settings.worker_concurrency),
            maxlen=100_000,
            # Reconnect after a Redis restart (platform/redisconn.py). The socket timeout covers
            # the worker's XREADGROUP, which blocks for xread_block on purpose, plus the
            # setting: an API process's XADD to a hung Redis fails in seconds (503).
            **client_options(
                settings.redis_url,
                socket_timeout=settings.redis_socket_timeout_s + 1.0,
                connect_timeout=settings.redis_connect_timeout_s,
            ),
        )
    else:
        broker = InMemoryBroker(max_async_tasks=settings.worker_concurrency)
    for task_name, function in _extra_tasks.items():
        broker.register_task(function, task_name=task_name)
    return broker


def set_current(broker: AsyncBroker | None) -> None:
    global _current
    _current = broker


def current() -> AsyncBroker:
    if _current is None:
        raise RuntimeError("no job broker: the app or worker has not started")
    return _current


async def kick_job(job_id: str) -> None:
    task = current().find_task(RUN_JOB_TASK)
    if task is None:
        raise RuntimeError("astro.run_job is not registered")
    await task.kiq(job_id)


async def kick(task_name: str, *args: Any) -> None:
    """Send a message for a task added with :func:`register_task`."""
    task = current().find_task(task_name)
    if task is None:
        raise RuntimeError(f"{task_name} is not registered")
    await task.kiq(*args)
