"""Astrocartography, its map, relocation, place search and a subject's ``place`` (issue 44).

In-process app on SQLite. Answers are compared with astro_calc's own results for the same input
(which test_western_astrocartography / test_western_relocation / test_places check against
pyswisseph and the GeoNames data); each limit is tried just inside and just outside.
"""

from __future__ import annotations

import datetime as dt
import io
import itertools
from typing import Any

import msgspec
import pytest
from _platform_support import key_headers, new_account
from PIL import Image
from quart.typing import TestClientProtocol as Client

from astro_calc.places import place_by_id, search_places
from astro_calc.western import BirthSubject, natal_chart
from astro_calc.western.astrocartography import astrocartography
from astro_calc.western.relocation import relocation

ACG = "/api/v3/western/astrocartography"
MAP = "/api/v3/western/astrocartography/map"
RELOCATION = "/api/v3/western/relocation"
PLACES = "/api/v3/places"
SUBJECT: dict[str, Any] = {
    "date": "1990-07-15",
    "time": "14:30",
    "latitude": 13.7563,
    "longitude": 100.5018,
    "timezone": "Asia/Bangkok",
}
CALC_SUBJECT = BirthSubject(
    date=dt.date(1990, 7, 15),
    time="14:30",
    latitude=13.7563,
    longitude=100.5018,
    timezone="Asia/Bangkok",
)
LONDON = place_by_id(2643743)


@pytest.fixture
async def key() -> str:
    _id, api_key = await new_account("starter", 1000)
    return api_key


@pytest.fixture
async def pro_key() -> str:
    _id, api_key = await new_account("pro", 1000)
    return api_key


async def _post(client: Client, key: str, path: str, body: dict[str, Any]) -> Any:
    return await client.post(path, json=body, headers=key_headers(key))


def _plain(value: object) -> Any:
    """A result as the JSON answer carries it (tuples as lists)."""
    return msgspec.json.decode(msgspec.json.encode(value))


def _field(body: dict[str, Any]) -> str:
    fields = [d["field"] for d in body["details"]]
    assert len(fields) == 1, body
    return str(fields[0])


# --- astrocartography -----------------------------------------------------------------------------


async def test_lines_are_astro_calcs(client: Client, key: str) -> None:
    response = await _post(client, key, ACG, {"subject": SUBJECT, "bodies": ["sun", "venus"]})
    assert response.status_code == 200, await response.get_data()
    assert response.headers["X-Credits-Charged"] == "2"
    body = await response.get_json()
    expected = _plain(astrocartography(CALC_SUBJECT, bodies=["sun", "venus"]))
    assert body["lines"] == expected["lines"]
    assert {(ln["body"], ln["angle"]) for ln in body["lines"]} == {
        (b, a) for b in ("sun", "venus") for a in ("mc", "ic", "asc", "dsc")
    }
    assert body["parans"] == []
    assert body["local_space"] == []
    assert "interpretations" not in body
    for line in body["lines"]:
        lats = [p["latitude"] for p in line["points"]]
        assert all(-180 <= p["longitude"] <= 180 for p in line["points"])
        assert all(b - a <= 1.0 + 1e-9 for a, b in itertools.pairwise(lats))


async def test_options_parans_local_space_zodiacal_and_step(client: Client, key: str) -> None:
    options = {
        "parans": True,
        "local_space": True,
        "zodiacal": True,
        "step_deg": 2,
        "paran_orb_deg": 0.5,
    }
    response = await _post(client, key, ACG, {"subject": SUBJECT, **options})
    assert response.status_code == 200
    body = await response.get_json()
    expected = astrocartography(
        CALC_SUBJECT, parans=True, local_space=True, zodiacal=True, step_deg=2, paran_orb_deg=0.5
    )
    assert body["meta"]["method"] == "zodiacal"
    assert len(body["parans"]) == len(expected.parans) > 0
    assert body["parans"][0]["latitude_max"] - body["parans"][0]["latitude"] == pytest.approx(0.5)
    assert len(body["local_space"]) == len(expected.local_space) > 0
    # One price whatever the options (docs/decisions.md, "Astrocartography pricing").
    assert response.headers["X-Credits-Charged"] == "2"


