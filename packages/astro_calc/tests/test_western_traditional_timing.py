"""Profections, zodiacal releasing and firdaria (astro_calc.western.traditional.timing).

References (published tables and rules; the figures below are theirs):
* Brennan, Hellenistic Astrology (2017), ch. 18, table of profection ages: the 1st house at ages
  0, 12, 24, 36 ...; the 2nd at 1, 13, 25 ...; the 7th at 6, 18, 30 ...; the lord of the year is
  the domicile lord of the profected sign.
* Valens, Anthology IV.4-10 (tr. Riley 2010) and Brennan 2017 ch. 17: the minor years of the
  signs (Capricorn 27, Aquarius 30), the 360-day year and 30-day months, the twelve level-2
  signs taking 211 months (17 years 7 months) before the loosing of the bond to the sign opposite
  the level-1 sign, the peaks in the signs angular to Fortune.
* Abu Ma'shar (tr. Dykes, Persian Nativities IV, 2019): firdaria of a day birth Sun 0-10,
  Venus 10-18, Mercury 18-31, Moon 31-40, Saturn 40-51, Jupiter 51-63, Mars 63-70, North Node
  70-73, South Node 73-75; of a night birth Moon 0-9, Saturn 9-20, Jupiter 20-32, Mars 32-39,
  North Node 39-42, South Node 42-44, Sun 44-54, Venus 54-62, Mercury 62-75.
"""

from __future__ import annotations

import itertools
from datetime import UTC, date, datetime, timedelta

import pytest

from astro_calc.errors import CalcInputError
from astro_calc.western.subject import SIGNS, BirthSubject, SubjectTime
from astro_calc.western.traditional import firdaria, profections, zodiacal_releasing
from astro_calc.western.traditional.timing import (
    birth_basics,
    firdaria_at,
    profections_at,
    releasing_periods,
)

BANGKOK = BirthSubject(date(1990, 5, 1), "07:30", 13.75, 100.5, timezone_offset_minutes=420)
BIRTH = datetime(1990, 5, 1, tzinfo=UTC)


def _echo(utc: datetime = BIRTH, offset_minutes: int = 0) -> SubjectTime:
    local = utc.astimezone(UTC) + timedelta(minutes=offset_minutes)
    return SubjectTime(utc, local, offset_minutes, None, "offset", 2448012.5)


# --- profections ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("age", "house"),
    [
        (0, 1),
        (12, 1),
        (24, 1),
        (36, 1),
        (1, 2),
        (13, 2),
        (25, 2),
        (6, 7),
        (18, 7),
        (30, 7),
        (11, 12),
        (47, 12),
        (84, 1),
    ],
)
def test_profected_house_follows_brennans_table(age: int, house: int) -> None:
    found = profections_at(_echo(), ascendant=15.0, on_date=date(1990 + age, 6, 1))
    assert found.age == age
    assert found.house == house
    assert found.sign == SIGNS[house - 1]  # Aries rising: the n-th house is the n-th sign


def test_lord_of_the_year_is_the_domicile_lord_of_the_profected_sign() -> None:
    # Leo rising, age 30: the 7th sign from Leo is Aquarius, ruled by Saturn.
    found = profections_at(_echo(), ascendant=125.0, on_date=date(2020, 5, 1))
    assert (found.age, found.sign, found.lord_of_year) == (30, "aquarius", "saturn")


def test_the_year_turns_on_the_birthday_at_the_birth_clock() -> None:
    echo = _echo(datetime(1990, 5, 1, 0, 30, tzinfo=UTC), offset_minutes=420)
    assert profections_at(echo, 15.0, date(2000, 4, 30)).age == 9
    found = profections_at(echo, 15.0, date(2000, 5, 1))
    assert found.age == 10
    assert found.year_start == datetime(2000, 5, 1, 0, 30, tzinfo=UTC)
    assert found.year_end == datetime(2001, 5, 1, 0, 30, tzinfo=UTC)


def test_months_advance_one_sign_through_twelve_equal_parts() -> None:
    found = profections_at(_echo(), ascendant=15.0, on_date=date(1993, 5, 1))
    assert [m.sign for m in found.months] == [SIGNS[(3 + k) % 12] for k in range(12)]
    assert [m.house for m in found.months] == [(3 + k) % 12 + 1 for k in range(12)]
    assert found.months[0].start == found.year_start
    assert found.months[-1].end == found.year_end
    spans = {m.end - m.start for m in found.months[:-1]}
    assert max(spans) - min(spans) <= timedelta(seconds=1)
    assert found.current_month == 1
    assert profections_at(_echo(), 15.0, date(1993, 11, 15)).current_month == 7


