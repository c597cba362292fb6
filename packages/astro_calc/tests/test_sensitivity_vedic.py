"""Birth-time sensitivity of the Vedic chart and dasha, checked by brute force.

200 random births (seeded; 1900-2100, latitudes within +-60 degrees, every ayanamsa), each
crossing checked at ``at`` -+ 1 s with the functions :func:`sidereal_chart_at` is made of (the
sidereal houses and Moon, ``sign_index``, ``nakshatra_index``, ``pada_of``) and
:func:`vimshottari_from_moon` for the dasha lord; the chart is sampled from the birth to each
crossing (or the horizon's edge) every 5 minutes for the lagna's sign (it lasts at least half an
hour at these latitudes), 30 minutes for the pada (at least 5 hours) and an hour for the
nakshatra, the dasha lord and the Moon's sign.
"""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta

from sensitivity_check import check_sensitivity

from astro_calc import ephemeris
from astro_calc.sensitivity import vedic_sensitivity
from astro_calc.vedic import BirthSubject, birth_moment, sidereal_chart_at, vimshottari_from_moon
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
