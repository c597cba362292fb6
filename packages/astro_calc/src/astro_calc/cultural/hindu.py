"""The Hindu day for cultural calendars: tithi, amanta month, Rahu Kalam and festivals.

Conventions
-----------
* Place: New Delhi (28.6139 N, 77.2090 E), Indian Standard Time (UTC+5:30), the place of the
  Government of India's holiday lists and of most printed almanacs; sunrise and sunset are the
  almanac ones (upper limb, standard refraction), as :mod:`astro_calc.vedic.panchanga`.
* Tithi: the Moon-Sun elongation in twelve-degree parts (1-15 shukla, 16-30 krishna), the tithi
  of a day being the one prevailing at sunrise.
* Month: amanta (new moon to new moon, the school of South and West India and of the holiday
  lists' month names when given as amanta). A month is named from the Lahiri sidereal sign of the
  Sun at the new moon that opens it (Sun in Meena: Chaitra); a month whose opening and closing
  new moons fall in the same sign is adhika (leap) and holds no festival. Each festival rule
  states its month in amanta terms and, where it differs, the purnimanta name.
* Festivals (``data/cultural/hindu.json``): a festival is the day on which its tithi of its month
  prevails at its moment (sunrise, midday, afternoon, sunset or midnight); "first" or "last"
  chooses when two days qualify; none when the tithi is skipped at every such moment.
* Rahu Kalam: the daytime (sunrise to sunset) in eight equal parts, the part by weekday (Monday
  the 2nd, Tuesday 7th, Wednesday 5th, Thursday 6th, Friday 4th, Saturday 3rd, Sunday 8th).
* Tithi quality: Nanda (1, 6, 11), Bhadra (2, 7, 12), Jaya (3, 8, 13) and Purna (5, 10, 15)
  favour beginnings; Rikta (4, 9, 14) and Amavasya do not.

Festival dates are checked against the Government of India's gazetted holiday lists for
2023-2025 (as carried by the ``holidays`` package).
"""

from __future__ import annotations

import bisect
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from typing import Final, Literal

import msgspec

from astro_calc import ephemeris, glossary
from astro_calc.cultural._data import load
from astro_calc.search import next_lunar_phase
from astro_calc.vedic.panchanga import tithi_name

Language = Literal["en", "th"]
LATITUDE: Final = 28.6139
LONGITUDE: Final = 77.2090
IST_OFFSET: Final = timedelta(hours=5, minutes=30)
_MOMENTS: Final = ("sunrise", "midday", "afternoon", "sunset", "midnight")


class HinduDay(msgspec.Struct, frozen=True):
    date: date
    sunrise: datetime
    sunset: datetime
    tithi: int  # 1..30 at sunrise
    tithi_name: str
    paksha: Literal["shukla", "krishna"]
    month: str  # amanta month name, in the requested language
    month_index: int  # 0 = Chaitra
    adhika: bool
    tithi_group: str  # nanda, bhadra, jaya, rikta, purna or amavasya
    tithi_quality: Literal["good", "bad"]
    tithi_quality_text: str
    rahu_kalam_start: datetime
    rahu_kalam_end: datetime


class HinduFestival(msgspec.Struct, frozen=True):
    key: str
    date: date
    name: str
    rule: str


class _Moments(msgspec.Struct, frozen=True):
    sunrise: float
    sunset: float
    points: tuple[float, ...]  # sunrise, midday, afternoon, sunset, midnight (Julian days UT)
    tithis: tuple[int, ...]  # the tithi at each point


