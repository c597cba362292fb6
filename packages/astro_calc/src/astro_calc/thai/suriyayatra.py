"""Suriyayatra year elements and the Thai lunisolar year type, from the published almanac table
(the default) or the Suriyayatra rule.

Which source decides a year's type (``year_type_source``)
--------------------------------------------------------
* ``"almanac"`` (the default): for 1914-2157 the published table of year types, the Thai lunar
  calendar of B.E. 2300-2700 compiled by myhora.com, which Thai astrologers consult (as
  transcribed by the ``holidays`` package for 1914-2157; kept in ``data/thai/
  almanac_year_types.json`` with its source). Outside 1914-2157 the rule below decides, with one
  join: the table's 1914 holds the extra day that the rule gives to 1911 (``ALMANAC_JOIN``), so
  1911 is pakatimat under the almanac. The table's calendar meets the rule's at Eade's anchor
  year 1963 and again at lunar year 2158, so the two sources give the same lunar date to every
  day before the end of month 7 of lunar year 1911 (June 1911) and from lunar year 2158 on.
* ``"rule"``: the Suriyayatra rule with the recorded official exceptions, below. It disagrees
  with the table in 82 of its 244 years (Makha and Visakha Bucha a day, sometimes a month, off
  in 76 of them; the list with the reasons is in ``tests/thai_published_table.py``); where a
  dated record decides a year before 1991 it has sided with the table, which is why the table is
  the default for the years it covers.

:func:`year_type_decided_by` names the source that decided a year under a requested source.

Conventions
-----------
* Chulasakarat (CS) year ``y`` begins on the day of Thaloeng Sok; CS 0 began on JD 1954168
  (22 March 638, Julian calendar). The Gregorian year whose June-July holds the year's month 7
  and month 8 is ``y + 638``.
* Elements at Thaloeng Sok, after J.C. Eade, *The Calendrical Systems of Mainland South-East Asia*
  (1995) and *Rules for Interpolation in the Thai Calendar* (1989):
  ``horakhun = (292207 y + 373) // 800 + 1`` (days elapsed in the era),
  ``kammacapon = 800 - (292207 y + 373) % 800``, ``avoman = (11 horakhun + 650) % 692``,
  ``tithi = (horakhun + (11 horakhun + 650) // 692) % 30`` (the Moon's age in lunar days).
* Athikamat (doubled month 8): the year's tithi is 24..29 or 0..5, unless the next year also
  qualifies (then the next year takes it).
* Athikawan (30-day month 7): a solar leap year (kammacapon <= 207) with avoman <= 126, or another
  year with avoman < 137; an athikamat year cannot also be athikawan, so its extra day is carried
  to the following year.
* Official exceptions (``OFFICIAL_ATHIKAWAN_EXCEPTIONS``): twice in the span whose holidays are
  documented day by day (the Bank of Thailand holiday lists, 1991 onwards) the official calendar
  placed the extra day later than the rule: the day of 1994 went to 1997 and the day of 2005 to
  2006. Before 1991, records that give a civil date with its lunar date (royal birth records,
  the preambles of the 1932 and 1949 constitutions in the Royal Gazette) show four more: 1927 ->
  1929, 1932 -> 1933, 1948 -> 1949 and 1954 -> 1952. These are recorded decisions of the
  calendar makers, not a rule, so they are listed, each with its source.

Which rule reproduces the published B.E. 2300-2700 table?
---------------------------------------------------------
The ``holidays`` package carries a published table of year types (1914-2157). With the rules
above and the six documented exceptions it agrees in 162 of its 244 years, among them every year
1991-2029 (the span its authors checked against the Bank of Thailand) and 2033-2041; where a
record decides a year before 1991 it has so far always sided with the table. We tested
the alternatives found in the literature against the whole table, and none reproduces it:

* Accumulated lunation deficit (insert the extra day when the calendar falls behind the mean
  Suriyayatra lunation, 703 tithis in 692 days), with a fixed threshold or keeping the new-year
  lunar day within a day of the tithi, lazily or eagerly: at best 30 disagreements before 2042. No
  threshold can work: 1936 (table: athikawan) and 1968 (table: not) share the same pattern of
  neighbouring year types (athikamat two years before and one year after), yet at month 8 the
  calendar of 1968 lags the mean Moon more than that of 1936 does (by 0.11 tithi) and the true
  Moon too (by 0.7 day, Swiss Ephemeris). Any rule driven by the lag gives 1968 the day first.
* The weekday-sequence method of Faraut, as implemented in ``pythaidate``: 94 disagreements.
* The Khmer almanac's statement of the Suriyayatra rules (avoman <= 126 or <= 137 unless 137 is
  followed by 0; tithi 25..5 with the 24/6 and 25/5 cases; a shared year carries the day on):
  worded differently, but the same year type as ours in every year 1800-2400 (tested), so the
  same 150 agreements before the official exceptions. Other avoman thresholds are fits, not
  rules: the best pair that keeps 1991-2029 with the official exceptions (solar-leap years <= 6,
  others < 126) gains four years before 1991 and is not a documented rule, so it is not adopted.
* The 19-year cycle (athikamat in years 3, 6, 9, 11, 14, 17, 19 of the cycle, gaps 3-3-3-2-3-3-2):
  the table has five athikamat years three years apart in a row (1944, 1947, 1950, 1953, 1956),
  which that arrangement never has; the approximate formula quoted with the table,
  ``((CE - 78) - 0.45222) % 2.7118886 < 1``, differs from the table's athikamat years in 52
  years (1944/1945, 1993/1994 and 2012/2013 among them).
* From 2042 the table is not the output of any solar-anchored rule: it has no athikamat in
  2108-2111 and then three in five years (2112, 2114, 2116), and its Visakha Bucha full moons
  wander over 49 degrees of solar longitude (6-55 deg sidereal) where every intercalation rule
  keeps them within one lunation (30 deg; 21-51 deg in the table's own years 1914-2041).

So the table before 1991 and after 2041 is a compilation (historical almanac decisions and a
projection) rather than a computation we can repeat: it is used as published (``"almanac"``), and
the Suriyayatra rules, which follow the official calendar where it is documented, are kept as
``"rule"`` and decide every year outside the table.
"""

