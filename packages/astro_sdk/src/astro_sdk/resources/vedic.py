"""``client.vedic``: sidereal charts, kundli matching (single and batch job), dasha, panchanga,
remedies. Every route is billable (an ``Idempotency-Key`` per call, reused on retries)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from astro_sdk._base import validate_request
from astro_sdk._operation import Credential, Operation
from astro_sdk._resource import AsyncResource, SyncResource
from astro_sdk.models.interpretations import InterpretationLanguage, InterpretationLevel
from astro_sdk.models.jobs import AsyncJobHandle, JobHandle
from astro_sdk.models.pictures import ChartImage, ImageBody, PictureFormat, VedicChartDiagramRequest
from astro_sdk.models.sensitivity import SensitivityOption
from astro_sdk.models.vedic import (
    Ayanamsa,
    BirthSubject,
    InterpretedVedicChart,
    InterpretedVedicDasha,
    InterpretedVedicKundliMatch,
    KundliBatchRecord,
    KundliBatchResult,
    KundliMatchingBatchRequest,
    KundliMatchingRequest,
    PanchangaRequest,
    VedicChartRequest,
    VedicDashaRequest,
    VedicPanchanga,
    VedicRemedies,
    VedicRemediesRequest,
)
from astro_sdk.resources._pictures import (
    Colors,
    Language,
    Theme,
    picture_fields,
    picture_operation,
)

__all__ = ["AsyncVedic", "Vedic"]

Subject = BirthSubject | Mapping[str, Any]
Record = KundliBatchRecord | Mapping[str, Any]
School = Literal["north", "south"]
Node = Literal["mean", "true"]


def _post(name: str, path: str, response: type[Any], request: type[Any], status: int = 200) -> Any:
    return Operation(
        operation_id=name,
        method="POST",
        path=path,
        credential=Credential.API_KEY,
        response_model=response,
        request_model=request,
        success_status=status,
        billable=True,
    )


CHART: Operation[InterpretedVedicChart] = _post(
    "vedicChart", "/api/v3/vedic/chart", InterpretedVedicChart, VedicChartRequest
)
KUNDLI_MATCHING: Operation[InterpretedVedicKundliMatch] = _post(
    "vedicKundliMatching",
    "/api/v3/vedic/kundli-matching",
    InterpretedVedicKundliMatch,
    KundliMatchingRequest,
)
KUNDLI_MATCHING_BATCH: Operation[JobHandle] = _post(
    "vedicKundliMatchingBatch",
    "/api/v3/vedic/kundli-matching/batch",
    JobHandle,
    KundliMatchingBatchRequest,
    status=202,
)
DASHA: Operation[InterpretedVedicDasha] = _post(
    "vedicDasha", "/api/v3/vedic/dasha", InterpretedVedicDasha, VedicDashaRequest
)
PANCHANGA: Operation[VedicPanchanga] = _post(
    "vedicPanchanga", "/api/v3/vedic/panchanga", VedicPanchanga, PanchangaRequest
)
REMEDIES: Operation[VedicRemedies] = _post(
    "vedicRemedies", "/api/v3/vedic/remedies", VedicRemedies, VedicRemediesRequest
)
CHART_DIAGRAM: Operation[ImageBody] = picture_operation(
    "vedicChartDiagram", "/api/v3/vedic/chart/diagram", VedicChartDiagramRequest
)
OPERATIONS = (
    CHART,
    KUNDLI_MATCHING,
    KUNDLI_MATCHING_BATCH,
    DASHA,
    PANCHANGA,
    REMEDIES,
    CHART_DIAGRAM,
)


def _panchanga_fields(
    date: dt.date | str,
    time: str,
    latitude: float,
    longitude: float,
    timezone_offset_minutes: int | None,
    timezone: str | None,
    ayanamsa: Ayanamsa | None,
    sunrise: Literal["upper_limb", "disc_center", "hindu"] | None,
) -> dict[str, Any]:
    return {
        "date": date,
        "time": time,
        "latitude": latitude,
        "longitude": longitude,
        "timezone_offset_minutes": timezone_offset_minutes,
        "timezone": timezone,
        "ayanamsa": ayanamsa,
        "sunrise": sunrise,
    }


class AsyncVedic(AsyncResource):
    """``client.vedic``: sidereal charts, kundli matching (single and batch job), dasha,
    panchanga, remedies."""

    operations = OPERATIONS

    async def chart(
        self,
        *,
        subject: Subject,
        node: Node | None = None,
        house_system: str | None = None,
        divisional_charts: Sequence[str] | None = None,
        interpretations: InterpretationLevel | None = None,
        language: InterpretationLanguage | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> InterpretedVedicChart:
        """``POST /api/v3/vedic/chart``: grahas, lagna, nakshatras, houses, dignities, vargas.
        ``sensitivity={"uncertainty_minutes": N}`` (0 to 720) adds the birth-time sensitivity
        (+1 credit)."""
        body = validate_request(
            VedicChartRequest,
            {
                "interpretations": interpretations,
                "language": language,
                "sensitivity": sensitivity,
                "subject": subject,
                "node": node,
                "house_system": house_system,
                "divisional_charts": divisional_charts,
            },
        )
        return await self._client.request(CHART, body=body, idempotency_key=idempotency_key)

    async def kundli_matching(
        self,
        *,
        boy: Subject,
        girl: Subject,
        school: School | None = None,
        interpretations: InterpretationLevel | None = None,
        language: InterpretationLanguage | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> InterpretedVedicKundliMatch:
        """``POST /api/v3/vedic/kundli-matching``: Ashtakoota for one pair, synchronously.
        ``sensitivity={"uncertainty_minutes": N}`` (0 to 720) adds the birth-time sensitivity
        (+1 credit)."""
        body = validate_request(
            KundliMatchingRequest,
            {
                "interpretations": interpretations,
                "language": language,
                "sensitivity": sensitivity,
                "boy": boy,
                "girl": girl,
                "school": school,
            },
        )
        return await self._client.request(
            KUNDLI_MATCHING, body=body, idempotency_key=idempotency_key
        )

    async def kundli_matching_batch(
        self,
        *,
        records: Sequence[Record],
        school: School | None = None,
        idempotency_key: str | None = None,
    ) -> AsyncJobHandle[KundliBatchResult]:
        """``POST /api/v3/vedic/kundli-matching/batch``: queue 1 to 50 pairs (priced per
        record); ``.wait()`` on the handle returns the job with one result per record id."""
        body = validate_request(KundliMatchingBatchRequest, {"records": records, "school": school})
        return await self._client.jobs.submit(
            KUNDLI_MATCHING_BATCH,
            result_model=KundliBatchResult,
            body=body,
            idempotency_key=idempotency_key,
        )

    async def dasha(
        self,
        *,
        subject: Subject,
        year_days: float | None = None,
        depth: int | None = None,
        at: dt.datetime | str | None = None,
        interpretations: InterpretationLevel | None = None,
        language: InterpretationLanguage | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> InterpretedVedicDasha:
        """``POST /api/v3/vedic/dasha``: Vimshottari periods, and those running at ``at``.
        ``sensitivity={"uncertainty_minutes": N}`` (0 to 720) adds the birth-time sensitivity
        (+1 credit)."""
        body = validate_request(
            VedicDashaRequest,
            {
                "interpretations": interpretations,
                "language": language,
                "sensitivity": sensitivity,
                "subject": subject,
                "year_days": year_days,
                "depth": depth,
                "at": at,
            },
        )
        return await self._client.request(DASHA, body=body, idempotency_key=idempotency_key)

    async def panchanga(
        self,
        *,
        date: dt.date | str,
        time: str,
        latitude: float,
        longitude: float,
        timezone_offset_minutes: int | None = None,
        timezone: str | None = None,
        ayanamsa: Ayanamsa | None = None,
        sunrise: Literal["upper_limb", "disc_center", "hindu"] | None = None,
        idempotency_key: str | None = None,
    ) -> VedicPanchanga:
        """``POST /api/v3/vedic/panchanga``: tithi, vara, nakshatra, yoga, karana."""
        body = validate_request(
            PanchangaRequest,
            _panchanga_fields(
                date,
                time,
                latitude,
                longitude,
                timezone_offset_minutes,
                timezone,
                ayanamsa,
                sunrise,
            ),
        )
        return await self._client.request(PANCHANGA, body=body, idempotency_key=idempotency_key)

    async def remedies(
        self,
        *,
        subject: Subject,
        at: dt.datetime | str | None = None,
        language: Literal["en", "th"] | None = None,
        node: Node | None = None,
        idempotency_key: str | None = None,
    ) -> VedicRemedies:
        """``POST /api/v3/vedic/remedies``: rule-based remedies, each with its reason."""
        body = validate_request(
            VedicRemediesRequest,
            {"subject": subject, "at": at, "language": language, "node": node},
        )
        return await self._client.request(REMEDIES, body=body, idempotency_key=idempotency_key)

    async def chart_diagram(
        self,
        *,
        subject: Subject,
        style: Literal["north", "south"] | None = None,
        varga: str | None = None,
        node: Literal["mean", "true"] | None = None,
        format: PictureFormat | None = None,
        size_px: int | None = None,
        theme: Theme | None = None,
        colors: Colors | None = None,
        language: Language | None = None,
        idempotency_key: str | None = None,
    ) -> ChartImage:
        """``POST /api/v3/vedic/chart/diagram``: North or South Indian chart of any varga."""
        body = validate_request(
            VedicChartDiagramRequest,
            {
                "subject": subject,
                "style": style,
                "varga": varga,
                "node": node,
                **picture_fields(format, size_px, theme, colors, language),
            },
        )
        return await self._client.request_image(
            CHART_DIAGRAM, body=body, idempotency_key=idempotency_key
        )


# --- Generated by scripts/unasync.py from the Async classes above: do not edit below. ---


class Vedic(SyncResource):
    """``client.vedic``: sidereal charts, kundli matching (single and batch job), dasha,
    panchanga, remedies."""

    operations = OPERATIONS

    def chart(
        self,
        *,
        subject: Subject,
        node: Node | None = None,
        house_system: str | None = None,
        divisional_charts: Sequence[str] | None = None,
        interpretations: InterpretationLevel | None = None,
        language: InterpretationLanguage | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> InterpretedVedicChart:
        """``POST /api/v3/vedic/chart``: grahas, lagna, nakshatras, houses, dignities, vargas.
        ``sensitivity={"uncertainty_minutes": N}`` (0 to 720) adds the birth-time sensitivity
        (+1 credit)."""
        body = validate_request(
            VedicChartRequest,
            {
                "interpretations": interpretations,
                "language": language,
                "sensitivity": sensitivity,
                "subject": subject,
                "node": node,
                "house_system": house_system,
                "divisional_charts": divisional_charts,
            },
        )
        return self._client.request(CHART, body=body, idempotency_key=idempotency_key)

    def kundli_matching(
        self,
        *,
        boy: Subject,
        girl: Subject,
        school: School | None = None,
        interpretations: InterpretationLevel | None = None,
        language: InterpretationLanguage | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> InterpretedVedicKundliMatch:
        """``POST /api/v3/vedic/kundli-matching``: Ashtakoota for one pair, synchronously.
        ``sensitivity={"uncertainty_minutes": N}`` (0 to 720) adds the birth-time sensitivity
        (+1 credit)."""
        body = validate_request(
            KundliMatchingRequest,
            {
                "interpretations": interpretations,
                "language": language,
                "sensitivity": sensitivity,
                "boy": boy,
                "girl": girl,
                "school": school,
            },
        )
        return self._client.request(KUNDLI_MATCHING, body=body, idempotency_key=idempotency_key)

    def kundli_matching_batch(
        self,
        *,
        records: Sequence[Record],
        school: School | None = None,
        idempotency_key: str | None = None,
    ) -> JobHandle[KundliBatchResult]:
        """``POST /api/v3/vedic/kundli-matching/batch``: queue 1 to 50 pairs (priced per
        record); ``.wait()`` on the handle returns the job with one result per record id."""
        body = validate_request(KundliMatchingBatchRequest, {"records": records, "school": school})
        return self._client.jobs.submit(
            KUNDLI_MATCHING_BATCH,
            result_model=KundliBatchResult,
            body=body,
            idempotency_key=idempotency_key,
        )

    def dasha(
        self,
        *,
        subject: Subject,
        year_days: float | None = None,
        depth: int | None = None,
        at: dt.datetime | str | None = None,
        interpretations: InterpretationLevel | None = None,
        language: InterpretationLanguage | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> InterpretedVedicDasha:
        """``POST /api/v3/vedic/dasha``: Vimshottari periods, and those running at ``at``.
        ``sensitivity={"uncertainty_minutes": N}`` (0 to 720) adds the birth-time sensitivity
        (+1 credit)."""
        body = validate_request(
            VedicDashaRequest,
            {
                "interpretations": interpretations,
                "language": language,
                "sensitivity": sensitivity,
                "subject": subject,
                "year_days": year_days,
                "depth": depth,
                "at": at,
            },
        )
        return self._client.request(DASHA, body=body, idempotency_key=idempotency_key)

    def panchanga(
        self,
        *,
        date: dt.date | str,
        time: str,
        latitude: float,
        longitude: float,
        timezone_offset_minutes: int | None = None,
        timezone: str | None = None,
        ayanamsa: Ayanamsa | None = None,
        sunrise: Literal["upper_limb", "disc_center", "hindu"] | None = None,
        idempotency_key: str | None = None,
    ) -> VedicPanchanga:
        """``POST /api/v3/vedic/panchanga``: tithi, vara, nakshatra, yoga, karana."""
        body = validate_request(
            PanchangaRequest,
            _panchanga_fields(
                date,
                time,
                latitude,
                longitude,
                timezone_offset_minutes,
                timezone,
                ayanamsa,
                sunrise,
            ),
        )
        return self._client.request(PANCHANGA, body=body, idempotency_key=idempotency_key)

    def remedies(
        self,
        *,
        subject: Subject,
        at: dt.datetime | str | None = None,
        language: Literal["en", "th"] | None = None,
        node: Node | None = None,
        idempotency_key: str | None = None,
    ) -> VedicRemedies:
        """``POST /api/v3/vedic/remedies``: rule-based remedies, each with its reason."""
        body = validate_request(
            VedicRemediesRequest,
            {"subject": subject, "at": at, "language": language, "node": node},
        )
        return self._client.request(REMEDIES, body=body, idempotency_key=idempotency_key)

    def chart_diagram(
        self,
        *,
        subject: Subject,
        style: Literal["north", "south"] | None = None,
        varga: str | None = None,
        node: Literal["mean", "true"] | None = None,
        format: PictureFormat | None = None,
        size_px: int | None = None,
        theme: Theme | None = None,
        colors: Colors | None = None,
        language: Language | None = None,
        idempotency_key: str | None = None,
    ) -> ChartImage:
        """``POST /api/v3/vedic/chart/diagram``: North or South Indian chart of any varga."""
        body = validate_request(
            VedicChartDiagramRequest,
            {
                "subject": subject,
                "style": style,
                "varga": varga,
                "node": node,
                **picture_fields(format, size_px, theme, colors, language),
            },
        )
        return self._client.request_image(CHART_DIAGRAM, body=body, idempotency_key=idempotency_key)
