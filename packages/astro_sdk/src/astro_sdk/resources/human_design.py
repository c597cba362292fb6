"""``client.human_design``: the Human Design chart (bodygraph), the composite of two charts,
transits against a chart and the bodygraph picture. Every route is billable (an
``Idempotency-Key`` per call, reused on retries)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from astro_sdk._base import validate_request
from astro_sdk._operation import Credential, Operation
from astro_sdk._resource import AsyncResource, SyncResource
from astro_sdk.models.human_design import (
    BodygraphRequest,
    ChartRequest,
    CompositeRequest,
    HumanDesignComposite,
    HumanDesignSubject,
    HumanDesignTransits,
    InterpretedHumanDesignChart,
    Node,
    TransitsRequest,
)
from astro_sdk.models.interpretations import InterpretationLanguage, InterpretationLevel
from astro_sdk.models.pictures import ChartImage, ImageBody, PictureFormat
from astro_sdk.models.sensitivity import SensitivityOption
from astro_sdk.resources._pictures import (
    Colors,
    Language,
    Theme,
    picture_fields,
    picture_operation,
)

__all__ = ["AsyncHumanDesign", "HumanDesign"]

Subject = HumanDesignSubject | Mapping[str, Any]


def _post(name: str, path: str, response: type[Any], request: type[Any]) -> Any:
    return Operation(
        operation_id=name,
        method="POST",
        path=path,
        credential=Credential.API_KEY,
        response_model=response,
        request_model=request,
        billable=True,
    )


CHART: Operation[InterpretedHumanDesignChart] = _post(
    "humanDesignChart", "/api/v3/human-design/chart", InterpretedHumanDesignChart, ChartRequest
)
COMPOSITE: Operation[HumanDesignComposite] = _post(
    "humanDesignComposite",
    "/api/v3/human-design/composite",
    HumanDesignComposite,
    CompositeRequest,
)
TRANSITS: Operation[HumanDesignTransits] = _post(
    "humanDesignTransits", "/api/v3/human-design/transits", HumanDesignTransits, TransitsRequest
)
BODYGRAPH: Operation[ImageBody] = picture_operation(
    "humanDesignBodygraph", "/api/v3/human-design/bodygraph", BodygraphRequest
)
OPERATIONS = (CHART, COMPOSITE, TRANSITS, BODYGRAPH)


class AsyncHumanDesign(AsyncResource):
    """``client.human_design``: chart, composite, transits and the bodygraph picture."""

    operations = OPERATIONS

    async def chart(
        self,
        *,
        subject: Subject,
        node: Node | None = None,
        interpretations: InterpretationLevel | None = None,
        language: InterpretationLanguage | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> InterpretedHumanDesignChart:
        """``POST /api/v3/human-design/chart``: type, strategy, authority, profile, definition,
        incarnation cross, centres, channels and the personality and design activations.
        ``interpretations`` (summary or full, ``language`` en or th) adds the readings;
        ``sensitivity={"uncertainty_minutes": N}`` (0 to 720) adds the birth-time sensitivity
        (+1 credit)."""
        body = validate_request(
            ChartRequest,
            {
                "subject": subject,
                "node": node,
                "interpretations": interpretations,
                "language": language,
                "sensitivity": sensitivity,
            },
        )
        return await self._client.request(CHART, body=body, idempotency_key=idempotency_key)

    async def composite(
        self,
        *,
        subject_a: Subject,
        subject_b: Subject,
        node: Node | None = None,
        language: InterpretationLanguage | None = None,
        idempotency_key: str | None = None,
    ) -> HumanDesignComposite:
        """``POST /api/v3/human-design/composite``: the channels two people define together,
        each with its connection kind (electromagnetic, compromise, dominance,
        companionship). Every answer's ``disclaimer`` is in ``language`` (en or th)."""
        body = validate_request(
            CompositeRequest,
            {"subject_a": subject_a, "subject_b": subject_b, "node": node, "language": language},
        )
        return await self._client.request(COMPOSITE, body=body, idempotency_key=idempotency_key)

    async def transits(
        self,
        *,
        subject: Subject,
        moment: dt.datetime | str | None = None,
        node: Node | None = None,
        language: InterpretationLanguage | None = None,
        idempotency_key: str | None = None,
    ) -> HumanDesignTransits:
        """``POST /api/v3/human-design/transits``: the sky at ``moment`` (default now) against
        the chart: its gates, the channels it completes and the centres it defines."""
        body = validate_request(
            TransitsRequest,
            {"subject": subject, "moment": moment, "node": node, "language": language},
        )
        return await self._client.request(TRANSITS, body=body, idempotency_key=idempotency_key)

    async def bodygraph(
        self,
        *,
        subject: Subject,
        node: Node | None = None,
        format: PictureFormat | None = None,
        size_px: int | None = None,
        theme: Theme | None = None,
        colors: Colors | None = None,
        language: Language | None = None,
        idempotency_key: str | None = None,
    ) -> ChartImage:
        """``POST /api/v3/human-design/bodygraph``: the bodygraph picture (SVG or PNG)."""
        body = validate_request(
            BodygraphRequest,
            {
                "subject": subject,
                "node": node,
                **picture_fields(format, size_px, theme, colors, language),
            },
        )
        return await self._client.request_image(
            BODYGRAPH, body=body, idempotency_key=idempotency_key
        )


