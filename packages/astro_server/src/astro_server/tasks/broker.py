"""The taskiq broker, built once from the environment.

Embedded mode uses ``InMemoryBroker`` (tasks run in the API process). Production uses
``RedisStreamBroker``: messages are acknowledged only after a task finishes, so a job whose worker
dies is delivered again to another worker.
"""

from __future__ import annotations

from taskiq import AsyncBroker, InMemoryBroker

from astro_server.settings import Settings

QUEUE_NAME = "astro:jobs"


def make_broker(settings: Settings) -> AsyncBroker:
    if settings.redis_url:
        from taskiq_redis import RedisStreamBroker

        broker: AsyncBroker = RedisStreamBroker(url=settings.redis_url, queue_name=QUEUE_NAME)
        return broker
    return InMemoryBroker()


broker = make_broker(Settings.from_env())
