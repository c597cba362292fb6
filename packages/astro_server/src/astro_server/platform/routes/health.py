"""Liveness and readiness probes.

``/readyz`` checks each dependency in turn and reports its state under ``checks`` and how long
its check took under ``latency_ms`` (milliseconds, two decimals): the database (a query), the
job broker (a Redis PING; ``in-process`` embedded), the file storage (the bucket's HEAD, or the
data directory writable), and the optional capabilities the registry declares (the PDF
renderer: playwright, pypdf and a Chromium binary; visual readings: their extra's modules).
A required dependency that fails makes the answer 503 with the error body (naming it); a
missing optional capability leaves the server ready (its routes answer 503 naming what to
install) and is listed under ``missing``.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from quart import Blueprint, Response, current_app
from quart_schema import hide

from astro_server.platform.errors import APIError
from astro_server.platform.outages import RETRY_AFTER_S
from astro_server.platform.responses import json_response

blueprint = Blueprint("health", __name__)
#: Not ready: a load balancer may ask again after the outage retry delay.
_RETRY = {"Retry-After": str(RETRY_AFTER_S)}


@dataclass(frozen=True)
class Capability:
    """An optional capability ``/readyz`` reports: ``missing()`` lists what this machine lacks
    (empty: ready); ``hint`` is appended to the check's state when something is missing."""

    name: str
    missing: Callable[[], list[str]]
    hint: str = ""


_capabilities: dict[str, Capability] = {}


def register_capability(capability: Capability) -> None:
    """Declared by the registry (build_platform): the platform imports no feature."""
    _capabilities[capability.name] = capability


async def _timed(check: Callable[[], Awaitable[Any]]) -> tuple[float, BaseException | None]:
    started = time.perf_counter()
    failure: BaseException | None = None
    try:
        await check()
    except Exception as exc:
        failure = exc
    return round((time.perf_counter() - started) * 1000, 2), failure


@blueprint.get("/healthz")
@hide
async def healthz() -> Response:
    """The process is alive."""
    return json_response({"status": "ok", "version": current_app.config["ASTRO_VERSION"]})


@blueprint.get("/readyz")
@hide
async def readyz() -> Response:
    """The database, the job broker and the file storage answer (503 with the error body when
    one does not); optional capabilities this server lacks (the PDF renderer, visual readings)
    are listed under ``missing``; ``latency_ms`` has each check's time."""
    from astro_server.platform.db import ping_db
    from astro_server.platform.files.service import storage

    settings = current_app.config["ASTRO_SETTINGS"]
    checks: dict[str, str] = {}
    latency: dict[str, float] = {}

    latency["database"], failure = await _timed(ping_db)
    if failure is not None:
        raise APIError(
            503, f"Database unreachable: {type(failure).__name__}", headers=_RETRY
        ) from failure
    checks["database"] = "ok"

    if settings.redis_url:
        from astro_server.platform.redisconn import settings_client

        client = settings_client(settings)
        try:
            latency["broker"], failure = await _timed(client.ping)
        finally:
            await client.aclose()
        if failure is not None:
            raise APIError(
                503, f"Broker unreachable: {type(failure).__name__}", headers=_RETRY
            ) from failure
        checks["broker"] = "ok"
    else:
        checks["broker"] = "in-process"
        latency["broker"] = 0.0

    latency["storage"], failure = await _timed(lambda: storage().check())
    if failure is not None:
        raise APIError(
            503, f"File storage unusable: {type(failure).__name__}", headers=_RETRY
        ) from failure
    checks["storage"] = "ok"

    missing: dict[str, list[str]] = {}
    for capability in _capabilities.values():
        started = time.perf_counter()
        found = capability.missing()
        latency[capability.name] = round((time.perf_counter() - started) * 1000, 2)
        if found:
            missing[capability.name] = found
            checks[capability.name] = (
                f"missing ({', '.join(found)}): {capability.hint}" if capability.hint else "missing"
            )
        else:
            checks[capability.name] = "ok"
    body = {"status": "ready", "checks": checks, "latency_ms": latency, "missing": missing}
    return json_response(body)
