"""Natal reports: queue, render in a worker, store, sign, announce.

A request (API key or customer session) creates a :class:`~astro_server.platform.models.Report` row
and
queues the job ``reports.natal`` (one kind for sync and async). The job computes the chart,
builds the HTML (:mod:`astro_server.features.reports.render.natal`), prints it with Chromium when
the format is
``pdf``, stores the file (:func:`astro_server.platform.files.store_file`, kept
``ASTRO_FILE_RETENTION_HOURS``), marks the report ``succeeded`` and emits ``report.succeeded``;
any failure marks it ``failed``, emits ``report.failed`` and fails the job (which refunds it).

Synchronous requests hold the connection while the same job runs on a worker (in the embedded
mode, in this process) and answer with the job's result. Their job carries no charge: the
request's own charge is refunded by ``@billable`` when the answer is an error, so the charge is
refunded exactly once on either path.

The result body (sync response, the job's ``result``, and the webhook's ``data``) is
``{report_id, format, pdf_url, html_url, expires_at}``: the URL of the format made is set, the
other null.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import math
import re
from collections.abc import Awaitable, Callable
from typing import Any, Final

import msgspec

from astro_calc.western import BirthSubject, natal_chart
from astro_server.features.reports.models import Report
from astro_server.features.reports.render.branding import DEFAULT_BRAND, DEFAULT_COLOR, ReportBrand
from astro_server.features.reports.render.natal import Locale, natal_report_html
from astro_server.features.reports.render.renderer import RendererUnavailable
from astro_server.platform import clock, files, runtime
from astro_server.platform.auth.credentials import new_id
from astro_server.platform.billing.ledger import Charge
from astro_server.platform.caller import Caller
from astro_server.platform.errors import APIError, not_found
from astro_server.platform.files.service import now as files_now
from astro_server.platform.jobs import (
    FINISHED,
    Concurrency,
    JobKind,
    ParamsErased,
    check_capacity,
    creator_of,
    enqueue_job,
    open_params,
)
from astro_server.platform.models.files import StoredFile
from astro_server.platform.models.jobs import Job
from astro_server.platform.owned import owned, owned_query
from astro_server.platform.paging import newest_first

log = logging.getLogger("astro_server.features.reports.render")

NATAL_JOB_KIND: Final = "reports.natal"


class NatalReportParams(msgspec.Struct, frozen=True):
    """The natal report job: its report row, the validated request body (``birth_subject``,
    ``name``, ``format``, ``locale``, ``house_system``), the brand and the server's address."""

    report_id: str
    request: dict[str, Any]
    brand: dict[str, Any] | None = None
    base_url: str | None = None


REPORT_ID_PATTERN: Final = r"^rep_[a-f0-9]{24}$"
_REPORT_ID: Final = re.compile(REPORT_ID_PATTERN)
#: How long a synchronous request waits for its job before answering 503.
SYNC_WAIT_S: Final = 120.0
_POLL_S: Final = 0.05
_CONTENT_TYPES: Final = {"pdf": "application/pdf", "html": "text/html; charset=utf-8"}
_KINDS: Final = {"pdf": "report_pdf", "html": "report_html"}


def _now() -> dt.datetime:
    return files_now()


async def brand_params_from_profile(account_id: str, profile_id: str) -> dict[str, Any]:
    """The job's brand parameters for a brand profile (another account's: 404). The job reads
    the profile, and its stored logo, when it renders."""
    from astro_server.features.brands.service import owned_profile

    await owned_profile(account_id, profile_id)
    return {"profile_id": profile_id}


async def brand_params_from_branding(account_id: str, branding: dict[str, Any]) -> dict[str, Any]:
    """The job's brand parameters from an inline Branding object. Its logo is fetched now,
    once, through the brand profiles' SSRF-safe fetch (a logo that cannot be fetched or decoded
    is a 400 naming ``branding.logo_url``, an SVG is sanitised) and stored; the renderer reads
    only that stored copy."""
    logo_file_id = None
    if branding.get("logo_url"):
        from astro_server.features.brands.service import store_logo

        stored = await store_logo(account_id, branding["logo_url"])
        logo_file_id = stored.id
    return {
        "name": branding.get("brand_name"),
        "primary_color": branding.get("primary_color"),
        "contact_email": branding.get("contact_email"),
        "contact_phone": branding.get("contact_phone"),
        "contact_url": branding.get("contact_url"),
        "logo_file_id": logo_file_id,
    }