@lru_cache(maxsize=2048)
def _moments(day: date) -> _Moments:
    local_midnight = datetime(day.year, day.month, day.day, tzinfo=UTC) - IST_OFFSET
    jd0 = ephemeris.julian_day(local_midnight)
    rise = ephemeris.rise_set(jd0, "sun", LATITUDE, LONGITUDE, "rise")
    sset = ephemeris.rise_set(jd0, "sun", LATITUDE, LONGITUDE, "set")
    if rise is None or sset is None:  # never at New Delhi; kept for the type checker
        raise ValueError("the Sun does not rise or set")
    length = sset - rise
    points = (
        rise,
        rise + length / 2.0,  # midday
        rise + length * 0.7,  # aparahna: the fourth fifth of the daytime
        sset,
        jd0 + 1.0,  # the following local midnight
    )
    with ephemeris.held_tropical() as position:  # elongation() without its per-call set-up

        def tithi(jd: float) -> int:
            moon, sun = position(jd, "moon").longitude, position(jd, "sun").longitude
            return int(((moon - sun) % 360.0) // 12.0) + 1

        # The elongation only grows (the Moon always outruns the Sun), so a point between two
        # points of the same tithi (less than a day apart) has that tithi too.
        found: dict[int, int] = {0: tithi(points[0]), 4: tithi(points[4])}
        for k, (lo, hi) in ((2, (0, 4)), (1, (0, 2)), (3, (2, 4))):
            found[k] = found[lo] if found[lo] == found[hi] else tithi(points[k])
        tithis = tuple(found[k] for k in range(5))
    return _Moments(rise, sset, points, tithis)


@lru_cache(maxsize=16)
def _new_moons(year: int) -> tuple[float, ...]:
    """New moons from November of ``year - 1`` to February of ``year + 1``."""
    start = ephemeris.julian_day(datetime(year - 1, 11, 1, tzinfo=UTC))
    end = ephemeris.julian_day(datetime(year + 1, 2, 28, tzinfo=UTC))
    out = [next_lunar_phase(start, 0.0)]
    while out[-1] < end:
        out.append(next_lunar_phase(out[-1] + 25.0, 0.0))
    return tuple(out)


def _sign_at(jd: float) -> int:
    return int(ephemeris.body_position(jd, "sun", ayanamsa="lahiri").longitude // 30.0)


@lru_cache(maxsize=16)
def _months(year: int) -> tuple[tuple[float, int, bool], ...]:
    """(opening new moon, month index, adhika) of each lunation in :func:`_new_moons`."""
    moons = _new_moons(year)
    signs = [_sign_at(jd) for jd in moons]
    out = []
    for i in range(len(moons) - 1):
        out.append((moons[i], (signs[i] + 1) % 12, signs[i] == signs[i + 1]))
    return tuple(out)


def _month_of(jd: float, year: int) -> tuple[int, bool]:
    months = _months(year)
    i = bisect.bisect_right([m[0] for m in months], jd) - 1
    return months[i][1], months[i][2]


def _dt(jd: float) -> datetime:
    moment = ephemeris.datetime_from_jd(jd)
    return moment.replace(microsecond=0)


def _group(tithi: int) -> str:
    if tithi == 30:
        return "amavasya"
    return ("nanda", "bhadra", "jaya", "rikta", "purna")[(tithi - 1) % 15 % 5]


def hindu_day(day: date, language: Language = "en") -> HinduDay:
    """The Hindu day of a civil date at New Delhi (conventions in the module docstring)."""
    data = load("hindu")
    m = _moments(day)
    tithi = m.tithis[0]
    month_index, adhika = _month_of(m.sunrise, day.year)
    group = _group(tithi)
    if group == "amavasya":
        quality: Literal["good", "bad"] = "bad"
        quality_text = data["amavasya"][language]
    else:
        entry = data["tithi_groups"][group]
        quality, quality_text = entry["quality"], entry[language]
    segment = data["rahu_kalam_segment"]["segments"][day.weekday()]
    part = (m.sunset - m.sunrise) / 8.0

    return HinduDay(
        date=day,
        sunrise=_dt(m.sunrise),
        sunset=_dt(m.sunset),
        tithi=tithi,
        tithi_name=glossary.name("tithi", tithi_name(tithi).lower(), language),
        paksha="shukla" if tithi <= 15 else "krishna",
        month=data["months"][month_index][language],
        month_index=month_index,
        adhika=adhika,
        tithi_group=group,
        tithi_quality=quality,
        tithi_quality_text=quality_text,
        rahu_kalam_start=_dt(m.sunrise + part * (segment - 1)),
        rahu_kalam_end=_dt(m.sunrise + part * segment),
    )


@lru_cache(maxsize=16)
def _festivals_of_year(year: int) -> tuple[tuple[str, date], ...]:
    """(key, date) of every festival rule in Gregorian ``year``."""
    out: list[tuple[str, date]] = []
    for rule in load("hindu")["festivals"]:
        slot = _MOMENTS.index(rule["at"])
        for month_start, month_index, adhika in _months(year):
            if month_index != rule["month"] or adhika:
                continue
            first = (ephemeris.datetime_from_jd(month_start) + IST_OFFSET).date()
            days = []
            for k in range(-1, 31):
                d = first + timedelta(days=k)
                moments = _moments(d)
                if (
                    moments.tithis[slot] == rule["tithi"]
                    and _month_of(moments.points[slot], year)[0] == rule["month"]
                ):
                    days.append(d)
            if days:
                chosen = days[0] if rule["pick"] == "first" else days[-1]
                chosen += timedelta(days=rule["offset_days"])
                if chosen.year == year:
                    out.append((rule["key"], chosen))
    return tuple(sorted(out, key=lambda item: item[1]))


def hindu_festivals(start: date, end: date, language: Language = "en") -> tuple[HinduFestival, ...]:
    """Festivals (``data/cultural/hindu.json``) on the days ``start..end``."""
    rules = {r["key"]: r for r in load("hindu")["festivals"]}
    out: list[HinduFestival] = []
    for year in range(start.year, end.year + 1):
        for key, day in _festivals_of_year(year):
            if start <= day <= end:
                out.append(HinduFestival(key, day, rules[key][language], rules[key]["rule"]))
    return tuple(out)


__all__ = ["HinduDay", "HinduFestival", "hindu_day", "hindu_festivals"]
