"""Models of the Reports and Customer reports tag groups (``/api/v3/reports``, ``/v1/reports``).

A natal report request mirrors the server's body; the synchronous answer (and a finished report
job's ``result``) is a :class:`ReportResult`; :class:`Report` is a report's status with a freshly
signed URL of its file.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import Field, model_validator

from astro_sdk.models._base import RequestModel, ResponseModel
from astro_sdk.models.western import WesternSubjectOrReference

__all__ = [
    "Branding",
    "CustomerReportHandle",
    "NatalReportRequest",
    "Report",
    "ReportListQuery",
    "ReportPage",
    "ReportResult",
]

_HTTPS_URL = r"^https://[^\s]{1,2040}$"


class Branding(RequestModel):
    """White label: the report carries this brand only (name, colour, logo, contacts)."""

    brand_name: str = Field(min_length=1, max_length=120)
    logo_url: str | None = Field(default=None, max_length=2048, pattern=_HTTPS_URL)
    """https; a PNG, JPEG or SVG fetched once by the server."""
    primary_color: str | None = Field(default=None, pattern=r"^#[0-9A-Fa-f]{6}$")
    contact_email: str | None = Field(
        default=None, max_length=254, pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$"
    )
    contact_phone: str | None = Field(default=None, pattern=r"^\+[0-9]{7,15}$")
    """E.164: ``+`` and 7 to 15 digits."""
    contact_url: str | None = Field(default=None, max_length=2048, pattern=_HTTPS_URL)


class NatalReportRequest(RequestModel):
    birth_subject: WesternSubjectOrReference
    house_system: Literal["P", "W", "K", "E"] = "P"
    name: str = Field(min_length=1, max_length=120)
    locale: Literal["en", "th"] = "en"
    branding: Branding | None = None
    brand_profile_id: str | None = Field(default=None, pattern=r"^brand_[a-f0-9]{24}$")
    run_async: bool = Field(default=False, alias="async")
    format: Literal["pdf", "html"] = "pdf"

    @model_validator(mode="after")
    def _one_brand(self) -> NatalReportRequest:
        if self.branding is not None and self.brand_profile_id is not None:
            raise ValueError("give branding or brand_profile_id, not both")
        return self


class ReportResult(ResponseModel):
    """A finished report: the signed URL of its file (``pdf_url`` or ``html_url`` by format)."""

    report_id: str
    format: str
    pdf_url: str | None
    html_url: str | None
    expires_at: datetime

    @property
    def url(self) -> str:
        """The file's signed URL, whatever the format."""
        found = self.pdf_url or self.html_url
        if found is None:
            raise AttributeError("this report has no file URL")
        return found


class Report(ResponseModel):
    """A report's status; while its file is kept, a freshly signed URL (``GET`` again for a new
    one). ``status``: ``queued``, ``running``, ``succeeded`` or ``failed``."""

    report_id: str
    kind: str
    format: str
    locale: str
    #: The people the report is about; empty once the server no longer keeps its job record.
    subject_names: list[str] = Field(default_factory=list)
    status: str
    job_id: str | None
    created_at: datetime
    finished_at: datetime | None
    pdf_url: str | None
    html_url: str | None
    expires_at: datetime | None
    error: dict[str, Any] | None


class CustomerReportHandle(ResponseModel):
    """The 202 answer of an asynchronous customer report: poll ``client.customer_reports.get(
    report_id)`` (the ``poll`` path) until its status is ``succeeded`` or ``failed``."""

    job_id: str
    status: str
    poll: str
    report_id: str


class ReportListQuery(RequestModel):
    limit: int = Field(default=20, ge=1, le=100)
    cursor: str | None = Field(default=None, max_length=40)


class ReportPage(ResponseModel):
    reports: list[Report]
    next_cursor: str | None