async def test_interpretations_are_priced_and_gated(client: Client, key: str, pro_key: str) -> None:
    asked = {
        "subject": SUBJECT,
        "bodies": ["venus"],
        "interpretations": "summary",
        "language": "th",
    }
    refused = await _post(client, key, ACG, asked)
    assert refused.status_code == 403
    response = await _post(client, pro_key, ACG, asked)
    assert response.status_code == 200
    assert response.headers["X-Credits-Charged"] == "3"
    body = await response.get_json()
    keys = [item["key"] for item in body["interpretations"]["items"]]
    assert keys == [f"acg_line.venus.{a}" for a in ("mc", "ic", "asc", "dsc")]
    assert body["interpretations"]["language"] == "th"


async def test_free_tier_is_refused(client: Client) -> None:
    _id, free = await new_account("free", 100)
    response = await _post(client, free, ACG, {"subject": SUBJECT})
    assert response.status_code == 403


@pytest.mark.parametrize(
    ("field", "inside", "outside"),
    [
        ("step_deg", 0.1, 0.09),
        ("step_deg", 2, 2.01),
        ("paran_orb_deg", 0, -0.01),
        ("paran_orb_deg", 5, 5.01),
    ],
)
async def test_limits(client: Client, key: str, field: str, inside: float, outside: float) -> None:
    ok = await _post(client, key, ACG, {"subject": SUBJECT, "bodies": ["sun"], field: inside})
    assert ok.status_code == 200
    bad = await _post(client, key, ACG, {"subject": SUBJECT, "bodies": ["sun"], field: outside})
    assert bad.status_code == 400
    assert _field(await bad.get_json()) == field


async def test_bodies_limits(client: Client, key: str) -> None:
    empty = await _post(client, key, ACG, {"subject": SUBJECT, "bodies": []})
    assert empty.status_code == 400
    assert _field(await empty.get_json()) == "bodies"
    unknown = await _post(client, key, ACG, {"subject": SUBJECT, "bodies": ["vulcan"]})
    assert unknown.status_code == 400
    assert _field(await unknown.get_json()).startswith("bodies")


# --- the map --------------------------------------------------------------------------------------


async def test_map_svg_has_every_line_and_the_cities(client: Client, key: str) -> None:
    cities = [LONDON.id, {"name": "Home", "latitude": 10.0, "longitude": 20.0}]
    body = {"subject": SUBJECT, "bodies": ["sun", "moon"], "cities": cities}
    response = await _post(client, key, MAP, body)
    assert response.status_code == 200, await response.get_data()
    assert response.content_type.startswith("image/svg+xml")
    assert response.headers["X-Credits-Charged"] == "4"
    svg = (await response.get_data()).decode()
    assert svg.count('class="acg-line"') == len(
        astrocartography(CALC_SUBJECT, bodies=["sun", "moon"]).lines
    )
    assert 'data-name="London"' in svg
    assert 'data-name="Home"' in svg
    assert 'width="1600"' in svg


async def test_map_png_decodes(client: Client, key: str) -> None:
    body = {"subject": SUBJECT, "bodies": ["sun"], "format": "png", "size_px": 400}
    response = await _post(client, key, MAP, body)
    assert response.status_code == 200
    assert response.content_type == "image/png"
    image = Image.open(io.BytesIO(await response.get_data()))
    assert image.size == (400, 400)


async def test_map_thai_city_name(client: Client, key: str) -> None:
    bangkok = search_places("Bangkok", limit=1).places[0]
    body = {"subject": SUBJECT, "bodies": ["sun"], "language": "th", "cities": [bangkok.id]}
    svg = (await (await _post(client, key, MAP, body)).get_data()).decode()
    assert f'data-name="{bangkok.names["th"]}"' in svg


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"cities": [LONDON.id] * 21}, "cities"),
        ({"cities": [1]}, "cities[0]"),
        ({"cities": [{"name": "", "latitude": 0, "longitude": 0}]}, "cities[0].MapCity.name"),
        ({"size_px": 2001}, "size_px"),
        ({"size_px": 199}, "size_px"),
        ({"colors": {"primary": "#112233"}}, "colors"),
    ],
)
async def test_map_refuses(client: Client, key: str, extra: dict[str, Any], field: str) -> None:
    response = await _post(client, key, MAP, {"subject": SUBJECT, **extra})
    assert response.status_code == 400
    details = (await response.get_json())["details"]
    assert any(d["field"] == field for d in details), details


