"""``client.korean``: Korean Saju, the BaZi engine with Korean names, Korea's historical standard
meridians and daylight saving, and the Korean almanac's hours. Billable (an ``Idempotency-Key``
per call, reused on retries)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from astro_sdk._base import validate_request
from astro_sdk._operation import Credential, Operation
from astro_sdk._resource import AsyncResource, SyncResource
from astro_sdk.models.chinese import ChineseBirthSubject, DayBoundary, Gender
from astro_sdk.models.korean import HourBasis, SajuRequest, SajuResult

__all__ = ["AsyncKorean", "Korean"]

Subject = ChineseBirthSubject | Mapping[str, Any]

SAJU: Operation[SajuResult] = Operation(
    operation_id="koreanSaju",
    method="POST",
    path="/api/v3/korean/saju",
    credential=Credential.API_KEY,
    response_model=SajuResult,
    request_model=SajuRequest,
    billable=True,
)
OPERATIONS = (SAJU,)


def _saju_body(
    subject: Subject,
    gender: Gender | None,
    hour_basis: HourBasis | None,
    day_boundary: DayBoundary | None,
    luck_pillar_count: int | None,
    annual_from_year: int | None,
    annual_to_year: int | None,
    reference_date: dt.date | str | None,
) -> SajuRequest:
    return validate_request(
        SajuRequest,
        {
            "subject": subject,
            "gender": gender,
            "hour_basis": hour_basis,
            "day_boundary": day_boundary,
            "luck_pillar_count": luck_pillar_count,
            "annual_from_year": annual_from_year,
            "annual_to_year": annual_to_year,
            "reference_date": reference_date,
        },
    )


class Korean(SyncResource):
    """``client.korean``: Korean Saju, the BaZi engine with Korean names, Korea's historical
    standard meridians and daylight saving, and the Korean almanac's hours."""

    operations = OPERATIONS

    def saju(
        self,
        *,
        subject: Subject,
        gender: Gender | None = None,
        hour_basis: HourBasis | None = None,
        day_boundary: DayBoundary | None = None,
        luck_pillar_count: int | None = None,
        annual_from_year: int | None = None,
        annual_to_year: int | None = None,
        reference_date: dt.date | str | None = None,
        idempotency_key: str | None = None,
    ) -> SajuResult:
        """``POST /api/v3/korean/saju``: pillars in hangul and hanja, the full BaZi chart under
        ``chart.bazi``, en/th readings."""
        body = _saju_body(
            subject,
            gender,
            hour_basis,
            day_boundary,
            luck_pillar_count,
            annual_from_year,
            annual_to_year,
            reference_date,
        )
        return self._client.request(SAJU, body=body, idempotency_key=idempotency_key)


class AsyncKorean(AsyncResource):
    """``client.korean``: Korean Saju, the BaZi engine with Korean names, Korea's historical
    standard meridians and daylight saving, and the Korean almanac's hours."""

    operations = OPERATIONS

    async def saju(
        self,
        *,
        subject: Subject,
        gender: Gender | None = None,
        hour_basis: HourBasis | None = None,
        day_boundary: DayBoundary | None = None,
        luck_pillar_count: int | None = None,
        annual_from_year: int | None = None,
        annual_to_year: int | None = None,
        reference_date: dt.date | str | None = None,
        idempotency_key: str | None = None,
    ) -> SajuResult:
        """``POST /api/v3/korean/saju``: pillars in hangul and hanja, the full BaZi chart under
        ``chart.bazi``, en/th readings."""
        body = _saju_body(
            subject,
            gender,
            hour_basis,
            day_boundary,
            luck_pillar_count,
            annual_from_year,
            annual_to_year,
            reference_date,
        )
        return await self._client.request(SAJU, body=body, idempotency_key=idempotency_key)
