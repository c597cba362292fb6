"""Models of the HR talent assessment (``POST /api/v3/reports/hr-screening``), for
entertainment only: the assessment must not be used to decide employment.

The request mirrors the server's body (limits included: ``position`` 1..200 characters,
``outlook_years`` 1..3, ``candidate.name`` 1..120). The answer reuses the BaZi symbols of
:mod:`astro_sdk.models.chinese` and the Taksa positions of :mod:`astro_sdk.models.thai`:
``bazi_profile`` holds the BaZi endpoint's pillars for the same birth, analysed without the
year pillar, and ``thaksa_outlook`` the Thai wheel endpoint's moving Taksa for each outlook year.
The ``recommendation_score`` and ``verdict`` use no factor that encodes the birth year or the
age: the Taksa outlook (weight 0), the year pillar and the year branches' relation
(``company_fit.branch_points``) are context only.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field, model_validator

from astro_sdk.models._base import RequestModel, ResponseModel
from astro_sdk.models.chinese import (
    Branch,
    DayMasterStrength,
    ElementBalance,
    Pillar,
    Stem,
    TenGodWeight,
)
from astro_sdk.models.reports import Branding
from astro_sdk.models.sensitivity import Sensitivity, SensitivityOptions
from astro_sdk.models.thai import TaksaPosition

__all__ = [
    "ArchetypeMatch",
    "HrBaziProfile",
    "HrCandidate",
    "HrCandidateSummary",
    "HrCompany",
    "HrCompanyFit",
    "HrDayMaster",
    "HrOutlookYear",
    "HrPillars",
    "HrPositionMatch",
    "HrScoreBreakdown",
    "HrScoreComponent",
    "HrScreening",
    "HrScreeningRequest",
    "HrThaksaOutlook",
    "Verdict",
]

Verdict = Literal["strong_hire", "consider", "caution", "not_recommended"]
_HHMM = r"^([01]\d|2[0-3]):[0-5]\d$"


class HrCandidate(RequestModel):
    name: str = Field(min_length=1, max_length=120)
    birth_date: dt.date
    """1801-2199."""
    birth_time: str | None = Field(default=None, pattern=_HHMM)
    """HH:MM; without it the hour pillar is left out (the response says so)."""
    timezoneOffsetMinutes: int | None = Field(default=None, ge=-1080, le=1080)
    timezone: str | None = Field(default=None, max_length=64)
    latitude: float = Field(ge=-90, le=90)
    longitude: float = Field(ge=-180, le=180)


class HrCompany(RequestModel):
    name: str = Field(min_length=1, max_length=120)
    founded_date: dt.date
    founded_time: str | None = Field(default=None, pattern=_HHMM)


class HrScreeningRequest(SensitivityOptions):
    candidate: HrCandidate
    position: str = Field(min_length=1, max_length=200)
    outlook_years: int = Field(default=1, ge=1, le=3)
    include_pdf: bool = False
    locale: Literal["en", "th"] = "en"
    company: HrCompany | None = None
    as_of: dt.date | None = None
    branding: Branding | None = None
    brand_profile_id: str | None = Field(default=None, pattern=r"^brand_[a-f0-9]{24}$")

    @model_validator(mode="after")
    def _one_brand(self) -> HrScreeningRequest:
        if self.branding is not None and self.brand_profile_id is not None:
            raise ValueError("give branding or brand_profile_id, not both")
        return self


class HrDayMaster(ResponseModel):
    character: str
    pinyin: str
    element: str
    polarity: str
    name_en: str
    name_th: str


class HrCandidateSummary(ResponseModel):
    name: str
    birth_date: dt.date
    birth_time: str | None
    birth_time_known: bool
    offset_minutes: int
    timezone: str | None
    latitude: float
    longitude: float
    as_of: dt.date
    age_years: int
    day_master: HrDayMaster
    strength: str
    year_animal: str
    year_animal_en: str
    year_animal_th: str
    thai_birth_day: str
    thai_birth_day_en: str
    thai_birth_day_th: str
    notes_en: list[str]
    notes_th: list[str]


class HrPillars(ResponseModel):
    year: Pillar
    month: Pillar
    day: Pillar
    hour: Pillar | None
    """None without a birth time."""


class HrBaziProfile(ResponseModel):
    hour_pillar_included: bool
    day_boundary: str
    solar_time: str
    pillars: HrPillars
    day_master: Stem
    element_balance: ElementBalance
    strength: DayMasterStrength
    favourable_elements: list[str]
    unfavourable_elements: list[str]
    ten_gods: list[TenGodWeight]
    note: str | None


class HrOutlookYear(ResponseModel):
    number: int
    from_date: dt.date
    to_date: dt.date
    age_years: int
    position: str
    position_th: str
    position_en: str
    planet: str
    planet_th: str
    planet_en: str
    reading: str
    """favourable, neutral or unfavourable."""
    score: int
    outlook_th: str
    outlook_en: str
    period_ruler: str
    period_start_age: int
    period_end_age: int


class HrThaksaOutlook(ResponseModel):
    birth_day: str
    birth_day_th: str
    birth_day_en: str
    birth_planet: str
    birth_time_assumed: bool
    roles: list[TaksaPosition]
    kalakini: TaksaPosition
    years: list[HrOutlookYear]
    score: int


class HrCompanyFit(ResponseModel):
    assessed: bool
    score: int
    company_name: str | None = None
    founded_date: dt.date | None = None
    founded_time: str | None = None
    company_day_master: Stem | None = None
    company_year_branch: Branch | None = None
    element_relation: str | None = None
    element_points: int = 0
    branch_relation: str | None = None
    branch_points: int = 0


class ArchetypeMatch(ResponseModel):
    key: str
    name_en: str
    name_th: str
    matched_keywords: list[str]
    favoured_elements: list[str]
    favoured_ten_gods: list[str]
    element_points: int
    ten_god_share_percent: float
    ten_god_points: int
    score: int


class HrPositionMatch(ResponseModel):
    position: str
    profile: str
    """matched, or general when no archetype matched."""
    archetypes: list[ArchetypeMatch]
    score: int


class HrScoreComponent(ResponseModel):
    score: int
    weight: float


class HrScoreBreakdown(ResponseModel):
    position_match: HrScoreComponent
    thaksa_outlook: HrScoreComponent
    company_fit: HrScoreComponent
    chart_balance: HrScoreComponent
    formula: str


class HrScreening(ResponseModel):
    """The assessment (entertainment only). ``pdf_url``/``expires_at``/``report_id`` are set
    when the request asked for the PDF."""

    request_id: str
    generated_at: dt.datetime
    position: str
    as_of: dt.date
    candidate_summary: HrCandidateSummary
    bazi_profile: HrBaziProfile
    thaksa_outlook: HrThaksaOutlook
    company_fit: HrCompanyFit
    position_match: HrPositionMatch
    hr_narrative_th: str
    hr_narrative_en: str
    recommendation_score: int
    verdict: Verdict
    recommendation_factors_th: str
    recommendation_factors_en: str
    score_breakdown: HrScoreBreakdown
    chart_balance_score: int
    disclaimer_en: str
    disclaimer_th: str
    pdf_url: str | None = None
    expires_at: dt.datetime | None = None
    report_id: str | None = None
    sensitivity: Sensitivity | None = None
    """With the ``sensitivity`` option: how close the pillars and the Thai birth day are to
    changing."""
