"""The HR talent assessment's facts and score: a BaZi profile, the Thai Taksa outlook, the fit
with a company's founding chart, the match with a position, and a weighted score with a verdict.

Conventions (numbers in ``data/hr/scoring.json``, words in ``data/hr/archetypes.json``):

* ``bazi_profile``: :func:`astro_calc.chinese.bazi.bazi_from_instant` with the BaZi endpoint's
  defaults (the day changes at 23:00, the civil clock decides day and hour), so the four pillars
  are the endpoint's. The analysis (balance, strength, favourable elements, ten gods) leaves the
  **year pillar** out (:data:`SCORED_PILLARS`): the year pillar encodes the birth year, and
  nothing that encodes the birth year or the age may move the score (issue 35;
  docs/decisions.md). Without a birth time the day is read at 12:00 local time and the hour
  pillar is left out too: the analysis then counts the month and day pillars (total weight 5).
  The year pillar stays in the response as context.
* ``thaksa_outlook``: :func:`astro_calc.thai.taksa.taksa_wheel` (the Thai wheel endpoint's
  function) for the birth, once per outlook year with ``on_date`` = the year's first day
  (``as_of`` plus 0, 1 or 2 years): the completed age that day gives the moving Taksa position,
  its planet and the period ruler. The reading: si, det, montri and ayu favourable (the wheel's
  favoured positions), kalakini unfavourable, boriwan, mula and utsaha neutral. Without a birth
  time the Thai day is read at 12:00 (a daytime birth; Wednesday is then Mercury's, not Rahu's).
  **Context only** (weight 0): the moving Taksa follows the completed age.
* ``company_fit``: the company's chart from its founding date (and time, else 12:00) read in the
  candidate's UTC offset. The candidate's day-master element against the company's (same,
  either generating the other, either restraining the other) adds points to a neutral 50. The
  year branches' relation (six harmony, the same three-harmony group, the same branch, six
  clash, or none) and the points a traditional reading gives it (``branch_points``) are
  reported as **context only**: they are not in the score (the candidate's year branch is the
  birth year). Without a company: not assessed, the neutral 50.
* ``position_match``: the position text matched against the archetype lexicon. Each matched
  archetype scores 50, plus 15 per favoured element that is favourable in the chart and minus
  15 per one that is unfavourable, plus 100 x (the share of the ten-god weight its two ten gods
  hold minus their expected share 0.2), that last term limited to +-20; the match is the
  keyword-count-weighted mean of the matched archetypes (at most three, by keyword count and
  then the lexicon's order). No match: the general profile, the neutral 50.
* ``chart_balance``: 100 - 2 x |support share - 50| - 8 per missing element (0..100): a day
  master neither overwhelmed nor starved, with every element present, scores highest.
* ``recommendation_score`` = round(0.55 position + 0.25 company + 0.20 balance), the weights in
  ``scoring.json`` (the Taksa outlook's weight is 0); the outlook's own score (the mean over the
  years of favourable 85, neutral 55, unfavourable 20) is reported for context.
  ``verdict``: 75 and above strong_hire, 60-74 consider, 45-59 caution, below 45
  not_recommended (shown as strong alignment / consider / explore further / low alignment).

Pure and deterministic: the same inputs (``as_of`` included) give the same facts and score. The
assessment is for entertainment; :mod:`astro_calc.hr.narrative` opens every text with that.
"""

from __future__ import annotations

import json
import re
from datetime import date, time, timedelta
from functools import lru_cache
from importlib import resources
from typing import Any, Final, Literal

import msgspec

from astro_calc.chinese.bazi import (
    BaziChart,
    DayMasterStrength,
    ElementBalance,
    Pillar,
    PillarName,
    TenGodWeight,
    bazi_from_instant,
    day_master_strength,
    element_balance,
    favourable_elements,
    ten_god_weights,
)
from astro_calc.chinese.symbols import Branch, ElementKey, Stem, controls, produces
from astro_calc.errors import CalcInputError
from astro_calc.thai.taksa import TaksaPosition, taksa_wheel
from astro_calc.time import resolve

Reading = Literal["favourable", "neutral", "unfavourable"]
Verdict = Literal["strong_hire", "consider", "caution", "not_recommended"]
ElementRelation = Literal[
    "same", "company_supports", "candidate_supports", "candidate_controls", "company_controls"
]
BranchRelation = Literal["six_harmony", "three_harmony", "same", "six_clash", "none"]

