"""Market calendars: for each civil day of a market, its public holidays, festivals, the date in
the market's own calendars, the day's quality for business in each culture, and the Western
electional warnings. Every fact names its tradition and its source.

Conventions
-----------
* A market's day is its civil day in the market's zone (``data/cultural/markets.json``); the
  Chinese calendar and almanac are those of the civil day in China, the Hindu ones those of New
  Delhi (:mod:`astro_calc.cultural.hindu`), the Thai ones those of the Thai calendar; the
  void-of-course Moon is shown in the market's local time.
* Public holidays: the ``holidays`` package, ``public`` category, names in the requested language
  when the package has it for the country (Thai for every market but India), else English.
* Business quality of a day (per tradition, then summed): each fact has an effect ``favour``,
  ``avoid`` or ``info`` and a weight; the day's ``score`` is the sum of the weights and its
  ``rating`` is ``good`` at +2 or more, ``bad`` at -2 or less, else ``neutral``. Weights: see
  :data:`WEIGHTS` (the same table the best-dates ranking uses, documented in
  ``docs/decisions.md``).

Ranges are at most 366 days counting both ends.
"""

from __future__ import annotations

import bisect
import warnings
from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from typing import Final, Literal
from zoneinfo import ZoneInfo

import holidays as holidays_lib
import msgspec
from holidays.version import __version__ as HOLIDAYS_VERSION

from astro_calc import glossary
from astro_calc.chinese.calendar import chinese_date
from astro_calc.cultural._data import load
from astro_calc.cultural.festivals import korean_lunar_date, lunar_festivals
from astro_calc.cultural.hindu import hindu_day, hindu_festivals
from astro_calc.cultural.sky import SkyRange, VoidPeriod, sky_range
from astro_calc.cultural.tongshu import tong_shu_day
from astro_calc.errors import CalcInputError
from astro_calc.thai import auspicious_times, thai_festivals, thai_lunar_date
from astro_calc.thai.auspicious import AuspiciousDay
from astro_calc.thai.taksa import taksa_data
from astro_calc.thai.texts import text as thai_text

Language = Literal["en", "th"]
Effect = Literal["favour", "avoid", "info"]
Rating = Literal["good", "neutral", "bad"]
Activity = Literal[
    "product_launch", "store_opening", "contract_signing", "campaign_start", "wedding", "moving"
]
ACTIVITIES: Final = (
    "product_launch", "store_opening", "contract_signing", "campaign_start", "wedding", "moving",
)  # fmt: skip
MAX_RANGE_DAYS: Final = 366
#: Calendar years offered (the Thai calendar's and the Chinese calendar's common span).
MIN_YEAR: Final = 1901
MAX_YEAR: Final = 2099
#: Weight of each kind of fact in a day's score (see the module docstring).
WEIGHTS: Final[dict[str, int]] = {
    "public_holiday_closed": -3,  # store opening, contract signing: shops and offices closed
    "public_holiday": -1,  # other activities: a warning
    "officer_suits": 2,
    "officer_avoids": -3,
    "nothing_suitable": -3,
    "yellow_road": 1,
    "ghost_month": -2,
    "thai_auspicious": 2,
    "thai_avoid": -1,  # per Thai rule that avoids the day, at most -3
    "buddhist_lent": -2,  # weddings and moving only
    "tithi_good": 1,
    "tithi_bad": -2,
    "son_free": 2,  # Korean moving days
    "mercury_retrograde": -2,  # launches, contracts and campaigns; -1 otherwise
    "void_business_hours": -1,
}
_CLOSING_ACTIVITIES: Final = frozenset({"store_opening", "contract_signing"})
_MERCURY_ACTIVITIES: Final = frozenset({"product_launch", "contract_signing", "campaign_start"})
_LENT_ACTIVITIES: Final = frozenset({"wedding", "moving"})
#: The activity a market calendar rates days for.
CALENDAR_ACTIVITY: Final = "store_opening"


class Fact(msgspec.Struct, frozen=True):
    tradition: str  # public_holiday, thai, chinese, korean, hindu, western
    key: str
    text: str  # in the requested language
    source: str
    effect: Effect = "info"
    weight: int = 0


