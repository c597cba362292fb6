"""Birth-time sensitivity of the Vedic chart and dasha, checked by brute force.

200 random births (seeded; 1900-2100, latitudes within +-60 degrees, every ayanamsa), each
crossing checked at ``at`` -+ 1 s with the functions :func:`sidereal_chart_at` is made of (the
sidereal houses and Moon, ``sign_index``, ``nakshatra_index``, ``pada_of``) and
:func:`vimshottari_from_moon` for the dasha lord; the chart is sampled from the birth to each
crossing (or the horizon's edge) every 5 minutes for the lagna's sign (it lasts at least half an
hour at these latitudes), 30 minutes for the pada (at least 5 hours) and an hour for the
nakshatra, the dasha lord and the Moon's sign.

The dasha's first boundary (the month the first mahadasha ends) is checked with
:func:`vimshottari_dasha` itself, on 200 more births with every year length; the kundli match's
score with :func:`match_moons` (the Moon-only Ashtakoota :func:`kundli_match` totals, tied to it
below) with one person's Moon moved, on 200 random pairs and both schools.
"""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta

import msgspec
import pytest
from sensitivity_check import check_sensitivity

from astro_calc import ephemeris
from astro_calc.errors import CalcInputError
from astro_calc.sensitivity import dasha_sensitivity, matching_sensitivity, vedic_sensitivity
from astro_calc.vedic import (
    BirthSubject,
    birth_moment,
    kundli_match,
    match_moons,
    sidereal_chart_at,
    vimshottari_dasha,
    vimshottari_from_moon,
)
from astro_calc.vedic.zodiac import NAKSHATRAS, SIGNS, nakshatra_index, pada_of, sign_index

STEPS = {
    "lagna.sign": 300.0,
    "moon.sign": 3600.0,
    "moon.nakshatra": 3600.0,
    "moon.pada": 1800.0,
    "dasha.lord_at_birth": 3600.0,
}


def _births(n: int, seed: int) -> list[BirthSubject]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        day = date(1900, 1, 1) + timedelta(days=rng.randrange(0, 73_000))
        seconds = rng.randrange(0, 86_400)
        clock = f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
        lon = rng.uniform(-180.0, 180.0)
        ayanamsa = rng.choice(tuple(ephemeris.AYANAMSAS))
        lat = rng.uniform(-60.0, 60.0)
        out.append(BirthSubject(day, clock, lat, lon, round(lon / 15.0) * 60, ayanamsa))
    return out


def _value(subject: BirthSubject, moment: datetime, result: str) -> str:
    jd = ephemeris.julian_day(moment)
    if result == "lagna.sign":
        h = ephemeris.houses(
            jd, subject.latitude, subject.longitude, "W", ayanamsa=subject.ayanamsa
        )
        return SIGNS[sign_index(h.ascendant)]
    moon = ephemeris.body_position(jd, "moon", ayanamsa=subject.ayanamsa).longitude
    if result == "moon.sign":
        return SIGNS[sign_index(moon)]
    if result == "moon.nakshatra":
        return NAKSHATRAS[nakshatra_index(moon)]
    if result == "moon.pada":
        return f"{NAKSHATRAS[nakshatra_index(moon)]} {pada_of(moon)}"
    return vimshottari_from_moon(jd, moon, depth=1).mahadashas[0].lord


def test_the_brute_force_values_are_the_chart_s() -> None:
    for subject in _births(20, seed=35):
        jd = birth_moment(subject).jd_ut
        chart = sidereal_chart_at(
            jd, subject.latitude, subject.longitude, ayanamsa=subject.ayanamsa, divisional_charts=()
        )
        moment = ephemeris.datetime_from_jd(jd)
        moon = chart.graha("moon")
        assert _value(subject, moment, "lagna.sign") == chart.lagna.sign
        assert _value(subject, moment, "moon.sign") == moon.sign
        assert _value(subject, moment, "moon.nakshatra") == moon.nakshatra_name
        assert _value(subject, moment, "moon.pada") == f"{moon.nakshatra_name} {moon.pada}"


def test_every_crossing_of_200_random_vedic_charts_matches_brute_force() -> None:
    problems: list[str] = []
    changes = 0
    for subject in _births(200, seed=34):
        answer = vedic_sensitivity(subject, uncertainty_minutes=60)
        birth = birth_moment(subject).resolved.utc

        def value(moment: datetime, result: str, s: BirthSubject = subject) -> str:
            return _value(s, moment, result)

        problems += check_sensitivity(answer, birth, value, STEPS, str(subject))
        changes += sum(
            c is not None for i in answer.items for c in (i.changes_before, i.changes_after)
        )
    assert not problems, "\n".join(problems[:20])
    assert changes > 200 * 3


def test_the_dasha_lord_changes_with_the_nakshatra() -> None:
    subject = BirthSubject(date(1990, 5, 17), "14:35", 28.61, 77.21, 330)
    items = {i.result: i for i in vedic_sensitivity(subject).items}
    nakshatra, lord = items["moon.nakshatra"], items["dasha.lord_at_birth"]
    assert nakshatra.value == "Dhanishta"
    assert lord.value == "mars"  # Dhanishta is ruled by Mars in the Vimshottari order
    assert nakshatra.changes_before is not None
    assert lord.changes_before is not None
    assert nakshatra.changes_before.at == lord.changes_before.at
    assert (nakshatra.changes_before.to, lord.changes_before.to) == ("Shravana", "moon")


# --- the dasha's first boundary and the kundli match's score -------------------------------------

DASHA_STEPS = {"moon.nakshatra": 3600.0, "dasha.lord_at_birth": 3600.0, "dasha.first_end": 60.0}


