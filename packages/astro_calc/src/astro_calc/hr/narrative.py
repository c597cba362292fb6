"""The HR assessment in words: the candidate summary, the English and Thai narratives and the
recommendation factors, built from ``data/hr/texts.json`` and the computed facts.

Every text opens with the disclaimer (entertainment only; not to be used to decide employment).
Every factor names the chart fact it comes from (the archetype's elements against the favourable
elements, the ten-god share, the moving Taksa position and planet, the day-master and year-branch
relations, the support share and the missing elements). Nothing that encodes the birth year or
the age is counted in the score; the texts say so and print no age (issue 35). Templates are
filled by :func:`fill`, which refuses a template naming a slot it was not given, so no slot
survives.
"""

from __future__ import annotations

import string
import unicodedata
from datetime import date, time
from typing import Any, Final, Literal

import msgspec

from astro_calc.chinese.symbols import Stem
from astro_calc.glossary import date_text, name
from astro_calc.hr.assessment import (
    BaziProfile,
    CompanyFit,
    CompanyFounding,
    HrFacts,
    PositionMatch,
    ScoreBreakdown,
    ThaksaOutlook,
    Verdict,
    hr_data,
    hr_facts,
    no_time_assumed,
)

Locale = Literal["en", "th"]
LOCALES: Final[tuple[Locale, ...]] = ("en", "th")
#: The narrative's paragraphs, in order, separated by a blank line.
PARAGRAPHS: Final = ("disclaimer", "intro", "bazi", "outlook", "company", "position", "closing")


class DayMasterSummary(msgspec.Struct, frozen=True):
    character: str
    pinyin: str
    element: str
    polarity: str
    name_en: str
    name_th: str


class CandidateSummary(msgspec.Struct, frozen=True):
    name: str
    birth_date: date
    birth_time: str | None  # HH:MM, None when not given
    birth_time_known: bool
    offset_minutes: int
    timezone: str | None
    latitude: float
    longitude: float
    as_of: date
    age_years: int  # completed age on as_of
    day_master: DayMasterSummary
    strength: str
    year_animal: str
    year_animal_en: str
    year_animal_th: str
    thai_birth_day: str
    thai_birth_day_en: str
    thai_birth_day_th: str
    notes_en: tuple[str, ...]
    notes_th: tuple[str, ...]


class HrAssessment(msgspec.Struct, frozen=True):
    """The assessment body (the server adds ``request_id``, ``generated_at`` and the PDF)."""

    position: str
    as_of: date
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


class _Strict(dict[str, Any]):
    def __missing__(self, key: str) -> Any:
        raise KeyError(f"template slot {key!r} has no value")


def fill(template: str, **values: Any) -> str:
    """``template`` with its ``{slots}`` filled; a slot without a value is an error, and every
    slot given must be a plain name (no attribute or index access)."""
    for _, field, _, _ in string.Formatter().parse(template):
        if field is not None and not field.isidentifier():
            raise ValueError(f"template slot {field!r} is not a plain name")
    return template.format_map(_Strict(values))


def words(locale: Locale) -> dict[str, Any]:
    texts: dict[str, Any] = hr_data("texts")[locale]
    return texts


def _join(items: list[str], locale: Locale) -> str:
    w = words(locale)
    if not items:
        return str(w["none"])
    if len(items) == 1:
        return items[0]
    if locale == "en":
        return ", ".join(items[:-1]) + f" {w['and']} " + items[-1]
    # Thai: "ก ข และค" (a space between items, none after และ), "กและข" for two.
    if len(items) == 2:
        return f"{items[0]}{w['and']}{items[1]}"
    return " ".join(items[:-1]) + f" {w['and']}" + items[-1]


def _date(day: date, locale: Locale) -> str:
    """Thai text prints Buddhist Era dates with Thai month names; English keeps ISO dates."""
    return date_text(day, "th") if locale == "th" else day.isoformat()


