"""Request bodies that stream with back-pressure.

Quart's ASGI connection appends every ``http.request`` message to the request's body as soon
as it arrives, whether or not the handler reads it: a handler that streams a large body (the
signed visual-upload PUT, up to 10 MB) would still hold all of it in memory whenever the
client sends faster than the handler stores. Here the receiving task waits while more than
:data:`HIGH_WATER` bytes sit unread, until the handler takes the next chunk (``async for``).
A handler that reads the whole body at once (``await request.body``, ``get_data``,
``get_json``) lifts the wait, so those reads behave as Quart's (bounded by
``MAX_CONTENT_LENGTH``). A handler that never reads the body ends the request and with it the
waiting receiver, as before.
"""

from __future__ import annotations

import asyncio
from collections.abc import Generator
from typing import Any

from hypercorn.typing import ASGIReceiveCallable
from quart.asgi import ASGIHTTPConnection
from quart.wrappers import Request
from quart.wrappers.request import Body

HIGH_WATER = 256 * 1024
"""Unread bytes the receiver buffers before it waits for the handler."""
DRAIN_MAX_BYTES = 64 * 1024
"""A body unread when the response is ready is read to its end (keeping the connection) when it
announces at most this many bytes; a larger one closes the connection instead."""
DRAIN_WAIT_S = 1.0
"""How long an unread body of at most :data:`DRAIN_MAX_BYTES` may take to arrive."""


#: Set in an API process that is stopping (SIGTERM, ``supervisor.serve_worker``): every answer
#: says ``Connection: close``, so clients leave its keep-alive connections after their current
#: request instead of sending the next one into a connection that is about to close.
_stopping = False


def mark_stopping() -> None:
    global _stopping
    _stopping = True


async def keep_or_close(request: Request, headers: Any) -> None:
    """Before a response goes out: a request body not yet received in full (an answer given
    before the handler read it: 401, 429, 503, 413) is either read to its end, so the
    keep-alive connection stays usable, or the response says ``Connection: close``. Without
    either the server closes the connection after the response and a client that reuses it
    meets "Server disconnected without sending a response"."""
    if _stopping:
        headers["Connection"] = "close"
        return
    body = request.body
    length = request.content_length
    chunked = "chunked" in request.headers.get("Transfer-Encoding", "").lower()
    if not (chunked or (length is not None and length > 0)):
        return
    if body._complete.is_set() and body._must_raise is None:
        return
    if (
        not chunked
        and length is not None
        and length <= DRAIN_MAX_BYTES
        and body._must_raise is None
    ):
        if isinstance(body, StreamingBody):
            body._whole_wanted = True
            body._read.set()
        try:
            await asyncio.wait_for(body._complete.wait(), DRAIN_WAIT_S)
        except TimeoutError:
            pass
        else:
            if body._must_raise is None:
                return
    headers["Connection"] = "close"


class StreamingBody(Body):
    """Quart's body, plus :meth:`room`: the receiver's wait for the handler to read."""

    def __init__(self, expected_content_length: int | None, max_content_length: int | None) -> None:
        super().__init__(expected_content_length, max_content_length)
        self._read = asyncio.Event()
        self._whole_wanted = False

    async def __anext__(self) -> bytes:
        try:
            return await super().__anext__()
        finally:
            self._read.set()

    def __await__(self) -> Generator[Any, None, Any]:
        self._whole_wanted = True
        self._read.set()
        return super().__await__()

    async def room(self) -> None:
        """Return once the unread bytes are under :data:`HIGH_WATER`, or the whole body is
        wanted at once, or the body is complete or refused."""
        while (
            len(self._data) >= HIGH_WATER
            and not self._whole_wanted
            and not self._complete.is_set()
            and self._must_raise is None
        ):
            self._read.clear()
            await self._read.wait()


class StreamingHTTPConnection(ASGIHTTPConnection):
    """Quart's ASGI HTTP connection, but the receiver waits for :meth:`StreamingBody.room`."""

    async def handle_messages(self, request: Request, receive: ASGIReceiveCallable) -> None:
        body = request.body
        while True:
            message = await receive()
            if message["type"] == "http.request":
                body.append(message.get("body", b""))
                if not message.get("more_body", False):
                    body.set_complete()
                elif isinstance(body, StreamingBody):
                    await body.room()
            elif message["type"] == "http.disconnect":
                return
