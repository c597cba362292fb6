"""Picture endpoints in-process (SQLite): each answers its image with the content type,
Content-Length and credit headers; the drawing holds exactly the numbers of the calculation
endpoint for the same body; PNG options; field-level 400s at every limit (both sides); the
idempotent replay of an image; the OpenAPI description of the image responses.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from _platform_support import key_headers, new_account
from PIL import Image
from quart.typing import TestClientProtocol as Client

SVG_NS = "{http://www.w3.org/2000/svg}"
WESTERN = {
    "date": "1990-07-15",
    "time": "14:30",
    "latitude": 13.75,
    "longitude": 100.5,
    "timezone": "Asia/Bangkok",
}
OTHER = {**WESTERN, "date": "1988-02-03", "time": "08:10", "latitude": 51.5, "longitude": -0.12,
         "timezone": "Europe/London"}  # fmt: skip
URANIAN = {
    "birth_date": "1962-09-24",
    "birth_time": "16:05",
    "birth_lat": 53.55,
    "birth_lon": 9.99,
    "birth_place": "Hamburg",
    "timezone": "Europe/Berlin",
}
ROUTES: dict[str, tuple[str, dict[str, Any]]] = {
    "natal": ("/api/v3/western/natal/wheel", {"subject": WESTERN}),
    "synastry": ("/api/v3/western/synastry/wheel", {"subject_a": WESTERN, "subject_b": OTHER}),
    "transits": (
        "/api/v3/western/transits/wheel",
        {"subject": WESTERN, "at": "2026-01-01T00:00:00Z"},
    ),
    "dial": ("/api/v3/uranian/dial", {**URANIAN, "pointer_deg": 10.0}),
    "vedic": ("/api/v3/vedic/chart/diagram", {"subject": WESTERN, "style": "south", "varga": "D9"}),
    "taksa": ("/api/v3/thai/wheel/diagram", {"subject": WESTERN, "language": "th"}),
}
PRICES = {"natal": 2, "synastry": 3, "transits": 3, "dial": 2, "vedic": 2, "taksa": 2}


@pytest.fixture
async def key() -> str:
    _id, api_key = await new_account("free", 1000)
    return api_key


@pytest.mark.parametrize("name", list(ROUTES))
async def test_svg_and_png_answers(client: Client, key: str, name: str) -> None:
    path, body = ROUTES[name]
    response = await client.post(path, json=body, headers=key_headers(key))
    assert response.status_code == 200, await response.get_data()
    assert response.content_type == "image/svg+xml"
    data = await response.get_data()
    assert int(response.headers["Content-Length"]) == len(data)
    assert response.headers["X-Credits-Charged"] == str(PRICES[name])
    root = ET.fromstring(data)  # noqa: S314 (our own output)
    assert root.tag == f"{SVG_NS}svg"
    assert root.get("width") == "800"
    png = await client.post(
        path, json={**body, "format": "png", "size_px": 321, "theme": "dark"},
        headers=key_headers(key),
    )  # fmt: skip
    assert png.status_code == 200
    assert png.content_type == "image/png"
    image = Image.open(io.BytesIO(await png.get_data()))
    assert image.size == (321, 321)
    assert image.convert("RGB").getpixel((1, 1)) == (0x14, 0x16, 0x1F)


async def test_the_wheel_holds_the_natal_endpoints_numbers(client: Client, key: str) -> None:
    body = {"subject": WESTERN, "house_system": "K"}
    numbers = await (
        await client.post("/api/v3/western/natal", json=body, headers=key_headers(key))
    ).get_json()
    svg = await (
        await client.post("/api/v3/western/natal/wheel", json=body, headers=key_headers(key))
    ).get_data()
    root = ET.fromstring(svg)  # noqa: S314
    drawn = {
        g.get("data-body"): float(g.get("data-longitude", "nan"))
        for g in root.iter(f"{SVG_NS}g")
        if g.get("class") == "body"
    }
    assert drawn == {p["name"]: p["longitude"] for p in numbers["planets"]}
    cusps = {
        int(line.get("data-cusp", "0")): float(line.get("data-longitude", "nan"))
        for line in root.iter(f"{SVG_NS}line")
        if line.get("data-cusp")
    }
    assert cusps == {h["number"]: h["cusp"] for h in numbers["houses"]}


async def test_an_image_replays_byte_for_byte(client: Client, key: str) -> None:
    path, body = ROUTES["natal"]
    headers = key_headers(key, **{"Idempotency-Key": "wheel-1"})
    first = await client.post(path, json={**body, "format": "png"}, headers=headers)
    again = await client.post(path, json={**body, "format": "png"}, headers=headers)
    assert first.status_code == again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.content_type == "image/png"
    assert await again.get_data() == await first.get_data()
    assert again.headers["X-Credits-Charged"] == "0"
    assert int(again.headers["X-Credits-Remaining"]) == 1000 - PRICES["natal"]


BAD: list[tuple[str, dict[str, Any], str]] = [
    ("natal", {"size_px": 199}, "size_px"),
    ("natal", {"size_px": 2001}, "size_px"),
    ("natal", {"colors": {"primary": "red"}}, "colors.primary"),
    ("natal", {"colors": {"background": "#12345"}}, "colors.background"),
    ("natal", {"colors": {"foreground": "#1234567"}}, "colors.foreground"),
    ("natal", {"theme": "sepia"}, "theme"),
    ("natal", {"format": "jpeg"}, "format"),
    ("natal", {"language": "fr"}, "language"),
    ("vedic", {"varga": "D5"}, "varga"),
    ("vedic", {"style": "east"}, "style"),
    ("dial", {"pointer_deg": 360}, "pointer_deg"),
    ("dial", {"pointer_deg": -0.5}, "pointer_deg"),
    ("transits", {"at": "3000-01-01T00:00:00Z"}, "at"),
]


@pytest.mark.parametrize(("name", "change", "field"), BAD)
async def test_bad_options_are_field_level_400s(
    client: Client, key: str, name: str, change: dict[str, Any], field: str
) -> None:
    path, body = ROUTES[name]
    response = await client.post(path, json={**body, **change}, headers=key_headers(key))
    assert response.status_code == 400
    error = await response.get_json()
    assert error["error"] == "validation_error"
    assert field in [d["field"] for d in error["details"]]
    assert response.headers.get("X-Credits-Charged", "0") == "0"  # refused before any debit


@pytest.mark.parametrize(
    ("change"),
    [{"size_px": 200, "format": "png"}, {"size_px": 2000, "format": "png"},
     {"colors": {"primary": "#00a0ff", "background": "#FFF5E0", "foreground": "#502000"}}],
)  # fmt: skip
async def test_the_edges_inside_the_limits_are_served(
    client: Client, key: str, change: dict[str, Any]
) -> None:
    path, body = ROUTES["natal"]
    response = await client.post(path, json={**body, **change}, headers=key_headers(key))
    assert response.status_code == 200
    if change.get("format") == "png":
        size = Image.open(io.BytesIO(await response.get_data())).size
        assert size == (change["size_px"], change["size_px"])
    else:
        svg = (await response.get_data()).decode()
        assert "#00A0FF" in svg
        assert "#FFF5E0" in svg


async def test_every_varga_is_drawn(client: Client, key: str) -> None:
    from astro_calc.vedic.varga import VARGAS

    for varga in VARGAS:
        for style in ("north", "south"):
            response = await client.post(
                "/api/v3/vedic/chart/diagram",
                json={"subject": WESTERN, "style": style, "varga": varga.lower()},
                headers=key_headers(key),
            )
            assert response.status_code == 200, varga


async def test_openapi_documents_the_image_responses(client: Client) -> None:
    document = await (await client.get("/openapi.json")).get_json()
    for path, _body in ROUTES.values():
        operation = document["paths"][path]["post"]
        content = operation["responses"]["200"]["content"]
        assert set(content) == {"image/svg+xml", "image/png"}
        assert operation["summary"]
        assert operation["description"]
        assert "402" in operation["responses"]
        assert "400" in operation["responses"]
    schema = document["paths"]["/api/v3/western/natal/wheel"]["post"]["requestBody"]["content"][
        "application/json"
    ]["schema"]
    if "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    options = schema["properties"]
    assert options["size_px"]["minimum"] == 200
    assert options["size_px"]["maximum"] == 2000


async def test_a_place_name_with_characters_xml_cannot_carry(client: Client, key: str) -> None:
    body = {**URANIAN, "birth_place": 'Ham\u0001burg <&> "x"'}
    for fmt in ("svg", "png"):
        response = await client.post(
            "/api/v3/uranian/dial", json={**body, "format": fmt}, headers=key_headers(key)
        )
        assert response.status_code == 200
        if fmt == "svg":
            root = ET.fromstring(await response.get_data())  # noqa: S314
            texts = ["".join(t.itertext()) for t in root.iter(f"{SVG_NS}text")]
            assert 'Hamburg <&> "x"' in texts


@pytest.mark.parametrize(
    ("operation", "name"),
    [("western.natal_wheel", "natal"), ("western.synastry_wheel", "synastry"),
     ("western.transits_wheel", "transits"), ("uranian.dial", "dial"),
     ("vedic.chart_diagram", "vedic"), ("thai.wheel_diagram", "taksa")],
)  # fmt: skip
async def test_estimates_price_the_pictures_as_they_are_charged(
    client: Client, key: str, operation: str, name: str
) -> None:
    estimate = await (
        await client.post(
            "/api/v3/estimates", json={"operation": operation}, headers=key_headers(key)
        )
    ).get_json()
    assert estimate["eligible"] is True
    assert estimate["estimated_credits"] == PRICES[name]
    path, body = ROUTES[name]
    charged = await client.post(path, json=body, headers=key_headers(key))
    assert charged.headers["X-Credits-Charged"] == str(estimate["estimated_credits"])
