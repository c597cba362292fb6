"""The HR talent assessment (astro_calc.hr): its tables against independent references, the
position lexicon, the score formula and verdict bands, the three-pillar analysis, determinism,
and texts that open with the disclaimer and leave no slot.

References: lunar-python's ``LunarUtil.HE_ZHI_6`` (six harmonies), ``CHONG`` (six clashes),
``ZHI_HIDE_GAN`` (hidden stems) and ``WU_XING_GAN`` (stem elements); the three-harmony groups as
every BaZi textbook gives them (申子辰 water, 亥卯未 wood, 寅午戌 fire, 巳酉丑 metal; e.g. Joey
Yap, *BaZi: The Destiny Code*, ch. 5); the generating and restraining cycles of the five
elements (木生火, 火生土, 土生金, 金生水, 水生木; 木克土, 土克水, 水克火, 火克金, 金克木).
"""

from __future__ import annotations

import datetime as dt
import itertools
import random
import re

import pytest
from lunar_python.util import LunarUtil

from astro_calc.chinese.symbols import BRANCHES
from astro_calc.errors import CalcInputError
from astro_calc.hr import CompanyFounding, hr_assessment, hr_facts, match_archetypes, verdict_for
from astro_calc.hr.assessment import branch_relation, element_relation, hr_data
from astro_calc.hr.narrative import LOCALES, PARAGRAPHS, fill, words

BRANCH_CHARS = [b.character for b in BRANCHES]
ELEMENT_OF_CHAR = {"木": "wood", "火": "fire", "土": "earth", "金": "metal", "水": "water"}
GENERATES = {"wood": "fire", "fire": "earth", "earth": "metal", "metal": "water", "water": "wood"}
RESTRAINS = {"wood": "earth", "earth": "water", "water": "fire", "fire": "metal", "metal": "wood"}
TEXTBOOK_THREE_HARMONIES = ["申子辰", "亥卯未", "寅午戌", "巳酉丑"]

BRUCE_LEE = {
    "name": "Bruce Lee",
    "birth_date": dt.date(1940, 11, 27),
    "birth_time": dt.time(7, 12),
    "latitude": 37.79,
    "longitude": -122.41,
    "offset_minutes": -480,
}


def facts(**changes: object):  # type: ignore[no-untyped-def]
    args: dict[str, object] = {
        **BRUCE_LEE,
        "position": "Film director",
        "as_of": dt.date(2026, 6, 1),
        "outlook_years": 3,
    }
    args.update(changes)
    return hr_facts(**args)  # type: ignore[arg-type]


# --- tables --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("a", "b"), list(itertools.product(range(12), repeat=2)))
def test_branch_relations_agree_with_lunar_python_and_the_textbook(a: int, b: int) -> None:
    relation = branch_relation(a, b)
    ca, cb = BRANCH_CHARS[a], BRANCH_CHARS[b]
    if a == b:
        assert relation == "same"
    elif LunarUtil.HE_ZHI_6[a] == cb:
        assert relation == "six_harmony"
    elif LunarUtil.CHONG[a] == cb:
        assert relation == "six_clash"
    elif any(ca in group and cb in group for group in TEXTBOOK_THREE_HARMONIES):
        assert relation == "three_harmony"
    else:
        assert relation == "none"


def test_branch_relation_counts() -> None:
    pairs = [branch_relation(a, b) for a, b in itertools.combinations(range(12), 2)]
    assert pairs.count("six_harmony") == 6
    assert pairs.count("six_clash") == 6
    assert pairs.count("three_harmony") == 12


@pytest.mark.parametrize(
    ("candidate", "company"), list(itertools.product(list(GENERATES), repeat=2))
)
def test_element_relations_follow_the_two_cycles(candidate: str, company: str) -> None:
    relation = element_relation(candidate, company)  # type: ignore[arg-type]
    if candidate == company:
        assert relation == "same"
    elif GENERATES[company] == candidate:
        assert relation == "company_supports"
    elif GENERATES[candidate] == company:
        assert relation == "candidate_supports"
    elif RESTRAINS[candidate] == company:
        assert relation == "candidate_controls"
    else:
        assert RESTRAINS[company] == candidate
        assert relation == "company_controls"


