"""Liveness and readiness probes."""

from __future__ import annotations

from quart import Blueprint, Response, current_app
from quart_schema import hide

from astro_server.platform.errors import APIError
from astro_server.platform.responses import json_response

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
    from astro_server.features.reports.render.renderer import missing_components
    from astro_server.features.visual import EXTRA_HINT, missing_visual_dependencies

    missing = {"pdf_renderer": missing_components(), "visual": missing_visual_dependencies()}
    checks["pdf_renderer"] = "missing" if missing["pdf_renderer"] else "ok"
    checks["visual"] = (
        f"missing ({', '.join(missing['visual'])}): {EXTRA_HINT}" if missing["visual"] else "ok"
    )
    body = {"status": "ready", "checks": checks, "missing": {k: v for k, v in missing.items() if v}}
    return json_response(body)
