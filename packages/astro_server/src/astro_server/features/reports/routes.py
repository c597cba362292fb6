"""Reports (API key, spec 9) and Customer reports (session): the branded natal report.

``POST /api/v3/reports/natal/pdf`` (tier pro, ``reports.natal_pdf``) and its customer twin
``POST /v1/reports/natal`` (billed to the customer's account) take the spec's fields:
``birth_subject`` (``date``, ``time``, ``latitude``, ``longitude`` required; the offset, or the
zone, or the zone found from the coordinates), ``house_system`` ``P|W|K|E`` (default ``P``),
``name`` (1..120, required), ``locale`` ``en|th`` (default ``en``), ``branding`` or
``brand_profile_id`` (not both), ``async`` (default false) and our ``format`` ``pdf|html``
(default ``pdf``). ``async: false`` holds the connection (the job still runs on a worker) and
answers 200 ``{report_id, format, pdf_url, html_url, expires_at}``; ``async: true`` answers 202
with the job handle, whose finished job's ``result`` is that same body.

``GET /api/v3/reports/{report_id}`` and ``GET /v1/reports/{report_id}`` answer the report's
status with a freshly signed URL while the file is kept, 410 ``gone`` after its retention;
``GET /v1/reports`` lists the account's reports, newest first. Another account's report is 404.
Without Chromium the PDF routes answer 503 ``service_unavailable`` naming what is missing
(``format: "html"`` needs no browser and keeps working).
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any, Literal, TypeVar, cast

from pydantic import BaseModel, ConfigDict, Field, model_validator
from quart import Blueprint, Response, request
from quart_schema import (
    document_response,
    operation_id,
    tag,
    validate_querystring,
)

from astro_server.features.common.subject import subject_errors
from astro_server.features.reports import service as reports
from astro_server.features.reports.render.renderer import missing_components
from astro_server.features.western.routes import WesternSubject
from astro_server.platform.auth.guards import require_api_key, require_session
from astro_server.platform.billing.billable import billable, current_charge
from astro_server.platform.caller import Caller
from astro_server.platform.errors import APIError
from astro_server.platform.hosts import public_base
from astro_server.platform.jobs import creator_of
from astro_server.platform.responses import job_accepted, json_response
from astro_server.platform.schemas import ErrorBody, JobHandle

blueprint = Blueprint("reports", __name__)
REPORTS_TAG = ["Reports"]
CUSTOMER_TAG = ["Customer reports"]
BRAND_ID_PATTERN = r"^brand_[a-f0-9]{24}$"
HTTPS_URL = r"^https://[^\s]{1,2040}$"

F = TypeVar("F", bound=Callable[..., Awaitable[Any]])


class Branding(BaseModel):
    """The spec's Branding object; our limits where the spec is silent (docs/decisions.md)."""

    model_config = ConfigDict(extra="forbid")

    brand_name: str = Field(min_length=1, max_length=120)
    logo_url: str | None = Field(
        default=None, max_length=2048, pattern=HTTPS_URL, description="https; PNG, JPEG or SVG"
    )
    primary_color: str | None = Field(
        default=None, pattern=r"^#[0-9A-Fa-f]{6}$", description="#RRGGBB"
    )
    contact_email: str | None = Field(
        default=None, max_length=254, pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$", description="e-mail"
    )
    contact_phone: str | None = Field(
        default=None, pattern=r"^\+[0-9]{7,15}$", description="E.164: + and 7 to 15 digits"
    )
    contact_url: str | None = Field(default=None, max_length=2048, pattern=HTTPS_URL)


class ReportSubject(WesternSubject):
    """The spec's birth subject for reports: date, time, latitude and longitude required."""


class NatalReportRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    birth_subject: ReportSubject
    house_system: Literal["P", "W", "K", "E"] = Field(
        default="P", description="P Placidus (default), W whole sign, K Koch, E equal"
    )
    name: str = Field(min_length=1, max_length=120, description="The person the report is for")
    locale: Literal["en", "th"] = "en"
    branding: Branding | None = Field(default=None, description="White label; or brand_profile_id")
    brand_profile_id: str | None = Field(default=None, pattern=BRAND_ID_PATTERN)
    run_async: bool = Field(
        default=False, alias="async", description="true: queue a job and answer 202"
    )
    format: Literal["pdf", "html"] = Field(
        default="pdf", description="pdf, or one self-contained HTML file"
    )

    @model_validator(mode="after")
    def _one_brand(self) -> NatalReportRequest:
        if self.branding is not None and self.brand_profile_id is not None:
            raise ValueError("give branding or brand_profile_id, not both")
        if not self.name.strip():
            raise ValueError("name must not be blank")
        return self