from __future__ import annotations

import json
from datetime import date
from functools import lru_cache
from importlib import resources
from typing import Final, Literal, get_args

import msgspec

from astro_calc.errors import CalcInputError

YearType = Literal["pakatimat", "athikawan", "athikamat"]
YearTypeSource = Literal["almanac", "rule"]
YEAR_TYPE_SOURCES: Final[tuple[str, ...]] = get_args(YearTypeSource)
DEFAULT_YEAR_TYPE_SOURCE: Final = "almanac"

CS_EPOCH_JDN: Final = 1954167  # JD number of the day before horakhun 1
CS_TO_CE: Final = 638

#: Years in which the official calendar departed from the rule (Gregorian year -> athikawan?),
#: each pair decided by a dated record that gives a civil date with its Thai lunar date inside the
#: span where the two placements differ (the calendar agrees with the rule on both sides of it).
OFFICIAL_ATHIKAWAN_EXCEPTIONS: Final[dict[int, bool]] = {
    # 1927 -> 1929. King Bhumibol's birth, Monday 5 December 1927 = waxing 12 of month 1 (the
    # rule gives waxing 11): the birth record in the Royal Gazette chronicle edition of 1950, "ณ
    # วันที่ ๒ ๑๒ฯ ๑ ค่ำ ปีเถาะ นพศก จุลศักราช ๑๒๘๙", quoted at
    # https://variety.teenee.com/foodforbrain/76580.html (also https://www.thaihealth.or.th/
    # Content/21673, "วันจันทร์ เดือนอ้าย ขึ้น ๑๒ ค่ำ ปีเถาะ").
    1927: False,
    1929: True,
    # 1932 -> 1933. The preamble of the Constitution of 10 December 1932 (Royal Gazette vol. 49,
    # p. 529), Saturday = waxing 13 of month 1 (rule: waxing 12); English translation at
    # https://en.wikisource.org/wiki/Page:Constitution_of_the_Kingdom_of_Siam.djvu/1
    1932: False,
    1933: True,
    # 1948 -> 1949. The preamble of the Constitution of 23 March 1949 (Royal Gazette vol. 66,
    # issue 17, special edition p. 2), Wednesday = waning 10 of month 4 (rule: waning 9); at
    # https://en.wikisource.org/wiki/Page:รัฐธรรมนูญ_๒๔๙๒.pdf/2
    1948: False,
    1949: True,
    # 1954 -> 1952. King Vajiralongkorn's birth, Monday 28 July 1952 = waxing 6 of month 9 of an
    # athikawan year, "ขึ้น ๖ ค่ำ เดือน ๙ ปีมะโรง จัตวาศก อธิกวาร จุลศักราช ๑๓๑๔" (rule: waxing 7,
    # a common year): http://research.pit.ac.th/lib/?p=360, http://www.tnews.co.th/contents/341707
    1952: True,
    1954: False,
    # 1994 -> 1997 and 2005 -> 2006: the official holiday dates of those years (Bank of Thailand
    # holiday lists, e.g. Makha Bucha on 12 February 2006 with its substitute day on the 13th).
    1994: False,
    1997: True,
    2005: False,
    2006: True,
}