class ChineseDay(msgspec.Struct, frozen=True):
    lunar_year: int
    lunar_month: int
    lunar_day: int
    is_leap_month: bool
    label: str  # e.g. 乙巳年六月初一; in Korea 음력 2025년 6월 1일 (the Korean calendar, at KST)
    year_ganzhi: str
    month_ganzhi: str  # of the solar month
    day_ganzhi: str
    zodiac_animal: str
    officer: str  # 建除 officer, e.g. 开
    officer_name: str  # in the requested language
    clash_animal: str
    clash_branch: str
    evil_direction: str
    spirit: str
    yellow_road: bool
    suitable: tuple[str, ...]  # activity names in the requested language
    avoid: tuple[str, ...]
    suitable_zh: tuple[str, ...]
    avoid_zh: tuple[str, ...]


class ThaiDay(msgspec.Struct, frozen=True):
    lunar_year: int
    lunar_month: int
    second_month_8: bool
    phase: str
    kham: int
    wan_phra: bool
    buddhist_era: int
    label: str
    colour: str  # the colour of the day, requested language
    auspicious_for_business: bool
    buddhist_lent: bool


class HinduDayInfo(msgspec.Struct, frozen=True):
    tithi: int
    tithi_name: str
    paksha: str
    month: str
    adhika: bool
    tithi_quality: str
    rahu_kalam_start: datetime
    rahu_kalam_end: datetime


class VoidWindow(msgspec.Struct, frozen=True):
    start: datetime  # local time of the market, clipped to the day
    end: datetime
    last_aspect_body: str
    last_aspect_deg: int
    next_sign: str


class WesternDay(msgspec.Struct, frozen=True):
    mercury_retrograde: bool
    void_of_course: tuple[VoidWindow, ...]


class MarketDay(msgspec.Struct, frozen=True):
    date: date
    weekday: str
    public_holidays: tuple[Fact, ...]
    festivals: tuple[Fact, ...]
    chinese: ChineseDay | None
    thai: ThaiDay | None
    hindu: HinduDayInfo | None
    western: WesternDay
    rating: Rating
    score: int
    facts: tuple[Fact, ...]  # every fact that rates the day, with its weight


class MarketCalendar(msgspec.Struct, frozen=True):
    market: str
    market_name: str
    timezone: str
    language: str
    start: date
    end: date
    traditions: tuple[str, ...]
    notes: tuple[str, ...]  # e.g. the holidays package's coverage warnings for these years
    days: tuple[MarketDay, ...]


class MarketInfo(msgspec.Struct, frozen=True):
    code: str
    name_en: str
    name_th: str
    timezone: str
    public_holidays: str  # the source
    public_holiday_years: tuple[int, int]  # the years the source covers for the country
    traditions: tuple[str, ...]
    offers: tuple[str, ...]


def markets() -> tuple[MarketInfo, ...]:
    """The supported markets and what each calendar offers."""
    data = load("markets")
    out = []
    for code, entry in data["markets"].items():
        offers = ["public_holidays"]
        for tradition in entry["traditions"]:
            offers.extend(data["offers"][tradition])
        out.append(
            MarketInfo(
                code,
                entry["en"],
                entry["th"],
                entry["timezone"],
                _holiday_source(code),
                _holiday_years(code),
                tuple(entry["traditions"]),
                tuple(offers),
            )
        )
    return tuple(out)


def market_codes() -> tuple[str, ...]:
    return tuple(load("markets")["markets"])


def _holiday_source(country: str) -> str:
    template: str = load("markets")["traditions"]["public_holiday"]["source"]
    return template.format(version=HOLIDAYS_VERSION, country=country)


def _source(tradition: str) -> str:
    source: str = load("markets")["traditions"][tradition]["source"]
    return source


def _text(key: str, language: Language, **values: object) -> str:
    template: str = load("texts")["facts"][key][language]
    return template.format(**values)


def check_range(
    start: date, end: date, *, start_field: str = "start", end_field: str = "end"
) -> int:
    """Days in ``start..end`` counting both ends; a bad range names its field."""
    for field, value in ((start_field, start), (end_field, end)):
        if not MIN_YEAR <= value.year <= MAX_YEAR:
            raise CalcInputError(field, f"must be in the years {MIN_YEAR}-{MAX_YEAR}")
    if end < start:
        raise CalcInputError(end_field, f"must not be before {start_field}")
    span = (end - start).days + 1
    if span > MAX_RANGE_DAYS:
        raise CalcInputError(end_field, f"the range is {span} days; at most {MAX_RANGE_DAYS}")
    return span


def _holiday_years(country: str) -> tuple[int, int]:
    entity = holidays_lib.country_holidays(country)
    return int(entity.start_year), int(entity.end_year)


