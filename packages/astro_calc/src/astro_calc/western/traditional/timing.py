"""Hellenistic and Persian timing: annual and monthly profections, zodiacal releasing, firdaria.

**Profections** (Valens, *Anthology* IV.11, tr. M. Riley 2010; Brennan, *Hellenistic Astrology*,
2017, ch. 18). The year of life that began at the ``age``-th birthday is profected ``age`` whole
signs from the ascendant's sign: ``house = age mod 12 + 1`` (age 0, 12, 24 ... the 1st house; 30
the 7th), and the **lord of the year** is that sign's domicile ruler (classical rulers). A
birthday is the anniversary of the local birth date and clock time, kept at the birth's UTC
offset (29 February is kept on 28 February in common years). The profection year is split into
twelve equal **months**, each one sign further on from the year's sign (Valens IV.11 "monthly"
profection by twelfths of the year; Brennan 2017 ch. 18). ``on_date`` is a local date; its age
counts the birthdays on or before it, and its month is the one holding 12:00 of that date.

**Zodiacal releasing** (Valens, *Anthology* IV.4-IV.10, tr. Riley; Brennan 2017, ch. 17). From
the sign of the Lot of Spirit (or Fortune) the signs are released in zodiacal order, each for its
minor years (Aries 15, Taurus 8, Gemini 20, Cancer 25, Leo 19, Virgo 20, Libra 8, Scorpio 15,
Sagittarius 12, Capricorn 27, Aquarius 30, Pisces 12). The first period begins at birth. Each
period divides into sub-periods of the next level, starting with its own sign, lasting the same
numbers in units twelve times smaller: years, months (``year/12``), ``year/144`` and
``year/1728`` (with Valens' 360-day year: 360 days, 30 days, 2.5 days and 5 hours). When a
sub-level has run through all twelve signs and would come back to its first sign, it jumps to
the opposite sign instead: the **loosing of the bond** (the period that opens with the jump is
flagged). **Peak** periods are those in the signs angular to the Lot of Fortune (the 1st, 4th,
7th and 10th signs from it; ``house_from_fortune`` says which, the 10th being the strongest).
``year_length_days`` defaults to 360 (Valens); 365.25 is offered for calendar-year releasing.
Periods are returned only where they overlap the window, with ``start``/``end`` clipped to it.
Every instant in the answers is rounded to the whole second.

**Firdaria** (Abu Ma'shar, *On the Revolutions of the Years of Nativities*, tr. B. Dykes,
*Persian Nativities IV*, 2019; Bonatti, *Book of Astronomy* Tr. 10, tr. Dykes 2007). Day charts
run Sun 10, Venus 8, Mercury 13, Moon 9, Saturn 11, Jupiter 12, Mars 7, North Node 3, South Node
2 years (75 in all); night charts start with the Moon: Moon, Saturn, Jupiter, Mars, the nodes,
Sun, Venus, Mercury (``nodes="after_mars"``, default), or with the nodes at the end, after
Mercury (``nodes="after_mercury"``, the variant Bonatti reports). Each planetary period divides
into seven equal sub-periods ruled in Chaldean order (Saturn, Jupiter, Mars, Sun, Venus,
Mercury, Moon) from its own ruler; the nodes' periods have none. Years are ``year_length_days``
long (default 365.25) from the birth instant; the sequence repeats after 75 years.

Sect (the Sun's altitude), the ascendant and the lots come from
:mod:`astro_calc.western.traditional.chart`.
Checked against the published tables (profection ages, firdaria ages, the releasing rules)
in ``tests/test_western_traditional_timing.py``.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import Final

import msgspec

from astro_calc import ephemeris
from astro_calc.errors import CalcInputError
from astro_calc.western.natal import cached_positions
from astro_calc.western.subject import SIGNS, BirthSubject, SubjectTime, load_data, resolve_subject
from astro_calc.western.traditional.chart import (
    Sect,
    lot_longitudes,
    sect_at,
    sign_index,
)
from astro_calc.western.traditional.dignities import CLASSICAL_PLANETS, DOMICILE

_DATA: Final = load_data("western", "traditional.json")
SIGN_YEARS: Final[dict[str, int]] = {k: int(v) for k, v in _DATA["sign_years"].items()}
_SIGN_YEARS_BY_INDEX: Final = tuple(SIGN_YEARS[s] for s in SIGNS)
FIRDARIA_YEARS: Final[dict[str, int]] = {k: int(v) for k, v in _DATA["firdaria"]["years"].items()}
FIRDARIA_SEQUENCES: Final[dict[str, tuple[str, ...]]] = {
    "day": tuple(_DATA["firdaria"]["day"]),
    "night_after_mars": tuple(_DATA["firdaria"]["night_nodes_after_mars"]),
    "night_after_mercury": tuple(_DATA["firdaria"]["night_nodes_after_mercury"]),
}
CHALDEAN_ORDER: Final[tuple[str, ...]] = tuple(_DATA["firdaria"]["chaldean_order"])
RELEASING_LOTS: Final = ("spirit", "fortune")
RELEASING_YEAR_LENGTHS: Final = (360.0, 365.25)
FIRDARIA_YEAR_LENGTHS: Final = (365.25, 365.2422, 360.0)
NODE_PLACEMENTS: Final = ("after_mars", "after_mercury")
MAX_LEVELS: Final = 4
#: How far after the birth a releasing window may end, in days (150 Julian years).
MAX_WINDOW_DAYS: Final = 150 * 365.25
MAX_AGE_YEARS: Final = 150
_DAY_S: Final = 86400.0


def _whole_second(moment: datetime) -> datetime:
    """``moment`` rounded to the whole second (answers carry instants to the second)."""
    rounded = moment + timedelta(microseconds=500_000)
    return rounded.replace(microsecond=0) if moment.microsecond else moment


# --- the birth ------------------------------------------------------------------------------------


class BirthBasics(msgspec.Struct, frozen=True, gc=False):
    """What the timing techniques need of a birth: the resolved instant, the ascendant, sect and
    the seven planets' longitudes."""

    echo: SubjectTime
    ascendant: float
    sect: Sect
    positions: dict[str, float]