# --- Generated by scripts/unasync.py from the Async classes above: do not edit below. ---


class HumanDesign(SyncResource):
    """``client.human_design``: chart, composite, transits and the bodygraph picture."""

    operations = OPERATIONS

    def chart(
        self,
        *,
        subject: Subject,
        node: Node | None = None,
        interpretations: InterpretationLevel | None = None,
        language: InterpretationLanguage | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> InterpretedHumanDesignChart:
        """``POST /api/v3/human-design/chart``: type, strategy, authority, profile, definition,
        incarnation cross, centres, channels and the personality and design activations.
        ``interpretations`` (summary or full, ``language`` en or th) adds the readings;
        ``sensitivity={"uncertainty_minutes": N}`` (0 to 720) adds the birth-time sensitivity
        (+1 credit)."""
        body = validate_request(
            ChartRequest,
            {
                "subject": subject,
                "node": node,
                "interpretations": interpretations,
                "language": language,
                "sensitivity": sensitivity,
            },
        )
        return self._client.request(CHART, body=body, idempotency_key=idempotency_key)

    def composite(
        self,
        *,
        subject_a: Subject,
        subject_b: Subject,
        node: Node | None = None,
        language: InterpretationLanguage | None = None,
        idempotency_key: str | None = None,
    ) -> HumanDesignComposite:
        """``POST /api/v3/human-design/composite``: the channels two people define together,
        each with its connection kind (electromagnetic, compromise, dominance,
        companionship). Every answer's ``disclaimer`` is in ``language`` (en or th)."""
        body = validate_request(
            CompositeRequest,
            {"subject_a": subject_a, "subject_b": subject_b, "node": node, "language": language},
        )
        return self._client.request(COMPOSITE, body=body, idempotency_key=idempotency_key)

    def transits(
        self,
        *,
        subject: Subject,
        moment: dt.datetime | str | None = None,
        node: Node | None = None,
        language: InterpretationLanguage | None = None,
        idempotency_key: str | None = None,
    ) -> HumanDesignTransits:
        """``POST /api/v3/human-design/transits``: the sky at ``moment`` (default now) against
        the chart: its gates, the channels it completes and the centres it defines."""
        body = validate_request(
            TransitsRequest,
            {"subject": subject, "moment": moment, "node": node, "language": language},
        )
        return self._client.request(TRANSITS, body=body, idempotency_key=idempotency_key)

    def bodygraph(
        self,
        *,
        subject: Subject,
        node: Node | None = None,
        format: PictureFormat | None = None,
        size_px: int | None = None,
        theme: Theme | None = None,
        colors: Colors | None = None,
        language: Language | None = None,
        idempotency_key: str | None = None,
    ) -> ChartImage:
        """``POST /api/v3/human-design/bodygraph``: the bodygraph picture (SVG or PNG)."""
        body = validate_request(
            BodygraphRequest,
            {
                "subject": subject,
                "node": node,
                **picture_fields(format, size_px, theme, colors, language),
            },
        )
        return self._client.request_image(BODYGRAPH, body=body, idempotency_key=idempotency_key)