async def _brand(account_id: str, params: dict[str, Any] | None) -> ReportBrand:
    if not params:
        return DEFAULT_BRAND
    if params.get("profile_id"):
        from astro_server.features.brands.service import branding_for

        profile = await branding_for(params["profile_id"], account_id)
        return ReportBrand(
            name=profile.brand_name or None,
            primary_color=profile.primary_color or DEFAULT_COLOR,
            logo=profile.logo,
            logo_type=(profile.logo_content_type or "").split(";")[0].strip() or None,
            contact_email=profile.contact_email,
            contact_phone=profile.contact_phone,
            contact_url=profile.contact_url,
        )
    logo = logo_type = None
    if params.get("logo_file_id"):
        stored = await StoredFile.get_or_none(
            id=params["logo_file_id"], account_id=account_id, deleted_at=None
        )
        if stored is not None:
            logo = await files.read_file(stored)
            logo_type = stored.content_type.split(";")[0].strip()
    return ReportBrand(
        name=params.get("name") or None,
        primary_color=params.get("primary_color") or DEFAULT_COLOR,
        logo=logo,
        logo_type=logo_type,
        contact_email=params.get("contact_email"),
        contact_phone=params.get("contact_phone"),
        contact_url=params.get("contact_url"),
    )


def _filename(report_id: str, report_format: str) -> str:
    # Not the person's name: the file row outlives a crypto-shred of the account's data.
    return f"natal report {report_id}.{report_format}"


async def create_natal_report(
    *,
    account_id: str,
    livemode: bool,
    customer_id: str | None,
    request: dict[str, Any],
    brand: dict[str, Any] | None,
    base_url: str,
    charge: Charge | None,
    created_by: str | None = None,
) -> tuple[Report, dict[str, str]]:
    """The report row and its queued job; ``charge``: what the job refunds if it fails (async
    requests), or None (sync: ``@billable`` refunds the request itself)."""
    report = await Report.create(
        id=new_id("rep_"),
        account_id=account_id,
        livemode=livemode,
        customer_id=customer_id,
        kind="natal",
        format=request["format"],
        locale=request["locale"],
        status="queued",
        created_at=_now(),
    )
    params = NatalReportParams(report.id, request, brand, base_url)
    try:
        handle = await enqueue_job(
            NATAL_REPORT,
            params,
            account_id=account_id,
            livemode=livemode,
            charge=charge,
            created_by=created_by,
        )
    except BaseException:
        await Report.filter(id=report.id).delete()
        raise
    await Report.filter(id=report.id).update(job_id=handle["job_id"])
    report.job_id = handle["job_id"]
    return report, handle


async def wait_for_job(job_id: str, timeout_s: float = SYNC_WAIT_S) -> Job:
    """Poll the job row until it finishes (the worker may be another process)."""
    deadline = asyncio.get_running_loop().time() + timeout_s
    while True:
        job = await Job.get(id=job_id)
        if job.status in FINISHED:
            return job
        if asyncio.get_running_loop().time() >= deadline:
            raise APIError(503, "The report is taking too long; retry later.")
        await asyncio.sleep(_POLL_S)


def result_body(report: Report, file: StoredFile, base_url: str | None) -> dict[str, Any]:
    url, expires_at = files.signed_url(file, base_url=base_url)
    return {
        "report_id": report.id,
        "format": report.format,
        "pdf_url": url if report.format == "pdf" else None,
        "html_url": url if report.format == "html" else None,
        "expires_at": clock.iso(expires_at),
    }


async def _emit(report: Report, event_type: str, data: dict[str, Any]) -> None:
    try:
        from astro_server.platform.delivery.events import emit_account_event

        await emit_account_event(report.account_id, event_type, data, report.livemode)
    except Exception:
        # The report itself is done; a failed announcement is logged, not a failed report.
        log.exception("could not emit %s for %s", event_type, report.id)