class ReportResult(BaseModel):
    """The synchronous response, and the finished job's ``result``."""

    report_id: str = Field(pattern=reports.REPORT_ID_PATTERN)
    format: Literal["pdf", "html"]
    pdf_url: str | None = Field(description="Signed URL of the PDF (format pdf)")
    html_url: str | None = Field(description="Signed URL of the HTML file (format html)")
    expires_at: datetime


class ReportJobHandle(JobHandle):
    """The 202 answer: the job handle and the report it makes. ``poll`` is the job
    (``/api/v3/jobs/{id}``) on the API-key route, the report (``/v1/reports/{id}``) on the
    customer route."""

    report_id: str = Field(pattern=reports.REPORT_ID_PATTERN)


class ReportRecord(BaseModel):
    report_id: str = Field(pattern=reports.REPORT_ID_PATTERN)
    kind: Literal["natal", "hr_screening"]
    format: Literal["pdf", "html"]
    locale: Literal["en", "th"]
    subject_names: list[str] = Field(
        default_factory=list,
        description="The people the report is about (the natal report's name, the HR "
        "assessment's candidate); empty once the job record is gone",
    )
    status: Literal["queued", "running", "succeeded", "failed"]
    job_id: str | None
    created_at: datetime
    finished_at: datetime | None
    pdf_url: str | None = Field(description="Freshly signed while the file is kept")
    html_url: str | None
    expires_at: datetime | None
    error: dict[str, Any] | None


class ReportList(BaseModel):
    reports: list[ReportRecord]
    next_cursor: str | None = Field(description="Pass as cursor for the next page; null at end")


class ReportListQuery(BaseModel):
    limit: int = Field(default=20, ge=1, le=100)
    cursor: str | None = Field(default=None, max_length=40)


def requires_renderer(func: F) -> F:
    """503 ``service_unavailable`` naming what is missing, before any charge, when a PDF is
    asked for and this server cannot print one."""

    @functools.wraps(func)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        body = await request.get_json(silent=True)
        wanted = body.get("format", "pdf") if isinstance(body, dict) else "pdf"
        if wanted != "html":
            missing = missing_components()
            if missing:
                raise APIError(
                    503,
                    "PDF reports are unavailable on this server: missing " + "; ".join(missing),
                )
        return await func(*args, **kwargs)

    return cast(F, document_response(ErrorBody, 503)(wrapper))


async def _create(caller: Caller, data: NatalReportRequest, customer_id: str | None) -> Response:
    with subject_errors("birth_subject"):
        data.birth_subject.resolve()  # a local time the clock skipped is a 400, not a job
    await reports.check_render_capacity(caller)
    if data.format == "pdf":
        await reports.check_test_pdf_allowance(caller)
    brand: dict[str, Any] | None = None
    if data.brand_profile_id is not None:
        brand = await reports.brand_params_from_profile(caller.account_id, data.brand_profile_id)
    elif data.branding is not None:
        brand = await reports.brand_params_from_branding(
            caller.account_id, data.branding.model_dump()
        )
    body = data.model_dump(mode="json", exclude={"branding", "brand_profile_id", "run_async"})
    base_url = public_base()
    report, handle = await reports.create_natal_report(
        account_id=caller.account_id,
        livemode=caller.livemode,
        customer_id=customer_id,
        request=body,
        brand=brand,
        base_url=base_url,
        charge=current_charge() if data.run_async else None,
        created_by=creator_of(caller),
    )
    if data.run_async:
        handle = {**handle, "report_id": report.id}
        if customer_id is not None:  # a session cannot read /api/v3/jobs: poll the report
            handle["poll"] = f"/v1/reports/{report.id}"
        return job_accepted(handle)
    job = await reports.wait_for_job(handle["job_id"])
    if job.status != "succeeded":
        error = job.error or {}
        if error.get("error") == "service_unavailable":
            raise APIError(503, str(error.get("message", "PDF rendering is unavailable.")))
        raise APIError(
            500, "The report could not be rendered; the charge is refunded.", code="report_failed"
        )
    return json_response(job.result)


