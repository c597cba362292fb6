"""The full dignity table and the almuten (astro_calc.western.traditional.dignities).

References: flatlib (flatlib-fix 0.2.4, test-only) for domicile, exaltation, the three Dorothean
triplicity rulers, the Egyptian bounds, the Chaldean faces and its almutem (each of the three
triplicity rulers scoring 3, our ``triplicity="all"``), on every half degree; Valens, Anthology
I.3 (tr. Riley 2010): each planet's Egyptian bounds sum to its minor years; the Chaldean faces
run in descending order of the spheres from Mars at 0 Aries (Lilly, Christian Astrology, p. 104).
The natal chart's ``"lots": true`` layer (:func:`with_minor_dignities`) against flatlib's
triplicity, term and face on random charts.
"""

from __future__ import annotations

import random
from datetime import date, timedelta

import pytest
from flatlib.dignities import essential, tables

from astro_calc.errors import CalcInputError
from astro_calc.western.natal import natal_chart
from astro_calc.western.subject import SIGNS, BirthSubject
from astro_calc.western.traditional import (
    NATAL_DIGNITY_ORDER,
    almuten,
    dignities_at,
    dignity_row,
    with_minor_dignities,
)
from astro_calc.western.traditional.dignities import BOUNDS, CHALDEAN_ORDER, CLASSICAL_PLANETS

HALF_DEGREES = [k * 0.5 for k in range(720)]


def _flat(name: str | None) -> str | None:
    return name.lower() if name else None


@pytest.mark.parametrize("longitude", HALF_DEGREES[::1])
def test_every_half_degree_matches_flatlibs_table(longitude: float) -> None:
    row = dignity_row(longitude)
    sign = SIGNS[int(longitude // 30)].capitalize()
    degree = longitude % 30
    info = essential.getInfo(sign, degree)
    assert row.domicile == _flat(info["ruler"])
    assert row.exaltation == _flat(info["exalt"])
    assert row.triplicity.day == _flat(info["dayTrip"])
    assert row.triplicity.night == _flat(info["nightTrip"])
    assert row.triplicity.participating == _flat(info["partTrip"])
    assert row.bound == _flat(essential.term(sign, degree))
    assert row.face == _flat(essential.face(sign, degree))
    assert row.detriment == _flat(info["exile"])
    assert row.fall == _flat(info["fall"])


@pytest.mark.parametrize("longitude", HALF_DEGREES)
def test_the_almuten_matches_flatlibs_almutem(longitude: float) -> None:
    sign = SIGNS[int(longitude // 30)].capitalize()
    found = almuten(longitude, "day", triplicity="all")
    theirs = _flat(essential.almutem(sign, longitude % 30))
    assert theirs in found.planets
    assert found.score == essential.score(
        essential.almutem(sign, longitude % 30), sign, longitude % 30
    )


def test_each_planets_bounds_sum_to_its_minor_years() -> None:
    totals: dict[str, int] = {}
    for rows in BOUNDS.values():
        start = 0
        for planet, end in rows:
            totals[planet] = totals.get(planet, 0) + end - start
            start = end
    assert totals == {"saturn": 57, "jupiter": 79, "mars": 66, "venus": 82, "mercury": 76}


def test_the_faces_run_in_chaldean_order_from_mars_at_zero_aries() -> None:
    start = CHALDEAN_ORDER.index("mars")
    for k in range(36):
        assert dignity_row(k * 10 + 5).face == CHALDEAN_ORDER[(start + k) % 7]


def test_flatlibs_egyptian_terms_are_its_default() -> None:
    assert essential.TERMS is tables.EGYPTIAN_TERMS


def test_the_sun_at_19_aries_is_exalted_in_its_triplicity_and_face() -> None:
    assert dignities_at("sun", 19.0, "day") == ("exaltation", "triplicity", "face")
    row = dignity_row(19.0)
    assert (row.exaltation, row.exaltation_degree, row.fall) == ("sun", 19, "saturn")
    assert (row.bound, row.bound_start, row.bound_end) == ("mercury", 12, 20)


def test_venus_in_scorpio_is_in_detriment_and_her_bound() -> None:
    # 8 Scorpio: bound of Venus (7-11), face of Mars (0-10); Venus rules Taurus opposite.
    assert dignities_at("venus", 218.0, "night") == ("triplicity", "bound", "detriment")
    assert dignities_at("venus", 218.0, "night", triplicity="sect") == ("bound", "detriment")


def test_sect_scoring_counts_only_the_ruler_of_the_sect() -> None:
    # 5 Leo: Sun domicile 5 + day triplicity 3 = 8 by day; by night Jupiter holds the triplicity.
    day = almuten(125.0, "day", triplicity="sect")
    night = almuten(125.0, "night", triplicity="sect")
    assert day.planets == ("sun",)
    assert day.score == 8
    assert night.scores["sun"] == 5
    assert night.scores["jupiter"] == 3 + 2


def test_bad_input_names_the_field() -> None:
    with pytest.raises(CalcInputError) as err:
        almuten(10.0, "dusk")
    assert err.value.field == "sect"
    with pytest.raises(CalcInputError) as err:
        almuten(10.0, "day", triplicity="lilly")
    assert err.value.field == "triplicity"
    with pytest.raises(CalcInputError) as err:
        dignity_row(float("nan"))
    assert err.value.field == "longitude"


# --- the natal chart's "lots": true layer ---------------------------------------------------------


def _flatlib_minor(planet: str, longitude: float) -> set[str]:
    """The triplicity (any of the three rulers), bound and face flatlib gives ``planet`` at
    ``longitude``: the independent reference of the natal chart's gained dignities."""
    sign = SIGNS[int(longitude // 30) % 12].capitalize()
    degree = longitude % 30
    info = essential.getInfo(sign, degree)
    found: set[str] = set()
    if planet in {_flat(info["dayTrip"]), _flat(info["nightTrip"]), _flat(info["partTrip"])}:
        found.add("triplicity")
    if _flat(essential.term(sign, degree)) == planet:
        found.add("bound")
    if _flat(essential.face(sign, degree)) == planet:
        found.add("face")
    return found


@pytest.mark.parametrize("seed", range(40))
def test_natal_chart_gains_flatlibs_triplicity_bound_and_face(seed: int) -> None:
    rng = random.Random(seed)
    subject = BirthSubject(
        date(1900, 1, 1) + timedelta(days=rng.randrange(73000)),
        f"{rng.randrange(24):02d}:{rng.randrange(60):02d}",
        rng.uniform(-60, 60),
        rng.uniform(-180, 180),
        timezone_offset_minutes=0,
    )
    chart = natal_chart(subject)
    sect = rng.choice(["day", "night"])
    gained = with_minor_dignities(chart, sect)
    points = {"triplicity": 3, "bound": 2, "face": 1}
    for before, after in zip(chart.planets, gained.planets, strict=True):
        if before.name not in CLASSICAL_PLANETS:
            assert after == before
            continue
        minor = _flatlib_minor(before.name, before.longitude)
        assert set(after.dignities) == set(before.dignities) | minor
        assert list(after.dignities) == [d for d in NATAL_DIGNITY_ORDER if d in after.dignities]
        assert after.dignity_score == before.dignity_score + sum(points[d] for d in minor)
    assert gained.houses == chart.houses
    assert gained.aspects == chart.aspects
