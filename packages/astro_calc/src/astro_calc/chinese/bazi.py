"""BaZi (八字, the Four Pillars of Destiny): pillars, their symbols, the day master's strength,
luck pillars and annual pillars.

Conventions (parameters with defaults):

* ``day_boundary`` ``zi`` (the day changes at 23:00) or ``midnight``; see
  :mod:`astro_calc.chinese.pillars`.
* ``solar_time`` ``clock`` (the local civil time decides day and hour), ``mean`` (local mean
  time: 4 minutes per degree from Greenwich) or ``true`` (mean time plus the equation of time).
* Hidden stems: principal, middle and residual stems of each branch (本气, 中气, 余气), the table
  lunar-python uses.
* Five-element balance, weighting stated in ``ElementBalance.weighting``: each of the four stems
  counts 1; each branch counts 1 shared among its hidden stems (one: 1; two: 0.7 and 0.3; three:
  0.6, 0.3 and 0.1); the month branch counts double because it carries the season (月令).
  Total 9.
* Day-master strength (扶抑): the share of the balance held by the day master's own element and
  the element that produces it. Above 55 % strong, below 45 % weak, between balanced. The season,
  roots in the branches and support among the stems are reported as the reasons.
* Favourable elements: for a strong day master the elements that drain or restrain it (output,
  wealth, officer), for a weak one those that support it (resource, companion), for a balanced
  one the two weakest elements; each list ordered from the scarcest.
* Luck pillars (大运): forward from the month pillar for a yang-year male or a yin-year female,
  backward otherwise. They start after the time from birth to the next jie (forward) or from the
  previous jie (backward) scaled by 3 days = 1 year (so 1 day = 4 months and 2 hours = 10
  days; counted in minutes, 4,320 minutes = 1 year), and last ten years each.

Checked against lunar-python (pillars, hidden stems, ten gods, na yin, twelve stages, luck
pillars), the Wikibooks "Ba Zi" almanac tables (year, month and day pillars) and the published
charts of Bruce Lee, Bill Gates, Steve Jobs and Albert Einstein as far as their pages state them
(tests cite the addresses).
"""

from __future__ import annotations

import calendar as _gregorian
from datetime import date, datetime, time, timedelta
from functools import lru_cache
from typing import Annotated, Final, Literal

import msgspec

from astro_calc.chinese.pillars import (
    DayBoundary,
    PillarIndices,
    SolarTimeMode,
    four_pillars,
    pillar_time,
)
from astro_calc.chinese.solar_terms import SolarTerm
from astro_calc.chinese.symbols import (
    BRANCHES,
    ELEMENTS,
    HIDDEN_STEMS,
    STEMS,
    TEN_GOD_KEYS,
    TEN_GODS,
    Branch,
    ElementKey,
    NamedSymbol,
    NaYin,
    Stem,
    ganzhi,
    life_stage,
    na_yin,
    produces,
    ten_god,
    void_branches,
    year_cycle_index,
)
from astro_calc.errors import CalcInputError
from astro_calc.time import ResolvedTime, resolve

Gender = Literal["male", "female"]
Strength = Literal["strong", "balanced", "weak"]
HiddenRole = Literal["principal", "middle", "residual"]

_HIDDEN_WEIGHTS: Final = {1: (1.0,), 2: (0.7, 0.3), 3: (0.6, 0.3, 0.1)}
_ROLES: Final[tuple[HiddenRole, ...]] = ("principal", "middle", "residual")
MONTH_BRANCH_FACTOR: Final = 2.0
STRONG_ABOVE_PERCENT: Final = 55.0
WEAK_BELOW_PERCENT: Final = 45.0
MINUTES_PER_LUCK_YEAR: Final = 4320  # 3 days
WEIGHTING: Final = (
    "stems 1 each; each branch 1 shared among its hidden stems (1; 0.7+0.3; 0.6+0.3+0.1); "
    "month branch doubled; total 9"
)


