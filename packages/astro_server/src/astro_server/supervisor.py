"""``serve --workers N``: our own supervisor over N hypercorn worker processes.

hypercorn's multi-process runner (``hypercorn.run.run``) stops every worker and exits as soon as
one worker exits with a non-zero status: a single API process killed (``kill -9``, the OOM killer,
a crash in a C extension) took the whole API down, and nothing listened on the port until someone
restarted it. Here one process dying never stops the others: the supervisor starts another in its
place and the port keeps answering from the survivors meanwhile.

Decision (issue 29): a small supervisor of our own rather than a process manager on top
(supervisord, systemd per process) because the workers share the listening socket the supervisor
opened (the kernel spreads connections over them), which one process per port under a manager
cannot do without a proxy in front; the container topologies (compose, Kubernetes) run each API
replica as its own container anyway and let the orchestrator restart it.

- The supervisor binds the sockets once and starts each worker with hypercorn's own worker
  function (``uvloop_worker``/``asyncio_worker``) over them, as hypercorn does.
- A worker that exits while we are not stopping is replaced. One that dies within
  :data:`FAST_FAILURE_S` of its start counts as a fast failure: the next start waits (1 s, 2 s,
  4 s ... at most :data:`MAX_BACKOFF_S`) so a worker that cannot start (a bad setting, the database
  refusing connections at import) does not spin; a worker that lived longer resets the wait.
- SIGTERM/SIGINT: the shared shutdown event tells every worker to finish its requests (hypercorn's
  graceful timeout, ``ASTRO_GRACEFUL_TIMEOUT_S``), then stragglers are terminated; the exit
  status is 0.
- SIGTERM to one worker (a rolling restart, an orchestrator replacing one process): that worker
  alone stops accepting, finishes its in-flight requests (the same graceful timeout), closes its
  keep-alive connections and exits 0; it tells the supervisor first (a pipe), which starts its
  replacement at once, so the others and the newcomer serve meanwhile. Without this the worker
  died at once (hypercorn's worker installs no SIGTERM handler when it has a shared event).
- Workers still ask Linux to SIGTERM them if the supervisor dies (``runtime.die_with_supervisor``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import time
from functools import partial
from multiprocessing import get_context
from multiprocessing.connection import wait
from multiprocessing.process import BaseProcess
from typing import Any, Final

log = logging.getLogger("astro_server.supervisor")

FAST_FAILURE_S: Final = 5.0
MAX_BACKOFF_S: Final = 30.0
#: Seconds a worker stopping on SIGTERM keeps serving with Connection: close before it stops
#: accepting (then its in-flight requests get the graceful timeout).
NOTICE_S: Final = 1.0


def serve_worker(config: Any, sockets: Any, shutdown_event: Any, draining: Any) -> None:
    """One API process: hypercorn's worker, stopped gracefully by the shared shutdown event (the
    supervisor stopping) or by a SIGTERM of its own, which it reports on ``draining`` (its pid)
    so that the supervisor starts its replacement while it drains."""
    from hypercorn.asyncio.run import _run, worker_serve
    from hypercorn.utils import load_application

    app = load_application(config.application_path, config.wsgi_max_body_size)

    async def shutdown_trigger() -> None:
        terminated = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, terminated.set)
        while not terminated.is_set() and not shutdown_event.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(terminated.wait(), 0.1)
        if terminated.is_set() and not shutdown_event.is_set():
            log.info(
                "API process %s stopping (SIGTERM): finishing its requests (up to %s s)",
                os.getpid(),
                config.graceful_timeout,
            )
            with contextlib.suppress(OSError):
                draining.send(os.getpid())
            # Still accepting for a moment while every answer says Connection: close: the
            # clients of its keep-alive connections move to new ones (another process, or the
            # replacement) before hypercorn closes the idle ones.
            from astro_server.platform.streaming import mark_stopping

            mark_stopping()
            await asyncio.sleep(NOTICE_S)

    loop_factory = None
    if config.worker_class == "uvloop":
        import uvloop

        loop_factory = uvloop.new_event_loop
    _run(
        partial(worker_serve, app, config, sockets=sockets),
        debug=config.debug,
        shutdown_trigger=shutdown_trigger,
        loop_factory=loop_factory,
    )


def supervise(config: Any, workers: int) -> int:
    """Run ``workers`` hypercorn worker processes of ``config`` until SIGTERM/SIGINT, replacing
    any that exits. Returns the exit status (0)."""
    sockets = config.create_sockets()
    context = get_context("spawn")
    shutdown_event = context.Event()
    draining_reader, draining_writer = context.Pipe(duplex=False)
    #: Workers stopping on their own SIGTERM, already replaced.
    draining: set[int] = set()
    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True
        shutdown_event.set()

    started_at: dict[int, float] = {}
    processes: list[BaseProcess] = []

    def start_one() -> None:
        process = context.Process(
            target=serve_worker,
            kwargs={
                "config": config,
                "sockets": sockets,
                "shutdown_event": shutdown_event,
                "draining": draining_writer,
            },
        )
        process.start()
        processes.append(process)
        if process.pid is not None:
            started_at[process.pid] = time.monotonic()

    # Children inherit SIGINT ignored (a terminal's ^C reaches the whole group): the supervisor
    # alone decides, through the shutdown event.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for _ in range(workers):
        start_one()
    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)

    backoff = 0.0
    restart_after = 0.0
    while not stopping:
        ready = wait([draining_reader, *(p.sentinel for p in processes)], timeout=0.5)
        if draining_reader in ready:
            with contextlib.suppress(EOFError, OSError):
                pid = draining_reader.recv()
                draining.add(pid)
                log.info("API process %s is draining; starting its replacement now", pid)
        for process in [p for p in processes if p.exitcode is not None]:
            process.join()
            processes.remove(process)
            lived = time.monotonic() - started_at.pop(process.pid or 0, time.monotonic())
            if process.pid in draining:
                draining.discard(process.pid)
                log.info("API process %s stopped after draining", process.pid)
                continue
            if stopping:
                continue
            # A fast failure waits longer each time; one that lived resets the wait.
            fast = lived < FAST_FAILURE_S
            backoff = min(MAX_BACKOFF_S, max(1.0, backoff * 2)) if fast else 0.0
            restart_after = time.monotonic() + backoff
            log.warning(
                "API process %s exited with status %s after %.1f s; starting another%s",
                process.pid,
                process.exitcode,
                lived,
                f" in {backoff:.0f} s" if backoff else "",
            )
        serving = len(processes) - len(draining)
        if not stopping and serving < workers and time.monotonic() >= restart_after:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            while len(processes) - len(draining) < workers:
                start_one()
            signal.signal(signal.SIGINT, stop)

    deadline = time.monotonic() + float(config.graceful_timeout) + 5.0
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
    for process in processes:
        if process.exitcode is None:
            process.terminate()
            process.join(5)
    for sock in [*sockets.secure_sockets, *sockets.insecure_sockets]:
        sock.close()
    return 0
