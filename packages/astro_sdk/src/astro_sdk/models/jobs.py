"""Models of asynchronous jobs (``/api/v3/jobs``) and of the handle a queued operation returns."""

from __future__ import annotations

import sys
from datetime import datetime
from typing import TYPE_CHECKING, Any, Generic, Literal

from pydantic import Field, PrivateAttr

from astro_sdk.models._base import RequestModel, ResponseModel

if TYPE_CHECKING:
    from astro_sdk.resources.jobs import AsyncJobs, Jobs

__all__ = [
    "TERMINAL_STATUSES",
    "AsyncJobHandle",
    "Job",
    "JobHandle",
    "JobListQuery",
    "JobPage",
]

if sys.version_info >= (3, 13):
    from typing import TypeVar
else:  # TypeVar defaults (PEP 696) before 3.13
    from typing_extensions import TypeVar

ResultT = TypeVar("ResultT", default=Any)
"""The model of a job's ``result``: ``Any`` (a plain JSON value) unless the job was queued by a
typed resource method or read with ``result_model=``."""

# queued -> running -> succeeded | failed, and canceled (from queued).
TERMINAL_STATUSES = frozenset({"succeeded", "failed", "canceled"})


class Job(ResponseModel, Generic[ResultT]):
    """A job record. ``status`` is one of ``queued``, ``running``, ``succeeded``, ``failed``,
    ``canceled`` (kept a plain string so a status added later does not break parsing).

    ``Job`` alone has an untyped ``result`` (the JSON value); ``Job[KundliBatchResult]`` parses
    it into that model. A queued operation's handle (``client.vedic.kundli_matching_batch(...)``)
    waits for a ``Job`` of its result model; ``client.jobs.get(id, result_model=M)`` reads one."""

    job_id: str
    status: str
    kind: str
    """The operation that queued it, e.g. ``vedic.kundli_matching_batch``."""
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    progress: float
    """0 to 1."""
    result: ResultT | None = None
    """The operation's result once ``succeeded`` (``None`` before)."""
    error: dict[str, Any] | None
    """``{"error": slug, "message": text}`` once ``failed`` or ``canceled``."""
    credits_charged: int
    credits_refunded: int
    attempts: int
    """Executions started (a job whose worker died is taken up again)."""

    @property
    def is_finished(self) -> bool:
        return self.status in TERMINAL_STATUSES

    @property
    def error_message(self) -> str | None:
        """The failure's message, when the job failed or was canceled."""
        if not self.error:
            return None
        message = self.error.get("message")
        return message if isinstance(message, str) else str(self.error)


class JobListQuery(RequestModel):
    limit: int = Field(default=20, ge=1, le=100)
    cursor: str | None = Field(default=None, max_length=40)
    status: Literal["queued", "running", "succeeded", "failed", "canceled"] | None = None


class JobPage(ResponseModel):
    """One page of ``GET /api/v3/jobs``, newest first; ``next_cursor`` is ``None`` on the last."""

    jobs: list[Job[Any]]
    next_cursor: str | None


class _JobHandleFields(ResponseModel):
    job_id: str
    status: str
    poll: str


class JobHandle(_JobHandleFields, Generic[ResultT]):
    """The 202 answer of a queued operation; ``wait()`` polls it to the finished
    ``Job[ResultT]``, its ``result`` parsed into the operation's result model."""

    _jobs: Jobs | None = PrivateAttr(default=None)
    _result_model: type[Any] | None = PrivateAttr(default=None)

    def wait(self, *, timeout_s: float = 600.0, poll_interval_s: float = 1.0) -> Job[ResultT]:
        """Poll until the job finishes; see :meth:`astro_sdk.resources.jobs.Jobs.wait`."""
        if self._jobs is None:
            raise RuntimeError("this handle is not bound to a client: use client.jobs.wait(...)")
        job: Job[ResultT] = self._jobs.wait(
            self,
            result_model=self._result_model,
            timeout_s=timeout_s,
            poll_interval_s=poll_interval_s,
        )
        return job


class AsyncJobHandle(_JobHandleFields, Generic[ResultT]):
    """The async client's job handle: ``await handle.wait()`` gives the ``Job[ResultT]``."""

    _jobs: AsyncJobs | None = PrivateAttr(default=None)
    _result_model: type[Any] | None = PrivateAttr(default=None)

    async def wait(self, *, timeout_s: float = 600.0, poll_interval_s: float = 1.0) -> Job[ResultT]:
        """Poll until the job finishes; see :meth:`astro_sdk.resources.jobs.Jobs.wait`."""
        if self._jobs is None:
            raise RuntimeError("this handle is not bound to a client: use client.jobs.wait(...)")
        job: Job[ResultT] = await self._jobs.wait(
            self,
            result_model=self._result_model,
            timeout_s=timeout_s,
            poll_interval_s=poll_interval_s,
        )
        return job