class HiddenStem(msgspec.Struct, frozen=True):
    stem: Stem
    role: HiddenRole
    weight: float  # share of the branch's 1.0 (before the month-branch doubling)
    ten_god: NamedSymbol


class Pillar(msgspec.Struct, frozen=True):
    cycle_index: int  # 0 = 甲子 ... 59 = 癸亥
    ganzhi: str
    stem: Stem
    branch: Branch
    na_yin: NaYin
    hidden_stems: tuple[HiddenStem, ...]
    stem_ten_god: NamedSymbol | None  # None for the day pillar: its stem is the day master
    life_stage: NamedSymbol  # the day master's twelve-stage position in this branch (地势)
    self_life_stage: NamedSymbol  # this stem's own position in this branch (自坐)
    is_void: bool  # the branch is empty (空亡) for the day pillar's ten-day week


class FourPillars(msgspec.Struct, frozen=True):
    year: Pillar
    month: Pillar
    day: Pillar
    hour: Pillar


class ElementScore(msgspec.Struct, frozen=True):
    element: ElementKey
    score: float
    percent: float
    visible_stems: int  # how many of the four stems have this element


class ElementBalance(msgspec.Struct, frozen=True):
    weighting: str
    total: float
    scores: tuple[ElementScore, ...]  # wood, fire, earth, metal, water
    dominant: ElementKey
    weakest: ElementKey
    missing: tuple[ElementKey, ...]  # elements with a zero score


class StrengthFactor(msgspec.Struct, frozen=True):
    key: str  # season | roots | stem_support | balance
    supports: bool
    detail: str


class DayMasterStrength(msgspec.Struct, frozen=True):
    verdict: Strength
    support_percent: float  # share of the balance in the day master's and its resource element
    method: str
    factors: tuple[StrengthFactor, ...]


class TenGodWeight(msgspec.Struct, frozen=True):
    ten_god: NamedSymbol
    weight: float  # same weighting as the element balance, day master excluded


class LuckStart(msgspec.Struct, frozen=True):
    rule: str
    direction: Literal["forward", "backward"]
    reference_jie: SolarTerm
    minutes_to_jie: int
    years: int
    months: int
    days: int
    age_years: float  # exact start age in years after birth
    start_date: date


class LuckPillar(msgspec.Struct, frozen=True):
    number: int  # 1 = the first ten-year luck pillar
    pillar: Pillar
    start_age_years: float
    start_date: date
    start_year: int
    end_year: int  # last Gregorian year mostly under this pillar (start_year + 9)


class LuckPillars(msgspec.Struct, frozen=True):
    start: LuckStart
    pillars: tuple[LuckPillar, ...]


class AnnualPillar(msgspec.Struct, frozen=True):
    year: int  # Gregorian year; the pillar runs from that year's Lichun
    pillar: Pillar
    age: int  # age in completed years reached during that Gregorian year
    luck_pillar_number: int | None


class BirthMoment(msgspec.Struct, frozen=True):
    local: datetime
    utc: datetime
    offset_minutes: int
    timezone: str | None
    time_source: str
    latitude: float
    longitude: float


class PillarTime(msgspec.Struct, frozen=True):
    mode: str  # clock | mean | true | korean_almanac
    # The naive wall-clock reading that decided the day and hour pillars: no UTC offset, so it is
    # documented as a plain string, not an RFC 3339 date-time.
    local: Annotated[datetime, msgspec.Meta(tz=False)]
    correction_minutes: float  # pillar time minus civil clock time
    equation_of_time_minutes: float
    day_boundary: DayBoundary


