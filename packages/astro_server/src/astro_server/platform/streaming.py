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
