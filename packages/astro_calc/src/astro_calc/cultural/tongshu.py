"""The Chinese almanac (通书, Tong Shu) of a civil day: day officer, clash, spirit, suitable and
avoid activities.

Conventions
-----------
* The day's ganzhi is the continuous sexagenary day count (:func:`day_cycle_index`), the civil
  day in China (UTC+8; Beijing mean time before 1929, as :mod:`astro_calc.chinese.calendar`).
* The month is the *solar* month: it opens on the civil day (China) of its jie (节). The day on
  which a jie falls already belongs to the new month, as printed almanacs have it (lunar-python's
  default ``sect=1``). Month 寅 opens at 立春.
* Day officer (建除十二值星): 建 falls on the day whose branch equals the month's branch; the
  officers then follow the days in order 建 除 满 平 定 执 破 危 成 收 开 闭 (so 破 is the day
  that clashes with the month, 月破).
* Clash (冲): the branch opposite the day's (six apart), its zodiac animal, and the clashing stem
  (four stems on: 甲 clashes 戊, as almanacs print it); the evil direction (煞) by the day
  branch's triad: 申子辰 south, 亥卯未 west, 寅午戌 north, 巳酉丑 east.
* Suitable/avoid (宜/忌): from the spirits of the day (神煞), after Xie Ji Bian Fang Shu
  (协纪辨方书, 1739). Each spirit (``data/cultural/tongshu_spirits.json``) is found from the
  solar month's branch and the day's stem, branch or ganzhi (四离/四绝: the eve of an
  equinox or solstice / of a season's start), and carries the activities it favours
  (吉神) or forbids (凶煞). The evaluator (:func:`suitable_and_avoid`) applies the book's
  precedence (offerings, 祭祀, are suitable on any day with a good spirit unless
  forbidden): on a day of 月破, 四废, 四离 or 四绝 the almanac prints "no major
  undertakings" (大事勿用) with the major ones as avoid, and only the spirit's exceptions as
  suitable; otherwise the suitable activities are the
  good spirits' and the day officer's (the popular verses on the twelve officers) minus
  any a bad spirit or the officer forbids, unless a lifting virtue (天德, 月德,
  天德合, 月德合, 天赦, 天愿) is present and the forbidding spirit is not a hard one; the
  avoid line names the forbidden major undertakings (the data's ``printed_avoid``). Left
  out: the wedding-only 不将 days, the 土王用事 extension of 母仓, and the book's finer
  grading of mixed days, so the lists are close to, not identical with, a printed almanac.
* Spirit of the day (十二天神) and the yellow/black road (黄道/黑道): 青龙 on branch 子 in the 寅
  and 申 months, two branches later each following month.

The officer, clash, evil direction and spirit are checked against lunar-python for every day of
several years (exact agreement); the spirits' positions against its spirit lists; the 宜/忌 lists
against its almanac lists, with the measured agreement stated in the tests.
"""

from __future__ import annotations

import bisect
from datetime import date
from functools import lru_cache
from typing import Any, Final, Literal

import msgspec

from astro_calc.chinese.calendar import reference_offset_minutes
from astro_calc.chinese.solar_terms import civil_date, solar_terms
from astro_calc.chinese.symbols import BRANCHES, STEMS, day_cycle_index, ganzhi
from astro_calc.cultural._data import load

Language = Literal["en", "th"]
#: Solar terms (0 = 小寒) whose eve is a 四离 (equinox, solstice) or a 四绝 (a season's start).
_SI_LI: Final = (5, 11, 17, 23)  # 春分 夏至 秋分 冬至
_SI_JUE: Final = (2, 8, 14, 20)  # 立春 立夏 立秋 立冬


class Activity(msgspec.Struct, frozen=True):
    key: str
    zh: str
    name: str  # in the requested language


class DayOfficer(msgspec.Struct, frozen=True):
    index: int  # 0 = 建 .. 11 = 闭
    zh: str
    pinyin: str
    name: str
    quality: Literal["good", "mixed", "bad"]


class Clash(msgspec.Struct, frozen=True):
    branch: str
    stem: str
    animal: str  # English key of the animal (rat, ox, ...)
    evil_direction: str  # 煞 direction, in the requested language
    evil_direction_zh: str


