"""The twenty-four solar terms (节气): instants when the Sun's apparent geocentric longitude
reaches a multiple of 15 degrees.

Term ``i`` (0..23) of a Gregorian year is at longitude ``(285 + 15 i) mod 360``: 0 is 小寒 (Minor
Cold, 285 deg, early January) and 23 is 冬至 (Winter Solstice, 270 deg). Even ``i`` are the twelve
*jie* (节) that open the BaZi months; odd ``i`` are the twelve major terms (中气) of the lunisolar
calendar. Instants are found by root finding on the apparent longitude to 0.1 s
(:func:`astro_calc.search.refine_root`) and cached per Gregorian year.

Checked against the Korea Astronomy and Space Science Institute's published term times 2000-2027
(KST, to the minute), the Hong Kong Observatory table quoted in the tests, and lunar-python.
"""

from __future__ import annotations

import bisect
import threading
from datetime import UTC, date, datetime, timedelta
from typing import Final

import msgspec

from astro_calc.chinese.symbols import SOLAR_TERM_NAMES
from astro_calc.ephemeris import angle_diff, body_position, datetime_from_jd
from astro_calc.errors import CalcInputError
from astro_calc.search import refine_root

#: Supported range of Gregorian years (the Moshier ephemeris is good far beyond it).
MIN_YEAR: Final = 1800
MAX_YEAR: Final = 2200

_J2000: Final = datetime(2000, 1, 1, 12, tzinfo=UTC)
_TROPICAL_YEAR_DAYS: Final = 365.24219


class SolarTerm(msgspec.Struct, frozen=True):
    index: int  # 0 = 小寒 ... 23 = 冬至, in order within the Gregorian year
    key: str
    character: str
    pinyin: str
    hanja: str
    hangul: str
    english: str
    longitude_deg: int
    is_jie: bool  # a month-opening term (节) rather than a major term (中气)
    jd_ut: float
    utc: datetime


def term_longitude(index: int) -> int:
    return (285 + 15 * index) % 360


def _check_year(year: int, field: str = "year") -> None:
    if not MIN_YEAR <= year <= MAX_YEAR:
        raise CalcInputError(field, f"must be between {MIN_YEAR} and {MAX_YEAR}")


def _term_jd(year: int, index: int) -> float:
    target = float(term_longitude(index))

    def f(jd: float) -> float:
        return angle_diff(body_position(jd, "sun").longitude, target)

    # Mean place of the term; the true instant is within about two days of it.
    jan1 = datetime(year, 1, 1, tzinfo=UTC)
    estimate = 2451545.0 + (jan1 - _J2000).total_seconds() / 86400.0
    estimate += 4.8 + index * _TROPICAL_YEAR_DAYS / 24.0
    lo, hi = estimate - 4.0, estimate + 4.0
    f_lo = f(lo)
    while f_lo > 0:
        lo -= 4.0
        f_lo = f(lo)
    f_hi = f(hi)
    while f_hi < 0:
        hi += 4.0
        f_hi = f(hi)
    return refine_root(f, lo, hi, tolerance_s=0.1, known=(f_lo, f_hi))


def _to_second(moment: datetime) -> datetime:
    return (moment + timedelta(microseconds=500_000)).replace(microsecond=0)


_CACHE: dict[int, tuple[SolarTerm, ...]] = {}
_CACHE_LOCK: Final = threading.Lock()


def solar_terms(year: int) -> tuple[SolarTerm, ...]:
    """The 24 solar terms of a Gregorian year in time order (小寒 first), cached per year."""
    _check_year(year)
    return _terms_of(year)


def _terms_of(year: int) -> tuple[SolarTerm, ...]:
    """:func:`solar_terms` without the range check: the neighbouring years a calculation at
    the edge of the range looks into (a birth on 1 January 1801 at UTC+8 is still 1800 in UT,
    and its month needs the jie of 1799)."""
    cached = _CACHE.get(year)
    if cached is not None:
        return cached
    terms = []
    for i in range(24):
        jd = _term_jd(year, i)
        n = SOLAR_TERM_NAMES[i]
        terms.append(
            SolarTerm(
                i,
                n.key,
                n.character,
                n.pinyin,
                n.hanja,
                n.hangul,
                n.english,
                term_longitude(i),
                i % 2 == 0,
                jd,
                _to_second(datetime_from_jd(jd)),
            )
        )
    result = tuple(terms)
    with _CACHE_LOCK:
        _CACHE[year] = result
    return result


_JIE_CACHE: dict[int, tuple[list[float], list[SolarTerm]]] = {}


def _jie_around(year: int) -> tuple[list[float], list[SolarTerm]]:
    """The jie of ``year - 1``, ``year`` and ``year + 1`` in order, with their Julian days."""
    cached = _JIE_CACHE.get(year)
    if cached is None:
        terms = [t for y in (year - 1, year, year + 1) for t in _terms_of(y) if t.is_jie]
        cached = ([t.jd_ut for t in terms], terms)
        _JIE_CACHE[year] = cached
    return cached


def jie_bracket(jd_ut: float, year: int) -> tuple[SolarTerm, SolarTerm]:
    """The jie at or before ``jd_ut`` and the jie after it (``year`` is the UT year of jd_ut)."""
    jds, terms = _jie_around(year)
    i = bisect.bisect_right(jds, jd_ut)
    return terms[i - 1], terms[i]


def term_at(jd_ut: float, year: int) -> tuple[SolarTerm, SolarTerm]:
    """The solar term in force at ``jd_ut`` (the last one reached) and the next one."""
    terms = [*_terms_of(year - 1)[-2:], *_terms_of(year), *_terms_of(year + 1)[:2]]
    jds = [t.jd_ut for t in terms]
    i = bisect.bisect_right(jds, jd_ut)
    return terms[i - 1], terms[i]


def civil_date(jd_ut: float, offset_minutes: float) -> date:
    """Civil date of an instant at a fixed offset east of UTC."""
    return (datetime_from_jd(jd_ut) + timedelta(minutes=offset_minutes)).date()