@lru_cache(maxsize=64)
def _public_holidays(
    country: str, year: int, language: Language
) -> tuple[dict[date, str], tuple[str, ...]]:
    """A year's public holidays by date, and the package's warnings (some holiday groups, such
    as those fixed by religious authorities, are tabulated for fewer years than the country)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        probe = holidays_lib.country_holidays(country, years=year)
        supported = probe.supported_languages
        wanted = "th" if language == "th" else "en_US"
        lang = wanted if wanted in supported else ("en_US" if "en_US" in supported else None)
        table = holidays_lib.country_holidays(country, years=year, language=lang)
    notes = tuple(sorted({f"holidays ({country} {year}): {w.message}" for w in caught}))
    return {d: str(name) for d, name in table.items()}, notes


def public_holidays(
    country: str, start: date, end: date, language: Language
) -> tuple[dict[date, str], tuple[str, ...]]:
    """The public holidays of ``start..end`` and the source's coverage notes for those years."""
    out: dict[date, str] = {}
    notes: list[str] = []
    first, last = _holiday_years(country)
    for year in range(start.year, end.year + 1):
        table, year_notes = _public_holidays(country, year, language)
        out.update({d: n for d, n in table.items() if start <= d <= end})
        notes.extend(year_notes)
        if not first <= year <= last:
            notes.append(f"holidays ({country}): public holidays are known for {first}-{last}")
    return out, tuple(notes)


def _dates(start: date, span: int) -> Iterable[date]:
    return (start + timedelta(days=k) for k in range(span))


@lru_cache(maxsize=16)
def _thai_range(start: date, end: date, purpose: str) -> dict[date, AuspiciousDay]:
    found = auspicious_times(start, end, purpose)
    return {d.date: d for d in (*found.auspicious_days, *found.avoided_days)}


@lru_cache(maxsize=64)
def _thai_lent(year: int) -> tuple[date, date] | None:
    by_key = {f.key: f.date for f in thai_festivals(year).festivals}
    if "khao_phansa" in by_key and "ok_phansa" in by_key:
        return by_key["khao_phansa"], by_key["ok_phansa"]
    return None


def in_buddhist_lent(day: date) -> bool:
    """Between Khao Phansa and Ok Phansa (inclusive) of the day's year."""
    lent = _thai_lent(day.year)
    return lent is not None and lent[0] <= day <= lent[1]


def _spirit_name(spirit_zh: str, lang: Language) -> str:
    """The spirit of the day (十二天神) by its glossary name; English keeps the character."""
    spirit = glossary.term("spirit", spirit_zh)
    return spirit.th if lang == "th" else f"{spirit.en}, {spirit_zh}"


def _hhmm(moment: datetime) -> str:
    return moment.strftime("%H:%M")


def _hhmm_end(moment: datetime, day: date) -> str:
    """The end of a window within ``day``: a window clipped at the day's end (the next day's
    00:00 local) reads "24:00", so "14:17-24:00" and never "14:17-00:00" (ISO 8601 allows 24:00
    for the end of a day)."""
    if moment.date() > day and (moment.hour, moment.minute) == (0, 0):
        return "24:00"
    return _hhmm(moment)


class _Context(msgspec.Struct):
    market: str
    zone: ZoneInfo
    traditions: tuple[str, ...]
    language: Language
    holidays: dict[date, str]
    notes: tuple[str, ...]
    festivals: dict[date, list[Fact]]
    sky: SkyRange
    void_ends: list[datetime]  # the end of each void period, in order
    thai: dict[date, AuspiciousDay]


