"""HR talent assessment (entertainment only): a BaZi profile, the Thai Taksa outlook, the fit
with a company's founding chart, the match with a position, a weighted score and verdict, and
English and Thai texts that open with the disclaimer. See :mod:`astro_calc.hr.assessment` for
the conventions and the formula, :mod:`astro_calc.hr.narrative` for the texts."""

from astro_calc.hr.assessment import (
    ArchetypeMatch,
    BaziProfile,
    CompanyFit,
    CompanyFounding,
    HrFacts,
    HrPillars,
    OutlookYear,
    PositionMatch,
    ScoreBreakdown,
    ScoreComponent,
    ThaksaOutlook,
    Verdict,
    hr_facts,
    match_archetypes,
    verdict_for,
)
from astro_calc.hr.narrative import (
    PARAGRAPHS,
    CandidateSummary,
    DayMasterSummary,
    HrAssessment,
    assessment_from_facts,
    hr_assessment,
)

__all__ = [
    "PARAGRAPHS",
    "ArchetypeMatch",
    "BaziProfile",
    "CandidateSummary",
    "CompanyFit",
    "CompanyFounding",
    "DayMasterSummary",
    "HrAssessment",
    "HrFacts",
    "HrPillars",
    "OutlookYear",
    "PositionMatch",
    "ScoreBreakdown",
    "ScoreComponent",
    "ThaksaOutlook",
    "Verdict",
    "assessment_from_facts",
    "hr_assessment",
    "hr_facts",
    "match_archetypes",
    "verdict_for",
]