async def render_report_file(params: NatalReportParams, report: Report) -> StoredFile:
    """Compute, build, print and store the report's file (no status changes)."""
    request = params.request
    subject = request["birth_subject"]
    chart = await asyncio.to_thread(
        natal_chart,
        BirthSubject(
            date=dt.date.fromisoformat(subject["date"]),
            time=subject["time"],
            latitude=float(subject["latitude"]),
            longitude=float(subject["longitude"]),
            timezone_offset_minutes=subject.get("timezoneOffsetMinutes"),
            timezone=subject.get("timezone"),
            fold=int(subject.get("fold", 0)),
        ),
        house_system=request["house_system"],
        include_minor=False,
    )
    brand = await _brand(report.account_id, params.brand)
    locale: Locale = request["locale"]
    generated_at = _now()
    html = await asyncio.to_thread(
        natal_report_html,
        chart,
        person_name=request["name"],
        locale=locale,
        brand=brand,
        generated_at=generated_at,
        inline_fonts=report.format == "html",
        test_mode=not report.livemode,
    )
    if report.format == "pdf":
        from astro_server.features.reports.render.html import labels
        from astro_server.features.reports.render.renderer import render_pdf

        words = labels(locale)
        brand_name = brand.name or words["default_brand_name"]
        payload = await render_pdf(
            html, author=brand_name, creator=brand_name, subject=words["report_title"]
        )
    else:
        payload = html.encode("utf-8")
    return await files.store_file(
        report.account_id,
        payload,
        _CONTENT_TYPES[report.format],
        _filename(report.id, report.format),
        _KINDS[report.format],
        livemode=report.livemode,
    )


async def run_report_job(
    report_id: str,
    base_url: str | None,
    render: Callable[[Report], Awaitable[StoredFile]],
) -> dict[str, Any]:
    """The one job runner of every report kind: ``render`` builds, prints and stores the file;
    the runner moves the report through running -> succeeded | failed and announces it
    (``report.succeeded`` / ``report.failed``). On failure it re-raises, so the job fails and,
    for an async request, refunds. A repeated delivery of a finished job (at-least-once
    execution) answers the stored result without rendering again."""
    report = await Report.get(id=report_id)
    if report.status == "succeeded" and report.file_id:
        file = await StoredFile.get(id=report.file_id)
        return result_body(report, file, base_url)
    await Report.filter(id=report.id).update(status="running")
    try:
        try:
            file = await render(report)
        except RendererUnavailable as exc:
            raise APIError(503, str(exc)) from exc
    except Exception as exc:
        error = {"error": "report_failed", "message": "The report could not be rendered."}
        if isinstance(exc, APIError):
            error = {"error": exc.error, "message": exc.message}
        await Report.filter(id=report.id).update(status="failed", error=error, finished_at=_now())
        await _emit(report, "report.failed", {**error_event(report), "error": error})
        log.warning("report %s failed: %s", report.id, type(exc).__name__)
        raise
    await Report.filter(id=report.id).update(
        status="succeeded", file_id=file.id, finished_at=_now()
    )
    report.status = "succeeded"
    body = result_body(report, file, base_url)
    await _emit(report, "report.succeeded", {**body, "kind": report.kind, "status": "succeeded"})
    return body


async def run_natal_report(params: NatalReportParams) -> dict[str, Any]:
    """The natal report job (see :func:`run_report_job`)."""
    return await run_report_job(
        params.report_id, params.base_url, lambda report: render_report_file(params, report)
    )


#: Report renders (PDF or HTML; every ``reports.*`` job) one API key (or one customer login)
#: may have queued or running at once (``ASTRO_RENDERS_PER_KEY``, 4); more is 429 with
#: ``Retry-After`` (and refunded by ``@billable``).
RENDER_RETRY_AFTER_S: Final = 5
RENDERS: Final = Concurrency("report renders", "renders_per_key", RENDER_RETRY_AFTER_S)


async def report_job_failed(job: Any, error: dict[str, Any], status: str) -> None:
    """Every report kind's failure hook: a report whose job ended before its runner did (its
    parameters erased by a crypto-shred, its attempts exhausted, canceled) is marked failed
    with the job's error (the runner marks the ones it saw fail itself)."""
    report_id = (job.params or {}).get("report_id")  # kept in clear beside the sealed params
    if report_id:
        await Report.filter(id=report_id, status__in=["queued", "running"]).update(
            status="failed", error=error, finished_at=_now()
        )


NATAL_REPORT = JobKind(
    NATAL_JOB_KIND,
    NatalReportParams,
    run_natal_report,
    on_failure=report_job_failed,
    concurrency=RENDERS,
)


def error_event(report: Report) -> dict[str, Any]:
    return {
        "report_id": report.id,
        "kind": report.kind,
        "format": report.format,
        "status": "failed",
    }