def birth_basics(subject: BirthSubject) -> BirthBasics:
    """Resolve a birth and compute the ascendant (Swiss Ephemeris, any house system: the
    ascendant does not depend on it), the seven planets and the sect."""
    echo = resolve_subject(subject)
    return basics_at(echo, subject.latitude, subject.longitude)


def basics_at(echo: SubjectTime, latitude: float, longitude: float) -> BirthBasics:
    jd = echo.julian_day
    found, _used, _warnings = cached_positions(jd, CLASSICAL_PLANETS)
    positions = {name: p.longitude for name, p in found.items()}
    h = ephemeris.houses(jd, latitude, longitude, "W")
    sun = found["sun"]
    sect = sect_at(jd, latitude, h.armc, sun.longitude, sun.latitude)
    return BirthBasics(echo, h.ascendant, sect, positions)


# --- profections ----------------------------------------------------------------------------------


class ProfectionMonth(msgspec.Struct, frozen=True, gc=False):
    """One month of the profection year: ``month`` 1-12, its ``sign``, whole-sign ``house``,
    ``lord`` (domicile ruler) and the UTC ``start``/``end``."""

    month: int
    sign: str
    house: int
    lord: str
    start: datetime
    end: datetime


class Profections(msgspec.Struct, frozen=True, gc=False):
    """The annual profection on ``on_date``: completed ``age``, the profected ``sign``, its
    whole-sign ``house``, the ``lord_of_year``, the year's UTC bounds, its twelve ``months`` and
    the ``current_month`` (1-12) holding ``on_date``."""

    on_date: date
    age: int
    sign: str
    house: int
    lord_of_year: str
    ascendant_sign: str
    year_start: datetime
    year_end: datetime
    current_month: int
    months: tuple[ProfectionMonth, ...]


def _anniversary(local: datetime, years: int) -> datetime:
    """The local birth clock ``years`` later (29 February -> 28 February in common years)."""
    target = local.year + years
    try:
        return local.replace(year=target)
    except ValueError:
        return local.replace(year=target, day=28)


