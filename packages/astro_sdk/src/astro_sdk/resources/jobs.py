"""``client.jobs``: read, list, cancel and wait for asynchronous jobs."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any, cast

from astro_sdk._base import validate_request
from astro_sdk._exceptions import JobCanceledError, JobFailedError, JobTimeoutError
from astro_sdk._operation import Credential, Operation
from astro_sdk._pagination import AsyncCursorPage, AsyncCursorPager, CursorPage
from astro_sdk._resource import AsyncResource, SyncResource
from astro_sdk.models._base import RequestModel
from astro_sdk.models.jobs import (
    AsyncJobHandle,
    Job,
    JobHandle,
    JobListQuery,
    JobPage,
)

if sys.version_info >= (3, 13):
    from typing import TypeVar
else:  # TypeVar defaults (PEP 696) before 3.13
    from typing_extensions import TypeVar

__all__ = ["AsyncJobs", "Jobs"]

ResultT = TypeVar("ResultT", default=Any)

GET_JOB = Operation(
    operation_id="getJob",
    method="GET",
    path="/api/v3/jobs/{job_id}",
    credential=Credential.API_KEY,
    response_model=Job,
)
LIST_JOBS = Operation(
    operation_id="listJobs",
    method="GET",
    path="/api/v3/jobs",
    credential=Credential.API_KEY,
    response_model=JobPage,
    query_model=JobListQuery,
)
CANCEL_JOB = Operation(
    operation_id="cancelJob",
    method="POST",
    path="/api/v3/jobs/{job_id}/cancel",
    credential=Credential.API_KEY,
    response_model=Job,
)
OPERATIONS = (GET_JOB, LIST_JOBS, CANCEL_JOB)

JobRef = str | Job | JobHandle | AsyncJobHandle


def job_id_of(job: JobRef) -> str:
    return job if isinstance(job, str) else job.job_id


def result_model_of(job: JobRef, result_model: type[Any] | None) -> type[Any] | None:
    """The given ``result_model``, else the one a typed handle carries, else none (``Any``)."""
    if result_model is None and isinstance(job, JobHandle | AsyncJobHandle):
        return job._result_model
    return result_model


def job_model(result_model: type[Any] | None) -> type[Job[Any]]:
    """``Job`` or ``Job[result_model]`` (pydantic makes each parametrisation once)."""
    if result_model is None:
        return Job
    return cast("type[Job[Any]]", Job[result_model])  # type: ignore[valid-type]


@dataclass
class PollSchedule:
    """When to poll next: the interval grows by ``growth`` up to ``max_interval_s``; a
    ``Retry-After`` on the job response overrides it; no wait goes past the deadline."""

    deadline: float
    interval_s: float
    max_interval_s: float
    growth: float = 1.5

    def next_wait_s(self, now: float, retry_after_s: float | None) -> float | None:
        """Seconds to sleep before the next poll, or ``None`` once the deadline has passed."""
        remaining_s = self.deadline - now
        if remaining_s <= 0:
            return None
        wanted_s = retry_after_s if retry_after_s is not None else self.interval_s
        self.interval_s = min(self.max_interval_s, self.interval_s * self.growth)
        return min(wanted_s, remaining_s)


def _finished_or_raise(job: Job[Any]) -> bool:
    if job.status == "succeeded":
        return True
    if job.status == "failed":
        raise JobFailedError(job)
    if job.status == "canceled":
        raise JobCanceledError(job)
    return False


class AsyncJobs(AsyncResource):
    """``client.jobs``: read, list, cancel and wait for asynchronous jobs."""

    operations = OPERATIONS

    async def submit(
        self,
        operation: Operation[Any],
        *,
        result_model: type[ResultT] | None = None,
        body: RequestModel | None = None,
        path_params: dict[str, str] | None = None,
        idempotency_key: str | None = None,
    ) -> AsyncJobHandle[ResultT]:
        """Call an operation that queues a job (202 + job handle) and return the handle,
        bound to this client so ``handle.wait()`` polls it and parses the job's ``result``
        into ``result_model``. Resources of queued operations
        (``client.vedic.kundli_matching_batch``, ...) call this."""
        handle: AsyncJobHandle[ResultT] = await self._client.request_as(
            operation,
            AsyncJobHandle,
            body=body,
            path_params=path_params,
            idempotency_key=idempotency_key,
        )
        handle._jobs = self
        handle._result_model = result_model
        return handle

    async def get(self, job_id: str, *, result_model: type[ResultT] | None = None) -> Job[ResultT]:
        """``GET /api/v3/jobs/{job_id}``: the job record (404 for another account's job).

        Its ``result`` is the plain JSON value, or parsed into ``result_model`` when given
        (e.g. ``KundliBatchResult``)."""
        job: Job[ResultT] = await self._client.request_as(
            GET_JOB, job_model(result_model), path_params={"job_id": job_id}
        )
        return job

    def list(
        self, *, status: str | None = None, limit: int | None = None, cursor: str | None = None
    ) -> AsyncCursorPager[Job[Any]]:
        """``GET /api/v3/jobs``: the caller's jobs, newest first. Iterate the result for every
        job across pages (``async for`` on the async client, where awaiting it gives the first
        page); ``.data`` is the first page."""
        query = validate_request(JobListQuery, {"status": status, "limit": limit})

        async def fetch(page_cursor: str | None) -> AsyncCursorPage[Job[Any]]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = await self._client.request(LIST_JOBS, query=page_query)
            return AsyncCursorPage(page.jobs, page.next_cursor, fetch, page.api_response)

        return AsyncCursorPager(lambda: fetch(cursor))

    async def cancel(self, job_id: str) -> Job:
        """``POST /api/v3/jobs/{job_id}/cancel``: cancel a queued job (its credits are
        refunded); a job already running or finished is a 409."""
        return await self._client.request(CANCEL_JOB, path_params={"job_id": job_id})

    async def wait(
        self,
        job: JobRef,
        *,
        result_model: type[ResultT] | None = None,
        timeout_s: float = 600.0,
        poll_interval_s: float = 1.0,
        max_poll_interval_s: float = 10.0,
    ) -> Job[ResultT]:
        """Poll a job until it finishes and return it with its ``result`` (parsed into
        ``result_model``, or the model a typed handle carries; else the plain JSON value).

        Polls every ``poll_interval_s`` at first, 1.5 times longer each time up to
        ``max_poll_interval_s``, or after the server's ``Retry-After`` when it sends one.
        Raises ``JobFailedError`` (``JobCanceledError``) with the job's ``error``, or
        ``JobTimeoutError`` after ``timeout_s`` (the job itself goes on).
        """
        job_id = job_id_of(job)
        model = result_model_of(job, result_model)
        schedule = PollSchedule(
            self._client.monotonic() + timeout_s, poll_interval_s, max_poll_interval_s
        )
        while True:
            current: Job[ResultT] = await self.get(job_id, result_model=model)
            if _finished_or_raise(current):
                return current
            wait_s = schedule.next_wait_s(
                self._client.monotonic(), current.api_response.retry_after_s
            )
            if wait_s is None:
                raise JobTimeoutError(job_id=job_id, job=current, timeout_s=timeout_s)
            await self._client.sleep(wait_s)


# --- Generated by scripts/unasync.py from the Async classes above: do not edit below. ---


class Jobs(SyncResource):
    """``client.jobs``: read, list, cancel and wait for asynchronous jobs."""

    operations = OPERATIONS

    def submit(
        self,
        operation: Operation[Any],
        *,
        result_model: type[ResultT] | None = None,
        body: RequestModel | None = None,
        path_params: dict[str, str] | None = None,
        idempotency_key: str | None = None,
    ) -> JobHandle[ResultT]:
        """Call an operation that queues a job (202 + job handle) and return the handle,
        bound to this client so ``handle.wait()`` polls it and parses the job's ``result``
        into ``result_model``. Resources of queued operations
        (``client.vedic.kundli_matching_batch``, ...) call this."""
        handle: JobHandle[ResultT] = self._client.request_as(
            operation,
            JobHandle,
            body=body,
            path_params=path_params,
            idempotency_key=idempotency_key,
        )
        handle._jobs = self
        handle._result_model = result_model
        return handle

    def get(self, job_id: str, *, result_model: type[ResultT] | None = None) -> Job[ResultT]:
        """``GET /api/v3/jobs/{job_id}``: the job record (404 for another account's job).

        Its ``result`` is the plain JSON value, or parsed into ``result_model`` when given
        (e.g. ``KundliBatchResult``)."""
        job: Job[ResultT] = self._client.request_as(
            GET_JOB, job_model(result_model), path_params={"job_id": job_id}
        )
        return job

    def list(
        self, *, status: str | None = None, limit: int | None = None, cursor: str | None = None
    ) -> CursorPage[Job[Any]]:
        """``GET /api/v3/jobs``: the caller's jobs, newest first. Iterate the result for every
        job across pages (``async for`` on the async client, where awaiting it gives the first
        page); ``.data`` is the first page."""
        query = validate_request(JobListQuery, {"status": status, "limit": limit})

        def fetch(page_cursor: str | None) -> CursorPage[Job[Any]]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = self._client.request(LIST_JOBS, query=page_query)
            return CursorPage(page.jobs, page.next_cursor, fetch, page.api_response)

        return fetch(cursor)

    def cancel(self, job_id: str) -> Job:
        """``POST /api/v3/jobs/{job_id}/cancel``: cancel a queued job (its credits are
        refunded); a job already running or finished is a 409."""
        return self._client.request(CANCEL_JOB, path_params={"job_id": job_id})

    def wait(
        self,
        job: JobRef,
        *,
        result_model: type[ResultT] | None = None,
        timeout_s: float = 600.0,
        poll_interval_s: float = 1.0,
        max_poll_interval_s: float = 10.0,
    ) -> Job[ResultT]:
        """Poll a job until it finishes and return it with its ``result`` (parsed into
        ``result_model``, or the model a typed handle carries; else the plain JSON value).

        Polls every ``poll_interval_s`` at first, 1.5 times longer each time up to
        ``max_poll_interval_s``, or after the server's ``Retry-After`` when it sends one.
        Raises ``JobFailedError`` (``JobCanceledError``) with the job's ``error``, or
        ``JobTimeoutError`` after ``timeout_s`` (the job itself goes on).
        """
        job_id = job_id_of(job)
        model = result_model_of(job, result_model)
        schedule = PollSchedule(
            self._client.monotonic() + timeout_s, poll_interval_s, max_poll_interval_s
        )
        while True:
            current: Job[ResultT] = self.get(job_id, result_model=model)
            if _finished_or_raise(current):
                return current
            wait_s = schedule.next_wait_s(
                self._client.monotonic(), current.api_response.retry_after_s
            )
            if wait_s is None:
                raise JobTimeoutError(job_id=job_id, job=current, timeout_s=timeout_s)
            self._client.sleep(wait_s)