# --- the BaZi profile without a birth time -------------------------------------------------------


def test_three_pillar_balance_recomputed_from_lunar_python_tables() -> None:
    profile = facts(birth_time=None).bazi
    assert profile.pillars.hour is None
    weights = {1: (1.0,), 2: (0.7, 0.3), 3: (0.6, 0.3, 0.1)}
    expected = dict.fromkeys(GENERATES, 0.0)
    # The year pillar is never analysed (it encodes the birth year); no time: month and day.
    for name, factor in (("month", 2.0), ("day", 1.0)):
        pillar = getattr(profile.pillars, name)
        expected[ELEMENT_OF_CHAR[LunarUtil.WU_XING_GAN[pillar.stem.character]]] += 1.0
        hidden = LunarUtil.ZHI_HIDE_GAN[pillar.branch.character]
        for stem, weight in zip(hidden, weights[len(hidden)], strict=True):
            expected[ELEMENT_OF_CHAR[LunarUtil.WU_XING_GAN[stem]]] += weight * factor
    got = {s.element: s.score for s in profile.element_balance.scores}
    assert got == pytest.approx(expected, abs=1e-9)
    assert profile.element_balance.total == pytest.approx(5.0)
    assert "month day pillars only; total 5" in profile.element_balance.weighting
    assert sum(t.weight for t in profile.ten_gods) == pytest.approx(4.0)  # 5 less the day stem
    with_time = facts().bazi
    assert with_time.element_balance.total == pytest.approx(7.0)
    assert "month day hour pillars only; total 7" in with_time.element_balance.weighting


def test_with_a_birth_time_the_four_pillars_are_the_published_chart() -> None:
    pillars = facts().bazi.pillars
    assert pillars.hour is not None
    assert [p.ganzhi for p in (pillars.year, pillars.month, pillars.day, pillars.hour)] == [
        "庚辰", "丁亥", "甲戌", "戊辰",
    ]  # fmt: skip


# --- position lexicon ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("position", "keys"),
    [
        ("Senior Software Engineers", ["technical"]),
        ("IT support", ["care", "technical"]),
        ("ผู้จัดการฝ่ายขาย", ["leadership", "sales"]),
        ("นักบัญชีอาวุโส", ["finance"]),
        ("Editorial assistant", []),  # "editor" is a whole word only
        ("Headphone tester", []),  # "head" too
        ("Lighthouse keeper", []),
        ("Chief Financial Officer", ["leadership", "operations", "finance"]),  # ties: lexicon order
    ],
)
def test_positions_map_to_archetypes(position: str, keys: list[str]) -> None:
    assert [key for key, _ in match_archetypes(position)] == keys


def test_lexicon_is_well_formed() -> None:
    lexicon = hr_data("archetypes")
    ten_gods = set(words("en")["ten_gods"])
    assert lexicon["order"] == list(lexicon["archetypes"])
    for entry in lexicon["archetypes"].values():
        assert set(entry["favoured_elements"]) <= set(GENERATES)
        assert set(entry["favoured_ten_gods"]) <= ten_gods
        assert entry["keywords_en"]
        assert entry["keywords_th"]
        assert all(re.fullmatch(r"[\u0e00-\u0e7f]+", w) for w in entry["keywords_th"])


# --- score and verdict ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("score", "verdict"),
    [
        (100, "strong_hire"), (75, "strong_hire"), (74, "consider"), (60, "consider"),
        (59, "caution"), (45, "caution"), (44, "not_recommended"), (0, "not_recommended"),
    ],
)  # fmt: skip
def test_verdict_bands(score: int, verdict: str) -> None:
    assert verdict_for(score) == verdict