def _stem_reading(stem: Stem, locale: Locale) -> str:
    """The stem's reading: pinyin in English, the glossary's Thai transliteration in Thai."""
    if locale == "en":
        return stem.pinyin
    key = "".join(c for c in unicodedata.normalize("NFD", stem.pinyin) if c.isascii())
    return name("stem", key, "th", short=True)


def _stem_name(stem: Stem, locale: Locale) -> str:
    w = words(locale)
    if locale == "en":
        return f"{w['polarity'][stem.polarity]} {w['elements'][stem.element]}"
    return f"{w['elements'][stem.element]}{w['polarity'][stem.polarity]}"


def _element(key: str, locale: Locale) -> str:
    return str(words(locale)["elements"][key])


def _percent(value: float) -> str:
    return f"{value:g}"


def _age(birth: date, on: date) -> int:
    return on.year - birth.year - ((on.month, on.day) < (birth.month, birth.day))


def candidate_summary(facts: HrFacts) -> CandidateSummary:
    dm = facts.bazi.day_master
    animal = facts.bazi.pillars.year.branch.animal
    notes_en: list[str] = []
    notes_th: list[str] = []
    if facts.birth_time is None:
        assumed = no_time_assumed().strftime("%H:%M")
        notes_en.append(fill(words("en")["no_time_note"], assumed_time=assumed))
        notes_th.append(fill(words("th")["no_time_note"], assumed_time=assumed))
    return CandidateSummary(
        name=facts.name,
        birth_date=facts.birth_date,
        birth_time=facts.birth_time.strftime("%H:%M") if facts.birth_time else None,
        birth_time_known=facts.birth_time is not None,
        offset_minutes=facts.offset_minutes,
        timezone=facts.timezone,
        latitude=facts.latitude,
        longitude=facts.longitude,
        as_of=facts.as_of,
        age_years=_age(facts.birth_date, facts.as_of),
        day_master=DayMasterSummary(
            dm.character,
            dm.pinyin,
            dm.element,
            dm.polarity,
            _stem_name(dm, "en"),
            _stem_name(dm, "th"),
        ),
        strength=facts.bazi.strength.verdict,
        year_animal=animal,
        year_animal_en=words("en")["animals"][animal],
        year_animal_th=words("th")["animals"][animal],
        thai_birth_day=facts.thaksa.birth_day,
        thai_birth_day_en=facts.thaksa.birth_day_en,
        thai_birth_day_th=facts.thaksa.birth_day_th,
        notes_en=tuple(notes_en),
        notes_th=tuple(notes_th),
    )


def _element_facts(elements: tuple[str, ...], profile: BaziProfile, locale: Locale) -> str:
    w = words(locale)
    parts = []
    for element in elements:
        if element in profile.favourable_elements:
            key = "element_fact_favourable"
        elif element in profile.unfavourable_elements:
            key = "element_fact_unfavourable"
        else:
            key = "element_fact_neutral"
        parts.append(fill(w[key], element=_element(element, locale)))
    return _join(parts, locale)


def _gods(keys: tuple[str, ...], locale: Locale) -> str:
    names = words(locale)["ten_gods"]
    return _join([names[k] for k in keys], locale)


def _branch_name(animal: str, pinyin: str, locale: Locale) -> str:
    w = words(locale)
    # Thai names the year by its Thai name alone (ปีมะเมีย (ม้า)); the pinyin slot stays empty.
    reading = pinyin if locale == "en" else ""
    return fill(w["branch_name"], animal=w["animals"][animal], pinyin=reading)


