"""Load shedding: at most ``ASTRO_MAX_CONCURRENT_REQUESTS`` requests at once per API process.

Past the limit a request is answered at once, before any work: ``503 service_unavailable``
with code ``overloaded``, ``Retry-After: 1`` and the error body. Without a limit every request
is admitted and all of them slow down together (300 connections: p50 4.4 s, max 28.5 s, no
refusal); with it the admitted ones keep their latency and the rest learn in a millisecond
that they should come back (or go to another process). A refusal whose request carries a body
(not read) says ``Connection: close``, like every early answer (platform/streaming.py).

The health and metrics endpoints are never shed: an orchestrator must see a busy process as
alive. Counted per process (an ASGI wrapper around the app): a limit of 0 turns it off.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from typing import Any, Final

log = logging.getLogger("astro_server.shedding")

EXEMPT_PATHS: Final = frozenset({"/healthz", "/readyz", "/metrics"})
RETRY_AFTER_S: Final = 1
#: Seconds between two log lines about refusals (one line per overload, with the count).
LOG_EVERY_S: Final = 10.0


class ConcurrencyLimit:
    """Wraps an ASGI app; see the module docstring."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app = app
        self.limit = limit
        self.active = 0
        self.refused = 0
        self._logged_at = -LOG_EVERY_S

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or self.limit <= 0 or scope.get("path") in EXEMPT_PATHS:
            await self.app(scope, receive, send)
            return
        if self.active >= self.limit:
            await self._refuse(scope, send)
            return
        self.active += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.active -= 1

    async def _refuse(self, scope: dict[str, Any], send: Any) -> None:
        self.refused += 1
        now = time.monotonic()
        if now - self._logged_at >= LOG_EVERY_S:
            self._logged_at = now
            log.warning(
                "overloaded: %d requests in flight (the limit); refusing more with 503 "
                "(%d refused so far)",
                self.active,
                self.refused,
            )
        request_id = "req_" + secrets.token_hex(12)
        body = json.dumps(
            {
                "error": "service_unavailable",
                "message": "The server is at capacity; retry in a moment.",
                "code": "overloaded",
                "request_id": request_id,
            }
        ).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"retry-after", str(RETRY_AFTER_S).encode()),
            (b"x-request-id", request_id.encode()),
        ]
        request_headers = dict(scope.get("headers", ()))
        has_body = request_headers.get(b"content-length", b"0") not in (b"0", b"") or (
            b"transfer-encoding" in request_headers
        )
        if has_body:
            headers.append((b"connection", b"close"))
        await send({"type": "http.response.start", "status": 503, "headers": headers})
        await send({"type": "http.response.body", "body": body})