def test_a_leap_day_birth_keeps_its_birthday_on_28_february() -> None:
    echo = _echo(datetime(2000, 2, 29, tzinfo=UTC))
    assert profections_at(echo, 15.0, date(2001, 2, 27)).age == 0
    assert profections_at(echo, 15.0, date(2001, 2, 28)).age == 1


def test_the_bangkok_births_profection() -> None:
    found = profections(BANGKOK, date(2026, 12, 7))
    # Gemini rising (the chart test), age 36: the 1st house again, ruled by Mercury.
    assert (found.age, found.ascendant_sign, found.sign, found.lord_of_year) == (
        36,
        "gemini",
        "gemini",
        "mercury",
    )


def test_profections_before_the_birth_name_on_date() -> None:
    with pytest.raises(CalcInputError) as err:
        profections(BANGKOK, date(1989, 1, 1))
    assert err.value.field == "on_date"


# --- zodiacal releasing ---------------------------------------------------------------------------


def _release(
    lot_sign: str,
    fortune_sign: str = "aries",
    levels: int = 2,
    years: float = 100.0,
    year: float = 360.0,
) -> list:
    return list(
        releasing_periods(
            BIRTH,
            SIGNS.index(lot_sign),
            SIGNS.index(fortune_sign),
            levels=levels,
            year_length_days=year,
            window=(BIRTH, BIRTH + timedelta(days=years * 365.25)),
        )
    )


def test_level_one_runs_the_signs_minor_years_from_the_lot() -> None:
    first = list(_release("capricorn", levels=1))
    assert [p.sign for p in first[:4]] == ["capricorn", "aquarius", "pisces", "aries"]
    lengths = [(p.end - p.start).days for p in first[:3]]
    assert lengths == [27 * 360, 30 * 360, 12 * 360]


def test_capricorn_looses_the_bond_to_cancer_after_211_months() -> None:
    level2 = [p for p in _release("capricorn") if p.level == 2]
    order = [p.sign for p in level2[:13]]
    assert order[:12] == [SIGNS[(9 + k) % 12] for k in range(12)]
    loosed = level2[12]
    assert loosed.sign == "cancer"
    assert loosed.loosing_of_the_bond
    assert not any(p.loosing_of_the_bond for p in level2[:12])
    assert loosed.start - BIRTH == timedelta(days=211 * 30)  # 17 years 7 months of 30 days
    assert loosed.end - loosed.start == timedelta(days=25 * 30)
    # Then Leo .. Sagittarius (74 months) and Capricorn again, cut at 27 x 12 months.
    in_capricorn = [p for p in level2 if p.start < BIRTH + timedelta(days=27 * 360)]
    assert [p.sign for p in in_capricorn[13:]] == [
        "leo",
        "virgo",
        "libra",
        "scorpio",
        "sagittarius",
        "capricorn",
    ]
    assert in_capricorn[-1].end - in_capricorn[-1].start == timedelta(days=(324 - 211 - 99) * 30)


def test_short_periods_never_loose_the_bond() -> None:
    within = BIRTH + timedelta(days=15 * 360)
    aries = [p for p in _release("aries", years=16.0) if p.level == 2 and p.start < within]
    assert [p.sign for p in aries][-1] == "aquarius"  # 169 months, then 11 of Aquarius' 30
    assert not any(p.loosing_of_the_bond for p in aries)
    assert aries[-1].end - aries[-1].start == timedelta(days=11 * 30)


def test_level_three_and_four_units_are_two_and_a_half_days_and_five_hours() -> None:
    periods = _release("aries", levels=4, years=20.0)
    l3 = next(p for p in periods if p.level == 3)
    l4 = next(p for p in periods if p.level == 4)
    assert l3.end - l3.start == timedelta(days=15 * 2.5)
    assert l4.end - l4.start == timedelta(hours=15 * 5)


def test_peaks_are_the_signs_angular_to_fortune() -> None:
    level1 = list(_release("aries", fortune_sign="cancer", levels=1, years=150))
    peaks = {p.sign: p.house_from_fortune for p in level1 if p.peak}
    assert peaks == {"aries": 10, "cancer": 1, "libra": 4, "capricorn": 7}
    assert all(not p.peak for p in level1 if p.sign not in peaks)


