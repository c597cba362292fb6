"""Thai festivals of a Gregorian year, from the Thai lunar calendar and the Sun.

Rules (the lunar month moves one month later in an athikamat year where noted):

* Makha Bucha: waxing 15 of month 3 (month 4 in an athikamat year).
* Visakha Bucha: waxing 15 of month 6 (month 7 in an athikamat year).
* Asanha Bucha: waxing 15 of month 8 (the second month 8 in an athikamat year).
* Khao Phansa: waning 1 of month 8 (the second month 8 in an athikamat year).
* Ok Phansa: waxing 15 of month 11.
* Loy Krathong: waxing 15 of month 12.
* Songkran public holidays, as the Holidays Acts and cabinet resolutions set them (Royal Gazette;
  the history as the ``holidays`` package records it, our test oracle): none before the first
  act of 1914; 28 March-15 April 1914-1925 (the old new year of 1 April); 31 March-3 April
  1926-1937; 31 March-2 April 1938-1940; none 1941-1947; 13-15 April 1948-1953; none 1954-1956;
  13 April only 1957-1988; 12-14 April 1989-1997; 13-15 April from 1998, except 2020, when the
  cabinet moved the three days to 27 July, 4 and 7 September (COVID-19). Days given in lieu of
  holidays falling on a weekend are not Songkran days and are not listed.
* Maha Songkran: the instant the Sun enters Aries. By default (``ayanamsa="suriyayatra"``) it is
  computed as the official announcements (ประกาศสงกรานต์) compute it, with the Suriyayatra's mean
  motions and equation of centre (:mod:`astro_calc.thai.songkran`); any other ``ayanamsa`` names a
  sidereal zodiac of the Swiss Ephemeris and gives the ephemeris entry into sidereal Aries instead
  (Lahiri: 2024-04-13 22:34 Thai time where the announcement said 22:24). The day is the civil
  day of the instant on the Thai clock (``Asia/Bangkok``). Wan Nao are the days between Maha
  Songkran and Thaloeng Sok; Wan Thaloeng Sok is the Suriyayatra new-year day, with the instant of
  the mean new year (``(800 - kammacapon) * 108`` seconds after its midnight).

The lunar festivals follow ``year_type_source``: ``"almanac"`` (default) takes the year types of
the published table for 1914-2157 (myhora.com's B.E. 2300-2700 calendar) and the Suriyayatra rule
outside it, ``"rule"`` the Suriyayatra rule with its recorded exceptions everywhere (see
:mod:`astro_calc.thai.suriyayatra`). The Songkran days do not depend on it.

Checked against official Thai holiday announcements in ``tests/test_thai_festivals.py``.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Final

import msgspec

from astro_calc.ephemeris import datetime_from_jd, julian_day
from astro_calc.search import next_longitude
from astro_calc.thai.calendar import (
    Phase,
    ThaiLunarDate,
    check_year,
    lunar_to_gregorian,
    thai_lunar_date,
    thaloeng_sok,
)
from astro_calc.thai.songkran import (
    THAI_CLOCK,
    maha_songkran_suriyayatra,
    thaloeng_sok_instant,
)
from astro_calc.thai.suriyayatra import (
    CS_TO_CE,
    YearTypeSource,
    check_year_type_source,
    year_type,
    year_type_decided_by,
)
from astro_calc.thai.texts import text

#: The default zodiac of the Maha Songkran instant: the Suriyayatra's own computation.
SURIYAYATRA: Final = "suriyayatra"


class Festival(msgspec.Struct, frozen=True):
    key: str
    name_th: str
    name_en: str
    date: date
    lunar_date: ThaiLunarDate | None = None
    instant_utc: datetime | None = None  # Maha Songkran and Thaloeng Sok instants


class FestivalYear(msgspec.Struct, frozen=True):
    year: int
    year_type: str
    year_type_source: YearTypeSource  # requested
    year_type_decided_by: YearTypeSource  # the source that decided year_type
    ayanamsa: str
    festivals: tuple[Festival, ...]


def _festival(
    key: str, day: date, source: YearTypeSource, instant: datetime | None = None
) -> Festival:
    name = text("festival", key)
    lunar = thai_lunar_date(day, year_type_source=source)
    return Festival(key, name.th, name.en, day, lunar, instant)


def maha_songkran_instant(year: int, *, ayanamsa: str = SURIYAYATRA) -> datetime:
    """UTC instant of the Sun's entry into Aries in April of ``year``: by the Suriyayatra (the
    default, as the official announcements; checked in ``tests/test_thai_songkran.py``) or, for
    any other ``ayanamsa``, into that sidereal zodiac by the Swiss Ephemeris."""
    if ayanamsa == SURIYAYATRA:
        return maha_songkran_suriyayatra(year)
    start = julian_day(datetime(year, 3, 25, tzinfo=UTC))
    return datetime_from_jd(next_longitude("sun", 0.0, start, ayanamsa=ayanamsa, max_days=40))


def songkran_holidays(year: int) -> tuple[date, ...]:
    """The official Songkran public holidays of a Gregorian year (history in the module
    docstring; empty in the years without one)."""
    if year < 1914 or 1941 <= year <= 1947 or 1954 <= year <= 1956:
        return ()
    if year == 2020:
        return (date(2020, 7, 27), date(2020, 9, 4), date(2020, 9, 7))
    if year <= 1925:
        return tuple(date(year, 3, 28) + timedelta(days=i) for i in range(19))
    if year <= 1940:
        return tuple(date(year, 3, 31) + timedelta(days=i) for i in range(4 if year <= 1937 else 3))
    if 1957 <= year <= 1988:
        return (date(year, 4, 13),)
    first = 12 if 1989 <= year <= 1997 else 13
    return tuple(date(year, 4, first + i) for i in range(3))


def thai_festivals(
    year: int, *, ayanamsa: str = SURIYAYATRA, year_type_source: YearTypeSource = "almanac"
) -> FestivalYear:
    """Festivals of a Gregorian year (1900-2200), in date order (rules in the module docstring)."""
    check_year(year)
    source = check_year_type_source(year_type_source)
    kind = year_type(year - CS_TO_CE, source=source)
    leap = kind == "athikamat"

    def lunar(key: str, month: int, phase: Phase, kham: int, second: bool = False) -> Festival:
        day = lunar_to_gregorian(
            year, month, phase, kham, second_month_8=second, year_type_source=source
        )
        return _festival(key, day, source)

    items = [
        lunar("makha_bucha", 4 if leap else 3, "waxing", 15),
        lunar("visakha_bucha", 7 if leap else 6, "waxing", 15),
        lunar("asanha_bucha", 8, "waxing", 15, leap),
        lunar("khao_phansa", 8, "waning", 1, leap),
        lunar("ok_phansa", 11, "waxing", 15),
        lunar("loy_krathong", 12, "waxing", 15),
    ]
    items += [_festival("songkran", day, source) for day in songkran_holidays(year)]
    instant = maha_songkran_instant(year, ayanamsa=ayanamsa)
    songkran_day = instant.astimezone(THAI_CLOCK).date()
    new_year_day = thaloeng_sok(year - CS_TO_CE)
    items.append(_festival("maha_songkran", songkran_day, source, instant))
    day = songkran_day + timedelta(days=1)
    while day < new_year_day:
        items.append(_festival("wan_nao", day, source))
        day += timedelta(days=1)
    items.append(_festival("wan_thaloeng_sok", new_year_day, source, thaloeng_sok_instant(year)))
    items.sort(key=lambda f: (f.date, f.key))
    return FestivalYear(
        year=year,
        year_type=kind,
        year_type_source=source,
        year_type_decided_by=year_type_decided_by(year - CS_TO_CE, source),
        ayanamsa=ayanamsa,
        festivals=tuple(items),
    )
