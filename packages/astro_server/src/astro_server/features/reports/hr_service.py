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
import re
from typing import Any, Final

from astro_server.features.reports.models import Report
from astro_server.features.reports.render.natal import Locale
from astro_server.features.reports.render.renderer import RendererUnavailable
from astro_server.features.reports.service import (
    _brand,
    _emit,
    _now,
    error_event,
    result_body,
    wait_for_job,
)
from astro_server.platform import files
from astro_server.platform.auth.credentials import new_id
from astro_server.platform.errors import APIError
from astro_server.platform.jobs import enqueue_job, job_handler
from astro_server.platform.models.files import StoredFile

log = logging.getLogger("astro_server.features.reports.render")

HR_JOB_KIND: Final = "reports.hr_screening"
HR_REPORT_KIND: Final = "hr_screening"


def _filename(name: str) -> str:
    safe = re.sub(r"[\x00-\x1f/\\]+", " ", name).strip()[:80] or "candidate"
    return f"{safe} talent assessment.pdf"


async def create_hr_pdf(
    *,
    account_id: str,
    livemode: bool,
    assessment: dict[str, Any],
    locale: Locale,
    brand: dict[str, Any] | None,
    base_url: str,
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
    params = {
        "report_id": report.id,
        "assessment": assessment,
        "locale": locale,
        "brand": brand,
        "base_url": base_url,
    }
    try:
        handle = await enqueue_job(account_id, HR_JOB_KIND, params, credits=0, ledger_entry_id=None)
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


async def render_hr_file(params: dict[str, Any], report: Report) -> StoredFile:
    """Build, print and store the assessment's PDF (no status changes)."""
    import asyncio

    from astro_server.features.reports.render.hr import hr_labels, hr_report_html
    from astro_server.features.reports.render.renderer import render_pdf

    locale: Locale = params["locale"]
    brand = await _brand(report.account_id, params.get("brand"))
    html = await asyncio.to_thread(
        hr_report_html, params["assessment"], locale=locale, brand=brand, generated_at=_now()
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
        _filename(params["assessment"]["candidate_summary"]["name"]),
        "report_pdf",
        livemode=report.livemode,
    )


@job_handler(HR_JOB_KIND)
async def run_hr_report(params: dict[str, Any]) -> dict[str, Any]:
    """The job: print the PDF; on failure mark the report failed, announce it and re-raise."""
    report = await Report.get(id=params["report_id"])
    if report.status == "succeeded" and report.file_id:
        file = await StoredFile.get(id=report.file_id)  # a repeated delivery of a finished job
        return result_body(report, file, params.get("base_url"))
    await Report.filter(id=report.id).update(status="running")
    try:
        try:
            file = await render_hr_file(params, report)
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
    body = result_body(report, file, params.get("base_url"))
    await _emit(report, "report.succeeded", {**body, "kind": report.kind, "status": "succeeded"})
    return body
