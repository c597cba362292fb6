"""The HR assessment's PDF: queued, printed on a worker, stored, signed.

``POST /api/v3/reports/hr-screening`` with ``include_pdf: true`` computes the assessment in the
request, then creates a :class:`~astro_server.platform.models.Report` row (kind ``hr_screening``)
and
queues the job ``reports.hr_screening`` with the assessment body, the locale and the brand, and
holds the connection until it finishes, as the synchronous natal report does (the job carries no
charge: the request's own charge is refunded by ``@billable`` when the answer is an error). The
job prints the HTML of :mod:`astro_server.features.reports.render.hr` with the shared Chromium
renderer, stores
the file (kept ``ASTRO_FILE_RETENTION_HOURS``), marks the report succeeded and emits
``report.succeeded``; a failure marks it failed and emits ``report.failed``. The report is then
also readable by ``GET /api/v3/reports/{report_id}`` with a freshly signed URL.
"""

from __future__ import annotations

import logging
from typing import Any, Final

import msgspec

from astro_server.features.reports.models import Report
from astro_server.features.reports.render.natal import Locale
from astro_server.features.reports.service import (
    RENDERS,
    _brand,
    _now,
    report_job_failed,
    run_report_job,
    wait_for_job,
)
from astro_server.platform import files
from astro_server.platform.auth.credentials import new_id
from astro_server.platform.errors import APIError
from astro_server.platform.jobs import JobKind, enqueue_job
from astro_server.platform.models.files import StoredFile

log = logging.getLogger("astro_server.features.reports.render")

HR_JOB_KIND: Final = "reports.hr_screening"


class HrReportParams(msgspec.Struct, frozen=True):
    """The HR assessment PDF job: its report row, the computed assessment, the language, the
    brand and the server's address."""

    report_id: str
    assessment: dict[str, Any]
    locale: Locale
    brand: dict[str, Any] | None = None
    base_url: str | None = None


HR_REPORT_KIND: Final = "hr_screening"


def _filename(report_id: str) -> str:
    # Not the candidate's name: the file row outlives a crypto-shred of the account's data.
    return f"talent assessment {report_id}.pdf"


async def create_hr_pdf(
    *,
    account_id: str,
    livemode: bool,
    assessment: dict[str, Any],
    locale: Locale,
    brand: dict[str, Any] | None,
    base_url: str,
    created_by: str | None = None,
) -> dict[str, Any]:
    """Queue the PDF job, wait for it and answer ``{report_id, pdf_url, expires_at}``."""
    report = await Report.create(
        id=new_id("rep_"),
        account_id=account_id,
        livemode=livemode,
        kind=HR_REPORT_KIND,
        format="pdf",
        locale=locale,
        status="queued",
        created_at=_now(),
    )
    params = HrReportParams(report.id, assessment, locale, brand, base_url)
    try:
        # No charge on the job: the request itself is refunded by @billable when this fails.
        handle = await enqueue_job(
            HR_REPORT, params, account_id=account_id, livemode=livemode, created_by=created_by
        )
    except BaseException:
        await Report.filter(id=report.id).delete()
        raise
    await Report.filter(id=report.id).update(job_id=handle["job_id"])
    job = await wait_for_job(handle["job_id"])
    if job.status != "succeeded" or not isinstance(job.result, dict):
        error = job.error or {}
        if error.get("error") == "service_unavailable":
            raise APIError(503, str(error.get("message", "PDF rendering is unavailable.")))
        raise APIError(
            500, "The PDF could not be rendered; the charge is refunded.", code="report_failed"
        )
    return job.result


async def render_hr_file(params: HrReportParams, report: Report) -> StoredFile:
    """Build, print and store the assessment's PDF (no status changes)."""
    import asyncio

    from astro_server.features.reports.render.hr import hr_labels, hr_report_html
    from astro_server.features.reports.render.renderer import render_pdf

    locale = params.locale
    brand = await _brand(report.account_id, params.brand)
    html = await asyncio.to_thread(
        hr_report_html,
        params.assessment,
        locale=locale,
        brand=brand,
        generated_at=_now(),
        test_mode=not report.livemode,
    )
    words = hr_labels(locale)
    brand_name = brand.name or words["default_brand_name"]
    payload = await render_pdf(
        html, author=brand_name, creator=brand_name, subject=words["report_title"]
    )
    return await files.store_file(
        report.account_id,
        payload,
        "application/pdf",
        _filename(report.id),
        "report_pdf",
        livemode=report.livemode,
    )


async def run_hr_report(params: HrReportParams) -> dict[str, Any]:
    """The HR assessment PDF job (the reports' one runner: :func:`run_report_job`)."""
    return await run_report_job(
        params.report_id, params.base_url, lambda report: render_hr_file(params, report)
    )


HR_REPORT = JobKind(
    HR_JOB_KIND, HrReportParams, run_hr_report, on_failure=report_job_failed, concurrency=RENDERS
)