async def test_map_twenty_cities_and_2000_px_are_fine(client: Client, key: str) -> None:
    body = {"subject": SUBJECT, "bodies": ["sun"], "cities": [LONDON.id] * 20, "size_px": 2000}
    assert (await _post(client, key, MAP, body)).status_code == 200


# --- relocation -----------------------------------------------------------------------------------


async def test_relocation_is_the_natal_answer_at_the_new_place(client: Client, key: str) -> None:
    body = {"subject": SUBJECT, "latitude": LONDON.latitude, "longitude": LONDON.longitude}
    response = await _post(client, key, RELOCATION, body)
    assert response.status_code == 200, await response.get_data()
    assert response.headers["X-Credits-Charged"] == "2"
    found = await response.get_json()
    natal_fields = {"planets", "houses", "angles", "aspects", "elements", "modalities", "meta"}
    assert set(found) == natal_fields | {"relocation"}
    expected = relocation(CALC_SUBJECT, LONDON.latitude, LONDON.longitude)
    assert found["angles"] == _plain(expected.chart.angles)
    assert found["houses"] == _plain(expected.chart.houses)
    moved = found["relocation"]
    assert moved["natal_latitude"] == SUBJECT["latitude"]
    assert moved["angles"] == _plain(expected.angles)
    assert moved["house_changes"] == _plain(expected.house_changes)
    assert moved["lines"] == _plain(expected.lines)
    assert moved["interpretations"] is None
    # The same instant: the planets' longitudes are the birth chart's.
    natal = natal_chart(CALC_SUBJECT)
    for got, birth in zip(found["planets"], natal.planets, strict=True):
        assert got["longitude"] == pytest.approx(birth.longitude, abs=1e-9)


async def test_relocation_by_place_id_equals_coordinates(client: Client, key: str) -> None:
    by_id = await (
        await _post(client, key, RELOCATION, {"subject": SUBJECT, "place": LONDON.id})
    ).get_json()
    coords = {"subject": SUBJECT, "latitude": LONDON.latitude, "longitude": LONDON.longitude}
    by_coords = await (await _post(client, key, RELOCATION, coords)).get_json()
    assert by_id["angles"] == by_coords["angles"]
    assert by_id["relocation"] == by_coords["relocation"]


async def test_relocation_interpretations(client: Client, pro_key: str) -> None:
    body = {"subject": SUBJECT, "place": LONDON.id, "interpretations": "full", "language": "en"}
    response = await _post(client, pro_key, RELOCATION, body)
    assert response.status_code == 200
    assert response.headers["X-Credits-Charged"] == "4"
    found = await response.get_json()
    assert found["interpretations"]["items"]  # the natal texts of the relocated chart
    keys = [i["key"] for i in found["relocation"]["interpretations"]["items"]]
    assert "relocated_angle.ascendant" in keys
    assert "relocated_angle.midheaven" in keys


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"latitude": 51.5}, "longitude"),
        ({}, "latitude"),
        ({"place": 2643743, "latitude": 51.5}, "place"),
        ({"place": 1}, "place"),
        ({"latitude": 90.01, "longitude": 0}, "latitude"),
        ({"latitude": 0, "longitude": -180.01}, "longitude"),
        ({"place": 2643743, "line_orb_km": 2000.5}, "line_orb_km"),
        ({"place": 2643743, "line_orb_km": -1}, "line_orb_km"),
        ({"place": 2643743, "house_system": "Z"}, "house_system"),
    ],
)
async def test_relocation_refuses(
    client: Client, key: str, body: dict[str, Any], field: str
) -> None:
    response = await _post(client, key, RELOCATION, {"subject": SUBJECT, **body})
    assert response.status_code == 400
    assert _field(await response.get_json()) == field


@pytest.mark.parametrize("orb", [0, 2000])
async def test_relocation_orb_edges(client: Client, key: str, orb: float) -> None:
    body = {"subject": SUBJECT, "latitude": 90, "longitude": -180, "line_orb_km": orb}
    assert (await _post(client, key, RELOCATION, body)).status_code == 200