def _documented(func: F) -> F:
    for status in (404, 429):
        func = document_response(ErrorBody, status)(func)
    return func


@blueprint.post("/api/v3/reports/natal/pdf")
@require_api_key
@requires_renderer
@billable("reports.natal_pdf", body=NatalReportRequest)
@document_response(ReportResult, 200)
@document_response(ReportJobHandle, 202)
@_documented
@tag(REPORTS_TAG)
@operation_id("reportsNatalPdf")
async def natal_pdf(data: NatalReportRequest, caller: Caller) -> Response:
    """Natal chart report as a branded PDF

    A cover, the chart wheel, tables of positions, houses and aspects, element and modality
    balance and interpretation chapters in English or Thai, under the caller's brand (white
    label) or a neutral one; ``format: "html"`` gives the same report as one self-contained HTML
    file. ``async: false`` holds the connection and answers 200 with a signed URL; ``async:
    true`` answers 202 with the job handle (and ``report_id``), whose finished ``result`` is the
    same body. Charged once; refunded if rendering fails. 503 when this server cannot print PDFs.
    """
    return await _create(caller, data, None)


@blueprint.get("/api/v3/reports/<report_id>")
@require_api_key
@document_response(ReportRecord, 200)
@document_response(ErrorBody, 404)
@document_response(ErrorBody, 410)
@tag(REPORTS_TAG)
@operation_id("getReport")
async def get_report(report_id: str, caller: Caller) -> Response:
    """A report's status and a fresh URL

    The report's status (``queued``, ``running``, ``succeeded``, ``failed``) and, while its file
    is kept (``ASTRO_FILE_RETENTION_HOURS``), a freshly signed URL valid 24 hours; 410 ``gone``
    once the file was deleted. Another account's report is 404.
    """
    report = await reports.get_report(caller, report_id)
    return json_response(await reports.report_view(report, public_base()))


@blueprint.post("/v1/reports/natal")
@require_session
@requires_renderer
@billable("reports.natal_pdf", body=NatalReportRequest)
@document_response(ReportResult, 200)
@document_response(ReportJobHandle, 202)
@_documented
@tag(CUSTOMER_TAG)
@operation_id("createCustomerNatalReport")
async def customer_natal_report(data: NatalReportRequest, caller: Caller) -> Response:
    """Natal chart report for a customer

    The same request and answers as ``POST /api/v3/reports/natal/pdf``, for a customer session
    and billed to the customer's account (tier pro); ``brand_profile_id`` names one of the
    account's brand profiles. The 202 of ``async: true`` polls ``/v1/reports/{report_id}``.
    """
    return await _create(caller, data, caller.login_id)


@blueprint.get("/v1/reports")
@require_session
@validate_querystring(ReportListQuery)
@document_response(ReportList, 200)
@tag(CUSTOMER_TAG)
@operation_id("listCustomerReports")
async def customer_reports(query_args: ReportListQuery, caller: Caller) -> Response:
    """List the account's reports

    The account's reports, newest first, paged with ``cursor`` (the ``next_cursor`` of the
    previous page); each with a freshly signed URL while its file is kept, none after.
    """
    page, next_cursor = await reports.list_reports(caller, query_args.limit, query_args.cursor)
    base_url = public_base()
    # A report whose file is gone is listed without URLs.
    views = [await reports.report_view(r, base_url, expired_ok=True) for r in page]
    return json_response({"reports": views, "next_cursor": next_cursor})


@blueprint.get("/v1/reports/<report_id>")
@require_session
@document_response(ReportRecord, 200)
@document_response(ErrorBody, 404)
@document_response(ErrorBody, 410)
@tag(CUSTOMER_TAG)
@operation_id("getCustomerReport")
async def customer_report(report_id: str, caller: Caller) -> Response:
    """A customer's report and a fresh URL

    One of the account's reports with a freshly signed URL while its file is kept; 410 ``gone``
    after its retention. Another account's report is 404.
    """
    report = await reports.get_report(caller, report_id)
    return json_response(await reports.report_view(report, public_base()))