class BaziChart(msgspec.Struct, frozen=True):
    birth: BirthMoment
    pillar_time: PillarTime
    pillars: FourPillars
    day_master: Stem
    bazi_year: int  # Gregorian year whose Lichun began the year pillar
    previous_jie: SolarTerm
    next_jie: SolarTerm
    void_branches: tuple[Branch, Branch]
    element_balance: ElementBalance
    strength: DayMasterStrength
    favourable_elements: tuple[ElementKey, ...]
    unfavourable_elements: tuple[ElementKey, ...]
    ten_gods: tuple[TenGodWeight, ...]  # heaviest first
    gender: Gender | None
    luck: LuckPillars | None  # None without a gender
    annual_pillars: tuple[AnnualPillar, ...]
    current_luck_pillar: LuckPillar | None  # at ``reference_date`` when one was given
    reference_date: date | None


# --- pillars -------------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def make_pillar(index: int, day_master: int, day_index: int, is_day: bool = False) -> Pillar:
    """A pillar's symbols relative to a day master (cached: charts share them)."""
    stem, branch = STEMS[index % 10], BRANCHES[index % 12]
    hidden = HIDDEN_STEMS[branch.index]
    weights = _HIDDEN_WEIGHTS[len(hidden)]
    voids = void_branches(day_index)
    return Pillar(
        cycle_index=index,
        ganzhi=ganzhi(index),
        stem=stem,
        branch=branch,
        na_yin=na_yin(index),
        hidden_stems=tuple(
            HiddenStem(STEMS[s], _ROLES[i], weights[i], ten_god(day_master, s))
            for i, s in enumerate(hidden)
        ),
        stem_ten_god=None if is_day else ten_god(day_master, stem.index),
        life_stage=life_stage(day_master, branch.index),
        self_life_stage=life_stage(stem.index, branch.index),
        is_void=branch.index in voids,
    )


def _pillars(p: PillarIndices) -> FourPillars:
    dm = p.day % 10
    return FourPillars(
        make_pillar(p.year, dm, p.day),
        make_pillar(p.month, dm, p.day),
        make_pillar(p.day, dm, p.day, True),
        make_pillar(p.hour, dm, p.day),
    )


# --- analysis ------------------------------------------------------------------------------------


PillarName = Literal["year", "month", "day", "hour"]
ALL_PILLARS: Final[tuple[PillarName, ...]] = ("year", "month", "day", "hour")


def _weighted_stems(
    pillars: FourPillars, names: tuple[PillarName, ...] = ALL_PILLARS
) -> list[tuple[int, float, bool]]:
    """(stem index, weight, is the day master) for the stems and hidden stems of ``names``
    (all four pillars by default; a birth without a time leaves the hour out)."""
    out: list[tuple[int, float, bool]] = []
    for name in names:
        p: Pillar = getattr(pillars, name)
        out.append((p.stem.index, 1.0, name == "day"))
        factor = MONTH_BRANCH_FACTOR if name == "month" else 1.0
        out.extend((h.stem.index, h.weight * factor, False) for h in p.hidden_stems)
    return out


def element_balance(
    pillars: FourPillars, names: tuple[PillarName, ...] = ALL_PILLARS
) -> ElementBalance:
    """Five-element balance with the weighting in :data:`WEIGHTING` over the pillars ``names``
    (without the hour pillar the total is 7)."""
    scores = dict.fromkeys(ELEMENTS, 0.0)
    for s, w, _ in _weighted_stems(pillars, names):
        scores[STEMS[s].element] += w
    total = sum(scores.values())
    visible = dict.fromkeys(ELEMENTS, 0)
    for name in names:
        visible[getattr(pillars, name).stem.element] += 1
    rows = tuple(
        ElementScore(e, round(scores[e], 4), round(100.0 * scores[e] / total, 2), visible[e])
        for e in ELEMENTS
    )
    dominant = max(ELEMENTS, key=lambda e: scores[e])
    weakest = min(ELEMENTS, key=lambda e: scores[e])
    missing = tuple(e for e in ELEMENTS if scores[e] == 0.0)
    weighting = WEIGHTING
    if names != ALL_PILLARS:
        weighting = WEIGHTING.replace("total 9", f"{' '.join(names)} pillars only; total {total:g}")
    return ElementBalance(weighting, round(total, 4), rows, dominant, weakest, missing)