def _company_sentences(fit: CompanyFit, profile: BaziProfile, locale: Locale) -> tuple[str, str]:
    """(the narrative's sentence, the factor's fact) about the company fit."""
    w = words(locale)
    if not fit.assessed:
        return fill(w["company_not_assessed"], score=fit.score), str(w["factor_company_none"])
    assert fit.company_day_master is not None
    assert fit.company_year_branch is not None
    assert fit.element_relation is not None
    assert fit.branch_relation is not None
    candidate_branch = profile.pillars.year.branch
    element = fill(
        w["element_relations"][fit.element_relation],
        candidate_element=_element(profile.day_master.element, locale),
        company_element=_element(fit.company_day_master.element, locale),
    )
    branch = fill(
        w["branch_relations"][fit.branch_relation],
        candidate_branch=_branch_name(candidate_branch.animal, candidate_branch.pinyin, locale),
        company_branch=_branch_name(
            fit.company_year_branch.animal, fit.company_year_branch.pinyin, locale
        ),
    )
    sentence = fill(
        w["company_assessed"],
        company=fit.company_name,
        founded_date=_date(fit.founded_date, locale) if fit.founded_date else "",
        element_relation=element,
        branch_relation=branch,
        score=fit.score,
    )
    points = w["points_suffix"]
    fact = (
        f"{element} ({fit.element_points:+d}{points}){w['fact_separator']}"
        f"{branch} ({w['context_not_counted']})"
    )
    return sentence, fact


def narrative(facts: HrFacts, summary: CandidateSummary, locale: Locale) -> str:
    """The narrative in one language: disclaimer, introduction, BaZi, Taksa outlook, company,
    position and the closing score, one paragraph each."""
    w = words(locale)
    profile = facts.bazi
    dm = profile.day_master
    paragraphs = [str(w["disclaimer"])]
    intro = fill(
        w["intro"],
        name=facts.name,
        position=facts.position,
        as_of=_date(facts.as_of, locale),
    )
    notes = summary.notes_en if locale == "en" else summary.notes_th
    paragraphs.append(" ".join([intro, *notes]))
    balance = _join(
        [
            f"{_element(s.element, locale)} {_percent(s.percent)}%"
            for s in profile.element_balance.scores
        ],
        locale,
    )
    top = profile.ten_gods[0]
    paragraphs.append(
        fill(
            w["bazi"],
            day_master=_stem_name(dm, locale),
            day_master_pinyin=_stem_reading(dm, locale),
            strength=w["strength"][profile.strength.verdict],
            support=_percent(profile.strength.support_percent),
            balance=balance,
            favourable=_join([_element(e, locale) for e in profile.favourable_elements], locale),
            unfavourable=_join(
                [_element(e, locale) for e in profile.unfavourable_elements], locale
            ),
            top_god=w["ten_gods"][top.ten_god.key],
            top_god_weight=f"{top.weight:g}",
            ten_god_total=f"{sum(t.weight for t in profile.ten_gods):g}",
        )
    )
    outlook = facts.thaksa
    th = locale == "th"
    kalakini = outlook.kalakini
    lines = [
        fill(
            w["outlook_intro"],
            birth_day=outlook.birth_day_th if th else outlook.birth_day_en,
            birth_planet=outlook.roles[0].planet_th if th else outlook.roles[0].planet_en,
            kalakini=kalakini.planet_th if th else kalakini.planet_en,
        )
    ]
    for year in outlook.years:
        lines.append(
            fill(
                w["outlook_year"],
                number=year.number,
                from_date=_date(year.from_date, locale),
                to_date=_date(year.to_date, locale),
                position=year.position_th if th else year.position_en,
                planet=year.planet_th if th else year.planet_en,
                reading=w["readings"][year.reading],
                outlook=year.outlook_th if th else year.outlook_en,
            )
        )
    paragraphs.append(" ".join(lines))
    paragraphs.append(_company_sentences(facts.company, profile, locale)[0])
    paragraphs.append(_position_sentence(facts.position_match, profile, locale))
    weights = facts.breakdown
    paragraphs.append(
        fill(
            w["closing"],
            score=facts.score,
            verdict=w["verdicts"][facts.verdict],
            w_position=round(weights.position_match.weight * 100),
            w_company=round(weights.company_fit.weight * 100),
            w_balance=round(weights.chart_balance.weight * 100),
        )
    )
    return "\n\n".join(paragraphs)