def _context(market: str, start: date, end: date, language: Language, activity: str) -> _Context:
    data = load("markets")["markets"]
    if market not in data:
        raise CalcInputError("market", f"unknown market {market!r}; one of {', '.join(data)}")
    entry = data[market]
    zone = ZoneInfo(entry["timezone"])
    traditions = tuple(entry["traditions"])
    festivals: dict[date, list[Fact]] = {}

    def add(day: date, fact: Fact) -> None:
        festivals.setdefault(day, []).append(fact)

    if "chinese" in traditions:
        for f in lunar_festivals(start, end, "chinese", language):
            add(f.date, Fact("chinese", f.key, f"{f.name} ({f.native_name})", _source("chinese")))
    if "korean" in traditions:
        for f in lunar_festivals(start, end, "korean", language):
            add(f.date, Fact("korean", f.key, f"{f.name} ({f.native_name})", _source("korean")))
    if "hindu" in traditions:
        for h in hindu_festivals(start, end, language):
            add(h.date, Fact("hindu", h.key, h.name, f"{_source('hindu')}; rule: {h.rule}"))
    if "thai" in traditions:
        for year in range(start.year, end.year + 1):
            for t in thai_festivals(year).festivals:
                if start <= t.date <= end:
                    name = t.name_th if language == "th" else t.name_en
                    add(t.date, Fact("thai", t.key, name, _source("thai")))
    offset = datetime(start.year, start.month, start.day, 12, tzinfo=zone).utcoffset()
    # A day's margin each side: the zone's offset may change (daylight saving) within the range.
    day = timedelta(days=1)
    sky = sky_range(start - day, end + day, offset or timedelta(0))
    purpose = load("texts")["activities"][activity]["thai"]
    thai = _thai_range(start, end, purpose) if "thai" in traditions else {}
    return _Context(
        market,
        zone,
        traditions,
        language,
        *public_holidays(market, start, end, language),
        festivals,
        sky,
        [v.end for v in sky.void_periods],
        thai,
    )


def _voids(day: date, ctx: _Context) -> tuple[VoidWindow, ...]:
    """The void-of-course periods touching the market's civil day, clipped to it (local time).
    The periods do not overlap, so their ends are sorted: bisect to the first that ends after
    the day begins."""
    first = datetime(day.year, day.month, day.day, tzinfo=ctx.zone).astimezone(UTC)
    last = datetime.combine(day + timedelta(days=1), datetime.min.time(), ctx.zone).astimezone(UTC)
    periods = ctx.sky.void_periods
    out = []
    i = bisect.bisect_right(ctx.void_ends, first)
    while i < len(periods) and periods[i].start < last:
        v = periods[i]
        out.append(
            VoidWindow(
                max(v.start, first).astimezone(ctx.zone),
                min(v.end, last).astimezone(ctx.zone),
                v.last_aspect_body,
                v.last_aspect_deg,
                v.next_sign,
            )
        )
        i += 1
    return tuple(out)


def _activity_name(activity: str, language: Language) -> str:
    name: str = load("texts")["activities"][activity][language]
    return name