def _resource_of(element: str) -> ElementKey:
    return next(e for e in ELEMENTS if produces(e, element))


def day_master_strength(
    pillars: FourPillars, balance: ElementBalance, names: tuple[PillarName, ...] = ALL_PILLARS
) -> DayMasterStrength:
    """Strength of the day master by the support share (see the module docstring), over the
    pillars ``names``."""
    dm = pillars.day.stem
    resource = _resource_of(dm.element)
    score = {s.element: s.score for s in balance.scores}
    support = 100.0 * (score[dm.element] + score[resource]) / balance.total
    month_element = pillars.month.hidden_stems[0].stem.element
    in_season = month_element in (dm.element, resource)
    roots = [
        name
        for name in names
        if any(h.stem.element == dm.element for h in getattr(pillars, name).hidden_stems)
    ]
    helpers = [
        name
        for name in names
        if name != "day" and getattr(pillars, name).stem.element in (dm.element, resource)
    ]
    if support > STRONG_ABOVE_PERCENT:
        verdict: Strength = "strong"
    elif support < WEAK_BELOW_PERCENT:
        verdict = "weak"
    else:
        verdict = "balanced"
    factors = (
        StrengthFactor(
            "season",
            in_season,
            f"month branch {pillars.month.branch.character} is {month_element}: "
            + ("it supports" if in_season else "it does not support")
            + f" a {dm.element} day master",
        ),
        StrengthFactor(
            "roots",
            bool(roots),
            f"{dm.element} is hidden in the {', '.join(roots)} branch(es)"
            if roots
            else f"no branch hides {dm.element}",
        ),
        StrengthFactor(
            "stem_support",
            bool(helpers),
            f"{', '.join(helpers)} stem(s) are {dm.element} or {resource}"
            if helpers
            else f"no other stem is {dm.element} or {resource}",
        ),
        StrengthFactor(
            "balance",
            support >= 50.0,
            f"{dm.element} and {resource} hold {support:.1f}% of the weighted balance "
            f"(strong above {STRONG_ABOVE_PERCENT:.0f}%, weak below {WEAK_BELOW_PERCENT:.0f}%)",
        ),
    )
    return DayMasterStrength(
        verdict,
        round(support, 2),
        "support share (扶抑): day-master element plus resource element",
        factors,
    )


def favourable_elements(
    day_master: Stem, strength: Strength, balance: ElementBalance
) -> tuple[tuple[ElementKey, ...], tuple[ElementKey, ...]]:
    """(favourable, unfavourable) elements, each ordered from the scarcest."""
    score = {s.element: s.score for s in balance.scores}
    dm = day_master.element
    supporting = {dm, _resource_of(dm)}
    draining = set(ELEMENTS) - supporting
    if strength == "strong":
        good, bad = draining, supporting
    elif strength == "weak":
        good, bad = supporting, draining
    else:
        ordered = sorted(ELEMENTS, key=lambda e: (score[e], ELEMENTS.index(e)))
        good, bad = set(ordered[:2]), set(ordered[3:])

    def order(xs: set[ElementKey]) -> tuple[ElementKey, ...]:
        return tuple(sorted(xs, key=lambda e: (score[e], ELEMENTS.index(e))))

    return order(good), order(bad)


def ten_god_weights(
    pillars: FourPillars, names: tuple[PillarName, ...] = ALL_PILLARS
) -> tuple[TenGodWeight, ...]:
    """Ten gods weighted like the element balance (the day master itself excluded)."""
    dm = pillars.day.stem.index
    weights = dict.fromkeys(TEN_GOD_KEYS, 0.0)
    for s, w, is_dm in _weighted_stems(pillars, names):
        if not is_dm:
            weights[ten_god(dm, s).key] += w
    ordered = sorted(TEN_GODS, key=lambda t: (-weights[t.key], t.index))
    return tuple(TenGodWeight(t, round(weights[t.key], 4)) for t in ordered)


