"""Tarot & Numerology endpoints: draws, the card catalogue and numerology profiles."""

from __future__ import annotations

import pytest
from _platform_support import key_headers, new_account
from quart import Quart
from quart.typing import TestClientProtocol as Client

from astro_calc.tarot import draw_tarot


@pytest.fixture
async def key(app: Quart) -> str:
    _account, api_key = await new_account("free", credits=100)
    return api_key


async def test_seeded_draw_matches_the_library_and_charges_one_credit(app: Quart, key: str) -> None:
    client: Client = app.test_client()
    body = {"spread": "celtic_cross", "seed": "api-seed", "language": "th"}
    response = await client.post("/api/v3/tarot/draw", json=body, headers=key_headers(key))
    assert response.status_code == 200
    data = await response.get_json()
    expected = draw_tarot("celtic_cross", seed="api-seed", language="th")
    assert [c["card"]["id"] for c in data["cards"]] == [c.card.id for c in expected.cards]
    assert data["shuffle"] == "hmac-sha256-fisher-yates/v1"
    assert response.headers["X-Credits-Charged"] == "1"


async def test_unknown_spread_is_400_naming_the_field(app: Quart, key: str) -> None:
    client: Client = app.test_client()
    response = await client.post(
        "/api/v3/tarot/draw", json={"spread": "pyramid"}, headers=key_headers(key)
    )
    assert response.status_code == 400
    body = await response.get_json()
    assert body["details"][0]["field"] == "spread"


async def test_draw_needs_an_api_key(app: Quart) -> None:
    response = await app.test_client().post("/api/v3/tarot/draw", json={})
    assert response.status_code == 401


async def test_card_catalogue_and_one_card(app: Quart, key: str) -> None:
    client: Client = app.test_client()
    listing = await client.get("/api/v3/tarot/cards?language=th", headers=key_headers(key))
    assert listing.status_code == 200
    cards = (await listing.get_json())["cards"]
    assert len(cards) == 78
    one = await client.get("/api/v3/tarot/cards/the_star", headers=key_headers(key))
    assert (await one.get_json())["name"] == "The Star"
    missing = await client.get("/api/v3/tarot/cards/the_joker", headers=key_headers(key))
    assert missing.status_code == 404
    assert (await missing.get_json())["error"] == "not_found"


async def test_numerology_profile(app: Quart, key: str) -> None:
    client: Client = app.test_client()
    body = {
        "name": "John Winston Lennon",
        "birth_date": "1936-10-12",
        "on_date": "2025-01-01",
        "phone": "+66 81 234 5678",
    }
    response = await client.post("/api/v3/numerology/profile", json=body, headers=key_headers(key))
    assert response.status_code == 200
    data = await response.get_json()
    assert data["profile"]["expression"]["value"] == 1
    assert data["profile"]["life_path"]["value"] == 5
    assert data["phone"]["total"] == 44


async def test_numerology_name_without_letters_is_400_on_name(app: Quart, key: str) -> None:
    client: Client = app.test_client()
    body = {"name": "12345", "birth_date": "1990-01-01"}
    response = await client.post("/api/v3/numerology/profile", json=body, headers=key_headers(key))
    assert response.status_code == 400
    data = await response.get_json()
    assert data["details"][0]["field"] == "name"
    assert response.headers["X-Credits-Charged"] == "0"
