"""``client.tarot`` and ``client.numerology``: requests as the server expects them (body, query,
path), validation before sending, typed results."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from sdk_testkit import Script, async_client, error, reply, sync_client

import astro_sdk

CARD = {
    "id": "ten_of_cups", "index": 45, "arcana": "minor", "number": 10, "rank": "ten",
    "suit": "cups", "element": "water", "astrology": None, "yes_no": "yes", "language": "en",
    "name": "Ten of Cups", "arcana_name": "Minor Arcana", "suit_name": "Cups",
    "element_name": "Water", "keywords": ["harmony", "family"], "upright": "Lasting happiness.",
    "reversed": "Disconnection at home.",
}  # fmt: skip
FOOL = {**CARD, "id": "the_fool", "index": 0, "arcana": "major", "number": 0, "rank": None,
        "suit": None, "element": "air", "astrology": "uranus", "name": "The Fool",
        "suit_name": None, "element_name": "Air"}  # fmt: skip
READING = {
    "spread": "yes_no", "spread_name": "Yes or no", "language": "en", "reversals": True,
    "seed": "abc", "shuffle": "hmac-sha256-fisher-yates/v1",
    "cards": [{"position": 1, "position_name": "The answer", "position_meaning": "m",
               "orientation": "reversed", "orientation_name": "Reversed",
               "meaning": "Disconnection at home.", "card": CARD}],
    "answer": "maybe", "answer_text": "Maybe.",
}  # fmt: skip


def _number(aspect: str, value: int, compound: int) -> dict[str, Any]:
    return {"aspect": aspect, "aspect_name": aspect.title(), "describes": "d", "value": value,
            "compound": compound, "master": value in (11, 22, 33), "title": "t",
            "keywords": ["k"], "meaning": "m"}  # fmt: skip


PROFILE = {
    "name": "John Smith", "birth_date": "1992-11-22", "on_date": "2025-03-09",
    "system": "pythagorean", "language": "en", "reduction_rule": "r",
    "life_path": _number("life_path", 9, 36), "birthday": _number("birthday", 22, 22),
    "expression": _number("expression", 8, 44), "soul_urge": _number("soul_urge", 6, 15),
    "personality": _number("personality", 11, 29), "maturity": _number("maturity", 8, 17),
    "personal_year": _number("personal_year", 1, 10),
    "personal_month": _number("personal_month", 4, 4),
    "personal_day": _number("personal_day", 4, 13),
    "thai_name": None,
}  # fmt: skip
PHONE = {"kind": "phone", "text": "0812345678", "total": 44, "root": 8, "planet": "Rahu",
         "meaning": "m", "part_totals": [44],
         "values": [{"character": "0", "value": 0}, {"character": "8", "value": 8}]}  # fmt: skip


def test_draw_sends_only_the_given_fields_and_returns_a_typed_reading() -> None:
    script = Script(reply(200, READING, {"X-Credits-Charged": "1"}))
    reading = sync_client(script).tarot.draw(spread="yes_no", seed="abc")
    request = script.requests[0]
    assert (request.method, request.url.path) == ("POST", "/api/v3/tarot/draw")
    assert request.headers["Idempotency-Key"].startswith("astro-sdk-")
    assert json.loads(request.content) == {"spread": "yes_no", "seed": "abc"}
    assert reading.cards[0].card.name == "Ten of Cups"
    assert reading.cards[0].card.keywords == ["harmony", "family"]
    assert (reading.cards[0].orientation, reading.answer) == ("reversed", "maybe")
    assert reading.api_response.credits_charged == 1


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"seed": ""}, "seed"),
        ({"seed": "x" * 201}, "seed"),
        ({"spread": "horseshoe"}, "spread"),
        ({"language": "fr"}, "language"),
    ],
)
def test_draw_refuses_what_the_server_refuses_before_sending(
    options: dict[str, Any], field: str
) -> None:
    script = Script()
    with pytest.raises(astro_sdk.RequestValidationError) as caught:
        sync_client(script).tarot.draw(**options)
    assert [d["field"] for d in caught.value.details] == [field]
    assert script.requests == []


def test_list_cards_is_a_free_get_with_the_language_in_the_query() -> None:
    script = Script(reply(200, {"cards": [FOOL, CARD]}))
    deck = sync_client(script).tarot.list_cards(language="th")
    request = script.requests[0]
    assert (request.method, request.url.path) == ("GET", "/api/v3/tarot/cards")
    assert dict(request.url.params) == {"language": "th"}
    assert "Idempotency-Key" not in request.headers
    assert request.content == b""
    assert [card.id for card in deck.cards] == ["the_fool", "ten_of_cups"]
    assert deck.cards[0].suit is None


def test_get_card_by_index_or_id_and_an_unknown_card_is_not_found() -> None:
    script = Script(reply(200, FOOL), error(404, "not_found", "No tarot card 'the fool?'."))
    client = sync_client(script)
    assert client.tarot.get_card(0).name == "The Fool"
    assert script.requests[0].url.path == "/api/v3/tarot/cards/0"
    assert script.requests[0].url.params.get("language") is None
    with pytest.raises(astro_sdk.NotFoundError) as caught:
        client.tarot.get_card("the fool?", language="en")
    assert script.requests[1].url.raw_path == b"/api/v3/tarot/cards/the%20fool%3F?language=en"
    assert caught.value.error == "not_found"


async def test_async_tarot_draw_and_card() -> None:
    script = Script(reply(200, READING), reply(200, CARD))
    async with async_client(script) as client:
        reading = await client.tarot.draw(seed="abc", reversals=False, idempotency_key="t-1")
        card = await client.tarot.get_card("ten_of_cups")
    assert script.requests[0].headers["Idempotency-Key"] == "t-1"
    assert json.loads(script.requests[0].content) == {"seed": "abc", "reversals": False}
    assert reading.seed == "abc"
    assert card.index == 45


def test_numerology_profile_sends_dates_as_iso_and_returns_typed_numbers() -> None:
    script = Script(reply(200, {"profile": PROFILE, "phone": PHONE}))
    result = sync_client(script).numerology.profile(
        name="John Smith",
        birth_date=dt.date(1992, 11, 22),
        on_date="2025-03-09",
        phone="081-234-5678",
    )
    request = script.requests[0]
    assert (request.method, request.url.path) == ("POST", "/api/v3/numerology/profile")
    assert "Idempotency-Key" in request.headers
    assert json.loads(request.content) == {
        "name": "John Smith", "birth_date": "1992-11-22", "on_date": "2025-03-09",
        "phone": "081-234-5678",
    }  # fmt: skip
    profile = result.profile
    assert profile.birth_date == dt.date(1992, 11, 22)
    assert (profile.life_path.value, profile.life_path.compound) == (9, 36)
    assert profile.personality is not None
    assert profile.personality.master
    assert result.phone is not None
    assert (result.phone.total, result.phone.planet, result.phone.ignored) == (44, "Rahu", [])


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"name": "", "birth_date": "1990-01-01"}, "name"),
        ({"name": "x" * 201, "birth_date": "1990-01-01"}, "name"),
        ({"name": "Ann", "birth_date": "1990-02-30"}, "birth_date"),
        ({"name": "Ann", "birth_date": "1990-01-01", "system": "kabbalah"}, "system"),
        ({"name": "Ann", "birth_date": "1990-01-01", "phone": "0" * 33}, "phone"),
    ],
)
def test_numerology_refuses_what_the_server_refuses_before_sending(
    options: dict[str, Any], field: str
) -> None:
    script = Script()
    with pytest.raises(astro_sdk.RequestValidationError) as caught:
        sync_client(script).numerology.profile(**options)
    assert [d["field"] for d in caught.value.details] == [field]
    assert script.requests == []


async def test_async_numerology_a_name_without_letters_is_a_bad_request() -> None:
    details = [{"field": "name", "message": "has no letters"}]
    script = Script(error(400, "validation_error", "has no letters", details=details))
    async with async_client(script) as client:
        with pytest.raises(astro_sdk.BadRequestError) as caught:
            await client.numerology.profile(name="1234", birth_date="1990-01-01", language="th")
    assert caught.value.details == details
    assert json.loads(script.requests[0].content)["language"] == "th"
