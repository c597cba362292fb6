"""``GET /metrics``: Prometheus text format (keep it on the internal network)."""

from __future__ import annotations

from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from quart import Blueprint, Response
from quart_schema import hide
from tortoise.functions import Count

from astro_server.models import Job
from astro_server.services import metrics
from astro_server.services.jobs import STATUSES

blueprint = Blueprint("metrics", __name__)


@blueprint.get("/metrics")
@hide
async def prometheus_metrics() -> Response:
    counts = dict.fromkeys(STATUSES, 0)
    rows = await Job.annotate(n=Count("id")).group_by("status").values("status", "n")
    for row in rows:
        counts[row["status"]] = int(row["n"])
    for status, count in counts.items():
        metrics.JOBS_BY_STATUS.labels(status).set(count)
    return Response(generate_latest(metrics.REGISTRY), content_type=CONTENT_TYPE_LATEST)