def _evaluate(day: date, ctx: _Context, activity: str) -> MarketDay:
    lang = ctx.language
    facts: list[Fact] = []
    holiday_facts: list[Fact] = []
    if day in ctx.holidays:
        name = ctx.holidays[day]
        source = _holiday_source(ctx.market)
        holiday_facts.append(
            Fact(
                "public_holiday", "public_holiday", _text("public_holiday", lang, name=name), source
            )
        )
        key = "public_holiday_closed" if activity in _CLOSING_ACTIVITIES else "public_holiday"
        facts.append(
            Fact(
                "public_holiday",
                key,
                _text("public_holiday_closed", lang, name=name),
                source,
                "avoid",
                WEIGHTS[key],
            )
        )
    act_name = _activity_name(activity, lang)
    festivals = list(ctx.festivals.get(day, ()))
    chinese: ChineseDay | None = None
    if "chinese" in ctx.traditions or "korean" in ctx.traditions:
        cd = chinese_date(day)
        ts = tong_shu_day(day, lang)
        animals = load("texts")["animals"]
        # Korea's own lunar date (counted at KST) where the market is Korean.
        ko = korean_lunar_date(day) if "korean" in ctx.traditions else None
        chinese = ChineseDay(
            lunar_year=ko.lunar_year if ko else cd.lunar_year,
            lunar_month=ko.month if ko else cd.month,
            lunar_day=ko.day if ko else cd.day,
            is_leap_month=ko.is_leap_month if ko else cd.is_leap_month,
            label=ko.label if ko else cd.label,
            year_ganzhi=cd.year_ganzhi,
            month_ganzhi=ts.month_ganzhi,
            day_ganzhi=ts.day_ganzhi,
            zodiac_animal=animals[cd.zodiac_animal][lang],
            officer=ts.officer.zh,
            officer_name=ts.officer.name,
            clash_animal=animals[ts.clash.animal][lang],
            clash_branch=ts.clash.branch,
            evil_direction=ts.clash.evil_direction,
            spirit=ts.spirit,
            yellow_road=ts.yellow_road,
            suitable=tuple(a.name for a in ts.suitable),
            avoid=tuple(a.name for a in ts.avoid),
            suitable_zh=tuple(a.zh for a in ts.suitable),
            avoid_zh=tuple(a.zh for a in ts.avoid),
        )
        if "chinese" in ctx.traditions:
            src = _source("chinese")
            target = load("texts")["activities"][activity]["tongshu"]
            # Thai text names the officer in Thai only (no Chinese character in a Thai sentence).
            officer = ts.officer.name if lang == "th" else f"{ts.officer.zh} ({ts.officer.name})"
            if any(a.key == "major_affairs" for a in ts.avoid):
                facts.append(
                    Fact("chinese", "nothing_suitable", _text("nothing_suitable", lang), src,
                         "avoid", WEIGHTS["nothing_suitable"])
                )  # fmt: skip
            elif any(a.key == target for a in ts.suitable):
                facts.append(
                    Fact("chinese", "officer_suits",
                         _text("officer_suits", lang, officer=officer, activity=act_name), src,
                         "favour", WEIGHTS["officer_suits"])
                )  # fmt: skip
            elif any(a.key == target for a in ts.avoid):
                facts.append(
                    Fact("chinese", "officer_avoids",
                         _text("officer_avoids", lang, officer=officer, activity=act_name), src,
                         "avoid", WEIGHTS["officer_avoids"])
                )  # fmt: skip
            if ts.yellow_road:
                facts.append(
                    Fact("chinese", "yellow_road",
                         _text("yellow_road", lang, spirit=_spirit_name(ts.spirit, lang)),
                         src, "favour", WEIGHTS["yellow_road"])
                )  # fmt: skip
            facts.append(
                Fact("chinese", "clash", _text("clash", lang, animal=chinese.clash_animal,
                     direction=ts.clash.evil_direction), src)
            )  # fmt: skip
            if cd.month == 7 and not cd.is_leap_month:
                facts.append(
                    Fact("chinese", "ghost_month",
                         load("festivals")["periods"]["ghost_month"][lang], src, "avoid",
                         WEIGHTS["ghost_month"])
                )  # fmt: skip
        if ko is not None and activity == "moving" and ko.day % 10 in (9, 0):
            facts.append(
                Fact("korean", "son_free", _text("son_free", lang, day=ko.day), _source("korean"),
                     "favour", WEIGHTS["son_free"])
            )  # fmt: skip
    thai: ThaiDay | None = None
    if "thai" in ctx.traditions:
        src = _source("thai")
        lunar = thai_lunar_date(day)
        verdict = ctx.thai[day]
        planet = taksa_data()["day_planet"][lunar.weekday]
        colour = thai_text("colour", planet)
        lent = in_buddhist_lent(day)
        phase_th = "ขึ้น" if lunar.phase == "waxing" else "แรม"
        label = (
            f"{phase_th} {lunar.kham} ค่ำ เดือน {lunar.lunar_month}"
            f"{' (8 หลัง)' if lunar.second_month_8 else ''} พ.ศ. {lunar.buddhist_era}"
        )
        thai = ThaiDay(
            lunar_year=lunar.lunar_year,
            lunar_month=lunar.lunar_month,
            second_month_8=lunar.second_month_8,
            phase=lunar.phase,
            kham=lunar.kham,
            wan_phra=lunar.wan_phra,
            buddhist_era=lunar.buddhist_era,
            label=label,
            colour=colour.th if lang == "th" else colour.en,
            auspicious_for_business=verdict.auspicious,
            buddhist_lent=lent,
        )
        if lunar.wan_phra:
            festivals.append(Fact("thai", "wan_phra", _text("wan_phra", lang), src))
        if verdict.auspicious:
            facts.append(
                Fact("thai", "thai_auspicious", _text("thai_auspicious", lang, activity=act_name),
                     src, "favour", WEIGHTS["thai_auspicious"])
            )  # fmt: skip
        else:
            # At most three Thai rules count against a day (-3).
            avoids = [r for r in verdict.reasons if r.effect == "avoid"][:3]
            for r in avoids:
                reason = r.th if lang == "th" else r.en
                facts.append(
                    Fact("thai", r.key, _text("thai_avoid", lang, reason=reason), src, "avoid",
                         WEIGHTS["thai_avoid"])
                )  # fmt: skip
        if lent:
            weight = WEIGHTS["buddhist_lent"] if activity in _LENT_ACTIVITIES else 0
            facts.append(
                Fact("thai", "buddhist_lent", load("festivals")["periods"]["buddhist_lent"][lang],
                     src, "avoid" if weight else "info", weight)
            )  # fmt: skip
        facts.append(
            Fact("thai", "colour_of_day", _text("colour_of_day", lang, colour=thai.colour), src)
        )
    hindu: HinduDayInfo | None = None
    if "hindu" in ctx.traditions:
        src = _source("hindu")
        h = hindu_day(day, lang)
        ist = ZoneInfo("Asia/Kolkata")
        hindu = HinduDayInfo(
            h.tithi,
            h.tithi_name,
            h.paksha,
            h.month,
            h.adhika,
            h.tithi_quality_text,
            h.rahu_kalam_start,
            h.rahu_kalam_end,
        )
        key = "tithi_good" if h.tithi_quality == "good" else "tithi_bad"
        facts.append(
            Fact("hindu", key, _text(key, lang, tithi=h.tithi_name, quality=h.tithi_quality_text),
                 src, "favour" if key == "tithi_good" else "avoid", WEIGHTS[key])
        )  # fmt: skip
        facts.append(
            Fact("hindu", "rahu_kalam", _text("rahu_kalam", lang,
                 start=_hhmm(h.rahu_kalam_start.astimezone(ist)),
                 end=_hhmm(h.rahu_kalam_end.astimezone(ist))), src)
        )  # fmt: skip
    src = _source("western")
    retro = day in ctx.sky.mercury_retrograde_days
    voids = _voids(day, ctx)
    if retro:
        weight = WEIGHTS["mercury_retrograde"] if activity in _MERCURY_ACTIVITIES else -1
        facts.append(
            Fact("western", "mercury_retrograde", _text("mercury_retrograde", lang), src,
                 "avoid", weight)
        )  # fmt: skip
    for v in voids:
        opens = datetime(day.year, day.month, day.day, 9, tzinfo=ctx.zone)
        closes = datetime(day.year, day.month, day.day, 17, tzinfo=ctx.zone)
        if v.start < closes and v.end > opens:
            facts.append(
                Fact("western", "void_business_hours", _text("void_business_hours", lang,
                     start=_hhmm(v.start), end=_hhmm_end(v.end, day)), src, "avoid",
                     WEIGHTS["void_business_hours"])
            )  # fmt: skip
            break
    weekday = load("texts")["weekdays"][lang][day.weekday()]
    score = sum(f.weight for f in facts)
    rating: Rating = "good" if score >= 2 else "bad" if score <= -2 else "neutral"
    return MarketDay(
        date=day,
        weekday=weekday,
        public_holidays=tuple(holiday_facts),
        festivals=tuple(festivals),
        chinese=chinese,
        thai=thai,
        hindu=hindu,
        western=WesternDay(retro, voids),
        rating=rating,
        score=score,
        facts=tuple(facts),
    )