def profections_at(echo: SubjectTime, ascendant: float, on_date: date) -> Profections:
    """:func:`profections` for an already resolved birth and its ascendant."""
    if not isinstance(on_date, date) or isinstance(on_date, datetime):
        raise CalcInputError("on_date", "must be a date (YYYY-MM-DD)")
    local = echo.local.replace(tzinfo=None)
    if on_date < local.date():
        raise CalcInputError("on_date", "must not be before the birth date")
    age = on_date.year - local.year
    if _anniversary(local, age).date() > on_date:  # 29 February kept on the 28th
        age -= 1
    if age > MAX_AGE_YEARS:
        raise CalcInputError("on_date", f"must be within {MAX_AGE_YEARS} years of the birth")
    offset = timedelta(minutes=echo.offset_minutes)
    start_local = _anniversary(local, age)
    end_local = _anniversary(local, age + 1)
    start = (start_local - offset).replace(tzinfo=UTC)
    end = (end_local - offset).replace(tzinfo=UTC)
    first = sign_index(ascendant)
    year_index = (first + age) % 12
    span = (end - start) / 12
    months = tuple(
        ProfectionMonth(
            month=k + 1,
            sign=SIGNS[(year_index + k) % 12],
            house=(age + k) % 12 + 1,
            lord=DOMICILE[SIGNS[(year_index + k) % 12]],
            start=_whole_second(start + span * k),
            end=end if k == 11 else _whole_second(start + span * (k + 1)),
        )
        for k in range(12)
    )
    noon = (datetime.combine(on_date, time(12)) - offset).replace(tzinfo=UTC)
    current = min(12, max(1, int((noon - start) / span) + 1))
    return Profections(
        on_date=on_date,
        age=age,
        sign=SIGNS[year_index],
        house=age % 12 + 1,
        lord_of_year=DOMICILE[SIGNS[year_index]],
        ascendant_sign=SIGNS[first],
        year_start=start,
        year_end=end,
        current_month=current,
        months=months,
    )


def profections(subject: BirthSubject, on_date: date) -> Profections:
    """Annual and monthly profections for ``on_date`` (see the module docstring: whole signs
    from the ascendant's sign, lord of the year by domicile, twelve equal months). Checked
    against Brennan's table of profection ages (2017, ch. 18) in the tests."""
    basics = birth_basics(subject)
    return profections_at(basics.echo, basics.ascendant, on_date)


# --- zodiacal releasing ---------------------------------------------------------------------------


class ReleasingPeriod(msgspec.Struct, frozen=True, gc=False):
    """One releasing period: ``level`` 1-4, its ``sign`` and domicile ``ruler``, UTC ``start``
    and ``end`` (clipped to the window), whether it opens with the ``loosing_of_the_bond``,
    whether it is a ``peak`` (angular to Fortune) and its ``house_from_fortune`` (1-12)."""

    level: int
    sign: str
    ruler: str
    start: datetime
    end: datetime
    loosing_of_the_bond: bool
    peak: bool
    house_from_fortune: int


class ZodiacalReleasing(msgspec.Struct, frozen=True, gc=False):
    """Releasing from ``lot`` (its ``lot_longitude`` and ``lot_sign``), the ``fortune_sign`` the
    peaks count from, the chart's ``sect``, ``year_length_days``, ``levels``, the window
    (``start``, ``end``, UTC) and the ``periods`` overlapping it, in order of start (a period
    before its sub-periods)."""

    lot: str
    lot_longitude: float
    lot_sign: str
    fortune_sign: str
    sect: str
    year_length_days: float
    levels: int
    start: datetime
    end: datetime
    periods: tuple[ReleasingPeriod, ...]


def _check_releasing(lot: str, levels: int, year_length_days: float) -> None:
    if lot not in RELEASING_LOTS:
        raise CalcInputError("lot", f"unknown lot {lot!r}; one of spirit, fortune")
    if isinstance(levels, bool) or not isinstance(levels, int) or not 1 <= levels <= MAX_LEVELS:
        raise CalcInputError("levels", f"must be an integer from 1 to {MAX_LEVELS}")
    if year_length_days not in RELEASING_YEAR_LENGTHS:
        raise CalcInputError("year_length_days", "must be 360 (Valens) or 365.25")


def _window(birth_utc: datetime, start: date | None, end: date | None) -> tuple[datetime, datetime]:
    """The window as UTC instants: ``start`` 00:00 UTC (not before the birth) to the end of
    ``end`` (the next day's 00:00 UTC), ending within 150 Julian years of the birth; default
    from the birth for 90 Julian years."""
    if start is None:
        lo = birth_utc
    else:
        lo = max(birth_utc, datetime(start.year, start.month, start.day, tzinfo=UTC))
    if end is None:
        hi = lo + timedelta(days=90 * 365.25)
    else:
        hi = datetime(end.year, end.month, end.day, tzinfo=UTC) + timedelta(days=1)
        if hi <= lo:
            raise CalcInputError("end", "must be after start and after the birth")
    if (hi - birth_utc).total_seconds() > MAX_WINDOW_DAYS * _DAY_S:
        raise CalcInputError("end", "must be within 150 years of the birth")
    return lo, hi


