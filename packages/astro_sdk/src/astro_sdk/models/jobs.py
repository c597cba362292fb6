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
    "JobHandle",
    "JobListQuery",
    "JobPage",
]

# queued -> running -> succeeded | failed, and canceled (from queued).
TERMINAL_STATUSES = frozenset({"succeeded", "failed", "canceled"})


class Job(ResponseModel):
    """A job record. ``status`` is one of ``queued``, ``running``, ``succeeded``, ``failed``,
    ``canceled`` (kept a plain string so a status added later does not break parsing)."""

    job_id: str
    status: str
    kind: str
    """The operation that queued it, e.g. ``vedic.kundli_matching_batch``."""
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    progress: float
    """0 to 1."""
    result: Any = None
    """The operation's result once ``succeeded``."""
    error: dict[str, Any] | None
    """``{"error": slug, "message": text}`` once ``failed`` or ``canceled``."""
    credits_charged: int
    credits_refunded: int
    attempts: int
    """Executions started (a job whose worker died is taken up again)."""
    livemode: bool
    """False for a job made with a test key (``ak_test_``)."""

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

    jobs: list[Job]
    next_cursor: str | None


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