def market_days(
    market: str, start: date, end: date, language: Language, activity: str
) -> tuple[MarketDay, ...]:
    """Each day of ``start..end`` in a market, rated for ``activity``."""
    if activity not in ACTIVITIES:
        raise CalcInputError(
            "activity", f"unknown activity {activity!r}; one of {', '.join(ACTIVITIES)}"
        )
    span = check_range(start, end)
    ctx = _context(market, start, end, language, activity)
    return tuple(_evaluate(day, ctx, activity) for day in _dates(start, span))


def market_calendar(
    market: str, start: date, end: date, language: Language = "en"
) -> MarketCalendar:
    """The market's calendar of ``start..end`` (at most 366 days), each day rated for business
    (opening a store: the activity whose rules every tradition has)."""
    if language not in ("en", "th"):
        raise CalcInputError("language", "must be 'en' or 'th'")
    days = market_days(market, start, end, language, CALENDAR_ACTIVITY)
    entry = load("markets")["markets"][market]
    notes = public_holidays(market, start, end, language)[1]
    return MarketCalendar(
        market=market,
        market_name=entry[language],
        timezone=entry["timezone"],
        language=language,
        start=start,
        end=end,
        traditions=("public_holiday", *entry["traditions"]),
        notes=notes,
        days=days,
    )


__all__ = [
    "ACTIVITIES",
    "MAX_RANGE_DAYS",
    "WEIGHTS",
    "ChineseDay",
    "Fact",
    "HinduDayInfo",
    "MarketCalendar",
    "MarketDay",
    "MarketInfo",
    "ThaiDay",
    "VoidPeriod",
    "VoidWindow",
    "WesternDay",
    "check_range",
    "market_calendar",
    "market_codes",
    "market_days",
    "markets",
    "public_holidays",
]
