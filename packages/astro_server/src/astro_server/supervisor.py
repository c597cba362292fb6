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
  graceful timeout), then stragglers are terminated; the exit status is 0.
- Workers still ask Linux to SIGTERM them if the supervisor dies (``runtime.die_with_supervisor``).
"""

from __future__ import annotations

import logging
import signal
import time
from multiprocessing import get_context
from multiprocessing.connection import wait
from multiprocessing.process import BaseProcess
from typing import Any, Final

log = logging.getLogger("astro_server.supervisor")

FAST_FAILURE_S: Final = 5.0
MAX_BACKOFF_S: Final = 30.0


def _worker_function(config: Any) -> Any:
    if config.worker_class == "uvloop":
        from hypercorn.asyncio.run import uvloop_worker

        return uvloop_worker
    from hypercorn.asyncio.run import asyncio_worker

    return asyncio_worker


def supervise(config: Any, workers: int) -> int:
    """Run ``workers`` hypercorn worker processes of ``config`` until SIGTERM/SIGINT, replacing
    any that exits. Returns the exit status (0)."""
    sockets = config.create_sockets()
    worker_function = _worker_function(config)
    context = get_context("spawn")
    shutdown_event = context.Event()
    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True
        shutdown_event.set()

    started_at: dict[int, float] = {}
    processes: list[BaseProcess] = []

    def start_one() -> None:
        process = context.Process(
            target=worker_function,
            kwargs={"config": config, "sockets": sockets, "shutdown_event": shutdown_event},
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
        wait([p.sentinel for p in processes], timeout=0.5)
        for process in [p for p in processes if p.exitcode is not None]:
            process.join()
            processes.remove(process)
            lived = time.monotonic() - started_at.pop(process.pid or 0, time.monotonic())
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
        if not stopping and len(processes) < workers and time.monotonic() >= restart_after:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            while len(processes) < workers:
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
