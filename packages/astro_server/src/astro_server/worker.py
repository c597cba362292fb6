"""``astro-server worker``: a taskiq Receiver over the Redis stream, in this one process.

We run the Receiver ourselves instead of ``taskiq worker`` because that CLI was seen not to exit
on SIGTERM with ``RedisStreamBroker``. Here SIGTERM/SIGINT set the Receiver's finish event; jobs
still running get ``drain_s`` seconds, then they are cancelled and their leases given back (so
another worker takes them at once), and the process exits 0 well inside 10 seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal

from taskiq.receiver import Receiver

from astro_server.settings import Settings

log = logging.getLogger("astro_server.worker")


async def _bounded(awaitable: object, timeout_s: float) -> None:
    with contextlib.suppress(Exception, asyncio.CancelledError):
        await asyncio.wait_for(awaitable, timeout=timeout_s)  # type: ignore[arg-type]


async def run_worker(settings: Settings, drain_s: float = 5.0) -> None:
    from astro_server.platform import broker as broker_module
    from astro_server.platform import jobs
    from astro_server.platform.db import close_db, init_db
    from astro_server.registry import build_platform

    if not settings.redis_url:
        raise SystemExit(
            "astro-server worker needs ASTRO_REDIS_URL (embedded mode runs jobs "
            "inside the API process)"
        )
    build_platform(settings)  # the job kinds and broker tasks of the registry; no web app
    await init_db(settings)
    from astro_server.features.visual import missing_visual_dependencies

    if not missing_visual_dependencies():
        from astro_server.features.visual.detect import load_models

        # Loaded before the first message, so no reading pays the models' start-up (~2 s).
        await asyncio.to_thread(load_models)
    broker = broker_module.make_broker(settings)
    broker.is_worker_process = True
    broker_module.set_current(broker)
    receiver = Receiver(
        broker,
        max_async_tasks=settings.worker_concurrency,
        wait_tasks_timeout=drain_s,
        run_startup=True,
    )
    finish = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, finish.set)
    listener = asyncio.create_task(receiver.listen(finish))
    log.info("worker listening (concurrency %d)", settings.worker_concurrency)
    stop_waiter = asyncio.create_task(finish.wait())
    while True:
        await asyncio.wait({listener, stop_waiter}, return_when=asyncio.FIRST_COMPLETED)
        if finish.is_set() or not listener.done():
            break
        # The Receiver gives up on the first broker error (e.g. a Redis read that timed out
        # while the machine was saturated): listen again instead of idling forever.
        error = None if listener.cancelled() else listener.exception()
        log.warning("job listener stopped (%s); listening again", type(error).__name__)
        await asyncio.sleep(1.0)
        # A Redis restarted without persistence lost the stream and its consumer group:
        # XREADGROUP would answer NOGROUP forever. Declare the group again (a no-op when it
        # exists); the jobs whose messages were lost are re-sent by the scheduler's sweep.
        declare = getattr(broker, "_declare_consumer_group", None)
        if declare is not None:
            with contextlib.suppress(Exception):
                await declare()
        listener = asyncio.create_task(receiver.listen(finish))
    log.info("worker stopping")
    if not listener.done():
        # The Receiver waits up to drain_s for running jobs; past that we cancel it ourselves.
        await _bounded(asyncio.shield(listener), drain_s + 1)
    if not listener.done():
        listener.cancel()
        await _bounded(listener, 1.0)
    stop_waiter.cancel()

    async def hand_back() -> None:
        # Re-send the interrupted jobs now, so another worker starts them without waiting for
        # the sweeper or the stream's redelivery.
        for job_id in await jobs.release_running_jobs():
            await broker_module.kick_job(job_id)

    await _bounded(hand_back(), 1.5)
    # Webhook attempts in the delivery pool: a moment to finish, then their rows' leases.
    from astro_server.platform.delivery.tasks import wait_for_deliveries

    await _bounded(wait_for_deliveries(2.0), 3.0)
    from astro_server.features.reports.render.renderer import close_renderer

    await _bounded(close_renderer(), 2.0)
    await _bounded(broker.shutdown(), 1.0)
    await _bounded(close_db(), 1.0)
    log.info("worker stopped")
