"""``GET /metrics``: Prometheus text format.

Who may read it: with ``ASTRO_METRICS_TOKEN`` set, a scraper sending
``Authorization: Bearer <token>`` (compared in constant time); unset, only clients on this
machine (a loopback peer address). Behind a reverse proxy on the same machine every client looks
local, so set the token there.
"""

from __future__ import annotations

import hmac
import ipaddress

from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from quart import Blueprint, Response, request
from quart_schema import hide
from tortoise.functions import Count

from astro_server.platform import metrics
from astro_server.platform.errors import APIError
from astro_server.platform.jobs import STATUSES
from astro_server.platform.models.jobs import Job
from astro_server.platform.runtime import platform

blueprint = Blueprint("metrics", __name__)


@blueprint.get("/metrics")
@hide
async def prometheus_metrics() -> Response:
    _allow_scraper()
    counts = dict.fromkeys(STATUSES, 0)
    rows = await Job.annotate(n=Count("id")).group_by("status").values("status", "n")
    for row in rows:
        counts[row["status"]] = int(row["n"])
    for status, count in counts.items():
        metrics.JOBS_BY_STATUS.labels(status).set(count)
    return Response(generate_latest(metrics.REGISTRY), content_type=CONTENT_TYPE_LATEST)


def _allow_scraper() -> None:
    token = platform().settings.metrics_token
    if token:
        scheme, _, presented = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(
            presented.strip().encode(), token.encode()
        ):
            raise APIError(
                401,
                "GET /metrics takes the metrics token (Authorization: Bearer ...).",
                code="401",
                headers={"WWW-Authenticate": "Bearer"},
            )
        return
    try:
        local = ipaddress.ip_address((request.remote_addr or "").split("%")[0]).is_loopback
    except ValueError:
        local = False
    if not local:
        raise APIError(
            403,
            "GET /metrics answers only clients on this machine unless ASTRO_METRICS_TOKEN is set.",
        )
