"""``client.reports`` (API key) and ``client.customer_reports`` (customer session): the branded
natal report as a PDF or one HTML file.

``natal_pdf(...)`` holds the connection and returns the :class:`ReportResult`; with
``run_async=True`` it returns a job handle whose ``wait()`` gives the finished job, whose
``result`` is the same body (``ReportResult.model_validate(job.result)``). ``get(report_id)``
answers a report's status with a freshly signed URL.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from astro_sdk._base import validate_request
from astro_sdk._operation import Credential, Operation
from astro_sdk._pagination import AsyncCursorPage, AsyncCursorPager, CursorPage
from astro_sdk._resource import AsyncResource, SyncResource
from astro_sdk.models.jobs import AsyncJobHandle, JobHandle
from astro_sdk.models.reports import (
    Branding,
    CustomerReportHandle,
    NatalReportRequest,
    Report,
    ReportListQuery,
    ReportPage,
    ReportResult,
)
from astro_sdk.models.western import WesternSubject

__all__ = ["AsyncCustomerReports", "AsyncReports", "CustomerReports", "Reports"]

Subject = WesternSubject | Mapping[str, Any]
BrandingIn = Branding | Mapping[str, Any]

NATAL_PDF: Operation[ReportResult] = Operation(
    operation_id="reportsNatalPdf",
    method="POST",
    path="/api/v3/reports/natal/pdf",
    credential=Credential.API_KEY,
    response_model=ReportResult,
    request_model=NatalReportRequest,
    billable=True,
)
GET_REPORT: Operation[Report] = Operation(
    operation_id="getReport",
    method="GET",
    path="/api/v3/reports/{report_id}",
    credential=Credential.API_KEY,
    response_model=Report,
)
CUSTOMER_NATAL: Operation[ReportResult] = Operation(
    operation_id="createCustomerNatalReport",
    method="POST",
    path="/v1/reports/natal",
    credential=Credential.SESSION,
    response_model=ReportResult,
    request_model=NatalReportRequest,
    billable=True,
)
CUSTOMER_LIST: Operation[ReportPage] = Operation(
    operation_id="listCustomerReports",
    method="GET",
    path="/v1/reports",
    credential=Credential.SESSION,
    response_model=ReportPage,
    query_model=ReportListQuery,
)
CUSTOMER_GET: Operation[Report] = Operation(
    operation_id="getCustomerReport",
    method="GET",
    path="/v1/reports/{report_id}",
    credential=Credential.SESSION,
    response_model=Report,
)


def _body(
    birth_subject: Subject,
    name: str,
    house_system: str | None,
    locale: str | None,
    branding: BrandingIn | None,
    brand_profile_id: str | None,
    run_async: bool,
    format: str | None,
) -> NatalReportRequest:
    fields: dict[str, Any] = {
        "birth_subject": birth_subject,
        "name": name,
        "house_system": house_system,
        "locale": locale,
        "branding": branding,
        "brand_profile_id": brand_profile_id,
        "format": format,
    }
    if run_async:
        fields["async"] = True
    return validate_request(NatalReportRequest, fields)


class Reports(SyncResource):
    operations = (NATAL_PDF, GET_REPORT)

    def natal_pdf(
        self,
        *,
        birth_subject: Subject,
        name: str,
        house_system: Literal["P", "W", "K", "E"] | None = None,
        locale: Literal["en", "th"] | None = None,
        branding: BrandingIn | None = None,
        brand_profile_id: str | None = None,
        run_async: bool = False,
        format: Literal["pdf", "html"] | None = None,
        idempotency_key: str | None = None,
    ) -> Any:
        """``POST /api/v3/reports/natal/pdf``: the :class:`ReportResult` (connection held), or
        with ``run_async=True`` a :class:`JobHandle` (``handle.wait()``)."""
        body = _body(
            birth_subject, name, house_system, locale, branding, brand_profile_id, run_async, format
        )
        if run_async:
            handle: JobHandle = self._client.jobs.submit(
                NATAL_PDF, body=body, idempotency_key=idempotency_key
            )
            return handle
        return self._client.request(NATAL_PDF, body=body, idempotency_key=idempotency_key)

    def get(self, report_id: str) -> Report:
        """``GET /api/v3/reports/{report_id}``: status and a fresh URL (410 after retention)."""
        return self._client.request(GET_REPORT, path_params={"report_id": report_id})


class AsyncReports(AsyncResource):
    operations = (NATAL_PDF, GET_REPORT)

    async def natal_pdf(
        self,
        *,
        birth_subject: Subject,
        name: str,
        house_system: Literal["P", "W", "K", "E"] | None = None,
        locale: Literal["en", "th"] | None = None,
        branding: BrandingIn | None = None,
        brand_profile_id: str | None = None,
        run_async: bool = False,
        format: Literal["pdf", "html"] | None = None,
        idempotency_key: str | None = None,
    ) -> Any:
        """See :meth:`Reports.natal_pdf`; ``run_async=True`` gives an :class:`AsyncJobHandle`."""
        body = _body(
            birth_subject, name, house_system, locale, branding, brand_profile_id, run_async, format
        )
        if run_async:
            handle: AsyncJobHandle = await self._client.jobs.submit(
                NATAL_PDF, body=body, idempotency_key=idempotency_key
            )
            return handle
        return await self._client.request(NATAL_PDF, body=body, idempotency_key=idempotency_key)

    async def get(self, report_id: str) -> Report:
        return await self._client.request(GET_REPORT, path_params={"report_id": report_id})


class CustomerReports(SyncResource):
    """Session routes: reports billed to the logged-in customer's account."""

    operations = (CUSTOMER_NATAL, CUSTOMER_LIST, CUSTOMER_GET)

    def create_natal(
        self,
        *,
        birth_subject: Subject,
        name: str,
        house_system: Literal["P", "W", "K", "E"] | None = None,
        locale: Literal["en", "th"] | None = None,
        branding: BrandingIn | None = None,
        brand_profile_id: str | None = None,
        run_async: bool = False,
        format: Literal["pdf", "html"] | None = None,
        idempotency_key: str | None = None,
    ) -> Any:
        """``POST /v1/reports/natal``: as :meth:`Reports.natal_pdf`, for the session; with
        ``run_async=True`` a :class:`CustomerReportHandle` (poll :meth:`get` with its
        ``report_id``)."""
        body = _body(
            birth_subject, name, house_system, locale, branding, brand_profile_id, run_async, format
        )
        if run_async:
            return self._client.request_as(
                CUSTOMER_NATAL, CustomerReportHandle, body=body, idempotency_key=idempotency_key
            )
        return self._client.request(CUSTOMER_NATAL, body=body, idempotency_key=idempotency_key)

    def list(self, *, limit: int | None = None, cursor: str | None = None) -> CursorPage[Report]:
        """``GET /v1/reports``: the account's reports, newest first (iterate for every page)."""
        query = validate_request(ReportListQuery, {"limit": limit})

        def fetch(page_cursor: str | None) -> CursorPage[Report]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = self._client.request(CUSTOMER_LIST, query=page_query)
            return CursorPage(page.reports, page.next_cursor, fetch, page.api_response)

        return fetch(cursor)

    def get(self, report_id: str) -> Report:
        """``GET /v1/reports/{report_id}``: status and a fresh URL."""
        return self._client.request(CUSTOMER_GET, path_params={"report_id": report_id})


