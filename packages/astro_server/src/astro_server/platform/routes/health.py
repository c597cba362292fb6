"""Liveness and readiness probes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from quart import Blueprint, Response, current_app
from quart_schema import hide

from astro_server.platform.errors import APIError
from astro_server.platform.responses import json_response


@dataclass(frozen=True)
class Capability:
    """An optional part of the server (an extra): ``missing()`` lists what is not installed;
    ``hint`` (how to install it) follows the list in ``/readyz``."""

    name: str
    missing: Callable[[], list[str]]
    hint: str | None = None


_capabilities: tuple[Capability, ...] = ()


def use_capabilities(capabilities: tuple[Capability, ...]) -> None:
    """The optional capabilities ``/readyz`` reports (the registry's ``CAPABILITIES``)."""
    global _capabilities
    _capabilities = capabilities


blueprint = Blueprint("health", __name__)


@blueprint.get("/healthz")
@hide
async def healthz() -> Response:
    """The process is alive."""
    return json_response({"status": "ok", "version": current_app.config["ASTRO_VERSION"]})


@blueprint.get("/readyz")
@hide
async def readyz() -> Response:
    """The database and the job broker answer (503 with the error body when one does not);
    optional capabilities this server lacks (the PDF renderer) are listed under ``missing``."""
    from astro_server.platform.db import ping_db

    settings = current_app.config["ASTRO_SETTINGS"]
    checks: dict[str, str] = {}
    try:
        await ping_db()
        checks["database"] = "ok"
    except Exception as exc:
        raise APIError(503, f"Database unreachable: {type(exc).__name__}") from exc
    if settings.redis_url:
        import redis.asyncio as aioredis

        client = aioredis.from_url(settings.redis_url, socket_timeout=2)
        try:
            await client.ping()
            checks["broker"] = "ok"
        except Exception as exc:
            raise APIError(503, f"Broker unreachable: {type(exc).__name__}") from exc
        finally:
            await client.aclose()
    else:
        checks["broker"] = "in-process"
    # Optional capabilities: missing ones are listed; the rest of the server is still ready
    # (their routes answer 503 naming what to install).
    missing = {capability.name: capability.missing() for capability in _capabilities}
    for capability in _capabilities:
        absent = missing[capability.name]
        if not absent:
            checks[capability.name] = "ok"
        elif capability.hint is None:
            checks[capability.name] = "missing"
        else:
            checks[capability.name] = f"missing ({', '.join(absent)}): {capability.hint}"
    body = {"status": "ready", "checks": checks, "missing": {k: v for k, v in missing.items() if v}}
    return json_response(body)