def releasing_periods(
    birth_utc: datetime,
    lot_sign_index: int,
    fortune_sign_index: int,
    *,
    levels: int,
    year_length_days: float,
    window: tuple[datetime, datetime],
) -> tuple[ReleasingPeriod, ...]:
    """The releasing periods from a lot's sign, to ``levels``, overlapping ``window``
    (see the module docstring for the rules)."""
    lo_s = (window[0] - birth_utc).total_seconds()
    hi_s = (window[1] - birth_utc).total_seconds()
    unit = [year_length_days * _DAY_S / 12.0**k for k in range(MAX_LEVELS)]
    years = _SIGN_YEARS_BY_INDEX
    out: list[ReleasingPeriod] = []
    append = out.append
    edges: dict[float, datetime] = {}
    rulers = tuple(DOMICILE[s] for s in SIGNS)
    angular = {0, 3, 6, 9}

    def instant(s: float) -> datetime:
        got = edges.get(s)
        if got is None:
            got = edges[s] = birth_utc + timedelta(seconds=round(s))
        return got

    lo_dt, hi_dt = window

    def release(level: int, first: int, t0: float, t_end: float) -> None:
        size = unit[level - 1]
        t = t0
        sign = first
        count = 0
        while t < t_end and t < hi_s:
            loosing = False
            if count == 12:
                sign = (first + 6) % 12
                loosing = True
            end = t + years[sign] * size
            if end > t_end:
                end = t_end
            if end > lo_s:
                offset = (sign - fortune_sign_index) % 12
                append(
                    ReleasingPeriod(
                        level,
                        SIGNS[sign],
                        rulers[sign],
                        instant(t) if t > lo_s else lo_dt,
                        instant(end) if end < hi_s else hi_dt,
                        loosing,
                        offset in angular,
                        offset + 1,
                    )
                )
                if level < levels:
                    release(level + 1, sign, t, end)
            t = end
            sign = (sign + 1) % 12
            count += 1

    release(1, lot_sign_index, 0.0, float("inf"))
    return tuple(out)


def zodiacal_releasing_at(
    basics: BirthBasics,
    *,
    lot: str = "spirit",
    levels: int = 4,
    start: date | None = None,
    end: date | None = None,
    year_length_days: float = 360.0,
) -> ZodiacalReleasing:
    """:func:`zodiacal_releasing` for an already computed birth."""
    _check_releasing(lot, levels, year_length_days)
    lots = lot_longitudes(basics.ascendant, basics.positions, basics.sect)
    window = _window(basics.echo.utc.astimezone(UTC), start, end)
    lot_lon = lots[lot]
    periods = releasing_periods(
        basics.echo.utc.astimezone(UTC),
        sign_index(lot_lon),
        sign_index(lots["fortune"]),
        levels=levels,
        year_length_days=float(year_length_days),
        window=window,
    )
    return ZodiacalReleasing(
        lot=lot,
        lot_longitude=lot_lon,
        lot_sign=SIGNS[sign_index(lot_lon)],
        fortune_sign=SIGNS[sign_index(lots["fortune"])],
        sect=basics.sect,
        year_length_days=float(year_length_days),
        levels=levels,
        start=window[0],
        end=window[1],
        periods=periods,
    )


def zodiacal_releasing(
    subject: BirthSubject,
    *,
    lot: str = "spirit",
    levels: int = 4,
    start: date | None = None,
    end: date | None = None,
    year_length_days: float = 360.0,
) -> ZodiacalReleasing:
    """Zodiacal releasing from the Lot of Spirit (default) or Fortune, to ``levels`` (1-4),
    for the window ``start``..``end`` (dates, UTC days, inclusive; default 90 years from the
    birth), with ``year_length_days`` 360 (Valens, default) or 365.25. See the module docstring
    for the rules (Valens IV.4-10; Brennan 2017 ch. 17); checked against the published rules and
    worked figures in the tests."""
    return zodiacal_releasing_at(
        birth_basics(subject),
        lot=lot,
        levels=levels,
        start=start,
        end=end,
        year_length_days=year_length_days,
    )


# --- firdaria -------------------------------------------------------------------------------------


class FirdarSubPeriod(msgspec.Struct, frozen=True, gc=False):
    ruler: str
    start: datetime
    end: datetime


class FirdarPeriod(msgspec.Struct, frozen=True, gc=False):
    """One firdar: its ``ruler`` (a planet, ``north_node`` or ``south_node``), UTC ``start`` and
    ``end``, and its seven ``sub_periods`` (none for the nodes)."""

    ruler: str
    start: datetime
    end: datetime
    sub_periods: tuple[FirdarSubPeriod, ...]