class TongShuDay(msgspec.Struct, frozen=True):
    date: date
    day_ganzhi: str
    month_ganzhi: str  # of the solar month
    officer: DayOfficer
    clash: Clash
    spirit: str  # 十二天神
    yellow_road: bool  # 黄道 day
    si_li_jue: bool  # eve of an equinox/solstice or of a season's start: no major undertakings
    suitable: tuple[Activity, ...]
    avoid: tuple[Activity, ...]


@lru_cache(maxsize=32)
def _jie_days(year: int) -> tuple[tuple[date, ...], tuple[int, ...]]:
    """Civil days (China) of the jie of ``year - 1 .. year`` and the branch each month opens."""
    days: list[date] = []
    branches: list[int] = []
    for y in (year - 1, year):
        for term in solar_terms(y):
            if term.is_jie:
                days.append(civil_date(term.jd_ut, reference_offset_minutes(term.jd_ut)))
                # 小寒 (index 0) opens month 丑 (1); each jie two indices later opens the next.
                branches.append((1 + term.index // 2) % 12)
    return tuple(days), tuple(branches)


@lru_cache(maxsize=32)
def _eve_days(year: int) -> dict[date, str]:
    """Eves of the equinoxes and solstices (四离) and of the seasons' starts (四绝)."""
    out: dict[date, str] = {}
    for y in (year, year + 1):
        for term in solar_terms(y):
            if term.index in _SI_LI or term.index in _SI_JUE:
                day = civil_date(term.jd_ut, reference_offset_minutes(term.jd_ut))
                out[date.fromordinal(day.toordinal() - 1)] = (
                    "四离" if term.index in _SI_LI else "四绝"
                )
    return out


def month_branch(day: date) -> int:
    """Branch index (0 = 子) of the solar month holding a civil day."""
    days, branches = _jie_days(day.year)
    i = bisect.bisect_right(days, day) - 1
    return branches[i]


def month_cycle_index(day: date) -> int:
    """Sexagenary index of the solar month holding a civil day (stem from the Lichun year)."""
    branch = month_branch(day)
    days, _ = _jie_days(day.year)
    lichun = days[13]  # this year's 立春: the 2nd jie of ``day.year`` (after 12 of the last)
    year = day.year if day >= lichun else day.year - 1
    # 甲/己 years open with 丙寅: the first month's stem is 2 * (year stem % 5) + 2.
    first_stem = (2 * ((year - 4) % 10 % 5) + 2) % 10
    stem = (first_stem + (branch - 2) % 12) % 10
    return (6 * stem - 5 * branch) % 60


@lru_cache(maxsize=512)
def _activity(key: str, language: Language) -> Activity:
    entry = load("tongshu")["activities"][key]
    return Activity(key, entry["zh"], entry[language])


@lru_cache(maxsize=1)
def _key_of_term() -> dict[str, str]:
    """Activity key of each almanac term (zh) of the data file."""
    return {entry["zh"]: key for key, entry in load("tongshu")["activities"].items()}


def _expand(terms: list[str]) -> list[str]:
    groups = load("tongshu_spirits")["groups"]
    out: list[str] = []
    for term in terms:
        out.extend(groups[term[1:]] if term.startswith("@") else [term])
    return out


@lru_cache(maxsize=512)
def _cycles(token: str) -> frozenset[int]:
    """Sexagenary indices a token names: a ganzhi (two characters), or every day of a stem or a
    branch (one character). Cached per token: the spirit table names the same few often."""
    names = _GANZHI_NAMES
    return frozenset(
        i for i in range(60) if token == names[i] or (len(token) == 1 and token in names[i])
    )


#: The sixty ganzhi by sexagenary index.
_GANZHI_NAMES: Final = tuple(ganzhi(i) for i in range(60))


@lru_cache(maxsize=1)
def _spirit_table() -> tuple[tuple[str, tuple[frozenset[int], ...] | None, str | None], ...]:
    """Each spirit with, per solar month (0 = 寅), the sexagenary days it falls on (``None`` for
    the eve spirits, which carry the eve they mark)."""
    out: list[tuple[str, tuple[frozenset[int], ...] | None, str | None]] = []
    for name, spirit in load("tongshu_spirits")["spirits"].items():
        find: dict[str, Any] = spirit["find"]
        if "eve_of_terms" in find:
            out.append((name, None, find["eve_of_terms"]))
            continue
        if "months" in find:
            per_month = [entry.split(",") for entry in find["months"]]
        elif "every_month" in find:
            per_month = [find["every_month"].split(",")] * 12
        else:
            per_month = [find["days"]] * 12
        months = tuple(frozenset().union(*(_cycles(t) for t in tokens)) for tokens in per_month)
        out.append((name, months, None))
    return tuple(out)


def day_spirits(day: date) -> tuple[str, ...]:
    """The spirits (神煞) of a civil day that the almanac's 宜/忌 rules use, in data-file order."""
    return _spirits(
        (month_branch(day) - 2) % 12, day_cycle_index(day), _eve_days(day.year).get(day)
    )


@lru_cache(maxsize=2048)
def _spirits(month_index: int, cycle: int, eve: str | None) -> tuple[str, ...]:
    """Spirits of a day by its solar month (0 = 寅), sexagenary index and eve (四离/四绝)."""
    return tuple(
        name
        for name, months, marks in _spirit_table()
        if (cycle in months[month_index] if months is not None else marks == eve)
    )


def suitable_and_avoid(day: date, officer_zh: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Almanac terms suitable and to avoid on a day (precedence in the module docstring)."""
    return _suitable_and_avoid(day_spirits(day), officer_zh)


@lru_cache(maxsize=2048)
def _suitable_and_avoid(
    spirit_names: tuple[str, ...], officer_zh: str
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    data = load("tongshu_spirits")
    entries = [data["spirits"][n] for n in spirit_names]
    good = [e for e in entries if e["kind"] == "good"]
    bad = [e for e in entries if e["kind"] == "bad"]
    if any(e.get("major_affairs_unsuitable") for e in bad):
        exceptions = {t for e in bad for t in _expand(e.get("yi", []))}
        return tuple(sorted(exceptions, key=_order)), ("大事勿用", *data["printed_avoid"])
    suitable = {t for e in good for t in _expand(e["yi"])}
    if good:
        suitable |= set(_expand(data["default_suitable"]))
    forbidden = {t for e in bad for t in _expand(e["ji"])}
    officer = data["officers"].get(officer_zh, {})
    suitable |= set(_expand(officer.get("yi", [])))
    forbidden |= set(_expand(officer.get("ji", [])))
    hard = {t for e in bad if e.get("hard") for t in _expand(e["ji"])}
    if any(e.get("lifts") for e in good):
        forbidden -= suitable - hard
    suitable -= forbidden
    printed = tuple(t for t in data["printed_avoid"] if t in forbidden)
    return tuple(sorted(suitable, key=_order)), printed


def _order(term: str) -> int:
    """Terms in the data file's activity order (a stable, almanac-like order)."""
    return _rank()[term]


@lru_cache(maxsize=1)
def _rank() -> dict[str, int]:
    return {term: i for i, term in enumerate(_key_of_term())}


def tong_shu_day(day: date, language: Language = "en") -> TongShuDay:
    """The almanac of a civil day in China (conventions in the module docstring)."""
    data = load("tongshu")
    index = day_cycle_index(day)
    day_stem, day_branch = index % 10, index % 12
    m_branch = month_branch(day)
    officer_index = (day_branch - m_branch) % 12
    entry = data["officers"][officer_index]
    officer = DayOfficer(
        officer_index, entry["zh"], entry["pinyin"], entry[language], entry["quality"]
    )
    clash_branch = (day_branch + 6) % 12
    triad = day_branch % 4  # 申子辰 0 south, 巳酉丑 1 east, 寅午戌 2 north, 亥卯未 3 west
    direction = data["sha_direction"]
    clash = Clash(
        BRANCHES[clash_branch].character,
        STEMS[(day_stem + 4) % 10].character,
        BRANCHES[clash_branch].animal,
        direction[language][triad],
        direction["zh"][triad],
    )
    spirits = data["spirits"]
    spirit_index = (day_branch - 2 * ((m_branch - 2) % 6)) % 12
    eve = day in _eve_days(day.year)
    yi, ji = suitable_and_avoid(day, entry["zh"])
    keys = _key_of_term()
    suitable = tuple(_activity(keys[t], language) for t in yi)
    avoid = tuple(_activity(keys[t], language) for t in ji)
    return TongShuDay(
        date=day,
        day_ganzhi=ganzhi(index),
        month_ganzhi=ganzhi(month_cycle_index(day)),
        officer=officer,
        clash=clash,
        spirit=spirits["names"][spirit_index],
        yellow_road=spirits["yellow"][spirit_index],
        si_li_jue=eve,
        suitable=suitable,
        avoid=avoid,
    )
