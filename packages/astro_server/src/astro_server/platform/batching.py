"""Coalescing of small writes on the request path (group commit).

A :class:`Coalescer` sends the items submitted while its previous flush was running together, in
one flush: under load one round trip (and, for a database, one commit) serves many requests;
alone, a request is flushed at once. Every caller waits for the flush that carries its item and
gets that item's own result or error, so nothing is acknowledged before it is written.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")


class Coalescer(Generic[T, R]):
    """``flush(items)`` returns one result per item, in order; an ``Exception`` instance in
    place of a result is raised to that item's caller. Use from one event loop."""

    def __init__(self, flush: Callable[[list[T]], Awaitable[Sequence[R | Exception]]]) -> None:
        self._flush = flush
        self._queue: list[tuple[T, asyncio.Future[R]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def submit(self, item: T) -> R:
        # A caller that goes away (client disconnect) only cancels its own future: its item is
        # still flushed with the others.
        return await self.enqueue(item)

    def enqueue(self, item: T) -> asyncio.Future[R]:
        """Queue ``item`` and return the future of its result (for callers that must learn the
        outcome even when they are cancelled: await it through ``asyncio.shield``)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[R] = loop.create_future()
        self._queue.append((item, done))
        if self._writer is None:
            self._writer = loop.create_task(self._drain())
        return done

    async def _drain(self) -> None:
        try:
            while self._queue:
                batch, self._queue = self._queue, []
                try:
                    results = await self._flush([item for item, _ in batch])
                    if len(results) != len(batch):
                        raise RuntimeError("flush returned a result count unlike its items")
                except Exception as exc:
                    for _, done in batch:
                        if not done.done():
                            done.set_exception(exc)
                except BaseException:
                    self._queue[:0] = batch  # failed below
                    raise
                else:
                    for (_, done), result in zip(batch, results, strict=True):
                        if done.done():
                            continue
                        if isinstance(result, Exception):
                            done.set_exception(result)
                        else:
                            done.set_result(result)
        finally:
            self._writer = None
            for _, done in self._queue:  # only when the event loop itself is going away
                if not done.done():
                    done.set_exception(RuntimeError("coalescer stopped"))
            self._queue = []


#: Coalescers by event loop: a coalescer's futures belong to the loop that made them.
LoopCoalescers = weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Coalescer[T, R]]


def coalescer_for_loop(
    registry: LoopCoalescers[T, R],
    flush: Callable[[list[T]], Awaitable[Sequence[R | Exception]]],
) -> Coalescer[T, R]:
    """The running loop's coalescer in ``registry``, made with ``flush`` on first use."""
    loop = asyncio.get_running_loop()
    coalescer = registry.get(loop)
    if coalescer is None:
        coalescer = registry[loop] = Coalescer(flush)
    return coalescer