# --- luck ----------------------------------------------------------------------------------------


def _add_years_months_days(start: date, years: int, months: int, days: int) -> date:
    month0 = start.month - 1 + months
    year = start.year + years + month0 // 12
    month = month0 % 12 + 1
    day = min(start.day, _gregorian.monthrange(year, month)[1])
    return date(year, month, day) + timedelta(days=days)


def luck_pillars(
    p: PillarIndices, birth_local: date, gender: Gender, count: int = 8
) -> LuckPillars:
    """Ten-year luck pillars (see the module docstring for direction and start)."""
    if gender not in ("male", "female"):
        raise CalcInputError("gender", "must be 'male' or 'female'")
    yang_year = p.year % 2 == 0
    forward = yang_year == (gender == "male")
    jie = p.next_jie if forward else p.previous_jie
    minutes = round(abs(jie.jd_ut - p.jd_ut) * 1440.0)
    years, rest = divmod(minutes, MINUTES_PER_LUCK_YEAR)
    months, rest = divmod(rest, 360)  # 6 hours = 1 month
    days = rest // 12  # 12 minutes = 1 day
    start_date = _add_years_months_days(birth_local, years, months, days)
    start = LuckStart(
        "3 days from birth to the adjacent jie = 1 year of life (1 day = 4 months, "
        "2 hours = 10 days)",
        "forward" if forward else "backward",
        jie,
        minutes,
        years,
        months,
        days,
        round(minutes / MINUTES_PER_LUCK_YEAR, 4),
        start_date,
    )
    dm = p.day % 10
    step = 1 if forward else -1
    pillars = tuple(
        LuckPillar(
            k,
            make_pillar((p.month + step * k) % 60, dm, p.day),
            round(minutes / MINUTES_PER_LUCK_YEAR + 10 * (k - 1), 4),
            _add_years_months_days(start_date, 10 * (k - 1), 0, 0),
            start_date.year + 10 * (k - 1),
            start_date.year + 10 * (k - 1) + 9,
        )
        for k in range(1, count + 1)
    )
    return LuckPillars(start, pillars)


def annual_pillars(
    p: PillarIndices,
    birth_local: date,
    first_year: int,
    last_year: int,
    luck: LuckPillars | None = None,
) -> tuple[AnnualPillar, ...]:
    """Annual pillars (流年) of Gregorian years, each from that year's Lichun."""
    if last_year < first_year:
        raise CalcInputError("annual_to_year", "must not be before annual_from_year")
    if last_year - first_year > 150:
        raise CalcInputError("annual_to_year", "at most 151 years")
    dm = p.day % 10
    out = []
    for year in range(first_year, last_year + 1):
        number = None
        if luck is not None:
            for lp in luck.pillars:
                if lp.start_year <= year <= lp.end_year:
                    number = lp.number
        out.append(
            AnnualPillar(
                year,
                make_pillar(year_cycle_index(year), dm, p.day),
                year - birth_local.year,
                number,
            )
        )
    return tuple(out)


# --- the chart -----------------------------------------------------------------------------------