def test_score_is_the_weighted_formula_of_its_parts() -> None:
    f = facts(company=CompanyFounding("Golden Harvest", dt.date(1970, 4, 1)))
    b = f.breakdown
    assert (b.position_match.weight, b.thaksa_outlook.weight) == (0.55, 0.0)
    assert (b.company_fit.weight, b.chart_balance.weight) == (0.25, 0.20)
    assert b.formula == "round(0.55 position_match + 0.25 company_fit + 0.2 chart_balance)"
    assert b.position_match.score == f.position_match.score
    assert b.thaksa_outlook.score == f.thaksa.score
    assert b.company_fit.score == f.company.score
    assert b.chart_balance.score == f.chart_balance
    weighted = 0.55 * f.position_match.score + 0.25 * f.company.score + 0.20 * f.chart_balance
    # The company fit counts the day masters' element relation only (the year branches' relation
    # is reported as context).
    assert f.company.score == 50 + f.company.element_points
    assert f.score == round(weighted)
    assert f.verdict == verdict_for(f.score)
    # Chart balance: 100 - 2 |support - 50| - 8 per missing element.
    support = f.bazi.strength.support_percent
    missing = len(f.bazi.element_balance.missing)
    assert f.chart_balance == max(0, min(100, round(100 - 2 * abs(support - 50) - 8 * missing)))


def _random_case(rng: random.Random) -> dict[str, object]:
    """A birth between 1950 and 2005, away from the solar-term month boundaries (days 10-26),
    in Bangkok's fixed offset; a random position and, half the time, a company."""
    year = rng.randint(1950, 2005)
    known = rng.random() < 0.8
    company = (
        CompanyFounding("Co", dt.date(rng.randint(1950, 2020), rng.randint(1, 12), 15))
        if rng.random() < 0.5
        else None
    )
    return {
        "name": "Case",
        "birth_date": dt.date(year, rng.randint(1, 12), rng.randint(10, 26)),
        "birth_time": dt.time(rng.randint(0, 22), rng.randint(0, 59)) if known else None,
        "latitude": 13.75,
        "longitude": 100.5,
        "offset_minutes": 420,
        "position": rng.choice(["Accountant", "Sales manager", "Software engineer", "Nurse",
                                "ผู้จัดการฝ่ายขาย", "Lighthouse keeper", "Teacher"]),
        "as_of": dt.date(2090, 6, 1),
        "outlook_years": 3,
        "company": company,
    }  # fmt: skip


def test_score_and_verdict_ignore_the_birth_year_and_the_age() -> None:
    """Only year-derived inputs change: the same month, day and time 80 years later. 80 years are
    29 220 days (20 leap days between 1901 and 2099), exactly 487 sexagenary day cycles, and 960
    months, 16 cycles of the month stems: the month, day and hour pillars are the same, while the
    year pillar (its branch: 80 mod 12 = 8), the weekday of the birth and, with ``as_of`` moved,
    the age and the Taksa outlook differ. The score and the verdict must not move."""
    rng = random.Random(35)
    outlooks_differ = branches_differ = 0
    for _ in range(12):
        case = _random_case(rng)
        birth = case["birth_date"]
        assert isinstance(birth, dt.date)
        # The outlook date moves too (1 to 7 years), so the age moves by a number of years
        # that is not a multiple of the Taksa's 8-year cycle.
        later = {
            **case,
            "birth_date": birth.replace(year=birth.year + 80),
            "as_of": dt.date(2090 + rng.randint(1, 7), 6, 1),
        }
        a, b = hr_facts(**case), hr_facts(**later)  # type: ignore[arg-type]
        # The inputs differ only in what the year encodes...
        assert (a.bazi.pillars.month, a.bazi.pillars.day, a.bazi.pillars.hour) == (
            b.bazi.pillars.month, b.bazi.pillars.day, b.bazi.pillars.hour,
        )  # fmt: skip
        assert a.bazi.pillars.year.branch != b.bazi.pillars.year.branch
        assert [y.age_years for y in a.thaksa.years] != [y.age_years for y in b.thaksa.years]
        outlooks_differ += a.thaksa.score != b.thaksa.score
        branches_differ += a.company.branch_relation != b.company.branch_relation
        # ...and the score and verdict are the same.
        counted = ("position_match", "company_fit", "chart_balance")
        assert (a.score, a.verdict) == (b.score, b.verdict), case
        assert [getattr(a.breakdown, k) for k in counted] == [
            getattr(b.breakdown, k) for k in counted
        ], case
    # The cases did exercise the age and the birth-year branch.
    assert outlooks_differ >= 3
    assert branches_differ >= 2


