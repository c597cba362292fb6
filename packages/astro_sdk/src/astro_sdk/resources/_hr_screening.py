"""``client.reports.hr_screening(...)``: the HR talent assessment (entertainment only; it must
not be used to decide employment). Written as mixins of :class:`~astro_sdk.resources.reports.
Reports` and its async twin, so the report resource keeps one home for every report route.

The call holds the connection and returns an :class:`~astro_sdk.models.hr.HrScreening`; with
``include_pdf=True`` its ``pdf_url`` (valid 24 hours) is set and ``client.files.download`` or any
HTTP client fetches it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from astro_sdk._base import validate_request
from astro_sdk._operation import Credential, Operation
from astro_sdk.models.hr import HrCandidate, HrCompany, HrScreening, HrScreeningRequest
from astro_sdk.models.reports import Branding

if TYPE_CHECKING:
    from astro_sdk._client import AstroClient, AsyncAstroClient

__all__ = ["HR_SCREENING", "AsyncHrScreeningMixin", "HrScreeningMixin"]

HR_SCREENING: Operation[HrScreening] = Operation(
    operation_id="reportsHrScreening",
    method="POST",
    path="/api/v3/reports/hr-screening",
    credential=Credential.API_KEY,
    response_model=HrScreening,
    request_model=HrScreeningRequest,
    billable=True,
)


def _body(
    candidate: HrCandidate | Mapping[str, Any],
    position: str,
    outlook_years: int | None,
    include_pdf: bool | None,
    locale: str | None,
    company: HrCompany | Mapping[str, Any] | None,
    as_of: dt.date | None,
    branding: Branding | Mapping[str, Any] | None,
    brand_profile_id: str | None,
) -> HrScreeningRequest:
    return validate_request(
        HrScreeningRequest,
        {
            "candidate": candidate,
            "position": position,
            "outlook_years": outlook_years,
            "include_pdf": include_pdf,
            "locale": locale,
            "company": company,
            "as_of": as_of,
            "branding": branding,
            "brand_profile_id": brand_profile_id,
        },
    )


class HrScreeningMixin:
    _client: AstroClient

    def hr_screening(
        self,
        *,
        candidate: HrCandidate | Mapping[str, Any],
        position: str,
        outlook_years: int | None = None,
        include_pdf: bool | None = None,
        locale: Literal["en", "th"] | None = None,
        company: HrCompany | Mapping[str, Any] | None = None,
        as_of: dt.date | None = None,
        branding: Branding | Mapping[str, Any] | None = None,
        brand_profile_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> HrScreening:
        """``POST /api/v3/reports/hr-screening`` (tier pro, billed): the assessment, and with
        ``include_pdf=True`` the signed ``pdf_url`` of its PDF in ``locale``."""
        body = _body(
            candidate, position, outlook_years, include_pdf, locale, company, as_of, branding,
            brand_profile_id,
        )  # fmt: skip
        return self._client.request(HR_SCREENING, body=body, idempotency_key=idempotency_key)


class AsyncHrScreeningMixin:
    _client: AsyncAstroClient

    async def hr_screening(
        self,
        *,
        candidate: HrCandidate | Mapping[str, Any],
        position: str,
        outlook_years: int | None = None,
        include_pdf: bool | None = None,
        locale: Literal["en", "th"] | None = None,
        company: HrCompany | Mapping[str, Any] | None = None,
        as_of: dt.date | None = None,
        branding: Branding | Mapping[str, Any] | None = None,
        brand_profile_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> HrScreening:
        """See :meth:`HrScreeningMixin.hr_screening`."""
        body = _body(
            candidate, position, outlook_years, include_pdf, locale, company, as_of, branding,
            brand_profile_id,
        )  # fmt: skip
        return await self._client.request(HR_SCREENING, body=body, idempotency_key=idempotency_key)