def _position_sentence(match: PositionMatch, profile: BaziProfile, locale: Locale) -> str:
    w = words(locale)
    if match.profile == "general":
        return fill(w["position_general"], position=match.position, score=match.score)
    th = locale == "th"
    details = " ".join(
        fill(
            w["position_archetype"],
            archetype=a.name_th if th else a.name_en,
            elements=_join([_element(e, locale) for e in a.favoured_elements], locale),
            ten_gods=_gods(a.favoured_ten_gods, locale),
            element_facts=_element_facts(a.favoured_elements, profile, locale),
            share=_percent(a.ten_god_share_percent),
        )
        for a in match.archetypes
    )
    return fill(
        w["position_matched"],
        position=match.position,
        archetypes=_join([a.name_th if th else a.name_en for a in match.archetypes], locale),
        details=details,
        score=match.score,
    )


def factors(facts: HrFacts, locale: Locale) -> str:
    """The recommendation factors, one line each (``- `` bullets), each naming its chart fact."""
    w = words(locale)
    th = locale == "th"
    b = facts.breakdown
    profile = facts.bazi
    match = facts.position_match
    if match.profile == "general":
        position_fact = str(w["factor_position_general"])
    else:
        position_fact = "; ".join(
            fill(
                w["factor_position_archetype"],
                archetype=a.name_th if th else a.name_en,
                element_facts=_element_facts(a.favoured_elements, profile, locale),
                ten_gods=_gods(a.favoured_ten_gods, locale),
                share=_percent(a.ten_god_share_percent),
                ten_god_points=f"{a.ten_god_points:+d}",
            )
            for a in match.archetypes
        )
    outlook_fact = "; ".join(
        fill(
            w["factor_outlook_year"],
            number=y.number,
            position=y.position_th if th else y.position_en,
            planet=y.planet_th if th else y.planet_en,
            reading=w["readings"][y.reading],
        )
        for y in facts.thaksa.years
    )
    lines = [
        fill(
            w["factor_position"],
            score=b.position_match.score,
            weight=round(b.position_match.weight * 100),
            fact=position_fact,
        ),
        fill(
            w["factor_outlook"],
            score=b.thaksa_outlook.score,
            weight=round(b.thaksa_outlook.weight * 100),
            fact=outlook_fact,
        ),
        fill(
            w["factor_company"],
            score=b.company_fit.score,
            weight=round(b.company_fit.weight * 100),
            fact=_company_sentences(facts.company, profile, locale)[1],
        ),
        fill(
            w["factor_balance"],
            score=b.chart_balance.score,
            weight=round(b.chart_balance.weight * 100),
            day_master=_stem_name(profile.day_master, locale),
            support=_percent(profile.strength.support_percent),
            missing=_join([_element(e, locale) for e in profile.element_balance.missing], locale),
        ),
    ]
    return "\n".join(f"- {line}" for line in lines)


def assessment_from_facts(facts: HrFacts) -> HrAssessment:
    summary = candidate_summary(facts)
    return HrAssessment(
        position=facts.position,
        as_of=facts.as_of,
        candidate_summary=summary,
        bazi_profile=facts.bazi,
        thaksa_outlook=facts.thaksa,
        company_fit=facts.company,
        position_match=facts.position_match,
        hr_narrative_th=narrative(facts, summary, "th"),
        hr_narrative_en=narrative(facts, summary, "en"),
        recommendation_score=facts.score,
        verdict=facts.verdict,
        recommendation_factors_th=factors(facts, "th"),
        recommendation_factors_en=factors(facts, "en"),
        score_breakdown=facts.breakdown,
        chart_balance_score=facts.chart_balance,
        disclaimer_en=str(words("en")["disclaimer"]),
        disclaimer_th=str(words("th")["disclaimer"]),
    )


def hr_assessment(
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
) -> HrAssessment:
    """The whole HR assessment: facts (:func:`astro_calc.hr.assessment.hr_facts`) and their
    English and Thai texts. Deterministic for the same inputs."""
    facts = hr_facts(
        name=name,
        birth_date=birth_date,
        birth_time=birth_time,
        latitude=latitude,
        longitude=longitude,
        offset_minutes=offset_minutes,
        timezone_name=timezone_name,
        position=position,
        as_of=as_of,
        outlook_years=outlook_years,
        company=company,
    )
    return assessment_from_facts(facts)
