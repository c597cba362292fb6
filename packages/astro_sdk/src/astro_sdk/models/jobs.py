"""Models of asynchronous jobs (``/api/v3/jobs``) and of the handle a queued operation returns."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, PrivateAttr

from astro_sdk.models._base import RequestModel, ResponseModel

if TYPE_CHECKING:
    from astro_sdk.resources.jobs import AsyncJobs, Jobs

__all__ = [
    "TERMINAL_STATUSES",
    "AsyncJobHandle",
    "Job",
    "JobErrorInfo",
    "JobHandle",
    "JobListQuery",
    "JobPage",
]

# queued -> running -> succeeded | failed, and canceled (from queued).
TERMINAL_STATUSES = frozenset({"succeeded", "failed", "canceled"})


class JobErrorInfo(ResponseModel):
    """Why a job failed: a slug and a message safe to show."""

    error: str
    message: str


class Job(ResponseModel):
    """A job record. ``status`` is one of ``queued``, ``running``, ``succeeded``, ``failed``,
    ``canceled`` (kept a plain string so a status added later does not break parsing)."""

    job_id: str
    status: str
    kind: str
    created_at: datetime
    started_at: datetime | None = None
    finished_at: datetime | None = None
    progress: float = 0.0
    result: Any = None
    error: JobErrorInfo | None = None
    credits_charged: int = 0
    credits_refunded: int = 0

    @property
    def is_finished(self) -> bool:
        return self.status in TERMINAL_STATUSES


class JobListQuery(RequestModel):
    cursor: str | None = None
    limit: int | None = Field(default=None, ge=1, le=100)
    status: Literal["queued", "running", "succeeded", "failed", "canceled"] | None = None


class JobPage(ResponseModel):
    """One page of ``GET /api/v3/jobs``, newest first; ``next_cursor`` is ``None`` on the last."""

    data: list[Job]
    next_cursor: str | None = None


class _JobHandleFields(ResponseModel):
    job_id: str
    status: str
    poll: str


class JobHandle(_JobHandleFields):
    """The 202 answer of a queued operation; ``wait()`` polls it to the finished :class:`Job`."""

    _jobs: Jobs | None = PrivateAttr(default=None)

    def wait(self, *, timeout_s: float = 600.0, poll_interval_s: float = 1.0) -> Job:
        """Poll until the job finishes; see :meth:`astro_sdk.resources.jobs.Jobs.wait`."""
        if self._jobs is None:
            raise RuntimeError("this handle is not bound to a client: use client.jobs.wait(...)")
        return self._jobs.wait(self, timeout_s=timeout_s, poll_interval_s=poll_interval_s)


class AsyncJobHandle(_JobHandleFields):
    """The async client's job handle: ``await handle.wait()``."""

    _jobs: AsyncJobs | None = PrivateAttr(default=None)

    async def wait(self, *, timeout_s: float = 600.0, poll_interval_s: float = 1.0) -> Job:
        if self._jobs is None:
            raise RuntimeError("this handle is not bound to a client: use client.jobs.wait(...)")
        return await self._jobs.wait(self, timeout_s=timeout_s, poll_interval_s=poll_interval_s)