def test_a_calendar_year_stretches_every_level() -> None:
    p = _release("aries", levels=2, years=20.0, year=365.25)
    assert p[0].end - p[0].start == timedelta(days=15 * 365.25)
    assert p[1].end - p[1].start == timedelta(days=15 * 365.25 / 12)


def test_periods_are_clipped_to_the_window() -> None:
    found = zodiacal_releasing(
        BANGKOK, lot="fortune", levels=2, start=date(2020, 1, 1), end=date(2020, 12, 31)
    )
    assert found.start == datetime(2020, 1, 1, tzinfo=UTC)
    assert found.end == datetime(2021, 1, 1, tzinfo=UTC)
    assert found.periods[0].level == 1
    assert found.periods[0].start == found.start
    assert all(found.start <= p.start < p.end <= found.end for p in found.periods)
    level2 = [p for p in found.periods if p.level == 2]
    assert all(a.end == b.start for a, b in itertools.pairwise(level2))
    assert level2[-1].end == found.end


def test_the_bangkok_births_releasing_from_spirit() -> None:
    found = zodiacal_releasing(BANGKOK, levels=1, end=date(2080, 1, 1))
    basics = birth_basics(BANGKOK)
    assert found.sect == basics.sect == "day"
    assert found.lot_sign == "pisces"
    assert found.fortune_sign == "leo"
    assert [p.sign for p in found.periods[:3]] == ["pisces", "aries", "taurus"]
    assert found.periods[0].start == basics.echo.utc
    assert found.periods[0].end - found.periods[0].start == timedelta(days=12 * 360)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"lot": "eros"}, "lot"),
        ({"levels": 5}, "levels"),
        ({"levels": 0}, "levels"),
        ({"year_length_days": 365.0}, "year_length_days"),
        ({"start": date(2000, 1, 1), "end": date(1999, 1, 1)}, "end"),
        ({"start": date(2000, 1, 1), "end": date(2200, 1, 1)}, "end"),
        ({"start": date(2130, 1, 1), "end": date(2141, 1, 1)}, "end"),
    ],
)
def test_releasing_options_are_checked(kwargs: dict, field: str) -> None:
    with pytest.raises(CalcInputError) as err:
        zodiacal_releasing(BANGKOK, **kwargs)
    assert err.value.field == field


# --- firdaria -------------------------------------------------------------------------------------

DAY_AGES = [
    ("sun", 0, 10),
    ("venus", 10, 18),
    ("mercury", 18, 31),
    ("moon", 31, 40),
    ("saturn", 40, 51),
    ("jupiter", 51, 63),
    ("mars", 63, 70),
    ("north_node", 70, 73),
    ("south_node", 73, 75),
]
NIGHT_AGES = [
    ("moon", 0, 9),
    ("saturn", 9, 20),
    ("jupiter", 20, 32),
    ("mars", 32, 39),
    ("north_node", 39, 42),
    ("south_node", 42, 44),
    ("sun", 44, 54),
    ("venus", 54, 62),
    ("mercury", 62, 75),
]


@pytest.mark.parametrize(("sect", "table"), [("day", DAY_AGES), ("night", NIGHT_AGES)])
def test_firdaria_ages_follow_abu_mashar(sect: str, table: list) -> None:
    found = firdaria_at(_echo(), sect)
    year = timedelta(days=365.25)
    assert [(p.ruler, (p.start - BIRTH) / year, (p.end - BIRTH) / year) for p in found.periods] == [
        (r, float(a), float(b)) for r, a, b in table
    ]


def test_night_nodes_after_mercury_close_the_sequence() -> None:
    found = firdaria_at(_echo(), "night", node_placement="after_mercury")
    assert [p.ruler for p in found.periods] == [
        "moon",
        "saturn",
        "jupiter",
        "mars",
        "sun",
        "venus",
        "mercury",
        "north_node",
        "south_node",
    ]


