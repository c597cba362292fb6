"""Reports: the HR talent assessment, for entertainment only.

``POST /api/v3/reports/hr-screening`` (API key, tier pro, ``reports.hr_screening``,
``Idempotency-Key`` honoured by ``@billable``). Request: ``candidate`` {``name`` 1..120,
``birth_date`` (required, 1801-2199), ``birth_time`` ``HH:MM`` (optional: without it the hour
pillar is left out and the response says so), ``timezoneOffsetMinutes``, ``timezone``,
``latitude`` and ``longitude`` (required: with neither offset nor zone the zone is found from
them)}; ``position`` 1..200 characters; ``outlook_years`` 1..3 (default 1); ``include_pdf``
(default false); ``locale`` ``en|th`` (default ``en``, the PDF's language: both narratives are
always returned); optional ``company`` {``name`` 1..120, ``founded_date``, ``founded_time``
``HH:MM``}; optional ``as_of`` (the outlook's first day; default today in the birth's UTC
offset); ``branding`` or ``brand_profile_id`` (not both) as the natal PDF takes them;
``sensitivity`` (``{"uncertainty_minutes": 0..720}``, needs ``candidate.birth_time``): how close
the assessment's birth-time inputs (the four pillars, the Thai birth day and Taksa planet) are
to changing (:func:`astro_calc.sensitivity.hr_sensitivity`), charged as
``reports.hr_screening.sensitivity`` (+1 credit).

The answer is the spec's table (``request_id``, ``generated_at``, ``position``,
``candidate_summary``, ``bazi_profile``, ``thaksa_outlook``, ``company_fit``,
``position_match``, ``hr_narrative_th``, ``hr_narrative_en``, ``recommendation_score``,
``recommendation_factors_th``, ``recommendation_factors_en``) plus ``verdict``,
``disclaimer_en``, ``disclaimer_th``, ``score_breakdown``, ``chart_balance_score`` and
``as_of``; with ``include_pdf`` also ``pdf_url``, ``expires_at`` (24 h) and ``report_id``. The
computation and its formula: :mod:`astro_calc.hr`.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
from collections.abc import Awaitable, Callable
from typing import Any, Literal, TypeVar, cast

import msgspec
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from quart import Blueprint, Response, request
from quart_schema import document_response, operation_id, tag

from astro_calc.errors import CalcInputError
from astro_calc.hr import CompanyFounding, HrAssessment, hr_assessment
from astro_calc.hr.assessment import (
    BaziProfile,
    CompanyFit,
    PositionMatch,
    ScoreBreakdown,
    ThaksaOutlook,
    Verdict,
)
from astro_calc.hr.narrative import CandidateSummary
from astro_calc.sensitivity import Sensitivity, hr_sensitivity
from astro_calc.time import parse_time_of_day, resolve
from astro_server.features.common.sensitivity import (
    SensitivityOptions,
    sensitive_model,
    sensitivity_variant,
    with_sensitivity,
)
from astro_server.features.common.subject import check_zone, offset_minutes_field, timezone_field
from astro_server.features.reports import hr_service as hr_reports
from astro_server.features.reports import service as reports
from astro_server.features.reports.render.renderer import missing_components
from astro_server.features.reports.routes import BRAND_ID_PATTERN, Branding
from astro_server.platform.auth.guards import require_api_key
from astro_server.platform.billing.billable import billable
from astro_server.platform.caller import Caller
from astro_server.platform.errors import APIError
from astro_server.platform.hosts import public_base
from astro_server.platform.jobs import creator_of
from astro_server.platform.msgspec_docs import response_model
from astro_server.platform.responses import current_request_id, json_response
from astro_server.platform.schemas import ErrorBody

blueprint = Blueprint("hr", __name__)
TAG = ["Reports"]
DOCS_PREFIX = "Hr"
HHMM = r"^([01]\d|2[0-3]):[0-5]\d$"
MIN_YEAR = 1801
MAX_YEAR = 2199
#: Candidate fields a calculation may refuse, by their place in the request body.
F = TypeVar("F", bound=Callable[..., Awaitable[Any]])
_FIELD_NAMES = {
    "date": "candidate.birth_date",
    "time": "candidate.birth_time",
    "birth_time": "candidate.birth_time",
    "timezone": "candidate.timezone",
    "timezoneOffsetMinutes": "candidate.timezoneOffsetMinutes",
    "latitude": "candidate.latitude",
    "longitude": "candidate.longitude",
}


def _year_span(value: dt.date | None) -> dt.date | None:
    if value is not None and not MIN_YEAR <= value.year <= MAX_YEAR:
        raise ValueError(f"year must be between {MIN_YEAR} and {MAX_YEAR}")
    return value


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be blank")
    return value


class HrCandidate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=120, description="The candidate's name")
    birth_date: dt.date = Field(description="Local calendar date of birth, 1801-2199")
    birth_time: str | None = Field(
        default=None,
        pattern=HHMM,
        description="Local time HH:MM; without it the hour pillar is left out and the day and "
        "the Thai birth day are read at 12:00",
    )
    timezoneOffsetMinutes: int | None = offset_minutes_field(  # the spec's field name
        "Offset from UTC in minutes; wins over timezone when both are given"
    )
    timezone: str | None = timezone_field("Asia/Bangkok")
    latitude: float = Field(ge=-90, le=90, description="Degrees, north positive")
    longitude: float = Field(ge=-180, le=180, description="Degrees, east positive")

    _span = field_validator("birth_date")(_year_span)
    _name = field_validator("name")(_not_blank)

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str | None) -> str | None:
        return check_zone(value)


class HrCompany(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=120)
    founded_date: dt.date = Field(description="Founding date, 1801-2199")
    founded_time: str | None = Field(
        default=None, pattern=HHMM, description="HH:MM in the candidate's offset; default 12:00"
    )

    _span = field_validator("founded_date")(_year_span)
    _name = field_validator("name")(_not_blank)


class HrScreeningRequest(SensitivityOptions):
    model_config = ConfigDict(extra="forbid")

    candidate: HrCandidate
    position: str = Field(
        min_length=1, max_length=200, description="The position, English or Thai (1..200)"
    )
    outlook_years: int = Field(default=1, ge=1, le=3, description="Years of Taksa outlook")
    include_pdf: bool = Field(default=False, description="true: a signed pdf_url valid 24 h")
    locale: Literal["en", "th"] = Field(
        default="en", description="The PDF's language; both narratives are always returned"
    )
    company: HrCompany | None = Field(default=None, description="For the company fit")
    as_of: dt.date | None = Field(
        default=None, description="First day of the outlook; default today in the birth's offset"
    )
    branding: Branding | None = Field(default=None, description="White label; or brand_profile_id")
    brand_profile_id: str | None = Field(default=None, pattern=BRAND_ID_PATTERN)

    _position = field_validator("position")(_not_blank)

    @model_validator(mode="after")
    def _consistent(self) -> HrScreeningRequest:
        if self.branding is not None and self.brand_profile_id is not None:
            raise ValueError("give branding or brand_profile_id, not both")
        return self


class HrScreeningResult(msgspec.Struct, frozen=True, omit_defaults=True):
    """The assessment; ``pdf_url``, ``expires_at`` and ``report_id`` only with include_pdf."""

    request_id: str
    generated_at: dt.datetime
    position: str
    as_of: dt.date
    candidate_summary: CandidateSummary
    bazi_profile: BaziProfile
    thaksa_outlook: ThaksaOutlook
    company_fit: CompanyFit
    position_match: PositionMatch
    hr_narrative_th: str
    hr_narrative_en: str
    recommendation_score: int
    verdict: Verdict
    recommendation_factors_th: str
    recommendation_factors_en: str
    score_breakdown: ScoreBreakdown
    chart_balance_score: int
    disclaimer_en: str
    disclaimer_th: str
    pdf_url: str | None = None
    expires_at: dt.datetime | None = None
    report_id: str | None = None


def _as_of(data: HrScreeningRequest) -> dt.date:
    if data.as_of is not None:
        return data.as_of
    c = data.candidate
    resolved = resolve(
        c.birth_date,
        parse_time_of_day(c.birth_time or "12:00", "time"),
        latitude=c.latitude,
        longitude=c.longitude,
        offset_minutes=c.timezoneOffsetMinutes,
        timezone_name=c.timezone,
    )
    now = dt.datetime.now(dt.UTC) + dt.timedelta(minutes=resolved.offset_minutes)
    return now.date()


def assess(data: HrScreeningRequest) -> HrAssessment:
    """The assessment of a validated request; a field the calculation refuses is a 400 naming
    its place in the body."""
    c = data.candidate
    try:
        as_of = _as_of(data)
        company = None
        if data.company is not None:
            founded = data.company.founded_time
            company = CompanyFounding(
                data.company.name,
                data.company.founded_date,
                parse_time_of_day(founded, "company.founded_time") if founded else None,
            )
        return hr_assessment(
            name=c.name,
            birth_date=c.birth_date,
            birth_time=parse_time_of_day(c.birth_time, "time") if c.birth_time else None,
            latitude=c.latitude,
            longitude=c.longitude,
            offset_minutes=c.timezoneOffsetMinutes,
            timezone_name=c.timezone,
            position=data.position,
            as_of=as_of,
            outlook_years=data.outlook_years,
            company=company,
        )
    except CalcInputError as exc:
        raise CalcInputError(_FIELD_NAMES.get(exc.field, exc.field), exc.message) from None


def assess_sensitivity(data: HrScreeningRequest) -> Sensitivity | None:
    """The ``sensitivity`` option's answer (None when not asked for); a 400 naming
    ``candidate.birth_time`` when the birth time is missing."""
    if data.sensitivity is None:
        return None
    c = data.candidate
    try:
        return hr_sensitivity(
            c.birth_date,
            parse_time_of_day(c.birth_time, "time") if c.birth_time else None,
            latitude=c.latitude,
            longitude=c.longitude,
            offset_minutes=c.timezoneOffsetMinutes,
            timezone_name=c.timezone,
            uncertainty_minutes=data.sensitivity.uncertainty_minutes,
        )
    except CalcInputError as exc:
        raise CalcInputError(_FIELD_NAMES.get(exc.field, exc.field), exc.message) from None


def requires_renderer_for_pdf(func: F) -> F:
    """503 ``service_unavailable`` naming what is missing, before any charge, when
    ``include_pdf`` is true and this server cannot print a PDF."""

    @functools.wraps(func)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        body = await request.get_json(silent=True)
        if isinstance(body, dict) and body.get("include_pdf") is True:
            missing = missing_components()
            if missing:
                raise APIError(
                    503,
                    "PDF reports are unavailable on this server: missing " + "; ".join(missing),
                )
        return await func(*args, **kwargs)

    return cast(F, document_response(ErrorBody, 503)(wrapper))


@blueprint.post("/api/v3/reports/hr-screening")
@require_api_key
@requires_renderer_for_pdf
@billable(
    "reports.hr_screening",
    body=HrScreeningRequest,
    variant=sensitivity_variant("reports.hr_screening"),
)
@document_response(sensitive_model(response_model(HrScreeningResult, prefix=DOCS_PREFIX)), 200)
@document_response(ErrorBody, 400)
@document_response(ErrorBody, 404)
@document_response(ErrorBody, 429)
@tag(TAG)
@operation_id("reportsHrScreening")
async def hr_screening(data: HrScreeningRequest, caller: Caller) -> Response:
    """HR talent assessment (entertainment only; must not be used to decide employment): BaZi
    profile, Thai Taksa outlook, company fit, position match, a 0-100 score with its verdict,
    English and Thai narratives; with ``include_pdf`` a branded PDF at a signed URL (24 h).
    The score and verdict use nothing that encodes the birth year or age (the year pillar, the
    Taksa outlook, the year branches are returned as context only). ``sensitivity``
    (``{"uncertainty_minutes": 0..720}``, with ``candidate.birth_time``) adds how close the
    pillars and the Thai birth day are to changing (+1 credit)."""
    found = await asyncio.to_thread(assess_sensitivity, data)
    assessment = await asyncio.to_thread(assess, data)
    generated_at = dt.datetime.now(dt.UTC).replace(microsecond=0)
    pdf: dict[str, object] = {}
    if data.include_pdf:
        await reports.check_render_capacity(caller)
        await reports.check_test_pdf_allowance(caller)
        brand = None
        if data.brand_profile_id is not None:
            brand = await reports.brand_params_from_profile(
                caller.account_id, data.brand_profile_id
            )
        elif data.branding is not None:
            brand = await reports.brand_params_from_branding(
                caller.account_id, data.branding.model_dump()
            )
        result = await hr_reports.create_hr_pdf(
            account_id=caller.account_id,
            livemode=caller.livemode,
            assessment=msgspec.to_builtins(assessment),
            locale=data.locale,
            brand=brand,
            base_url=public_base(),
            created_by=creator_of(caller),
        )
        pdf = {
            "pdf_url": result["pdf_url"],
            "expires_at": dt.datetime.fromisoformat(str(result["expires_at"])),
            "report_id": result["report_id"],
        }
    body = HrScreeningResult(
        request_id=current_request_id(),
        generated_at=generated_at,
        **{f: getattr(assessment, f) for f in HrAssessment.__struct_fields__},
        **pdf,  # type: ignore[arg-type]
    )
    if found is None:
        return json_response(body)
    encoded = with_sensitivity(msgspec.json.encode(body), found)
    return Response(encoded, status=200, content_type="application/json")