#: Under the almanac source, outside the table: the table's 1914 takes the extra day the rule gives
#: to 1911 (the table begins between the two), so 1911 has none and the almanac calendar joins the
#: rule's before 1912 (the rule's 1911-1913 are athikawan, athikamat, pakatimat).
ALMANAC_JOIN: Final[dict[int, YearType]] = {1911: "pakatimat"}

YEAR_LENGTH_DAYS: Final[dict[str, int]] = {"pakatimat": 354, "athikawan": 355, "athikamat": 384}


class SuriyayatraYear(msgspec.Struct, frozen=True):
    """The Suriyayatra elements of one Chulasakarat year at Thaloeng Sok."""

    cs_year: int
    horakhun: int
    kammacapon: int
    avoman: int
    tithi: int
    year_type: YearType
    thaloeng_sok_jdn: int  # Julian day number of the Thaloeng Sok day (civil day)


def _elements(cs_year: int) -> tuple[int, int, int, int]:
    total = 292207 * cs_year + 373
    horakhun = total // 800 + 1
    kammacapon = 800 - total % 800
    quotient, avoman = divmod(11 * horakhun + 650, 692)
    tithi = (horakhun + quotient) % 30
    return horakhun, kammacapon, avoman, tithi


def _would_be_athikamat(cs_year: int) -> bool:
    tithi = _elements(cs_year)[3]
    return tithi >= 24 or tithi <= 5


def _is_athikamat(cs_year: int) -> bool:
    return _would_be_athikamat(cs_year) and not _would_be_athikamat(cs_year + 1)


def _would_be_athikawan(cs_year: int) -> bool:
    _h, kammacapon, avoman, _t = _elements(cs_year)
    if kammacapon <= 207:  # the solar year has 366 days
        return avoman <= 126
    return avoman < 137


class AlmanacTable(msgspec.Struct, frozen=True):
    """The published table of year types (``data/thai/almanac_year_types.json``)."""

    source: str
    first_year: int  # Gregorian years naming lunar years (months 7 and 8)
    last_year: int
    month1_start_of_first_year: date
    year_types: dict[int, YearType]


@lru_cache(maxsize=1)
def almanac_table() -> AlmanacTable:
    """The published almanac table of year types, 1914-2157 (source named in the file)."""
    path = resources.files("astro_calc").joinpath("data/thai/almanac_year_types.json")
    raw = json.loads(path.read_text("utf-8"))
    raw.pop("description", None)
    return msgspec.convert(raw, AlmanacTable, strict=False)


def check_year_type_source(source: str) -> YearTypeSource:
    """The source, or a field-level error naming ``year_type_source``."""
    if source == "almanac":
        return "almanac"
    if source == "rule":
        return "rule"
    raise CalcInputError("year_type_source", f"must be one of {', '.join(YEAR_TYPE_SOURCES)}")