def bazi_from_instant(
    resolved: ResolvedTime,
    *,
    latitude: float,
    longitude: float,
    gender: Gender | None = None,
    day_boundary: DayBoundary = "zi",
    solar_time: SolarTimeMode = "clock",
    luck_pillar_count: int = 8,
    annual_years: tuple[int, int] | None = None,
    reference_date: date | None = None,
    pillar_local_override: tuple[str, datetime] | None = None,
) -> BaziChart:
    """A BaZi chart from an already resolved birth moment (see :func:`bazi_chart`).

    ``pillar_local_override`` = (mode name, naive clock reading) lets Saju impose its own pillar
    time (the Korean almanac's meridian)."""
    if not 1 <= luck_pillar_count <= 12:
        raise CalcInputError("luck_pillar_count", "must be between 1 and 12")
    if gender is not None and gender not in ("male", "female"):
        raise CalcInputError("gender", "must be 'male' or 'female'")
    if solar_time not in ("clock", "mean", "true"):
        raise CalcInputError("solar_time", "must be 'clock', 'mean' or 'true'")
    utc = resolved.utc
    if pillar_local_override is not None:
        mode, local_reading = pillar_local_override
        eot = 0.0
    else:
        local_reading, eot = pillar_time(utc, resolved.local, longitude, solar_time)
        mode = solar_time
    p = four_pillars(utc, local_reading, day_boundary)
    pillars = _pillars(p)
    balance = element_balance(pillars)
    strength = day_master_strength(pillars, balance)
    good, bad = favourable_elements(pillars.day.stem, strength.verdict, balance)
    birth_local = resolved.local.date()
    luck = luck_pillars(p, birth_local, gender, luck_pillar_count) if gender else None
    annual: tuple[AnnualPillar, ...] = ()
    if annual_years is not None:
        annual = annual_pillars(p, birth_local, annual_years[0], annual_years[1], luck)
    current = None
    if luck is not None and reference_date is not None:
        for lp in luck.pillars:
            if lp.start_date <= reference_date:
                current = lp
    correction = (local_reading - resolved.local.replace(tzinfo=None)).total_seconds() / 60.0
    voids = void_branches(p.day)
    return BaziChart(
        birth=BirthMoment(
            resolved.local,
            utc,
            resolved.offset_minutes,
            resolved.timezone,
            resolved.source,
            latitude,
            longitude,
        ),
        pillar_time=PillarTime(
            mode, local_reading, round(correction, 2), round(eot, 2), day_boundary
        ),
        pillars=pillars,
        day_master=pillars.day.stem,
        bazi_year=p.bazi_year,
        previous_jie=p.previous_jie,
        next_jie=p.next_jie,
        void_branches=(BRANCHES[voids[0]], BRANCHES[voids[1]]),
        element_balance=balance,
        strength=strength,
        favourable_elements=good,
        unfavourable_elements=bad,
        ten_gods=ten_god_weights(pillars),
        gender=gender,
        luck=luck,
        annual_pillars=annual,
        current_luck_pillar=current,
        reference_date=reference_date,
    )


def bazi_chart(
    local_date: date,
    local_time: time,
    *,
    latitude: float,
    longitude: float,
    offset_minutes: int | None = None,
    timezone_name: str | None = None,
    gender: Gender | None = None,
    day_boundary: DayBoundary = "zi",
    solar_time: SolarTimeMode = "clock",
    luck_pillar_count: int = 8,
    annual_years: tuple[int, int] | None = None,
    reference_date: date | None = None,
) -> BaziChart:
    """The BaZi chart of a birth given in local civil time.

    The local time is resolved to UT by :func:`astro_calc.time.resolve` (offset, IANA zone with
    its history, or the zone found from the coordinates). Defaults: the day changes at 23:00
    (``day_boundary="zi"``), the civil clock decides day and hour (``solar_time="clock"``), eight
    luck pillars when ``gender`` is given. ``annual_years=(first, last)`` adds annual pillars;
    ``reference_date`` picks the luck pillar in force on that date. Checked against lunar-python,
    published almanac tables and published charts (tests)."""
    if not 1800 <= local_date.year <= 2200:
        raise CalcInputError("date", "year must be between 1800 and 2200")
    resolved = resolve(
        local_date,
        local_time,
        latitude=latitude,
        longitude=longitude,
        offset_minutes=offset_minutes,
        timezone_name=timezone_name,
    )
    return bazi_from_instant(
        resolved,
        latitude=latitude,
        longitude=longitude,
        gender=gender,
        day_boundary=day_boundary,
        solar_time=solar_time,
        luck_pillar_count=luck_pillar_count,
        annual_years=annual_years,
        reference_date=reference_date,
    )