def test_archetype_points_follow_the_chart() -> None:
    f = facts(position="Accountant")
    (match,) = f.position_match.archetypes
    assert match.key == "finance"
    element_points = sum(
        15 if e in f.bazi.favourable_elements else -15 if e in f.bazi.unfavourable_elements else 0
        for e in match.favoured_elements
    )
    assert match.element_points == element_points
    total = sum(t.weight for t in f.bazi.ten_gods)
    share = sum(t.weight for t in f.bazi.ten_gods if t.ten_god.key in match.favoured_ten_gods)
    assert match.ten_god_share_percent == round(100 * share / total, 1)
    assert match.ten_god_points == round(max(-20, min(20, 100 * (share / total - 0.2))))
    assert match.score == 50 + element_points + match.ten_god_points


def test_same_inputs_same_assessment() -> None:
    kwargs = {**BRUCE_LEE, "position": "Teacher", "as_of": dt.date(2026, 6, 1)}
    assert hr_assessment(**kwargs) == hr_assessment(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"outlook_years": 0}, "outlook_years"),
        ({"outlook_years": 4}, "outlook_years"),
        ({"position": ""}, "position"),
        ({"position": "x" * 201}, "position"),
        ({"as_of": dt.date(1940, 11, 26)}, "as_of"),
    ],
)
def test_calculation_refuses_out_of_range_inputs(changes: dict[str, object], field: str) -> None:
    with pytest.raises(CalcInputError) as refused:
        facts(**changes)
    assert refused.value.field == field


# --- texts ---------------------------------------------------------------------------------------


def test_both_languages_have_the_same_texts() -> None:
    def shape(value: object) -> object:
        if isinstance(value, dict):
            return {k: shape(v) for k, v in value.items()}
        return sorted(set(re.findall(r"\{(\w+)\}", value))) if isinstance(value, str) else None

    texts = hr_data("texts")
    assert shape(texts["en"]) == shape(texts["th"])


def test_fill_refuses_a_missing_slot() -> None:
    with pytest.raises(KeyError):
        fill("{a} and {b}", a=1)


@pytest.mark.parametrize("birth_time", [dt.time(7, 12), None])
@pytest.mark.parametrize("company", [None, CompanyFounding("Golden Harvest", dt.date(1970, 4, 1))])
@pytest.mark.parametrize(
    "position", ["Lighthouse keeper", "ผู้จัดการฝ่ายขาย", *hr_data("archetypes")["order"]]
)
def test_texts_open_with_the_disclaimer_and_leave_no_slot(
    birth_time: dt.time | None, company: CompanyFounding | None, position: str
) -> None:
    kwargs = {**BRUCE_LEE, "birth_time": birth_time}
    result = hr_assessment(
        **kwargs,  # type: ignore[arg-type]
        position=position,
        as_of=dt.date(2026, 6, 1),
        outlook_years=3,
        company=company,
    )
    for locale in LOCALES:
        narrative = getattr(result, f"hr_narrative_{locale}")
        factors = getattr(result, f"recommendation_factors_{locale}")
        assert narrative.startswith(words(locale)["disclaimer"])
        assert len(narrative.split("\n\n")) == len(PARAGRAPHS)
        for text in (narrative, factors):
            assert "{" not in text
            assert "}" not in text
            assert "None" not in text
    assert re.search(r"[\u0e00-\u0e7f]{20}", result.hr_narrative_th)
    # Every factor names its chart fact.
    en = result.recommendation_factors_en.splitlines()
    assert "Mercury" in en[1] or "Moon" in en[1] or "under" in en[1]
    assert "support" in en[3]
