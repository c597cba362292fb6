"""``client.jobs``: read, list, cancel and wait for asynchronous jobs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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

__all__ = ["AsyncJobs", "Jobs"]

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


def _finished_or_raise(job: Job) -> bool:
    if job.status == "succeeded":
        return True
    if job.status == "failed":
        raise JobFailedError(job)
    if job.status == "canceled":
        raise JobCanceledError(job)
    return False


class Jobs(SyncResource):
    operations = OPERATIONS

    def submit(
        self,
        operation: Operation[Any],
        *,
        body: RequestModel | None = None,
        path_params: dict[str, str] | None = None,
        idempotency_key: str | None = None,
    ) -> JobHandle:
        """Call an operation that queues a job (202 + job handle) and return the handle,
        bound to this client so ``handle.wait()`` polls it. Resources of queued operations
        (``client.vedic.kundli_matching_batch``, ...) call this."""
        handle = self._client.request_as(
            operation,
            JobHandle,
            body=body,
            path_params=path_params,
            idempotency_key=idempotency_key,
        )
        handle._jobs = self
        return handle

    def get(self, job_id: str) -> Job:
        """``GET /api/v3/jobs/{job_id}``: the job record (404 for another account's job)."""
        return self._client.request(GET_JOB, path_params={"job_id": job_id})

    def list(
        self, *, status: str | None = None, limit: int | None = None, cursor: str | None = None
    ) -> CursorPage[Job]:
        """``GET /api/v3/jobs``: the caller's jobs, newest first. Iterate the result for every
        job across pages; ``.data`` is the first page."""
        query = validate_request(JobListQuery, {"status": status, "limit": limit})

        def fetch(page_cursor: str | None) -> CursorPage[Job]:
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
        timeout_s: float = 600.0,
        poll_interval_s: float = 1.0,
        max_poll_interval_s: float = 10.0,
    ) -> Job:
        """Poll a job until it finishes and return it with its ``result``.

        Polls every ``poll_interval_s`` at first, 1.5 times longer each time up to
        ``max_poll_interval_s``, or after the server's ``Retry-After`` when it sends one.
        Raises ``JobFailedError`` (``JobCanceledError``) with the job's ``error``, or
        ``JobTimeoutError`` after ``timeout_s`` (the job itself goes on).
        """
        job_id = job_id_of(job)
        schedule = PollSchedule(
            self._client.monotonic() + timeout_s, poll_interval_s, max_poll_interval_s
        )
        while True:
            current = self.get(job_id)
            if _finished_or_raise(current):
                return current
            wait_s = schedule.next_wait_s(
                self._client.monotonic(), current.api_response.retry_after_s
            )
            if wait_s is None:
                raise JobTimeoutError(job_id=job_id, job=current, timeout_s=timeout_s)
            self._client.sleep(wait_s)


class AsyncJobs(AsyncResource):
    operations = OPERATIONS

    async def submit(
        self,
        operation: Operation[Any],
        *,
        body: RequestModel | None = None,
        path_params: dict[str, str] | None = None,
        idempotency_key: str | None = None,
    ) -> AsyncJobHandle:
        """Call an operation that queues a job; the handle's ``await handle.wait()`` polls it."""
        handle = await self._client.request_as(
            operation,
            AsyncJobHandle,
            body=body,
            path_params=path_params,
            idempotency_key=idempotency_key,
        )
        handle._jobs = self
        return handle

    async def get(self, job_id: str) -> Job:
        """``GET /api/v3/jobs/{job_id}``: the job record (404 for another account's job)."""
        return await self._client.request(GET_JOB, path_params={"job_id": job_id})

    def list(
        self, *, status: str | None = None, limit: int | None = None, cursor: str | None = None
    ) -> AsyncCursorPager[Job]:
        """``GET /api/v3/jobs``: ``await`` for the first page, ``async for`` for every job."""
        query = validate_request(JobListQuery, {"status": status, "limit": limit})

        async def fetch(page_cursor: str | None) -> AsyncCursorPage[Job]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = await self._client.request(LIST_JOBS, query=page_query)
            return AsyncCursorPage(page.jobs, page.next_cursor, fetch, page.api_response)

        return AsyncCursorPager(lambda: fetch(cursor))

    async def cancel(self, job_id: str) -> Job:
        """``POST /api/v3/jobs/{job_id}/cancel``: cancel a queued job."""
        return await self._client.request(CANCEL_JOB, path_params={"job_id": job_id})

    async def wait(
        self,
        job: JobRef,
        *,
        timeout_s: float = 600.0,
        poll_interval_s: float = 1.0,
        max_poll_interval_s: float = 10.0,
    ) -> Job:
        """Poll a job until it finishes; see :meth:`Jobs.wait`."""
        job_id = job_id_of(job)
        schedule = PollSchedule(
            self._client.monotonic() + timeout_s, poll_interval_s, max_poll_interval_s
        )
        while True:
            current = await self.get(job_id)
            if _finished_or_raise(current):
                return current
            wait_s = schedule.next_wait_s(
                self._client.monotonic(), current.api_response.retry_after_s
            )
            if wait_s is None:
                raise JobTimeoutError(job_id=job_id, job=current, timeout_s=timeout_s)
            await self._client.sleep(wait_s)