class CurrentFirdar(msgspec.Struct, frozen=True, gc=False):
    """The firdar and sub-period holding ``on_date`` (12:00 UTC); ``sub_ruler`` is None in the
    nodes' periods."""

    on_date: date
    ruler: str
    sub_ruler: str | None


class Firdaria(msgspec.Struct, frozen=True, gc=False):
    """The firdaria of a birth: ``sect``, ``year_length_days``, ``node_placement``, the
    ``periods`` from the birth (one 75-year cycle, more when ``on_date`` is later) and the
    ``current`` periods at ``on_date`` when one is given."""

    sect: str
    year_length_days: float
    node_placement: str
    periods: tuple[FirdarPeriod, ...]
    current: CurrentFirdar | None = None


def firdaria_sequence(sect: str, node_placement: str = "after_mars") -> tuple[str, ...]:
    """The nine rulers in order for a chart of ``sect`` (see the module docstring)."""
    if node_placement not in NODE_PLACEMENTS:
        raise CalcInputError(
            "node_placement",
            f"unknown node placement {node_placement!r}; after_mars, after_mercury",
        )
    if sect == "day":
        return FIRDARIA_SEQUENCES["day"]
    return FIRDARIA_SEQUENCES[f"night_{node_placement}"]


def firdaria_at(
    echo: SubjectTime,
    sect: str,
    *,
    on_date: date | None = None,
    node_placement: str = "after_mars",
    year_length_days: float = 365.25,
) -> Firdaria:
    """:func:`firdaria` for an already resolved birth and its sect."""
    sequence = firdaria_sequence(sect, node_placement)
    if year_length_days not in FIRDARIA_YEAR_LENGTHS:
        raise CalcInputError("year_length_days", "must be 365.25, 365.2422 or 360")
    birth = echo.utc.astimezone(UTC)
    year = timedelta(days=float(year_length_days))
    cycles = 1
    at: datetime | None = None
    if on_date is not None:
        if not isinstance(on_date, date) or isinstance(on_date, datetime):
            raise CalcInputError("on_date", "must be a date (YYYY-MM-DD)")
        at = datetime(on_date.year, on_date.month, on_date.day, 12, tzinfo=UTC)
        if at < birth:
            raise CalcInputError("on_date", "must not be before the birth")
        age = (at - birth) / year
        if age > MAX_AGE_YEARS:
            raise CalcInputError("on_date", f"must be within {MAX_AGE_YEARS} years of the birth")
        cycles = int(age // 75) + 1
    periods: list[FirdarPeriod] = []
    elapsed = 0
    for _cycle in range(cycles):
        for ruler in sequence:
            n = FIRDARIA_YEARS[ruler]
            start = _whole_second(birth + year * elapsed)
            end = _whole_second(birth + year * (elapsed + n))
            subs: tuple[FirdarSubPeriod, ...] = ()
            if ruler in CHALDEAN_ORDER:
                first = CHALDEAN_ORDER.index(ruler)
                step = (end - start) / 7
                subs = tuple(
                    FirdarSubPeriod(
                        CHALDEAN_ORDER[(first + k) % 7],
                        _whole_second(start + step * k),
                        end if k == 6 else _whole_second(start + step * (k + 1)),
                    )
                    for k in range(7)
                )
            periods.append(FirdarPeriod(ruler, start, end, subs))
            elapsed += n
    current = None
    if at is not None and on_date is not None:
        for p in periods:
            if p.start <= at < p.end:
                sub = next((s.ruler for s in p.sub_periods if s.start <= at < s.end), None)
                current = CurrentFirdar(on_date, p.ruler, sub)
                break
    return Firdaria(sect, float(year_length_days), node_placement, tuple(periods), current)


def firdaria(
    subject: BirthSubject,
    *,
    on_date: date | None = None,
    node_placement: str = "after_mars",
    year_length_days: float = 365.25,
) -> Firdaria:
    """The firdaria of a birth (Abu Ma'shar, tr. Dykes 2019; see the module docstring): day or
    night sequence by the chart's sect, the nodes after Mars by night (default) or after
    Mercury, seven Chaldean sub-periods per planetary firdar, years of ``year_length_days``.
    Checked against the published ages of each firdar in the tests."""
    basics = birth_basics(subject)
    return firdaria_at(
        basics.echo,
        basics.sect,
        on_date=on_date,
        node_placement=node_placement,
        year_length_days=year_length_days,
    )
