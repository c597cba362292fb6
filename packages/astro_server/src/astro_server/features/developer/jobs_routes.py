"""Job polling: ``GET /api/v3/jobs/{id}``, ``GET /api/v3/jobs``, ``POST .../{id}/cancel``."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field
from quart import Blueprint, Response
from quart_schema import (
    document_response,
    operation_id,
    tag,
    validate_querystring,
)

from astro_server.platform import jobs
from astro_server.platform.auth.guards import require_api_key
from astro_server.platform.caller import Caller
from astro_server.platform.responses import json_response
from astro_server.platform.schemas import ErrorBody

blueprint = Blueprint("jobs", __name__)


class JobRecord(BaseModel):
    job_id: str = Field(pattern=r"^job_[a-f0-9]{24}$")
    status: Literal["queued", "running", "succeeded", "failed", "canceled"]
    kind: str
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    progress: float = Field(ge=0, le=1)
    result: Any = None
    error: dict[str, Any] | None
    credits_charged: int
    credits_refunded: int
    attempts: int
    livemode: bool = Field(description="False for a job made with a test key (ak_test_)")


class JobList(BaseModel):
    jobs: list[JobRecord]
    next_cursor: str | None = Field(description="Pass as cursor for the next page; null at end")


class JobListQuery(BaseModel):
    limit: int = Field(default=20, ge=1, le=100)
    cursor: str | None = Field(default=None, max_length=40)
    status: Literal["queued", "running", "succeeded", "failed", "canceled"] | None = None


@blueprint.get("/api/v3/jobs/<job_id>")
@require_api_key
@document_response(JobRecord, 200)
@document_response(ErrorBody, 403)
@document_response(ErrorBody, 404)
@tag(["Developer workflow"])
@operation_id("getJob")
async def get_job(job_id: str, caller: Caller) -> Response:
    """The job record: status, progress, result or error, credits charged and refunded. A test
    key sees only test jobs, a live key only live ones (404 otherwise); a key whose scopes do not
    cover the job's kind (``reports.natal`` needs ``reports``) gets 403."""
    job = await jobs.get_owned_job(caller, job_id)
    return json_response(jobs.job_view(job))


@blueprint.get("/api/v3/jobs")
@require_api_key
@validate_querystring(JobListQuery)
@document_response(JobList, 200)
@tag(["Developer workflow"])
@operation_id("listJobs")
async def list_jobs(query_args: JobListQuery, caller: Caller) -> Response:
    """The caller's jobs, newest first, paged with ``cursor``."""
    page, next_cursor = await jobs.list_jobs(
        caller, query_args.limit, query_args.cursor, query_args.status
    )
    return json_response({"jobs": [jobs.job_view(j) for j in page], "next_cursor": next_cursor})


@blueprint.post("/api/v3/jobs/<job_id>/cancel")
@require_api_key
@document_response(JobRecord, 200)
@document_response(ErrorBody, 403)
@document_response(ErrorBody, 404)
@document_response(ErrorBody, 409)
@tag(["Developer workflow"])
@operation_id("cancelJob")
async def cancel_job(job_id: str, caller: Caller) -> Response:
    """Cancel a queued job; its charge is refunded. Running or finished jobs: 409."""
    job = await jobs.cancel_job(caller, job_id)
    return json_response(jobs.job_view(job))