def _first_end(subject: BirthSubject, moment: datetime, year_days: float) -> str:
    jd = ephemeris.julian_day(moment)
    end = (
        vimshottari_dasha(jd, ayanamsa=subject.ayanamsa, year_days=year_days, depth=1)
        .mahadashas[0]
        .end
    )
    return f"{end.year:04d}-{end.month:02d}"


def test_every_crossing_of_200_random_dashas_matches_brute_force() -> None:
    # The first mahadasha's end moves 1.75 to 5 days per minute of birth time, so its month
    # lasts at least six minutes of birth time: sampled every minute.
    problems: list[str] = []
    changes = 0
    rng = random.Random(341)
    for subject in _births(200, seed=341):
        year_days = rng.choice((365.25, 365.2422, 360.0))
        answer = dasha_sensitivity(subject, year_days=year_days, uncertainty_minutes=30)
        assert [i.result for i in answer.items] == [*DASHA_STEPS]
        birth = birth_moment(subject).resolved.utc

        def value(
            moment: datetime, result: str, s: BirthSubject = subject, days: float = year_days
        ) -> str:
            if result == "dasha.first_end":
                return _first_end(s, moment, days)
            return _value(s, moment, result)

        problems += check_sensitivity(answer, birth, value, DASHA_STEPS, str(subject))
        end = answer.items[2]
        changes += (end.changes_before is not None) + (end.changes_after is not None)
    assert not problems, "\n".join(problems[:20])
    assert changes == 400  # a month lasts under an hour of birth time: always two changes


def test_the_first_end_jumps_where_the_nakshatra_changes() -> None:
    # 1990-05-17 14:35 IST: Moon in Dhanishta (Mars, 7 years), entered about 7 h earlier.
    subject = BirthSubject(date(1990, 5, 17), "14:35", 28.61, 77.21, 330)
    answer = dasha_sensitivity(subject, horizon_minutes=1440)
    items = {i.result: i for i in answer.items}
    nakshatra, end = items["moon.nakshatra"], items["dasha.first_end"]
    assert nakshatra.changes_before is not None
    assert end.changes_before is not None
    assert end.changes_after is not None
    assert end.changes_before.at < end.changes_after.at
    # Just after the nakshatra began, the Mars period has almost all its 7 years left; just
    # before, the Moon's period (Shravana) is nearly over: the end lies near the birth then.
    at = nakshatra.changes_before.at
    assert _first_end(subject, at + timedelta(seconds=1), 365.25) in ("1997-05", "1997-04")
    assert _first_end(subject, at - timedelta(seconds=1), 365.25) == "1990-05"


def test_the_dasha_answer_refuses_a_year_length_it_does_not_offer() -> None:
    subject = BirthSubject(date(1990, 5, 17), "14:35", 28.61, 77.21, 330)
    with pytest.raises(CalcInputError) as err:
        dasha_sensitivity(subject, year_days=365.0)
    assert err.value.field == "year_days"


MATCH_STEPS = {
    f"{side}.{r}": step
    for side in ("boy", "girl")
    for r, step in (
        ("moon.sign", 3600.0),
        ("moon.nakshatra", 3600.0),
        ("moon.pada", 1800.0),
        ("koota_score", 900.0),  # a half pada lasts at least 2.5 hours
    )
}


def test_every_crossing_of_200_random_matches_matches_brute_force() -> None:
    births = _births(400, seed=342)
    rng = random.Random(342)
    problems: list[str] = []
    score_changes = 0
    for boy, girl in zip(births[::2], births[1::2], strict=True):
        school = rng.choice(("north", "south"))
        answer = matching_sensitivity(boy, girl, school=school, uncertainty_minutes=120)
        assert [i.result for i in answer.items] == [*MATCH_STEPS]
        moons = {
            side: ephemeris.body_position(
                birth_moment(s).jd_ut, "moon", ayanamsa=s.ayanamsa
            ).longitude
            for side, s in (("boy", boy), ("girl", girl))
        }
        assert answer.items[3].value == f"{kundli_match(boy, girl, school=school).total:g}"
        for side, subject in (("boy", boy), ("girl", girl)):
            part = msgspec.structs.replace(
                answer,
                items=tuple(i for i in answer.items if i.result.startswith(side + ".")),
            )

            def value(
                moment: datetime,
                result: str,
                s: BirthSubject = subject,
                side: str = side,
                moons: dict[str, float] = moons,
                school: str = school,
            ) -> str:
                name = result.split(".", 1)[1]
                if name != "koota_score":
                    return _value(s, moment, name)
                # The kundli match itself, with this person's Moon at ``moment``.
                moon = ephemeris.body_position(
                    ephemeris.julian_day(moment), "moon", ayanamsa=s.ayanamsa
                ).longitude
                pair = (moon, moons["girl"]) if side == "boy" else (moons["boy"], moon)
                return f"{match_moons(*pair, school=school).total:g}"

            birth = birth_moment(subject).resolved.utc
            problems += check_sensitivity(part, birth, value, MATCH_STEPS, f"{side} {subject}")
            score = part.items[3]
            score_changes += (score.changes_before is not None) + (score.changes_after is not None)
    assert not problems, "\n".join(problems[:20])
    assert score_changes > 200


def test_the_match_names_the_person_whose_field_is_wrong() -> None:
    good = BirthSubject(date(1990, 5, 17), "14:35", 28.61, 77.21, 330)
    bad = BirthSubject(date(1990, 5, 17), "25:35", 28.61, 77.21, 330)
    with pytest.raises(CalcInputError) as err:
        matching_sensitivity(good, bad)
    assert err.value.field == "girl.time"