async def check_render_capacity(caller: Caller) -> None:
    """429 ``rate_limited`` with ``Retry-After`` when the caller (its API key, or its login)
    already has ``ASTRO_RENDERS_PER_KEY`` report jobs queued or running; checked before
    the report's objects are made (the enqueue checks again under a lock)."""
    await check_capacity(NATAL_REPORT, creator_of(caller), caller.account_id)


async def check_test_pdf_allowance(caller: Caller) -> None:
    """A test key's PDFs are real renders (watermarked "TEST"), free, within
    ``ASTRO_TEST_PDF_DAILY_ALLOWANCE`` per account per UTC day (natal and HR PDFs together,
    counted from the account's test-mode PDF reports made since midnight UTC); past it 429
    ``rate_limited`` with ``Retry-After`` until midnight UTC. Live keys pay and are not
    counted."""
    if caller.livemode:
        return
    allowance = runtime.settings().test_pdf_daily_allowance
    now = _now()
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    made = await Report.filter(
        account_id=caller.account_id, livemode=False, format="pdf", created_at__gte=midnight
    ).count()
    if made >= allowance:
        until = midnight + dt.timedelta(days=1)
        raise APIError(
            429,
            f"Test keys render at most {allowance} PDFs per account per UTC day "
            f"(ASTRO_TEST_PDF_DAILY_ALLOWANCE); this account made {made} today. Retry after "
            f"midnight UTC, use format html, or a live key.",
            error="rate_limited",
            headers={"Retry-After": str(max(1, math.ceil((until - now).total_seconds())))},
        )


async def get_report(caller: Caller, report_id: str) -> Report:
    """The caller's report (an unknown id, a malformed one, another account's or the other
    mode's: 404)."""
    if not _REPORT_ID.match(report_id):
        raise not_found("Report")
    return await owned(caller, Report, report_id, "Report")


def subject_names(kind: str, params: Any) -> list[str]:
    """The people a report is about, from its job's opened parameters (the request's ``name``
    for a natal report, the candidate's for an HR assessment); empty when the job row is gone
    or its data key was shredded."""
    if not isinstance(params, dict):
        return []
    if kind == HR_KIND:
        summary = (params.get("assessment") or {}).get("candidate_summary") or {}
        name = summary.get("name")
    else:
        name = (params.get("request") or {}).get("name")
    return [name] if isinstance(name, str) and name.strip() else []


#: The HR assessment's report kind (hr_service.HR_REPORT_KIND, which imports this module).
HR_KIND: Final = "hr_screening"


async def _job_params(job: Job | None) -> Any:
    """The report job's parameters, opened (they are sealed with the account's data key); None
    once the job row is gone or the key was shredded."""
    if job is None:
        return None
    try:
        return await open_params(job)
    except ParamsErased:
        return None


async def report_view(
    report: Report, base_url: str | None, *, expired_ok: bool = False
) -> dict[str, Any]:
    """The report's status, with a freshly signed URL while its file is kept; after that a 410
    (``expired_ok``: the view without URLs, for listings)."""
    status = report.status
    error = report.error
    job = await Job.get_or_none(id=report.job_id) if report.job_id else None
    if status in ("queued", "running") and job is not None and job.status in ("failed", "canceled"):
        # A job the sweeper failed (its worker died too often) never reached the handler.
        status, error = "failed", job.error
    view: dict[str, Any] = {
        "report_id": report.id,
        "kind": report.kind,
        "format": report.format,
        "locale": report.locale,
        "subject_names": subject_names(report.kind, await _job_params(job)),
        "status": status,
        "job_id": report.job_id,
        "created_at": clock.iso(report.created_at),
        "finished_at": clock.iso(report.finished_at),
        "pdf_url": None,
        "html_url": None,
        "expires_at": None,
        "error": error,
    }
    if status == "succeeded" and report.file_id:
        file = await StoredFile.get_or_none(id=report.file_id)
        if (
            file is None
            or file.deleted_at is not None
            or (file.expires_at is not None and file.expires_at <= files_now())
        ):
            if expired_ok:
                return view
            raise APIError(
                410, "The report's file was deleted after its retention period.", error="gone"
            )
        view.update(result_body(report, file, base_url))
    return view


async def list_reports(
    caller: Caller, limit: int, cursor: str | None
) -> tuple[list[Report], str | None]:
    """The caller's reports (its mode only), newest first; ``cursor`` is the last id of the
    previous page."""
    query = owned_query(caller, Report)
    return await newest_first(query, limit=limit, cursor=cursor)