class AsyncCustomerReports(AsyncResource):
    operations = (CUSTOMER_NATAL, CUSTOMER_LIST, CUSTOMER_GET)

    async def create_natal(
        self,
        *,
        birth_subject: Subject,
        name: str,
        house_system: Literal["P", "W", "K", "E"] | None = None,
        locale: Literal["en", "th"] | None = None,
        branding: BrandingIn | None = None,
        brand_profile_id: str | None = None,
        run_async: bool = False,
        format: Literal["pdf", "html"] | None = None,
        idempotency_key: str | None = None,
    ) -> Any:
        body = _body(
            birth_subject, name, house_system, locale, branding, brand_profile_id, run_async, format
        )
        if run_async:
            return await self._client.request_as(
                CUSTOMER_NATAL, CustomerReportHandle, body=body, idempotency_key=idempotency_key
            )
        return await self._client.request(
            CUSTOMER_NATAL, body=body, idempotency_key=idempotency_key
        )

    def list(
        self, *, limit: int | None = None, cursor: str | None = None
    ) -> AsyncCursorPager[Report]:
        query = validate_request(ReportListQuery, {"limit": limit})

        async def fetch(page_cursor: str | None) -> AsyncCursorPage[Report]:
            page_query = query.model_copy(update={"cursor": page_cursor}) if page_cursor else query
            page = await self._client.request(CUSTOMER_LIST, query=page_query)
            return AsyncCursorPage(page.reports, page.next_cursor, fetch, page.api_response)

        return AsyncCursorPager(lambda: fetch(cursor))

    async def get(self, report_id: str) -> Report:
        return await self._client.request(CUSTOMER_GET, path_params={"report_id": report_id})