def test_sub_periods_are_seven_equal_chaldean_parts_from_the_ruler() -> None:
    sun = firdaria_at(_echo(), "day").periods[0]
    assert [s.ruler for s in sun.sub_periods] == [
        "sun",
        "venus",
        "mercury",
        "moon",
        "saturn",
        "jupiter",
        "mars",
    ]
    first = sun.sub_periods[0]
    assert abs((first.end - first.start) - timedelta(days=3652.5 / 7)) <= timedelta(seconds=0.5)
    assert first.end.microsecond == 0  # instants to the whole second
    assert sun.sub_periods[-1].end == sun.end
    nodes = [p for p in firdaria_at(_echo(), "day").periods if p.ruler.endswith("_node")]
    assert all(p.sub_periods == () for p in nodes)


def test_the_current_firdar_and_a_second_cycle() -> None:
    found = firdaria_at(_echo(), "day", on_date=date(2005, 1, 1))
    assert found.current is not None
    assert (found.current.ruler, found.current.sub_ruler) == ("venus", "jupiter")
    later = firdaria_at(_echo(), "day", on_date=date(2070, 1, 1))
    assert len(later.periods) == 18
    assert later.current is not None
    assert later.current.ruler == "sun"


def test_the_bangkok_births_firdaria() -> None:
    found = firdaria(BANGKOK, on_date=date(2026, 1, 1))
    assert found.sect == "day"
    assert found.current is not None
    assert found.current.ruler == "moon"  # ages 31-40


def test_firdaria_options_are_checked() -> None:
    with pytest.raises(CalcInputError) as err:
        firdaria(BANGKOK, node_placement="first")
    assert err.value.field == "node_placement"
    with pytest.raises(CalcInputError) as err:
        firdaria(BANGKOK, year_length_days=365.0)
    assert err.value.field == "year_length_days"
    with pytest.raises(CalcInputError) as err:
        firdaria(BANGKOK, on_date=date(1980, 1, 1))
    assert err.value.field == "on_date"


# --- a published worked example -------------------------------------------------------------------

#: Emperor Akihito, 23 December 1933, 06:39 JST, Tokyo (Astrodatabank, rating AA), whose
#: releasing from Spirit was published in "Zodiacal Releasing - part 3" (windsoftheplanets.com,
#: 15 August 2016, "Person A") around his abdication address of 8 August 2016: Fortune in Libra,
#: Spirit in Pisces; level 1 Leo 28 Oct 2012 - 21 Jul 2031; level 2 Libra 11 Jan - 6 Sep 2016
#: (a peak), Scorpio 7 Sep 2016 - 1 Dec 2017; level 3 Aquarius 14 Jun - 27 Aug 2016; level 4
#: Scorpio on 8 Aug 2016. The published days are the first and last calendar days of each
#: period; ours are UTC instants (the birth was 21:39 UTC on 22 December), so the first days
#: match exactly and a period's last day is the day before the next one starts.
AKIHITO = BirthSubject(date(1933, 12, 23), "06:39", 35.6895, 139.6917, timezone_offset_minutes=540)


def test_akihitos_published_releasing_from_spirit() -> None:
    found = zodiacal_releasing(AKIHITO, levels=4, start=date(2012, 1, 1), end=date(2031, 12, 31))
    assert (found.sect, found.fortune_sign, found.lot_sign) == ("night", "libra", "pisces")

    def period(level: int, sign: str, inside: date) -> tuple[date, date]:
        noon = datetime(inside.year, inside.month, inside.day, 12, tzinfo=UTC)
        for p in found.periods:
            if p.level == level and p.sign == sign and p.start <= noon < p.end:
                return p.start.date(), (p.end - timedelta(days=1)).date()
        raise AssertionError(f"no level {level} {sign} period on {inside}")

    # The source gives some ends as the last day, others as the next period's first day.
    assert period(1, "leo", date(2016, 8, 8))[0] == date(2012, 10, 28)
    assert period(1, "leo", date(2016, 8, 8))[1] in (date(2031, 7, 20), date(2031, 7, 21))
    assert period(2, "libra", date(2016, 8, 8)) == (date(2016, 1, 11), date(2016, 9, 6))
    assert period(2, "scorpio", date(2016, 9, 8))[0] == date(2016, 9, 7)
    assert period(2, "scorpio", date(2016, 9, 8))[1] in (date(2017, 11, 30), date(2017, 12, 1))
    assert period(3, "aquarius", date(2016, 8, 8)) == (date(2016, 6, 14), date(2016, 8, 27))
    period(4, "scorpio", date(2016, 8, 8))
    libra = next(p for p in found.periods if p.level == 2 and p.sign == "libra")
    assert libra.peak
    assert libra.house_from_fortune == 1