def year_type_decided_by(cs_year: int, source: YearTypeSource = "almanac") -> YearTypeSource:
    """Which source decided the type of CS year ``cs_year`` when ``source`` is requested: the
    almanac for its years 1914-2157 (and the 1911 join), the rule otherwise."""
    if source != "almanac":
        return "rule"
    ce = cs_year + CS_TO_CE
    table = almanac_table()
    if table.first_year <= ce <= table.last_year or ce in ALMANAC_JOIN:
        return "almanac"
    return "rule"


@lru_cache(maxsize=4096)
def year_type(
    cs_year: int, *, source: YearTypeSource = "almanac", official_exceptions: bool = True
) -> YearType:
    """Year type of a Chulasakarat year from the requested source (the module docstring gives
    both; ``official_exceptions`` applies to the rule only)."""
    if source == "almanac":
        ce = cs_year + CS_TO_CE
        published = almanac_table().year_types.get(ce)
        if published is not None:
            return published
        if ce in ALMANAC_JOIN:
            return ALMANAC_JOIN[ce]
    elif source != "rule":
        check_year_type_source(source)
    return _rule_year_type(cs_year, official_exceptions)


def _rule_year_type(cs_year: int, official_exceptions: bool) -> YearType:
    if _is_athikamat(cs_year):
        return "athikamat"
    ce = cs_year + CS_TO_CE
    if official_exceptions and ce in OFFICIAL_ATHIKAWAN_EXCEPTIONS:
        return "athikawan" if OFFICIAL_ATHIKAWAN_EXCEPTIONS[ce] else "pakatimat"
    if _is_athikamat(cs_year - 1) and _would_be_athikawan(cs_year - 1):
        return "athikawan"  # carried from the athikamat year before
    return "athikawan" if _would_be_athikawan(cs_year) else "pakatimat"


def suriyayatra_year(cs_year: int) -> SuriyayatraYear:
    """All Suriyayatra elements of a Chulasakarat year (Eade's worked example: CS 1325 has
    horakhun 483969, kammacapon 552, avoman 61, tithi 23); ``year_type`` is the rule's."""
    horakhun, kammacapon, avoman, tithi = _elements(cs_year)
    return SuriyayatraYear(
        cs_year=cs_year,
        horakhun=horakhun,
        kammacapon=kammacapon,
        avoman=avoman,
        tithi=tithi,
        year_type=year_type(cs_year, source="rule"),
        thaloeng_sok_jdn=horakhun + CS_EPOCH_JDN,
    )


# The anchor: in Eade's worked year CS 1325 (1963) the calendar's lunar day on Thaloeng Sok equals
# the tithi. From it, month 5 of every other year follows by adding year lengths; the tests check
# that the chain never strays from the Suriyayatra tithi by more than one day in 1900-2200. The
# almanac table's own chain passes through the same day (its lunar year 1963 starts on 27 Nov
# 1962), and from it reaches the table's published first day, 28 Nov 1913 (tested).
_ANCHOR_CS: Final = 1325


def _anchor_month5_jdn() -> int:
    horakhun, _k, _a, tithi = _elements(_ANCHOR_CS)
    return horakhun + CS_EPOCH_JDN - tithi + 1


@lru_cache(maxsize=4096)
def month5_start_jdn(cs_year: int, source: YearTypeSource = "almanac") -> int:
    """JD number of 1st waxing of month 5 in the lunar year holding CS year ``cs_year``'s
    months 7 and 8 (month 5 starts in March or April), with the year types of ``source``."""
    jdn = _anchor_month5_jdn()
    if cs_year >= _ANCHOR_CS:
        for y in range(_ANCHOR_CS, cs_year):
            jdn += YEAR_LENGTH_DAYS[year_type(y, source=source)]
    else:
        for y in range(cs_year, _ANCHOR_CS):
            jdn -= YEAR_LENGTH_DAYS[year_type(y, source=source)]
    return jdn
