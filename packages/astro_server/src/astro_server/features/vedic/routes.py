"""Vedic tag group: sidereal chart, kundli matching (single and the spec's batch job), dasha,
panchanga and remedies. Handlers are thin: validate -> astro_calc.vedic -> respond.

A birth subject is the spec's object (``date``, ``time`` HH:MM or HH:MM:SS, ``latitude``,
``longitude``, ``timezoneOffsetMinutes``, ``ayanamsa``) plus an optional IANA ``timezone``;
``date``, ``time``, ``latitude`` and ``longitude`` are required. Everything a batch record can
get wrong in its shape is checked here, before the billing wrapper charges anything; a record
that still fails in the calculation (a local time skipped by a daylight-saving change) gets its
own error in the job result while the other records succeed.
A field the calculation refuses is named by its path in the body: ``subject.time`` (chart,
dasha, remedies, via :func:`names_subject_fields`), ``boy.time`` / ``girl.time`` (matching,
prefixed by astro_calc), ``records[i].girl.time`` (a batch record's error).

The OpenAPI document describes each success body from the astro_calc struct the handler encodes
(pydantic mirrors, names prefixed ``Vedic``), the batch's 202 job handle, and the error body of
400 (field-level ``details``), 401, 402, 403, 409 and 429.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError
from quart import Blueprint, Response
from quart_schema import document_response, operation_id, tag

from astro_calc import ephemeris, vedic
from astro_calc.sensitivity import dasha_sensitivity, matching_sensitivity, vedic_sensitivity
from astro_calc.vedic import (
    KundliMatch,
    Panchanga,
    RemedyReport,
    SiderealChart,
    VimshottariDasha,
    kundli_match,
    panchanga_at,
    remedies,
    sidereal_chart,
    vimshottari_dasha,
)
from astro_calc.vedic.readings import (
    chart_interpretation,
    dasha_interpretation,
    matching_interpretation,
)
from astro_calc.vedic.subject import birth_moment
from astro_calc.vedic.varga import VARGAS
from astro_server.drawing.vedic import vedic_chart_svg
from astro_server.features.common.calculation import calculations
from astro_server.features.common.interpretations import (
    InterpretationOptions,
)
from astro_server.features.common.pictures import PictureOptions
from astro_server.features.common.routing import in_ephemeris_span, utc_or_now
from astro_server.features.common.sensitivity import (
    SensitivityOptions,
)
from astro_server.features.common.subject import (
    TIME_PATTERN,
    BirthSubject,
    timezone_field,
)
from astro_server.features.vedic import tasks as vedic_tasks
from astro_server.platform.auth.guards import require_api_key
from astro_server.platform.billing.billable import billable, current_charge
from astro_server.platform.caller import Caller
from astro_server.platform.jobs import creator_of, enqueue_job
from astro_server.platform.responses import job_accepted
from astro_server.platform.schemas import ErrorBody, JobHandle

blueprint = Blueprint("vedic", __name__)
TAG = ["Vedic"]
# Struct names such as Panchanga or Lagna are generic: prefix this group's OpenAPI schemas.
DOCS_PREFIX = "Vedic"
route = calculations(blueprint, tags=TAG, docs_prefix=DOCS_PREFIX, errors=(400,))

Ayanamsa = Literal["lahiri", "raman", "krishnamurti", "fagan_bradley", "true_chitra", "yukteshwar"]


class BirthSubjectIn(BirthSubject):
    ayanamsa: Ayanamsa = Field(default="lahiri", description="Sidereal zodiac (default lahiri)")
    timezone: str | None = timezone_field("Asia/Kolkata")

    def to_calc(self) -> vedic.BirthSubject:
        return vedic.BirthSubject(
            self.date,
            self.time,
            self.latitude,
            self.longitude,
            self.timezoneOffsetMinutes,
            self.ayanamsa,
            self.timezone,
        )


class ChartRequest(InterpretationOptions, SensitivityOptions):
    subject: BirthSubjectIn
    node: Literal["mean", "true"] = Field(default="mean", description="Rahu/Ketu: mean or true")
    house_system: str = Field(
        default="W",
        pattern=r"^[PKWEORCBAMTX]$",
        description="W whole-sign (default) or a cusp system",
    )
    divisional_charts: list[str] = Field(
        default_factory=lambda: list(VARGAS),
        max_length=16,
        description=f"Subset of {', '.join(VARGAS)}",
    )


class MatchRequest(InterpretationOptions, SensitivityOptions):
    boy: BirthSubjectIn
    girl: BirthSubjectIn
    school: Literal["north", "south"] = Field(default="north", description="Matching school")


class BatchRecord(BaseModel):
    id: str = Field(min_length=1, max_length=100, description="Caller's record id")
    boy: BirthSubjectIn
    girl: BirthSubjectIn


class BatchRequest(BaseModel):
    records: list[BatchRecord] = Field(min_length=1, max_length=50, description="1 to 50 pairs")
    school: Literal["north", "south"] = "north"

    @model_validator(mode="after")
    def _unique_ids(self) -> BatchRequest:
        seen: set[str] = set()
        for i, record in enumerate(self.records):
            if record.id in seen:
                raise PydanticCustomError(
                    "repeated_id",
                    "{id!r} is repeated; record ids must be unique",
                    {"field": f"records[{i}].id", "id": record.id},
                )
            seen.add(record.id)
        return self


class DashaRequest(InterpretationOptions, SensitivityOptions):
    subject: BirthSubjectIn
    year_days: float = Field(
        default=365.25, description="Dasha year length in days: 365.25, 365.2422 or 360"
    )

    @field_validator("year_days")
    @classmethod
    def _offered_year(cls, value: float) -> float:
        if value not in (365.25, 365.2422, 360.0):
            raise ValueError("must be 365.25, 365.2422 or 360")
        return value

    depth: int = Field(default=3, ge=1, le=3, description="1 maha, 2 antar, 3 pratyantar")
    at: dt.datetime | None = Field(default=None, description="Report the periods running then")

    _in_span = field_validator("at")(in_ephemeris_span)


class PanchangaRequest(BaseModel):
    date: dt.date
    time: str = Field(pattern=TIME_PATTERN)
    latitude: float = Field(ge=-90, le=90)
    longitude: float = Field(ge=-180, le=180)
    timezoneOffsetMinutes: int | None = Field(default=None, ge=-1080, le=1080)
    timezone: str | None = Field(default=None, max_length=64)
    ayanamsa: Ayanamsa = "lahiri"
    sunrise: Literal["upper_limb", "disc_center", "hindu"] = Field(
        default="upper_limb",
        description=(
            "Sunrise convention: upper_limb (almanac sunrise: upper limb, refraction), "
            "disc_center (centre of the disc, refraction), hindu (centre of the disc, no "
            "refraction, geocentric: the classical Hindu sunrise)"
        ),
    )

    _in_span = field_validator("date")(in_ephemeris_span)


class RemediesRequest(BaseModel):
    subject: BirthSubjectIn
    at: dt.datetime | None = Field(default=None, description="Date for Sade Sati and dasha lords")
    language: Literal["en", "th"] = "en"
    node: Literal["mean", "true"] = "mean"

    _in_span = field_validator("at")(in_ephemeris_span)


@route(
    "POST /api/v3/vedic/chart",
    "vedicChart",
    price="vedic.chart",
    body=ChartRequest,
    result=SiderealChart,
    interpret=lambda chart, data: chart_interpretation(
        chart, language=data.language, level=data.interpretations
    ),
    sensitivity=lambda data, minutes: vedic_sensitivity(
        data.subject.to_calc(), uncertainty_minutes=minutes
    ),
    names_subject=True,
)
def vedic_chart(data: ChartRequest) -> SiderealChart:
    """Sidereal chart: grahas, lagna, nakshatras, whole-sign houses, dignities, vargas.

    ``interpretations`` (summary or full, with ``language`` en or th) adds the texts in
    ``interpretations``, charged as the operation's interpretation row (tier pro); none leaves
    the body as it was. ``sensitivity`` (``{"uncertainty_minutes": 0..720}``) adds how close the
    lagna, the Moon's sign, nakshatra and pada and the dasha lord at birth are to changing,
    charged as the ``.sensitivity`` row (+1 credit).
    """
    return sidereal_chart(
        data.subject.to_calc(),
        node=data.node,
        house_system=data.house_system,
        divisional_charts=data.divisional_charts,
    )


@route(
    "POST /api/v3/vedic/kundli-matching",
    "vedicKundliMatching",
    price="vedic.kundli_matching",
    body=MatchRequest,
    result=KundliMatch,
    interpret=lambda match, data: matching_interpretation(
        match, language=data.language, level=data.interpretations
    ),
    sensitivity=lambda data, minutes: matching_sensitivity(
        data.boy.to_calc(), data.girl.to_calc(), school=data.school, uncertainty_minutes=minutes
    ),
)
def vedic_kundli_matching(data: MatchRequest) -> KundliMatch:
    """Ashtakoota (36 points), Nadi/Bhakoot/Manglik doshas with cancellations, verdict.

    ``interpretations`` (summary or full, with ``language`` en or th) adds the texts in
    ``interpretations``, charged as the operation's interpretation row (tier pro); none leaves
    the body as it was. ``sensitivity`` (``{"uncertainty_minutes": 0..720}``) adds, for each
    person (``boy.``, ``girl.``), how close the Moon's sign, nakshatra and pada and the koota
    score (that person's time moved) are to changing, charged as the ``.sensitivity`` row (+1
    credit).
    """
    return kundli_match(data.boy.to_calc(), data.girl.to_calc(), school=data.school)


@blueprint.post("/api/v3/vedic/kundli-matching/batch")
@require_api_key
@billable("vedic.kundli_matching_batch", body=BatchRequest, quantity=lambda body: len(body.records))
@document_response(JobHandle, 202)
@document_response(ErrorBody, 400)
@tag(TAG)
@operation_id("vedicKundliMatchingBatch")
async def vedic_kundli_matching_batch(data: BatchRequest, caller: Caller) -> Response:
    """Queue 1 to 50 matches; poll the job for one result per record id. Priced per record."""
    dumped = data.model_dump(mode="json")
    params = vedic_tasks.BatchParams(records=dumped["records"], school=dumped["school"])
    handle = await enqueue_job(
        vedic_tasks.KUNDLI_BATCH,
        params,
        account_id=caller.account_id,
        livemode=caller.livemode,
        charge=current_charge(),
        created_by=creator_of(caller),
    )
    return job_accepted(handle)


@route(
    "POST /api/v3/vedic/dasha",
    "vedicDasha",
    price="vedic.dasha",
    body=DashaRequest,
    result=VimshottariDasha,
    interpret=lambda result, data: dasha_interpretation(
        result,
        sidereal_chart(data.subject.to_calc(), divisional_charts=()),
        language=data.language,
        level=data.interpretations,
    ),
    sensitivity=lambda data, minutes: dasha_sensitivity(
        data.subject.to_calc(), year_days=float(data.year_days), uncertainty_minutes=minutes
    ),
    names_subject=True,
)
def vedic_dasha(data: DashaRequest) -> VimshottariDasha:
    """Vimshottari mahadasha, antardasha, pratyantardasha; the periods running at ``at``.

    ``interpretations`` (summary or full, with ``language`` en or th) adds the texts in
    ``interpretations``, charged as the operation's interpretation row (tier pro); none leaves
    the body as it was. ``sensitivity`` (``{"uncertainty_minutes": 0..720}``) adds how close
    the Moon's nakshatra, the dasha lord at birth and the month the first mahadasha ends are to
    changing, charged as the ``.sensitivity`` row (+1 credit).
    """
    subject = data.subject.to_calc()
    moment = birth_moment(subject)
    return vimshottari_dasha(
        moment.jd_ut,
        ayanamsa=subject.ayanamsa,
        year_days=float(data.year_days),
        depth=data.depth,
        at_jd_ut=ephemeris.julian_day(utc_or_now(data.at)),
    )


@route(
    "POST /api/v3/vedic/panchanga",
    "vedicPanchanga",
    price="vedic.panchanga",
    body=PanchangaRequest,
    result=Panchanga,
)
def vedic_panchanga(data: PanchangaRequest) -> Panchanga:
    """Tithi, vara, nakshatra, yoga, karana, sunrise and sunset with start and end times."""
    subject = vedic.BirthSubject(
        data.date,
        data.time,
        data.latitude,
        data.longitude,
        data.timezoneOffsetMinutes,
        data.ayanamsa,
        data.timezone,
    )
    moment = birth_moment(subject)
    return panchanga_at(
        moment.jd_ut,
        data.latitude,
        data.longitude,
        ayanamsa=data.ayanamsa,
        sunrise=data.sunrise,
    )


@route(
    "POST /api/v3/vedic/remedies",
    "vedicRemedies",
    price="vedic.remedies",
    body=RemediesRequest,
    result=RemedyReport,
    names_subject=True,
)
def vedic_remedies(data: RemediesRequest) -> RemedyReport:
    """Rule-based remedies, each tied to the reason found (en or th)."""
    return remedies(
        data.subject.to_calc(), utc_or_now(data.at), language=data.language, node=data.node
    )


class ChartDiagramRequest(PictureOptions):
    subject: BirthSubjectIn
    node: Literal["mean", "true"] = Field(default="mean", description="Rahu/Ketu: mean or true")
    style: Literal["north", "south"] = Field(
        default="north", description="north: the diamond (houses fixed); south: signs fixed"
    )
    varga: str = Field(
        default="D1",
        description=f"The divisional chart drawn: {', '.join(VARGAS)} (D1 the rasi chart)",
    )

    @field_validator("varga")
    @classmethod
    def _known_varga(cls, value: str) -> str:
        if value.upper() not in VARGAS:
            raise ValueError(f"unknown divisional chart; one of {', '.join(VARGAS)}")
        return value.upper()


@route(
    "POST /api/v3/vedic/chart/diagram",
    "vedicChartDiagram",
    picture=True,
    price="vedic.chart_diagram",
    body=ChartDiagramRequest,
    names_subject=True,
)
def vedic_chart_diagram(data: ChartDiagramRequest) -> str:
    """A Vedic chart picture, North Indian (diamond) or South Indian (fixed signs), of the rasi
    chart or any varga of ``POST /api/v3/vedic/chart``: lagna and grahas in their houses or
    signs, abbreviated in English or Thai (each a group with ``data-body``, ``data-longitude``
    and ``data-sign``)."""
    chart = sidereal_chart(data.subject.to_calc(), node=data.node, divisional_charts=[data.varga])
    return vedic_chart_svg(chart, style=data.style, varga=data.varga, **data.drawing_options())