MAX_ARCHETYPES: Final = 3
#: The pillars the analysis counts, with and without a birth time: never the year pillar.
SCORED_PILLARS: Final[tuple[PillarName, ...]] = ("month", "day", "hour")
SCORED_PILLARS_NO_TIME: Final[tuple[PillarName, ...]] = ("month", "day")


@lru_cache(maxsize=4)
def hr_data(name: str) -> dict[str, Any]:
    """One of the HR data files (``archetypes``, ``scoring``, ``texts``)."""
    raw = resources.files("astro_calc").joinpath(f"data/hr/{name}.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(raw)
    return loaded


def no_time_assumed() -> time:
    """The local time a birth without a time is read at (12:00)."""
    return time.fromisoformat(hr_data("scoring")["no_time_assumed"])


# --- results -------------------------------------------------------------------------------------


class HrPillars(msgspec.Struct, frozen=True):
    year: Pillar
    month: Pillar
    day: Pillar
    hour: Pillar | None  # None without a birth time


class BaziProfile(msgspec.Struct, frozen=True):
    hour_pillar_included: bool
    day_boundary: str  # zi: the day changes at 23:00 (the BaZi endpoint's default)
    solar_time: str  # clock (the BaZi endpoint's default)
    pillars: HrPillars
    day_master: Stem
    element_balance: ElementBalance
    strength: DayMasterStrength
    favourable_elements: tuple[ElementKey, ...]
    unfavourable_elements: tuple[ElementKey, ...]
    ten_gods: tuple[TenGodWeight, ...]
    note: str | None  # why the hour pillar is missing, when it is


class OutlookYear(msgspec.Struct, frozen=True):
    number: int  # 1 = the year starting at as_of
    from_date: date
    to_date: date
    age_years: int  # completed age on from_date
    position: str  # the moving Taksa's position that year
    position_th: str
    position_en: str
    planet: str
    planet_th: str
    planet_en: str
    reading: Reading
    score: int
    outlook_th: str
    outlook_en: str
    period_ruler: str
    period_start_age: int
    period_end_age: int


class ThaksaOutlook(msgspec.Struct, frozen=True):
    birth_day: str
    birth_day_th: str
    birth_day_en: str
    birth_planet: str
    birth_time_assumed: bool  # the Thai day was read at 12:00 (no birth time)
    roles: tuple[TaksaPosition, ...]  # the eight positions of the birth day
    kalakini: TaksaPosition
    years: tuple[OutlookYear, ...]
    score: int  # mean of the years' scores


class CompanyFit(msgspec.Struct, frozen=True):
    assessed: bool
    score: int
    company_name: str | None = None
    founded_date: date | None = None
    founded_time: str | None = None  # HH:MM, or None (read at 12:00)
    company_day_master: Stem | None = None
    company_year_branch: Branch | None = None
    element_relation: ElementRelation | None = None
    element_points: int = 0
    branch_relation: BranchRelation | None = None
    branch_points: int = 0


class ArchetypeMatch(msgspec.Struct, frozen=True):
    key: str
    name_en: str
    name_th: str
    matched_keywords: tuple[str, ...]
    favoured_elements: tuple[ElementKey, ...]
    favoured_ten_gods: tuple[str, ...]
    element_points: int
    ten_god_share_percent: float
    ten_god_points: int
    score: int


class PositionMatch(msgspec.Struct, frozen=True):
    position: str
    profile: Literal["matched", "general"]
    archetypes: tuple[ArchetypeMatch, ...]
    score: int


class ScoreComponent(msgspec.Struct, frozen=True):
    score: int
    weight: float


class ScoreBreakdown(msgspec.Struct, frozen=True):
    position_match: ScoreComponent
    thaksa_outlook: ScoreComponent
    company_fit: ScoreComponent
    chart_balance: ScoreComponent
    formula: str


class CompanyFounding(msgspec.Struct, frozen=True):
    """What the assessment needs of a company: its name and founding date (and time)."""

    name: str
    founded_date: date
    founded_time: time | None = None


class HrFacts(msgspec.Struct, frozen=True):
    """Everything computed; :mod:`astro_calc.hr.narrative` words it."""

    name: str
    position: str
    as_of: date
    birth_date: date
    birth_time: time | None
    offset_minutes: int
    timezone: str | None
    latitude: float
    longitude: float
    bazi: BaziProfile
    thaksa: ThaksaOutlook
    company: CompanyFit
    position_match: PositionMatch
    chart_balance: int
    breakdown: ScoreBreakdown
    score: int
    verdict: Verdict


# --- parts ---------------------------------------------------------------------------------------


def bazi_profile(chart: BaziChart, *, birth_time_known: bool) -> BaziProfile:
    """The profile of a chart: the four pillars (the hour dropped without a birth time) and the
    analysis over :data:`SCORED_PILLARS` (no year pillar), with the endpoint's weighting."""
    names = SCORED_PILLARS if birth_time_known else SCORED_PILLARS_NO_TIME
    pillars = chart.pillars
    balance = element_balance(pillars, names)
    strength = day_master_strength(pillars, balance, names)
    good, bad = favourable_elements(pillars.day.stem, strength.verdict, balance)
    gods = ten_god_weights(pillars, names)
    note = (
        None
        if birth_time_known
        else "no birth time: hour pillar left out; the day read at 12:00 local time"
    )
    return BaziProfile(
        hour_pillar_included=birth_time_known,
        day_boundary=chart.pillar_time.day_boundary,
        solar_time=chart.pillar_time.mode,
        pillars=HrPillars(
            pillars.year, pillars.month, pillars.day, pillars.hour if birth_time_known else None
        ),
        day_master=chart.day_master,
        element_balance=balance,
        strength=strength,
        favourable_elements=good,
        unfavourable_elements=bad,
        ten_gods=gods,
        note=note,
    )


def add_years(day: date, years: int) -> date:
    """``day`` plus whole years; 29 February becomes 28 February in a common year."""
    try:
        return day.replace(year=day.year + years)
    except ValueError:
        return day.replace(year=day.year + years, day=28)


def thaksa_outlook(
    birth_date: date, birth_time: time | None, as_of: date, outlook_years: int
) -> ThaksaOutlook:
    """The Taksa wheel of the birth and the moving Taksa of each outlook year."""
    scoring = hr_data("scoring")
    local_time = birth_time if birth_time is not None else no_time_assumed()
    years: list[OutlookYear] = []
    wheel = taksa_wheel(birth_date, local_time)
    for k in range(outlook_years):
        start = add_years(as_of, k)
        yearly = taksa_wheel(birth_date, local_time, on_date=start).yearly
        assert yearly is not None  # on_date given
        position = next(p for p in wheel.positions if p.position == yearly.position)
        reading: Reading = scoring["outlook_readings"][yearly.position]
        years.append(
            OutlookYear(
                number=k + 1,
                from_date=start,
                to_date=add_years(as_of, k + 1) - timedelta(days=1),
                age_years=yearly.age_years,
                position=yearly.position,
                position_th=position.position_th,
                position_en=position.position_en,
                planet=yearly.planet,
                planet_th=position.planet_th,
                planet_en=position.planet_en,
                reading=reading,
                score=int(scoring["outlook_reading_scores"][reading]),
                outlook_th=yearly.outlook_th,
                outlook_en=yearly.outlook_en,
                period_ruler=yearly.period_ruler,
                period_start_age=yearly.period_start_age,
                period_end_age=yearly.period_end_age,
            )
        )
    mean = round(sum(y.score for y in years) / len(years))
    return ThaksaOutlook(
        birth_day=wheel.birth_day,
        birth_day_th=wheel.birth_day_th,
        birth_day_en=wheel.birth_day_en,
        birth_planet=wheel.birth_planet,
        birth_time_assumed=birth_time is None,
        roles=wheel.positions,
        kalakini=wheel.kalakini,
        years=tuple(years),
        score=mean,
    )


def element_relation(candidate: ElementKey, company: ElementKey) -> ElementRelation:
    """How the company's day-master element stands to the candidate's (generating cycle wood ->
    fire -> earth -> metal -> water, restraining cycle wood -> earth -> water -> fire -> metal)."""
    if candidate == company:
        return "same"
    if produces(company, candidate):
        return "company_supports"
    if produces(candidate, company):
        return "candidate_supports"
    if controls(candidate, company):
        return "candidate_controls"
    return "company_controls"


def branch_relation(candidate: int, company: int) -> BranchRelation:
    """The relation of two earthly branches (indices 0 = zi ... 11 = hai) by the tables in
    ``scoring.json``; a six harmony or clash wins over a shared three-harmony group."""
    scoring = hr_data("scoring")
    pair = {candidate, company}
    if candidate == company:
        return "same"
    if any(pair == set(p) for p in scoring["six_harmonies"]):
        return "six_harmony"
    if any(pair == set(p) for p in scoring["six_clashes"]):
        return "six_clash"
    if any(pair <= set(g) for g in scoring["three_harmonies"]):
        return "three_harmony"
    return "none"


def company_fit(
    candidate: BaziProfile,
    company: CompanyFounding | None,
    *,
    latitude: float,
    longitude: float,
    offset_minutes: int,
) -> CompanyFit:
    """The candidate's day master against the company's founding chart (scored), and the year
    branches' relation (context only, not in the score)."""
    scoring = hr_data("scoring")
    neutral = int(scoring["neutral_score"])
    if company is None:
        return CompanyFit(assessed=False, score=neutral)
    founded_time = company.founded_time
    resolved = resolve(
        company.founded_date,
        founded_time if founded_time is not None else no_time_assumed(),
        latitude=latitude,
        longitude=longitude,
        offset_minutes=offset_minutes,
    )
    chart = bazi_from_instant(resolved, latitude=latitude, longitude=longitude)
    element = element_relation(candidate.day_master.element, chart.day_master.element)
    branch = branch_relation(candidate.pillars.year.branch.index, chart.pillars.year.branch.index)
    element_points = int(scoring["element_relation_points"][element])
    branch_points = int(scoring["branch_relation_points"][branch])
    return CompanyFit(
        assessed=True,
        score=max(0, min(100, neutral + element_points)),
        company_name=company.name,
        founded_date=company.founded_date,
        founded_time=founded_time.strftime("%H:%M") if founded_time is not None else None,
        company_day_master=chart.day_master,
        company_year_branch=chart.pillars.year.branch,
        element_relation=element,
        element_points=element_points,
        branch_relation=branch,
        branch_points=branch_points,
    )


def _keyword_hits(text: str, archetype: dict[str, Any]) -> tuple[str, ...]:
    lowered = text.casefold()
    hits: list[str] = []
    for word in archetype["keywords_en"]:
        if re.search(rf"(?<![a-z0-9]){re.escape(word)}(?:s|es)?(?![a-z0-9])", lowered):
            hits.append(word)
    hits.extend(word for word in archetype["keywords_th"] if word in text)
    return tuple(hits)


def match_archetypes(position: str) -> list[tuple[str, tuple[str, ...]]]:
    """(archetype key, matched keywords) of the archetypes the position text names, most
    keywords first (the lexicon's order breaks ties), at most three."""
    lexicon = hr_data("archetypes")
    found = []
    for order, key in enumerate(lexicon["order"]):
        hits = _keyword_hits(position, lexicon["archetypes"][key])
        if hits:
            found.append((-len(hits), order, key, hits))
    found.sort()
    return [(key, hits) for _, _, key, hits in found[:MAX_ARCHETYPES]]


def position_match(position: str, profile: BaziProfile) -> PositionMatch:
    """The position's archetypes scored against the chart (see the module docstring)."""
    scoring = hr_data("scoring")
    rules = scoring["position"]
    lexicon = hr_data("archetypes")["archetypes"]
    total_weight = sum(t.weight for t in profile.ten_gods) or 1.0
    weights = {t.ten_god.key: t.weight for t in profile.ten_gods}
    matches: list[ArchetypeMatch] = []
    for key, hits in match_archetypes(position):
        entry = lexicon[key]
        element_points = 0
        for element in entry["favoured_elements"]:
            if element in profile.favourable_elements:
                element_points += int(rules["element_favourable_points"])
            elif element in profile.unfavourable_elements:
                element_points += int(rules["element_unfavourable_points"])
        gods = tuple(entry["favoured_ten_gods"])
        share = sum(weights.get(g, 0.0) for g in gods) / total_weight
        expected = len(gods) / 10
        limit = float(rules["ten_god_points_limit"])
        god_points = round(
            max(-limit, min(limit, float(rules["ten_god_points_per_share"]) * (share - expected)))
        )
        score = max(0, min(100, int(scoring["neutral_score"]) + element_points + god_points))
        matches.append(
            ArchetypeMatch(
                key=key,
                name_en=entry["name_en"],
                name_th=entry["name_th"],
                matched_keywords=hits,
                favoured_elements=tuple(entry["favoured_elements"]),
                favoured_ten_gods=gods,
                element_points=element_points,
                ten_god_share_percent=round(100 * share, 1),
                ten_god_points=god_points,
                score=score,
            )
        )
    if not matches:
        return PositionMatch(position, "general", (), int(scoring["neutral_score"]))
    counts = [len(m.matched_keywords) for m in matches]
    mean = sum(m.score * c for m, c in zip(matches, counts, strict=True)) / sum(counts)
    return PositionMatch(position, "matched", tuple(matches), round(mean))


def chart_balance_score(profile: BaziProfile) -> int:
    """100 - 2 x |support share - 50| - 8 per missing element, within 0..100."""
    rules = hr_data("scoring")["balance"]
    support = profile.strength.support_percent
    raw = (
        100
        - float(rules["points_per_percent_from_50"]) * abs(support - 50.0)
        - float(rules["missing_element_points"]) * len(profile.element_balance.missing)
    )
    return max(0, min(100, round(raw)))


def verdict_for(score: int) -> Verdict:
    """The verdict of a score by the thresholds in ``scoring.json``."""
    for threshold, verdict in hr_data("scoring")["verdict_thresholds"]:
        if score >= threshold:
            result: Verdict = verdict
            return result
    raise ValueError(f"no verdict for {score}")  # the last threshold is 0


def score_breakdown(
    position: int, outlook: int, company: int, balance: int
) -> tuple[ScoreBreakdown, int]:
    """The weighted score. The Taksa outlook's weight is 0 (it follows the age): it is listed with
    its score for context and left out of the formula."""
    weights = hr_data("scoring")["weights"]
    total = (
        weights["position_match"] * position
        + weights["thaksa_outlook"] * outlook
        + weights["company_fit"] * company
        + weights["chart_balance"] * balance
    )
    score = max(0, min(100, round(total)))
    counted = [k for k in ("position_match", "company_fit", "chart_balance") if weights[k]]
    if weights["thaksa_outlook"]:
        counted.insert(1, "thaksa_outlook")
    breakdown = ScoreBreakdown(
        position_match=ScoreComponent(position, weights["position_match"]),
        thaksa_outlook=ScoreComponent(outlook, weights["thaksa_outlook"]),
        company_fit=ScoreComponent(company, weights["company_fit"]),
        chart_balance=ScoreComponent(balance, weights["chart_balance"]),
        formula="round(" + " + ".join(f"{weights[k]} {k}" for k in counted) + ")",
    )
    return breakdown, score


# --- the whole assessment ------------------------------------------------------------------------


def hr_facts(
    *,
    name: str,
    birth_date: date,
    birth_time: time | None,
    latitude: float,
    longitude: float,
    offset_minutes: int | None = None,
    timezone_name: str | None = None,
    position: str,
    as_of: date,
    outlook_years: int = 1,
    company: CompanyFounding | None = None,
) -> HrFacts:
    """Compute every part of the assessment (see the module docstring for each convention)."""
    if not 1 <= outlook_years <= 3:
        raise CalcInputError("outlook_years", "must be between 1 and 3")
    if not 1 <= len(position) <= 200:
        raise CalcInputError("position", "must be 1 to 200 characters")
    if as_of < birth_date:
        raise CalcInputError("as_of", "must not be before the birth date")
    local_time = birth_time if birth_time is not None else no_time_assumed()
    resolved = resolve(
        birth_date,
        local_time,
        latitude=latitude,
        longitude=longitude,
        offset_minutes=offset_minutes,
        timezone_name=timezone_name,
    )
    chart = bazi_from_instant(resolved, latitude=latitude, longitude=longitude)
    profile = bazi_profile(chart, birth_time_known=birth_time is not None)
    outlook = thaksa_outlook(birth_date, birth_time, as_of, outlook_years)
    fit = company_fit(
        profile,
        company,
        latitude=latitude,
        longitude=longitude,
        offset_minutes=resolved.offset_minutes,
    )
    match = position_match(position, profile)
    balance = chart_balance_score(profile)
    breakdown, score = score_breakdown(match.score, outlook.score, fit.score, balance)
    return HrFacts(
        name=name,
        position=position,
        as_of=as_of,
        birth_date=birth_date,
        birth_time=birth_time,
        offset_minutes=resolved.offset_minutes,
        timezone=resolved.timezone,
        latitude=latitude,
        longitude=longitude,
        bazi=profile,
        thaksa=outlook,
        company=fit,
        position_match=match,
        chart_balance=balance,
        breakdown=breakdown,
        score=score,
        verdict=verdict_for(score),
    )