# --- a subject's place ----------------------------------------------------------------------------


async def test_subject_place_fills_coordinates_and_zone(client: Client, key: str) -> None:
    bangkok = search_places("Bangkok", limit=1).places[0]
    subject = {"date": "1990-07-15", "time": "14:30", "place": bangkok.id}
    response = await _post(client, key, "/api/v3/western/natal", {"subject": subject})
    assert response.status_code == 200, await response.get_data()
    meta = (await response.get_json())["meta"]
    assert meta["timezone"] == "Asia/Bangkok"
    assert meta["latitude"] == bangkok.latitude
    assert meta["longitude"] == bangkok.longitude


@pytest.mark.parametrize(
    ("subject", "field"),
    [
        ({"place": 2643743, "latitude": 51.5}, "subject.place"),
        ({"place": 2643743, "longitude": 0.1}, "subject.place"),
        ({"place": 999999999}, "subject.place"),
        ({}, "subject.latitude"),
        ({"latitude": 51.5}, "subject.longitude"),
    ],
)
async def test_subject_place_refusals(
    client: Client, key: str, subject: dict[str, Any], field: str
) -> None:
    body = {"subject": {"date": "1990-07-15", "time": "14:30", **subject}}
    response = await _post(client, key, ACG, body)
    assert response.status_code == 400
    assert _field(await response.get_json()) == field


# --- places ---------------------------------------------------------------------------------------


async def test_places_search_is_free(client: Client) -> None:
    _id, free = await new_account("free", 0)
    response = await client.get(PLACES, query_string={"q": "bangk"}, headers=key_headers(free))
    assert response.status_code == 200
    assert (
        "X-Credits-Charged" not in response.headers or response.headers["X-Credits-Charged"] == "0"
    )
    body = await response.get_json()
    assert body == _plain(search_places("bangk"))
    first = body["places"][0]
    assert first["name"] == "Bangkok"
    assert first["country"] == "TH"
    assert first["timezone"] == "Asia/Bangkok"
    assert first["names"]["th"]


async def test_places_thai_script_and_country(client: Client, key: str) -> None:
    thai = await client.get(PLACES, query_string={"q": "เชียงใหม่"}, headers=key_headers(key))
    assert (await thai.get_json())["places"][0]["name"] == "Chiang Mai"
    query = {"q": "london", "country": "ca", "limit": 1}
    only = await client.get(PLACES, query_string=query, headers=key_headers(key))
    places = (await only.get_json())["places"]
    assert [p["country"] for p in places] == ["CA"]


async def test_places_needs_a_key(client: Client) -> None:
    response = await client.get(PLACES, query_string={"q": "paris"})
    assert response.status_code == 401


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"q": "a"}, "q"),
        ({"q": " a "}, "q"),
        ({}, "q"),
        ({"q": "paris", "limit": 0}, "limit"),
        ({"q": "paris", "limit": 51}, "limit"),
        ({"q": "paris", "country": "THA"}, "country"),
        ({"q": "paris", "country": "1A"}, "country"),
    ],
)
async def test_places_refuses(client: Client, key: str, query: dict[str, Any], field: str) -> None:
    response = await client.get(PLACES, query_string=query, headers=key_headers(key))
    assert response.status_code == 400
    assert _field(await response.get_json()) == field


@pytest.mark.parametrize("limit", [1, 50])
async def test_places_limit_edges(client: Client, key: str, limit: int) -> None:
    query = {"q": "san", "limit": limit}
    response = await client.get(PLACES, query_string=query, headers=key_headers(key))
    assert len((await response.get_json())["places"]) == limit


async def test_estimates_price_the_new_operations(client: Client, key: str) -> None:
    for operation, params, credits in (
        ("western.astrocartography", {}, 2),
        ("western.astrocartography", {"interpretations": "full"}, 4),
        ("western.astrocartography_map", {}, 4),
        ("western.relocation", {"interpretations": "summary"}, 3),
    ):
        response = await _post(
            client, key, "/api/v3/estimates", {"operation": operation, "params": params}
        )
        assert response.status_code == 200
        assert (await response.get_json())["estimated_credits"] == credits, operation
