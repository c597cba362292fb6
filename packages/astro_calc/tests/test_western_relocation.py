"""The relocated chart against the natal chart cast directly at the new place for the same UTC
instant (an independent path: ``natal_chart`` of a subject given in UTC at the new place), and
the lines near a place against the astrocartography lines themselves."""

from __future__ import annotations

import random
from datetime import date

import pytest

from astro_calc.errors import CalcInputError
from astro_calc.glossary import find_forbidden
from astro_calc.western import BirthSubject, natal_chart
from astro_calc.western.astrocartography import astrocartography
from astro_calc.western.relocation import great_circle_km, line_interpretations, relocation

BANGKOK = BirthSubject(date(1990, 5, 1), "07:30", 13.75, 100.5, timezone="Asia/Bangkok")


@pytest.mark.parametrize("seed", range(6))
def test_relocated_chart_equals_the_natal_chart_cast_at_the_new_place(seed: int) -> None:
    rng = random.Random(seed)
    subject = BirthSubject(
        date(rng.randint(1920, 2040), rng.randint(1, 12), rng.randint(1, 28)),
        f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}",
        rng.uniform(-55, 55),
        rng.uniform(-180, 180),
        timezone_offset_minutes=rng.choice([-300, 0, 60, 420, 600]),
    )
    lat, lon = rng.uniform(-60, 60), rng.uniform(-180, 180)
    moved = relocation(subject, lat, lon)
    utc = moved.chart.meta.utc
    direct = natal_chart(
        BirthSubject(
            utc.date(), utc.strftime("%H:%M:%S.%f")[:8], lat, lon, timezone_offset_minutes=0
        )
    )
    # The UTC instant to the second: compare to 1e-3 degrees (the Moon moves 0.0002 deg/s).
    assert moved.chart.meta.latitude == lat
    for a, b in zip(moved.chart.planets, direct.planets, strict=True):
        assert a.name == b.name
        assert a.longitude == pytest.approx(b.longitude, abs=1e-3)
    for a, b in zip(moved.chart.houses, direct.houses, strict=True):
        assert abs((a.cusp - b.cusp + 180) % 360 - 180) < 1e-2
    natal = natal_chart(subject)
    for shift in moved.angles:
        before = getattr(natal.angles, shift.angle)
        after = getattr(moved.chart.angles, shift.angle)
        assert shift.natal == before
        assert shift.relocated == after
        assert shift.sign_changed == (before.sign != after.sign)
    natal_house = {p.name: p.house for p in natal.planets}
    changed = {c.body: (c.natal_house, c.relocated_house) for c in moved.house_changes}
    for p in moved.chart.planets:
        if natal_house[p.name] != p.house:
            assert changed[p.name] == (natal_house[p.name], p.house)
        else:
            assert p.name not in changed


def test_a_place_on_the_venus_mc_line_finds_that_line_at_zero_distance() -> None:
    acg = astrocartography(BANGKOK, bodies=["venus"])
    mc = next(line for line in acg.lines if line.angle == "mc")
    on_line = mc.points[130]  # latitude 45
    moved = relocation(BANGKOK, on_line.latitude, on_line.longitude, language="en")
    first = moved.lines[0]
    assert (first.body, first.angle) == ("venus", "mc")
    assert first.distance_km < 1e-6
    keys = [i.key for i in moved.interpretations.items]
    assert "acg_line.venus.mc" in keys
    assert "relocated_angle.ascendant" in keys


def test_line_distance_is_the_shortest_distance_on_the_sphere() -> None:
    acg = astrocartography(BANGKOK, bodies=["mars"])
    mc = next(line for line in acg.lines if line.angle == "mc")
    lat = 30.0
    lon = mc.points[0].longitude + 2.0
    if lon > 180:
        lon -= 360
    moved = relocation(BANGKOK, lat, lon, line_bodies=["mars"], line_orb_km=1000)
    found = next(n for n in moved.lines if n.angle == "mc")
    # To a meridian the shortest way is along a great circle, a bit shorter than the parallel.
    along_parallel = great_circle_km(lat, lon, lat, mc.points[0].longitude)
    assert found.distance_km <= along_parallel
    assert found.distance_km == pytest.approx(
        great_circle_km(lat, lon, found.nearest[0], found.nearest[1]), abs=1e-9
    )
    assert found.distance_km == pytest.approx(193.0, abs=1.0)  # 2 deg * 111.19 km * cos 30


def test_thai_interpretations_use_the_glossary_terms() -> None:
    moved = relocation(BANGKOK, 48.85, 2.35, language="th", level="full")
    for item in moved.interpretations.items:
        assert not find_forbidden(item.title + item.text), item.key
        assert "{" not in item.title + item.text


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"latitude": 91.0, "longitude": 0.0}, "latitude"),
        ({"latitude": 0.0, "longitude": 181.0}, "longitude"),
        ({"latitude": 0.0, "longitude": 0.0, "line_orb_km": -1.0}, "line_orb_km"),
        ({"latitude": 0.0, "longitude": 0.0, "language": "fr"}, "language"),
        ({"latitude": 0.0, "longitude": 0.0, "house_system": "Z"}, "house_system"),
    ],
)
def test_bad_input_names_the_field(kwargs: dict, field: str) -> None:
    with pytest.raises(CalcInputError) as err:
        relocation(BANGKOK, **kwargs)
    assert err.value.field == field


@pytest.mark.parametrize("language", ["en", "th"])
def test_every_planet_and_the_node_have_a_text_for_each_of_the_four_lines(language) -> None:
    acg = astrocartography(BANGKOK)  # ten planets and the true node
    result = line_interpretations(acg, language=language, level="full")
    keys = [i.key for i in result.items]
    assert len(keys) == 44
    assert len(set(keys)) == 44
    assert "acg_line.true_node.dsc" in keys
    texts = {i.text for i in result.items}
    assert len(texts) == 44  # no text repeated
    for item in result.items:
        assert not find_forbidden(item.title + item.text), item.key


def test_line_texts_skip_bodies_without_one() -> None:
    acg = astrocartography(BANGKOK, bodies=["venus", "mean_lilith"])
    keys = [i.key for i in line_interpretations(acg).items]
    assert keys == ["acg_line.venus.mc", "acg_line.venus.ic", "acg_line.venus.asc",
                    "acg_line.venus.dsc"]  # fmt: skip
